//! A person's card in mail: the block of short lines that signs a message or hands
//! on a contact ("Dana Reyes / Site Manager / Kestrel Freight / Cell: 617 555 0199").
//! A question about someone's job title or telephone number is answered by a line of
//! their card, quoted as written. A card is a signature block (after `-- `), or a run
//! of short lines anywhere else in the body that starts with a name and holds a title
//! or a telephone line; prose never makes one.

use super::clean::{Segment, SegmentKind};
use crate::lexicon::{
    DESK_PHONE_LABELS, FAX_LABELS, GREETINGS_AND_SIGNOFFS, HEADER_LABELS, JOB_TITLE_WORDS,
    MOBILE_PHONE_LABELS, ORG_SUFFIXES, ORIGINAL_MESSAGE_PHRASES,
};

/// Lines a card may hold after its name line.
const MOST_LINES: usize = 10;
/// A card's lines are short; a longer line is prose.
const LONGEST_LINE: usize = 80;
/// Digits a telephone number has, at least and at most (country code included).
const PHONE_DIGITS: (usize, usize) = (7, 15);
/// Most words of a title line.
const TITLE_WORDS: usize = 6;

/// One card: byte ranges into the body it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// The line naming the person, when the card has one.
    pub name: Option<(usize, usize)>,
    pub lines: Vec<CardLine>,
    /// A signature block: the card of the message's sender, named or not.
    pub signature: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CardLine {
    /// The line, trimmed.
    pub range: (usize, usize),
    pub field: Field,
}

/// What a card line gives.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    Title,
    /// Telephone numbers, each with the kind its label gives.
    Phone(Vec<Phone>),
    /// An address, an organisation, a web or mail address, or a line not recognised.
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Phone {
    pub kind: PhoneKind,
    pub range: (usize, usize),
}

/// The kind of telephone line a label names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhoneKind {
    Mobile,
    Fax,
    Desk,
    Unlabelled,
}

impl Card {
    /// From its name line (or first line) to its last line.
    pub fn span(&self) -> (usize, usize) {
        let first = self
            .name
            .or_else(|| self.lines.first().map(|l| l.range))
            .unwrap_or((0, 0));
        let last = self.lines.last().map(|l| l.range.1).unwrap_or(first.1);
        (first.0, last)
    }

    /// The first job title line.
    pub fn title(&self) -> Option<&CardLine> {
        self.lines.iter().find(|l| l.field == Field::Title)
    }

    /// The number of the kind asked for, with its line: `Unlabelled` asks for any
    /// line to call (a desk or unlabelled one first, a mobile next, never a fax).
    pub fn phone(&self, asked: PhoneKind) -> Option<(&CardLine, Phone)> {
        let order: &[PhoneKind] = match asked {
            PhoneKind::Mobile => &[PhoneKind::Mobile],
            PhoneKind::Fax => &[PhoneKind::Fax],
            PhoneKind::Desk => &[PhoneKind::Desk, PhoneKind::Unlabelled],
            PhoneKind::Unlabelled => &[PhoneKind::Desk, PhoneKind::Unlabelled, PhoneKind::Mobile],
        };
        order.iter().find_map(|want| {
            self.lines.iter().find_map(|l| match &l.field {
                Field::Phone(numbers) => numbers.iter().find(|p| p.kind == *want).map(|p| (l, *p)),
                _ => None,
            })
        })
    }
}

