//! Where a value begins and ends in a sentence, so that a short answer never cuts
//! one: a span is whole words; a sum keeps its multiplier and its rate ("$75 K",
//! "$40 per night", "$675/acre"); a date keeps the time and weekday written with it
//! when the question asks when; a street address keeps its number and suite.

use super::detect::{find_all, Found};
use crate::lexicon::{ADDRESS_UNITS, DATE_JOINERS};
use crate::query::question::{AnswerKind, Question};
use std::collections::HashSet;
use std::ops::Range;

/// `range` of `line` (a sentence on one line) widened to the whole value it cuts
/// into, for `question`.
pub fn widen(
    line: &str,
    range: Range<usize>,
    question: &Question,
    known: &HashSet<String>,
) -> Range<usize> {
    if line.get(range.clone()).is_none() {
        return range;
    }
    let found = find_all(line, known);
    let mut r = whole_words(line, range.clone());
    // Typed values only: a run of capitalised words may run on past a comma
    // ("Ask Tom, Delmar Foods ..."), where the head's name ends.
    for f in found.iter().filter(|f| !is_name(f.kind)) {
        if overlaps(&f.span, &r) {
            r = r.start.min(f.span.start)..r.end.max(f.span.end);
        }
    }
    if question.expects.first() == Some(&AnswerKind::Date) {
        for run in when_runs(line, &found) {
            if overlaps(&run, &r) {
                r = r.start.min(run.start)..r.end.max(run.end);
            }
        }
    }
    let ends_a_figure = found
        .iter()
        .any(|f| matches!(f.kind, AnswerKind::Money | AnswerKind::Quantity) && f.span.end == r.end);
    if ends_a_figure {
        r.end += rate(&line[r.end..]);
    }
    if question.expects.contains(&AnswerKind::Place) {
        r = street_address(line, r);
    }
    without_possessive(line, r, range.end)
}

fn is_name(kind: AnswerKind) -> bool {
    matches!(
        kind,
        AnswerKind::Person | AnswerKind::Organization | AnswerKind::Place
    )
}

/// `r` without a possessive "'s" that widening added past the head's span (which
/// ended at `head_end`): "Marta" of "Marta's house", while a name the head read
/// whole ("Rosalind's", a restaurant) keeps it.
fn without_possessive(line: &str, r: Range<usize>, head_end: usize) -> Range<usize> {
    let text = &line[r.clone()];
    for possessive in ["'s", "’s"] {
        if let Some(bare) = text.strip_suffix(possessive) {
            if !bare.is_empty() && r.start + bare.len() >= head_end {
                return r.start..r.start + bare.len();
            }
        }
    }
    r
}

