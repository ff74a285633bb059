//! Changes made in Quoth to mail on an IMAP server, kept until the server has them:
//! flags and keywords (tags) to add or remove and a folder to move to, by the UID
//! they apply to.
//!
//! * `imap_pending`: `account \0 folder \0 uid(BE)` → [`PendingChange`].
//! * `imap_expunge_owed`: message key → account: mail removed for good in Quoth
//!   (an emptied trash) whose server copy has no known UID yet (it was moved to the
//!   trash and no sync has seen it there). The sync that finds it marks it
//!   `\Deleted` and expunges it instead of reading it back in.
//! * `imap_move_owed`: message key \0 account → folder: mail moved again in Quoth
//!   after an earlier move of it reached the server but before a sync found it in
//!   its new folder, so its UID there is not known yet. The sync that finds it
//!   there queues the move to `folder`.
//!
//! A change is recorded (and the store shows it) before anything is sent, and
//! cleared only once the server accepted it, so a change made offline, or one
//! interrupted by a crash, is sent by the next sync. Sending a change twice is
//! harmless: adding a flag that is set, or moving a UID that has moved, changes
//! nothing more.

use super::db::StoreError;
use super::sync_state::{parse_ref, uid_key, ImapRef};
use crate::mail::model::MessageKey;
use serde::{Deserialize, Serialize};

type Result<T> = std::result::Result<T, StoreError>;

/// What the server is still to be told about one UID.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingChange {
    /// Maildir letters to add and to remove.
    pub add: String,
    pub remove: String,
    /// The folder the message goes to.
    pub move_to: Option<String>,
    /// Keywords (the message's tags) to add and to remove.
    pub keywords_add: Vec<String>,
    pub keywords_remove: Vec<String>,
}

/// A change as recorded before keywords were (read from older stores).
#[derive(Deserialize)]
struct FlagsAndMove {
    add: String,
    remove: String,
    move_to: Option<String>,
}

impl PendingChange {
    pub fn is_empty(&self) -> bool {
        self.add.is_empty()
            && self.remove.is_empty()
            && self.move_to.is_none()
            && self.keywords_add.is_empty()
            && self.keywords_remove.is_empty()
    }

    /// Keywords added and removed, replacing earlier changes of the same ones.
    fn with_keywords(mut self, add: &[String], remove: &[String]) -> Self {
        fn take(names: &[String], put: &mut Vec<String>, from: &mut Vec<String>) {
            for name in names {
                from.retain(|k| k != name);
                if !put.contains(name) {
                    put.push(name.clone());
                }
            }
        }
        take(add, &mut self.keywords_add, &mut self.keywords_remove);
        take(remove, &mut self.keywords_remove, &mut self.keywords_add);
        self
    }

    /// `flag` set (`on`) or cleared, replacing an earlier change of it.
    fn with_flag(mut self, flag: char, on: bool) -> Self {
        self.add.retain(|c| c != flag);
        self.remove.retain(|c| c != flag);
        if on {
            self.add.push(flag);
        } else {
            self.remove.push(flag);
        }
        self
    }
}

#[derive(Clone)]
pub struct ImapChanges {
    pending: sled::Tree,
    expunge_owed: sled::Tree,
    move_owed: sled::Tree,
}

fn owed_move_key(key: &MessageKey, account: &str) -> Vec<u8> {
    let mut k = key.0.to_vec();
    k.push(0);
    k.extend_from_slice(account.as_bytes());
    k
}

fn decode(b: &[u8]) -> Result<PendingChange> {
    bincode::deserialize(b).or_else(|e| {
        bincode::deserialize::<FlagsAndMove>(b)
            .map(|old| PendingChange {
                add: old.add,
                remove: old.remove,
                move_to: old.move_to,
                ..PendingChange::default()
            })
            .map_err(|_| StoreError::Corrupt {
                tree: "imap_pending",
                reason: e.to_string(),
            })
    })
}

