//! Private by default: the data directory holds people's mail, their questions and
//! copies of their attachments, so nobody else on the machine may read any of it,
//! whatever the umask. Directories are 0700 and files 0600; an existing data
//! directory with looser modes is tightened when it is opened. The binary also sets
//! its umask to 077, so files that sled and tantivy create are private from the
//! first byte.
//!
//! Attachment copies for a viewer live in a private temporary directory of this
//! user (`$XDG_RUNTIME_DIR/quoth`, or `quoth-UID` in the system temp dir), one
//! folder per process, and are removed when the viewer exits, when the process
//! ends cleanly, or at the next start.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

#[cfg(unix)]
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};

pub const DIR_MODE: u32 = 0o700;
pub const FILE_MODE: u32 = 0o600;

/// Sets this process's file-creation mask to 077, so every file the store and the
/// indexes create from now on is private from the first byte. The binary calls it
/// first thing. A program that uses Quoth as a library keeps its own umask (it may
/// write files for others); [`make_private`] runs when a data directory is opened
/// and after each ingest and embedding run, and tightens what was created since.
pub fn restrict_umask() {
    #[cfg(unix)]
    // SAFETY: umask only sets this process's file-creation mask.
    unsafe {
        libc::umask(0o077);
    }
}

/// Creates `dir` if needed and makes it and everything under it private.
pub fn make_private(dir: &Path) -> io::Result<()> {
    create_private_dir_all(dir)?;
    tighten(dir)
}

/// Creates a directory (and missing parents) with mode 0700.
pub fn create_private_dir_all(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(DIR_MODE)
            .create(dir)
    }
    #[cfg(not(unix))]
    {
        fs::create_dir_all(dir)
    }
}

/// Removes group and other permissions from `path` and, for a directory, from
/// everything below it. Symbolic links are not followed.
pub fn tighten(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let meta = fs::symlink_metadata(path)?;
        if meta.file_type().is_symlink() {
            return Ok(());
        }
        let mode = meta.permissions().mode() & 0o7777;
        let want = if meta.is_dir() {
            (mode & 0o700) | DIR_MODE
        } else {
            mode & 0o700
        };
        if mode != want {
            fs::set_permissions(path, fs::Permissions::from_mode(want))?;
        }
        if meta.is_dir() {
            for entry in fs::read_dir(path)? {
                tighten(&entry?.path())?;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Writes `bytes` to a new file readable by its owner only.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    opts.mode(FILE_MODE);
    let mut f = opts.open(path)?;
    #[cfg(unix)]
    f.set_permissions(fs::Permissions::from_mode(FILE_MODE))?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// This user's private temporary directory for Quoth, created 0700 and checked: it
/// must be a real directory (not a link) owned by this user and closed to others,
/// or another user could have prepared it to read what is put there.
pub fn private_temp_root() -> io::Result<PathBuf> {
    let root = temp_root_path();
    create_private_dir_all(&root)?;
    #[cfg(unix)]
    {
        let meta = fs::symlink_metadata(&root)?;
        let foreign = meta.uid() != user_id();
        if !meta.is_dir() || foreign || meta.permissions().mode() & 0o077 != 0 {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "{} is not a private directory of this user: remove it and try again",
                    root.display()
                ),
            ));
        }
    }
    Ok(root)
}

fn temp_root_path() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d).join("quoth"),
        None => std::env::temp_dir().join(format!("quoth-{}", user_id())),
    }
}

/// The folder of this process for attachment copies, under [`private_temp_root`].
pub fn viewer_dir() -> io::Result<PathBuf> {
    let dir = private_temp_root()?.join(format!("open-{}", std::process::id()));
    create_private_dir_all(&dir)?;
    Ok(dir)
}

/// Removes this process's attachment copies.
pub fn remove_viewer_copies() {
    let dir = temp_root_path().join(format!("open-{}", std::process::id()));
    if dir.exists() {
        let _ = fs::remove_dir_all(dir);
    }
}

/// Removes the attachment copies of Quoth processes that are no longer running.
pub fn remove_stale_viewer_copies() {
    let root = temp_root_path();
    #[cfg(unix)]
    match fs::symlink_metadata(&root) {
        Ok(meta) if meta.is_dir() && meta.uid() == user_id() => {}
        _ => return,
    }
    let Ok(entries) = fs::read_dir(&root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix("open-")
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if !process_alive(pid) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

fn process_alive(pid: i32) -> bool {
    #[cfg(unix)]
    {
        if pid == std::process::id() as i32 {
            return true;
        }
        // SAFETY: signal 0 only checks that the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

fn user_id() -> u32 {
    #[cfg(unix)]
    {
        // SAFETY: getuid has no preconditions and cannot fail.
        unsafe { libc::getuid() }
    }
    #[cfg(not(unix))]
    {
        0
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn an_open_data_dir_becomes_private() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let data = tmp.path().join("data");
        fs::create_dir_all(data.join("store")).expect("mkdir");
        fs::write(data.join("store/db"), b"x").expect("write");
        fs::set_permissions(&data, fs::Permissions::from_mode(0o755)).expect("chmod");
        fs::set_permissions(data.join("store/db"), fs::Permissions::from_mode(0o644))
            .expect("chmod");
        make_private(&data).expect("private");
        let mode = |p: &Path| fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&data.join("store")), 0o700);
        assert_eq!(mode(&data.join("store/db")), 0o600);
        write_private(&data.join("new"), b"y").expect("write");
        assert_eq!(mode(&data.join("new")), 0o600);
    }
}
