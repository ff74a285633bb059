//! What kinds of value a piece of text states, and where: dates and times, sums of
//! money and other quantities, names of people and organisations, places, phone
//! numbers, email addresses and codes. General detectors, written once for any
//! mailbox: they give the evidence selector its answer-type features, cut the short
//! answer out of a quoted sentence, and let the validator check a claim's numbers
//! and names against its quote.

use crate::lexicon::{
    focus_type, month_number, FocusType, MONEY_WORDS, NUMBER_WORDS, ORG_SUFFIXES, PLACE_ENDS,
    PLACE_STARTS, QUANTITY_UNITS, STOP_WORDS, TIME_WORDS, TITLES,
};
use crate::query::question::AnswerKind;
use std::collections::HashSet;
use std::ops::Range;

/// A typed value found in a text, as a byte range of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub kind: AnswerKind,
    pub span: Range<usize>,
}

/// One word of a text with its byte range, punctuation trimmed.
#[derive(Debug, Clone)]
struct Token<'a> {
    text: &'a str,
    span: Range<usize>,
    /// The raw whitespace-separated piece it came from ended a sentence.
    ends_sentence: bool,
}

fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut pos = 0;
    for piece in text.split_inclusive(char::is_whitespace) {
        let start = pos;
        pos += piece.len();
        let raw = piece.trim_end();
        let lead = raw.len() - raw.trim_start_matches(is_edge_punct).len();
        let inner = raw.trim_matches(is_edge_punct);
        if inner.is_empty() {
            continue;
        }
        let s = start + lead;
        out.push(Token {
            text: inner,
            span: s..s + inner.len(),
            ends_sentence: raw.ends_with(['.', '!', '?', ':']),
        });
    }
    out
}

fn is_edge_punct(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | ','
            | ';'
            | ':'
            | '!'
            | '?'
            | '.'
            | '*'
            | '<'
            | '>'
            | '\u{201C}'
            | '\u{201D}'
            | '\u{2018}'
            | '\u{2019}'
    )
}

/// Every typed value of `text`. `known_people` holds lowercased name parts of people
/// the mailbox knows (senders, recipients, people the question names): a capitalised
/// run holding one is a person.
pub fn find_all(text: &str, known_people: &HashSet<String>) -> Vec<Found> {
    let toks = tokens(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some((kind, len)) = typed_at(&toks, i) {
            let span = toks[i].span.start..toks[i + len - 1].span.end;
            out.push(Found { kind, span });
            i += len;
            continue;
        }
        i += 1;
    }
    out.extend(names(text, &toks, known_people));
    out.sort_by_key(|f| (f.span.start, f.span.end));
    out
}

/// Whether `text` states a value of `kind`.
pub fn has_kind(found: &[Found], kind: AnswerKind) -> bool {
    found.iter().any(|f| f.kind == kind)
}

/// Words that state a clock time without digits.
const CLOCK_WORDS: &[&str] = &["noon", "midnight", "o'clock", "oclock"];

/// An office extension or a short number to dial: four or more digits, grouped or
/// marked ("3-1177", "x1177", "ext. 5-4410"), or five and more alone ("31177"); a
/// year is not one.
fn is_extension(t: &str) -> bool {
    let bare = t.trim_start_matches(['x', 'X']);
    let digits = bare.chars().filter(char::is_ascii_digit).count();
    let shaped = bare
        .chars()
        .all(|c| c.is_ascii_digit() || c == '-' || c == '.');
    let marked = bare.len() < t.len() || bare.contains(['-', '.']);
    shaped && (digits >= 5 || digits == 4 && marked)
}

/// Whether `text` states a value of one of `kinds`. A clock time may also be a
/// word ("at noon", "8 o'clock") or one end of a range ("2:30-3:30 pm"); a phone
/// number may be an office extension.
pub fn states_any(text: &str, kinds: &[AnswerKind]) -> bool {
    let states = |text: &str| {
        let found = find_all(text, &HashSet::new());
        kinds.iter().any(|&k| has_kind(&found, k))
    };
    states(text)
        || kinds.contains(&AnswerKind::Time) && states(&text.replace(['-', '\u{2013}'], " "))
        || kinds.contains(&AnswerKind::Phone) && tokens(text).iter().any(|t| is_extension(t.text))
        || kinds.contains(&AnswerKind::Money) && (labels_a_sum(text) || states_a_share_of(text))
        || kinds.contains(&AnswerKind::Time)
            && tokens(text)
                .iter()
                .any(|t| CLOCK_WORDS.contains(&t.text.to_lowercase().as_str()))
}

