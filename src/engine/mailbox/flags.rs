//! Flags written back to the mail's source. A flag is set on an email, so on every
//! copy of it the store holds.
//!
//! A Maildir file is renamed (its `:2,` flags rewritten, out of `new/` into `cur/`)
//! before the store records the new name. A crash in between leaves a file whose
//! content the store knows under a path that is gone; the next ingest points the
//! store at the renamed file (see `ingest::classify`). Mail of other local sources
//! (mbox, single .eml files) has no flags of its own: Quoth keeps them in its store.
//! A flag on IMAP mail is set in the store and recorded as a change for the server
//! (see [`crate::store::imap_changes`]), which the next sync of the account sends.

use crate::engine::{Engine, EngineError, Result};
use crate::mail::model::MessageKey;
use crate::source::maildir::{find_renamed, parse_flags, path_with_flags};
use crate::source::SourceLocation;
use crate::store::file_renames::PendingRename;
use crate::store::imap_changes::ImapChanges;
use crate::store::sync_state::SyncState;
use crate::store::{Store, StoredMessage, ThreadSummary};
use std::path::Path;
use std::sync::Mutex;

/// What setting a flag changed.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct FlagOutcome {
    /// The flag letter and whether it was set (else cleared).
    pub flag: char,
    pub on: bool,
    /// Every copy of the email with its flags now.
    pub messages: Vec<(MessageKey, String)>,
    /// Copies whose source cannot hold the flag (mbox, .eml): kept in Quoth.
    pub kept_in_quoth: usize,
    /// IMAP accounts with the change waiting to be sent to their server.
    pub to_servers: Vec<String>,
    /// The email's thread, summarised again (its unread count).
    pub thread: Option<ThreadSummary>,
}

/// The flag letters `flags` becomes with `flag` set or cleared, sorted.
pub fn with_flag(flags: &str, flag: char, on: bool) -> String {
    let mut letters: Vec<char> = flags.chars().filter(|&c| c != flag).collect();
    if on {
        letters.push(flag);
    }
    letters.sort_unstable();
    letters.dedup();
    letters.into_iter().collect()
}

impl Engine {
    /// Sets (`on`) or clears a Maildir flag letter (`S` seen, `F` flagged, `R`
    /// replied...) on the email of `key` and every copy of it.
    pub fn set_flag(&self, key: &MessageKey, flag: char, on: bool) -> Result<FlagOutcome> {
        set_flag(&self.store, key, flag, on)
    }
}

/// [`Engine::set_flag`] on the store alone: it needs neither index, so a front end
/// flags mail while an ingest holds the engine.
pub fn set_flag(store: &Store, key: &MessageKey, flag: char, on: bool) -> Result<FlagOutcome> {
    // One flag change at a time renames files and rewrites their records.
    static WRITING: Mutex<()> = Mutex::new(());
    let _one = WRITING.lock().unwrap_or_else(|e| e.into_inner());
    let Some(msg) = store.message(key)? else {
        return Err(EngineError::NoSuchMessage(key.to_hex()));
    };
    let thread = store.thread_of(key)?;
    let mut outcome = FlagOutcome {
        flag,
        on,
        ..FlagOutcome::default()
    };
    for copy in crate::engine::mailbox::copies::copies_in_thread(store, msg, thread.as_ref())? {
        let (flags, held) = write_flag(store, &copy, flag, on)?;
        match held {
            Held::AtSource => {}
            Held::InQuoth => outcome.kept_in_quoth += 1,
            Held::OnServer(account) => {
                if !outcome.to_servers.contains(&account) {
                    outcome.to_servers.push(account);
                }
            }
        }
        outcome.messages.push((copy.key, flags));
    }
    if let Some(id) = thread {
        outcome.thread = crate::engine::mailbox::threading::resummarise(store, &id)?;
    }
    store.flush()?;
    Ok(outcome)
}

/// Where a copy's flags are kept.
enum Held {
    /// In its Maildir file's name.
    AtSource,
    /// In Quoth's store only (an mbox, a single .eml).
    InQuoth,
    /// On the IMAP server of this account, once the change waiting is sent.
    OnServer(String),
}

/// Sets or clears `flag` on one copy at its source and in the store. Returns its
/// flags now and where they are kept.
fn write_flag(store: &Store, msg: &StoredMessage, flag: char, on: bool) -> Result<(String, Held)> {
    let in_store = |store: &Store| -> Result<String> {
        let flags = with_flag(&msg.flags, flag, on);
        store.set_flags(&msg.key, &flags)?;
        Ok(flags)
    };
    if let SourceLocation::Imap { account, .. } = &msg.location {
        // Every folder of the server holding the message gets the change.
        let changes = ImapChanges::open(store.db())?;
        for at in SyncState::open(store.db())?.refs_of(&msg.key)? {
            changes.queue_flag(&at, flag, on)?;
        }
        return Ok((in_store(store)?, Held::OnServer(account.clone())));
    }
    let SourceLocation::File { path } = &msg.location else {
        return Ok((in_store(store)?, Held::InQuoth));
    };
    if path_with_flags(Path::new(path), "").is_none() {
        return Ok((in_store(store)?, Held::InQuoth));
    }
    // Another client may have renamed the file since it was read: its name now
    // holds the flags as they are.
    let from = match Path::new(path).exists() {
        true => Path::new(path).to_path_buf(),
        false => find_renamed(Path::new(path)).ok_or_else(|| {
            EngineError::MailSource(format!(
                "{path} is gone from its Maildir (moved or deleted by another program); \
                 `quoth ingest` reads the folder again"
            ))
        })?,
    };
    let flags = with_flag(&parse_flags(&from.to_string_lossy()), flag, on);
    let to = path_with_flags(&from, &flags).unwrap_or_else(|| from.clone());
    let to_text = to.to_string_lossy().into_owned();
    if from != to {
        let from_text = from.to_string_lossy().into_owned();
        crate::engine::mailbox::moves::renamed_in_store(
            store,
            &PendingRename {
                key: msg.key,
                from: from_text.clone(),
                to: to_text.clone(),
                folder: msg.folder.clone(),
                flags: flags.clone(),
            },
        )?;
        if from_text != *path {
            // Renamed by another program first: its cursor was kept by the old name.
            store.move_source_cursor(path, &to_text)?;
        }
    } else if to_text != *path || flags != msg.flags {
        store.relocate(
            &msg.key,
            SourceLocation::File {
                path: to_text.clone(),
            },
            &msg.folder,
            &flags,
        )?;
        store.move_source_cursor(path, &to_text)?;
    }
    Ok((flags, Held::AtSource))
}

#[cfg(test)]
mod tests {
    use super::with_flag;

    #[test]
    fn flags_stay_sorted_and_single() {
        assert_eq!(with_flag("RS", 'F', true), "FRS");
        assert_eq!(with_flag("FRS", 'F', false), "RS");
        assert_eq!(with_flag("S", 'S', true), "S");
        assert_eq!(with_flag("", 'S', false), "");
    }
}
