//! From scored candidates to the answer's text: the short answer first (the name,
//! date or amount the question asks for, cut from the best quote), then the verbatim
//! quotes with their `[n]` markers. A list of people (who received it) quotes each
//! one; when messages of different dates give different values of what is asked, the
//! latest is the answer and the earlier ones are quoted as superseded.

use super::candidates::CandidateKind;
use super::detect::{find_all, Found};
use super::evidence::{EvidencePack, Role};
use super::select::Scored;
use crate::lexicon::{month_number, DATE_JOINERS, VAGUE_TIME_WORDS};
use crate::query::question::{AnswerKind, Question, QuestionType};
use std::collections::HashSet;

/// The selection an answer is written from.
#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    /// The answer: `short — "quote" [n]` lines, ready for the validator.
    pub text: String,
    /// The span that answers, when the question asks for a value.
    pub short_answer: Option<String>,
    /// Pack numbers of passages whose value a later message replaced.
    pub superseded: Vec<usize>,
    /// The best candidate's calibrated probability.
    pub probability: f32,
}

/// Most further sentences quoted beside the best one (a list may take more).
const COMPANIONS: usize = 1;
const LIST_COMPANIONS: usize = 3;
/// A companion must score at least this share of the best's probability.
const COMPANION_SHARE: f32 = 0.7;
/// An earlier value is shown as superseded when its passage scores this share.
const SUPERSEDED_SHARE: f32 = 0.5;
/// Most participants listed for "who received it".
const MAX_PARTICIPANTS: usize = 12;

/// Writes the answer, or None when even the best candidate is under `threshold`.
pub fn compose(
    scored: &[Scored],
    question: &Question,
    pack: &EvidencePack,
    threshold: f32,
    known_people: &HashSet<String>,
) -> Option<Selection> {
    let best = scored.first().filter(|s| s.probability >= threshold)?;
    let n_of = |s: &Scored| pack.items.get(s.candidate.item).map_or(0, |i| i.n);
    let key_of = |s: &Scored| {
        pack.items
            .get(s.candidate.item)
            .map(|i| i.key.clone())
            .unwrap_or_default()
    };
    let date_of = |s: &Scored| pack.items.get(s.candidate.item).and_then(|i| i.date);

    if let CandidateKind::Participant { role, .. } = best.candidate.kind {
        return Some(participants(scored, best, role, threshold, question, pack));
    }

    // Latest wins: a passage of a later message that gives another value of the kind
    // asked for, about the same thing, takes the lead.
    let mut primary = best;
    let mut superseded = Vec::new();
    if !question.expects.is_empty() && best.candidate.kind == CandidateKind::Sentence {
        let value = |s: &Scored| typed_value(&s.candidate.text, question, known_people);
        if let Some(v0) = value(best) {
            let later = scored
                .iter()
                .skip(1)
                .take(12)
                .filter(|s| s.candidate.kind == CandidateKind::Sentence)
                .filter(|s| s.probability >= threshold.max(best.probability * SUPERSEDED_SHARE))
                .filter(|s| key_of(s) != key_of(best))
                .filter(|s| date_of(s).zip(date_of(best)).is_some_and(|(a, b)| a > b))
                .filter(|s| value(s).is_some_and(|v| !same_value(&v, &v0)))
                .max_by_key(|s| date_of(s));
            if let Some(l) = later {
                primary = l;
                superseded.push(n_of(best));
            }
        }
    }

    let limit = if question.qtype == QuestionType::List {
        LIST_COMPANIONS
    } else {
        COMPANIONS
    };
    let mut chosen: Vec<&Scored> = vec![primary];
    for s in scored {
        if chosen.len() > limit {
            break;
        }
        if s.candidate.kind != CandidateKind::Sentence
            || chosen.iter().any(|c| c.candidate.text == s.candidate.text)
            || superseded.contains(&n_of(s))
        {
            continue;
        }
        let close = s.probability >= threshold.max(best.probability * COMPANION_SHARE);
        let same_message = key_of(s) == key_of(primary);
        if close && (same_message || question.qtype == QuestionType::List) {
            chosen.push(s);
        }
    }

    let short = if question.expects.is_empty() {
        None
    } else {
        typed_value(&primary.candidate.text, question, known_people)
    };
    let mut lines = Vec::new();
    for (i, s) in chosen.iter().enumerate() {
        let quote = one_line(&s.candidate.text);
        let n = n_of(s);
        lines.push(match (&short, i) {
            (Some(v), 0) if quote.contains(v.as_str()) => format!("{v} — \"{quote}\" [{n}]"),
            _ => format!("\"{quote}\" [{n}]"),
        });
    }
    if primary.candidate.item != best.candidate.item {
        lines.push(format!(
            "Earlier, now superseded: \"{}\" [{}]",
            one_line(&best.candidate.text),
            n_of(best)
        ));
    }
    Some(Selection {
        text: lines.join("\n"),
        short_answer: short,
        superseded,
        probability: best.probability,
    })
}

