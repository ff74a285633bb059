//! Tags on IMAP mail kept as the server's keywords, both ways. A tag changed in
//! Quoth is recorded as a keyword change for every UID holding the message, which
//! the next sync sends where the folder keeps keywords (see
//! [`crate::engine::server_changes`]). A keyword another client adds or removes on
//! the server is read by the sync that sees it (against the keywords last read,
//! [`crate::store::imap_keywords`]) and added to or removed from the tags.
//! Keywords that are not tag names (`$Forwarded`, `$Junk`) are left alone, and a
//! tag that cannot be a keyword (one with non-ASCII letters) stays in Quoth.

use crate::engine::{Engine, Result};
use crate::mail::model::MessageKey;
use crate::source::imap::flags::is_keyword;
use crate::store::imap_changes::ImapChanges;
use crate::store::imap_keywords::ImapKeywords;
use crate::store::sync_state::{ImapRef, SyncState};
use crate::store::tags::check_tag;
use crate::store::Store;

/// Records tags added to and removed from `keys` as keyword changes for the
/// server copies of those messages.
pub(in crate::engine) fn queue_keywords(
    store: &Store,
    keys: &[MessageKey],
    add: &[String],
    remove: &[String],
) -> Result<()> {
    let keep = |names: &[String]| -> Vec<String> {
        names.iter().filter(|n| is_keyword(n)).cloned().collect()
    };
    let (add, remove) = (keep(add), keep(remove));
    if add.is_empty() && remove.is_empty() {
        return Ok(());
    }
    let refs = SyncState::open(store.db())?;
    let changes = ImapChanges::open(store.db())?;
    for key in keys {
        for at in refs.refs_of(key)? {
            changes.queue_keywords(&at, &add, &remove)?;
        }
    }
    Ok(())
}

/// One UID's keywords as the server reported them.
pub(in crate::engine) struct ServerKeywords {
    pub(in crate::engine) uid: u32,
    pub(in crate::engine) key: MessageKey,
    pub(in crate::engine) keywords: Vec<String>,
}

impl Engine {
    /// Takes the keyword changes other clients made on the server into the tags of
    /// the messages of `folder`; returns how many messages' tags changed.
    pub(in crate::engine) fn read_server_keywords(
        &self,
        acct: &str,
        folder: &str,
        found: &[ServerKeywords],
    ) -> Result<usize> {
        let seen = ImapKeywords::open(self.store.db())?;
        let mut changed = 0;
        for f in found {
            let at = ImapRef {
                account: acct.to_string(),
                folder: folder.to_string(),
                uid: f.uid,
            };
            let tags: Vec<String> = f
                .keywords
                .iter()
                .filter(|k| check_tag(k).is_ok())
                .cloned()
                .collect();
            let change = seen.read(&at, &tags)?;
            if change.added.is_empty() && change.removed.is_empty() {
                continue;
            }
            changed += self
                .mailbox
                .tags
                .change(&[f.key], &change.added, &change.removed)?;
        }
        Ok(changed)
    }
}