/// Whether `text` gives a bare figure under a label that names a sum of money: a
/// field or spreadsheet cell such as "Salary budget: 72000" or "Price: 14.50", whose
/// label's last word is a money noun, states a sum without a currency sign.
fn labels_a_sum(text: &str) -> bool {
    text.split([';', '\n']).any(|field| {
        let Some((label, value)) = field.split_once(':') else {
            return false;
        };
        let head = label.split_whitespace().last().map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        });
        let figure = value.split_whitespace().next().is_some_and(is_number);
        figure && head.is_some_and(|h| focus_type(&h) == Some(FocusType::Money))
    })
}

/// Whether `text` gives a sum as a share of another ("18% of first-year salary",
/// "5 percent of the contract value"): a fee, commission or deposit so stated
/// answers how much it is.
fn states_a_share_of(text: &str) -> bool {
    let toks = tokens(text);
    toks.windows(2).enumerate().any(|(i, w)| {
        let lower = w[1].text.to_lowercase();
        let share = w[0].text.ends_with('%') && is_number(w[0].text.trim_end_matches('%'));
        let worded = is_number(w[0].text) && lower == "percent";
        share && lower == "of"
            || worded
                && toks
                    .get(i + 2)
                    .is_some_and(|t| t.text.eq_ignore_ascii_case("of"))
    })
}

/// A non-name value starting at token `i`: its kind and token count.
fn typed_at(toks: &[Token], i: usize) -> Option<(AnswerKind, usize)> {
    let t = toks[i].text;
    let lower = t.to_lowercase();
    let next = toks.get(i + 1).map(|t| t.text.to_lowercase());
    if t.contains('@') && t.contains('.') && !t.starts_with('@') {
        return Some((AnswerKind::Email, 1));
    }
    if is_phone(t) || (t.starts_with('(') && next.as_deref().is_some_and(is_phone)) {
        return Some((AnswerKind::Phone, 1));
    }
    if let Some(n) = spaced_phone(&toks[i..]) {
        return Some((AnswerKind::Phone, n));
    }
    if is_money_token(t) {
        let unit = next
            .as_deref()
            .is_some_and(|n| matches!(n, "million" | "billion" | "thousand" | "k" | "mm"));
        return Some((AnswerKind::Money, 1 + usize::from(unit)));
    }
    let ampm_next = next
        .as_deref()
        .is_some_and(|n| n == "am" || n == "pm" || n == "a.m" || n == "p.m");
    if is_time(&lower) || (is_number(t) && ampm_next) {
        // "4:30 PM" and "4 pm" are one time; "4:30pm" is one word already.
        return Some((AnswerKind::Time, 1 + usize::from(ampm_next)));
    }
    if month_number(&lower).is_some() && (lower.len() > 3 || toks[i].text.len() == 3) {
        // "March 14", "March 14, 2001", "14 March", "March 2001"; "may" alone is a verb.
        let mut len = 1;
        while let Some(n) = toks.get(i + len) {
            let d = n.text.trim_end_matches(|c: char| c.is_alphabetic());
            if d.len() <= 4 && !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()) {
                len += 1;
            } else {
                break;
            }
            if len == 3 {
                break;
            }
        }
        if len > 1 || lower != "may" {
            return Some((AnswerKind::Date, len));
        }
    }
    if is_numeric_date(t) {
        return Some((AnswerKind::Date, 1));
    }
    if TIME_WORDS.contains(&lower.as_str()) && lower.len() > 2 {
        return Some((AnswerKind::Date, 1));
    }
    if is_year(t) {
        return Some((AnswerKind::Date, 1));
    }
    if t.ends_with('%') && is_number(t.trim_end_matches('%')) {
        return Some((AnswerKind::Quantity, 1));
    }
    if is_code(t) {
        return Some((AnswerKind::Code, 1));
    }
    if is_number(t) || NUMBER_WORDS.contains(&lower.as_str()) {
        let unit = next.as_deref().filter(|n| {
            QUANTITY_UNITS.contains(n) || MONEY_WORDS.contains(n) || *n == "percent" || *n == "%"
        });
        if let Some(u) = unit {
            let kind = if MONEY_WORDS.contains(&u) {
                AnswerKind::Money
            } else {
                AnswerKind::Quantity
            };
            return Some((kind, 2));
        }
        // A bare figure with separators (1,250 / 2.5) is a quantity; a bare 46913
        // may be a zip code or a flight.
        if t.contains([',', '.']) && t.chars().any(|c| c.is_ascii_digit()) || t.len() <= 3 {
            return Some((AnswerKind::Quantity, 1));
        }
    }
    None
}

