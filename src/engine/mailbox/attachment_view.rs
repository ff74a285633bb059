//! What front ends show of attachments: each one's extraction status, a cited page
//! with the quote highlighted, counts for `quoth stats`, and opening the original in
//! the user's PDF viewer.

use crate::attach::{PageSource, PdfStatus};
use crate::engine::ask::Citation;
use crate::engine::{Engine, EngineError, Result};
use crate::mail::model::MessageKey;
use crate::store::{display_name, AttachmentExtract, AttachmentKind, Store, StoredMessage};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The viewer command when none is configured; `{file}` is the attachment written
/// to a private temporary file and `{page}` its page (left out when unknown).
pub const DEFAULT_VIEWER: &str = "xdg-open {file}";

/// The viewer command: `QUOTH_PDF_VIEWER`, else [`DEFAULT_VIEWER`].
pub fn configured_viewer() -> String {
    std::env::var("QUOTH_PDF_VIEWER")
        .ok()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| DEFAULT_VIEWER.to_string())
}

/// Where one attachment stands, worded for the user in `message`.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct AttachmentState {
    pub index: u32,
    pub name: String,
    pub mime_type: String,
    pub size: u64,
    /// "pending", "no_text_view", or the extraction status's label ("ok",
    /// "encrypted", "needs_ocr"...).
    pub status: String,
    pub message: String,
    pub extract: Option<AttachmentExtract>,
    /// An invitation's events as cards, with the answer the user sent.
    #[serde(default)]
    pub card: Option<String>,
}

/// One page of an attachment, for the evidence pane.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct AttachmentPage {
    pub name: String,
    pub page: u32,
    pub page_count: u32,
    /// The place a citation names when pages are rows, paragraphs or events.
    #[serde(default)]
    pub place: Option<String>,
    pub text: String,
    pub source: PageSource,
    /// Byte range of the cited quote in `text`, to highlight.
    pub highlight: Option<(usize, usize)>,
}

/// Attachment counts for `quoth stats`.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct AttachmentStats {
    /// Distinct attachment contents extracted.
    pub extracted: usize,
    pub pages: u64,
    pub ocr_pages: u64,
    pub chunks: usize,
    /// Extracted contents by status label.
    pub by_status: BTreeMap<String, usize>,
    pub pending: u64,
    pub failed: u64,
}

/// The attachment states of several messages, keyed by message, for front ends
/// that show a thread; messages without attachments are left out.
pub type AttachmentStates = HashMap<MessageKey, Vec<AttachmentState>>;

/// The status of each attachment of a message, in order. It reads only the store,
/// so front ends can call it without the engine.
pub fn attachment_states(store: &Store, msg: &StoredMessage) -> Result<Vec<AttachmentState>> {
    let mut out = Vec::new();
    for a in &msg.attachments {
        let hash = store.attachment_hash(&msg.key, a.index)?;
        let extract = match &hash {
            Some(h) => store.attachment_extract(h)?,
            None => None,
        };
        let (status, message) = match (&hash, &extract) {
            (None, _) => (
                "no_text_view".to_string(),
                "No text view for this kind of file.".to_string(),
            ),
            (Some(_), None) => (
                "pending".to_string(),
                "Text not read yet; background work reads it (`quoth embed` runs it now)."
                    .to_string(),
            ),
            (Some(_), Some(e)) => (e.status.label().to_string(), describe(e)),
        };
        let card = match (&hash, &extract) {
            (Some(h), Some(e)) if e.kind == AttachmentKind::Calendar => invitation_card(store, h)?,
            _ => None,
        };
        out.push(AttachmentState {
            index: a.index,
            name: display_name(a.name.as_deref(), a.index),
            mime_type: a.mime_type.clone(),
            size: a.size,
            status,
            message,
            extract,
            card,
        });
    }
    Ok(out)
}

impl Engine {
    /// The status of each attachment of a message, in order.
    pub fn attachment_states(&self, msg: &StoredMessage) -> Result<Vec<AttachmentState>> {
        attachment_states(&self.store, msg)
    }