fn encode(c: &PendingChange) -> Vec<u8> {
    // A plain record of strings always serialises.
    bincode::serialize(c).unwrap_or_default()
}

impl ImapChanges {
    pub fn open(db: &sled::Db) -> Result<Self> {
        Ok(Self {
            pending: db.open_tree("imap_pending")?,
            expunge_owed: db.open_tree("imap_expunge_owed")?,
            move_owed: db.open_tree("imap_move_owed")?,
        })
    }

    fn update(&self, at: &ImapRef, f: impl Fn(PendingChange) -> PendingChange) -> Result<()> {
        let key = uid_key(&at.account, &at.folder, at.uid);
        self.pending.fetch_and_update(key, |old| {
            let old = old.and_then(|b| decode(b).ok()).unwrap_or_default();
            let new = f(old);
            (!new.is_empty()).then(|| encode(&new))
        })?;
        Ok(())
    }

    /// Records `flag` set or cleared on the message at `at`.
    pub fn queue_flag(&self, at: &ImapRef, flag: char, on: bool) -> Result<()> {
        self.update(at, |c| c.clone().with_flag(flag, on))
    }

    /// Records keywords added to and removed from the message at `at`.
    pub fn queue_keywords(&self, at: &ImapRef, add: &[String], remove: &[String]) -> Result<()> {
        self.update(at, |c| c.clone().with_keywords(add, remove))
    }

    /// Records a move of the message at `at` to `folder` (none: it stays where it
    /// is, taking back a move not sent yet).
    pub fn queue_move(&self, at: &ImapRef, folder: Option<&str>) -> Result<()> {
        let to = folder.filter(|f| *f != at.folder).map(str::to_string);
        self.update(at, |c| PendingChange {
            move_to: to.clone(),
            ..c
        })
    }

    /// The change waiting for `at`, if any.
    pub fn get(&self, at: &ImapRef) -> Result<Option<PendingChange>> {
        self.pending
            .get(uid_key(&at.account, &at.folder, at.uid))?
            .map(|b| decode(&b))
            .transpose()
    }

    /// Every change waiting for an account, by folder and UID.
    pub fn of_account(&self, account: &str) -> Result<Vec<(ImapRef, PendingChange)>> {
        let mut prefix = account.as_bytes().to_vec();
        prefix.push(0);
        let mut out = Vec::new();
        for item in self.pending.scan_prefix(&prefix) {
            let (k, v) = item?;
            let at = parse_ref(&k).ok_or_else(|| StoreError::Corrupt {
                tree: "imap_pending",
                reason: "bad key".into(),
            })?;
            out.push((at, decode(&v)?));
        }
        Ok(out)
    }

    /// Records that the server's copy of `key` on `account` is to be expunged once
    /// a sync finds its UID.
    pub fn owe_expunge(&self, key: &MessageKey, account: &str) -> Result<()> {
        self.expunge_owed.insert(key.0, account.as_bytes())?;
        Ok(())
    }

    /// Whether the copy of `key` a sync of `account` found is to be expunged; the
    /// debt is cleared as it is read (the caller queues the expunge).
    pub fn take_owed_expunge(&self, key: &MessageKey, account: &str) -> Result<bool> {
        let owed = self.expunge_owed.compare_and_swap(
            key.0,
            Some(account.as_bytes()),
            None as Option<&[u8]>,
        )?;
        Ok(owed.is_ok())
    }

    /// Records that the server's copy of `key` on `account`, whose UID in the
    /// folder it was moved to is not known yet, goes to `folder`.
    pub fn owe_move(&self, key: &MessageKey, account: &str, folder: &str) -> Result<()> {
        self.move_owed
            .insert(owed_move_key(key, account), folder.as_bytes())?;
        Ok(())
    }

