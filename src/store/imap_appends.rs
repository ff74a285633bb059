//! Messages Quoth wrote that belong in a folder of an IMAP server (a sent copy in
//! Sent, a postponed draft in Drafts), kept until the server has them.
//!
//! * `imap_appends`: `account \0 id(BE)` → [`PendingAppend`].
//!
//! A message is recorded before anything is sent and cleared once the server
//! accepted the APPEND, so one written offline, or interrupted by a crash, is
//! appended by the next sync of the account.

use super::db::StoreError;
use serde::{Deserialize, Serialize};

type Result<T> = std::result::Result<T, StoreError>;

/// Which of the server's folders a message goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AppendTo {
    Sent,
    Drafts,
}

/// One message waiting for its folder on a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingAppend {
    pub to: AppendTo,
    /// IMAP flags, e.g. `(\Seen)`.
    pub flags: String,
    pub raw: Vec<u8>,
}

#[derive(Clone)]
pub struct ImapAppends {
    db: sled::Db,
    pending: sled::Tree,
}

fn corrupt(e: impl ToString) -> StoreError {
    StoreError::Corrupt {
        tree: "imap_appends",
        reason: e.to_string(),
    }
}

fn prefix(account: &str) -> Vec<u8> {
    let mut p = account.as_bytes().to_vec();
    p.push(0);
    p
}

impl ImapAppends {
    pub fn open(db: &sled::Db) -> Result<Self> {
        Ok(Self {
            db: db.clone(),
            pending: db.open_tree("imap_appends")?,
        })
    }

    /// Records a message for a folder of `account`'s server (flushed).
    pub fn queue(&self, account: &str, append: &PendingAppend) -> Result<()> {
        let mut key = prefix(account);
        key.extend_from_slice(&self.db.generate_id()?.to_be_bytes());
        self.pending
            .insert(key, bincode::serialize(append).map_err(corrupt)?)?;
        self.pending.flush()?;
        Ok(())
    }

    /// The messages waiting for `account`, oldest first, with their record keys.
    pub fn of_account(&self, account: &str) -> Result<Vec<(Vec<u8>, PendingAppend)>> {
        let mut out = Vec::new();
        for item in self.pending.scan_prefix(prefix(account)) {
            let (k, v) = item?;
            out.push((k.to_vec(), bincode::deserialize(&v).map_err(corrupt)?));
        }
        Ok(out)
    }

    /// The server has the message of record `key`.
    pub fn done(&self, key: &[u8]) -> Result<()> {
        self.pending.remove(key)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_wait_per_account_until_done() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = sled::open(dir.path()).expect("sled");
        let q = ImapAppends::open(&db).expect("tree");
        let sent = PendingAppend {
            to: AppendTo::Sent,
            flags: "(\\Seen)".into(),
            raw: b"Subject: a\r\n\r\nx\r\n".to_vec(),
        };
        q.queue("work", &sent).expect("queue");
        q.queue("work2", &sent).expect("queue");
        let waiting = q.of_account("work").expect("list");
        assert_eq!(waiting.len(), 1, "an account's prefix is not another's");
        assert_eq!(waiting[0].1, sent);
        q.done(&waiting[0].0).expect("done");
        assert!(q.of_account("work").expect("list").is_empty());
        assert_eq!(q.of_account("work2").expect("list").len(), 1);
    }
}