/// The cards of a body whose segments are `segments`: each signature block that
/// gives a title or a number, then each run of card lines that starts with a name in
/// the rest of the body (disclaimers aside).
pub fn cards(body: &str, segments: &[Segment]) -> Vec<Card> {
    let lines = lines(body);
    let kind_at = |at: usize| {
        segments
            .iter()
            .find(|s| s.start <= at && at < s.end)
            .map(|s| s.kind)
    };
    let mut out = Vec::new();
    // Signature blocks.
    for seg in segments.iter().filter(|s| s.kind == SegmentKind::Signature) {
        let inside: Vec<(usize, usize)> = lines
            .iter()
            .copied()
            .filter(|&(a, b)| a >= seg.start && b <= seg.end && a < b)
            .filter(|&(a, b)| body[a..b].trim_end() != "--")
            .collect();
        let Some(&first) = inside.first() else {
            continue;
        };
        let named = is_name_line(&body[first.0..first.1]);
        let rest = if named { &inside[1..] } else { &inside[..] };
        let card = Card {
            name: named.then_some(first),
            lines: rest.iter().map(|&r| card_line(body, r)).collect(),
            signature: true,
        };
        if gives_something(&card) {
            out.push(card);
        }
    }
    // Cards in the text: a name line, then short lines.
    let mut i = 0;
    while i < lines.len() {
        let (a, b) = lines[i];
        let free = !matches!(
            kind_at(a),
            Some(SegmentKind::Signature | SegmentKind::Disclaimer)
        );
        if !(free && a < b && is_name_line(&body[a..b])) {
            i += 1;
            continue;
        }
        let mut card = Card {
            name: Some((a, b)),
            lines: Vec::new(),
            signature: false,
        };
        let mut j = i + 1;
        let mut blanks = 0;
        while j < lines.len() && card.lines.len() < MOST_LINES {
            let (c, d) = lines[j];
            if c == d {
                blanks += 1;
                if blanks > 1 {
                    break;
                }
                j += 1;
                continue;
            }
            let text = &body[c..d];
            if is_prose(text) || ends_card(text) || kind_at(c) != kind_at(a) || is_name_line(text) {
                break;
            }
            blanks = 0;
            card.lines.push(card_line(body, (c, d)));
            j += 1;
        }
        if gives_something(&card) {
            out.push(card);
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether a card holds a title or a number.
fn gives_something(card: &Card) -> bool {
    card.lines
        .iter()
        .any(|l| matches!(l.field, Field::Title | Field::Phone(_)))
}

/// Each line's byte range, trimmed (an empty range for a blank line).
fn lines(body: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in body.split_inclusive('\n') {
        let lead = line.len() - line.trim_start().len();
        let text = line.trim();
        let a = if text.is_empty() { start } else { start + lead };
        out.push((a, a + text.len()));
        start += line.len();
    }
    out
}

/// A line of one to four capitalised words, with no digit, that is not a greeting
/// or a sign-off, a title, or an organisation ("Dana Reyes", "Jo K. Lin").
pub fn is_name_line(line: &str) -> bool {
    let line = line.trim().trim_end_matches(',');
    let words: Vec<&str> = line.split_whitespace().collect();
    // Words set apart by runs of spaces are columns, not a name.
    if words.is_empty() || words.len() > 4 || line.len() > 40 || line.contains("  ") {
        return false;
    }
    let lower = line.to_lowercase();
    if GREETINGS_AND_SIGNOFFS
        .iter()
        .any(|g| lower == *g || lower.starts_with(&format!("{g} ")))
    {
        return false;
    }
    words.iter().all(|w| {
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
        let lw = bare.to_lowercase();
        w.chars().next().is_some_and(char::is_uppercase)
            && w.chars()
                .all(|c| c.is_alphabetic() || matches!(c, '.' | '-' | '\''))
            && !JOB_TITLE_WORDS.contains(&lw.as_str())
            && !ORG_SUFFIXES.contains(&lw.as_str())
            && !NOT_IN_NAMES.contains(&lw.as_str())
    })
}

/// Small words a heading has and a person's name does not ("Office of the Chair").
const NOT_IN_NAMES: &[&str] = &[
    "and", "of", "the", "for", "to", "in", "on", "at", "by", "with",
];

/// A line a card does not hold: a sentence of several words, or many words.
fn is_prose(line: &str) -> bool {
    let words = line.split_whitespace().count();
    line.len() > LONGEST_LINE
        || words > 9
        || (words >= 5 && line.trim_end().ends_with(['.', '!', '?', ':']))
}

/// A line after which a card cannot go on: a rule of punctuation, a quoted line, or
/// the header of an earlier message ("-----Original Message-----", "From: ...").
fn ends_card(line: &str) -> bool {
    let lower = line.to_lowercase();
    let label = lower
        .split_once(':')
        .is_some_and(|(head, _)| HEADER_LABELS.contains(&head.trim()));
    !line.chars().any(char::is_alphanumeric)
        || line.starts_with('>')
        || line.starts_with("<<")
        || label
        || ORIGINAL_MESSAGE_PHRASES.iter().any(|p| lower.contains(p))
}

fn card_line(body: &str, range: (usize, usize)) -> CardLine {
    let text = &body[range.0..range.1];
    let numbers = phone_numbers(text);
    let field = if !numbers.is_empty() {
        Field::Phone(
            numbers
                .into_iter()
                .map(|p| Phone {
                    kind: p.kind,
                    range: (range.0 + p.range.0, range.0 + p.range.1),
                })
                .collect(),
        )
    } else if is_title(text) {
        Field::Title
    } else {
        Field::Other
    };
    CardLine { range, field }
}

/// A line naming a job: no digit, no address, a few words, one of them a title's.
fn is_title(line: &str) -> bool {
    if line.chars().any(|c| c.is_ascii_digit()) || line.contains('@') || line.contains("www.") {
        return false;
    }
    let words: Vec<String> = line
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    (1..=TITLE_WORDS).contains(&words.len())
        && words.iter().any(|w| JOB_TITLE_WORDS.contains(&w.as_str()))
}

/// The telephone numbers of a line, each with the label nearest before it (or, with
/// none there, the one after it: "(713) 555-0142 (fax)"). A number written as one
/// run of digits counts only with a label; one in a web address never does.
pub fn phone_numbers(line: &str) -> Vec<Phone> {
    if line.contains("://") || line.to_lowercase().contains("www.") {
        return Vec::new();
    }
    let runs = number_runs(line);
    let mut out = Vec::with_capacity(runs.len());
    for (i, &(a, b)) in runs.iter().enumerate() {
        let before_from = if i == 0 { 0 } else { runs[i - 1].1 };
        let after_to = runs.get(i + 1).map_or(line.len(), |r| r.0);
        let label = label_kind(&line[before_from..a]).or_else(|| label_kind(&line[b..after_to]));
        let groups: Vec<usize> = line[a..b]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|g| !g.is_empty())
            .map(str::len)
            .collect();
        // A table's columns are set apart by runs of spaces.
        let plain = phone_shaped(&groups) && !line[a..b].contains("  ");
        if !(plain || label.is_some()) {
            continue;
        }
        out.push(Phone {
            kind: label.unwrap_or(PhoneKind::Unlabelled),
            range: (a, b),
        });
    }
    out
}

/// Whether digit groups are shaped like a telephone number's: "555-0142", "(713)
/// 555-0142", "+1 617 555 0199"; not a decimal ("2.9464 +0.1528"), a date
/// ("2024-03-05", "05 03 2024") or a time after one. A labelled number may have any
/// shape ("Tel: 01 23 45 67 89").
fn phone_shaped(groups: &[usize]) -> bool {
    match groups {
        [3, 4] => true,
        [first, rest @ ..] if rest.len() >= 2 => {
            let date = matches!(groups, [4, 1 | 2, 1 | 2] | [1 | 2, 1 | 2, 4]);
            let last = rest.last().copied().unwrap_or(0);
            *first <= 4 && rest.iter().all(|g| *g >= 2) && last >= 3 && !date
        }
        _ => false,
    }
}

/// The kind the last label word of `text` names.
fn label_kind(text: &str) -> Option<PhoneKind> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().rev().find_map(|w| {
        // One-letter labels only as labels: "c: 617 ...", "f. 617 ...".
        let single = w.len() == 1
            && lower
                .find(&format!("{w}:"))
                .or_else(|| lower.find(&format!("{w}.")))
                .is_none();
        if single {
            None
        } else if MOBILE_PHONE_LABELS.contains(w) {
            Some(PhoneKind::Mobile)
        } else if FAX_LABELS.contains(w) {
            Some(PhoneKind::Fax)
        } else if DESK_PHONE_LABELS.contains(w) {
            Some(PhoneKind::Desk)
        } else {
            None
        }
    })
}

/// Runs of digits, spaces and `+ ( ) - .` that start with a digit, `+` or `(`, end
/// with a digit and hold a telephone number's count of digits.
fn number_runs(line: &str) -> Vec<(usize, usize)> {
    let allowed = |c: char| c.is_ascii_digit() || matches!(c, ' ' | '+' | '(' | ')' | '-' | '.');
    let mut out = Vec::new();
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (a, c) = chars[i];
        let starts = c.is_ascii_digit() || c == '+' || c == '(';
        let joined = i > 0
            && (chars[i - 1].1.is_alphanumeric()
                || matches!(chars[i - 1].1, '=' | '/' | '&' | '?' | '#' | '_' | '$'));
        if !starts || joined {
            i += 1;
            continue;
        }
        let mut j = i;
        let mut end = None;
        let mut digits = 0;
        while j < chars.len() && allowed(chars[j].1) {
            if chars[j].1.is_ascii_digit() {
                digits += 1;
                end = Some(chars[j].0 + 1);
            }
            j += 1;
        }
        if let Some(b) = end {
            let followed_by_word = line[b..].chars().next().is_some_and(char::is_alphanumeric);
            if (PHONE_DIGITS.0..=PHONE_DIGITS.1).contains(&digits) && !followed_by_word {
                out.push((a, b));
            }
        }
        i = j.max(i + 1);
    }
    out
}

