//! Walks the paths given to `quoth ingest` and lists the files that hold mail.

use super::maildir::{is_maildir, parse_flags};
use super::{SourceError, SourceFile, SourceKind};
use std::collections::HashSet;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A file found in a folder walk whose kind is decided by its first bytes.
const MAIL_EXTENSIONS: &[&str] = &["eml", "msg", "mbox", "mbx", "mail"];

/// What a walk found: the mail files, and the folders and files it could not read
/// (with the reason), which do not stop the walk.
#[derive(Debug, Default)]
pub struct Discovered {
    pub files: Vec<SourceFile>,
    pub unreadable: Vec<(PathBuf, String)>,
}

/// The state of one walk: what it found, and the folders it has been in (by
/// canonical path), so a symbolic link loop is never followed twice.
#[derive(Default)]
struct Walk {
    found: Discovered,
    visited: HashSet<PathBuf>,
}

impl Walk {
    fn unreadable(&mut self, path: &Path, why: impl std::fmt::Display) {
        self.found
            .unreadable
            .push((path.to_path_buf(), why.to_string()));
    }

    /// Whether `dir` is new to this walk (false for a folder reached again through
    /// a link).
    fn enter(&mut self, dir: &Path) -> bool {
        match fs::canonicalize(dir) {
            Ok(real) => self.visited.insert(real),
            Err(e) => {
                self.unreadable(dir, e);
                false
            }
        }
    }
}

/// Lists the mail files under each path. Explicitly named files are always taken as
/// mail (an mbox when they start with `From `, otherwise one message); files met in a
/// folder walk are taken when they sit in a Maildir, have a mail extension, or start
/// like a message. Hidden entries are skipped. A path given that does not exist is an
/// error; a folder or file inside that cannot be read is listed in `unreadable` and
/// the walk goes on.
pub fn discover(paths: &[PathBuf]) -> Result<Discovered, SourceError> {
    let mut walk = Walk::default();
    for root in paths {
        let meta = fs::metadata(root).map_err(|source| SourceError::Io {
            path: root.clone(),
            source,
        })?;
        let root_name = root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| root.to_string_lossy().into_owned());
        if meta.is_file() {
            let kind = sniff(root).ok().flatten().unwrap_or(SourceKind::Eml);
            walk.found
                .files
                .push(source_file(root.clone(), kind, root_name, &meta));
        } else if meta.is_dir() {
            fs::read_dir(root).map_err(|source| SourceError::Io {
                path: root.clone(),
                source,
            })?;
            walk_dir(root, &root_name, &mut walk);
        } else {
            return Err(SourceError::NotMail(root.clone()));
        }
    }
    let mut found = walk.found;
    found.files.sort_by(|a, b| a.path.cmp(&b.path));
    found.files.dedup_by(|a, b| a.path == b.path);
    Ok(found)
}

fn walk_dir(dir: &Path, folder: &str, walk: &mut Walk) {
    if !walk.enter(dir) {
        return;
    }
    if is_maildir(dir) {
        for sub in ["cur", "new"] {
            add_maildir_messages(&dir.join(sub), folder, walk);
        }
    }
    let mut entries = match read_dir_sorted(dir) {
        Ok(entries) => entries,
        Err(e) => {
            walk.unreadable(dir, e);
            return;
        }
    };
    entries.retain(|p| !is_hidden(p) || is_maildir_plus_folder(dir, p));
    for path in entries {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let meta = match fs::metadata(&path) {
            Ok(meta) => meta,
            Err(e) => {
                walk.unreadable(&path, e);
                continue;
            }
        };
        if meta.is_dir() {
            if is_maildir(dir) && matches!(name.as_str(), "cur" | "new" | "tmp") {
                continue;
            }
            let sub = name.trim_start_matches('.');
            walk_dir(&path, &format!("{folder}/{sub}"), walk);
        } else if meta.is_file() {
            let sniffed = match sniff(&path) {
                Ok(kind) => kind,
                Err(e) => {
                    walk.unreadable(&path, e);
                    continue;
                }
            };
            let kind = if has_mail_extension(&path) {
                sniffed.or(Some(SourceKind::Eml))
            } else {
                sniffed
            };
            if let Some(kind) = kind {
                let folder = match kind {
                    SourceKind::Mbox => format!("{folder}/{name}"),
                    _ => folder.to_string(),
                };
                walk.found
                    .files
                    .push(source_file(path, kind, folder, &meta));
            }
        }
    }
}

fn add_maildir_messages(dir: &Path, folder: &str, walk: &mut Walk) {
    if !dir.is_dir() {
        return;
    }
    let entries = match read_dir_sorted(dir) {
        Ok(entries) => entries,
        Err(e) => {
            walk.unreadable(dir, e);
            return;
        }
    };
    for path in entries {
        if is_hidden(&path) {
            continue;
        }
        let meta = match fs::metadata(&path) {
            Ok(meta) => meta,
            Err(e) => {
                walk.unreadable(&path, e);
                continue;
            }
        };
        if !meta.is_file() {
            continue;
        }
        let flags = parse_flags(&path.file_name().unwrap_or_default().to_string_lossy());
        walk.found.files.push(source_file(
            path,
            SourceKind::MaildirMessage { flags },
            folder.to_string(),
            &meta,
        ));
    }
}

