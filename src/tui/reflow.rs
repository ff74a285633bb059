//! Mail text laid out for reading: paragraphs that the sender's program wrapped
//! at a fixed column (72 or so, or format=flowed) are joined again so they wrap at
//! the pane's width, and a quoted line keeps its quote marker on every screen line
//! it takes. Lines of figures, lists, headers and rules are never joined, and no
//! character is dropped: joining only turns a line break into a space and drops
//! the joined line's repeated quote marker.

use super::wrap::{text_width, wrap_hanging, Run, Wrapped};
use crate::terminal_text::for_terminal;

/// A line shorter than this (without its quote marker) ends its paragraph: it is
/// not a line some program wrapped at a fixed column.
const WRAPPED_LINE_MIN: usize = 45;
/// A line at most this wide that follows a finished sentence is a line of its own
/// ("Thanks,", a name).
const CLOSING_LINE_MAX: usize = 25;

/// Wraps mail text to `width`: reflowed paragraphs, quote markers repeated.
pub fn wrap_mail(runs: &[Run], width: u16) -> Wrapped {
    let lines = fit_figures(reflow(logical_lines(runs)), usize::from(width));
    let mut out = Wrapped::default();
    for line in &lines {
        let text: String = line.iter().map(|r| r.text.as_str()).collect();
        let marker = quote_prefix(&text);
        let style = line.first().map(|r| r.style).unwrap_or_default();
        out.extend(wrap_hanging(line, width, Some((marker, style))));
    }
    out
}

/// The runs split into lines (no `\n` left), each run's tag on its first piece.
fn logical_lines(runs: &[Run]) -> Vec<Vec<Run>> {
    let mut lines: Vec<Vec<Run>> = vec![Vec::new()];
    for run in runs {
        let text = for_terminal(&run.text);
        let mut tag = run.tag;
        for (i, piece) in text.split('\n').enumerate() {
            if i > 0 {
                lines.push(Vec::new());
            }
            if piece.is_empty() && tag == 0 {
                continue;
            }
            if let Some(line) = lines.last_mut() {
                line.push(Run::tagged(piece, run.style, tag));
            }
            tag = 0;
        }
    }
    // Text ending in a line break has no line after it.
    if lines.len() > 1
        && lines
            .last()
            .is_some_and(|l| l.iter().all(|r| r.text.is_empty()))
    {
        lines.pop();
    }
    lines
}

/// Joins each line into the one before it where the two belong to one wrapped
/// paragraph.
fn reflow(lines: Vec<Vec<Run>>) -> Vec<Vec<Run>> {
    let texts: Vec<String> = lines
        .iter()
        .map(|l| l.iter().map(|r| r.text.as_str()).collect())
        .collect();
    let mut out: Vec<Vec<Run>> = Vec::new();
    // The text of the line being built, as far as its last joined line goes.
    let mut last_text = String::new();
    // The text column of the unquoted list item being built, if one is.
    let mut item: Option<usize> = None;
    for (i, line) in lines.into_iter().enumerate() {
        let text = &texts[i];
        let continued = !out.is_empty() && continues_item(item, &last_text, text);
        if continued || (i > 0 && !out.is_empty() && joins(&last_text, text)) {
            // A continued item line drops its indent; a quoted line its marker.
            let cut = if continued {
                text.len() - text.trim_start_matches(' ').len()
            } else {
                quote_prefix(text).len()
            };
            if let Some(prev) = out.last_mut() {
                let style = prev.last().map(|r| r.style).unwrap_or_default();
                prev.push(Run::new(" ", style));
                prev.extend(strip_bytes(line, cut));
            }
        } else {
            item = quote_prefix(text)
                .is_empty()
                .then(|| item_text_column(text))
                .flatten();
            out.push(line);
        }
        last_text = text.clone();
    }
    out
}

