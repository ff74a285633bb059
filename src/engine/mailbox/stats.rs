//! Counts and sizes for `quoth stats`.

use crate::engine::{Engine, Result};
use serde::Serialize;
use std::collections::HashSet;

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Stats {
    pub messages: usize,
    pub threads: usize,
    pub chunks: usize,
    pub quarantined: usize,
    /// Messages that a source file was recorded as holding but that the store lacks:
    /// should always be 0.
    pub lost: usize,
    /// Source files whose content is recorded.
    pub source_files: usize,
    pub store_bytes: u64,
    pub lexical_docs: u64,
    pub lexical_bytes: u64,
    pub attachments: crate::engine::AttachmentStats,
}

impl Engine {
    pub fn stats(&self) -> Result<Stats> {
        let mut recorded = HashSet::new();
        let mut source_files = 0;
        for item in self.store.source_cursors() {
            let (_, cursor) = item?;
            source_files += 1;
            recorded.extend(cursor.messages);
        }
        let mut lost = 0;
        for key in &recorded {
            if !self.store.contains_message(key)? {
                lost += 1;
            }
        }
        Ok(Stats {
            messages: self.store.message_count()?,
            threads: self.store.thread_count()?,
            chunks: self.store.chunk_count()?,
            quarantined: self.store.quarantine_count()?,
            lost,
            source_files,
            store_bytes: self.store.size_on_disk(),
            lexical_docs: self.retrieval.lexical.doc_count(),
            lexical_bytes: self.retrieval.lexical.size_on_disk(),
            attachments: self.attachment_stats()?,
        })
    }
}
