//! Snapshot files sled left half written.
//!
//! sled 0.34 writes a snapshot of its page table to `snap.<lsn>.generating`,
//! syncs it and renames it to `snap.<lsn>`; only then does it remove the older
//! snapshot. A process killed before the rename leaves the `.generating` file
//! behind, and the next open takes it for the newest snapshot: its checksum
//! fails and the whole store reads as corrupt. The file is a cache of what the
//! log already holds (the older snapshot and the log are both still there), so
//! removing it before sled opens loses nothing.
//!
//! Another process may hold the store and be writing a snapshot right now, so
//! the files are removed only while holding the lock sled itself takes (an
//! exclusive `flock` on the `db` file).

use std::path::{Path, PathBuf};

/// The suffix sled gives a snapshot it has not finished writing.
const UNFINISHED: &str = ".generating";

/// Removes the unfinished snapshot files in a sled directory and returns which.
/// A directory that does not exist (a new store) holds none; one another process
/// holds is left alone (sled then reports it locked).
pub(super) fn discard(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let lock = match std::fs::File::open(dir.join("db")) {
        Ok(file) => match file.try_lock() {
            Ok(()) => Some(file),
            Err(std::fs::TryLockError::WouldBlock) => return Ok(Vec::new()),
            Err(std::fs::TryLockError::Error(e)) => return Err(e),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e),
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut removed = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let unfinished = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("snap.") && n.ends_with(UNFINISHED));
        if unfinished && path.is_file() {
            std::fs::remove_file(&path)?;
            removed.push(path);
        }
    }
    drop(lock);
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Store, StoreError};

    fn snapshots(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("store dir")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with("snap."))
            .collect();
        names.sort();
        names
    }

    /// Waits until no sled handle holds the store's lock: sled lets it go when its
    /// flusher thread ends, a moment after the last handle is dropped.
    fn wait_unlocked(dir: &Path) {
        use std::os::fd::AsRawFd;
        let file = std::fs::File::open(dir.join("db")).expect("db file");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        // SAFETY: flock on a descriptor this function owns; unlocked at once.
        while unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            assert!(std::time::Instant::now() < deadline, "sled kept its lock");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
    }

    /// A store whose log has run past its snapshot, closed cleanly, with a copy of
    /// its finished snapshot cut short under a later `.generating` name: what a
    /// process killed while sled wrote its snapshot on opening leaves.
    fn store_with_half_written_snapshot(dir: &Path) {
        {
            let db = sled::open(dir).expect("sled");
            let tree = db.open_tree("meta").expect("tree");
            for i in 0..500u32 {
                tree.insert(i.to_be_bytes(), vec![7u8; 64]).expect("insert");
            }
            db.flush().expect("flush");
        }
        // Reopening writes a snapshot that covers the log so far.
        wait_unlocked(dir);
        drop(sled::open(dir).expect("reopen"));
        wait_unlocked(dir);
        let finished = snapshots(dir)
            .into_iter()
            .find(|n| !n.ends_with(UNFINISHED))
            .expect("sled wrote a snapshot");
        let bytes = std::fs::read(dir.join(&finished)).expect("snapshot");
        let half = &bytes[..bytes.len() / 2];
        std::fs::write(dir.join("snap.FFFFFFFFFFFFFFF0.generating"), half).expect("write");
    }

    #[test]
    fn sled_alone_reads_a_half_written_snapshot_as_corruption() {
        let dir = tempfile::tempdir().expect("tempdir");
        store_with_half_written_snapshot(dir.path());
        assert!(matches!(
            sled::open(dir.path()),
            Err(sled::Error::Corruption { .. })
        ));
    }

    #[test]
    fn a_store_left_with_a_half_written_snapshot_opens_with_its_data() {
        let dir = tempfile::tempdir().expect("tempdir");
        store_with_half_written_snapshot(dir.path());
        let store = match Store::open(dir.path()) {
            Ok(store) => store,
            Err(StoreError::Damaged { reason, .. }) => panic!("store read as damaged: {reason}"),
            Err(e) => panic!("store did not open: {e}"),
        };
        let meta = store.db().open_tree("meta").expect("tree");
        for i in 0..500u32 {
            assert_eq!(
                meta.get(i.to_be_bytes()).expect("read").as_deref(),
                Some(&[7u8; 64][..]),
                "key {i}"
            );
        }
        assert!(snapshots(dir.path())
            .iter()
            .all(|n| !n.ends_with(UNFINISHED)));
    }

    #[test]
    fn only_unfinished_snapshots_are_removed() {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in [
            "snap.00000000000000A0",
            "snap.00000000000000B0.generating",
            "db",
            "conf",
        ] {
            std::fs::write(dir.path().join(name), b"x").expect("write");
        }
        let removed = discard(dir.path()).expect("discard");
        assert_eq!(
            removed,
            vec![dir.path().join("snap.00000000000000B0.generating")]
        );
        assert_eq!(
            snapshots(dir.path()),
            vec!["snap.00000000000000A0".to_string()]
        );
        assert!(dir.path().join("db").exists() && dir.path().join("conf").exists());
        assert!(discard(&dir.path().join("absent"))
            .expect("absent dir")
            .is_empty());
    }

    #[test]
    fn a_store_another_process_holds_is_left_alone() {
        let dir = tempfile::tempdir().expect("tempdir");
        let db = sled::open(dir.path()).expect("sled");
        let unfinished = dir.path().join("snap.00000000000000C0.generating");
        std::fs::write(&unfinished, b"being written").expect("write");
        // A lock taken through another open file description, as another process's.
        assert!(discard(dir.path()).expect("discard").is_empty());
        assert!(unfinished.exists());
        // sled lets its lock go when its flusher thread ends, a moment after the
        // last handle is dropped.
        drop(db);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        let removed = loop {
            let removed = discard(dir.path()).expect("discard");
            if !removed.is_empty() || std::time::Instant::now() > deadline {
                break removed;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        assert_eq!(removed, vec![unfinished]);
    }
}
