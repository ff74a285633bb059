//! The short answer a quote leads with, when the question asks for a kind of value
//! (a date, an amount, a name...): the span of the chosen sentence that the reader's
//! span head, reading the question with the sentence, scores best; without the head,
//! the first value of the asked kind that the sentence holds.
//!
//! Chosen on the dev split (d3+d4, `quoth bench span`, models/reader/README.md): the
//! head's own best span held the gold answer for 27 of 37 sentences, against 20 for
//! the first value of the asked kind and 20 for the value of that kind it scores best.

use super::detect::{find_all, Found};
use super::span::SpanLogits;
use super::whole_value::{when_runs, widen};
use crate::lexicon::{month_number, CHANGE_VERBS, VAGUE_TIME_WORDS};
use crate::query::question::{AnswerKind, Question};
use crate::query::terms::stem;
use std::collections::HashSet;
use std::ops::Range;

/// The short answer of `text` (a candidate sentence) for `question`: None when the
/// question asks for no kind of value. A figure that counts what "how many" asks
/// for ("14 rooms" for "how many rooms"), with the words it counts, is it; else, with the span head's reading
/// of the sentence (`span`, over the sentence with its whitespace collapsed), its
/// best span grown to the whole value it cuts into ([`widen`]) unless the question
/// itself holds it; else the first value of the asked
/// kind, None when the sentence holds none.
pub fn short_answer(
    text: &str,
    question: &Question,
    known: &HashSet<String>,
    span: Option<&SpanLogits>,
) -> Option<String> {
    if question.expects.is_empty() {
        return None;
    }
    if let Some(v) = counted_value(text, question, known) {
        return Some(v);
    }
    span.and_then(|logits| {
        let (range, _) = logits.best()?;
        let line = one_line(text);
        let range = widen(&line, range, question, known);
        let value = one_line(line.get(range)?);
        let value = value.trim_end_matches([',', ';', ':', ' ']);
        // The question's own words are not what it asks for.
        let asked = question
            .question
            .to_lowercase()
            .contains(&value.to_lowercase());
        (!value.is_empty() && !asked).then(|| value.to_string())
    })
    .or_else(|| typed_value(text, question, known))
    .map(|v| changed_to(text, &v, known).unwrap_or(v))
}

/// The value that replaced `value` when the sentence says so ("has changed from 7C
/// to 1140" gives 1140 for 7C): a verb of change within three words before "from
/// {value} to", and a value right after "to".
fn changed_to(text: &str, value: &str, known: &HashSet<String>) -> Option<String> {
    let line = one_line(text);
    let at = line.find(&format!("from {value} to "))?;
    let changed = line[..at]
        .split_whitespace()
        .rev()
        .take(3)
        .any(|w| CHANGE_VERBS.contains(&w.to_lowercase().as_str()));
    if !changed {
        return None;
    }
    let after = at + "from ".len() + value.len() + " to ".len();
    find_all(&line, known)
        .into_iter()
        .find(|f| f.span.start == after)
        .and_then(|f| line.get(f.span.clone()))
        .map(str::to_string)
        .or_else(|| {
            // A code or figure no detector types ("7C to 1140"): the word after "to",
            // when both hold a digit.
            let next = line.get(after..)?.split_whitespace().next()?;
            let next = next.trim_end_matches(['.', ',', ';', ':', ')']);
            let digit = |s: &str| s.chars().any(|c| c.is_ascii_digit());
            (digit(value) && digit(next)).then(|| next.to_string())
        })
}

/// Whether a found figure counts what the question's "how many" asks for: one of
/// the counted words follows it within two words ("14 rooms", "12 double rooms").
fn counts_the_asked(text: &str, f: &Found, question: &Question) -> bool {
    f.kind == AnswerKind::Quantity
        && !question.counted.is_empty()
        && text
            .get(f.span.end..)
            .unwrap_or("")
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .take(2)
            .any(|w| question.counted.contains(&stem(&w.to_lowercase())))
}

/// The figure of `text` that counts what the question's "how many" asks for, with
/// the words it counts ("14 rooms").
fn counted_value(text: &str, question: &Question, known: &HashSet<String>) -> Option<String> {
    let asked = question.question.to_lowercase();
    find_all(text, known)
        .into_iter()
        .filter(|f| counts_the_asked(text, f, question))
        .filter(|f| {
            text.get(f.span.clone())
                .is_some_and(|v| !asked.contains(&v.to_lowercase()))
        })
        .find_map(|f| {
            // Through the last counted word of the two that follow.
            let rest = text.get(f.span.end..)?;
            let mut end = 0;
            let mut seen = 0;
            for (at, w) in word_spans(rest) {
                seen += 1;
                if seen > 2 {
                    break;
                }
                if question.counted.contains(&stem(&w.to_lowercase())) {
                    end = at + w.len();
                }
            }
            text.get(f.span.start..f.span.end + end).map(one_line)
        })
}

