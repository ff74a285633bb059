//! Emptying the trash, only ever when asked: the Maildir files in the trash
//! folders (where `delete` moves mail) are deleted, and the mail leaves the store
//! and the indexes; IMAP mail in a trash folder is marked `\Deleted` and expunged
//! on its server by the next sync, and leaves Quoth once the server removed it. An email whose bytes are also in a folder outside the trash
//! stays in Quoth at that copy. The store changes first, so a process stopped in
//! between leaves files that the next ingest reads back into the trash: nothing
//! is half gone.

use crate::engine::mailbox::moves::{folder_name, maildir_root, TRASH_NAMES};
use crate::engine::{Engine, EngineError, Result};
use crate::mail::model::MessageKey;
use crate::source::maildir::parse_flags;
use crate::source::SourceLocation;
use crate::store::imap_changes::ImapChanges;
use crate::store::sync_state::SyncState;
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// What emptying the trash did (`quoth expunge --json`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExpungeReport {
    /// False when only asked what would go.
    pub done: bool,
    /// Emails deleted from the trash (or that would be).
    pub removed: usize,
    /// Of those, emails that stay in Quoth at a copy in another folder.
    pub kept_elsewhere: usize,
    /// The trash folders they were in.
    pub folders: Vec<String>,
    /// Emails in the trash of mbox files, left where they are.
    pub left: usize,
    /// IMAP accounts whose servers the next sync tells to expunge (the emails
    /// leave Quoth once the server has removed them).
    pub to_servers: Vec<String>,
}

/// What emptying the trash does.
#[derive(Debug, Clone, Default)]
struct Plan {
    /// Emails that leave Quoth.
    remove: Vec<MessageKey>,
    /// Emails whose shown copy is in the trash and that stay at another copy:
    /// the key, the file, its folder and flags.
    relocate: Vec<(MessageKey, String, String, String)>,
    /// Every trash file to delete.
    files: Vec<String>,
    /// Emails of trash files that Quoth shows at a copy outside the trash.
    copies_elsewhere: usize,
    folders: Vec<String>,
    left: usize,
    /// IMAP mail in a trash folder: the email, and its account.
    on_servers: Vec<(MessageKey, String)>,
}

/// Whether a folder as the store names it (`mail/Trash`, `mail/.Deleted Items`)
/// is a trash folder.
pub fn is_trash(folder: &str) -> bool {
    let last = folder.rsplit(['/', '.']).next().unwrap_or(folder);
    TRASH_NAMES.contains(&last.to_lowercase().as_str())
}

/// Whether a Maildir file lies in a trash folder (`…/Trash/cur/…`).
fn in_trash_dir(path: &str) -> bool {
    Path::new(path)
        .parent()
        .and_then(Path::parent)
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .is_some_and(is_trash)
}

fn plan(store: &Store) -> Result<Plan> {
    // The files outside the trash that hold each email's bytes.
    let mut kept_at: HashMap<MessageKey, String> = HashMap::new();
    let mut trash_files = Vec::new();
    let mut trash_keys = std::collections::HashSet::new();
    for item in store.source_cursors() {
        let (path, cursor) = item?;
        if in_trash_dir(&path) {
            trash_files.push(path);
            trash_keys.extend(cursor.messages);
        } else if Path::new(&path).exists() {
            for key in cursor.messages {
                kept_at.entry(key).or_insert_with(|| path.clone());
            }
        }
    }
    let mut out = Plan {
        files: trash_files,
        ..Plan::default()
    };
    for msg in store.messages() {
        let msg = msg?;
        if !is_trash(&msg.folder) {
            continue;
        }
        if let SourceLocation::Imap { account, .. } = &msg.location {
            if !out.folders.contains(&msg.folder) {
                out.folders.push(msg.folder.clone());
            }
            out.on_servers.push((msg.key, account.clone()));
            continue;
        }
        let SourceLocation::File { path } = &msg.location else {
            out.left += 1;
            continue;
        };
        if !out.folders.contains(&msg.folder) {
            out.folders.push(msg.folder.clone());
        }
        if !out.files.contains(path) {
            out.files.push(path.clone());
        }
        match kept_at.get(&msg.key) {
            Some(other) => {
                let dir = Path::new(other).parent().and_then(Path::parent);
                let trash_dir = Path::new(path).parent().and_then(Path::parent);
                let root = trash_dir.and_then(|d| maildir_root(d, &msg.folder));
                let root_name = msg.folder.split('/').next().unwrap_or_default();
                let folder = match (root, dir) {
                    (Some(root), Some(dir)) => folder_name(&root, root_name, dir),
                    _ => other.clone(),
                };
                out.relocate
                    .push((msg.key, other.clone(), folder, parse_flags(other)));
            }
            None => out.remove.push(msg.key),
        }
    }
    for key in trash_keys {
        let shown_here = out.remove.contains(&key) || out.relocate.iter().any(|r| r.0 == key);
        if !shown_here && store.contains_message(&key)? {
            out.copies_elsewhere += 1;
        }
    }
    out.folders.sort();
    Ok(out)
}