    /// A page of a message's attachment, named as citations name it.
    pub fn attachment_page(
        &self,
        key: &MessageKey,
        attachment: &str,
        page: u32,
    ) -> Result<Option<AttachmentPage>> {
        let Some(msg) = self.store.message(key)? else {
            return Ok(None);
        };
        let Some(info) = msg
            .attachments
            .iter()
            .find(|a| display_name(a.name.as_deref(), a.index) == attachment)
        else {
            return Ok(None);
        };
        let Some(hash) = self.store.attachment_hash(key, info.index)? else {
            return Ok(None);
        };
        let (Some(extract), Some(record)) = (
            self.store.attachment_extract(&hash)?,
            self.store.attachment_page(&hash, page)?,
        ) else {
            return Ok(None);
        };
        Ok(Some(AttachmentPage {
            name: attachment.to_string(),
            page,
            page_count: extract.page_count,
            place: record.place,
            text: record.text,
            source: record.source,
            highlight: None,
        }))
    }

    /// The page a citation quotes, with the cited passage highlighted; None for a
    /// citation of a message body.
    pub fn cited_page(&self, citation: &Citation) -> Result<Option<AttachmentPage>> {
        let (Some(name), Some(key)) = (&citation.attachment, MessageKey::from_hex(&citation.key))
        else {
            return Ok(None);
        };
        let page = citation.page.unwrap_or(1);
        let Some(mut view) = self.attachment_page(&key, name, page)? else {
            return Ok(None);
        };
        view.highlight = match view.text.find(citation.quote.as_str()) {
            Some(at) => Some((at, at + citation.quote.len())),
            None => {
                let (s, e) = (citation.start as usize, citation.end as usize);
                (e <= view.text.len() && view.text.is_char_boundary(s) && s < e).then_some((s, e))
            }
        };
        Ok(Some(view))
    }

    pub fn attachment_stats(&self) -> Result<AttachmentStats> {
        let mut stats = AttachmentStats::default();
        for e in self.store.attachment_extracts()? {
            stats.extracted += 1;
            stats.pages += u64::from(e.text_pages);
            stats.ocr_pages += u64::from(e.ocr_pages);
            *stats
                .by_status
                .entry(e.status.label().to_string())
                .or_default() += 1;
        }
        stats.chunks = self.store.attachment_chunk_count()?;
        let jobs = self.attachment_job_counts()?;
        stats.pending = jobs.pending + jobs.running;
        stats.failed = jobs.failed;
        Ok(stats)
    }

    /// Writes an attachment to a private temporary file and starts `viewer` on it
    /// (`{file}` and `{page}` placeholders; without `{file}` the path goes last).
    /// Returns the file. It is removed once the viewer has exited and had
    /// [`VIEWER_GRACE`] to read it (a launcher such as xdg-open exits at once), when
    /// the process ends cleanly ([`crate::engine::mailbox::privacy::remove_viewer_copies`]), or at
    /// the next start.
    pub fn open_attachment(
        &self,
        key: &MessageKey,
        index: u32,
        page: Option<u32>,
        viewer: &str,
    ) -> Result<PathBuf> {
        let not_found = || EngineError::NoSuchMessage(format!("{key} attachment {}", index + 1));
        let msg = self.store.message(key)?.ok_or_else(not_found)?;
        let info = msg.attachments.get(index as usize).ok_or_else(not_found)?;
        let bytes = self
            .store
            .attachment_bytes(key, index)?
            .ok_or_else(not_found)?;
        let io = |e: std::io::Error| EngineError::Viewer(e.to_string());
        let dir = crate::engine::mailbox::privacy::viewer_dir().map_err(io)?;
        let name = safe_file_name(&display_name(info.name.as_deref(), index));
        let path = dir.join(name);
        crate::engine::mailbox::privacy::write_private(&path, &bytes).map_err(io)?;
        let argv = viewer_argv(viewer, &path, page);
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| EngineError::Viewer("the viewer command is empty".into()))?;
        let mut child = std::process::Command::new(program)
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map_err(|e| {
                let _ = std::fs::remove_file(&path);
                EngineError::Viewer(format!("could not start {program}: {e}"))
            })?;
        let copy = path.clone();
        std::thread::spawn(move || {
            let _ = child.wait();
            std::thread::sleep(VIEWER_GRACE);
            let _ = std::fs::remove_file(copy);
        });
        Ok(path)
    }
}

/// How long a copy stays after its viewer exited: a launcher that hands the file
/// to another program exits before that program has read it.
pub const VIEWER_GRACE: std::time::Duration = std::time::Duration::from_secs(30);

