//! Renames of Maildir files that Quoth has started and not yet recorded: a flag
//! change renames a file within its folder, a move renames it into another
//! folder, and the store's record of the file follows the rename.
//!
//! * `file_renames`: message key → [`PendingRename`].
//!
//! The rename is written here before the file is touched and cleared once the
//! store points at the new name, so a process killed in between leaves a record
//! that says which of the two names the file may have. Opening the store again
//! settles it ([`FileRenames::pending`]): when the new name exists the store
//! follows it, otherwise the rename never happened and the record goes.

use super::db::StoreError;
use crate::mail::model::MessageKey;
use serde::{Deserialize, Serialize};

type Result<T> = std::result::Result<T, StoreError>;

/// One rename on its way: the file's name before and after, and the folder and
/// flags the message has once it is done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingRename {
    pub key: MessageKey,
    pub from: String,
    pub to: String,
    pub folder: String,
    pub flags: String,
}

#[derive(Clone)]
pub struct FileRenames {
    tree: sled::Tree,
}

fn decode(b: &[u8]) -> Result<PendingRename> {
    bincode::deserialize(b).map_err(|e| StoreError::Corrupt {
        tree: "file_renames",
        reason: e.to_string(),
    })
}

impl FileRenames {
    pub fn open(db: &sled::Db) -> Result<Self> {
        Ok(Self {
            tree: db.open_tree("file_renames")?,
        })
    }

    /// Records a rename about to happen, flushed before the caller renames.
    pub fn begin(&self, rename: &PendingRename) -> Result<()> {
        let bytes = bincode::serialize(rename).map_err(|e| StoreError::Corrupt {
            tree: "file_renames",
            reason: e.to_string(),
        })?;
        self.tree.insert(rename.key.0, bytes)?;
        self.tree.flush()?;
        Ok(())
    }

    /// The store follows the rename of `key`: its record goes.
    pub fn done(&self, key: &MessageKey) -> Result<()> {
        self.tree.remove(key.0)?;
        Ok(())
    }

    /// Renames begun and never recorded as done (a process stopped between them).
    /// A record that cannot be read is dropped: the next ingest finds the file
    /// wherever it is.
    pub fn pending(&self) -> Result<Vec<PendingRename>> {
        let mut out = Vec::new();
        for item in self.tree.iter() {
            let (k, v) = item?;
            match decode(&v) {
                Ok(r) => out.push(r),
                Err(_) => {
                    self.tree.remove(k)?;
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rename_is_pending_from_begin_to_done() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = sled::open(dir.path()).expect("sled");
        let renames = FileRenames::open(&db).expect("tree");
        let r = PendingRename {
            key: MessageKey([7; 16]),
            from: "/m/inbox/cur/1:2,".into(),
            to: "/m/archive/cur/1:2,".into(),
            folder: "m/archive".into(),
            flags: String::new(),
        };
        renames.begin(&r).expect("begin");
        assert_eq!(renames.pending().expect("pending"), vec![r.clone()]);
        renames.done(&r.key).expect("done");
        assert!(renames.pending().expect("pending").is_empty());
    }
}
