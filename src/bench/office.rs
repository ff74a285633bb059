//! `quoth bench office`: spreadsheet and document extraction throughput beside the
//! PDF path's, per kilobyte of text extracted: a generated workbook of 10,000 rows
//! (`.xlsx`), a generated document of as many paragraphs (`.docx`), and the GeoTopo
//! lecture notes (117 PDF pages) when the shared data is there.

use anyhow::{Context, Result};
use quoth::attach::document::{extract_document, DocumentFormat};
use quoth::attach::sheet::extract_sheets;
use quoth::attach::{extract_pdf, OfficeLimits, PdfLimits};
use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

const GEOTOPO: &str = "data/fixtures/pdf-samples/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf";

/// Kilobytes of text extracted per second: the median of `runs` passes.
struct Rate {
    kb: f64,
    seconds: f64,
    units: usize,
}

impl Rate {
    fn per_second(&self) -> f64 {
        self.kb / self.seconds.max(1e-9)
    }
}

fn measure(runs: usize, mut pass: impl FnMut() -> (usize, usize)) -> Rate {
    let mut times = Vec::new();
    let mut last = (0, 0);
    for _ in 0..runs {
        let started = Instant::now();
        last = pass();
        times.push(started.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    Rate {
        kb: last.0 as f64 / 1024.0,
        seconds: times[times.len() / 2],
        units: last.1,
    }
}

pub fn run(rows: usize, shared: Option<PathBuf>, runs: usize, json: bool) -> Result<i32> {
    let office = OfficeLimits::default();
    let book = workbook(rows)?;
    let sheet = measure(runs, || {
        let out = extract_sheets(&book, &office);
        (
            out.parts.iter().map(|p| p.text.len()).sum(),
            out.parts.len(),
        )
    });
    let doc = document(rows)?;
    let document = measure(runs, || {
        let out = extract_document(&doc, DocumentFormat::Docx, &office);
        (
            out.parts.iter().map(|p| p.text.len()).sum(),
            out.parts.len(),
        )
    });
    let shared = shared
        .or_else(|| std::env::var_os("QUOTH_SHARED").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let pdf = match std::fs::read(shared.join(GEOTOPO)) {
        Ok(bytes) => {
            let limits = PdfLimits {
                ocr: None,
                ..PdfLimits::default()
            };
            Some(measure(runs, || {
                let out = extract_pdf(&bytes, &limits);
                (
                    out.pages.iter().map(|p| p.text.len()).sum(),
                    out.pages.len(),
                )
            }))
        }
        Err(_) => None,
    };
    let ratio = pdf
        .as_ref()
        .map(|p| sheet.per_second() / p.per_second().max(1e-9));
    if json {
        let row = |r: &Rate| json!({"kb": r.kb, "seconds": r.seconds, "units": r.units, "kb_per_second": r.per_second()});
        crate::cli::output::print_json(&json!({
            "spreadsheet": row(&sheet),
            "document": row(&document),
            "pdf": pdf.as_ref().map(row),
            "spreadsheet_over_pdf": ratio,
        }))?;
        return Ok(0);
    }
    let line = |what: &str, unit: &str, r: &Rate| {
        outln!(
            "{what}: {} {unit}, {:.0} KB of text in {:.3} s = {:.0} KB/s (median of {runs})",
            r.units,
            r.kb,
            r.seconds,
            r.per_second()
        )
    };
    line("spreadsheet (.xlsx)", "rows", &sheet);
    line("document (.docx)", "paragraphs", &document);
    match &pdf {
        Some(p) => line("PDF (GeoTopo)", "pages", p),
        None => outln!(
            "PDF: skipped, the shared data is not at {}",
            shared.display()
        ),
    }
    if let Some(r) = ratio {
        outln!("spreadsheet / PDF, per KB of text: {r:.2}x");
    }
    Ok(0)
}

/// A workbook of one sheet: a title merged over the columns, a header and `rows`
/// rows of text, numbers and dates, written as SpreadsheetML with inline strings.
fn workbook(rows: usize) -> Result<Vec<u8>> {
    let mut sheet = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>",
    );
    let text = |r: usize, c: &str, v: &str| {
        format!("<c r=\"{c}{r}\" t=\"inlineStr\"><is><t>{v}</t></is></c>")
    };
    sheet.push_str(&format!("<row r=\"1\">{}</row>", text(1, "A", "Shipments")));
    sheet.push_str(&format!(
        "<row r=\"2\">{}{}{}{}</row>",
        text(2, "A", "Order"),
        text(2, "B", "Customer"),
        text(2, "C", "Weight kg"),
        text(2, "D", "Shipped")
    ));
    for i in 0..rows {
        let r = i + 3;
        sheet.push_str(&format!(
            "<row r=\"{r}\">{}{}<c r=\"C{r}\"><v>{}</v></c><c r=\"D{r}\"><v>{}</v></c></row>",
            text(r, "A", &format!("SO-{:05}", i + 1)),
            text(
                r,
                "B",
                &format!("Customer {} of the northern region", i % 97)
            ),
            (i * 37) % 1000,
            45_000 + (i % 365),
        ));
    }
    sheet.push_str(
        "</sheetData><mergeCells count=\"1\"><mergeCell ref=\"A1:D1\"/></mergeCells></worksheet>",
    );
    zipped(&[
        ("[Content_Types].xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/><Default Extension=\"xml\" ContentType=\"application/xml\"/><Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/><Override PartName=\"/xl/worksheets/sheet1.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/></Types>"),
        ("_rels/.rels", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"),
        ("xl/workbook.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><sheets><sheet name=\"Orders\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"),
        ("xl/_rels/workbook.xml.rels", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"worksheets/sheet1.xml\"/></Relationships>"),
        ("xl/worksheets/sheet1.xml", &sheet),
    ])
}

/// A document of `paragraphs` paragraphs of two runs each.
fn document(paragraphs: usize) -> Result<Vec<u8>> {
    let mut body = String::new();
    for i in 0..paragraphs {
        body.push_str(&format!(
            "<w:p><w:r><w:t xml:space=\"preserve\">Order SO-{:05} for customer {} </w:t></w:r><w:r><w:t>weighs {} kg and ships from the northern depot.</w:t></w:r></w:p>",
            i + 1,
            i % 97,
            (i * 37) % 1000
        ));
    }
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>{body}</w:body></w:document>"
    );
    zipped(&[("word/document.xml", &xml)])
}

fn zipped(members: &[(&str, &str)]) -> Result<Vec<u8>> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, text) in members {
        zip.start_file(*name, options).context("zip member")?;
        zip.write_all(text.as_bytes()).context("zip write")?;
    }
    Ok(zip.finish().context("zip finish")?.into_inner())
}
