//! Taking messages out of Quoth: the store (message, chunks, Message-ID entry, thread
//! facts and membership), the search index, and the vectors no other chunk shares,
//! then a rethread. Used when mail goes away at its source (an IMAP expunge, a
//! folder whose UIDVALIDITY changed). Running it twice is harmless, so a removal cut
//! short by a crash is finished by the next sync.

use crate::engine::jobs::embedding::EMBED_JOB;
use crate::engine::jobs::ingest::{rethread_and_index, AddedDocuments};
use crate::engine::{Engine, Result};
use crate::mail::model::MessageKey;
use serde::Serialize;

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct RemoveReport {
    /// Messages that were in the store and are gone.
    pub removed: usize,
    /// Vectors tombstoned (no remaining chunk had their text).
    pub vectors_removed: usize,
}

impl Engine {
    /// Removes these messages and everything derived from them. The caller decides
    /// that nothing still refers to them (see `engine::sync`): this removes for good.
    pub fn remove_messages(&mut self, keys: &[MessageKey]) -> Result<RemoveReport> {
        if keys.is_empty() {
            return Ok(RemoveReport::default());
        }
        let present = keys
            .iter()
            .filter(|k| self.store.contains_message(k).unwrap_or(false))
            .count();
        let freed = self.store.remove_messages(keys)?;
        // Deleting by key term is idempotent, so it is done for every key: a previous
        // run may have removed the sled records and died before this commit.
        for key in keys {
            self.retrieval.lexical.delete(key)?;
        }
        self.retrieval.lexical.commit()?;
        for id in &freed {
            self.retrieval.vectors.remove(*id);
            // The job's result is gone: if the same text comes back it must be embedded
            // again, so its done job is forgotten.
            self.jobs.forget(EMBED_JOB, &id.to_be_bytes())?;
        }
        if !freed.is_empty() {
            self.retrieval.vectors.save()?;
        }
        if present > 0 {
            rethread_and_index(self, &[], AddedDocuments::Indexed, &mut |_| {})?;
        }
        self.store.flush()?;
        Ok(RemoveReport {
            removed: present,
            vectors_removed: freed.len(),
        })
    }
}
