//! Email-aware body cleaning: split a decoded message body into what the
//! sender actually wrote (`Authored`) and everything else (quoted history,
//! forwarded mail, signatures, legal disclaimers).
//!
//! The classifier works line by line and is deliberately conservative: a line
//! is only taken away from `Authored` when a well-known marker says so, because
//! losing real authored text is worse than keeping a little noise.
//!
//! Pipeline:
//! 1. split into lines with byte spans (so spans always fall on char boundaries);
//! 2. scan the "head" for `>` quotes and find the first reply/forward header,
//!    after which everything (the "tail") is `Quoted` or `Forwarded`;
//! 3. inside the remaining authored head text mark disclaimer paragraphs and
//!    then signatures;
//! 4. give blank lines the kind of a neighbour and merge lines into segments.

use serde::{Deserialize, Serialize};

/// What a segment of a body is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SegmentKind {
    Authored,
    Quoted,
    Forwarded,
    Signature,
    Disclaimer,
}

impl SegmentKind {
    /// Only text the sender wrote in this message may be cited as theirs.
    pub fn is_citable(self) -> bool {
        matches!(self, SegmentKind::Authored)
    }

    /// Stable lower-case name, e.g. for JSON output or UI badges.
    pub fn label(self) -> &'static str {
        match self {
            SegmentKind::Authored => "authored",
            SegmentKind::Quoted => "quoted",
            SegmentKind::Forwarded => "forwarded",
            SegmentKind::Signature => "signature",
            SegmentKind::Disclaimer => "disclaimer",
        }
    }
}

/// A contiguous byte span `start..end` of the body with its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    pub kind: SegmentKind,
    pub start: usize,
    pub end: usize,
}

/// Split `body` into ordered, contiguous, non-overlapping segments covering it
/// entirely; adjacent segments of the same kind are merged. Empty body → empty vec.
pub fn segment_body(body: &str) -> Vec<Segment> {
    if body.is_empty() {
        return Vec::new();
    }
    let lines = split_lines(body);
    // `None` marks a blank line whose kind is decided from its neighbours.
    let mut kinds: Vec<Option<SegmentKind>> = vec![None; lines.len()];
    let head_end = classify_head(&lines, &mut kinds);
    mark_disclaimers(&lines, &mut kinds, head_end);
    mark_trailing_disclaimer(&lines, &mut kinds, head_end);
    mark_signatures(&lines, &mut kinds, head_end);
    let kinds = resolve_blanks(&kinds);
    let mut segs: Vec<Segment> = Vec::new();
    for (line, kind) in lines.iter().zip(kinds) {
        match segs.last_mut() {
            Some(last) if last.kind == kind => last.end = line.end,
            _ => segs.push(Segment {
                kind,
                start: line.start,
                end: line.end,
            }),
        }
    }
    segs
}

/// One physical line: byte span including its terminator, and its text without it.
pub(super) struct Line<'a> {
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) text: &'a str,
}

/// `split_inclusive('\n')` only cuts after an ASCII byte, so every span is on a
/// char boundary and the spans tile the body exactly.
pub(super) fn split_lines(body: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    for raw in body.split_inclusive('\n') {
        let end = pos + raw.len();
        out.push(Line {
            start: pos,
            end,
            text: raw.trim_end_matches(['\n', '\r']),
        });
        pos = end;
    }
    out
}

pub(super) fn is_blank(t: &str) -> bool {
    t.trim().is_empty()
}

/// A `>`-prefixed line (leading whitespace tolerated, as some clients indent).
pub(super) fn is_quote_line(t: &str) -> bool {
    t.trim_start().starts_with('>')
}

/// A decorative rule such as `*****`, `=====` or `_____` (10+ of one char).
pub(super) fn banner_char(t: &str) -> Option<char> {
    let t = t.trim();
    let first = t.chars().next()?;
    let ok = "*=_-~#".contains(first) && t.len() >= 10 && t.chars().all(|c| c == first);
    ok.then_some(first)
}

/// Case-insensitive "line starts with header `name`" (e.g. `"to:"`), tolerating
/// indentation and the `*From:*` bolding left over from HTML-to-text conversion.
pub(super) fn header_field(t: &str, name: &str) -> bool {
    let s = t.trim_start().trim_start_matches('*');
    s.get(..name.len())
        .is_some_and(|p| p.eq_ignore_ascii_case(name))
}

fn next_nonblank(lines: &[Line], from: usize) -> Option<usize> {
    (from..lines.len()).find(|&j| !is_blank(lines[j].text))
}

/// Text between decorative dashes/underscores/stars, lower-cased, and whether
/// the line had a `--`/`__` run at all (so plain prose never matches).
fn inner_of_rule(t: &str) -> (String, bool) {
    let t = t.trim();
    let inner = t.trim_matches(|c: char| c == '-' || c == '_' || c == '*' || c.is_whitespace());
    (inner.to_lowercase(), t.contains("--") || t.contains("__"))
}

