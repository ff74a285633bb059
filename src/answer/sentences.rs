//! Sentence spans in authored text: the units an extractive answer quotes. Mail is
//! written in lines as often as in sentences, so a line break that ends a short line
//! (a list item, a one-line note) or a row of a table (columns set apart by tabs or
//! runs of spaces) ends a sentence too; a period after an abbreviation or between
//! digits does not.

/// A sentence as a byte range of the text it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SentenceSpan {
    pub start: usize,
    pub end: usize,
}

impl SentenceSpan {
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        source.get(self.start..self.end).unwrap_or("")
    }
}

use crate::lexicon::ABBREVIATIONS;

/// Splits `text` into trimmed, non-empty sentence spans.
pub fn sentences(text: &str) -> Vec<SentenceSpan> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let boundary = match b {
            b'.' | b'!' | b'?' => {
                let next = bytes.get(i + 1).copied();
                let ends = next.is_none_or(|n| n == b' ' || n == b'\n' || n == b'\r' || n == b'"');
                ends && !(b == b'.' && is_abbreviation(&text[start..i]))
                    && !(b == b'.' && follows_digit_and_precedes_digit(bytes, i))
                    && !(b == b'.' && initials_within_a_sentence(text, start, i))
            }
            b'\n' => {
                // A blank line always ends a sentence; a single break ends one when the
                // line is short or the next line starts like a new item.
                // The whole physical line: a sentence that began mid-line still
                // ends a hard-wrapped line of full length.
                let line_start = text[..i].rfind('\n').map_or(0, |p| p + 1);
                let line = text[line_start..i].trim();
                let next_line = text[i + 1..].lines().next().unwrap_or("").trim_start();
                next_line.is_empty()
                    || line.len() < 60
                    || is_table_row(line)
                    || is_table_row(next_line)
                    || next_line.starts_with(['-', '*', '\u{2022}'])
                    || starts_numbered_item(next_line)
                    || starts_labelled_field(next_line)
            }
            _ => false,
        };
        if boundary {
            let end = if b == b'\n' { i } else { i + 1 };
            push_trimmed(text, start, end, &mut out);
            start = i + 1;
        }
        i += 1;
    }
    push_trimmed(text, start, text.len(), &mut out);
    out
}

/// A row of a table: columns set apart by a tab or by two runs of several spaces.
fn is_table_row(line: &str) -> bool {
    let line = line.trim();
    line.contains('\t') || line.matches("   ").count() >= 2
}

/// A line's label and value at its first colon: "Venue: Tern Island Inn" gives
/// ("Venue", "Tern Island Inn"). The label is one to three words of letters (a
/// hyphen may join them: "Follow-up"); a line that opens otherwise has none.
pub fn label_and_value(line: &str) -> Option<(&str, &str)> {
    let (label, value) = line.split_once(':')?;
    let words: Vec<&str> = label.split_whitespace().collect();
    let fine = (1..=3).contains(&words.len())
        && words.iter().all(|w| {
            w.chars().any(char::is_alphabetic) && w.chars().all(|c| c.is_alphabetic() || c == '-')
        });
    fine.then(|| (label.trim(), value.trim()))
}

/// "Where: Room 4B" or "Start date: May 2": a line that opens with a short label
/// (capitalised, a space after its colon) gives a field of its own, however long
/// the line before it.
fn starts_labelled_field(line: &str) -> bool {
    line.split_once(':').is_some_and(|(label, rest)| {
        label.len() <= 24 && rest.starts_with(' ') && label.starts_with(|c: char| c.is_uppercase())
    }) && label_and_value(line).is_some()
}

/// "1. Call Sally" or "2) Send the plans": a numbered list item, not a wrapped figure.
fn starts_numbered_item(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && digits <= 2
        && matches!(line.as_bytes().get(digits), Some(b'.' | b')'))
        && line.as_bytes().get(digits + 1) == Some(&b' ')
}

fn push_trimmed(text: &str, start: usize, end: usize, out: &mut Vec<SentenceSpan>) {
    let Some(slice) = text.get(start..end) else {
        return;
    };
    let lead = slice.len() - slice.trim_start().len();
    let trimmed = slice.trim();
    if trimmed.chars().any(|c| c.is_alphanumeric()) {
        out.push(SentenceSpan {
            start: start + lead,
            end: start + lead + trimmed.len(),
        });
    }
}

