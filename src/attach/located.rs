//! Text that lives in named places rather than on pages: a spreadsheet's rows, a
//! document's paragraphs, an invitation's events. Each part is stored and cited on
//! its own, under the place a user would look for it ("Budget, row 14",
//! "paragraph 3", "event").

use crate::attach::pdf::PdfStatus;
use std::io::{Cursor, Read};
use std::time::{Duration, Instant};

/// One part of a file and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedPart {
    /// Where the part is, as a citation names it: "Sheet1, row 14".
    pub place: String,
    pub text: String,
}

/// The parts of one file, in order, with how the reading went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedText {
    pub parts: Vec<LocatedPart>,
    /// Units in the file (sheets, paragraphs or events), 0 when it could not be opened.
    pub units: u32,
    pub status: PdfStatus,
}

impl LocatedText {
    pub(crate) fn failed(status: PdfStatus) -> Self {
        LocatedText {
            parts: Vec::new(),
            units: 0,
            status,
        }
    }

    /// Every part's text, one after another, for display and search.
    pub fn text(&self) -> String {
        let texts: Vec<&str> = self.parts.iter().map(|p| p.text.as_str()).collect();
        texts.join("\n\n")
    }
}

/// Caps for office files and invitations, beside those of PDFs.
#[derive(Debug, Clone)]
pub struct OfficeLimits {
    /// Larger files are refused before they are opened.
    pub max_bytes: usize,
    /// The most a zipped file (`.xlsx`, `.ods`, `.docx`, `.odt`) may hold once
    /// unpacked, by its own directory: a decompression bomb is refused unread.
    pub max_unpacked: u64,
    /// The most parts kept (rows, paragraphs, events); the rest is reported.
    pub max_parts: usize,
    /// Wall-clock budget for one file.
    pub timeout: Duration,
}

impl Default for OfficeLimits {
    /// 50 MB, 400 MB unpacked, 200,000 parts, 60 s.
    fn default() -> Self {
        OfficeLimits {
            max_bytes: 50 * 1024 * 1024,
            max_unpacked: 400 * 1024 * 1024,
            max_parts: 200_000,
            timeout: Duration::from_secs(60),
        }
    }
}

/// A deadline checked between units of work.
pub(crate) struct Deadline(Instant);

impl Deadline {
    pub(crate) fn after(budget: Duration) -> Self {
        Deadline(Instant::now() + budget)
    }

    pub(crate) fn passed(&self) -> bool {
        Instant::now() >= self.0
    }
}

/// Checks a zipped file before it is read: its size, and what its directory says
/// it unpacks to. Err carries the status to report.
pub(crate) fn check_zip(bytes: &[u8], limits: &OfficeLimits) -> Result<(), PdfStatus> {
    if bytes.len() > limits.max_bytes {
        return Err(PdfStatus::TooLarge {
            bytes: bytes.len(),
            limit: limits.max_bytes,
        });
    }
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| PdfStatus::Corrupt(format!("not a readable zip archive: {e}")))?;
    let mut unpacked: u64 = 0;
    for i in 0..archive.len() {
        let entry = archive
            .by_index_raw(i)
            .map_err(|e| PdfStatus::Corrupt(format!("damaged zip entry: {e}")))?;
        unpacked = unpacked.saturating_add(entry.size());
    }
    if unpacked > limits.max_unpacked {
        return Err(PdfStatus::Corrupt(format!(
            "it unpacks to {} MB, more than the {} MB allowed",
            unpacked / (1024 * 1024),
            limits.max_unpacked / (1024 * 1024)
        )));
    }
    Ok(())
}

/// One member of a zipped file, read whole but never past `cap` bytes.
pub(crate) fn zip_member(bytes: &[u8], name: &str, cap: u64) -> Result<Vec<u8>, PdfStatus> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| PdfStatus::Corrupt(format!("not a readable zip archive: {e}")))?;
    let entry = archive
        .by_name(name)
        .map_err(|_| PdfStatus::Corrupt(format!("it has no {name}")))?;
    let mut out = Vec::new();
    entry
        .take(cap)
        .read_to_end(&mut out)
        .map_err(|e| PdfStatus::Corrupt(format!("{name} could not be unpacked: {e}")))?;
    Ok(out)
}
