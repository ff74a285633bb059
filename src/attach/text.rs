//! Text of non-PDF attachments, and dispatch by MIME type and file name.
//!
//! Mail clients label attachments inconsistently: a PDF may arrive as
//! `application/octet-stream` with a `.pdf` name, a CSV as `text/plain`.
//! The declared type is trusted first and the file extension decides when
//! the type is generic.

use std::borrow::Cow;

use crate::attach::calendar::{extract_calendar, CalendarText};
use crate::attach::document::{extract_document, DocumentFormat};
use crate::attach::located::{LocatedText, OfficeLimits};
use crate::attach::pdf::{extract_pdf, PdfExtraction, PdfLimits};
use crate::attach::sheet::extract_sheets;
use crate::mail::html::html_to_text;

/// The readable text of one attachment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachmentText {
    /// Plain text; `lossy` is set when invalid bytes were replaced.
    Plain {
        text: String,
        lossy: bool,
    },
    /// A table with one row per line and cells joined by `" | "`.
    Csv {
        text: String,
        rows: usize,
        lossy: bool,
    },
    /// HTML with tags removed.
    Html {
        text: String,
        lossy: bool,
    },
    Pdf(PdfExtraction),
    /// A spreadsheet, a row a part.
    Spreadsheet(LocatedText),
    /// A word-processor document, a paragraph a part.
    Document(LocatedText),
    /// An invitation, an event a part.
    Calendar(CalendarText),
}

impl AttachmentText {
    /// The text to display or search, whatever the kind.
    pub fn text(&self) -> Cow<'_, str> {
        match self {
            AttachmentText::Plain { text, .. }
            | AttachmentText::Csv { text, .. }
            | AttachmentText::Html { text, .. } => Cow::Borrowed(text),
            AttachmentText::Pdf(pdf) => Cow::Owned(pdf.text()),
            AttachmentText::Spreadsheet(t) | AttachmentText::Document(t) => Cow::Owned(t.text()),
            AttachmentText::Calendar(c) => Cow::Owned(c.text.text()),
        }
    }
}

/// Extracts text with default PDF limits (and OCR when installed). Returns
/// `None` for kinds that have no text view, such as images or archives.
pub fn attachment_text(mime: &str, name: &str, bytes: &[u8]) -> Option<AttachmentText> {
    attachment_text_with(mime, name, bytes, &PdfLimits::default())
}

/// As [`attachment_text`], with explicit limits for PDFs.
pub fn attachment_text_with(
    mime: &str,
    name: &str,
    bytes: &[u8],
    limits: &PdfLimits,
) -> Option<AttachmentText> {
    let (kind, charset) = classify(mime, name, bytes)?;
    let office = OfficeLimits {
        max_bytes: limits.max_bytes,
        timeout: limits.timeout,
        ..OfficeLimits::default()
    };
    Some(match kind {
        Kind::Pdf => AttachmentText::Pdf(extract_pdf(bytes, limits)),
        Kind::Spreadsheet => AttachmentText::Spreadsheet(extract_sheets(bytes, &office)),
        Kind::Document(format) => {
            AttachmentText::Document(extract_document(bytes, format, &office))
        }
        Kind::Calendar => AttachmentText::Calendar(extract_calendar(bytes, &office)),
        Kind::Plain => {
            let (text, lossy) = decode(bytes, charset.as_deref());
            AttachmentText::Plain {
                text: text.into_owned(),
                lossy,
            }
        }
        Kind::Csv => {
            let (text, lossy) = decode(bytes, charset.as_deref());
            let (text, rows) = csv_to_text(&text);
            AttachmentText::Csv { text, rows, lossy }
        }
        Kind::Html => {
            let (text, lossy) = decode(bytes, charset.as_deref());
            AttachmentText::Html {
                text: html_to_text(&text),
                lossy,
            }
        }
    })
}

/// Whether an attachment has a text view at all: decided from its type, name and
/// first bytes, without reading it, so that only such attachments get work queued.
pub fn has_text_view(mime: &str, name: &str, bytes: &[u8]) -> bool {
    classify(mime, name, bytes).is_some()
}

fn classify(mime: &str, name: &str, bytes: &[u8]) -> Option<(Kind, Option<String>)> {
    let (essence, charset) = parse_mime(mime);
    let generic = matches!(
        essence.as_str(),
        "" | "application/octet-stream"
            | "binary/octet-stream"
            | "application/x-download"
            | "application/force-download"
            | "application/unknown"
    );
    let ext = extension(name);
    let kind = match essence.as_str() {
        "application/pdf" | "application/x-pdf" | "application/acrobat" => Kind::Pdf,
        "text/calendar" | "application/ics" | "text/x-vcalendar" => Kind::Calendar,
        e if office_kind(e).is_some() => office_kind(e)?,
        // Zipped office files often travel as zip archives.
        "application/zip" | "application/x-zip-compressed" if office_ext(&ext).is_some() => {
            office_ext(&ext)?
        }
        "text/csv" | "application/csv" | "text/comma-separated-values" => Kind::Csv,
        "text/html" | "application/xhtml+xml" => Kind::Html,
        // Some mailers call every text file text/plain; trust a .csv name.
        "text/plain" if ext == "csv" => Kind::Csv,
        "text/plain" if ext == "ics" => Kind::Calendar,
        e if e.starts_with("text/") => Kind::Plain,
        _ if generic => match ext.as_str() {
            "pdf" => Kind::Pdf,
            "csv" => Kind::Csv,
            "htm" | "html" => Kind::Html,
            "txt" | "text" | "log" | "md" => Kind::Plain,
            "ics" | "ical" | "ifb" => Kind::Calendar,
            e if office_ext(e).is_some() => office_ext(e)?,
            _ if bytes.starts_with(b"%PDF-") => Kind::Pdf,
            _ => return None,
        },
        _ => return None,
    };
    Some((kind, charset))
}

