//! `quoth bench pdf`: PDF attachment extraction throughput, as text-layer pages per
//! second on the GeoTopo lecture notes (117 pages of pdflatex output) and OCR pages
//! per second on pages of the same document read as images.

use anyhow::{Context, Result};
use quoth::attach::{extract_pdf, OcrEngine, PageSource, PdfLimits};
use serde_json::json;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

const GEOTOPO: &str = "data/fixtures/pdf-samples/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf";

pub fn run(shared: Option<PathBuf>, runs: usize, ocr_pages: u32, json: bool) -> Result<i32> {
    let shared = shared
        .or_else(|| std::env::var_os("QUOTH_SHARED").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = shared.join(GEOTOPO);
    let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let no_ocr = PdfLimits {
        ocr: None,
        ..PdfLimits::default()
    };
    let mut pages = 0;
    let started = Instant::now();
    for _ in 0..runs {
        pages += extract_pdf(&bytes, &no_ocr)
            .pages
            .iter()
            .filter(|p| p.source == PageSource::TextLayer)
            .count();
    }
    let text_secs = started.elapsed().as_secs_f64();
    let text_rate = pages as f64 / text_secs.max(1e-9);

    // OCR of real pages: the same renderer and recogniser the scanned-page path
    // uses, on body pages of the document (dense mathematical text).
    let ocr = match OcrEngine::detect() {
        None => None,
        Some(engine) => {
            let session = engine.session(&bytes)?;
            let cancel = AtomicBool::new(false);
            let started = Instant::now();
            let mut read = 0;
            for number in 20..20 + ocr_pages {
                if session.read_page(number, &cancel).is_ok() {
                    read += 1;
                }
            }
            let secs = started.elapsed().as_secs_f64();
            Some((read, secs))
        }
    };
    if json {
        crate::cli::output::print_json(&json!({
            "text_layer": {"pages": pages, "seconds": text_secs, "pages_per_second": text_rate},
            "ocr": ocr.map(|(n, s)| json!({"pages": n, "seconds": s, "pages_per_second": n as f64 / s.max(1e-9)})),
        }))?;
        return Ok(0);
    }
    outln!(
        "text layer: GeoTopo, {pages} pages in {text_secs:.2} s = {text_rate:.1} pages/s ({runs} runs)"
    );
    match ocr {
        Some((n, s)) => outln!(
            "OCR: {n} GeoTopo pages rendered at 200 dpi and read in {s:.2} s = {:.2} pages/s ({:.2} s/page)",
            n as f64 / s.max(1e-9),
            s / f64::from(n.max(1))
        ),
        None => outln!("OCR: skipped, install tesseract-ocr and poppler-utils"),
    }
    Ok(0)
}