/// `-----Original Message-----`, `----- Original Message -----` and a few
/// localized Outlook variants.
pub(super) fn is_original_message(t: &str) -> bool {
    use crate::lexicon::ORIGINAL_MESSAGE_PHRASES as PHRASES;
    let (inner, ruled) = inner_of_rule(t);
    // Non-letter residue may follow the phrase (Enron: "----- Original Message ----- =20").
    let residue_ok = |rest: &str| !rest.chars().any(char::is_alphabetic);
    ruled
        && PHRASES
            .iter()
            .any(|p| inner.strip_prefix(p).is_some_and(residue_ok))
}

/// Lotus `----- Forwarded by X on DATE -----`, Gmail `---------- Forwarded
/// message ---------`, Outlook `-----Forwarded Message-----`, Apple `Begin
/// forwarded message:`.
pub(super) fn is_forward_marker(t: &str) -> bool {
    let lower = t.trim().to_lowercase();
    if lower.starts_with("begin forwarded message") {
        return true;
    }
    let (inner, ruled) = inner_of_rule(t);
    ruled
        && (inner == "forwarded message"
            || (lower.starts_with("--") && inner.starts_with("forwarded by ")))
}

/// An attribution line ("On Mon, Bob wrote:", "Bob wrote:", possibly wrapped
/// over two lines when it starts with "On"). Returns (line count, starts with "On").
fn attribution(lines: &[Line], i: usize) -> Option<(usize, bool)> {
    let ends_wrote = |t: &str| {
        let l = t.trim_end().to_lowercase();
        l.ends_with("wrote:") || l.ends_with("writes:")
    };
    let t = lines[i].text.trim();
    let on = t.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("on "));
    if t.len() <= 250 && ends_wrote(t) {
        return Some((1, on));
    }
    let next = lines.get(i + 1)?.text;
    let wrapped = on && !is_quote_line(next) && ends_wrote(next) && t.len() + next.len() <= 250;
    wrapped.then_some((2, true))
}

/// Length of a Lotus Notes timestamp (`10/23/2000 01:26 PM`, `01/12/2000
/// 07:16:42 PM`, `12/13/00 06:01 AM`) at the start of `b`, if there is one.
pub(super) fn datetime_len(b: &[u8]) -> Option<usize> {
    let mut p = 0;
    let digits = |p: &mut usize, min: usize, max: usize| {
        let n = b[*p..]
            .iter()
            .take(max)
            .take_while(|c| c.is_ascii_digit())
            .count();
        *p += n;
        n >= min
    };
    let lit = |p: &mut usize, c: u8| {
        let ok = b.get(*p) == Some(&c);
        *p += usize::from(ok);
        ok
    };
    let date =
        digits(&mut p, 1, 2) && lit(&mut p, b'/') && digits(&mut p, 1, 2) && lit(&mut p, b'/');
    if !(date && digits(&mut p, 2, 4) && lit(&mut p, b' ')) {
        return None;
    }
    while lit(&mut p, b' ') {}
    if !(digits(&mut p, 1, 2) && lit(&mut p, b':') && digits(&mut p, 2, 2)) {
        return None;
    }
    if lit(&mut p, b':') && !digits(&mut p, 2, 2) {
        return None;
    }
    while lit(&mut p, b' ') {}
    let ampm = b.get(p..p + 2)?;
    (ampm.eq_ignore_ascii_case(b"am") || ampm.eq_ignore_ascii_case(b"pm")).then_some(p + 2)
}

/// Whole (trimmed) line is a Lotus timestamp.
pub(super) fn is_datetime_line(t: &str) -> bool {
    let t = t.trim();
    datetime_len(t.as_bytes()) == Some(t.len())
}

/// Line ends with " on <timestamp>" (`Mara Quill <m@x.com> on 03/09/2001 06:41:17 PM`)
/// or with a timestamp after a wide gap (`Odette K Varga @ NORTHWIND   02/06/2001 09:47 AM`).
pub(super) fn ends_with_datetime(t: &str) -> bool {
    let b = t.trim().as_bytes();
    (4..b.len()).any(|p| {
        let gap = b[p - 2..p].iter().all(|c| *c == b' ' || *c == b'\t');
        (gap || b[p - 4..p].eq_ignore_ascii_case(b" on "))
            && datetime_len(&b[p..]) == Some(b.len() - p)
    })
}

