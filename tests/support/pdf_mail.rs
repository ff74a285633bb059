//! Test data: PDFs written by hand and mail messages that carry them.
//!
//! The PDFs are written byte by byte (objects, a Helvetica font, text
//! operators, a cross-reference table), so tests need no PDF library and
//! the files' structure is known exactly. Only the scanned page needs an
//! external program: `pdftoppm` from Debian's poppler-utils (plus any font
//! fontconfig can substitute for Helvetica, e.g. fonts-dejavu-core).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// Writes numbered objects and the cross-reference table that locates them.
pub struct PdfWriter {
    buf: Vec<u8>,
    offsets: Vec<usize>,
}

impl PdfWriter {
    pub fn new() -> Self {
        // The binary comment marks the file as binary for transfer tools.
        PdfWriter {
            buf: b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n".to_vec(),
            offsets: Vec::new(),
        }
    }

    /// Adds the next object; its number is the count of objects so far + 1.
    pub fn object(&mut self, body: &[u8]) -> usize {
        self.offsets.push(self.buf.len());
        let id = self.offsets.len();
        self.buf
            .extend_from_slice(format!("{id} 0 obj\n").as_bytes());
        self.buf.extend_from_slice(body);
        self.buf.extend_from_slice(b"\nendobj\n");
        id
    }

    pub fn stream(&mut self, dict_entries: &str, data: &[u8]) -> usize {
        let mut body =
            format!("<< {dict_entries} /Length {} >>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\nendstream");
        self.object(&body)
    }

    /// Writes the xref table and trailer; `root` is the catalog's number.
    pub fn finish(mut self, root: usize) -> Vec<u8> {
        let xref_at = self.buf.len();
        let count = self.offsets.len() + 1;
        let mut xref = format!("xref\n0 {count}\n0000000000 65535 f \n");
        for offset in &self.offsets {
            xref.push_str(&format!("{offset:010} 00000 n \n"));
        }
        xref.push_str(&format!(
            "trailer\n<< /Size {count} /Root {root} 0 R >>\nstartxref\n{xref_at}\n%%EOF\n"
        ));
        self.buf.extend_from_slice(xref.as_bytes());
        self.buf
    }
}

/// A literal PDF string in WinAnsi (Latin-1 here) with `\`, `(` and `)`
/// escaped and other bytes outside printable ASCII written in octal.
pub fn pdf_string(text: &str) -> Vec<u8> {
    let mut out = b"(".to_vec();
    for c in text.chars() {
        let b = u8::try_from(u32::from(c)).unwrap_or(b'?');
        match b {
            b'\\' | b'(' | b')' => out.extend_from_slice(&[b'\\', b]),
            0x20..=0x7e => out.push(b),
            _ => out.extend_from_slice(format!("\\{b:03o}").as_bytes()),
        }
    }
    out.push(b')');
    out
}

/// Letter-size pages, each showing its own lines (split on `\n`) in 12 pt
/// Helvetica from the top left.
pub fn multi_page_pdf(pages: &[&str]) -> Vec<u8> {
    let mut w = PdfWriter::new();
    let n = pages.len();
    // Numbering: 1 catalog, 2 page tree, 3 font, then (page, content) pairs.
    let kids: Vec<String> = (0..n).map(|i| format!("{} 0 R", 4 + 2 * i)).collect();
    w.object(b"<< /Type /Catalog /Pages 2 0 R >>");
    w.object(format!("<< /Type /Pages /Kids [{}] /Count {n} >>", kids.join(" ")).as_bytes());
    w.object(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    for (i, text) in pages.iter().enumerate() {
        let content_id = 5 + 2 * i;
        w.object(
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
                 /Resources << /Font << /F1 3 0 R >> >> /Contents {content_id} 0 R >>"
            )
            .as_bytes(),
        );
        let mut content = b"BT\n/F1 12 Tf\n72 720 Td\n".to_vec();
        for (j, line) in text.lines().enumerate() {
            if j > 0 {
                content.extend_from_slice(b"0 -16 Td\n");
            }
            content.extend_from_slice(&pdf_string(line));
            content.extend_from_slice(b" Tj\n");
        }
        content.extend_from_slice(b"ET");
        w.stream("", &content);
    }
    w.finish(1)
}

