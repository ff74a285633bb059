//! Page-by-page text extraction from PDF attachments.
//!
//! The text layer is read with `pdf-extract`, one page at a time, on a
//! worker thread. Three properties of that crate shape this module:
//!
//! * Its `extract_text_from_mem_by_pages` is a loop over `output_doc_page`
//!   that stops silently at the first page returning an error, and a panic
//!   on any page (the crate panics on many malformed inputs) loses every
//!   page. We therefore load the document once with `lopdf`, take the page
//!   count from `get_pages()`, and call `output_doc_page` for every page
//!   ourselves, each call under `catch_unwind`, so one bad page costs only
//!   that page.
//! * It has no time limit. The worker streams pages back over a channel and
//!   the caller stops waiting at the deadline, keeping what arrived.
//! * It recurses into form XObjects without a depth check, and a stack
//!   overflow aborts the process rather than panicking. Pages whose drawing
//!   objects loop are detected beforehand and skipped (see `xobject_guard`).
//!
//! The worker itself lives in `pdf_worker`.
//!
//! `pdf-extract` and `lopdf` never write to stdout or stderr themselves; they
//! report through the `log` facade, which is silent unless the application
//! installs a logger. Panic messages are kept off the terminal by a panic
//! hook that stays quiet on the worker threads started here.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use crate::attach::ocr::OcrEngine;
pub use crate::attach::pdf_worker::install_quiet_panic_hook;
use crate::attach::pdf_worker::{Event, Job, WORKER_STACK};
use crate::attach::poppler_text::PdfToText;

/// Caps that keep one hostile or oversized attachment from stalling the reader.
#[derive(Debug, Clone)]
pub struct PdfLimits {
    /// Larger files are refused before parsing: `lopdf` holds the whole
    /// document, decompressed streams included, in memory.
    pub max_bytes: usize,
    /// Documents with more pages are refused; a preview of a huge report is
    /// rarely what the user wants and the work grows with every page.
    pub max_pages: u32,
    /// The most one stream may decompress to. Text extraction inflates each
    /// stream whole, in memory, so this bounds its memory beside `max_bytes`;
    /// a stream over it (a decompression bomb) is dropped and the pages that
    /// draw with it are reported as failed.
    pub max_stream_bytes: u64,
    /// Wall-clock budget for the whole attachment, OCR included.
    pub timeout: Duration,
    /// OCR for pages without a text layer; `None` disables it.
    pub ocr: Option<OcrEngine>,
    /// The reader for documents `lopdf` cannot parse; `None` reports them as
    /// corrupt.
    pub fallback: Option<PdfToText>,
}

impl Default for PdfLimits {
    /// 50 MB, 2000 pages, 32 MB per decompressed stream, 60 s, and OCR and
    /// poppler's reader when the tools are installed.
    fn default() -> Self {
        PdfLimits {
            max_bytes: 50 * 1024 * 1024,
            max_pages: 2000,
            max_stream_bytes: 32 * 1024 * 1024,
            timeout: Duration::from_secs(60),
            ocr: OcrEngine::detect(),
            fallback: PdfToText::detect(),
        }
    }
}

/// Where a page's text came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PageSource {
    /// The PDF's own text layer.
    TextLayer,
    /// Optical character recognition of the rendered page.
    Ocr,
    /// The page has no text layer (a scan or a picture) and OCR was not run.
    NoTextLayer,
    /// The page could not be read; the reason is for logs and details views.
    Failed(String),
}

/// The text of one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageText {
    /// 1-based page number, as a PDF viewer shows it.
    pub number: u32,
    pub text: String,
    pub source: PageSource,
}

/// The outcome for one attachment, worded for the user by its `Display`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PdfStatus {
    Ok,
    Partial { failed_pages: Vec<u32> },
    Encrypted,
    Corrupt(String),
    Truncated,
    TooLarge { bytes: usize, limit: usize },
    TooManyPages { pages: u32, limit: u32 },
    Timeout,
    NeedsOcr { pages: Vec<u32> },
}