/// Capitalised runs past a sentence's start: people (known name parts, or a title
/// before them), organisations (a company suffix), and places after "in", "at", "to".
fn names(text: &str, toks: &[Token], known_people: &HashSet<String>) -> Vec<Found> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut sentence_start = true;
    while i < toks.len() {
        let start_ok = !sentence_start || known_people.contains(&toks[i].text.to_lowercase());
        if start_ok && is_capitalised(toks[i].text) && !is_common(toks[i].text) {
            let mut j = i + 1;
            while j < toks.len()
                && !toks[j - 1].ends_sentence
                && (is_capitalised(toks[j].text) || is_initial(toks[j].text))
                && j - i < 5
            {
                j += 1;
            }
            let run: Vec<&str> = toks[i..j].iter().map(|t| t.text).collect();
            let lower_run: Vec<String> = run.iter().map(|w| w.to_lowercase()).collect();
            let prev = i
                .checked_sub(1)
                .map(|p| toks[p].text.to_lowercase())
                .unwrap_or_default();
            let last = lower_run.last().map(|w| w.trim_end_matches('.'));
            let first = lower_run.first().map(String::as_str);
            let kind = if last.is_some_and(|w| ORG_SUFFIXES.contains(&w)) {
                AnswerKind::Organization
            } else if lower_run.iter().any(|w| known_people.contains(w))
                || TITLES.contains(&prev.trim_end_matches('.'))
            {
                AnswerKind::Person
            } else if run.len() >= 2
                && (last.is_some_and(|w| PLACE_ENDS.contains(&w))
                    || first.is_some_and(|w| PLACE_STARTS.contains(&w)))
                || matches!(prev.as_str(), "in" | "at" | "to" | "from" | "near") && run.len() <= 3
            {
                AnswerKind::Place
            } else if run.len() >= 2 {
                AnswerKind::Person
            } else {
                AnswerKind::Organization
            };
            let span = toks[i].span.start..toks[j - 1].span.end;
            if text.get(span.clone()).is_some() {
                out.push(Found { kind, span });
            }
            sentence_start = toks[j - 1].ends_sentence;
            i = j;
            continue;
        }
        sentence_start = toks[i].ends_sentence;
        i += 1;
    }
    out
}

fn is_capitalised(w: &str) -> bool {
    let mut chars = w.chars();
    chars.next().is_some_and(char::is_uppercase)
        && w.chars().any(char::is_lowercase)
        && w.chars()
            .all(|c| c.is_alphabetic() || c == '-' || c == '\'' || c == '.')
}

fn is_initial(w: &str) -> bool {
    let b = w.as_bytes();
    (b.len() == 1 || (b.len() == 2 && b[1] == b'.')) && b[0].is_ascii_uppercase()
}

fn is_common(w: &str) -> bool {
    let lower = w.to_lowercase();
    STOP_WORDS.contains(&lower.as_str())
        || month_number(&lower).is_some()
        || TIME_WORDS.contains(&lower.as_str())
        || lower == "i"
        // "I'm", "I've", "I'll", "I'd": the writer, not a name.
        || lower.starts_with("i'")
        || lower.starts_with("i\u{2019}")
}

fn is_number(t: &str) -> bool {
    let t = t.trim_start_matches(['+', '-']);
    !t.is_empty()
        && t.chars().next().is_some_and(|c| c.is_ascii_digit())
        && t.chars()
            .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
}

fn is_money_token(t: &str) -> bool {
    let body = t
        .strip_prefix(['$', '€', '£'])
        .or_else(|| t.strip_prefix("US$"));
    match body {
        Some(b) => {
            let b = b.trim_end_matches(['k', 'K', 'm', 'M']);
            let first = b.split(['-', '/']).next().unwrap_or("");
            is_number(first)
        }
        None => false,
    }
}

