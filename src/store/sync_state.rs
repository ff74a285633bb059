//! IMAP sync state in sled, beside the messages it describes:
//!
//! * `imap_cursors`: `account \0 folder` → [`FolderCursor`]: how far a folder is synced.
//! * `imap_uids`: `account \0 folder \0 uid(BE)` → [`UidEntry`]: which message each
//!   UID holds and its flags on the server.
//! * `imap_refs`: `message key ‖ account \0 folder \0 uid(BE)` → (): the reverse map, so
//!   a message is removed only when no folder still holds it.
//! * `imap_meta`: small markers (a rethread owed after a crash).
//!
//! A UID entry and its reference are written and removed in one transaction. The
//! cursor moves in one place, [`SyncState::advance`], only after the messages it
//! covers are committed, and never backwards: a replayed window finds its messages
//! already stored (content keys) and rewrites the same entries.

use super::db::StoreError;
use crate::mail::model::MessageKey;
use serde::{Deserialize, Serialize};
use sled::transaction::{ConflictableTransactionError, TransactionError};
use sled::Transactional;
use std::collections::BTreeMap;

type Result<T> = std::result::Result<T, StoreError>;

/// How far a folder is synced, for one UIDVALIDITY.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderCursor {
    pub uidvalidity: u32,
    /// Every UID up to this one is stored (or quarantined) and mapped.
    pub last_uid: u32,
    /// Flags are known up to this CONDSTORE mod-sequence.
    pub highest_modseq: Option<u64>,
}

/// What one UID of a folder holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UidEntry {
    pub key: MessageKey,
    /// Maildir letters, as on the server.
    pub flags: String,
}

/// One place a message is held on a server.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ImapRef {
    pub account: String,
    pub folder: String,
    pub uid: u32,
}

#[derive(Clone)]
pub struct SyncState {
    cursors: sled::Tree,
    uids: sled::Tree,
    refs: sled::Tree,
    meta: sled::Tree,
}

pub(super) fn folder_prefix(account: &str, folder: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(account.len() + folder.len() + 2);
    k.extend_from_slice(account.as_bytes());
    k.push(0);
    k.extend_from_slice(folder.as_bytes());
    k.push(0);
    k
}

pub(super) fn uid_key(account: &str, folder: &str, uid: u32) -> Vec<u8> {
    let mut k = folder_prefix(account, folder);
    k.extend_from_slice(&uid.to_be_bytes());
    k
}

fn ref_key(key: &MessageKey, account: &str, folder: &str, uid: u32) -> Vec<u8> {
    let mut k = key.0.to_vec();
    k.extend_from_slice(&uid_key(account, folder, uid));
    k
}

pub(super) fn parse_ref(bytes: &[u8]) -> Option<ImapRef> {
    let (rest, uid) = bytes.split_last_chunk::<4>()?;
    let mut parts = rest.splitn(2, |&b| b == 0);
    let account = String::from_utf8(parts.next()?.to_vec()).ok()?;
    let folder = parts.next()?.strip_suffix(&[0])?;
    Some(ImapRef {
        account,
        folder: String::from_utf8(folder.to_vec()).ok()?,
        uid: u32::from_be_bytes(*uid),
    })
}

fn corrupt(tree: &'static str, reason: impl Into<String>) -> StoreError {
    StoreError::Corrupt {
        tree,
        reason: reason.into(),
    }
}

fn encode<T: Serialize>(v: &T) -> Vec<u8> {
    // Our own plain records always serialise.
    bincode::serialize(v).unwrap_or_default()
}

fn decode<T: for<'de> Deserialize<'de>>(tree: &'static str, b: &[u8]) -> Result<T> {
    bincode::deserialize(b).map_err(|e| corrupt(tree, e.to_string()))
}

fn tx_err(e: TransactionError<StoreError>) -> StoreError {
    match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => StoreError::Sled(e),
    }
}

impl SyncState {
    pub fn open(db: &sled::Db) -> Result<Self> {
        Ok(Self {
            cursors: db.open_tree("imap_cursors")?,
            uids: db.open_tree("imap_uids")?,
            refs: db.open_tree("imap_refs")?,
            meta: db.open_tree("imap_meta")?,
        })
    }

