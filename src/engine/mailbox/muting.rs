//! Muted threads: a thread whose mail carries the tag `muted` (notmuch's habit)
//! stays quiet. A new message arriving in it, by a local ingest or an IMAP sync, is
//! tagged `muted` too, marked read and archived.

use crate::engine::mailbox::moves::MoveTarget;
use crate::engine::{Engine, Result};
use crate::mail::model::{MessageKey, ThreadId};
use std::collections::HashSet;

/// The tag that mutes a thread.
pub const MUTED: &str = "muted";

impl Engine {
    /// Quiets the messages of `added` that arrived in a muted thread: tagged
    /// `muted`, read, archived (where the message's source can move it). Returns
    /// how many were quieted.
    pub fn quiet_muted(&mut self, added: &[MessageKey]) -> Result<usize> {
        let muted_keys = self.mailbox.tags.keys_tagged(MUTED)?;
        if muted_keys.is_empty() || added.is_empty() {
            return Ok(0);
        }
        let mut muted_threads: HashSet<ThreadId> = HashSet::new();
        for key in &muted_keys {
            muted_threads.insert(self.thread_id(key)?);
        }
        let already: HashSet<MessageKey> = muted_keys.into_iter().collect();
        let tag = [MUTED.to_string()];
        let mut quieted = 0;
        for key in added {
            if already.contains(key) || !self.store.contains_message(key)? {
                continue;
            }
            if !muted_threads.contains(&self.thread_id(key)?) {
                continue;
            }
            self.change_tags(std::slice::from_ref(key), &tag, &[])?;
            self.set_flag(key, 'S', true)?;
            // Mail whose source has no folders to move between (an mbox, a single
            // file) stays where it is, read and tagged.
            let _ = self.move_message(key, &MoveTarget::Archive);
            quieted += 1;
        }
        Ok(quieted)
    }
}
