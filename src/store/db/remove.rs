//! Taking messages out of the store, and changing what a source says about them
//! (flags, where the bytes are): the store side of IMAP expunges and flag changes.

use super::{chunk_key, decode, encode, Result, Store};
use crate::mail::model::MessageKey;
use crate::source::SourceLocation;
use crate::store::records::{embed_id, ChunkRecord, StoredChunk, StoredMessage, ThreadFacts};
use std::collections::BTreeSet;

impl Store {
    /// Removes messages with their chunks, Message-ID entries, thread facts and
    /// membership and attachments. Returns the embed ids no chunk carries any more
    /// (their vectors can go). The message record goes last, as it came in last, so
    /// a removal cut short is finished by running it again.
    pub fn remove_messages(&self, keys: &[MessageKey]) -> Result<Vec<u64>> {
        let mut touched = BTreeSet::new();
        for key in keys {
            let Some(msg) = self.message(key)? else {
                continue;
            };
            let mut batch_chunks = sled::Batch::default();
            let mut batch_embed = sled::Batch::default();
            for v in self.chunks.scan_prefix(key.0).values() {
                let rec: ChunkRecord = decode("chunks", &v?)?;
                let chunk = StoredChunk::of(&msg, &rec);
                let id = embed_id(&chunk.embed_text);
                let mut ek = id.to_be_bytes().to_vec();
                ek.extend_from_slice(&chunk_key(key, rec.ordinal));
                batch_embed.remove(ek);
                batch_chunks.remove(chunk_key(key, rec.ordinal));
                touched.insert(id);
            }
            self.embed_chunks.apply_batch(batch_embed)?;
            self.chunks.apply_batch(batch_chunks)?;
            let mut attachments = sled::Batch::default();
            for k in self.attachments.scan_prefix(key.0).keys() {
                attachments.remove(k?);
            }
            self.attachments.apply_batch(attachments)?;
            if let Some(id) = &msg.message_id {
                let mut k = id.as_bytes().to_vec();
                k.push(0);
                k.extend_from_slice(&key.0);
                self.msgids.remove(k)?;
            }
            self.facts.remove(key.0)?;
            self.remove_graph(key)?;
            self.msg_thread.remove(key.0)?;
            self.index_states(key, Some(&msg.flags), None)?;
            self.messages.remove(key.0)?;
        }
        self.bump_generation();
        let mut freed = Vec::new();
        for id in touched {
            if self
                .embed_chunks
                .scan_prefix(id.to_be_bytes())
                .next()
                .is_none()
            {
                freed.push(id);
            }
        }
        Ok(freed)
    }

    /// Sets a message's flags (and the unread fact threads count); returns whether
    /// anything changed.
    pub fn set_flags(&self, key: &MessageKey, flags: &str) -> Result<bool> {
        let Some(mut msg) = self.message(key)? else {
            return Ok(false);
        };
        if msg.flags == flags {
            return Ok(false);
        }
        self.index_states(key, Some(&msg.flags), Some(flags))?;
        msg.flags = flags.to_string();
        if let Some(v) = self.facts.get(key.0)? {
            let mut facts: ThreadFacts = super::decode_facts(&v)?;
            facts.unread = msg.is_unread();
            facts.flagged = msg.is_flagged();
            self.facts.insert(key.0, encode(&facts))?;
        }
        self.messages.insert(key.0, encode(&msg))?;
        Ok(true)
    }

    /// Points a message at another copy of its bytes (its first source went away but
    /// another still holds it), with that copy's folder and flags.
    pub fn relocate(
        &self,
        key: &MessageKey,
        location: SourceLocation,
        folder: &str,
        flags: &str,
    ) -> Result<()> {
        let Some(mut msg): Option<StoredMessage> = self.message(key)? else {
            return Ok(());
        };
        msg.location = location;
        msg.folder = folder.to_string();
        self.messages.insert(key.0, encode(&msg))?;
        if let Some(v) = self.facts.get(key.0)? {
            let mut facts: ThreadFacts = super::decode_facts(&v)?;
            if facts.folder != folder {
                facts.folder = folder.to_string();
                self.facts.insert(key.0, encode(&facts))?;
            }
        }
        self.set_flags(key, flags)?;
        Ok(())
    }
}