/// A one-page PDF that shows `text` only as a picture, like a scan: the
/// text is set in a generated PDF, rasterised by `pdftoppm` to an 8-bit
/// PNG at 150 dpi, and the PNG's compressed data is embedded as an
/// image with `FlateDecode` and the PNG predictor, so no image codec is
/// needed here. `None` when `pdftoppm` is not installed.
pub fn scanned_page_pdf(text: &str) -> Option<Vec<u8>> {
    let dir = scratch_dir("scan");
    let source = dir.join("source.pdf");
    std::fs::write(&source, multi_page_pdf(&[text])).ok()?;
    let prefix = dir.join("page");
    let status = Command::new("pdftoppm")
        .args(["-r", "150", "-gray", "-png", "-singlefile"])
        .arg(&source)
        .arg(&prefix)
        .status()
        .ok()?;
    let png = std::fs::read(prefix.with_extension("png")).ok();
    let _ = std::fs::remove_dir_all(&dir);
    if !status.success() {
        return None;
    }
    let (width, height, colors, idat) = png_idat(&png?)?;
    let space = if colors == 1 {
        "/DeviceGray"
    } else {
        "/DeviceRGB"
    };

    let mut w = PdfWriter::new();
    w.object(b"<< /Type /Catalog /Pages 2 0 R >>");
    w.object(b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
    w.object(
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
          /Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>",
    );
    w.stream(
        &format!(
            "/Type /XObject /Subtype /Image /Width {width} /Height {height} \
             /ColorSpace {space} /BitsPerComponent 8 /Filter /FlateDecode \
             /DecodeParms << /Predictor 15 /Colors {colors} /BitsPerComponent 8 /Columns {width} >>"
        ),
        &idat,
    );
    w.stream("", b"q 612 0 0 792 0 0 cm /Im1 Do Q");
    Some(w.finish(1))
}

/// Width, height, colour count (1 grey, 3 RGB) and the joined IDAT data of
/// a non-interlaced 8-bit PNG. (pdftoppm writes RGB even with `-gray`.)
fn png_idat(png: &[u8]) -> Option<(u32, u32, u8, Vec<u8>)> {
    let mut rest = png.strip_prefix(b"\x89PNG\r\n\x1a\n")?;
    let (mut width, mut height, mut colors, mut idat) = (0, 0, 0, Vec::new());
    while rest.len() >= 12 {
        let len = u32::from_be_bytes(rest[..4].try_into().ok()?) as usize;
        let kind = &rest[4..8];
        let data = rest.get(8..8 + len)?;
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(data[..4].try_into().ok()?);
                height = u32::from_be_bytes(data[4..8].try_into().ok()?);
                colors = match data[9] {
                    0 => 1,
                    2 => 3,
                    _ => return None,
                };
                if data[8] != 8 || data[12] != 0 {
                    return None;
                }
            }
            b"IDAT" => idat.extend_from_slice(data),
            b"IEND" => break,
            _ => {}
        }
        rest = rest.get(12 + len..)?;
    }
    (width > 0 && !idat.is_empty()).then_some((width, height, colors, idat))
}