/// Lotus Notes reply header: either `Name <addr> on DATE` or a short name line
/// (`Tobias Renner@NWT`, optionally followed by `Sent by:`) then a bare
/// timestamp line, and a `To:` line within the next few lines.
pub(super) fn is_lotus_header(lines: &[Line], i: usize) -> bool {
    let t = lines[i].text.trim();
    let next = lines.get(i + 1).map_or("", |l| l.text.trim());
    let date_line = if ends_with_datetime(t) {
        Some(i)
    } else if next.len() <= 12 && ends_with_datetime(&format!("{t} {next}")) {
        Some(i + 1) // "... on 04/24/2001" wrapped before "11:08:56 AM"
    } else if t.len() <= 80 && !t.ends_with('.') {
        // The first line after the name that is not "Sent by:" must be the timestamp.
        lines
            .iter()
            .enumerate()
            .skip(i + 1)
            .take(2)
            .find(|(_, l)| !header_field(l.text, "sent by:"))
            .filter(|(_, l)| is_datetime_line(l.text))
            .map(|(j, _)| j)
    } else {
        None
    };
    date_line.is_some_and(|d| {
        (d + 1..(d + 5).min(lines.len())).any(|k| header_field(lines[k].text, "to:"))
    })
}

/// Texts of up to `max` lines after line `i`, stopping at a blank line.
fn block_after<'a>(lines: &'a [Line], i: usize, max: usize) -> impl Iterator<Item = &'a str> {
    let texts = lines.iter().skip(i + 1).take(max).map(|l| l.text);
    texts.take_while(|t| !is_blank(t))
}

/// Outlook/Exchange header block: `From:` followed (without a blank line) by
/// `Sent:` and `To:`/`Subject:`. The older `From:`+`Date:` form is also a
/// memo layout, so it is only trusted outside the first paragraph (`weak_ok`).
pub(super) fn is_outlook_block(lines: &[Line], i: usize, weak_ok: bool) -> bool {
    if !header_field(lines[i].text, "from:") {
        return false;
    }
    let has = |name| block_after(lines, i, 8).any(|t| header_field(t, name));
    (has("to:") || has("subject:")) && (has("sent:") || (weak_ok && has("date:")))
}

/// Lotus header with neither name nor date: `To:` then `cc:` and `Subject:`
/// (wrapped recipient lines allowed). A memo could look the same, so only
/// trusted outside the first paragraph.
fn is_to_cc_block(lines: &[Line], i: usize, weak_ok: bool) -> bool {
    let has = |name| block_after(lines, i, 10).any(|t| header_field(t, name));
    weak_ok && header_field(lines[i].text, "to:") && has("cc:") && has("subject:")
}

/// Kind of tail started by a header at line `i`, if any.
fn tail_header(lines: &[Line], i: usize, weak_ok: bool) -> Option<SegmentKind> {
    let t = lines[i].text;
    if is_forward_marker(t) {
        Some(SegmentKind::Forwarded)
    } else if is_original_message(t)
        || is_outlook_block(lines, i, weak_ok)
        || is_lotus_header(lines, i)
        || is_to_cc_block(lines, i, weak_ok)
    {
        Some(SegmentKind::Quoted)
    } else {
        None
    }
}

/// Scan the head: mark `>` quotes (and their attribution lines) `Quoted`, other
/// text `Authored`, and stop at the first reply/forward header, filling the rest
/// of the body with the tail kind. Returns the index where the tail starts.
fn classify_head(lines: &[Line], kinds: &mut [Option<SegmentKind>]) -> usize {
    let (mut seen_text, mut first_para_done) = (false, false);
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].text;
        if is_blank(t) {
            first_para_done |= seen_text;
            i += 1;
            continue;
        }
        seen_text = true;
        if is_quote_line(t) {
            kinds[i] = Some(SegmentKind::Quoted);
            i += 1;
            continue;
        }
        let mut tail = tail_header(lines, i, first_para_done);
        if let Some((len, on)) = attribution(lines, i) {
            let next = next_nonblank(lines, i + len);
            if next.is_some_and(|j| is_quote_line(lines[j].text)) {
                kinds[i..i + len].fill(Some(SegmentKind::Quoted));
                i += len;
                continue;
            }
            if on {
                tail = Some(SegmentKind::Quoted);
            }
        }
        if let Some(kind) = tail {
            let start = with_separator(lines, kinds, i);
            kinds[start..].fill(Some(kind));
            return start;
        }
        kinds[i] = Some(SegmentKind::Authored);
        i += 1;
    }
    lines.len()
}

/// Outlook often puts a `____________` rule above the header block; take it too.
fn with_separator(lines: &[Line], kinds: &[Option<SegmentKind>], i: usize) -> usize {
    match (0..i).rev().find(|&p| !is_blank(lines[p].text)) {
        Some(p)
            if matches!(banner_char(lines[p].text), Some('_' | '-'))
                && kinds[p] == Some(SegmentKind::Authored) =>
        {
            p
        }
        _ => i,
    }
}

use crate::lexicon::DISCLAIMER_PHRASES;

