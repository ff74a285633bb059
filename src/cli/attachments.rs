//! Attachment work and output shared by `quoth ingest`, `quoth embed`, `quoth show`,
//! `quoth status` and the demo.

use super::output::safe_line;
use anyhow::Result;
use quoth::attach::{OcrEngine, PdfLimits};
use quoth::engine::{AttachReport, AttachmentState, Engine};
use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;

/// Runs the pending attachment jobs with a progress line (text mode). Pages without
/// a text layer are read by OCR when tesseract and pdftoppm are installed.
pub fn extract(engine: &mut Engine, json: bool) -> Result<AttachReport> {
    let live = std::io::stderr().is_terminal() && !json;
    let stop = AtomicBool::new(false);
    let report = engine.extract_attachments(&PdfLimits::default(), &stop, &mut |r| {
        if live {
            let left = r.counts.pending + r.counts.running;
            eprint!(
                "\rattachments: {} read ({} pages, {} by OCR), {left} left   ",
                r.extracted, r.pages, r.ocr_pages
            );
        }
    })?;
    if live && report.extracted + report.already_extracted + report.failed > 0 {
        eprintln!();
    }
    if !json && report.extracted > 0 {
        outln!(
            "read {} attachments ({} pages, {} by OCR) into {} chunks in {:.1} s",
            report.extracted,
            report.pages,
            report.ocr_pages,
            report.chunks,
            report.seconds
        );
        if report.ocr_pages == 0 && OcrEngine::detect().is_none() {
            outln!(
                "note: scanned pages are read only with OCR: apt install tesseract-ocr poppler-utils"
            );
        }
    }
    Ok(report)
}

/// `Attachment:` lines for `quoth show`, each with its status sentence.
pub fn print_states(states: &[AttachmentState]) {
    for a in states {
        outln!(
            "Attachment: {} ({}, {} bytes) [{}]",
            safe_line(&a.name),
            safe_line(&a.mime_type),
            a.size,
            a.status
        );
        if a.status != "no_text_view" {
            outln!("            {}", safe_line(&a.message));
        }
    }
}
