//! Decompression bombs: a few kilobytes of Flate or LZW data can inflate to
//! gigabytes, and `lopdf` (under `pdf-extract`) inflates a stream whole, in
//! memory, every time it is read. Before any page is read, each stream that
//! text extraction may inflate is decoded once into a fixed-size buffer,
//! counting bytes and stopping at the cap; a stream over the cap is emptied
//! in the loaded document, so extraction never allocates more than the cap
//! for one stream, and the pages that draw with it are reported.
//!
//! Image streams are left alone: text extraction never decodes them, and OCR
//! renders the original file with poppler, which streams its input.

use std::collections::HashSet;
use std::io::{self, Read};

use flate2::read::ZlibDecoder;
use lopdf::{Document, Object, ObjectId, Stream};

/// Empties every non-image stream of `doc` that decodes to more than `cap`
/// bytes, and returns their ids.
pub(crate) fn defuse_streams(doc: &mut Document, cap: u64) -> HashSet<ObjectId> {
    let mut oversized = HashSet::new();
    for (id, object) in doc.objects.iter_mut() {
        let Object::Stream(stream) = object else {
            continue;
        };
        if is_image(stream) || decodes_within(stream, cap) {
            continue;
        }
        stream.set_plain_content(Vec::new());
        oversized.insert(*id);
    }
    oversized
}

/// Whether one of the page's content streams was emptied.
pub(crate) fn page_was_defused(
    doc: &Document,
    page: ObjectId,
    oversized: &HashSet<ObjectId>,
) -> bool {
    !oversized.is_empty()
        && doc
            .get_page_contents(page)
            .iter()
            .any(|id| oversized.contains(id))
}

fn is_image(stream: &Stream) -> bool {
    matches!(stream.dict.get(b"Subtype"), Ok(Object::Name(n)) if n == b"Image")
}

/// Whether the stream's content, run through its filters, stays within `cap`
/// bytes. Unknown filters are left to the decoder, which refuses them.
fn decodes_within(stream: &Stream, cap: u64) -> bool {
    let filters: Vec<Vec<u8>> = match stream.filters() {
        Ok(f) => f.into_iter().map(<[u8]>::to_vec).collect(),
        Err(_) => return stream.content.len() as u64 <= cap,
    };
    // Only the stages before the last need their output kept, and only an
    // ASCII filter may come before a compressing one in practice; its output is
    // smaller than its input, which is already in memory.
    let mut data: Vec<u8> = stream.content.clone();
    for (i, filter) in filters.iter().enumerate() {
        let last = i + 1 == filters.len();
        let decoded: Box<dyn Read + '_> = match filter.as_slice() {
            b"FlateDecode" | b"Fl" => Box::new(ZlibDecoder::new(data.as_slice())),
            b"LZWDecode" | b"LZW" => Box::new(LzwReader::new(data.as_slice())),
            b"ASCII85Decode" | b"A85" => {
                data = ascii85(&data);
                continue;
            }
            _ => return data.len() as u64 <= cap,
        };
        let mut limited = decoded.take(cap + 1);
        if last {
            // A failing decoder stops here as it does in lopdf, which keeps
            // the raw bytes; those are bounded by the file size.
            let n = io::copy(&mut limited, &mut io::sink()).unwrap_or(0);
            return n <= cap;
        }
        let mut out = Vec::new();
        let _ = limited.read_to_end(&mut out);
        drop(limited);
        if out.len() as u64 > cap {
            return false;
        }
        data = out;
    }
    data.len() as u64 <= cap
}

/// ASCII85 as PDF writes it: whitespace ignored, `z` for four zero bytes, and
/// `~>` ending the data. Bad characters end it too.
fn ascii85(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() * 4 / 5);
    let mut group = [0u8; 5];
    let mut n = 0;
    let body = input.strip_prefix(b"<~").unwrap_or(input);
    for &c in body {
        match c {
            b'~' => break,
            b'z' if n == 0 => out.extend_from_slice(&[0; 4]),
            b'!'..=b'u' => {
                group[n] = c - b'!';
                n += 1;
                if n == 5 {
                    out.extend_from_slice(&group_value(&group).to_be_bytes());
                    n = 0;
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ => break,
        }
    }
    if n > 1 {
        for g in group.iter_mut().skip(n) {
            *g = b'u' - b'!';
        }
        let bytes = group_value(&group).to_be_bytes();
        out.extend_from_slice(&bytes[..n - 1]);
    }
    out
}

fn group_value(group: &[u8; 5]) -> u32 {
    group.iter().fold(0u32, |acc, &d| {
        acc.wrapping_mul(85).wrapping_add(u32::from(d))
    })
}

/// LZW decoding as a reader, so that its output can be counted without being
/// kept (early change on, as PDF's default).
struct LzwReader<'a> {
    decoder: weezl::decode::Decoder,
    input: &'a [u8],
    done: bool,
}

