//! Which messages are in which state (unread, flagged, replied...), kept beside the
//! messages so `is:` in a query is exact the moment a flag changes: every write of a
//! message's flags updates these sets in the same call (and the copy of each set
//! that queries read, see [`live_sets`](crate::store::live_sets)), and no search
//! index is touched. Keys are the state's code byte then the message key; read mail is
//! asked for as all mail but the unread.

use super::{Result, Store};
use crate::mail::model::MessageKey;
use crate::mail::state::MailState;
use crate::store::live_sets::{KeySet, SetChange};
use std::sync::Arc;

/// The meta key set once every stored message's states are in the sets.
const BUILT: &str = "mail_states_built";

fn entry(state: MailState, key: &MessageKey) -> Vec<u8> {
    let mut k = Vec::with_capacity(1 + key.0.len());
    k.push(state.code());
    k.extend_from_slice(&key.0);
    k
}

impl Store {
    /// The messages in `state` now (for read mail, that is the unread, to leave out:
    /// see [`MailState::complement`]).
    pub fn state_set(&self, state: MailState) -> Result<Arc<KeySet>> {
        let kept = state.complement().unwrap_or(state);
        self.live_states.get(&kept, || {
            self.mail_states
                .scan_prefix([kept.code()])
                .keys()
                .filter_map(|k| match k {
                    Ok(k) => k
                        .get(1..)
                        .and_then(|b| <[u8; 16]>::try_from(b).ok())
                        .map(|b| Ok(MessageKey(b))),
                    Err(e) => Some(Err(e.into())),
                })
                .collect()
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
            let mut batch = sled::Batch::default();
            for (state, key, present) in changes {
                if *present {
                    batch.insert(entry(*state, key), &[]);
                } else {
                    batch.remove(entry(*state, key));
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
