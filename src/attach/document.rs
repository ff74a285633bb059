//! Word-processor files (`.docx`, `.odt`) as their paragraphs in order, each one a
//! part cited as "paragraph N" (counting the paragraphs that hold text). Both
//! formats are zipped XML: a `.docx` keeps its text in `word/document.xml`
//! (`w:p` paragraphs of `w:t` runs), an `.odt` in `content.xml` (`text:p` and
//! `text:h` with text nodes, `text:s` for runs of spaces).

use crate::attach::located::{
    check_zip, zip_member, Deadline, LocatedPart, LocatedText, OfficeLimits,
};
use crate::attach::pdf::PdfStatus;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

/// Which word-processor format a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentFormat {
    Docx,
    Odt,
}

impl DocumentFormat {
    fn member(self) -> &'static str {
        match self {
            DocumentFormat::Docx => "word/document.xml",
            DocumentFormat::Odt => "content.xml",
        }
    }
}

/// Reads a document's paragraphs.
pub fn extract_document(
    bytes: &[u8],
    format: DocumentFormat,
    limits: &OfficeLimits,
) -> LocatedText {
    if let Err(status) = check_zip(bytes, limits) {
        return LocatedText::failed(status);
    }
    let xml = match zip_member(bytes, format.member(), limits.max_unpacked) {
        Ok(xml) => xml,
        Err(status) => return LocatedText::failed(status),
    };
    let deadline = Deadline::after(limits.timeout);
    let mut out = LocatedText {
        parts: Vec::new(),
        units: 0,
        status: PdfStatus::Ok,
    };
    let result = paragraphs(&xml, format, &mut |text| {
        out.units += 1;
        if out.parts.len() >= limits.max_parts {
            out.status = PdfStatus::TooManyPages {
                pages: out.units,
                limit: limits.max_parts as u32,
            };
            return false;
        }
        out.parts.push(LocatedPart {
            place: format!("paragraph {}", out.units),
            text,
        });
        if deadline.passed() {
            out.status = PdfStatus::Timeout;
            return false;
        }
        true
    });
    if let Err(reason) = result {
        out.status = if out.parts.is_empty() {
            PdfStatus::Corrupt(reason)
        } else {
            PdfStatus::Truncated
        };
    }
    out
}

/// Calls `emit` with each paragraph's text (whitespace collapsed, empty ones
/// skipped) until it returns false. Err: the XML is damaged.
fn paragraphs(
    xml: &[u8],
    format: DocumentFormat,
    emit: &mut dyn FnMut(String) -> bool,
) -> Result<(), String> {
    let mut reader = Reader::from_reader(xml);
    let mut buf = Vec::new();
    // Paragraphs nest (a text box inside a paragraph): one buffer per open one.
    let mut open: Vec<String> = Vec::new();
    let mut in_text_run = false;
    loop {
        let event = reader
            .read_event_into(&mut buf)
            .map_err(|e| format!("damaged XML at byte {}: {e}", reader.buffer_position()))?;
        match event {
            Event::Start(e) => {
                if is_paragraph(&e, format) {
                    open.push(String::new());
                } else if format == DocumentFormat::Docx && e.local_name().as_ref() == "t" {
                    in_text_run = true;
                }
            }
            Event::Empty(e) => {
                if let Some(text) = open.last_mut() {
                    text.push_str(&spacing(&e, format));
                }
            }
            Event::Text(t) => {
                let keep = match format {
                    DocumentFormat::Docx => in_text_run,
                    DocumentFormat::Odt => true,
                };
                if let (true, Some(text)) = (keep, open.last_mut()) {
                    text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                if let Some(text) = open.last_mut() {
                    if let Some(c) = r.resolve_char_ref().ok().flatten() {
                        text.push(c);
                    } else if let Some(s) = quick_xml::escape::resolve_xml_entity(r.as_ref()) {
                        text.push_str(s);
                    }
                }
            }
            Event::End(e) => {
                let name = e.local_name();
                if format == DocumentFormat::Docx && name.as_ref() == "t" {
                    in_text_run = false;
                } else if is_paragraph_name(name.as_ref(), format) {
                    let Some(text) = open.pop() else { continue };
                    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    if !text.is_empty() && !emit(text) {
                        return Ok(());
                    }
                }
            }
            Event::Eof => {
                return if open.is_empty() {
                    Ok(())
                } else {
                    Err("the document ends inside a paragraph".into())
                };
            }
            _ => {}
        }
        buf.clear();
    }
}

fn is_paragraph(e: &BytesStart<'_>, format: DocumentFormat) -> bool {
    is_paragraph_name(e.local_name().as_ref(), format)
}

fn is_paragraph_name(local: &str, format: DocumentFormat) -> bool {
    match format {
        DocumentFormat::Docx => local == "p",
        DocumentFormat::Odt => local == "p" || local == "h",
    }
}

/// The text an empty element stands for: tabs, line breaks and runs of spaces.
fn spacing(e: &BytesStart<'_>, format: DocumentFormat) -> String {
    match (format, e.local_name().as_ref()) {
        (DocumentFormat::Docx, "tab" | "br" | "cr") => " ".into(),
        (DocumentFormat::Odt, "tab" | "line-break") => " ".into(),
        (DocumentFormat::Odt, "s") => {
            let count = e
                .attributes()
                .flatten()
                .find(|a| a.key.local_name().as_ref() == "c")
                .and_then(|a| a.value.trim().parse::<usize>().ok())
                .unwrap_or(1);
            " ".repeat(count.min(64))
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(xml: &str, format: DocumentFormat) -> Vec<String> {
        let mut out = Vec::new();
        paragraphs(xml.as_bytes(), format, &mut |t| {
            out.push(t);
            true
        })
        .unwrap();
        out
    }

    #[test]
    fn docx_runs_join_into_paragraphs_and_empty_ones_are_skipped() {
        let xml = r#"<w:document xmlns:w="x"><w:body>
            <w:p><w:r><w:t>The kiln </w:t></w:r><w:r><w:t xml:space="preserve">fires at </w:t></w:r><w:r><w:tab/><w:t>1,200 &amp; up</w:t></w:r></w:p>
            <w:p></w:p>
            <w:p><w:r><w:instrText>PAGE</w:instrText><w:t>Glaze next.</w:t></w:r></w:p>
        </w:body></w:document>"#;
        assert_eq!(
            texts(xml, DocumentFormat::Docx),
            vec!["The kiln fires at 1,200 & up", "Glaze next."]
        );
    }

    #[test]
    fn odt_headings_and_spaces_count() {
        let xml = r#"<office:document-content xmlns:office="o" xmlns:text="t"><office:body><office:text>
            <text:h>Minutes</text:h>
            <text:p>Budget<text:s text:c="3"/>approved<text:line-break/>by <text:span>Noor</text:span>.</text:p>
        </office:text></office:body></office:document-content>"#;
        assert_eq!(
            texts(xml, DocumentFormat::Odt),
            vec!["Minutes", "Budget approved by Noor."]
        );
    }

    #[test]
    fn damaged_xml_is_an_error_not_a_panic() {
        let mut n = 0;
        let r = paragraphs(b"<w:p><w:t>cut", DocumentFormat::Docx, &mut |_| {
            n += 1;
            true
        });
        assert!(r.is_err());
        assert_eq!(n, 0);
    }
}
