//! Plain-text views of mail attachments.
//!
//! A terminal mail reader cannot show a PDF or a spreadsheet, but it can show
//! the text inside them, so that a user can read, search and quote an
//! attachment without leaving the reader. Everything here is written for
//! untrusted input: attachments arrive from strangers, so extraction must
//! never crash the reader, never hang it, and always tell the user plainly
//! why text is missing.
//!
//! * [`pdf`] pulls the text layer out of PDFs page by page, under size, page,
//!   time and decompression caps, and reports a per-attachment
//!   [`pdf::PdfStatus`].
//! * [`poppler_text`] reads documents `lopdf` cannot parse (a broken
//!   cross-reference table) with poppler's `pdftotext` when it is installed.
//! * [`ocr`] reads pages that are only pictures (scans) with the external
//!   `pdftoppm` and `tesseract` programs when they are installed.
//! * [`page`] cleans page text and cuts it into chunks the way bodies are cut.
//! * [`sheet`] reads spreadsheets a row at a time, each value named by its header;
//!   [`document`] reads word-processor files a paragraph at a time; [`calendar`]
//!   reads invitations an event at a time. Their parts carry the place a citation
//!   names ([`located`]).
//! * [`text`] handles plain text, CSV and HTML attachments and dispatches by
//!   MIME type and file name.

pub mod calendar;
pub mod document;
pub mod itip;
pub mod located;
pub mod ocr;
pub mod page;
pub mod pdf;
mod pdf_worker;
pub mod poppler_text;
pub mod sheet;
mod stream_guard;
pub mod text;
mod xobject_guard;

pub use calendar::{EventCard, EventVersion};
pub use located::{LocatedPart, LocatedText, OfficeLimits};
pub use ocr::{OcrEngine, OcrError};
pub use pdf::{extract_pdf, PageSource, PageText, PdfExtraction, PdfLimits, PdfStatus};
pub use text::{attachment_text, attachment_text_with, has_text_view, AttachmentText};
