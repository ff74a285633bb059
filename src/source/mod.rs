//! Local mail sources: Maildir folders, mbox files and single .eml files.
//!
//! A source walk yields [`SourceFile`]s (one file each, with its mtime and size so an
//! unchanged file can be skipped without reading it, as notmuch does); reading a file
//! yields [`RawMail`]s (one for a Maildir or .eml file, many for an mbox).

mod discover;
pub mod imap;
pub mod maildir;
mod mbox;

pub use discover::discover;
pub use maildir::parse_flags;
pub use mbox::split_mbox;

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}: not a Maildir, mbox or .eml file, nor a folder of them")]
    NotMail(PathBuf),
}

/// What kind of container a file is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SourceKind {
    /// One message in a Maildir's cur/ or new/; flags come from the file name.
    MaildirMessage { flags: String },
    /// An mbox file holding any number of messages.
    Mbox,
    /// One message in its own file.
    Eml,
}

/// One file found by a walk.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: PathBuf,
    pub kind: SourceKind,
    /// The folder name shown to the user, e.g. `allen-p/inbox`.
    pub folder: String,
    pub mtime_ns: i64,
    pub size: u64,
}

/// Where a message's raw bytes live, so they can be read again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SourceLocation {
    File {
        path: String,
    },
    Mbox {
        path: String,
        offset: u64,
        len: u64,
    },
    /// A message on an IMAP server; the UID is only meaningful with its UIDVALIDITY.
    Imap {
        account: String,
        folder: String,
        uidvalidity: u32,
        uid: u32,
    },
}

impl SourceLocation {
    pub fn describe(&self) -> String {
        match self {
            Self::File { path } => path.clone(),
            Self::Mbox { path, offset, .. } => format!("{path} @ byte {offset}"),
            Self::Imap {
                account,
                folder,
                uidvalidity,
                uid,
            } => format!("imap://{account}/{folder};UIDVALIDITY={uidvalidity}/;UID={uid}"),
        }
    }
}

/// One message's bytes as read from a source.
#[derive(Debug, Clone)]
pub struct RawMail {
    pub raw: Vec<u8>,
    pub location: SourceLocation,
    pub folder: String,
    pub flags: String,
}

/// Reads every message in a source file.
pub fn read_source_file(file: &SourceFile) -> Result<Vec<RawMail>, SourceError> {
    let bytes = std::fs::read(&file.path).map_err(|source| SourceError::Io {
        path: file.path.clone(),
        source,
    })?;
    let path = file.path.to_string_lossy().into_owned();
    Ok(match &file.kind {
        SourceKind::MaildirMessage { flags } => vec![RawMail {
            raw: bytes,
            location: SourceLocation::File { path },
            folder: file.folder.clone(),
            flags: flags.clone(),
        }],
        SourceKind::Eml => vec![RawMail {
            raw: bytes,
            location: SourceLocation::File { path },
            folder: file.folder.clone(),
            flags: String::new(),
        }],
        SourceKind::Mbox => split_mbox(&bytes)
            .into_iter()
            .map(|m| RawMail {
                raw: m.raw,
                location: SourceLocation::Mbox {
                    path: path.clone(),
                    offset: m.offset as u64,
                    len: m.len as u64,
                },
                folder: file.folder.clone(),
                flags: String::new(),
            })
            .collect(),
    })
}

/// Reads one message again from where it was found.
pub fn read_location(loc: &SourceLocation) -> std::io::Result<Vec<u8>> {
    match loc {
        SourceLocation::File { path } => std::fs::read(path),
        SourceLocation::Mbox { path, offset, len } => {
            use std::io::{Read, Seek, SeekFrom};
            let mut f = std::fs::File::open(path)?;
            f.seek(SeekFrom::Start(*offset))?;
            let mut buf = vec![0u8; *len as usize];
            f.read_exact(&mut buf)?;
            Ok(mbox::unescape_from_lines(&buf))
        }
        SourceLocation::Imap { .. } => Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "the message is on an IMAP server; its stored copy is used",
        )),
    }
}
