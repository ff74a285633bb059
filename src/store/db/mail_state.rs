//! Which messages are in which state (unread, flagged, replied...), kept beside the
//! messages so `is:` in a query is exact the moment a flag changes: every write of a
//! message's flags updates these sets in the same call (and the copy of each set
//! that queries read, see [`live_sets`](crate::store::live_sets)), and no search
//! index is touched. Read mail is asked for as all mail but the unread.
//!
//! A set is kept in 256 buckets by the first byte of the message key: the key is
//! the state's code byte then that byte, the value the bucket's message keys,
//! sorted, 16 bytes each. Reading a whole set is 256 reads, however large it is
//! (a store of unread mail from an archive has every message in one set), and a
//! flag change rewrites one bucket of a few hundred keys.

use super::{Result, Store};
use crate::mail::model::MessageKey;
use crate::mail::state::MailState;
use crate::store::live_sets::{KeySet, SetChange};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The meta key set once every stored message's states are in the sets (in
/// buckets; a store with the sets one entry per message is filled again).
const BUILT: &str = "mail_states_built_v2";

const KEY_LEN: usize = 16;

fn bucket(state: MailState, key: &MessageKey) -> [u8; 2] {
    [state.code(), key.0[0]]
}

/// The keys of a bucket's value (a value of another length is cut to whole keys).
fn keys_of(value: &[u8]) -> impl Iterator<Item = MessageKey> + '_ {
    value
        .chunks_exact(KEY_LEN)
        .filter_map(|c| <[u8; KEY_LEN]>::try_from(c).ok().map(MessageKey))
}

impl Store {
    /// The messages in `state` now (for read mail, that is the unread, to leave out:
    /// see [`MailState::complement`]).
    pub fn state_set(&self, state: MailState) -> Result<Arc<KeySet>> {
        let kept = state.complement().unwrap_or(state);
        self.live_states.get(&kept, || {
            let mut keys = Vec::new();
            for item in self.mail_states.scan_prefix([kept.code()]) {
                let (_, value) = item?;
                keys.extend(keys_of(&value));
            }
            Ok(keys)
        })
    }

    /// Moves a message between the state sets as its flags go from `old` to `new`
    /// (None: not stored).
    pub(super) fn index_states(
        &self,
        key: &MessageKey,
        old: Option<&str>,
        new: Option<&str>,
    ) -> Result<()> {
        let mut changes = Vec::new();
        for state in MailState::kept() {
            let was = old.is_some_and(|f| state.holds(f));
            let is = new.is_some_and(|f| state.holds(f));
            if was != is {
                changes.push((state, *key, is));
            }
        }
        self.write_states(&changes)
    }

    /// The state sets new messages join.
    pub(super) fn new_states(
        changes: &mut Vec<SetChange<MailState>>,
        key: &MessageKey,
        flags: &str,
    ) {
        for state in MailState::kept().filter(|s| s.holds(flags)) {
            changes.push((state, *key, true));
        }
    }

    /// Writes changes to the state sets, to the tree and its loaded copies.
    pub(super) fn write_states(&self, changes: &[SetChange<MailState>]) -> Result<()> {
        if changes.is_empty() {
            return Ok(());
        }
        self.live_states.write(changes, || {
            let mut buckets: BTreeMap<[u8; 2], Vec<(MessageKey, bool)>> = BTreeMap::new();
            for (state, key, present) in changes {
                buckets
                    .entry(bucket(*state, key))
                    .or_default()
                    .push((*key, *present));
            }
            let mut batch = sled::Batch::default();
            for (at, edits) in buckets {
                let mut keys: Vec<MessageKey> = match self.mail_states.get(at)? {
                    Some(v) => keys_of(&v).collect(),
                    None => Vec::new(),
                };
                for (key, present) in edits {
                    match (keys.binary_search(&key), present) {
                        (Err(i), true) => keys.insert(i, key),
                        (Ok(i), false) => {
                            keys.remove(i);
                        }
                        _ => {}
                    }
                }
                if keys.is_empty() {
                    batch.remove(&at);
                } else {
                    let value: Vec<u8> = keys.iter().flat_map(|k| k.0).collect();
                    batch.insert(&at, value);
                }
            }
            self.mail_states.apply_batch(batch)?;
            Ok(())
        })
    }

    /// Fills the state sets from the stored messages, once, for a store written
    /// before they were kept (or by a process killed while filling them).
    pub(super) fn build_mail_states(&self) -> Result<()> {
        if self.meta.contains_key(BUILT)? {
            return Ok(());
        }
        self.live_states.forget_all();
        self.mail_states.clear()?;
        let mut changes = Vec::new();
        for msg in self.messages() {
            let msg = msg?;
            Self::new_states(&mut changes, &msg.key, &msg.flags);
        }
        self.write_states(&changes)?;
        self.meta.insert(BUILT, &[])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn key(i: u32) -> MessageKey {
        // Spread over every bucket, several keys to a bucket.
        let h = blake3::hash(&i.to_le_bytes());
        let mut k = [0u8; KEY_LEN];
        k.copy_from_slice(&h.as_bytes()[..KEY_LEN]);
        MessageKey(k)
    }

    fn set(store: &Store, state: MailState) -> HashSet<MessageKey> {
        store
            .state_set(state)
            .expect("set")
            .keys()
            .copied()
            .collect()
    }

    #[test]
    fn state_sets_written_in_buckets_read_back_whole_after_reopening() {
        let dir = tempfile::tempdir().expect("dir");
        let mut unread: HashSet<MessageKey> = HashSet::new();
        let mut flagged: HashSet<MessageKey> = HashSet::new();
        {
            let store = Store::open(dir.path()).expect("open");
            let mut changes = Vec::new();
            for i in 0..1500 {
                changes.push((MailState::Unread, key(i), true));
                unread.insert(key(i));
                if i % 7 == 0 {
                    changes.push((MailState::Flagged, key(i), true));
                    flagged.insert(key(i));
                }
            }
            store.write_states(&changes).expect("write");
            assert_eq!(set(&store, MailState::Unread), unread);
            // Read one by one, unflagged, flagged again: the copy follows.
            for i in (0..1500).step_by(3) {
                store
                    .write_states(&[(MailState::Unread, key(i), false)])
                    .expect("read");
                unread.remove(&key(i));
            }
            store
                .write_states(&[
                    (MailState::Flagged, key(7), false),
                    (MailState::Flagged, key(7), true),
                    (MailState::Flagged, key(14), false),
                    (MailState::Flagged, key(9999), false),
                ])
                .expect("flags");
            flagged.remove(&key(14));
            assert_eq!(set(&store, MailState::Unread), unread);
            assert_eq!(set(&store, MailState::Flagged), flagged);
        }
        let store = Store::open(dir.path()).expect("reopen");
        assert_eq!(set(&store, MailState::Unread), unread, "read from the tree");
        assert_eq!(set(&store, MailState::Flagged), flagged);
        assert!(set(&store, MailState::Draft).is_empty());
    }
}