impl fmt::Display for PdfStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdfStatus::Ok => f.write_str("Text extracted from every page."),
            PdfStatus::Partial { failed_pages } => write!(
                f,
                "Could not read {}; the other pages are shown.",
                page_list(failed_pages)
            ),
            PdfStatus::Encrypted => f.write_str(
                "This PDF is password-protected; open it in a PDF viewer to read it.",
            ),
            PdfStatus::Corrupt(reason) => {
                write!(f, "This PDF is damaged and could not be read ({reason}).")
            }
            PdfStatus::Truncated => f.write_str(
                "This PDF is incomplete (the file is cut off); only what could be read is shown.",
            ),
            PdfStatus::TooLarge { bytes, limit } => write!(
                f,
                "This PDF is too large to preview ({} MB; the limit is {} MB).",
                megabytes(*bytes),
                megabytes(*limit)
            ),
            PdfStatus::TooManyPages { pages, limit } => write!(
                f,
                "This PDF has {pages} pages, more than the {limit} that can be previewed."
            ),
            PdfStatus::Timeout => f.write_str(
                "Reading this PDF took too long and was stopped; only the pages read in time are shown.",
            ),
            PdfStatus::NeedsOcr { pages } => {
                let what = if pages.len() == 1 { "is a scanned image" } else { "are scanned images" };
                write!(
                    f,
                    "{} {what} without text. Install tesseract-ocr and poppler-utils \
                     (apt install tesseract-ocr poppler-utils) to read them with OCR.",
                    capitalise(&page_list(pages))
                )
            }
        }
    }
}

impl PdfStatus {
    /// A short stable name for counting statuses (`quoth stats`, JSON output).
    pub fn label(&self) -> &'static str {
        match self {
            PdfStatus::Ok => "ok",
            PdfStatus::Partial { .. } => "partial",
            PdfStatus::Encrypted => "encrypted",
            PdfStatus::Corrupt(_) => "corrupt",
            PdfStatus::Truncated => "truncated",
            PdfStatus::TooLarge { .. } => "too_large",
            PdfStatus::TooManyPages { .. } => "too_many_pages",
            PdfStatus::Timeout => "timeout",
            PdfStatus::NeedsOcr { .. } => "needs_ocr",
        }
    }
}

/// Text of a PDF attachment, page by page, with the attachment's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfExtraction {
    /// Pages in order. After a timeout, pages not reached are absent.
    pub pages: Vec<PageText>,
    /// Pages in the document, 0 when it could not be opened.
    pub page_count: u32,
    pub status: PdfStatus,
}

impl PdfExtraction {
    fn failed(status: PdfStatus) -> Self {
        PdfExtraction {
            pages: Vec::new(),
            page_count: 0,
            status,
        }
    }

    /// All page texts joined by blank lines, for search and quoting.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self.pages.iter().map(|p| p.text.trim_end()).collect();
        texts.join("\n\n")
    }
}

/// Extracts the text of every page of `bytes`, within `limits`.
///
/// Never panics and never blocks longer than `limits.timeout` (plus the time
/// to check the size and header): malformed documents yield a status, not a
/// crash. On timeout the worker thread is told to stop after its current
/// page and its results so far are returned.
pub fn extract_pdf(bytes: &[u8], limits: &PdfLimits) -> PdfExtraction {
    if bytes.len() > limits.max_bytes {
        return PdfExtraction::failed(PdfStatus::TooLarge {
            bytes: bytes.len(),
            limit: limits.max_bytes,
        });
    }
    let head = &bytes[..bytes.len().min(1024)];
    if !contains(head, b"%PDF-") {
        return PdfExtraction::failed(PdfStatus::Corrupt("not a PDF file".into()));
    }
    install_quiet_panic_hook();

    let deadline = Instant::now() + limits.timeout;
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let job = Job {
        bytes: bytes.to_vec(),
        max_pages: limits.max_pages,
        max_stream_bytes: limits.max_stream_bytes,
        ocr: limits.ocr.clone(),
        fallback: limits.fallback.clone(),
        cancel: Arc::clone(&cancel),
        tx,
    };
    let spawned = thread::Builder::new()
        .name("pdf-extract".into())
        .stack_size(WORKER_STACK)
        .spawn(move || job.run());
    if let Err(e) = spawned {
        return PdfExtraction::failed(PdfStatus::Corrupt(format!("could not start: {e}")));
    }

    let mut page_count = 0;
    let mut pages: HashMap<u32, PageText> = HashMap::new();
    let mut fatal = None;
    let mut timed_out = false;
    loop {
        let wait = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            Ok(Event::PageCount(n)) => page_count = n,
            Ok(Event::Page(page)) => {
                pages.insert(page.number, page);
            }
            Ok(Event::Fatal(status)) => fatal = Some(status),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                cancel.store(true, Ordering::Relaxed);
                timed_out = true;
                break;
            }
        }
    }

    let mut pages: Vec<PageText> = pages.into_values().collect();
    pages.sort_by_key(|p| p.number);
    let status = match fatal {
        Some(status) => status,
        None if timed_out => PdfStatus::Timeout,
        None => summarise(bytes, page_count, &pages),
    };
    PdfExtraction {
        pages,
        page_count,
        status,
    }
}