/// The user-facing sentence for an extracted attachment.
fn describe(e: &AttachmentExtract) -> String {
    match (e.kind, &e.status) {
        (AttachmentKind::Pdf, PdfStatus::Ok) if e.ocr_pages > 0 => format!(
            "Text extracted from all {} pages ({} read by OCR).",
            e.page_count, e.ocr_pages
        ),
        (AttachmentKind::Pdf, PdfStatus::Ok) => {
            format!("Text extracted from all {} pages.", e.page_count)
        }
        (AttachmentKind::Pdf, status) => status.to_string(),
        (kind, status) => describe_located(kind, e, status),
    }
}

/// An invitation's events as the reader shows them, each with the answer the user
/// sent to it.
fn invitation_card(store: &Store, hash: &crate::store::ContentHash) -> Result<Option<String>> {
    let mut cards = Vec::new();
    for (_, page) in store.attachment_pages(hash)? {
        let mut card = page.text.clone();
        if let Some(v) = &page.version {
            if let Some((answer, when)) = store.invite_answer(&v.uid)? {
                let day = chrono::DateTime::from_timestamp(when, 0)
                    .map(|d| d.format(" on %Y-%m-%d").to_string())
                    .unwrap_or_default();
                card.push_str(&format!("\nYou {}{day}.", answer.verb()));
            }
        }
        cards.push(card);
    }
    Ok((!cards.is_empty()).then(|| cards.join("\n\n")))
}

/// The sentence for an attachment that is not a PDF.
fn describe_located(kind: AttachmentKind, e: &AttachmentExtract, status: &PdfStatus) -> String {
    let (noun, units) = match kind {
        AttachmentKind::Spreadsheet => ("spreadsheet", "sheets"),
        AttachmentKind::Document => ("document", "paragraphs"),
        AttachmentKind::Calendar => ("invitation", "events"),
        _ => ("file", "parts"),
    };
    match status {
        PdfStatus::Ok if kind.has_places() => {
            format!("Text read from all {} {units}.", e.page_count)
        }
        PdfStatus::Ok => "Text indexed.".to_string(),
        PdfStatus::Corrupt(reason) => {
            format!("This {noun} is damaged and could not be read ({reason}).")
        }
        PdfStatus::Partial { failed_pages } => format!(
            "Could not read {} of its {units} ({}); the rest is shown.",
            failed_pages.len(),
            failed_pages
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        PdfStatus::TooManyPages { limit, .. } => {
            format!("This {noun} is longer than the {limit} parts that are read; the first {limit} are shown.")
        }
        PdfStatus::Timeout => format!(
            "Reading this {noun} took too long and was stopped; what was read in time is shown."
        ),
        PdfStatus::Truncated => {
            format!("This {noun} is cut off; only what could be read is shown.")
        }
        other => other.to_string().replace("PDF", noun),
    }
}

/// The viewer's arguments: the command split on whitespace, placeholders filled.
/// An argument holding `{page}` is dropped when the page is unknown, so
/// `"zathura --page={page} {file}"` still opens the file.
pub fn viewer_argv(template: &str, file: &Path, page: Option<u32>) -> Vec<String> {
    let file = file.to_string_lossy();
    let mut argv: Vec<String> = template
        .split_whitespace()
        .filter(|a| page.is_some() || !a.contains("{page}"))
        .map(|a| {
            let a = a.replace("{file}", &file);
            match page {
                Some(p) => a.replace("{page}", &p.to_string()),
                None => a,
            }
        })
        .collect();
    if !template.contains("{file}") {
        argv.push(file.into_owned());
    }
    argv
}

/// A file name without path separators or leading dots, so it stays in its folder.
fn safe_file_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    let cleaned = cleaned.trim_start_matches('.').trim();
    if cleaned.is_empty() {
        "attachment".into()
    } else {
        cleaned.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn viewer_placeholders() {
        let f = Path::new("/tmp/x/a b.pdf");
        assert_eq!(
            viewer_argv("xdg-open {file}", f, Some(3)),
            ["xdg-open", "/tmp/x/a b.pdf"]
        );
        assert_eq!(
            viewer_argv("zathura --page={page} {file}", f, Some(3)),
            ["zathura", "--page=3", "/tmp/x/a b.pdf"]
        );
        assert_eq!(
            viewer_argv("zathura --page={page} {file}", f, None),
            ["zathura", "/tmp/x/a b.pdf"]
        );
        assert_eq!(
            viewer_argv("evince", f, Some(2)),
            ["evince", "/tmp/x/a b.pdf"]
        );
        assert_eq!(safe_file_name("../../etc/passwd"), "_.._etc_passwd");
    }
}
