//! The keywords each UID on an IMAP server had when a sync last read them
//! (`imap_keywords`: `account \0 folder \0 uid(BE)` → keywords joined by newlines).
//! Against them a sync tells what another client changed on the server since: a
//! keyword the server has and this record lacks was added there, one the record
//! has and the server lacks was removed there. Quoth's own changes go the other
//! way, through [`crate::store::imap_changes`].

use super::db::StoreError;
use super::sync_state::{uid_key, ImapRef};
use super::tags::names_of;

type Result<T> = std::result::Result<T, StoreError>;

#[derive(Clone)]
pub struct ImapKeywords {
    seen: sled::Tree,
}

/// Keywords added and removed on the server since they were last read.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct KeywordChange {
    pub added: Vec<String>,
    pub removed: Vec<String>,
}

impl ImapKeywords {
    pub fn open(db: &sled::Db) -> Result<Self> {
        Ok(Self {
            seen: db.open_tree("imap_keywords")?,
        })
    }

    /// The keywords last read for `at` (none when never read).
    pub fn seen(&self, at: &ImapRef) -> Result<Vec<String>> {
        Ok(self
            .seen
            .get(uid_key(&at.account, &at.folder, at.uid))?
            .map_or_else(Vec::new, |v| names_of(&v)))
    }

    /// Records the keywords the server has now for `at` and returns what changed
    /// there since they were last read. A UID read for the first time has all its
    /// keywords added.
    pub fn read(&self, at: &ImapRef, now: &[String]) -> Result<KeywordChange> {
        let before = self.seen(at)?;
        let change = KeywordChange {
            added: now
                .iter()
                .filter(|k| !before.contains(k))
                .cloned()
                .collect(),
            removed: before
                .iter()
                .filter(|k| !now.contains(k))
                .cloned()
                .collect(),
        };
        let key = uid_key(&at.account, &at.folder, at.uid);
        if now.is_empty() {
            self.seen.remove(key)?;
        } else {
            self.seen.insert(key, now.join("\n").as_bytes())?;
        }
        Ok(change)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_read_reports_what_changed_since_the_last_read_of_that_uid() {
        let dir = tempfile::tempdir().expect("dir");
        let db = sled::open(dir.path()).expect("db");
        let kw = ImapKeywords::open(&db).expect("open");
        let at = |uid| ImapRef {
            account: "work".into(),
            folder: "INBOX".into(),
            uid,
        };
        let first = kw.read(&at(3), &names(&["work", "later"])).expect("read");
        assert_eq!(first.added, names(&["work", "later"]));
        assert!(first.removed.is_empty());
        let second = kw.read(&at(3), &names(&["work", "urgent"])).expect("read");
        assert_eq!(second.added, names(&["urgent"]));
        assert_eq!(second.removed, names(&["later"]));
        assert_eq!(kw.seen(&at(4)).expect("seen"), Vec::<String>::new());
        let cleared = kw.read(&at(3), &[]).expect("read");
        assert_eq!(cleared.removed, names(&["work", "urgent"]));
        assert!(kw.read(&at(3), &[]).expect("read") == KeywordChange::default());
    }
}