/// Status of a document that opened, from what happened to its pages.
fn summarise(bytes: &[u8], page_count: u32, pages: &[PageText]) -> PdfStatus {
    let failed: Vec<u32> = pages
        .iter()
        .filter(|p| matches!(p.source, PageSource::Failed(_)))
        .map(|p| p.number)
        .collect();
    let missing = (pages.len() as u32) < page_count;
    if (missing || !failed.is_empty()) && looks_truncated(bytes) {
        return PdfStatus::Truncated;
    }
    if missing {
        // The worker died between pages, which only a bug can cause.
        return PdfStatus::Corrupt("extraction stopped early".into());
    }
    if !failed.is_empty() {
        return PdfStatus::Partial {
            failed_pages: failed,
        };
    }
    let image_only: Vec<u32> = pages
        .iter()
        .filter(|p| p.source == PageSource::NoTextLayer)
        .map(|p| p.number)
        .collect();
    if image_only.is_empty() {
        PdfStatus::Ok
    } else {
        PdfStatus::NeedsOcr { pages: image_only }
    }
}

/// A complete PDF ends with `%%EOF`; readers accept it within the last KiB,
/// so a file without one there was most likely cut short in transit.
pub(crate) fn looks_truncated(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(1024)..];
    !contains(tail, b"%%EOF")
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// "page 3" or "pages 1–3, 7": compact for long scans.
fn page_list(pages: &[u32]) -> String {
    let mut ranges: Vec<String> = Vec::new();
    let mut i = 0;
    while i < pages.len() {
        let start = pages[i];
        let mut end = start;
        while i + 1 < pages.len() && pages[i + 1] == end + 1 {
            i += 1;
            end = pages[i];
        }
        ranges.push(if start == end {
            start.to_string()
        } else {
            format!("{start}–{end}")
        });
        i += 1;
    }
    let noun = if pages.len() == 1 { "page" } else { "pages" };
    format!("{noun} {}", ranges.join(", "))
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Binary megabytes, matching how the default limit is written.
fn megabytes(bytes: usize) -> String {
    format!("{:.1}", bytes as f64 / (1024.0 * 1024.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_as_sentences() {
        let partial = PdfStatus::Partial {
            failed_pages: vec![1, 2, 3, 7],
        };
        assert_eq!(
            partial.to_string(),
            "Could not read pages 1–3, 7; the other pages are shown."
        );
        let scan = PdfStatus::NeedsOcr { pages: vec![2] };
        assert!(scan.to_string().starts_with(
            "Page 2 is a scanned image without text. Install tesseract-ocr and poppler-utils"
        ));
        let big = PdfStatus::TooLarge {
            bytes: 80 * 1024 * 1024,
            limit: 50 * 1024 * 1024,
        };
        assert_eq!(
            big.to_string(),
            "This PDF is too large to preview (80.0 MB; the limit is 50.0 MB)."
        );
    }

    #[test]
    fn not_a_pdf_is_refused_before_parsing() {
        let out = extract_pdf(
            b"GIF89a....",
            &PdfLimits {
                ocr: None,
                ..PdfLimits::default()
            },
        );
        assert_eq!(out.status, PdfStatus::Corrupt("not a PDF file".into()));
    }
}
