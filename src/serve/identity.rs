//! Which store a server serves. A server holds its store open; when the data
//! directory is removed, or removed and made again, the path names another store (or
//! none) while the server still holds the old one. The store's identity
//! ([`Store::identity`](crate::store::Store::identity)) is published beside it in
//! `<data dir>/store-id`, and travels in the server's greeting: a client talks only
//! to the server of the store its data directory holds now, and a server leaves as
//! soon as its store is no longer the one at its path.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The file that names the store of a data directory.
const FILE: &str = "store-id";

/// The identity the data directory names now; `None` when it names none (no data
/// directory, or no server has published one yet).
pub fn current(data_dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(data_dir.join(FILE)).ok()?;
    let id = text.trim();
    (!id.is_empty()).then(|| id.to_string())
}

/// The store a server holds, as found at its path when it started.
#[derive(Debug, Clone)]
pub struct Held {
    data_dir: PathBuf,
    id: String,
    /// The store folder's device and inode: the folder itself, not only its name.
    store_dir: (u64, u64),
}

/// Where the data directory stands against the store a server holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// The path still leads to the held store.
    Ours,
    /// The data directory or its store is gone.
    Gone,
    /// The path now leads to another store.
    Replaced,
}

impl Held {
    /// Publishes `id` as the identity of the store in `data_dir` (written whole, by
    /// rename), for a server about to serve it.
    pub fn publish(data_dir: &Path, id: &str) -> std::io::Result<Self> {
        let meta = std::fs::metadata(data_dir.join("store"))?;
        write_id(data_dir, id)?;
        Ok(Self {
            data_dir: data_dir.to_path_buf(),
            id: id.to_string(),
            store_dir: (meta.dev(), meta.ino()),
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether the path still leads to the held store. A published id gone missing
    /// counts as the store gone: a folder's inode may be reused by a store made anew,
    /// and a server must never name its store where another may be starting.
    pub fn standing(&self) -> Standing {
        let store_dir = match std::fs::metadata(self.data_dir.join("store")) {
            Ok(m) => (m.dev(), m.ino()),
            Err(_) => return Standing::Gone,
        };
        if store_dir != self.store_dir {
            return Standing::Replaced;
        }
        match current(&self.data_dir) {
            Some(id) if id == self.id => Standing::Ours,
            Some(_) => Standing::Replaced,
            None => Standing::Gone,
        }
    }
}

fn write_id(data_dir: &Path, id: &str) -> std::io::Result<()> {
    let path = data_dir.join(FILE);
    if current(data_dir).as_deref() == Some(id) {
        return Ok(());
    }
    let tmp = data_dir.join(format!("{FILE}.{}", std::process::id()));
    std::fs::write(&tmp, format!("{id}\n"))?;
    std::fs::rename(&tmp, &path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data_dir() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("store")).expect("store dir");
        dir
    }

    #[test]
    fn a_published_store_is_ours_until_its_folder_goes() {
        let dir = data_dir();
        let held = Held::publish(dir.path(), "abc").expect("publish");
        assert_eq!(current(dir.path()).as_deref(), Some("abc"));
        assert_eq!(held.standing(), Standing::Ours);
        std::fs::remove_dir_all(dir.path().join("store")).expect("remove");
        assert_eq!(held.standing(), Standing::Gone);
    }

    #[test]
    fn a_store_made_anew_at_the_path_is_another_store() {
        let dir = data_dir();
        let held = Held::publish(dir.path(), "abc").expect("publish");
        // The old folder is set aside while the new one is made: two folders that
        // exist at once never share an inode.
        let old = dir.path().join("store.old");
        std::fs::rename(dir.path().join("store"), &old).expect("set aside");
        std::fs::create_dir(dir.path().join("store")).expect("store again");
        std::fs::remove_dir_all(&old).expect("remove");
        assert_eq!(held.standing(), Standing::Replaced);
    }

    #[test]
    fn another_published_id_replaces_and_a_lost_one_is_gone() {
        let dir = data_dir();
        let held = Held::publish(dir.path(), "abc").expect("publish");
        std::fs::write(dir.path().join(FILE), "def\n").expect("write");
        assert_eq!(held.standing(), Standing::Replaced);
        std::fs::remove_file(dir.path().join(FILE)).expect("remove id");
        assert_eq!(held.standing(), Standing::Gone);
    }
}