/// A decompression bomb: page 1's drawing instructions are `inflated` bytes
/// of spaces packed with Flate into about a thousandth of that, and page 2 is
/// an ordinary page showing `text`.
pub fn flate_bomb_pdf(inflated: usize, text: &str) -> Vec<u8> {
    use flate2::write::ZlibEncoder;
    use flate2::Compression;
    use std::io::Write;
    let mut packed = ZlibEncoder::new(Vec::new(), Compression::best());
    let block = vec![b' '; 1 << 16];
    let mut left = inflated;
    while left > 0 {
        let n = left.min(block.len());
        packed.write_all(&block[..n]).expect("writes to memory");
        left -= n;
    }
    let packed = packed.finish().expect("writes to memory");

    let mut w = PdfWriter::new();
    w.object(b"<< /Type /Catalog /Pages 2 0 R >>");
    w.object(b"<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>");
    w.object(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>");
    w.stream("/Filter /FlateDecode", &packed);
    w.object(
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
          /Resources << /Font << /F1 7 0 R >> >> /Contents 6 0 R >>",
    );
    let mut content = b"BT\n/F1 12 Tf\n72 720 Td\n".to_vec();
    content.extend_from_slice(&pdf_string(text));
    content.extend_from_slice(b" Tj\nET");
    w.stream("", &content);
    w.object(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
    w.finish(1)
}

/// A page whose form XObject paints itself, which would recurse forever in
/// a naive renderer, followed by an ordinary page.
pub fn self_painting_form_pdf() -> Vec<u8> {
    let mut w = PdfWriter::new();
    w.object(b"<< /Type /Catalog /Pages 2 0 R >>");
    w.object(b"<< /Type /Pages /Kids [3 0 R 6 0 R] /Count 2 >>");
    w.object(
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
          /Resources << /XObject << /X1 4 0 R >> >> /Contents 5 0 R >>",
    );
    w.stream(
        "/Type /XObject /Subtype /Form /BBox [0 0 612 792] \
         /Resources << /XObject << /X1 4 0 R >> >>",
        b"/X1 Do",
    );
    w.stream("", b"/X1 Do");
    w.object(
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
          /Resources << /Font << /F1 8 0 R >> >> /Contents 7 0 R >>",
    );
    w.stream("", b"BT /F1 12 Tf 72 720 Td (Second page survives) Tj ET");
    w.object(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    w.finish(1)
}

/// Turns a single-part message into multipart/mixed with the original body
/// as the first part and each `(name, mime, bytes)` as a base64 attachment.
/// Headers are kept except the MIME ones, which describe the new structure;
/// the body keeps its own Content-Type and transfer encoding.
pub fn attach_to_message(raw_eml: &[u8], attachments: &[(&str, &str, &[u8])]) -> Vec<u8> {
    let crlf = raw_eml.windows(2).any(|w| w == b"\r\n");
    let nl: &str = if crlf { "\r\n" } else { "\n" };
    let split = find(raw_eml, format!("{nl}{nl}").as_bytes()).unwrap_or(raw_eml.len());
    let header_block = String::from_utf8_lossy(&raw_eml[..split]);
    let body = raw_eml.get(split + 2 * nl.len()..).unwrap_or(b"");

    let mut kept = String::new();
    let mut body_type = String::from("Content-Type: text/plain; charset=us-ascii");
    let mut body_encoding = None;
    for field in unfold(&header_block, nl) {
        let name = field
            .split(':')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        match name.as_str() {
            "content-type" => body_type = field,
            "content-transfer-encoding" => body_encoding = Some(field),
            "mime-version" => {}
            _ => {
                kept.push_str(&field);
                kept.push_str(nl);
            }
        }
    }
    let boundary = "=_quoth_test_boundary_7d1f0c";
    let mut out = kept.into_bytes();
    out.extend_from_slice(
        format!(
            "MIME-Version: 1.0{nl}Content-Type: multipart/mixed; boundary=\"{boundary}\"{nl}{nl}"
        )
        .as_bytes(),
    );
    out.extend_from_slice(format!("This is a multi-part message in MIME format.{nl}").as_bytes());
    out.extend_from_slice(format!("--{boundary}{nl}{body_type}{nl}").as_bytes());
    if let Some(enc) = body_encoding {
        out.extend_from_slice(format!("{enc}{nl}").as_bytes());
    }
    out.extend_from_slice(nl.as_bytes());
    out.extend_from_slice(body);
    if !body.ends_with(nl.as_bytes()) {
        out.extend_from_slice(nl.as_bytes());
    }
    for (name, mime, bytes) in attachments {
        out.extend_from_slice(
            format!(
                "--{boundary}{nl}Content-Type: {mime}; name=\"{name}\"{nl}\
                 Content-Disposition: attachment; filename=\"{name}\"{nl}\
                 Content-Transfer-Encoding: base64{nl}{nl}"
            )
            .as_bytes(),
        );
        for line in base64(bytes).as_bytes().chunks(76) {
            out.extend_from_slice(line);
            out.extend_from_slice(nl.as_bytes());
        }
    }
    out.extend_from_slice(format!("--{boundary}--{nl}").as_bytes());
    out
}

/// Header fields with their continuation lines, as written (not unfolded
/// into one line, so they are reproduced byte for byte).
fn unfold(headers: &str, nl: &str) -> Vec<String> {
    let mut fields: Vec<String> = Vec::new();
    for line in headers.split(nl) {
        match fields.last_mut() {
            Some(last) if line.starts_with([' ', '\t']) => {
                last.push_str(nl);
                last.push_str(line);
            }
            _ => fields.push(line.to_string()),
        }
    }
    fields
}

pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The parts of a message made by [`attach_to_message`]: each part's header
/// block and its body, base64-decoded where so encoded. Enough to check a
/// round trip; not a general MIME parser.
pub fn mime_parts(message: &[u8]) -> Vec<(String, Vec<u8>)> {
    let text = String::from_utf8_lossy(message).replace("\r\n", "\n");
    let Some(start) = text.find("boundary=\"") else {
        return Vec::new();
    };
    let rest = &text[start + 10..];
    let boundary = format!("--{}", &rest[..rest.find('"').unwrap_or(0)]);
    let mut parts = Vec::new();
    for chunk in text.split(&boundary).skip(1) {
        if chunk.starts_with("--") {
            break;
        }
        let chunk = chunk.trim_start_matches('\n');
        let (headers, body) = chunk.split_once("\n\n").unwrap_or((chunk, ""));
        let body = if headers
            .to_ascii_lowercase()
            .contains("transfer-encoding: base64")
        {
            base64_decode(body)
        } else {
            body.as_bytes().to_vec()
        };
        parts.push((headers.to_string(), body));
    }
    parts
}

pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let sextets: Vec<u8> = text.bytes().filter_map(value).collect();
    let mut out = Vec::with_capacity(sextets.len() * 3 / 4);
    for group in sextets.chunks(4) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &v)| n | (u32::from(v) << (18 - 6 * i)));
        out.extend(n.to_be_bytes()[1..group.len()].iter());
    }
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn scratch_dir(tag: &str) -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("quoth-test-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}
