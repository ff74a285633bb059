//! The extraction thread behind [`crate::attach::pdf::extract_pdf`].
//!
//! Everything that touches `pdf-extract` runs here, on a thread of its own,
//! so that the caller can stop waiting at its deadline and so that panics
//! (which `pdf-extract` raises on many malformed inputs) are caught page by
//! page and kept off the terminal.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Once};

use lopdf::Document;
use pdf_extract::{MediaBox, OutputDev, OutputError, PlainTextOutput, Transform};

use crate::attach::ocr::OcrEngine;
use crate::attach::pdf::{looks_truncated, PageSource, PageText, PdfStatus};
use crate::attach::poppler_text::PdfToText;
use crate::attach::stream_guard::{defuse_streams, page_was_defused};
use crate::attach::xobject_guard::FormLoopGuard;

/// Deeply nested but legitimate drawings recurse in `pdf-extract`; a roomy
/// stack keeps them from overflowing. The memory is only reserved, not used.
pub(crate) const WORKER_STACK: usize = 64 * 1024 * 1024;

/// What the worker reports, in order: the page count, then pages (a page
/// may be sent again when OCR replaces it), or one fatal status.
pub(crate) enum Event {
    PageCount(u32),
    Page(PageText),
    Fatal(PdfStatus),
}

/// One attachment to extract; the bytes are copied so the thread owns them.
pub(crate) struct Job {
    pub(crate) bytes: Vec<u8>,
    pub(crate) max_pages: u32,
    pub(crate) max_stream_bytes: u64,
    pub(crate) ocr: Option<OcrEngine>,
    pub(crate) fallback: Option<PdfToText>,
    pub(crate) cancel: Arc<AtomicBool>,
    pub(crate) tx: Sender<Event>,
}

impl Job {
    pub(crate) fn run(self) {
        QUIET_PANICS.with(|q| q.set(true));
        // Sends fail only once the caller has given up; there is nobody
        // left to tell, so those results are dropped.
        let _ = catch_quiet(|| self.extract());
    }

    fn extract(&self) {
        let mut doc = match catch_quiet(|| Document::load_mem(&self.bytes)) {
            Ok(Ok(doc)) => doc,
            Ok(Err(e)) => return self.fatal_or_fallback(load_failure(&self.bytes, e.to_string())),
            Err(panic) => return self.fatal_or_fallback(load_failure(&self.bytes, panic)),
        };
        // lopdf already tried the empty user password while loading, which
        // opens documents that only restrict printing or copying; a document
        // still encrypted now needs a password we do not have.
        if doc.is_encrypted() {
            return self.fatal(PdfStatus::Encrypted);
        }
        let page_ids = doc.get_pages();
        if !self.announce(page_ids.len()) {
            return;
        }
        let oversized = match catch_quiet(|| defuse_streams(&mut doc, self.max_stream_bytes)) {
            Ok(ids) => ids,
            Err(panic) => return self.fatal(load_failure(&self.bytes, panic)),
        };

        let mut guard = FormLoopGuard::new(&doc);
        // Pages without a text layer, and pages pdf-extract cannot read
        // (often an unusual font), are worth a try with OCR.
        let mut for_ocr = Vec::new();
        for (&number, &page_id) in &page_ids {
            if self.cancel.load(Ordering::Relaxed) {
                return;
            }
            if page_was_defused(&doc, page_id, &oversized) {
                // Rendering the page for OCR would inflate the same stream.
                let page = PageText {
                    number,
                    text: String::new(),
                    source: PageSource::Failed(format!(
                        "its drawing instructions decompress to more than {} MB",
                        self.max_stream_bytes >> 20
                    )),
                };
                if self.tx.send(Event::Page(page)).is_err() {
                    return;
                }
                continue;
            }
            let source_text = if guard.page_has_loop(page_id) {
                Err("drawing objects on this page refer to each other in a loop".to_string())
            } else {
                catch_quiet(|| page_text(&doc, number)).and_then(|r| r)
            };
            let page = page_from(number, source_text, &mut for_ocr);
            if self.tx.send(Event::Page(page)).is_err() {
                return;
            }
        }
        if let Some(engine) = &self.ocr {
            if !for_ocr.is_empty() {
                self.ocr_pages(engine, &for_ocr);
            }
        }
    }