/// The participants who answer: the sender, or every recipient the selector backs
/// (the To list before the Cc list), of the best candidate's message.
fn participants(
    scored: &[Scored],
    best: &Scored,
    role: Role,
    threshold: f32,
    question: &Question,
    pack: &EvidencePack,
) -> Selection {
    let item = best.candidate.item;
    let key = pack.items.get(item).map(|i| i.key.as_str()).unwrap_or("");
    let recipients = matches!(role, Role::To | Role::Cc);
    let mut chosen: Vec<&Scored> = scored
        .iter()
        .filter(|s| match s.candidate.kind {
            CandidateKind::Participant { role: r, .. } => {
                (r == role || recipients && matches!(r, Role::To | Role::Cc))
                    && pack.items.get(s.candidate.item).map(|i| i.key.as_str()) == Some(key)
            }
            _ => false,
        })
        .filter(|s| s.probability >= threshold.max(best.probability * COMPANION_SHARE))
        .take(MAX_PARTICIPANTS)
        .collect();
    if chosen.is_empty() {
        chosen.push(best);
    }
    let n = pack.items.get(item).map_or(0, |i| i.n);
    let asks_address = question.expects(AnswerKind::Email);
    let mut lines = Vec::new();
    let mut short = Vec::new();
    for s in &chosen {
        let text = &s.candidate.text;
        let (name, address) = split_display(text);
        let value = if asks_address {
            address.or(name)
        } else {
            name.or(address)
        };
        if let Some(v) = value {
            short.push(v.to_string());
        }
        lines.push(format!("\"{}\" [{n}]", one_line(text)));
    }
    let short_answer = (!short.is_empty()).then(|| short.join(", "));
    let mut text = lines.join("\n");
    if let Some(s) = &short_answer {
        if let Some(first) = lines.first() {
            if first.contains(short.first().map(String::as_str).unwrap_or("")) && short.len() == 1 {
                text = format!("{s} — {first}");
            }
        }
    }
    Selection {
        text,
        short_answer,
        superseded: Vec::new(),
        probability: best.probability,
    }
}

/// `Name <address>` into its name and address.
fn split_display(text: &str) -> (Option<&str>, Option<&str>) {
    match text.split_once(" <") {
        Some((name, rest)) => (Some(name.trim()), Some(rest.trim_end_matches('>').trim())),
        None if text.contains('@') => (None, Some(text.trim())),
        None => (Some(text.trim()), None),
    }
}

/// The first value of a kind the question expects in `text`, by the question's order
/// of kinds. A date or time is the whole expression it is part of ("Monday, October
/// 6, 2025 at 9:15 AM"), the most specific one the text gives.
fn typed_value(text: &str, question: &Question, known: &HashSet<String>) -> Option<String> {
    let asked: Vec<String> = question
        .slots
        .iter()
        .map(|s| s.text.to_lowercase())
        .collect();
    let found: Vec<Found> = find_all(text, known)
        .into_iter()
        .filter(|f| {
            let v = text.get(f.span.clone()).unwrap_or("").to_lowercase();
            // The question's own names and numbers are not what it asks for.
            !asked.iter().any(|a| v == *a || a.contains(&v))
                && !question.question.to_lowercase().contains(&v)
        })
        .collect();
    for kind in &question.expects {
        if matches!(kind, AnswerKind::Date | AnswerKind::Time) {
            if let Some(v) = when_value(text, &found) {
                return Some(v);
            }
            continue;
        }
        if let Some(f) = found.iter().find(|f| f.kind == *kind) {
            return text.get(f.span.clone()).map(str::to_string);
        }
    }
    None
}