    pub fn cursor(&self, account: &str, folder: &str) -> Result<Option<FolderCursor>> {
        let mut k = folder_prefix(account, folder);
        k.pop();
        self.cursors
            .get(k)?
            .map(|v| decode("imap_cursors", &v))
            .transpose()
    }

    /// Folders of an account with a cursor, to notice those deleted on the server.
    pub fn folders(&self, account: &str) -> Result<Vec<String>> {
        let mut prefix = account.as_bytes().to_vec();
        prefix.push(0);
        self.cursors
            .scan_prefix(&prefix)
            .keys()
            .map(|k| Ok(String::from_utf8_lossy(&k?[prefix.len()..]).into_owned()))
            .collect()
    }

    /// Starts a folder afresh under `uidvalidity` (first sync, or after its
    /// UIDVALIDITY changed and its old entries were released).
    pub fn reset(&self, account: &str, folder: &str, uidvalidity: u32) -> Result<()> {
        let mut k = folder_prefix(account, folder);
        k.pop();
        let c = FolderCursor {
            uidvalidity,
            last_uid: 0,
            highest_modseq: None,
        };
        self.cursors.insert(k, encode(&c))?;
        Ok(())
    }

    /// Forgets a folder that no longer exists on the server (its UIDs released first).
    pub fn drop_folder(&self, account: &str, folder: &str) -> Result<()> {
        let mut k = folder_prefix(account, folder);
        k.pop();
        self.cursors.remove(k)?;
        Ok(())
    }