fn source_file(path: PathBuf, kind: SourceKind, folder: String, meta: &fs::Metadata) -> SourceFile {
    SourceFile {
        path,
        kind,
        folder,
        mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
        size: meta.size(),
    }
}

fn read_dir_sorted(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    Ok(paths)
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// Maildir++ keeps subfolders as hidden directories (`.Sent`) inside the Maildir.
fn is_maildir_plus_folder(parent: &Path, path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    is_maildir(parent) && name.len() > 1 && name != ".." && is_maildir(path)
}

fn has_mail_extension(path: &Path) -> bool {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .is_some_and(|e| MAIL_EXTENSIONS.contains(&e.as_str()))
}

/// Decides from the first bytes whether a file is an mbox, a message, or not mail.
fn sniff(path: &Path) -> std::io::Result<Option<SourceKind>> {
    use std::io::Read;
    let mut head = [0u8; 512];
    let n = fs::File::open(path)?.read(&mut head)?;
    Ok(sniff_bytes(&head[..n]))
}

pub(super) fn sniff_bytes(head: &[u8]) -> Option<SourceKind> {
    if head.starts_with(b"From ") {
        return Some(SourceKind::Mbox);
    }
    let first_line = head.split(|&b| b == b'\n').next().unwrap_or(b"");
    let colon = first_line.iter().position(|&b| b == b':')?;
    let name = &first_line[..colon];
    let is_field_name =
        !name.is_empty() && name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-');
    is_field_name.then_some(SourceKind::Eml)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_mail_shapes() {
        assert_eq!(sniff_bytes(b"From x Mon\nA: b"), Some(SourceKind::Mbox));
        assert_eq!(sniff_bytes(b"Return-Path: <a@b>\n"), Some(SourceKind::Eml));
        assert_eq!(sniff_bytes(b"{\"json\": 1}"), None);
        assert_eq!(sniff_bytes(b"# README\n"), None);
        assert_eq!(sniff_bytes(b""), None);
    }

    #[test]
    fn walks_maildirs_and_names_folders() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().join("mail");
        for (dir, file) in [
            ("inbox/cur", "1:2,S"),
            ("inbox/new", "2"),
            ("sent/cur", "3:2,RS"),
        ] {
            fs::create_dir_all(root.join(dir)).expect("mkdir");
            fs::write(root.join(dir).join(file), b"Subject: x\n\nbody").expect("write");
        }
        fs::create_dir_all(root.join("inbox/tmp")).expect("mkdir");
        fs::write(root.join("inbox/tmp/4"), b"Subject: x\n\n").expect("write");
        fs::write(root.join("notes.txt"), b"just notes").expect("write");
        fs::write(root.join("archive.mbox"), b"From a\nSubject: y\n\nz\n").expect("write");
        let files = discover(&[root]).expect("discover").files;
        let summary: Vec<(String, SourceKind)> = files
            .iter()
            .map(|f| (f.folder.clone(), f.kind.clone()))
            .collect();
        assert_eq!(summary.len(), 4, "{summary:?}");
        assert!(summary.contains(&("mail/archive.mbox".into(), SourceKind::Mbox)));
        assert!(summary.contains(&(
            "mail/inbox".into(),
            SourceKind::MaildirMessage { flags: "S".into() }
        )));
        assert!(summary.contains(&(
            "mail/sent".into(),
            SourceKind::MaildirMessage { flags: "RS".into() }
        )));
    }

    #[test]
    fn a_link_loop_is_walked_once() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().join("mail");
        fs::create_dir_all(root.join("inbox/cur")).expect("mkdir");
        fs::write(root.join("inbox/cur/1:2,S"), b"Subject: x\n\nbody").expect("write");
        std::os::unix::fs::symlink(&root, root.join("inbox/loop")).expect("symlink");
        std::os::unix::fs::symlink(&root, root.join("again")).expect("symlink");
        let found = discover(&[root]).expect("discover");
        assert_eq!(found.files.len(), 1, "{:?}", found.files);
        assert!(found.files.iter().all(|f| !f.folder.contains("loop")));
    }

    #[test]
    fn an_unreadable_entry_is_reported_and_the_rest_is_found() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = tmp.path().join("mail");
        fs::create_dir_all(root.join("inbox/cur")).expect("mkdir");
        fs::write(root.join("inbox/cur/1:2,S"), b"Subject: x\n\nbody").expect("write");
        // A link to itself cannot be read by anyone, root included.
        std::os::unix::fs::symlink("knot", root.join("knot")).expect("symlink");
        std::os::unix::fs::symlink("knot", root.join("inbox/cur/2:2,S")).expect("symlink");
        let found = discover(&[root]).expect("discover");
        assert_eq!(found.files.len(), 1, "{:?}", found.files);
        let names: Vec<String> = found
            .unreadable
            .iter()
            .map(|(p, _)| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(names, ["2:2,S", "knot"], "{:?}", found.unreadable);
    }
}