    /// Sends the page count, or the fatal status when there are too many pages;
    /// false when extraction stops here.
    fn announce(&self, pages: usize) -> bool {
        let count = u32::try_from(pages).unwrap_or(u32::MAX);
        if count > self.max_pages {
            self.fatal(PdfStatus::TooManyPages {
                pages: count,
                limit: self.max_pages,
            });
            return false;
        }
        let _ = self.tx.send(Event::PageCount(count));
        true
    }

    /// A document `lopdf` cannot load as corrupt may still be readable by
    /// poppler, which rebuilds a broken cross-reference table.
    fn fatal_or_fallback(&self, status: PdfStatus) {
        let (PdfStatus::Corrupt(_), Some(reader)) = (&status, &self.fallback) else {
            return self.fatal(status);
        };
        let texts = match reader.pages(&self.bytes, &self.cancel) {
            Ok(texts) if !texts.is_empty() => texts,
            _ => return self.fatal(status),
        };
        if !self.announce(texts.len()) {
            return;
        }
        let mut for_ocr = Vec::new();
        for (number, text) in (1..).zip(texts) {
            let page = page_from(number, Ok(text), &mut for_ocr);
            if self.tx.send(Event::Page(page)).is_err() {
                return;
            }
        }
        if let Some(engine) = &self.ocr {
            if !for_ocr.is_empty() {
                self.ocr_pages(engine, &for_ocr);
            }
        }
    }

    /// Replaces the given pages by their OCR reading, in order, so that a
    /// timeout keeps every page recognised so far. A page OCR cannot read
    /// becomes `Failed`, since the user cannot act on it by installing tools.
    /// Each page comes with the reason its text layer failed, if it did.
    fn ocr_pages(&self, engine: &OcrEngine, pages: &[(u32, Option<String>)]) {
        let session = engine.session(&self.bytes);
        for (number, earlier) in pages {
            let number = *number;
            if self.cancel.load(Ordering::Relaxed) {
                return;
            }
            let result = match &session {
                Ok(session) => session
                    .read_page(number, &self.cancel)
                    .map_err(|e| format!("OCR failed: {e}")),
                Err(e) => Err(format!("OCR could not start: {e}")),
            };
            let page = match result {
                Ok(text) => PageText {
                    number,
                    text: tidy(&text),
                    source: PageSource::Ocr,
                },
                Err(reason) => {
                    let reason = match earlier {
                        Some(earlier) => format!("{earlier}; {reason}"),
                        None => reason,
                    };
                    PageText {
                        number,
                        text: String::new(),
                        source: PageSource::Failed(reason),
                    }
                }
            };
            if self.tx.send(Event::Page(page)).is_err() {
                return;
            }
        }
    }

    fn fatal(&self, status: PdfStatus) {
        let _ = self.tx.send(Event::Fatal(status));
    }
}

fn page_text(doc: &Document, number: u32) -> Result<String, String> {
    let mut text = String::new();
    let mut output = VisibleText {
        inner: PlainTextOutput::new(&mut text),
        page: None,
    };
    pdf_extract::output_doc_page(doc, &mut output, number).map_err(|e| e.to_string())?;
    Ok(text)
}

/// `pdf-extract`'s plain-text output, minus characters placed outside the
/// page. Such text is invisible in every viewer (`pdftotext` drops it too),
/// and some producers put it there: ImageMagick writes a stray
/// "Background" above each image-only page, which would otherwise hide
/// that the page needs OCR.
struct VisibleText<'s> {
    inner: PlainTextOutput<&'s mut String>,
    page: Option<MediaBox>,
}

