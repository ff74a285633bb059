//! Semantic retrieval: the nearest chunks to a query vector, grouped into
//! messages, within the messages a query's filters allow.

use crate::engine::retrieval::retrieve::DEPTH;
use crate::engine::{Engine, Result};
use crate::mail::model::MessageKey;
use crate::store::{embed_id, StoredChunk};
use std::collections::HashSet;

/// The most allowed messages whose embedding ids are gathered up front.
const EMBED_SET_LIMIT: usize = 5000;

impl Engine {
    /// Dense top-k over chunks, grouped into messages (best chunk per message).
    pub(in crate::engine) fn dense_messages(
        &self,
        q: &[f32],
        allowed: Option<&HashSet<MessageKey>>,
    ) -> Result<Vec<(MessageKey, f32, StoredChunk)>> {
        let store = &self.store;
        // A small allowed set is turned into its embedding ids once, so the vector
        // walk (and its exact fallback over every vector) tests membership in memory.
        let allowed_embeds = match allowed {
            Some(set) if set.len() <= EMBED_SET_LIMIT => Some(self.embed_ids_of(set)?),
            _ => None,
        };
        let filter = |id: u64| match (allowed, &allowed_embeds) {
            (None, _) => true,
            (Some(_), Some(ids)) => ids.contains(&id),
            (Some(set), None) => store
                .messages_with_embed(id)
                .map(|ms| ms.iter().any(|m| set.contains(m)))
                .unwrap_or(false),
        };
        let hits = self.retrieval.vectors.search(q, DEPTH, Some(&filter))?;
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for hit in hits {
            for chunk in self.store.chunks_with_embed(hit.id)? {
                if allowed.is_some_and(|s| !s.contains(&chunk.message)) {
                    continue;
                }
                if self.quotes_a_stored_parent(&chunk)? {
                    continue;
                }
                if seen.insert(chunk.message) {
                    out.push((chunk.message, hit.score, chunk));
                }
            }
        }
        Ok(out)
    }

    /// Whether the chunk is the quoted text of a message this one replies to that
    /// the store holds: that message ranks for its own words, not its replies.
    fn quotes_a_stored_parent(&self, chunk: &StoredChunk) -> Result<bool> {
        let quoted = chunk
            .origin
            .as_ref()
            .is_some_and(|o| o.carried == crate::mail::embedded::Carried::Quoted);
        if !quoted {
            return Ok(false);
        }
        let Some(msg) = self.store.message(&chunk.message)? else {
            return Ok(false);
        };
        for parent in &msg.in_reply_to {
            let bare = parent.trim().trim_start_matches('<').trim_end_matches('>');
            if !self.store.keys_by_message_id(bare)?.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The embedding ids of the messages' chunks (body and attachments).
    fn embed_ids_of(&self, keys: &HashSet<MessageKey>) -> Result<HashSet<u64>> {
        let mut ids = HashSet::new();
        for key in keys {
            for c in self.store.chunks_of(key)? {
                ids.insert(embed_id(&c.embed_text));
            }
            if let Some(msg) = self.store.message(key)? {
                for c in self.store.attachment_chunks_of(&msg)? {
                    ids.insert(embed_id(&c.embed_text));
                }
            }
        }
        Ok(ids)
    }
}
