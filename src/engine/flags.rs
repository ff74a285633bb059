//! Flags written back to the mail's source. A flag is set on an email, so on every
//! copy of it the store holds.
//!
//! A Maildir file is renamed (its `:2,` flags rewritten, out of `new/` into `cur/`)
//! before the store records the new name. A crash in between leaves a file whose
//! content the store knows under a path that is gone; the next ingest points the
//! store at the renamed file (see `ingest::classify`). Mail of other local sources
//! (mbox, single .eml files) has no flags of its own: Quoth keeps them in its store.
//! IMAP mail keeps its flags in the store too until they can be stored on the server.

use super::{Engine, EngineError, Result};
use crate::mail::model::MessageKey;
use crate::source::maildir::{find_renamed, parse_flags, path_with_flags};
use crate::source::SourceLocation;
use crate::store::{Store, StoredMessage, ThreadSummary};
use std::path::Path;
use std::sync::Mutex;

/// What setting a flag changed.
#[derive(Debug, Clone, Default)]
pub struct FlagOutcome {
    /// The flag letter and whether it was set (else cleared).
    pub flag: char,
    pub on: bool,
    /// Every copy of the email with its flags now.
    pub messages: Vec<(MessageKey, String)>,
    /// Copies whose source cannot hold the flag (mbox, .eml, IMAP): kept in Quoth.
    pub kept_in_quoth: usize,
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
    for copy in super::copies::copies_in_thread(store, msg, thread.as_ref())? {
        let (flags, at_source) = write_flag(store, &copy, flag, on)?;
        if !at_source {
            outcome.kept_in_quoth += 1;
        }
        outcome.messages.push((copy.key, flags));
    }
    if let Some(id) = thread {
        outcome.thread = super::threading::resummarise(store, &id)?;
    }
    store.flush()?;
    Ok(outcome)
}

/// Sets or clears `flag` on one copy at its source and in the store. Returns its
/// flags now and whether its source holds them (else only the store does).
fn write_flag(store: &Store, msg: &StoredMessage, flag: char, on: bool) -> Result<(String, bool)> {
    let in_store = |store: &Store| -> Result<(String, bool)> {
        let flags = with_flag(&msg.flags, flag, on);
        store.set_flags(&msg.key, &flags)?;
        Ok((flags, false))
    };
    let SourceLocation::File { path } = &msg.location else {
        return in_store(store);
    };
    if path_with_flags(Path::new(path), "").is_none() {
        return in_store(store);
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
        std::fs::rename(&from, &to).map_err(|e| {
            EngineError::MailSource(format!("renaming {} to {to_text}: {e}", from.display()))
        })?;
    }
    if to_text != *path || flags != msg.flags {
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
    Ok((flags, true))
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
