//! Letting go of a folder's UIDs: a message no other folder or local file holds is
//! removed, one held elsewhere is pointed at a remaining copy.

use crate::engine::{Engine, Result};
use crate::mail::model::MessageKey;
use crate::source::SourceLocation;
use crate::store::sync_state::{ImapRef, SyncState, UidEntry};
use std::collections::{BTreeMap, BTreeSet, HashSet};

impl Engine {
    /// Lets go of UIDs of a folder: a message none of whose other sources (UIDs of
    /// other folders, local files) holds it is removed; one still held elsewhere is
    /// pointed at a remaining copy. Returns how many messages were removed.
    pub(super) fn release(
        &mut self,
        state: &SyncState,
        acct: &str,
        folder: &str,
        uids: &[u32],
        local: &BTreeMap<u32, UidEntry>,
    ) -> Result<usize> {
        if uids.is_empty() {
            return Ok(0);
        }
        let releasing: HashSet<ImapRef> = uids
            .iter()
            .map(|&uid| ImapRef {
                account: acct.to_string(),
                folder: folder.to_string(),
                uid,
            })
            .collect();
        let candidates: BTreeSet<MessageKey> = uids
            .iter()
            .filter_map(|u| local.get(u))
            .map(|e| e.key)
            .collect();
        let held_locally = self.held_by_local_sources(&candidates)?;
        let mut remove = Vec::new();
        for key in &candidates {
            let others: Vec<ImapRef> = state
                .refs_of(key)?
                .into_iter()
                .filter(|r| !releasing.contains(r))
                .collect();
            if others.is_empty() && !held_locally.contains(key) {
                remove.push(*key);
            } else if let Some(other) = others.first() {
                self.move_location_if_released(state, key, acct, folder, &releasing, other)?;
            }
        }
        let removed = self.remove_messages(&remove)?.removed;
        state.unmap_uids(acct, folder, uids)?;
        self.store.flush()?;
        Ok(removed)
    }

    /// Keys among `candidates` that a local Maildir, mbox or .eml file holds.
    fn held_by_local_sources(
        &self,
        candidates: &BTreeSet<MessageKey>,
    ) -> Result<HashSet<MessageKey>> {
        let mut held = HashSet::new();
        if candidates.is_empty() {
            return Ok(held);
        }
        for item in self.store.source_cursors() {
            let (_, cursor) = item?;
            held.extend(cursor.messages.iter().filter(|k| candidates.contains(k)));
        }
        Ok(held)
    }

    fn move_location_if_released(
        &mut self,
        state: &SyncState,
        key: &MessageKey,
        acct: &str,
        folder: &str,
        releasing: &HashSet<ImapRef>,
        other: &ImapRef,
    ) -> Result<()> {
        let Some(msg) = self.store.message(key)? else {
            return Ok(());
        };
        let SourceLocation::Imap {
            account: a,
            folder: f,
            uid,
            ..
        } = &msg.location
        else {
            return Ok(());
        };
        let here = ImapRef {
            account: acct.to_string(),
            folder: folder.to_string(),
            uid: *uid,
        };
        if a != acct || f != folder || !releasing.contains(&here) {
            return Ok(());
        }
        let (Some(cursor), Some(entry)) = (
            state.cursor(&other.account, &other.folder)?,
            state.entry(&other.account, &other.folder, other.uid)?,
        ) else {
            return Ok(());
        };
        let location = SourceLocation::Imap {
            account: other.account.clone(),
            folder: other.folder.clone(),
            uidvalidity: cursor.uidvalidity,
            uid: other.uid,
        };
        let shown = format!("{}/{}", other.account, other.folder);
        self.store.relocate(key, location, &shown, &entry.flags)?;
        Ok(())
    }
}
