//! Page text as Quoth stores and cites it.
//!
//! Text layers come out of PDFs with layout artefacts: runs of spaces used for
//! column alignment, carriage returns, stray control characters, many blank lines.
//! They are normalised once, before the page is stored, because the stored page is
//! what chunks are cut from and what citations quote verbatim: cleaning later would
//! move every span.

use crate::index::chunk::{chunk_regions, ChunkConfig, ChunkSpan};

/// Normalises a page's text: `\n` line ends, no control characters, single spaces
/// within lines, no trailing spaces, at most one blank line in a row.
pub fn clean_page_text(raw: &str) -> String {
    let text = raw.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    let mut blank_run = 0;
    for line in text.split('\n') {
        let mut cleaned = String::with_capacity(line.len());
        let mut space = false;
        for c in line.chars() {
            if c.is_whitespace() {
                space = !cleaned.is_empty();
            } else if !c.is_control() {
                if space {
                    cleaned.push(' ');
                    space = false;
                }
                cleaned.push(c);
            }
        }
        if cleaned.is_empty() {
            blank_run += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank_run > 0 { "\n\n" } else { "\n" });
        }
        blank_run = 0;
        out.push_str(&cleaned);
    }
    out
}

/// Chunk spans of one page, sized like body chunks. A page is one region: it has
/// no quoted history or signature to leave out.
pub fn chunk_page(text: &str, cfg: &ChunkConfig) -> Vec<ChunkSpan> {
    if text.trim().is_empty() {
        return Vec::new();
    }
    chunk_regions(
        text,
        &[ChunkSpan {
            start: 0,
            end: text.len(),
        }],
        cfg,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleaning_collapses_layout_whitespace() {
        let raw = "\r\n  Title   line  \r\n\n\n\nBody\u{0}\ttext here \nnext";
        assert_eq!(clean_page_text(raw), "Title line\n\nBody text here\nnext");
        assert_eq!(clean_page_text(" \n \n"), "");
    }

    #[test]
    fn a_long_page_becomes_several_chunks_within_the_page() {
        let text = clean_page_text(&"A sentence about gas storage volumes. ".repeat(200));
        let spans = chunk_page(&text, &ChunkConfig::default());
        assert!(spans.len() > 1);
        assert!(spans.iter().all(|s| s.end <= text.len() && s.start < s.end));
        assert!(chunk_page("  ", &ChunkConfig::default()).is_empty());
    }
}