impl<'a> LzwReader<'a> {
    fn new(input: &'a [u8]) -> Self {
        Self {
            decoder: weezl::decode::Decoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8),
            input,
            done: false,
        }
    }
}

impl Read for LzwReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while !self.done {
            let result = self.decoder.decode_bytes(self.input, buf);
            self.input = &self.input[result.consumed_in.min(self.input.len())..];
            match result.status {
                Ok(weezl::LzwStatus::Ok) if result.consumed_out > 0 => {
                    return Ok(result.consumed_out)
                }
                Ok(weezl::LzwStatus::Ok) if result.consumed_in > 0 => {}
                Ok(weezl::LzwStatus::Done) | Ok(weezl::LzwStatus::NoProgress) | Err(_) => {
                    self.done = true;
                    return Ok(result.consumed_out);
                }
                Ok(weezl::LzwStatus::Ok) => {
                    self.done = true;
                    return Ok(0);
                }
            }
        }
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::ZlibEncoder;
    use flate2::Compression;
    use lopdf::dictionary;
    use std::io::Write;

    fn zlib_zeros(n: usize) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
        let block = vec![b' '; 1 << 16];
        let mut left = n;
        while left > 0 {
            let k = left.min(block.len());
            e.write_all(&block[..k]).expect("in memory");
            left -= k;
        }
        e.finish().expect("in memory")
    }

    fn flate_stream(n: usize) -> Stream {
        Stream::new(dictionary! { "Filter" => "FlateDecode" }, zlib_zeros(n))
    }

    #[test]
    fn flate_streams_are_measured_against_the_cap() {
        assert!(decodes_within(&flate_stream(4096), 4096));
        assert!(!decodes_within(&flate_stream(4097), 4096));
        // 64 MB of spaces compress to about 64 KB: a small bomb.
        let bomb = flate_stream(64 << 20);
        assert!(bomb.content.len() < 1 << 20);
        assert!(!decodes_within(&bomb, 16 << 20));
    }

    #[test]
    fn ascii85_before_flate_is_decoded_first() {
        let raw = zlib_zeros(10_000);
        let mut a85 = Vec::new();
        for chunk in raw.chunks(4) {
            let mut g = [0u8; 4];
            g[..chunk.len()].copy_from_slice(chunk);
            let mut v = u32::from_be_bytes(g);
            let mut digits = [0u8; 5];
            for d in digits.iter_mut().rev() {
                *d = (v % 85) as u8 + b'!';
                v /= 85;
            }
            a85.extend_from_slice(&digits[..chunk.len() + 1]);
        }
        a85.extend_from_slice(b"~>");
        assert_eq!(ascii85(&a85), raw);
        let stream = Stream::new(
            dictionary! { "Filter" => vec![Object::from("ASCII85Decode"), Object::from("FlateDecode")] },
            a85,
        );
        assert!(decodes_within(&stream, 10_000));
        assert!(!decodes_within(&stream, 9_999));
    }

    #[test]
    fn lzw_streams_are_counted() {
        let data = vec![b'a'; 100_000];
        let mut enc = weezl::encode::Encoder::with_tiff_size_switch(weezl::BitOrder::Msb, 8);
        let packed = enc.encode(&data).expect("in memory");
        let stream = Stream::new(dictionary! { "Filter" => "LZWDecode" }, packed);
        assert!(decodes_within(&stream, 100_000));
        assert!(!decodes_within(&stream, 99_999));
    }

    #[test]
    fn oversized_streams_are_emptied_and_images_kept() {
        let mut doc = Document::with_version("1.5");
        let bomb = doc.add_object(flate_stream(8 << 20));
        let small = doc.add_object(flate_stream(1000));
        let image = doc.add_object(Stream::new(
            dictionary! { "Subtype" => "Image", "Filter" => "FlateDecode" },
            zlib_zeros(8 << 20),
        ));
        let out = defuse_streams(&mut doc, 1 << 20);
        assert_eq!(out, HashSet::from([bomb]));
        let emptied = doc
            .get_object(bomb)
            .and_then(Object::as_stream)
            .expect("kept");
        assert!(emptied.content.is_empty());
        assert!(emptied.filters().is_err(), "no filter left to run");
        for id in [small, image] {
            let s = doc
                .get_object(id)
                .and_then(Object::as_stream)
                .expect("kept");
            assert!(!s.content.is_empty());
        }
    }
}