/// Whether a card's name line names the person whose name words (lowercase) are
/// `person`: every word of a one- or two-word name, or two words of a longer one
/// ("jo lin houston" finds "Jo K. Lin").
pub fn names_person(name_line: &str, person: &[String]) -> bool {
    let words = name_words(name_line);
    let found = person.iter().filter(|p| words.contains(p)).count();
    !person.is_empty() && found >= person.len().min(2)
}

/// Whether every word of a card's name line is a word of the person's name: a
/// signature with the first name alone ("Jo") under mail from Jo Lin.
pub fn is_part_of_name(name_line: &str, person: &[String]) -> bool {
    let words = name_words(name_line);
    !words.is_empty() && words.iter().all(|w| person.contains(w))
}

/// A name line's words of two letters or more, lowercase (initials left out).
fn name_words(name_line: &str) -> Vec<String> {
    name_line
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1)
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::clean::segment_body;

    fn text(body: &str, r: (usize, usize)) -> &str {
        &body[r.0..r.1]
    }

    #[test]
    fn a_signature_block_gives_its_title_and_numbers() {
        let body = "See you at the depot.\n\n-- \nDana Reyes\nSite Manager\nKestrel Freight\nOffice: +1 617 555 0100  Cell: +1 617 555 0199\n";
        let found = cards(body, &segment_body(body));
        assert_eq!(found.len(), 1, "{found:?}");
        let card = &found[0];
        assert!(card.signature);
        assert_eq!(card.name.map(|r| text(body, r)), Some("Dana Reyes"));
        assert_eq!(
            card.title().map(|l| text(body, l.range)),
            Some("Site Manager")
        );
        let (_, cell) = card.phone(PhoneKind::Mobile).expect("a mobile");
        assert_eq!(text(body, cell.range), "+1 617 555 0199");
        let (line, desk) = card.phone(PhoneKind::Unlabelled).expect("a number");
        assert_eq!(text(body, desk.range), "+1 617 555 0100");
        assert!(text(body, line.range).starts_with("Office:"));
        assert_eq!(card.phone(PhoneKind::Fax), None);
    }

    #[test]
    fn a_card_in_the_text_starts_with_a_name_line() {
        let body = "Here is who to call about the crane:\n\nMarta Quill\nYard Supervisor, North Pier\n(508) 555-0123 (fax)\n508.555.0124\n\nShe knows we are coming.\n";
        let found = cards(body, &segment_body(body));
        assert_eq!(found.len(), 1, "{found:?}");
        let card = &found[0];
        assert!(!card.signature);
        assert!(names_person(
            text(body, card.name.unwrap()),
            &["marta".into()]
        ));
        assert_eq!(
            card.title().map(|l| text(body, l.range)),
            Some("Yard Supervisor, North Pier")
        );
        let (_, fax) = card.phone(PhoneKind::Fax).expect("a fax");
        assert_eq!(text(body, fax.range), "(508) 555-0123");
        let (_, any) = card.phone(PhoneKind::Unlabelled).expect("a number");
        assert_eq!(text(body, any.range), "508.555.0124");
    }

    #[test]
    fn prose_sign_offs_and_dates_make_no_card() {
        for body in [
            "Thanks,\nOwen\n",
            "Best regards\nPlease call 617 555 0100 when you land.\n",
            "Owen Pratt\nwill send the minutes on 12/03/2024 after the board meets today.\n",
            "The manager said the order ships on 2024-03-05 from the north dock.\n",
        ] {
            assert!(cards(body, &segment_body(body)).is_empty(), "{body:?}");
        }
        assert!(phone_numbers("Invoice 4417 of 2024").is_empty());
        assert!(phone_numbers("order AB1234567").is_empty());
    }

    #[test]
    fn decimals_dates_and_web_addresses_are_not_numbers_to_call() {
        for line in [
            "The index closed at 10235.34 after 7.25 in the morning",
            "12 month strip 2.9464 +0.1528",
            "Shipped 2024-03-05, billed 05 03 2024",
            "https://example.org/out?sid=2746140&u=55512",
            "Account 4417220019",
        ] {
            assert!(phone_numbers(line).is_empty(), "{line}");
        }
        assert!(phone_numbers("Apr-01   $ 4.9474    345.00    14,490.00").is_empty());
        assert_eq!(
            phone_numbers("Direct 4175550133").len(),
            1,
            "labelled, one run"
        );
        assert_eq!(
            phone_numbers("Tel: 01 23 45 67 89").len(),
            1,
            "labelled, any shape"
        );
        assert_eq!(phone_numbers("555-0142").len(), 1);
    }

    #[test]
    fn a_card_ends_at_a_rule_a_quote_or_an_earlier_message() {
        let body = "Ivo Brandt\nRoute Planner\n(617) 555-0101\n-----Original Message-----\nFrom: Jo Lin\nSent: Monday\n";
        let found = cards(body, &segment_body(body));
        assert_eq!(found.len(), 1, "{found:?}");
        let (_, end) = found[0].span();
        assert_eq!(&body[..end], "Ivo Brandt\nRoute Planner\n(617) 555-0101");
        let headline = "Ada Voss\nWhy The Trader Let The Deal Slip Away Again\n";
        assert!(cards(headline, &segment_body(headline)).is_empty());
    }

    #[test]
    fn name_lines_are_short_capitalised_names() {
        assert!(is_name_line("Jo K. Lin"));
        assert!(is_name_line("Owen"));
        assert!(!is_name_line("Best Regards"));
        assert!(!is_name_line("Office Manager"));
        assert!(!is_name_line("Harbor Properties LLC"));
        assert!(!is_name_line("Room 4"));
        assert!(!is_name_line("see you then"));
        assert!(!is_name_line("PRIVILEGED AND CONFIDENTIAL"));
        assert!(!is_name_line("SNACK      NON STOP"));
        assert!(is_part_of_name("Jo", &["jo".into(), "lin".into()]));
        assert!(!is_part_of_name("Jo Marsh", &["jo".into(), "lin".into()]));
    }

    #[test]
    fn a_longer_name_is_found_by_two_of_its_words() {
        let person: Vec<String> = ["jo", "lin", "boston"].map(String::from).to_vec();
        assert!(names_person("Jo K. Lin", &person));
        assert!(!names_person("Jo Marsh", &person));
        assert!(!names_person("Jo Marsh", &[]));
    }
}