    /// The folder the copy of `key` on `account` is owed a move to, left owed.
    pub fn owed_move(&self, key: &MessageKey, account: &str) -> Result<Option<String>> {
        Ok(self
            .move_owed
            .get(owed_move_key(key, account))?
            .map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// The folder the copy of `key` a sync of `account` found is owed a move to;
    /// the debt is cleared as it is read (the caller queues the move).
    pub fn take_owed_move(&self, key: &MessageKey, account: &str) -> Result<Option<String>> {
        Ok(self
            .move_owed
            .remove(owed_move_key(key, account))?
            .map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    /// The server has the change `done` for `at`: what was sent is cleared (a
    /// newer change recorded meanwhile stays). Where `done` moved the message and
    /// another move of it was recorded meanwhile, that move can no longer go by
    /// this UID: it is returned, for the caller to owe by the message's key.
    pub fn sent(&self, at: &ImapRef, done: &PendingChange) -> Result<Option<String>> {
        let moved_again = std::cell::RefCell::new(None);
        self.update(at, |c| {
            *moved_again.borrow_mut() = None;
            if &c == done {
                return PendingChange::default();
            }
            if done.move_to.is_none() {
                return c;
            }
            if c.move_to != done.move_to {
                *moved_again.borrow_mut() =
                    Some(c.move_to.clone().unwrap_or_else(|| at.folder.clone()));
            }
            PendingChange { move_to: None, ..c }
        })?;
        Ok(moved_again.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(folder: &str, uid: u32) -> ImapRef {
        ImapRef {
            account: "work".into(),
            folder: folder.into(),
            uid,
        }
    }

    #[test]
    fn an_owed_expunge_is_taken_once_and_only_by_its_account() {
        let dir = tempfile::tempdir().expect("dir");
        let db = sled::open(dir.path()).expect("db");
        let changes = ImapChanges::open(&db).expect("open");
        let key = MessageKey([7; 16]);
        changes.owe_expunge(&key, "work").expect("owe");
        assert!(!changes.take_owed_expunge(&key, "home").expect("take"));
        assert!(!changes
            .take_owed_expunge(&MessageKey([8; 16]), "work")
            .expect("take"));
        assert!(changes.take_owed_expunge(&key, "work").expect("take"));
        assert!(
            !changes.take_owed_expunge(&key, "work").expect("take"),
            "taken once"
        );
    }

    #[test]
    fn a_change_recorded_before_keywords_reads_as_flags_and_a_move() {
        #[derive(Serialize)]
        struct Old {
            add: String,
            remove: String,
            move_to: Option<String>,
        }
        let old = Old {
            add: "S".into(),
            remove: String::new(),
            move_to: Some("Archive".into()),
        };
        let bytes = bincode::serialize(&old).expect("encode");
        let read = decode(&bytes).expect("decode");
        assert_eq!(read.add, "S");
        assert_eq!(read.move_to.as_deref(), Some("Archive"));
        assert!(read.keywords_add.is_empty());
        assert!(decode(b"\xff").is_err(), "garbage is reported corrupt");
    }

    #[test]
    fn changes_accumulate_replace_and_clear_once_sent() {
        let dir = tempfile::tempdir().expect("dir");
        let db = sled::open(dir.path()).expect("db");
        let changes = ImapChanges::open(&db).expect("open");
        let inbox = at("INBOX", 7);
        changes.queue_flag(&inbox, 'S', true).expect("queue");
        changes.queue_flag(&inbox, 'F', true).expect("queue");
        changes.queue_flag(&inbox, 'S', false).expect("queue");
        changes.queue_move(&inbox, Some("Archive")).expect("queue");
        let want = PendingChange {
            add: "F".into(),
            remove: "S".into(),
            move_to: Some("Archive".into()),
            ..Default::default()
        };
        assert_eq!(changes.get(&inbox).expect("get"), Some(want.clone()));
        changes
            .queue_flag(&at("INBOX", 8), 'F', true)
            .expect("queue");
        changes
            .queue_flag(
                &ImapRef {
                    account: "home".into(),
                    ..at("INBOX", 7)
                },
                'F',
                true,
            )
            .expect("queue");
        assert_eq!(changes.of_account("work").expect("list").len(), 2);
        // A change recorded after sending began is kept.
        changes
            .queue_flag(&at("INBOX", 8), 'R', true)
            .expect("queue");
        changes
            .sent(
                &at("INBOX", 8),
                &PendingChange {
                    add: "F".into(),
                    ..Default::default()
                },
            )
            .expect("sent");
        assert!(changes.get(&at("INBOX", 8)).expect("get").is_some());
        changes.sent(&inbox, &want).expect("sent");
        assert_eq!(changes.get(&inbox).expect("get"), None);
        // Keywords: a later change of one replaces the earlier.
        let tags = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        changes
            .queue_keywords(&inbox, &tags(&["work", "later"]), &[])
            .expect("queue");
        changes
            .queue_keywords(&inbox, &[], &tags(&["later", "old"]))
            .expect("queue");
        let now = changes.get(&inbox).expect("get").expect("pending");
        assert_eq!(now.keywords_add, ["work"]);
        assert_eq!(now.keywords_remove, ["later", "old"]);
        changes.sent(&inbox, &now).expect("sent");
        // Moving back where it is takes the move back.
        changes.queue_move(&inbox, Some("Archive")).expect("queue");
        changes.queue_move(&inbox, Some("INBOX")).expect("queue");
        assert_eq!(changes.get(&inbox).expect("get"), None);
    }

    #[test]
    fn a_move_recorded_while_an_earlier_one_was_sent_is_handed_back() {
        let dir = tempfile::tempdir().expect("dir");
        let db = sled::open(dir.path()).expect("db");
        let changes = ImapChanges::open(&db).expect("open");
        let inbox = at("INBOX", 3);
        changes.queue_move(&inbox, Some("Archive")).expect("queue");
        let sending = changes.get(&inbox).expect("get").expect("pending");
        // Taken back while the move was on its way: the message is in the archive
        // now and goes back to the inbox by its key.
        changes.queue_move(&inbox, Some("INBOX")).expect("queue");
        assert_eq!(
            changes.sent(&inbox, &sending).expect("sent").as_deref(),
            Some("INBOX")
        );
        assert_eq!(changes.get(&inbox).expect("get"), None);
        // Moved elsewhere meanwhile, with a flag: the flag stays for the UID.
        changes.queue_move(&inbox, Some("Archive")).expect("queue");
        let sending = changes.get(&inbox).expect("get").expect("pending");
        changes.queue_move(&inbox, Some("Trash")).expect("queue");
        changes.queue_flag(&inbox, 'S', true).expect("queue");
        assert_eq!(
            changes.sent(&inbox, &sending).expect("sent").as_deref(),
            Some("Trash")
        );
        let left = changes.get(&inbox).expect("get").expect("pending");
        assert_eq!((left.add.as_str(), left.move_to), ("S", None));
        // Nothing recorded meanwhile: nothing handed back.
        let other = at("INBOX", 4);
        changes.queue_move(&other, Some("Archive")).expect("queue");
        let sending = changes.get(&other).expect("get").expect("pending");
        assert_eq!(changes.sent(&other, &sending).expect("sent"), None);
    }

    #[test]
    fn an_owed_move_is_taken_once_and_only_by_its_account() {
        let dir = tempfile::tempdir().expect("dir");
        let db = sled::open(dir.path()).expect("db");
        let changes = ImapChanges::open(&db).expect("open");
        let key = MessageKey([5; 16]);
        changes.owe_move(&key, "work", "Archive").expect("owe");
        changes.owe_move(&key, "work", "INBOX").expect("owe again");
        assert_eq!(changes.take_owed_move(&key, "home").expect("take"), None);
        assert_eq!(
            changes.owed_move(&key, "work").expect("read").as_deref(),
            Some("INBOX"),
            "read, not taken"
        );
        assert_eq!(
            changes
                .take_owed_move(&key, "work")
                .expect("take")
                .as_deref(),
            Some("INBOX"),
            "the latest move counts"
        );
        assert_eq!(changes.take_owed_move(&key, "work").expect("take"), None);
    }
}