/// "Mostly boilerplate": at least two distinct phrases, and not a long
/// paragraph that merely mentions them (≤ 60 words per hit).
fn is_disclaimer_text(text: &str) -> bool {
    let norm = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let hits = DISCLAIMER_PHRASES
        .iter()
        .filter(|p| norm.contains(*p))
        .count();
    hits >= 2 && norm.split(' ').count() <= 60 * hits
}

/// Mark authored paragraphs (split at blank lines and banner rules) that are
/// legal boilerplate, plus the banner rules directly around them.
fn mark_disclaimers(lines: &[Line], kinds: &mut [Option<SegmentKind>], head_end: usize) {
    let in_para = |k: usize, kinds: &[Option<SegmentKind>]| {
        kinds[k] == Some(SegmentKind::Authored) && banner_char(lines[k].text).is_none()
    };
    let mut a = 0;
    while a < head_end {
        if !in_para(a, kinds) {
            a += 1;
            continue;
        }
        let b = (a..head_end)
            .find(|&k| !in_para(k, kinds))
            .unwrap_or(head_end);
        let text: String = lines[a..b].iter().flat_map(|l| [l.text, " "]).collect();
        if is_disclaimer_text(&text) {
            let banner = |k: usize, kinds: &[Option<SegmentKind>]| {
                kinds[k] == Some(SegmentKind::Authored) && banner_char(lines[k].text).is_some()
            };
            let mut lo = a;
            while lo > 0 && banner(lo - 1, kinds) {
                lo -= 1;
            }
            let mut hi = b;
            while hi < head_end && banner(hi, kinds) {
                hi += 1;
            }
            kinds[lo..hi].fill(Some(SegmentKind::Disclaimer));
            a = hi;
        } else {
            a = b;
        }
    }
}

/// Mail servers append their disclaimer to the very end of a reply, below the quoted
/// history: the last unquoted paragraph of the body, when it is boilerplate, is a
/// disclaimer rather than part of the history above it.
fn mark_trailing_disclaimer(lines: &[Line], kinds: &mut [Option<SegmentKind>], head_end: usize) {
    let Some(last) = (head_end..lines.len())
        .rev()
        .find(|&k| !is_blank(lines[k].text))
    else {
        return;
    };
    let mut first = last;
    while first > head_end && !is_blank(lines[first - 1].text) {
        first -= 1;
    }
    if lines[first..=last].iter().any(|l| is_quote_line(l.text)) {
        return;
    }
    let text: String = lines[first..=last]
        .iter()
        .flat_map(|l| [l.text, " "])
        .collect();
    if is_disclaimer_text(&text) {
        kinds[first..=last].fill(Some(SegmentKind::Disclaimer));
    }
}

/// Max non-blank lines after a delimiter for it to count as a signature:
/// `-- ` (RFC 3676) allows a business card, a mobile tag only a line or two.
fn sig_allowance(t: &str) -> Option<usize> {
    let l = t.trim().to_lowercase();
    if l == "--" {
        return Some(15);
    }
    let mobile = crate::lexicon::MOBILE_SIGNATURES;
    (l.len() <= 80 && mobile.iter().any(|m| l.starts_with(m))).then_some(3)
}

/// In each run of authored/blank head lines, the first signature delimiter with
/// a short enough tail starts a `Signature` that lasts to the end of the run.
fn mark_signatures(lines: &[Line], kinds: &mut [Option<SegmentKind>], head_end: usize) {
    let free = |k: Option<SegmentKind>| matches!(k, None | Some(SegmentKind::Authored));
    let mut a = 0;
    while a < head_end {
        if !free(kinds[a]) {
            a += 1;
            continue;
        }
        let b = (a..head_end).find(|&k| !free(kinds[k])).unwrap_or(head_end);
        let start = (a..b).find(|&d| {
            kinds[d].is_some()
                && sig_allowance(lines[d].text).is_some_and(|max| {
                    kinds[d + 1..b].iter().filter(|k| k.is_some()).count() <= max
                })
        });
        if let Some(d) = start {
            for k in &mut kinds[d..b] {
                if k.is_some() {
                    *k = Some(SegmentKind::Signature);
                }
            }
        }
        a = b;
    }
}

/// Blank lines join the preceding non-blank line (leading ones the following);
/// a body of only whitespace is `Authored`.
fn resolve_blanks(kinds: &[Option<SegmentKind>]) -> Vec<SegmentKind> {
    let first = kinds
        .iter()
        .flatten()
        .next()
        .copied()
        .unwrap_or(SegmentKind::Authored);
    let mut prev = first;
    kinds
        .iter()
        .map(|k| {
            prev = k.unwrap_or(prev);
            prev
        })
        .collect()
}

#[cfg(test)]
#[path = "clean_tests.rs"]
mod tests;
