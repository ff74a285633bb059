//! Which messages are in which state (unread, flagged, replied...), kept beside the
//! messages so `is:` in a query is exact the moment a flag changes: every write of a
//! message's flags updates these sets in the same call, and no search index is
//! touched. Keys are the state's code byte then the message key; read mail is
//! asked for as all mail but the unread.

use super::{Result, Store};
use crate::mail::model::MessageKey;
use crate::mail::state::MailState;

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
    pub fn keys_in_state(&self, state: MailState) -> Result<Vec<MessageKey>> {
        let kept = state.complement().unwrap_or(state);
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
    }

    /// Moves a message between the state sets as its flags go from `old` to `new`
    /// (None: not stored).
    pub(super) fn index_states(
        &self,
        key: &MessageKey,
        old: Option<&str>,
        new: Option<&str>,
    ) -> Result<()> {
        let mut batch = sled::Batch::default();
        for state in MailState::kept() {
            let was = old.is_some_and(|f| state.holds(f));
            let is = new.is_some_and(|f| state.holds(f));
            match (was, is) {
                (false, true) => batch.insert(entry(state, key), &[]),
                (true, false) => batch.remove(entry(state, key)),
                _ => {}
            }
        }
        self.mail_states.apply_batch(batch)?;
        Ok(())
    }

    /// The state sets of new messages, for their batch.
    pub(super) fn new_states(batch: &mut sled::Batch, key: &MessageKey, flags: &str) {
        for state in MailState::kept().filter(|s| s.holds(flags)) {
            batch.insert(entry(state, key), &[]);
        }
    }

    /// Fills the state sets from the stored messages, once, for a store written
    /// before they were kept (or by a process killed while filling them).
    pub(super) fn build_mail_states(&self) -> Result<()> {
        if self.meta.contains_key(BUILT)? {
            return Ok(());
        }
        self.mail_states.clear()?;
        let mut batch = sled::Batch::default();
        for msg in self.messages() {
            let msg = msg?;
            Self::new_states(&mut batch, &msg.key, &msg.flags);
        }
        self.mail_states.apply_batch(batch)?;
        self.meta.insert(BUILT, &[])?;
        Ok(())
    }
}
