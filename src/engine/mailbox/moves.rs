//! Moving mail between the folders of its Maildir: archive, delete (to the trash
//! folder) and move, written to the files first.
//!
//! A move renames the message's file into the target folder's `cur/` or `new/`,
//! then the store and the search index follow. The search index is marked owed
//! before the rename and cleared after its commit, so a crash in between is caught
//! up when the store is next opened; the store's record of the file is repaired by
//! the next ingest, which finds the file in its new folder (`ingest::classify`).

use crate::engine::{Engine, EngineError, Result};
use crate::mail::model::MessageKey;
use crate::source::maildir::is_maildir;
use crate::source::SourceLocation;
use crate::store::file_renames::{FileRenames, PendingRename};
use crate::store::imap_changes::ImapChanges;
use crate::store::sync_state::SyncState;
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Where a message goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveTarget {
    /// The account's archive folder (made when there is none).
    Archive,
    /// The account's trash folder (made when there is none).
    Trash,
    /// A folder of the account by its path under the Maildir root (`work/2024`).
    Folder(String),
    /// A folder by its directory (undoing a move).
    Dir(PathBuf),
}

impl MoveTarget {
    /// A target as a user names it: `archive` and `trash` are the account's own
    /// folders (whatever they are called there), anything else a folder's path.
    pub fn named(name: &str) -> Self {
        match name.trim().to_lowercase().as_str() {
            "archive" => MoveTarget::Archive,
            "trash" => MoveTarget::Trash,
            _ => MoveTarget::Folder(name.trim().to_string()),
        }
    }
}

/// Folder names taken for the archive and the trash, compared without case or a
/// Maildir++ dot; the first is made when none exists.
const ARCHIVE_NAMES: &[&str] = &["archive", "archives"];
pub(in crate::engine) const TRASH_NAMES: &[&str] = &[
    "trash",
    "deleted items",
    "deleted_items",
    "deleted messages",
];

/// What a move did.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MoveOutcome {
    pub key: MessageKey,
    /// The folder it left, as the store names folders, and its directory.
    pub from_folder: String,
    pub from_dir: PathBuf,
    /// The folder it is in now.
    pub to_folder: String,
    /// Its thread, summarised again (the folders its mail is in).
    pub thread: Option<crate::store::ThreadSummary>,
    /// The move that takes this one back.
    pub back: MoveTarget,
    /// The IMAP account whose server is still to be told (the next sync sends it).
    pub to_server: Option<String>,
}

/// What moving the mail a query matches did (`quoth move --json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveReport {
    /// Emails the query matched (one copy each: the one the search listed).
    pub matched: usize,
    pub moved: usize,
    /// Already in the target folder.
    pub already_there: usize,
    /// The folders they went to.
    pub to_folders: Vec<String>,
    /// IMAP accounts whose servers the next sync tells.
    pub to_servers: Vec<String>,
    pub failed: Vec<MoveFailure>,
}

/// A message that could not be moved, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveFailure {
    pub key: String,
    pub message_id: Option<String>,
    pub error: String,
}

impl Engine {
    /// Moves the message `key` (this copy: other copies stay where they are).
    pub fn move_message(&mut self, key: &MessageKey, target: &MoveTarget) -> Result<MoveOutcome> {
        let outcome = self.move_unindexed(key, target)?;
        let moved = outcome.from_folder != outcome.to_folder;
        let moved: &[MessageKey] = if moved {
            std::slice::from_ref(key)
        } else {
            &[]
        };
        let thread = self.after_moves(moved)?;
        Ok(MoveOutcome {
            thread: thread.into_iter().next(),
            ..outcome
        })
    }

    /// Moves every message `query` matches (up to `limit`), the search index
    /// written once for all of them.
    pub fn move_matching(
        &mut self,
        query: &str,
        target: &MoveTarget,
        limit: usize,
    ) -> Result<MoveReport> {
        // No query matches more emails than are stored.
        let limit = limit.clamp(1, self.store.message_count()?.max(1));
        let hits = self.search(query, limit, chrono::Utc::now().timestamp())?;
        let mut report = MoveReport {
            matched: hits.len(),
            ..MoveReport::default()
        };
        let mut moved = Vec::new();
        for hit in &hits {
            let Some(key) = MessageKey::from_hex(&hit.key) else {
                continue;
            };
            match self.move_unindexed(&key, target) {
                Ok(o) if o.from_folder == o.to_folder => report.already_there += 1,
                Ok(o) => {
                    moved.push(key);
                    if !report.to_folders.contains(&o.to_folder) {
                        report.to_folders.push(o.to_folder);
                    }
                    if let Some(account) = o.to_server {
                        if !report.to_servers.contains(&account) {
                            report.to_servers.push(account);
                        }
                    }
                }
                Err(e) => report.failed.push(MoveFailure {
                    key: hit.key.clone(),
                    message_id: hit.message_id.clone(),
                    error: e.to_string(),
                }),
            }
        }
        report.moved = moved.len();
        self.after_moves(&moved)?;
        Ok(report)
    }