enum Kind {
    Pdf,
    Plain,
    Csv,
    Html,
    Spreadsheet,
    Document(DocumentFormat),
    Calendar,
}

/// Office files by their registered MIME type.
fn office_kind(essence: &str) -> Option<Kind> {
    Some(match essence {
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        | "application/vnd.ms-excel.sheet.macroenabled.12"
        | "application/vnd.ms-excel"
        | "application/vnd.oasis.opendocument.spreadsheet" => Kind::Spreadsheet,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => {
            Kind::Document(DocumentFormat::Docx)
        }
        "application/vnd.oasis.opendocument.text" => Kind::Document(DocumentFormat::Odt),
        _ => return None,
    })
}

/// Office files by their file name's extension.
fn office_ext(ext: &str) -> Option<Kind> {
    Some(match ext {
        "xlsx" | "xlsm" | "xls" | "ods" => Kind::Spreadsheet,
        "docx" => Kind::Document(DocumentFormat::Docx),
        "odt" => Kind::Document(DocumentFormat::Odt),
        _ => return None,
    })
}

/// Lower-cased type and subtype, and the charset parameter if any.
fn parse_mime(mime: &str) -> (String, Option<String>) {
    let mut parts = mime.split(';');
    let essence = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    let charset = parts.find_map(|p| {
        let (key, value) = p.split_once('=')?;
        key.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches('"').to_ascii_lowercase())
    });
    (essence, charset)
}

fn extension(name: &str) -> String {
    name.trim()
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default()
}

/// Decodes UTF-8, and Latin-1 when declared (the one legacy charset that
/// needs no table). Anything else is read as UTF-8 with invalid bytes
/// replaced, and flagged as lossy.
fn decode<'b>(bytes: &'b [u8], charset: Option<&str>) -> (Cow<'b, str>, bool) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(text), false);
    }
    if matches!(
        charset,
        Some("iso-8859-1" | "latin1" | "latin-1" | "iso8859-1")
    ) {
        return (
            Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
            false,
        );
    }
    (String::from_utf8_lossy(bytes), true)
}

/// Renders CSV (RFC 4180: quoted fields, doubled quotes, line breaks inside
/// quotes) as one line per row. Line breaks inside a cell become spaces so
/// that rows stay on one line.
fn csv_to_text(input: &str) -> (String, usize) {
    let mut out = String::new();
    let mut rows = 0;
    let mut row: Vec<String> = Vec::new();
    let mut cell = String::new();
    let mut quoted = false;
    let mut chars = input.chars().peekable();
    let mut flush_row = |row: &mut Vec<String>, out: &mut String| {
        if row.len() == 1 && row[0].is_empty() {
            row.clear();
            return; // blank line
        }
        out.push_str(row.join(" | ").trim_end());
        out.push('\n');
        rows += 1;
        row.clear();
    };
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            ('"', true) => quoted = false,
            ('"', false) if cell.trim().is_empty() => {
                cell.clear();
                quoted = true;
            }
            ('\r' | '\n', true) => cell.push(' '),
            (',', false) => row.push(std::mem::take(&mut cell).trim().to_string()),
            ('\r', false) => {}
            ('\n', false) => {
                row.push(std::mem::take(&mut cell).trim().to_string());
                flush_row(&mut row, &mut out);
            }
            (c, _) => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell.trim().to_string());
        flush_row(&mut row, &mut out);
    }
    (out, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_and_quotes() {
        let (text, rows) =
            csv_to_text("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",3\n\n\"multi\nline\",2,\n");
        assert_eq!(text, "a | b | c\nx, y | say \"hi\" | 3\nmulti line | 2 |\n");
        assert_eq!(rows, 3);
    }

    #[test]
    fn dispatch_by_type_and_name() {
        let limits = PdfLimits {
            ocr: None,
            ..PdfLimits::default()
        };
        let csv = attachment_text_with("application/octet-stream", "r.CSV", b"a,b\n", &limits);
        assert!(matches!(csv, Some(AttachmentText::Csv { rows: 1, .. })));
        let pdf = attachment_text_with("application/octet-stream", "x.pdf", b"junk", &limits);
        assert!(matches!(pdf, Some(AttachmentText::Pdf(_))));
        assert!(attachment_text_with("image/png", "x.png", b"\x89PNG", &limits).is_none());
        let latin = attachment_text_with("text/plain; charset=ISO-8859-1", "", b"caf\xe9", &limits);
        assert_eq!(
            latin.map(|t| t.text().into_owned()).as_deref(),
            Some("café")
        );
    }
}