fn is_phone(t: &str) -> bool {
    let digits = t.chars().filter(char::is_ascii_digit).count();
    let shaped = t
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '-' | '.' | '(' | ')' | '+' | ' '));
    let groups = t.split(['-', '.', ')']).filter(|g| !g.is_empty()).count();
    shaped && (10..=13).contains(&digits) && groups >= 3
        || shaped && digits == 7 && groups == 2 && t.contains('-')
}

/// A phone number written in groups of digits parted by spaces at the start of
/// `toks` ("713 853 9123", "+44 20 7946 0958", "(713) 853 9123"): its token count.
/// Ten to thirteen digits in three to five groups, the last of four digits; a run
/// of four-digit groups alone (years in a row) is not one.
fn spaced_phone(toks: &[Token]) -> Option<usize> {
    let mut groups: Vec<(usize, bool)> = Vec::new();
    for tok in toks.iter().take(5) {
        let marked = tok.text.starts_with(['+', '(']);
        let digits = tok
            .text
            .trim_start_matches(['+', '('])
            .trim_end_matches(')');
        if digits.is_empty() || digits.len() > 4 || !digits.chars().all(|c| c.is_ascii_digit()) {
            break;
        }
        groups.push((digits.len(), marked));
        if tok.ends_sentence {
            break;
        }
    }
    (3..=groups.len()).rev().find(|&n| {
        let g = &groups[..n];
        let total: usize = g.iter().map(|(len, _)| len).sum();
        let (first, first_marked) = g[0];
        (10..=13).contains(&total)
            && g[n - 1].0 == 4
            && g[1..].iter().all(|(len, _)| *len >= 2)
            && (first >= 2 || first_marked || toks[0].text == "1")
            && !g.iter().all(|(len, _)| *len == 4)
    })
}

fn is_time(lower: &str) -> bool {
    let core = lower
        .trim_end_matches("am")
        .trim_end_matches("pm")
        .trim_end_matches("a.m")
        .trim_end_matches("p.m");
    match core.split_once(':') {
        Some((h, m)) => {
            !h.is_empty()
                && h.len() <= 2
                && m.len() == 2
                && h.chars().all(|c| c.is_ascii_digit())
                && m.chars().all(|c| c.is_ascii_digit())
        }
        None => {
            core.len() < lower.len() && !core.is_empty() && core.chars().all(|c| c.is_ascii_digit())
        }
    }
}

fn is_numeric_date(w: &str) -> bool {
    let parts: Vec<&str> = w.split(['/', '-']).collect();
    (parts.len() == 2 || parts.len() == 3)
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 4 && p.chars().all(|c| c.is_ascii_digit()))
        && parts.iter().filter(|p| p.len() == 4).count() <= 1
}

fn is_year(w: &str) -> bool {
    w.len() == 4
        && w.chars().all(|c| c.is_ascii_digit())
        && (w.starts_with("19") || w.starts_with("20"))
}

/// A code of letters and digits ("KX27D4", "N512QX", "#2", "12F").
fn is_code(w: &str) -> bool {
    let bare = w.trim_start_matches('#');
    if w.starts_with('#') && !bare.is_empty() && bare.chars().all(|c| c.is_alphanumeric()) {
        return true;
    }
    bare.len() >= 2
        && bare.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && bare.chars().any(|c| c.is_ascii_digit())
        && bare.chars().any(|c| c.is_ascii_uppercase())
}

/// Numbers in the text, normalised (thousands separators and a leading `$` removed),
/// for comparing a claim with its quote.
pub fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let inner_sep = (c == ',' || c == '.')
            && !cur.is_empty()
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_ascii_digit() {
            cur.push(c);
        } else if inner_sep {
            if c == '.' {
                cur.push('.');
            }
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Capitalised words that are not at the start of a sentence: likely names of people,
/// places and companies.
pub fn proper_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut sentence_start = true;
    for raw in text.split_whitespace() {
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric());
        let capital = w.chars().next().is_some_and(|c| c.is_uppercase())
            && w.chars().skip(1).any(|c| c.is_lowercase());
        if capital && !sentence_start && w.len() > 1 {
            out.push(w.to_string());
        }
        sentence_start = raw.ends_with(['.', '!', '?', ':']);
    }
    out
}

#[cfg(test)]
#[path = "detect_tests.rs"]
mod tests;