    /// The search documents and thread summaries of moved messages, then the store
    /// flushed; returns the threads summarised again.
    pub(in crate::engine) fn after_moves(
        &mut self,
        moved: &[MessageKey],
    ) -> Result<Vec<crate::store::ThreadSummary>> {
        if !moved.is_empty() {
            let docs: Vec<(MessageKey, bool)> = moved.iter().map(|k| (*k, true)).collect();
            self.index_messages(&docs, &mut |_, _| {})?;
            self.store.set_documents_owed(false)?;
        }
        let mut threads = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for key in moved {
            if let Some(id) = self.store.thread_of(key)? {
                if seen.insert(id) {
                    threads.extend(crate::engine::mailbox::threading::resummarise(
                        &self.store,
                        &id,
                    )?);
                }
            }
        }
        self.store.flush()?;
        Ok(threads)
    }

    /// Moves one message at its source and in the store; its search document and
    /// thread summary are left owed ([`Engine::after_moves`]).
    fn move_unindexed(&mut self, key: &MessageKey, target: &MoveTarget) -> Result<MoveOutcome> {
        let Some(msg) = self.store.message(key)? else {
            return Err(EngineError::NoSuchMessage(key.to_hex()));
        };
        if let SourceLocation::Imap {
            account, folder, ..
        } = &msg.location
        {
            return self.move_on_server(&msg, account, folder, target);
        }
        let SourceLocation::File { path } = &msg.location else {
            return Err(EngineError::MailSource(format!(
                "{} is not a Maildir file: only Maildir mail can be moved yet",
                msg.location.describe()
            )));
        };
        let file = PathBuf::from(path);
        let (Some(sub), Some(folder_dir)) = (file.parent(), file.parent().and_then(Path::parent))
        else {
            return Err(not_maildir(path));
        };
        let sub_name = sub.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !matches!(sub_name, "cur" | "new") || !is_maildir(folder_dir) {
            return Err(not_maildir(path));
        }
        let root = maildir_root(folder_dir, &msg.folder).ok_or_else(|| not_maildir(path))?;
        let root_name = msg.folder.split('/').next().unwrap_or_default().to_string();
        let target_dir = match target {
            MoveTarget::Archive => special_folder(&root, ARCHIVE_NAMES)?,
            MoveTarget::Trash => special_folder(&root, TRASH_NAMES)?,
            MoveTarget::Folder(name) => {
                let name = name.trim_matches('/');
                // A Maildir++ folder is a dot directory, named without its dot.
                let dotted = root.join(format!(".{}", name.replace('/', ".")));
                let dir = match root.join(name) {
                    d if !is_maildir(&d) && is_maildir(&dotted) => dotted,
                    d => d,
                };
                if !is_maildir(&dir) {
                    return Err(EngineError::MailSource(format!(
                        "no folder {name} in {}",
                        root.display()
                    )));
                }
                dir
            }
            MoveTarget::Dir(dir) => dir.clone(),
        };
        let to_folder = folder_name(&root, &root_name, &target_dir);
        let outcome = MoveOutcome {
            key: *key,
            from_folder: msg.folder.clone(),
            from_dir: folder_dir.to_path_buf(),
            to_folder: to_folder.clone(),
            thread: None,
            back: MoveTarget::Dir(folder_dir.to_path_buf()),
            to_server: None,
        };
        if target_dir == folder_dir {
            return Ok(outcome);
        }
        let file_name = file.file_name().ok_or_else(|| not_maildir(path))?;
        let to = target_dir.join(sub_name).join(file_name);
        let to_text = to.to_string_lossy().into_owned();
        self.store.set_documents_owed(true)?;
        renamed_in_store(
            &self.store,
            &PendingRename {
                key: *key,
                from: path.clone(),
                to: to_text,
                folder: to_folder.clone(),
                flags: msg.flags.clone(),
            },
        )?;
        Ok(outcome)
    }
}

