//! A message as its source holds it, and its attachments written where the user
//! asks: for the reader's raw view, piping a message to a command, and saving.

use crate::engine::{EngineError, Result};
use crate::mail::identity::content_key;
use crate::mail::model::MessageKey;
use crate::source::imap::AccountConfig;
use crate::source::maildir::find_renamed;
use crate::source::{read_location, SourceLocation};
use crate::store::Store;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn file_error(e: impl std::fmt::Display) -> EngineError {
    EngineError::MailSource(e.to_string())
}

/// The raw bytes of a message, headers and all, read again from its source (a
/// Maildir file that another program renamed is found by its unique name).
pub fn raw_message(store: &Store, key: &MessageKey) -> Result<Vec<u8>> {
    let msg = store
        .message(key)?
        .ok_or_else(|| EngineError::NoSuchMessage(key.to_hex()))?;
    if let SourceLocation::Imap {
        account, folder, ..
    } = &msg.location
    {
        return Err(EngineError::MailSource(format!(
            "the raw message is on the server ({account}/{folder}); Quoth keeps its text only"
        )));
    }
    match read_location(&msg.location) {
        Ok(raw) => Ok(raw),
        Err(e) => match &msg.location {
            SourceLocation::File { path } => find_renamed(Path::new(path))
                .and_then(|p| std::fs::read(p).ok())
                .ok_or_else(|| file_error(format!("{path}: {e}"))),
            other => Err(file_error(format!("{}: {e}", other.describe()))),
        },
    }
}

/// The raw bytes of a message, from its server when it is IMAP mail (a
/// `BODY.PEEK[]` fetch, which leaves it unread); a message at that UID that is not
/// this one (the folder changed since the last sync) is refused.
pub async fn raw_message_anywhere(
    store: &Store,
    accounts: &[AccountConfig],
    key: &MessageKey,
    timeout: Duration,
) -> Result<Vec<u8>> {
    let msg = store
        .message(key)?
        .ok_or_else(|| EngineError::NoSuchMessage(key.to_hex()))?;
    let SourceLocation::Imap {
        account,
        folder,
        uidvalidity,
        uid,
    } = &msg.location
    else {
        return raw_message(store, key);
    };
    let config = accounts
        .iter()
        .find(|a| a.name == *account)
        .ok_or_else(|| {
            EngineError::MailSource(format!(
                "the message is on the server of {account}, which is not in the config file"
            ))
        })?;
    let mut session = crate::source::imap::connect(config, timeout).await?;
    let status = session.select(folder).await?;
    let fetched = if status.uidvalidity == *uidvalidity {
        session.fetch_messages(folder, &[*uid]).await?
    } else {
        Vec::new()
    };
    session.logout().await;
    let raw = fetched
        .into_iter()
        .find_map(|m| m.raw)
        .filter(|raw| content_key(raw) == *key)
        .ok_or_else(|| {
            EngineError::MailSource(format!(
                "{account}/{folder} no longer holds this message where it was; the next sync finds it"
            ))
        })?;
    Ok(raw)
}

/// Writes attachment `index` of a message to `to` (a file, or a directory to put
/// it in under its own name); an existing file is never overwritten.
pub fn save_attachment_as(
    store: &Store,
    key: &MessageKey,
    index: u32,
    to: &Path,
) -> Result<PathBuf> {
    let msg = store
        .message(key)?
        .ok_or_else(|| EngineError::NoSuchMessage(key.to_hex()))?;
    let info = msg
        .attachments
        .iter()
        .find(|a| a.index == index)
        .ok_or_else(|| file_error(format!("the message has no attachment {index}")))?;
    let bytes = store
        .attachment_bytes(key, index)?
        .ok_or_else(|| file_error("the attachment's bytes are not stored"))?;
    let to = expand_home(to);
    let path = if to.is_dir() {
        // Only the name part: a name from mail must not climb out of the folder.
        let name = info
            .name
            .as_deref()
            .and_then(|n| Path::new(n).file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| format!("attachment-{index}"));
        to.join(crate::terminal_text::for_terminal(&name).as_ref())
    } else {
        to
    };
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::AlreadyExists => {
                file_error(format!("{} exists: give another name", path.display()))
            }
            _ => file_error(format!("{}: {e}", path.display())),
        })?;
    std::io::Write::write_all(&mut file, &bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| file_error(format!("{}: {e}", path.display())))?;
    Ok(path)
}

/// `~/x` as the home directory's `x`.
pub(crate) fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), dirs::home_dir()) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => path.to_path_buf(),
    }
}

/// The web and mail addresses in a message's text, in order, each once.
pub fn links(text: &str) -> Vec<String> {
    let mut finder = linkify::LinkFinder::new();
    finder.kinds(&[linkify::LinkKind::Url]);
    let mut out: Vec<String> = Vec::new();
    for link in finder.links(text) {
        let url = link.as_str().to_string();
        if !out.contains(&url) {
            out.push(url);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::links;

    #[test]
    fn links_are_found_once_without_their_punctuation() {
        let text = "See https://example.org/a?b=1 (or <http://x.example/p>), \
                    then https://example.org/a?b=1. Not www nor mail@x.example.";
        assert_eq!(
            links(text),
            vec!["https://example.org/a?b=1", "http://x.example/p"]
        );
    }
}