impl OutputDev for VisibleText<'_> {
    fn begin_page(
        &mut self,
        number: u32,
        media: &MediaBox,
        art: Option<(f64, f64, f64, f64)>,
    ) -> Result<(), OutputError> {
        self.page = Some(*media);
        self.inner.begin_page(number, media, art)
    }
    fn end_page(&mut self) -> Result<(), OutputError> {
        self.inner.end_page()
    }
    fn output_character(
        &mut self,
        trm: &Transform,
        width: f64,
        spacing: f64,
        size: f64,
        c: &str,
    ) -> Result<(), OutputError> {
        // The glyph origin (baseline start) in page space; a small margin
        // keeps glyphs that merely touch the edge.
        let (x, y) = (trm.m31, trm.m32);
        let margin = 2.0;
        let visible = self.page.is_none_or(|b| {
            let (x0, x1) = (b.llx.min(b.urx) - margin, b.llx.max(b.urx) + margin);
            let (y0, y1) = (b.lly.min(b.ury) - margin, b.lly.max(b.ury) + margin);
            (x0..=x1).contains(&x) && (y0..=y1).contains(&y)
        });
        if visible {
            self.inner.output_character(trm, width, spacing, size, c)?;
        }
        Ok(())
    }
    fn begin_word(&mut self) -> Result<(), OutputError> {
        self.inner.begin_word()
    }
    fn end_word(&mut self) -> Result<(), OutputError> {
        self.inner.end_word()
    }
    fn end_line(&mut self) -> Result<(), OutputError> {
        self.inner.end_line()
    }
}

/// Trims blank lines around the page and spells out typographic ligatures
/// (LaTeX documents are full of "ﬁ" and "ﬂ"), so that searching for "flow"
/// finds "ﬂow".
fn tidy(text: &str) -> String {
    let text = text.trim_start_matches(['\n', '\r']).trim_end();
    if !text.contains(|c| ('\u{FB00}'..='\u{FB06}').contains(&c)) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\u{FB00}' => out.push_str("ff"),
            '\u{FB01}' => out.push_str("fi"),
            '\u{FB02}' => out.push_str("fl"),
            '\u{FB03}' => out.push_str("ffi"),
            '\u{FB04}' => out.push_str("ffl"),
            '\u{FB05}' | '\u{FB06}' => out.push_str("st"),
            c => out.push(c),
        }
    }
    out
}

fn load_failure(bytes: &[u8], reason: String) -> PdfStatus {
    if looks_truncated(bytes) {
        PdfStatus::Truncated
    } else {
        PdfStatus::Corrupt(reason)
    }
}

thread_local! {
    static QUIET_PANICS: Cell<bool> = const { Cell::new(false) };
}

static QUIET_HOOK: Once = Once::new();

/// Wraps the current panic hook so that panics on extraction threads print
/// nothing: a message written to stderr would land in the middle of the
/// terminal UI. Panics elsewhere still reach the previous hook. A hook set
/// later by the application replaces this one unless it chains to it.
pub fn install_quiet_panic_hook() {
    QUIET_HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET_PANICS.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// Runs `f`, turning a panic into its message.
fn catch_quiet<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown error".into());
        format!("internal error: {message}")
    })
}

/// A page from its text layer (or why it could not be read); pages without text
/// are noted in `for_ocr`, with the reason when reading failed.
fn page_from(
    number: u32,
    text: Result<String, String>,
    for_ocr: &mut Vec<(u32, Option<String>)>,
) -> PageText {
    match text {
        Ok(text) if text.trim().is_empty() => {
            for_ocr.push((number, None));
            PageText {
                number,
                text: String::new(),
                source: PageSource::NoTextLayer,
            }
        }
        Ok(text) => PageText {
            number,
            text: tidy(&text),
            source: PageSource::TextLayer,
        },
        Err(reason) => {
            for_ocr.push((number, Some(reason.clone())));
            PageText {
                number,
                text: String::new(),
                source: PageSource::Failed(reason),
            }
        }
    }
}