impl Engine {
    /// Moves IMAP mail: the store shows it in the target folder at once, and the
    /// move waits as a change for the server (the next sync of the account sends
    /// it, then finds the message in its new folder).
    fn move_on_server(
        &mut self,
        msg: &crate::store::StoredMessage,
        account: &str,
        folder: &str,
        target: &MoveTarget,
    ) -> Result<MoveOutcome> {
        let state = SyncState::open(self.store.db())?;
        let known = state.folders(account)?;
        let to = match target {
            MoveTarget::Archive => server_folder(&known, ARCHIVE_NAMES, "Archive"),
            MoveTarget::Trash => server_folder(&known, TRASH_NAMES, "Trash"),
            MoveTarget::Folder(name) => {
                let name = name
                    .strip_prefix(&format!("{account}/"))
                    .unwrap_or(name)
                    .to_string();
                if !known.contains(&name) {
                    return Err(EngineError::MailSource(format!(
                        "no folder {name} in the account {account}"
                    )));
                }
                name
            }
            MoveTarget::Dir(dir) => {
                return Err(EngineError::MailSource(format!(
                    "{} is a local folder; IMAP mail moves between the folders of its account",
                    dir.display()
                )))
            }
        };
        let changes = ImapChanges::open(self.store.db())?;
        let refs = state.refs_of(&msg.key)?;
        let in_folder = |name: &str| {
            refs.iter()
                .filter(|r| r.account == account && r.folder == name)
                .cloned()
                .collect::<Vec<_>>()
        };
        // The folder it is shown in: where the last move made in Quoth sends it.
        let shown = msg
            .folder
            .strip_prefix(&format!("{account}/"))
            .unwrap_or(&msg.folder)
            .to_string();
        let mut waiting = Vec::new();
        for at in refs.iter().filter(|r| r.account == account) {
            if changes.get(at)?.is_some_and(|c| c.move_to.is_some()) {
                waiting.push(at.clone());
            }
        }
        if !waiting.is_empty() {
            // A move not sent yet: it goes to the new folder instead (or is taken
            // back), and any older debt is void.
            for at in &waiting {
                changes.queue_move(at, Some(&to))?;
            }
            changes.take_owed_move(&msg.key, account)?;
        } else if changes.owed_move(&msg.key, account)?.is_some() {
            // Owed already (no sync has found it since): the debt names the new folder.
            changes.owe_move(&msg.key, account, &to)?;
        } else if shown != folder {
            // An earlier move reached the server and no sync has found it in the
            // new folder yet. Owed first: a sync that maps its UID there takes the
            // debt, so whichever of the two comes second queues the move.
            changes.owe_move(&msg.key, account, &to)?;
            let there = in_folder(&shown);
            for at in &there {
                changes.queue_move(at, Some(&to))?;
            }
            if !there.is_empty() {
                changes.take_owed_move(&msg.key, account)?;
            }
        } else {
            // On the server where the store found it: moved by its UID.
            for at in &in_folder(folder) {
                changes.queue_move(at, Some(&to))?;
            }
        }
        let from_folder = msg.folder.clone();
        let to_folder = format!("{account}/{to}");
        self.store.set_documents_owed(true)?;
        self.store
            .relocate(&msg.key, msg.location.clone(), &to_folder, &msg.flags)?;
        Ok(MoveOutcome {
            key: msg.key,
            from_folder,
            from_dir: PathBuf::new(),
            to_folder,
            thread: None,
            back: MoveTarget::Folder(shown),
            to_server: Some(account.to_string()),
        })
    }
}

/// Renames a Maildir file as `rename` says and points the store at its new name.
/// The rename is recorded first, so a process killed on the way leaves a record
/// that [`settle_renames`] finishes when the store is next opened.
pub(in crate::engine) fn renamed_in_store(store: &Store, rename: &PendingRename) -> Result<()> {
    let renames = FileRenames::open(store.db())?;
    renames.begin(rename)?;
    if let Err(e) = std::fs::rename(&rename.from, &rename.to) {
        renames.done(&rename.key)?;
        return Err(EngineError::MailSource(format!(
            "renaming {} to {}: {e}",
            rename.from, rename.to
        )));
    }
    follow_rename(store, rename)?;
    renames.done(&rename.key)?;
    Ok(())
}

/// The store's record of a renamed file: its location, folder, flags and the
/// source cursor of the file.
fn follow_rename(store: &Store, rename: &PendingRename) -> Result<()> {
    store.relocate(
        &rename.key,
        SourceLocation::File {
            path: rename.to.clone(),
        },
        &rename.folder,
        &rename.flags,
    )?;
    store.move_source_cursor(&rename.from, &rename.to)?;
    Ok(())
}