/// The most specific date-and-time expression of `text`: runs of adjacent dates and
/// times (joined by punctuation or [`DATE_JOINERS`]) are one expression; one with a
/// calendar date beats a weekday, which beats a vague word ("week", "month").
fn when_value(text: &str, found: &[Found]) -> Option<String> {
    let mut parts: Vec<&Found> = found
        .iter()
        .filter(|f| matches!(f.kind, AnswerKind::Date | AnswerKind::Time))
        .collect();
    parts.sort_by_key(|f| f.span.start);
    let joins = |gap: &str| {
        gap.split(|c: char| c.is_whitespace() || ",–—-".contains(c))
            .filter(|w| !w.is_empty())
            .all(|w| DATE_JOINERS.contains(&w.to_lowercase().as_str()))
            && gap.len() <= 12
    };
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for f in parts {
        match runs.last_mut() {
            Some(run) if text.get(run.end..f.span.start).is_some_and(joins) => {
                run.end = run.end.max(f.span.end);
            }
            _ => runs.push(f.span.clone()),
        }
    }
    let specificity = |run: &std::ops::Range<usize>| {
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
    let best = runs
        .iter()
        .enumerate()
        .max_by_key(|(i, r)| (specificity(r), std::cmp::Reverse(*i)))?
        .1;
    let value = text
        .get(best.clone())?
        .trim_end_matches([',', ' ', '-', '–']);
    // One line, as the quote it leads.
    Some(value.split_whitespace().collect::<Vec<_>>().join(" "))
}

fn same_value(a: &str, b: &str) -> bool {
    let norm = |s: &str| {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase()
    };
    norm(a) == norm(b)
}

fn one_line(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('"', "'")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::candidates::Candidate;
    use crate::answer::evidence::item;
    use crate::query::people::AddressBook;

    fn scored(item: usize, text: &str, p: f32) -> Scored {
        Scored {
            candidate: Candidate {
                kind: CandidateKind::Sentence,
                item,
                text: text.into(),
                window: text.into(),
                position: 0,
                of: 1,
                span: None,
                around: None,
            },
            score: f64::from(p),
            probability: p,
        }
    }

    #[test]
    fn the_short_answer_leads_and_a_weak_best_abstains() {
        let q = Question::read("When is the design review?", &AddressBook::default(), 0);
        let pack = EvidencePack::build(vec![item("The design review is on May 8.", "Quill")], 100);
        let s = vec![scored(0, "The design review is on May 8.", 0.9)];
        let sel = compose(&s, &q, &pack, 0.5, &HashSet::new()).expect("answers");
        assert_eq!(sel.text, "May 8 — \"The design review is on May 8.\" [1]");
        assert_eq!(sel.short_answer.as_deref(), Some("May 8"));
        assert!(compose(&s, &q, &pack, 0.95, &HashSet::new()).is_none());
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
    fn a_later_value_supersedes_an_earlier_one() {
        let q = Question::read("When is the design review?", &AddressBook::default(), 0);
        let mut early = item("The design review is on June 3.", "Quill");
        early.date = Some(1_000_000);
        let mut late = item("The design review moved to June 17.", "Quill");
        late.date = Some(2_000_000);
        late.key = "later".into();
        let pack = EvidencePack::build(vec![early, late], 1000);
        let s = vec![
            scored(0, "The design review is on June 3.", 0.9),
            scored(1, "The design review moved to June 17.", 0.7),
        ];
        let sel = compose(&s, &q, &pack, 0.5, &HashSet::new()).expect("answers");
        assert!(sel.text.starts_with("June 17 — "), "{}", sel.text);
        assert!(sel
            .text
            .contains("Earlier, now superseded: \"The design review is on June 3.\" [1]"));
        assert_eq!(sel.superseded, vec![1]);
    }
}