fn overlaps(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// `range` grown to the whole words it touches: a word is cut at whitespace, and
/// keeps none of the punctuation around it but an abbreviation's full stop.
fn whole_words(line: &str, range: Range<usize>) -> Range<usize> {
    let (Some(head), Some(tail)) = (line.get(..range.start), line.get(range.end..)) else {
        return range;
    };
    let first = head.rfind(char::is_whitespace).map_or(0, |i| i + 1);
    let lead = line[first..range.start]
        .find(|c: char| c.is_alphanumeric() || "$€£#".contains(c))
        .map_or(range.start, |i| first + i);
    let start = lead.min(range.start);
    let last = range.end + tail.find(char::is_whitespace).unwrap_or(tail.len());
    let mut word = line[start..last].trim_end_matches(|c: char| !c.is_alphanumeric() && c != '%');
    // An abbreviation keeps its last full stop ("p.m.", "U.S.").
    let last_word = word.rsplit(char::is_whitespace).next().unwrap_or("");
    if last_word.contains('.') && line[start + word.len()..last].starts_with('.') {
        word = &line[start..start + word.len() + 1];
    }
    if word.is_empty() {
        return range;
    }
    start..start + word.len()
}

/// Bytes of `rest` (the text after a figure) that state its rate: "/night" or
/// " per night" (one word after "per").
fn rate(rest: &str) -> usize {
    let letters = |s: &str| s.find(|c: char| !c.is_alphabetic()).unwrap_or(s.len());
    if let Some(unit) = rest.strip_prefix('/') {
        let n = letters(unit);
        return if n > 0 { 1 + n } else { 0 };
    }
    if let Some(unit) = rest.strip_prefix(" per ") {
        let n = letters(unit);
        return if n > 0 { " per ".len() + n } else { 0 };
    }
    0
}

/// `r` grown to the street address it names: the house number right before a
/// capitalised street name ("200 West Elm Street"), and a unit after a comma
/// ("..., Suite 4").
fn street_address(line: &str, mut r: Range<usize>) -> Range<usize> {
    let capitalised = line[r.clone()].starts_with(|c: char| c.is_uppercase());
    let before = line[..r.start].trim_end();
    let number = before.rsplit(char::is_whitespace).next().unwrap_or("");
    let house = (1..=6).contains(&number.len())
        && number.starts_with(|c: char| c.is_ascii_digit())
        && number
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-')
        && before.len() + 1 == r.start;
    if capitalised && house {
        r.start = before.len() - number.len();
    }
    let unit = line[r.end..].strip_prefix(", ").and_then(|after| {
        let mut words = after.split_whitespace();
        let named = words.next().is_some_and(|w| {
            ADDRESS_UNITS.contains(&w.trim_end_matches('.').to_lowercase().as_str())
        });
        let value = words.next()?.trim_end_matches([',', '.', ';', ')']);
        let numbered = named && value.chars().any(|c| c.is_ascii_digit());
        numbered.then(|| after.find(value).map(|at| ", ".len() + at + value.len()))?
    });
    r.end += unit.unwrap_or(0);
    r
}

/// The date-and-time expressions of `text`: runs of adjacent dates and times joined
/// by punctuation or [`DATE_JOINERS`] ("Friday (3/9) at 2 pm", "6:00pm on
/// Saturday, May 5th"), in the text's order.
pub fn when_runs(text: &str, found: &[Found]) -> Vec<Range<usize>> {
    let mut parts: Vec<&Found> = found
        .iter()
        .filter(|f| matches!(f.kind, AnswerKind::Date | AnswerKind::Time))
        .collect();
    parts.sort_by_key(|f| f.span.start);
    let joins = |gap: &str| {
        gap.split(|c: char| c.is_whitespace() || ",–—-()".contains(c))
            .filter(|w| !w.is_empty())
            .all(|w| DATE_JOINERS.contains(&w.to_lowercase().as_str()))
            && gap.len() <= 12
    };
    let mut runs: Vec<Range<usize>> = Vec::new();
    for f in parts {
        match runs.last_mut() {
            Some(run) if text.get(run.end..f.span.start).is_some_and(joins) => {
                run.end = run.end.max(f.span.end);
            }
            _ => runs.push(f.span.clone()),
        }
    }
    // A closing parenthesis of a run that opened one is the run's.
    for run in &mut runs {
        let inside = text.get(run.clone()).unwrap_or("");
        if inside.contains('(') && !inside.contains(')') && text[run.end..].starts_with(')') {
            run.end += 1;
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::people::AddressBook;

    /// The head's span `part` of `line`, widened for `question`.
    fn widened(question: &str, line: &str, part: &str) -> String {
        let q = Question::read(question, &AddressBook::default(), 0);
        let at = line.find(part).expect("the part is in the line");
        let r = widen(line, at..at + part.len(), &q, &HashSet::new());
        line[r].to_string()
    }

    #[test]
    fn a_span_is_whole_words_without_their_punctuation() {
        let line = "Lunch is at Marta's house (the blue one).";
        assert_eq!(widened("whose house is lunch at?", line, "Mar"), "Marta");
        assert_eq!(widened("whose house is lunch at?", line, "one)."), "one");
        assert_eq!(
            widened("what is the code?", "Your code is: QX7-22.", "QX7"),
            "QX7-22"
        );
    }

    #[test]
    fn a_sum_keeps_its_multiplier_and_its_rate() {
        let q = "what did the lease cost?";
        assert_eq!(
            widened(q, "It comes to $75 K per year, roughly.", "$75"),
            "$75 K per year"
        );
        assert_eq!(
            widened(q, "They are asking $675/acre for it.", "$675"),
            "$675/acre"
        );
        assert_eq!(
            widened(q, "Rooms are $140 per night.", "$140"),
            "$140 per night"
        );
        // A figure followed by other words keeps only itself.
        assert_eq!(widened(q, "It was $900 and worth it.", "$900"), "$900");
    }

    #[test]
    fn a_when_question_keeps_the_day_written_with_the_time() {
        let line = "The launch is back on for 6:00pm on Saturday, May 5th.";
        assert_eq!(
            widened("when is the launch?", line, "6:00pm"),
            "6:00pm on Saturday, May 5th"
        );
        // "What time" asks for the time alone.
        assert_eq!(
            widened("what time is the launch?", line, "6:00pm"),
            "6:00pm"
        );
        assert_eq!(
            widened(
                "when is the move?",
                "The move is set for Friday (3/9).",
                "3/9"
            ),
            "Friday (3/9)"
        );
    }

    #[test]
    fn a_street_address_keeps_its_number_and_suite() {
        let line = "Please mail the forms to 418 North Birch Avenue, Suite 12, Elmford.";
        assert_eq!(
            widened("where should I mail the forms?", line, "North Birch Avenue"),
            "418 North Birch Avenue, Suite 12"
        );
        // A figure before a name that is not a place is not a house number.
        assert_eq!(
            widened(
                "who will bring the chairs?",
                "Bring 3 Chairs to Room B.",
                "Chairs"
            ),
            "Chairs"
        );
    }
}