/// Finishes the renames a stopped process left recorded: where the file has its
/// new name the store follows it; where it does not, the rename never happened.
/// Returns how many the store followed (their documents and threads are owed).
pub(in crate::engine) fn settle_renames(store: &Store) -> Result<usize> {
    let renames = FileRenames::open(store.db())?;
    let pending = renames.pending()?;
    if pending.is_empty() {
        return Ok(0);
    }
    let mut followed = 0;
    for rename in pending {
        if Path::new(&rename.to).exists() && store.message(&rename.key)?.is_some() {
            follow_rename(store, &rename)?;
            followed += 1;
        }
        renames.done(&rename.key)?;
    }
    if followed > 0 {
        store.set_documents_owed(true)?;
    }
    store.flush()?;
    Ok(followed)
}

/// The server folder whose last name part is one of `names` (without case), or
/// `made` (created on the server when the move is sent).
pub(in crate::engine) fn server_folder(known: &[String], names: &[&str], made: &str) -> String {
    known
        .iter()
        .find(|f| {
            let last = f.rsplit(['/', '.']).next().unwrap_or(f).to_lowercase();
            names.contains(&last.as_str())
        })
        .cloned()
        .unwrap_or_else(|| made.to_string())
}

fn not_maildir(path: &str) -> EngineError {
    EngineError::MailSource(format!("{path} is not in a Maildir folder's cur/ or new/"))
}

/// The Maildir root a folder directory belongs to: the folder's name is the root's
/// name and the path below it (`mail/work/2024` for `<root>/work/2024`).
pub(in crate::engine) fn maildir_root(folder_dir: &Path, folder: &str) -> Option<PathBuf> {
    let depth = folder.split('/').count();
    folder_dir
        .ancestors()
        .nth(depth.checked_sub(1)?)
        .map(Path::to_path_buf)
}

/// The store's name of a folder directory under `root`.
pub(in crate::engine) fn folder_name(root: &Path, root_name: &str, dir: &Path) -> String {
    match dir.strip_prefix(root) {
        Ok(rel) if rel.as_os_str().is_empty() => root_name.to_string(),
        Ok(rel) => {
            let parts: Vec<String> = rel
                .components()
                .map(|c| {
                    c.as_os_str()
                        .to_string_lossy()
                        .trim_start_matches('.')
                        .to_string()
                })
                .collect();
            format!("{root_name}/{}", parts.join("/"))
        }
        Err(_) => dir.to_string_lossy().into_owned(),
    }
}

/// The root's folder of one of `names` (without case or a leading dot), or a new one
/// named after the first: a Maildir++ `.Name` when the root is a Maildir itself.
pub(in crate::engine) fn special_folder(root: &Path, names: &[&str]) -> Result<PathBuf> {
    let io = |e: std::io::Error| EngineError::MailSource(format!("{}: {e}", root.display()));
    // A new folder is named in the style of its siblings: `archive` beside `inbox`
    // and `sent`, `Archive` beside `Sent`.
    let mut capitalised = false;
    for entry in std::fs::read_dir(root).map_err(io)?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let bare = name.trim_start_matches('.');
        if !is_maildir(&entry.path()) {
            continue;
        }
        if names.contains(&bare.to_lowercase().as_str()) {
            return Ok(entry.path());
        }
        capitalised |= bare.chars().next().is_some_and(char::is_uppercase);
    }
    let first = names.first().copied().unwrap_or("archive");
    let mut name: Vec<char> = first.chars().collect();
    if let Some(c) = name.first_mut().filter(|_| capitalised || is_maildir(root)) {
        *c = c.to_ascii_uppercase();
    }
    let name: String = name.into_iter().collect();
    let dir = if is_maildir(root) {
        root.join(format!(".{name}"))
    } else {
        root.join(name)
    };
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).map_err(io)?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_follow_the_walk() {
        let root = Path::new("/m/mail");
        assert_eq!(
            folder_name(root, "mail", Path::new("/m/mail/inbox")),
            "mail/inbox"
        );
        assert_eq!(
            folder_name(root, "mail", Path::new("/m/mail/.Archive")),
            "mail/Archive"
        );
        assert_eq!(folder_name(root, "mail", root), "mail");
        assert_eq!(
            maildir_root(Path::new("/m/mail/work/2024"), "mail/work/2024"),
            Some(PathBuf::from("/m/mail"))
        );
        assert_eq!(
            maildir_root(Path::new("/m/mail"), "mail"),
            Some(PathBuf::from("/m/mail"))
        );
    }
}