/// The words of `text` with their byte offsets.
fn word_spans(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_alphanumeric(), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.extend(text.get(s..i).map(|w| (s, w)));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The value the span head scores best, found in the collapsed sentence; the earlier
/// of equal scores.
pub fn best_by_span(values: &[String], sentence: &str, logits: &SpanLogits) -> Option<String> {
    let mut best: Option<(&String, f32)> = None;
    for v in values {
        let Some(score) = find_range(sentence, v).and_then(|r| logits.score_of(&r)) else {
            continue;
        };
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((v, score));
        }
    }
    best.map(|(v, _)| v.clone())
}

fn find_range(sentence: &str, value: &str) -> Option<Range<usize>> {
    let v = one_line(value);
    sentence.find(&v).map(|at| at..at + v.len())
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first value of a kind the question expects in `text`, by the question's order
/// of kinds. A date or time is the whole expression it is part of ("Monday, October
/// 6, 2025 at 9:15 AM"), the most specific one the text gives.
pub fn typed_value(text: &str, question: &Question, known: &HashSet<String>) -> Option<String> {
    typed_values(text, question, known).into_iter().next()
}

/// Every value of a kind the question expects in `text`: by the question's order of
/// kinds, then (dates and times) the most specific expression first, then in the
/// text's order. The question's own names and numbers are left out.
pub fn typed_values(text: &str, question: &Question, known: &HashSet<String>) -> Vec<String> {
    let asked: Vec<String> = question
        .slots
        .iter()
        .map(|s| s.text.to_lowercase())
        .collect();
    let found: Vec<Found> = find_all(text, known)
        .into_iter()
        .filter(|f| {
            let v = text.get(f.span.clone()).unwrap_or("").to_lowercase();
            !asked.iter().any(|a| v == *a || a.contains(&v))
                && !question.question.to_lowercase().contains(&v)
        })
        .collect();
    let mut out: Vec<String> = Vec::new();
    let mut push = |v: String| {
        if !v.is_empty() && !out.contains(&v) {
            out.push(v);
        }
    };
    for kind in &question.expects {
        if matches!(kind, AnswerKind::Date | AnswerKind::Time) {
            when_values(text, &found).into_iter().for_each(&mut push);
            continue;
        }
        let mut of_kind: Vec<&Found> = found.iter().filter(|f| f.kind == *kind).collect();
        // A figure that counts what "how many" asks for comes first (a stable sort
        // keeps the text's order otherwise).
        of_kind.sort_by_key(|f| !counts_the_asked(text, f, question));
        of_kind
            .iter()
            .filter_map(|f| text.get(f.span.clone()))
            .for_each(|v| push(v.to_string()));
    }
    out
}

/// The date-and-time expressions of `text` ([`when_runs`]), the most specific
/// first: one with a calendar date beats a weekday, which beats a vague word
/// ("week", "month"); equals keep the text's order.
fn when_values(text: &str, found: &[Found]) -> Vec<String> {
    let mut runs = when_runs(text, found);
    let specificity = |run: &Range<usize>| {
        let words = text.get(run.clone()).unwrap_or("");
        let has_digit = words.chars().any(|c| c.is_ascii_digit());
        let has_month = words
            .split(|c: char| !c.is_alphabetic())
            .any(|w| w.len() >= 3 && month_number(&w.to_lowercase()).is_some());
        match (
            has_month || has_digit,
            VAGUE_TIME_WORDS.contains(&words.to_lowercase().as_str()),
        ) {
            (true, _) => 2 + usize::from(has_month && has_digit),
            (false, false) => 1,
            (false, true) => 0,
        }
    };
    // A stable sort keeps the text's order among equals.
    runs.sort_by_key(|r| std::cmp::Reverse(specificity(r)));
    runs.iter()
        .filter_map(|r| text.get(r.clone()))
        // One line, as the quote it leads.
        .map(|v| one_line(v.trim_end_matches([',', ' ', '-', '–'])))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::people::AddressBook;

    #[test]
    fn a_value_changed_to_another_gives_the_new_one() {
        let q = Question::read(
            "what is the new budget for the fair?",
            &AddressBook::default(),
            0,
        );
        let short = |t: &str| short_answer(t, &q, &HashSet::new(), None);
        assert_eq!(
            short("The fair's budget has changed from $4,000 to $5,500.").as_deref(),
            Some("$5,500")
        );
        assert_eq!(
            changed_to(
                "The fair's code has changed from 7C to 1140.",
                "7C",
                &HashSet::new()
            )
            .as_deref(),
            Some("1140")
        );
        // Without a verb of change, "from ... to" is a range.
        assert_eq!(
            short("Tickets for the fair run from $40 to $90.").as_deref(),
            Some("$40")
        );
    }

    #[test]
    fn how_many_is_answered_by_the_figure_that_counts_it() {
        let q = Question::read(
            "How many rooms did we book at the inn?",
            &AddressBook::default(),
            0,
        );
        assert_eq!(q.counted, vec![stem("rooms")]);
        let text = "The inn is 90 minutes north and is holding 14 rooms for us.";
        assert_eq!(
            typed_values(text, &q, &HashSet::new()),
            vec!["14".to_string(), "90".to_string()]
        );
        assert_eq!(
            short_answer(text, &q, &HashSet::new(), None).as_deref(),
            Some("14 rooms")
        );
        // A word between the figure and what it counts.
        let text = "They hold 3 nights and 12 double rooms.";
        assert_eq!(
            short_answer(text, &q, &HashSet::new(), None).as_deref(),
            Some("12 double rooms")
        );
        // The question's own figure is not its answer.
        let q = Question::read(
            "How many of the 40 rooms are still free?",
            &AddressBook::default(),
            0,
        );
        assert_eq!(
            short_answer("Of the 40 rooms, 9 are free.", &q, &HashSet::new(), None).as_deref(),
            Some("9")
        );
    }

    #[test]
    fn a_short_date_is_the_whole_and_most_specific_expression() {
        let when = Question::read("When is the design review?", &AddressBook::default(), 0);
        let short = |text: &str| typed_value(text, &when, &HashSet::new());
        assert_eq!(
            short("The audit takes most of a week, so the review is set for Wednesday, June 18 at 10:30am.")
                .as_deref(),
            Some("Wednesday, June 18 at 10:30am")
        );
        assert_eq!(
            short("The garage expects the van on Monday, October 6, 2025 at 9:15 AM sharp.")
                .as_deref(),
            Some("Monday, October 6, 2025 at 9:15 AM")
        );
        assert_eq!(
            short("The outage is Sunday August 24, and the printers go offline.").as_deref(),
            Some("Sunday August 24")
        );
        assert_eq!(
            short("It is now on Tuesday, July 8,\nat 3:00 pm in the library.").as_deref(),
            Some("Tuesday, July 8, at 3:00 pm")
        );
        assert_eq!(
            short("Let's pick it up next week.").as_deref(),
            Some("week")
        );
        assert_eq!(short("The review is on Friday.").as_deref(), Some("Friday"));
        // Two separate dates: the first of equal specificity.
        assert_eq!(
            short("It moved from June 3 and will now be held after lunch on June 17.").as_deref(),
            Some("June 3")
        );
    }

    #[test]
    fn the_span_head_picks_the_short_answer() {
        let when = Question::read("When is the design review now?", &AddressBook::default(), 0);
        let text = "It moved from June 3 and will now be held on June 17 after lunch.";
        let sentence = one_line(text);
        // A reading that puts the answer on the second date.
        let mut logits = SpanLogits::default();
        let mut at = 0;
        for w in sentence.split(' ') {
            let later = w.starts_with("June") && at > 30 || w == "17";
            logits.tokens.push(at..at + w.len());
            logits.start.push(if later && w.starts_with("June") {
                4.0
            } else {
                0.0
            });
            logits.end.push(if later && w == "17" { 4.0 } else { 0.0 });
            at += w.len() + 1;
        }
        let known = HashSet::new();
        assert_eq!(
            short_answer(text, &when, &known, Some(&logits)).as_deref(),
            Some("June 17")
        );
        assert_eq!(
            short_answer(text, &when, &known, None).as_deref(),
            Some("June 3"),
            "without the head, the first of equal specificity"
        );
        let what = Question::read("What happened to the review?", &AddressBook::default(), 0);
        assert_eq!(short_answer(text, &what, &known, Some(&logits)), None);
    }

    #[test]
    fn the_head_can_answer_beyond_the_detected_kinds_and_drops_a_trailing_comma() {
        let when = Question::read("When is the design review?", &AddressBook::default(), 0);
        let text = "Right  after the audit, as agreed.";
        let mut logits = SpanLogits::default();
        for (i, (a, z)) in [(0, 5), (6, 11), (12, 15), (16, 22)]
            .into_iter()
            .enumerate()
        {
            logits.tokens.push(a..z);
            logits.start.push(if i == 0 { 5.0 } else { 0.0 });
            logits.end.push(if i == 3 { 5.0 } else { 0.0 });
        }
        let known = HashSet::new();
        assert_eq!(typed_value(text, &when, &known), None);
        assert_eq!(
            short_answer(text, &when, &known, Some(&logits)).as_deref(),
            Some("Right after the audit")
        );
        assert_eq!(short_answer(text, &when, &known, None), None);
    }

    #[test]
    fn a_span_the_question_already_holds_is_not_the_answer() {
        let when = Question::read("When does Robin fly out?", &AddressBook::default(), 0);
        let text = "Robin flies out on May 8.";
        let mut logits = SpanLogits::default();
        for (i, (a, z)) in [(0, 5), (6, 11), (12, 15), (16, 18), (19, 22), (23, 25)]
            .into_iter()
            .enumerate()
        {
            logits.tokens.push(a..z);
            logits.start.push(if i == 0 { 5.0 } else { 0.0 });
            logits.end.push(if i == 0 { 5.0 } else { 0.0 });
        }
        let known = HashSet::new();
        assert_eq!(
            short_answer(text, &when, &known, Some(&logits)).as_deref(),
            Some("May 8"),
            "the head's span is the question's own name: the value of the asked kind"
        );
    }
}
