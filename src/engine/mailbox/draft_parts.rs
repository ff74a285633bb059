//! The files a draft attaches: copies of a forwarded message's attachments kept
//! beside the draft (`<draft>.parts/`), and the files of its `Attach:` lines read
//! for sending.

use crate::engine::mailbox::compose::compose_error;
use crate::engine::Result;
use crate::mail::compose::{Attachment, Draft};
use crate::store::{Store, StoredMessage};
use std::path::{Path, PathBuf};

/// Where the attachments copied for the draft at `draft` are kept.
pub(in crate::engine) fn parts_dir(draft: &Path) -> PathBuf {
    draft.with_extension("parts")
}

/// Copies the attachments of `m` into `dir` (made private), one file each under
/// its own name; returns their paths.
pub(in crate::engine) fn keep_parts_of(
    store: &Store,
    m: &StoredMessage,
    dir: &Path,
) -> Result<Vec<String>> {
    let mut paths = Vec::new();
    for a in &m.attachments {
        let Some(bytes) = store.attachment_bytes(&m.key, a.index)? else {
            continue;
        };
        if paths.is_empty() {
            crate::engine::mailbox::privacy::create_private_dir_all(dir).map_err(compose_error)?;
        }
        // Only the name part: a name from mail must not climb out of the folder.
        let name = a
            .name
            .as_deref()
            .and_then(|n| Path::new(n).file_name())
            .map(|n| crate::terminal_text::one_line_for_terminal(&n.to_string_lossy()).into_owned())
            .filter(|n| !n.trim().is_empty() && !n.starts_with('.'))
            .unwrap_or_else(|| format!("attachment-{}", a.index));
        let mut path = dir.join(&name);
        if path.exists() {
            path = dir.join(format!("{}-{name}", a.index));
        }
        crate::engine::mailbox::privacy::write_private(&path, &bytes).map_err(compose_error)?;
        paths.push(path.to_string_lossy().into_owned());
    }
    Ok(paths)
}

/// The files of a draft's Attach: lines, read for sending.
pub(in crate::engine) fn attachments_of(draft: &Draft) -> Result<Vec<Attachment>> {
    draft
        .attach
        .iter()
        .map(|line| {
            let path = crate::engine::mailbox::message_files::expand_home(Path::new(line));
            let bytes = std::fs::read(&path)
                .map_err(|e| compose_error(format!("Attach: {line}: {e}; the draft is kept")))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "attachment".into());
            let content_type = crate::engine::mailbox::invitation::calendar_content_type(&bytes)
                .filter(|_| mime_guess::from_path(&path).first_raw() == Some("text/calendar"))
                .unwrap_or_else(|| {
                    mime_guess::from_path(&path)
                        .first_or_octet_stream()
                        .essence_str()
                        .to_string()
                });
            Ok(Attachment {
                name,
                content_type,
                bytes,
            })
        })
        .collect()
}

/// Removes the attachment copies of a draft that is sent, postponed or gone.
pub(in crate::engine) fn remove_parts(draft: &Path) {
    let dir = parts_dir(draft);
    if dir.is_dir() {
        let _ = std::fs::remove_dir_all(dir);
    }
}
