//! A short answer of a kind the question does not ask for: a date for "which room
//! is the hearing in?". The span head reads the chosen sentence for what the
//! question asks; when the best it finds there is a date, a clock time, a sum, a
//! phone number or an email address (kinds whose written form the detectors know),
//! the question asks for none of those, and the quote states no value of a kind it
//! does ask for, the sentence speaks of the thing asked about without giving what
//! is asked.

use super::detect::{find_all, states_any};
use crate::query::question::{AnswerKind, Question};
use std::collections::HashSet;

/// Kinds of value with one written form that the detectors find reliably.
const DISTINCT: [AnswerKind; 5] = [
    AnswerKind::Date,
    AnswerKind::Time,
    AnswerKind::Money,
    AnswerKind::Phone,
    AnswerKind::Email,
];

/// The kind of value `short` opens with, when the question asks for no value of
/// that kind (a day and a clock time count as one) and neither `quoted` text states
/// a value of a distinct kind it asks for. None when the short answer may answer.
pub fn unasked_kind(
    short: &str,
    quoted: &[&str],
    question: &Question,
    known_people: &HashSet<String>,
) -> Option<AnswerKind> {
    if question.expects.is_empty() {
        return None;
    }
    let short = short.trim();
    let first = find_all(short, known_people).into_iter().next()?;
    if first.span.start != 0 || !DISTINCT.contains(&first.kind) {
        return None;
    }
    let asked = |k: AnswerKind| question.expects.contains(&k);
    let when = [AnswerKind::Date, AnswerKind::Time];
    if asked(first.kind) || when.contains(&first.kind) && when.iter().any(|&k| asked(k)) {
        return None;
    }
    let asked_distinct: Vec<AnswerKind> = DISTINCT.iter().copied().filter(|&k| asked(k)).collect();
    if !asked_distinct.is_empty() && quoted.iter().any(|t| states_any(t, &asked_distinct)) {
        return None;
    }
    Some(first.kind)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::people::AddressBook;

    fn read(q: &str) -> Question {
        Question::read(q, &AddressBook::default(), 1_700_000_000)
    }

    #[test]
    fn a_day_does_not_answer_which_room() {
        let q = read("which room is the zoning hearing in?");
        let none = HashSet::new();
        let sentence = "The zoning hearing moved to March 9, so I cannot chair it.";
        assert_eq!(
            unasked_kind("March 9", &[sentence], &q, &none),
            Some(AnswerKind::Date)
        );
        // A sum for a question about a place.
        let q = read("where is the gala dinner?");
        assert_eq!(
            unasked_kind(
                "$40 a head",
                &["Tickets for the gala dinner are $40 a head."],
                &q,
                &none
            ),
            Some(AnswerKind::Money)
        );
    }

    #[test]
    fn a_value_of_an_asked_kind_may_answer() {
        let none = HashSet::new();
        // A day asked by "what time": a day and a clock time go together.
        let q = read("what time is the zoning hearing?");
        assert_eq!(
            unasked_kind("March 9", &["Set for March 9."], &q, &none),
            None
        );
        // The quote gives the asked number beside the day the head picked.
        let q = read("what is Ada's new phone number?");
        let quote = "From February 1 Ada can be reached at 713-555-0142.";
        assert_eq!(unasked_kind("February 1", &[quote], &q, &none), None);
        // A short answer that is not a value of a distinct kind, or a question
        // that asks for no kind of value, is left alone.
        let q = read("which room is the zoning hearing in?");
        assert_eq!(unasked_kind("Room 4B", &["In Room 4B."], &q, &none), None);
        let q = read("why did the hearing move?");
        assert_eq!(
            unasked_kind("March 9", &["It moved to March 9."], &q, &none),
            None
        );
    }
}