fn is_abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    (word.len() == 1 && word.chars().all(|c| c.is_ascii_alphabetic()))
        || ABBREVIATIONS.contains(&word.as_str())
}

/// "Lakeside Holdings B.V. has changed", "the U.S. market": dotted initials that the
/// sentence goes on after, in lower case or with a figure. Before a capital they
/// may end it ("... in the U.S. Then we left.").
fn initials_within_a_sentence(text: &str, start: usize, i: usize) -> bool {
    let word = text
        .get(start..i)
        .unwrap_or("")
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    let letters: Vec<&str> = word.split('.').collect();
    let initials = letters.len() >= 2
        && letters
            .iter()
            .all(|l| l.chars().count() == 1 && l.chars().all(char::is_alphabetic));
    let goes_on = text
        .get(i + 1..)
        .unwrap_or("")
        .trim_start()
        .starts_with(|c: char| c.is_lowercase() || c.is_ascii_digit());
    initials && goes_on
}

fn follows_digit_and_precedes_digit(bytes: &[u8], i: usize) -> bool {
    i > 0 && bytes[i - 1].is_ascii_digit() && bytes.get(i + 1).is_some_and(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(t: &str) -> Vec<&str> {
        sentences(t).iter().map(|s| s.text(t)).collect()
    }

    #[test]
    fn splits_prose_keeping_abbreviations_and_decimals() {
        let t = "Mr. Lay will call at 3 p.m. tomorrow. The price is $2.50 per MMBtu! Agreed?";
        assert_eq!(
            texts(t),
            vec![
                "Mr. Lay will call at 3 p.m. tomorrow.",
                "The price is $2.50 per MMBtu!",
                "Agreed?"
            ]
        );
    }

    #[test]
    fn dotted_initials_end_a_sentence_only_before_a_capital() {
        let t = "The number for Lakeside Holdings B.V. has changed to 88. We sold Lakeside B.V. The board met.";
        assert_eq!(
            texts(t),
            vec![
                "The number for Lakeside Holdings B.V. has changed to 88.",
                "We sold Lakeside B.V.",
                "The board met."
            ]
        );
    }

    #[test]
    fn short_lines_and_list_items_are_sentences() {
        let t = "Items:\n- gas storage\n- the Westgate permits\n\nThanks,\nPhillip";
        assert_eq!(
            texts(t),
            vec![
                "Items:",
                "- gas storage",
                "- the Westgate permits",
                "Thanks,",
                "Phillip"
            ]
        );
    }

    #[test]
    fn table_rows_are_sentences_each() {
        let t = "Land and soft costs for the first quarter of the project\t$ 1,608,683.05\nGrading and site work for the second phase of it all\t$ 250,000.00";
        assert_eq!(texts(t).len(), 2);
    }

    #[test]
    fn wrapped_long_lines_join_into_one_sentence() {
        let t = "This is a long line of prose that was wrapped by the mail client at\nseventy columns and goes on here.";
        assert_eq!(texts(t).len(), 1);
    }

    #[test]
    fn a_labelled_field_starts_a_sentence_after_a_long_line() {
        let text = "When: Monday 2 June 2025, 09:00 to 10:30 Europe/Madrid (07:00 UTC) for everyone\nWhere: Ranger hut";
        let got: Vec<&str> = sentences(text)
            .iter()
            .map(|s| &text[s.start..s.end])
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[1], "Where: Ranger hut");
        assert!(!starts_labelled_field("the plan: go"));
        assert!(!starts_labelled_field("Note:no space"));
        assert!(!starts_labelled_field(
            "A very long label that is a sentence really: x"
        ));
    }

    #[test]
    fn a_label_is_one_to_three_words_of_letters_before_a_colon() {
        assert_eq!(
            label_and_value("Follow-up date:  March 3 "),
            Some(("Follow-up date", "March 3"))
        );
        assert_eq!(label_and_value("Room 4B: booked"), None);
        assert_eq!(label_and_value("Kiln - batch: ready"), None);
        assert_eq!(label_and_value("Please note the following: x"), None);
        assert_eq!(label_and_value("no colon here"), None);
    }
}