impl Engine {
    /// Empties the trash folders of Maildir mail for good.
    pub fn expunge_trash(&mut self) -> Result<ExpungeReport> {
        let plan = plan(&self.store)?;
        let to_servers = self.expunge_on_servers(&plan.on_servers)?;
        for (key, path, folder, flags) in &plan.relocate {
            self.store.relocate(
                key,
                SourceLocation::File { path: path.clone() },
                folder,
                flags,
            )?;
        }
        let stay: Vec<MessageKey> = plan.relocate.iter().map(|(k, ..)| *k).collect();
        self.after_moves(&stay)?;
        let kept_elsewhere = stay.len() + plan.copies_elsewhere;
        let removed = self.remove_messages(&plan.remove)?.removed + kept_elsewhere;
        for path in &plan.files {
            match std::fs::remove_file(path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(EngineError::MailSource(format!(
                        "deleting {path}: {e} (the next ingest reads it back into the trash)"
                    )))
                }
            }
            self.store.forget_source(path)?;
        }
        self.store.flush()?;
        Ok(ExpungeReport {
            done: true,
            removed: removed + plan.on_servers.len(),
            kept_elsewhere,
            folders: plan.folders,
            left: plan.left,
            to_servers,
        })
    }

    /// IMAP mail of a trash folder marked `\Deleted` on its server by the next
    /// sync, which then expunges it; the sync after the server removed it takes it
    /// out of Quoth. Returns the accounts to sync.
    fn expunge_on_servers(&self, mail: &[(MessageKey, String)]) -> Result<Vec<String>> {
        let state = SyncState::open(self.store.db())?;
        let changes = ImapChanges::open(self.store.db())?;
        let mut accounts = Vec::new();
        for (key, account) in mail {
            let Some(msg) = self.store.message(key)? else {
                continue;
            };
            if !matches!(msg.location, SourceLocation::Imap { .. }) {
                continue;
            }
            // The trash folder it is shown in. Its location may still be the folder
            // it was moved from, until a sync finds it in the trash.
            let trash = msg
                .folder
                .strip_prefix(&format!("{account}/"))
                .unwrap_or(&msg.folder);
            // Owed first: a sync that finds it in the trash takes the debt once it
            // has mapped the UID, so whichever of the two comes second marks it.
            // Moved to the trash in Quoth and not seen there by a sync yet (the move
            // may not even be sent), the sync that finds it there expunges it.
            changes.owe_expunge(key, account)?;
            for at in state.refs_of(key)? {
                if at.account == *account && at.folder == trash {
                    changes.queue_flag(&at, 'T', true)?;
                    // Marked here: no later copy is owed an expunge.
                    changes.take_owed_expunge(key, account)?;
                }
            }
            if !accounts.contains(account) {
                accounts.push(account.clone());
            }
        }
        Ok(accounts)
    }

    /// What [`Engine::expunge_trash`] would remove, removing nothing.
    pub fn expunge_preview(&self) -> Result<ExpungeReport> {
        let plan = plan(&self.store)?;
        let mut to_servers: Vec<String> = plan.on_servers.iter().map(|(_, a)| a.clone()).collect();
        to_servers.sort();
        to_servers.dedup();
        Ok(ExpungeReport {
            done: false,
            removed: plan.remove.len()
                + plan.relocate.len()
                + plan.copies_elsewhere
                + plan.on_servers.len(),
            kept_elsewhere: plan.relocate.len() + plan.copies_elsewhere,
            folders: plan.folders,
            left: plan.left,
            to_servers,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{in_trash_dir, is_trash};

    #[test]
    fn trash_folders_are_known_by_their_last_name() {
        assert!(is_trash("mail/trash"));
        assert!(is_trash("mail/.Trash"));
        assert!(is_trash("work/Deleted Items"));
        assert!(!is_trash("mail/inbox"));
        assert!(!is_trash("mail/trashcan"));
        assert!(in_trash_dir("/m/.Trash/cur/1.host:2,S"));
        assert!(!in_trash_dir("/m/inbox/new/1.host"));
    }
}
