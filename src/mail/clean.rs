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
struct Line<'a> {
    start: usize,
    end: usize,
    text: &'a str,
}

/// `split_inclusive('\n')` only cuts after an ASCII byte, so every span is on a
/// char boundary and the spans tile the body exactly.
fn split_lines(body: &str) -> Vec<Line<'_>> {
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

fn is_blank(t: &str) -> bool {
    t.trim().is_empty()
}

/// A `>`-prefixed line (leading whitespace tolerated, as some clients indent).
fn is_quote_line(t: &str) -> bool {
    t.trim_start().starts_with('>')
}

/// A decorative rule such as `*****`, `=====` or `_____` (10+ of one char).
fn banner_char(t: &str) -> Option<char> {
    let t = t.trim();
    let first = t.chars().next()?;
    let ok = "*=_-~#".contains(first) && t.len() >= 10 && t.chars().all(|c| c == first);
    ok.then_some(first)
}

/// Case-insensitive "line starts with header `name`" (e.g. `"to:"`), tolerating
/// indentation and the `*From:*` bolding left over from HTML-to-text conversion.
fn header_field(t: &str, name: &str) -> bool {
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
fn is_original_message(t: &str) -> bool {
    const PHRASES: [&str; 4] = [
        "original message",
        "ursprüngliche nachricht",
        "message d'origine",
        "mensaje original",
    ];
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
fn is_forward_marker(t: &str) -> bool {
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
fn datetime_len(b: &[u8]) -> Option<usize> {
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
fn is_datetime_line(t: &str) -> bool {
    let t = t.trim();
    datetime_len(t.as_bytes()) == Some(t.len())
}

/// Line ends with " on <timestamp>" (`Sharon Lay <s@x.com> on 01/12/2000 07:16:42 PM`)
/// or with a timestamp after a wide gap (`Gayla E Seiter @ ENRON   11/15/2000 08:21 AM`).
fn ends_with_datetime(t: &str) -> bool {
    let b = t.trim().as_bytes();
    (4..b.len()).any(|p| {
        let gap = b[p - 2..p].iter().all(|c| *c == b' ' || *c == b'\t');
        (gap || b[p - 4..p].eq_ignore_ascii_case(b" on "))
            && datetime_len(&b[p..]) == Some(b.len() - p)
    })
}

/// Lotus Notes reply header: either `Name <addr> on DATE` or a short name line
/// (`Jeffrey McClellan@ECT`, optionally followed by `Sent by:`) then a bare
/// timestamp line, and a `To:` line within the next few lines.
fn is_lotus_header(lines: &[Line], i: usize) -> bool {
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
fn is_outlook_block(lines: &[Line], i: usize, weak_ok: bool) -> bool {
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

/// Phrases typical of legal footers (`|`-separated); a paragraph needs several distinct ones.
const BOILERPLATE: &str = "property of enron|confidential and may also be privileged|\
    privileged and confidential|confidential and privileged|confidential and/or privileged|\
    legally privileged|intended only for the use|intended solely for the use|for the sole use of|\
    not the intended recipient|not an intended recipient|designated recipient only|in error, please|\
    strictly prohibited|is prohibited|delete all copies|notify the sender|delete the original|\
    dissemination, distribution|binding and enforceable contract|disclose this communication";

/// "Mostly boilerplate": at least two distinct phrases, and not a long
/// paragraph that merely mentions them (≤ 60 words per hit).
fn is_disclaimer_text(text: &str) -> bool {
    let norm = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    let hits = BOILERPLATE.split('|').filter(|p| norm.contains(p)).count();
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
    let mobile = [
        "sent from my ",
        "sent via ",
        "sent from blackberry",
        "get outlook for ",
    ];
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
mod trailing_disclaimer_tests {
    use super::*;

    #[test]
    fn disclaimer_below_quoted_history_is_a_disclaimer() {
        let body = "Fine by me.\n\n-----Original Message-----\nFrom: A\nSent: Monday\nTo: B\nSubject: x\n\nquoted words\n\nThis message is confidential and may be privileged. If you are not the intended recipient, please notify the sender and delete it.\n";
        let segs = segment_body(body);
        let last = segs.last().expect("segments");
        assert_eq!(last.kind, SegmentKind::Disclaimer);
        assert!(body[last.start..last.end].contains("intended recipient"));
        assert!(segs.iter().any(|s| s.kind == SegmentKind::Quoted));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SegmentKind::*;

    /// Asserts the coverage invariants and returns the segments.
    fn check(body: &str) -> Vec<Segment> {
        let segs = segment_body(body);
        assert_eq!(segs.is_empty(), body.is_empty());
        if let (Some(first), Some(last)) = (segs.first(), segs.last()) {
            assert_eq!((first.start, last.end), (0, body.len()));
        }
        for w in segs.windows(2) {
            assert_eq!(w[0].end, w[1].start);
            assert_ne!(w[0].kind, w[1].kind, "unmerged neighbours");
        }
        for s in &segs {
            assert!(s.start < s.end);
            assert!(body.is_char_boundary(s.start) && body.is_char_boundary(s.end));
        }
        segs
    }

    fn kinds(body: &str) -> Vec<SegmentKind> {
        check(body).iter().map(|s| s.kind).collect()
    }

    /// Concatenated text of all segments of `kind`.
    fn text_of(body: &str, kind: SegmentKind) -> String {
        let segs = check(body);
        segs.iter()
            .filter(|s| s.kind == kind)
            .map(|s| &body[s.start..s.end])
            .collect()
    }

    /// Authored text contains every `|`-separated `keep` and none of `drop`.
    fn authored(body: &str, keep: &str, drop: &str) {
        let a = text_of(body, Authored);
        for k in keep.split('|').filter(|k| !k.is_empty()) {
            assert!(a.contains(k), "authored lacks {k:?}: {a:?}");
        }
        for d in drop.split('|').filter(|d| !d.is_empty()) {
            assert!(!a.contains(d), "authored has {d:?}: {a:?}");
        }
    }

    #[test]
    fn kind_helpers() {
        assert!(Authored.is_citable());
        assert!([Quoted, Forwarded, Signature, Disclaimer]
            .iter()
            .all(|k| !k.is_citable()));
        assert_eq!(
            (Disclaimer.label(), Forwarded.label()),
            ("disclaimer", "forwarded")
        );
    }

    #[test]
    fn empty_and_plain() {
        assert!(check("").is_empty());
        assert_eq!(kinds("Please send me your user id's\nThanks\n"), [Authored]);
    }

    #[test]
    fn lotus_forward_with_note_above() {
        let body = "Please send me your user id's\n---------------------- Forwarded by Ina Rangel/HOU/ECT on 04/26/2001 05:27 PM \n---------------------------\nFrom: Amanda Huble/ENRON@enronXgate on 04/24/2001 09:05 AM\nTo: Ina Rangel/HOU/ECT@ECT\ncc:  \nSubject: User Ids\n\nDo you happen to have the user ids for the following people?\n\nThank you,\n\nAmanda K. Huble \nGas Fundamentals \n";
        authored(
            body,
            "Please send me your user id's",
            "Forwarded|Do you|Amanda",
        );
        assert!(text_of(body, Forwarded).starts_with("----------------------"));
    }

    #[test]
    fn lotus_forward_only() {
        let body = "---------------------- Forwarded by Mike Carson/Corp/Enron on 08/07/2000 \n03:23 PM ---------------------------\n\n\nMike Carson\n07/31/2000 04:22 PM\nTo: John Zufferli/HOU/ECT@ECT, Matt Lorenz/HOU/ECT@ECT\ncc:  \n\nSubject: Baby Party/Shower\n\nSome friends of my wife and I are throwing a little bash\n";
        assert_eq!(kinds(body), [Forwarded]);
    }

    #[test]
    fn other_forward_markers() {
        for marker in [
            "---------- Forwarded message ---------",
            "Begin forwarded message:",
            "-----Forwarded Message-----",
            "----- Forwarded by Rex Shelby/Enron Communications on 12/13/00 08:05 AM -----",
        ] {
            let body = format!("FYI, see below.\n\n{marker}\nFrom: Bob\nThe board met today.\n");
            authored(&body, "FYI, see below.", "orwarded|board met");
            assert!(text_of(&body, Forwarded).contains("board met"));
        }
        // Prose mentioning a forward is not a marker.
        authored(
            "Note: forwarded message attached.\n",
            "forwarded message",
            "",
        );
    }

    #[test]
    fn original_message_chain() {
        let body = "Dear Pam:\n\nThank you for your e-mail of August 15th.\n\nSincerely,\n\nKen Lay\n\n\n\n -----Original Message-----\nFrom: \tPam.Allison@dynegy.com@ENRON\nSent:\tWednesday, August 15, 2001 5:39 PM\nTo:\tLay, Kenneth\nSubject:\tJeff's Leaving\n\nMr. Lay, the I am not writing this in malice\n\n-----Original Message-----\nFrom: Someone\nolder text\n";
        authored(
            body,
            "Thank you for your e-mail|Ken Lay",
            "Original|Pam.Allison|malice|older",
        );
        assert!(text_of(body, Quoted).contains("older text"));
        assert_eq!(kinds(body), [Authored, Quoted]);
    }

    #[test]
    fn original_message_variants() {
        let spaced = "Sounds good.\n\n----- Original Message ----- =20\nFrom: \"Bob\" <bob@x.com>\nIs Tuesday ok?\n";
        authored(spaced, "Sounds good.", "Original|Tuesday");
        let only = "-----Original Message-----\nFrom: Bob\nSent: Monday\nIs Tuesday ok?\n";
        assert_eq!(kinds(only), [Quoted]);
        authored("The original message was lost.\n", "original message", "");
    }

    #[test]
    fn on_wrote_with_quotes() {
        let body = "I agree with Gary.\n\nOn Mon, 23 Oct 2000, Rob.Bradley@enron.com wrote:\n\n> I dropped \"own\" before \"business life\" to reduce wordiness.\n> Is this now okay?\n";
        authored(body, "I agree with Gary.", "wrote:|wordiness|okay?");
        let wrapped = "Yes.\n\nOn Mon, Oct 23, 2000 at 9:05 AM, Robert Bradley\n<rob.bradley@enron.com> wrote:\nWe are getting very close.\n";
        authored(wrapped, "Yes.", "Robert Bradley|wrote:|very close");
        // Without `>` lines the attribution still starts quoted history.
        let bare =
            "Fine by me.\n\nOn Tue, Jan 2, 2001 at 10:00, Jeff wrote:\nCan you review the deck?\n";
        authored(bare, "Fine by me.", "Jeff wrote:|review the deck");
    }

    #[test]
    fn plain_wrote_line() {
        // "Ken wrote:" introduces Ken's own text in Enron sent mail; no `>` follows.
        let own =
            "Ken wrote:\n\nSharon/Janelle -\n\nI would prefer that we just absorb these costs.\n";
        assert_eq!(kinds(own), [Authored]);
        let quoted =
            "Thanks Grace.\n\nRob.Bradley@enron.com wrote:\n\n> We are getting very close.\n";
        authored(quoted, "Thanks Grace.", "Rob.Bradley|very close");
    }

    #[test]
    fn interleaved_reply() {
        let body = "Hi Rob,\n\n> Can you make the 3pm call?\nYes, I will dial in.\n\n> Should we invite Gary?\n> He asked about it.\nNo, not this time.\n\nKen\n";
        let keep = "Hi Rob,|Yes, I will dial in.|No, not this time.|Ken";
        authored(body, keep, "3pm call|invite Gary|asked about");
        assert_eq!(kinds(body), [Authored, Quoted, Authored, Quoted, Authored]);
        assert_eq!(kinds("> line one\n> line two\n>\n> line three\n"), [Quoted]);
    }

    #[test]
    fn outlook_blocks() {
        let body = "Approved.\n\n________________________________\nFrom: Lynda Phinney\nSent: Tuesday, May 1, 2001 9:15 AM\nTo: Kenneth Lay\nSubject: Expense report\n\nPlease approve the attached report.\n";
        authored(body, "Approved.", "____|Lynda|approve the attached");
        let tight = "Approved.\nFrom: Lynda Phinney\nSent: Tuesday, May 1, 2001 9:15 AM\nTo: Kenneth Lay\nPlease approve.\n";
        authored(tight, "Approved.", "Lynda|Please approve");
        let enron = "Liz, see the note below.\n\nFrom: BROWN_MARY_JO@LILLY.COM\nDate: Mon, 23 Oct 2000 09:49:15 -0500\nTo: Kenneth Lay\nSubject: Debate\n\nThe debate was great.\n";
        authored(
            enron,
            "see the note below",
            "BROWN_MARY_JO|debate was great",
        );
    }

    #[test]
    fn memo_headers_at_top_stay_authored() {
        let memo = "To: All Employees\nFrom: Ken Lay\nDate: November 13, 2000\nSubject: United Way\ncc: HR\n\nThe campaign starts today.\n";
        assert_eq!(kinds(memo), [Authored]);
        let memo2 = "From:         Lou Cordia\nDate:         November 13, 2000\nRe:            President Bush or President Gore?\n\nText.\n";
        assert_eq!(kinds(memo2), [Authored]);
    }

    #[test]
    fn lotus_reply_headers() {
        let inline = "I would prefer that we just absorb these costs.\n\nKen \n\n\nSharon Lay <sharon@travelpark.com> on 01/12/2000 07:16:42 PM\nTo: \"'jhduncan@aol.com'\" <jhduncan@aol.com>\ncc: Janelle Daniel <janelle@travelpark.com>\nSubject: Final items of the MC\n\nHello John,\n";
        authored(inline, "absorb these costs|Ken", "Sharon Lay|Hello John");
        let stacked = "Jeff, I'd be glad to.\n\n\n\n\nJeffrey McClellan@ECT\n08/31/2000 10:55 AM\nTo: Kenneth Lay/Corp/Enron@ENRON\ncc: Tori L Wells/HOU/ECT@ECT\nSubject: Speaking invitation\n\nWould you speak at the Gathering Place?\n";
        authored(stacked, "glad to.", "McClellan|08/31/2000|Gathering Place");
        let sent_by = "Thanks.\n\nKen Lay@ENRON\nSent by: Enron Announcements@ENRON\n12/13/00 06:01 AM\n\t\t To: All Enron Worldwide\nSuccession Plan\n";
        authored(sent_by, "Thanks.", "Announcements|Succession");
        let gap = "Count me in.\n\nGayla E Seiter @ ENRON_DEVELOPMENT   11/15/2000 08:21 AM\n\nTo: Kenneth Lay/Corp/Enron@ENRON\ncc:  \nSubject: EECC HOLIDAY PARTY\n";
        authored(gap, "Count me in.", "Gayla|HOLIDAY");
        let wrapped = "Rosie\n\n\"PERSHING Jonathan, IEA/LTO\" <Jonathan.PERSHING@iea.org> on 04/24/2001 \n11:08:56 AM\nTo: \"'Kenneth.Lay@enron.com'\" <Kenneth.Lay@enron.com>\ncc:  \nSubject: RE: IEA ministerial\n";
        authored(wrapped, "Rosie", "PERSHING|11:08:56|ministerial");
        let to_cc = "Mike, Ken is not attending.  Thanks.\n\nRosie\n\n\nTo: Kenneth Lay/Corp/Enron@ENRON, Jeff Skilling/Corp/Enron@ENRON, Joseph W \nSutton@Enron\ncc: Steven J Kean/NA/Enron@Enron \nSubject: World Economic Forum, Melbourne, Australia\n\nThe next World Economic Forum will be held September 11-13 in Melbourne.\n";
        authored(to_cc, "not attending|Rosie", "Skilling|Melbourne");
    }

    #[test]
    fn dash_signature() {
        let body = "See you at the meeting.\n\n-- \nJames M. Tour\nChao Professor of Chemistry\nRice University\n";
        authored(body, "See you at the meeting.", "Tour|Chemistry");
        assert!(text_of(body, Signature).starts_with("-- \n"));
        // "-- Rex" is a sign-off, not a delimiter.
        assert_eq!(kinds("Best regards.\n\n-- Rex\n"), [Authored]);
        // A long tail after "--" is not a signature.
        assert_eq!(
            kinds(&format!("Intro.\n--\n{}", "real content line\n".repeat(20))),
            [Authored]
        );
    }

    #[test]
    fn signature_stops_at_quote() {
        let body = "Will do.\n-- \nMary Brown\nAssistant to the Chief Executive\n\n-----Original Message-----\nFrom: Ken\nPlease call.\n";
        assert_eq!(kinds(body), [Authored, Signature, Quoted]);
        let mobile = "On my way.\n\nSent from my BlackBerry Wireless Handheld\n\nOn Fri, Bob wrote:\n> where are you?\n";
        authored(mobile, "On my way.", "BlackBerry|where are you");
        assert!(text_of(mobile, Signature).contains("BlackBerry"));
    }

    #[test]
    fn enron_banner_disclaimer() {
        let body = "Lynda, thanks for the numbers.\n   713-215-3520 \n********************************************************************** \nThis e-mail is the property of Enron Corp. and/or its relevant affiliate \nand may contain confidential and privileged material for the sole use of \nthe intended recipient (s). Any review, use, distribution or disclosure \nby others is strictly prohibited. If you are not the intended recipient \n(or authorized to receive for the recipient), please contact the sender \nor reply to Enron Corp. at enron.messaging.administration@enron.com and \ndelete all copies of the message.\n**********************************************************************\n";
        authored(
            body,
            "thanks for the numbers|713-215-3520",
            "property of|****|delete all",
        );
        assert_eq!(kinds(body), [Authored, Disclaimer]);
    }

    #[test]
    fn plain_disclaimer_paragraph() {
        let body = "The filing is due Friday.\n\nThe information contained in this transmission may contain\nprivileged and confidential information and is intended only\nfor the use of the person(s) named above. If you are not the\nintended recipient, any review, dissemination, distribution or\nduplication of this communication is strictly prohibited.\n";
        authored(body, "due Friday", "privileged|strictly prohibited");
        // A single mention in normal prose stays authored.
        let prose =
            "If you are not the intended recipient of the gift basket, please tell Sheri.\n";
        assert_eq!(kinds(prose), [Authored]);
    }

    #[test]
    fn disclaimer_after_interleaved_quote() {
        let body = "Got it.\n\n> Art\n>  \n**********************************************************************\nThis message is for the designated recipient only and may contain privileged information. If you have received it in error, please notify the sender immediately and delete the original.\n**********************************************************************\n";
        authored(body, "Got it.", "Art|designated|****");
        assert_eq!(kinds(body), [Authored, Quoted, Disclaimer]);
    }

    #[test]
    fn crlf_body() {
        let body = "Sounds good, thanks.\r\n\r\n-----Original Message-----\r\nFrom: Bob\r\nSent: Monday\r\nTo: Ken\r\n\r\nLunch?\r\n";
        authored(body, "Sounds good, thanks.\r\n", "Original|Lunch?");
        assert_eq!(
            text_of("Done.\r\n-- \r\nKen\r\n", Signature),
            "-- \r\nKen\r\n"
        );
    }

    #[test]
    fn non_ascii() {
        let body = "Grüße aus München — das Angebot steht. 日本語テキスト\n\n-----Ursprüngliche Nachricht-----\nVon: Jörg\nKönnen Sie das prüfen? ✓\n";
        authored(
            body,
            "Grüße aus München|日本語テキスト",
            "Ursprüngliche|Jörg",
        );
        assert!(text_of(body, Quoted).contains("prüfen? ✓"));
    }

    /// Odd inputs, `|`-separated.
    const ODD: &str =
        "\n|\n\n\n|\r\n|\r| |a|>|--|-- \n|é|日本|🦀\n🦀|On\nwrote:|From:\nSent:\nTo:|\
        1/1/00 1:00 AM\nTo:|x on 1/1/2000 1:1|x on 12/31/2000 11:59:5 PM\nTo: y|x on 1/1/2000\n|\
        *************|**********\n**********|\n\n-----Original Message-----|Sent from my iPhone|\
        Begin forwarded message:|ü\r\n\r\n-- \r\nü|To:\ncc:\nSubject:|\n\nTo: a\ncc: b\nSubject: c";

    #[test]
    fn coverage_on_odd_inputs() {
        let (long, uni) = ("x".repeat(100_000), "é—€".repeat(20_000));
        let mut inputs: Vec<String> = ODD.split('|').map(String::from).collect();
        inputs.push(long);
        inputs.push(format!("{uni}\n> {uni}\n{uni}\n\n-- \n{uni}"));
        let pieces = [
            "a\n",
            "\n",
            "> q\n",
            "-- \n",
            "é ",
            "On x wrote:\n",
            "*********************\n",
            "If you are not the intended recipient, strictly prohibited. ",
            "From: a\nSent: b\nTo: c\n",
            "----- Forwarded by A/HOU/ECT on 1/2/2000 01:02 PM -----\n",
            "\r\n",
            "日本語",
            "N\n1/2/03 4:05 PM\n",
        ];
        let mut seed = 7u64;
        for _ in 0..500 {
            let mut s = String::new();
            for _ in 0..(seed % 14) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            inputs.push(s);
        }
        for input in &inputs {
            check(input);
        }
    }

    #[test]
    fn t5_enron_corpus_invariants() {
        let dir = std::path::Path::new("/work/shared/data/qa/t5-enron/emails");
        let Ok(entries) = std::fs::read_dir(dir) else {
            eprintln!("skipping: {} not present", dir.display());
            return;
        };
        let mut n = 0;
        for path in entries.flatten().map(|e| e.path()) {
            let raw =
                String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()).into_owned();
            let norm = raw.replace("\r\n", "\n");
            let body = norm.split_once("\n\n").map_or("", |(_, b)| b);
            check(body);
            check(&body.replace('\n', "\r\n"));
            n += 1;
        }
        eprintln!("checked {n} corpus bodies");
    }
}
