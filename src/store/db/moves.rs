//! Records that change when mail is flagged or moved at its source: a message's file
//! and flags, the cursor of its file, and its thread's summary.

use super::{decode_facts, encode, Result, Store};
use crate::mail::model::MessageKey;
use crate::store::records::{ThreadFacts, ThreadSummary};

impl Store {
    /// Moves what is known of a source file to its new path (the file was renamed),
    /// so the next ingest neither reads it again nor misses it.
    pub fn move_source_cursor(&self, from: &str, to: &str) -> Result<()> {
        if let Some(cursor) = self.source_cursor(from)? {
            self.set_source_cursor(to, &cursor)?;
            self.sources.remove(from)?;
        }
        Ok(())
    }

    /// One message's thread facts.
    pub fn facts_of(&self, key: &MessageKey) -> Result<Option<ThreadFacts>> {
        self.facts.get(key.0)?.map(|v| decode_facts(&v)).transpose()
    }

    /// Writes one thread's summary (after a flag of one of its messages changed).
    pub fn put_thread(&self, summary: &ThreadSummary) -> Result<()> {
        self.threads.insert(summary.id.0, encode(summary))?;
        Ok(())
    }
}
