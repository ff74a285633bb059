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

    /// Forgets a source file that is gone for good (deleted by an expunge).
    pub fn forget_source(&self, path: &str) -> Result<()> {
        self.sources.remove(path)?;
        Ok(())
    }

    /// One message's thread facts.
    pub fn facts_of(&self, key: &MessageKey) -> Result<Option<ThreadFacts>> {
        self.facts.get(key.0)?.map(|v| decode_facts(&v)).transpose()
    }

    /// Fills in the thread facts that records written before they held them lack
    /// (folder, content identity, flagged), from the messages. Returns how many
    /// changed; done once per store (`facts_complete` in meta).
    pub fn complete_facts(&self) -> Result<usize> {
        if self.meta.contains_key("facts_complete")? {
            return Ok(0);
        }
        let mut changed = 0;
        for msg in self.messages() {
            // A record that cannot be read is left as it is; it is reported where
            // it is read for itself.
            let Ok(msg) = msg else { continue };
            let Some(v) = self.facts.get(msg.key.0)? else {
                continue;
            };
            let Ok(mut facts) = decode_facts(&v) else {
                continue;
            };
            let complete = ThreadFacts {
                content: msg.content_id(),
                flagged: msg.is_flagged(),
                folder: msg.folder.clone(),
                ..facts.clone()
            };
            if complete.content != facts.content
                || complete.flagged != facts.flagged
                || complete.folder != facts.folder
            {
                facts = complete;
                self.facts.insert(msg.key.0, encode(&facts))?;
                changed += 1;
            }
        }
        self.meta.insert("facts_complete", &[1])?;
        Ok(changed)
    }

    /// Writes one thread's summary (after a flag of one of its messages changed).
    pub fn put_thread(&self, summary: &ThreadSummary) -> Result<()> {
        self.threads.insert(summary.id.0, encode(summary))?;
        Ok(())
    }
}
