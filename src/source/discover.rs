//! Walks the paths given to `quoth ingest` and lists the files that hold mail.

use super::maildir::{is_maildir, parse_flags};
use super::{SourceError, SourceFile, SourceKind};
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A file found in a folder walk whose kind is decided by its first bytes.
const MAIL_EXTENSIONS: &[&str] = &["eml", "msg", "mbox", "mbx", "mail"];

/// Lists the mail files under each path. Explicitly named files are always taken as
/// mail (an mbox when they start with `From `, otherwise one message); files met in a
/// folder walk are taken when they sit in a Maildir, have a mail extension, or start
/// like a message. Hidden entries are skipped.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<SourceFile>, SourceError> {
    let mut out = Vec::new();
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
            let kind = sniff(root).unwrap_or(SourceKind::Eml);
            out.push(source_file(root.clone(), kind, root_name, &meta));
        } else if meta.is_dir() {
            walk_dir(root, &root_name, &mut out)?;
        } else {
            return Err(SourceError::NotMail(root.clone()));
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out.dedup_by(|a, b| a.path == b.path);
    Ok(out)
}

fn walk_dir(dir: &Path, folder: &str, out: &mut Vec<SourceFile>) -> Result<(), SourceError> {
    if is_maildir(dir) {
        for sub in ["cur", "new"] {
            add_maildir_messages(&dir.join(sub), folder, out)?;
        }
    }
    let mut entries = read_dir_sorted(dir)?;
    entries.retain(|p| !is_hidden(p) || is_maildir_plus_folder(dir, p));
    for path in entries {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Ok(meta) = fs::metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            if is_maildir(dir) && matches!(name.as_str(), "cur" | "new" | "tmp") {
                continue;
            }
            let sub = name.trim_start_matches('.');
            walk_dir(&path, &format!("{folder}/{sub}"), out)?;
        } else if meta.is_file() {
            let kind = if has_mail_extension(&path) {
                sniff(&path).or(Some(SourceKind::Eml))
            } else {
                sniff(&path)
            };
            if let Some(kind) = kind {
                let folder = match kind {
                    SourceKind::Mbox => format!("{folder}/{name}"),
                    _ => folder.to_string(),
                };
                out.push(source_file(path, kind, folder, &meta));
            }
        }
    }
    Ok(())
}

fn add_maildir_messages(
    dir: &Path,
    folder: &str,
    out: &mut Vec<SourceFile>,
) -> Result<(), SourceError> {
    if !dir.is_dir() {
        return Ok(());
    }
    for path in read_dir_sorted(dir)? {
        if is_hidden(&path) {
            continue;
        }
        let Ok(meta) = fs::metadata(&path) else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let flags = parse_flags(&path.file_name().unwrap_or_default().to_string_lossy());
        out.push(source_file(
            path,
            SourceKind::MaildirMessage { flags },
            folder.to_string(),
            &meta,
        ));
    }
    Ok(())
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

fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>, SourceError> {
    let rd = fs::read_dir(dir).map_err(|source| SourceError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
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
fn sniff(path: &Path) -> Option<SourceKind> {
    use std::io::Read;
    let mut head = [0u8; 512];
    let n = fs::File::open(path).ok()?.read(&mut head).ok()?;
    sniff_bytes(&head[..n])
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
        let files = discover(&[root]).expect("discover");
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
}