/// Lines of figures too wide for the pane, made to fit where they can without
/// dropping a character: a block of them (blank lines between them included)
/// first loses the indent its lines share, which keeps their columns lined up;
/// a line still too wide then has its runs of spaces cut to two.
fn fit_figures(mut lines: Vec<Vec<Run>>, width: usize) -> Vec<Vec<Run>> {
    let texts: Vec<String> = lines.iter().map(|l| line_text(l)).collect();
    let figure = |t: &str| quote_prefix(t).is_empty() && has_alignment_gap(t.trim());
    let mut i = 0;
    while i < lines.len() {
        if !figure(&texts[i]) {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < lines.len() && (figure(&texts[end]) || texts[end].trim().is_empty()) {
            end += 1;
        }
        let block = i..end;
        i = end;
        if texts[block.clone()].iter().all(|t| text_width(t) <= width) {
            continue;
        }
        let indent = texts[block.clone()]
            .iter()
            .filter(|t| !t.trim().is_empty())
            .map(|t| t.len() - t.trim_start_matches(' ').len())
            .min()
            .unwrap_or(0);
        for at in block {
            let line = std::mem::take(&mut lines[at]);
            let mut line = strip_bytes(line, indent.min(texts[at].len()));
            if text_width(&line_text(&line)) > width {
                for run in &mut line {
                    run.text = narrow_gaps(&run.text);
                }
            }
            lines[at] = line;
        }
    }
    lines
}

fn line_text(line: &[Run]) -> String {
    line.iter().map(|r| r.text.as_str()).collect()
}

/// Runs of three or more spaces cut to two.
fn narrow_gaps(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut spaces = 0;
    for c in text.chars() {
        spaces = if c == ' ' { spaces + 1 } else { 0 };
        if spaces <= 2 {
            out.push(c);
        }
    }
    out
}

/// The runs of a line less its first `n` bytes (its quote marker).
fn strip_bytes(line: Vec<Run>, mut n: usize) -> Vec<Run> {
    let mut out = Vec::new();
    for mut run in line {
        if n > 0 {
            let cut = n.min(run.text.len());
            run.text = run.text.get(cut..).unwrap_or_default().to_string();
            n -= cut;
            if run.text.is_empty() && run.tag == 0 {
                continue;
            }
        }
        out.push(run);
    }
    out
}

/// The quote marker a line starts with: `>`, `> > `, `>> ` (at most one space
/// before it); empty when the line is not quoted.
pub fn quote_prefix(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut i = usize::from(bytes.first() == Some(&b' '));
    let mut end = 0;
    while bytes.get(i) == Some(&b'>') {
        i += 1;
        if bytes.get(i) == Some(&b' ') {
            i += 1;
        }
        end = i;
    }
    &line[..end]
}

/// Whether `next` continues the paragraph whose last line is `prev`.
fn joins(prev: &str, next: &str) -> bool {
    let (pm, pb) = prev.split_at(quote_prefix(prev).len());
    let (nm, nb) = next.split_at(quote_prefix(next).len());
    if pm.trim_end() != nm.trim_end() {
        return false;
    }
    let (pt, nt) = (pb.trim_end(), nb.trim_end());
    if pt.trim().is_empty() || nt.trim().is_empty() {
        return false;
    }
    if text_width(pt) < WRAPPED_LINE_MIN || pt.ends_with(':') || pt == "--" {
        return false;
    }
    if [pt, nt].iter().any(|t| stands_alone(t)) || nb.starts_with([' ', '\t']) || is_list_item(nt) {
        return false;
    }
    // A short line after a finished sentence is one of its own: "Thanks,", a name.
    let finished = pt.ends_with(['.', '!', '?']);
    !(finished && text_width(nt.trim()) <= CLOSING_LINE_MAX)
}

/// A line that keeps its own shape: figures aligned with runs of spaces, a rule
/// of dashes, a header ("From: ...").
fn stands_alone(line: &str) -> bool {
    let body = line.trim();
    if has_alignment_gap(body) || body.contains('\t') {
        return true;
    }
    if ["-----", "=====", "_____", "*****"]
        .iter()
        .any(|r| body.contains(r))
    {
        return true;
    }
    is_header_line(body)
}

/// A run of spaces that aligns text: three or more, or two anywhere but after a
/// sentence's end (typewriter spacing, "Monday.  The").
fn has_alignment_gap(body: &str) -> bool {
    let mut rest = body;
    while let Some(at) = rest.find("  ") {
        let run = rest[at..].chars().take_while(|c| *c == ' ').count();
        let after_sentence = rest[..at].ends_with(['.', '!', '?']);
        if run > 2 || !after_sentence {
            return true;
        }
        rest = &rest[at + run..];
    }
    false
}

/// "Name: value", the name one word of letters and dashes.
fn is_header_line(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(name, _)| {
        !name.is_empty()
            && name.len() <= 20
            && name.chars().all(|c| c.is_ascii_alphabetic() || c == '-')
    })
}

fn is_list_item(line: &str) -> bool {
    item_text_column(line).is_some()
}

/// Where a list item's text starts (`- `, `12. `, `  * `), in columns; none when
/// the line is not one.
fn item_text_column(line: &str) -> Option<usize> {
    let t = line.trim_start();
    let indent = text_width(&line[..line.len() - t.len()]);
    if let Some(m) = ["- ", "* ", "• ", "+ ", "o "]
        .iter()
        .find(|m| t.starts_with(**m))
    {
        return Some(indent + text_width(m));
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    let numbered = digits > 0
        && digits <= 3
        && (t[digits..].starts_with(". ") || t[digits..].starts_with(") "));
    numbered.then_some(indent + digits + 2)
}

/// Whether `next` is a hard-wrapped line of the list item being built, whose text
/// starts at column `item`: indented to that column, and the line before it full.
fn continues_item(item: Option<usize>, prev: &str, next: &str) -> bool {
    let Some(item) = item else {
        return false;
    };
    let body = next.trim_start_matches(' ');
    let indent = next.len() - body.len();
    indent == item
        && !body.is_empty()
        && !is_list_item(next)
        && !has_alignment_gap(body)
        && !body.contains('\t')
        && text_width(prev.trim_end()) >= WRAPPED_LINE_MIN
}

#[cfg(test)]
#[path = "reflow_tests.rs"]
mod tests;