    /// The one place a cursor moves. UIDs and mod-sequences are compared as numbers
    /// and only ever grow, so a replayed or reordered call cannot move it back. A call
    /// for another UIDVALIDITY than the stored one is ignored: that folder must be
    /// reset first.
    pub fn advance(
        &self,
        account: &str,
        folder: &str,
        uidvalidity: u32,
        last_uid: u32,
        highest_modseq: Option<u64>,
    ) -> Result<Option<FolderCursor>> {
        let mut k = folder_prefix(account, folder);
        k.pop();
        let mut result = None;
        self.cursors.fetch_and_update(k, |old| {
            let old: FolderCursor = bincode::deserialize(old?).ok()?;
            if old.uidvalidity != uidvalidity {
                result = Some(old);
                return Some(encode(&old));
            }
            let next = FolderCursor {
                uidvalidity,
                last_uid: old.last_uid.max(last_uid),
                highest_modseq: match (old.highest_modseq, highest_modseq) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    (a, b) => a.or(b),
                },
            };
            result = Some(next);
            Some(encode(&next))
        })?;
        Ok(result)
    }

    /// The UID map of a folder.
    pub fn folder_uids(&self, account: &str, folder: &str) -> Result<BTreeMap<u32, UidEntry>> {
        let prefix = folder_prefix(account, folder);
        let mut out = BTreeMap::new();
        for item in self.uids.scan_prefix(&prefix) {
            let (k, v) = item?;
            let uid = k
                .get(prefix.len()..)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_be_bytes)
                .ok_or_else(|| corrupt("imap_uids", "bad key"))?;
            out.insert(uid, decode("imap_uids", &v)?);
        }
        Ok(out)
    }

    /// Records what UIDs hold (or their new flags), with the reverse references.
    pub fn map_uids(&self, account: &str, folder: &str, entries: &[(u32, UidEntry)]) -> Result<()> {
        (&self.uids, &self.refs)
            .transaction(|(uids, refs)| {
                for (uid, entry) in entries {
                    let k = uid_key(account, folder, *uid);
                    if let Some(old) = uids.insert(k, encode(entry))? {
                        let old: UidEntry = bincode::deserialize(&old).map_err(|e| {
                            ConflictableTransactionError::Abort(corrupt("imap_uids", e.to_string()))
                        })?;
                        if old.key != entry.key {
                            refs.remove(ref_key(&old.key, account, folder, *uid))?;
                        }
                    }
                    refs.insert(ref_key(&entry.key, account, folder, *uid), &[])?;
                }
                Ok(())
            })
            .map_err(tx_err)
    }

    /// Forgets UIDs of a folder with their references.
    pub fn unmap_uids(&self, account: &str, folder: &str, uids_gone: &[u32]) -> Result<()> {
        for chunk in uids_gone.chunks(1000) {
            (&self.uids, &self.refs)
                .transaction(|(uids, refs)| {
                    for uid in chunk {
                        if let Some(old) = uids.remove(uid_key(account, folder, *uid))? {
                            let old: UidEntry = bincode::deserialize(&old).map_err(|e| {
                                ConflictableTransactionError::Abort(corrupt(
                                    "imap_uids",
                                    e.to_string(),
                                ))
                            })?;
                            refs.remove(ref_key(&old.key, account, folder, *uid))?;
                        }
                    }
                    Ok(())
                })
                .map_err(tx_err)?;
        }
        Ok(())
    }

    /// What one UID holds, if it is mapped.
    pub fn entry(&self, account: &str, folder: &str, uid: u32) -> Result<Option<UidEntry>> {
        self.uids
            .get(uid_key(account, folder, uid))?
            .map(|v| decode("imap_uids", &v))
            .transpose()
    }

    /// Every place on a server that holds this message.
    pub fn refs_of(&self, key: &MessageKey) -> Result<Vec<ImapRef>> {
        self.refs
            .scan_prefix(key.0)
            .keys()
            .map(|k| {
                let k = k?;
                parse_ref(&k[16..]).ok_or_else(|| corrupt("imap_refs", "bad key"))
            })
            .collect()
    }

    /// Marks (or clears) a rethread owed: set before messages are added or changed,
    /// cleared once threads are rebuilt, so a crash in between is caught up.
    pub fn set_rethread_owed(&self, owed: bool) -> Result<()> {
        super::db::set_flag(&self.meta, "rethread_owed", owed)
    }

    pub fn rethread_owed(&self) -> Result<bool> {
        Ok(self.meta.contains_key("rethread_owed")?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> (tempfile::TempDir, SyncState) {
        let dir = tempfile::tempdir().unwrap();
        let db = sled::open(dir.path()).unwrap();
        (dir, SyncState::open(&db).unwrap())
    }

    #[test]
    fn cursor_never_moves_back() {
        let (_d, s) = state();
        s.reset("a", "INBOX", 7).unwrap();
        s.advance("a", "INBOX", 7, 200, Some(50)).unwrap();
        s.advance("a", "INBOX", 7, 100, Some(10)).unwrap();
        let c = s.cursor("a", "INBOX").unwrap().unwrap();
        assert_eq!((c.last_uid, c.highest_modseq), (200, Some(50)));
        // Another UIDVALIDITY does not move it; only a reset does.
        s.advance("a", "INBOX", 8, 999, None).unwrap();
        assert_eq!(s.cursor("a", "INBOX").unwrap().unwrap().last_uid, 200);
        // Numbers, not bytes: 1,000,000 > 999.
        s.advance("a", "INBOX", 7, 1_000_000, None).unwrap();
        assert_eq!(s.cursor("a", "INBOX").unwrap().unwrap().last_uid, 1_000_000);
    }

    #[test]
    fn refs_follow_uid_entries() {
        let (_d, s) = state();
        let k = MessageKey([3; 16]);
        let e = UidEntry {
            key: k,
            flags: "S".into(),
        };
        s.map_uids("a", "INBOX", &[(1, e.clone())]).unwrap();
        s.map_uids("a", "Archive", &[(9, e.clone())]).unwrap();
        assert_eq!(s.refs_of(&k).unwrap().len(), 2);
        s.unmap_uids("a", "INBOX", &[1]).unwrap();
        let refs = s.refs_of(&k).unwrap();
        assert_eq!(
            refs,
            vec![ImapRef {
                account: "a".into(),
                folder: "Archive".into(),
                uid: 9
            }]
        );
        assert!(s.folder_uids("a", "INBOX").unwrap().is_empty());
    }
}
