//! A second reader for PDFs that `lopdf` cannot parse.
//!
//! `lopdf` gives up on a document whose cross-reference table is broken,
//! while poppler rebuilds the table by scanning the file, as most PDF
//! viewers do. When `pdftotext` (Debian's poppler-utils, also used for OCR)
//! is installed, such a document's text layer is read with it instead of
//! being reported as corrupt. `pdftotext` ends every page with a form feed,
//! which gives the page numbers.

use std::fs;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;
use std::time::Duration;

use crate::attach::ocr::{find_on_path, run_tool, OcrError, TempDir};

/// The `pdftotext` program, found on `PATH`.
#[derive(Debug, Clone)]
pub struct PdfToText {
    program: PathBuf,
    /// Limit for the whole document.
    pub timeout: Duration,
}

impl PdfToText {
    /// Finds `pdftotext` on `PATH`, once per process.
    pub fn detect() -> Option<PdfToText> {
        static DETECTED: OnceLock<Option<PdfToText>> = OnceLock::new();
        DETECTED
            .get_or_init(|| find_on_path("pdftotext").map(PdfToText::with_program))
            .clone()
    }

    pub fn with_program(program: PathBuf) -> PdfToText {
        PdfToText {
            program,
            timeout: Duration::from_secs(30),
        }
    }

    /// The text of each page, in order (an empty string for a page without
    /// a text layer). Setting `cancel` stops the program.
    pub fn pages(&self, pdf: &[u8], cancel: &AtomicBool) -> Result<Vec<String>, OcrError> {
        let dir = TempDir::new()?;
        let path = dir.path().join("attachment.pdf");
        fs::write(&path, pdf)?;
        let mut cmd = Command::new(&self.program);
        cmd.args(["-enc", "UTF-8", "-q"]).arg(&path).arg("-");
        let text = run_tool(dir.path(), "pdftotext", cmd, cancel, self.timeout)?;
        Ok(split_pages(&text))
    }
}

/// Splits `pdftotext` output on the form feed that ends each page.
fn split_pages(text: &str) -> Vec<String> {
    let mut pages: Vec<String> = text.split('\u{c}').map(str::to_string).collect();
    // The text after the last page's form feed is empty (or a stray newline).
    if pages.len() > 1 && pages.last().is_some_and(|p| p.trim().is_empty()) {
        pages.pop();
    }
    pages
}

#[cfg(test)]
mod tests {
    use super::split_pages;

    #[test]
    fn pages_end_with_form_feeds() {
        assert_eq!(
            split_pages("one\n\u{c}\u{c}three\n\u{c}"),
            vec!["one\n", "", "three\n"]
        );
        assert_eq!(split_pages("only\n"), vec!["only\n"]);
    }
}
