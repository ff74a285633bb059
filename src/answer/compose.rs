//! From scored candidates to the answer's text: the short answer first (the name,
//! date or amount the question asks for, cut from the best quote), then the verbatim
//! quotes with their `[n]` markers. A list of people (who received it) quotes each
//! one; when messages of different dates give different values of what is asked, the
//! latest is the answer and the earlier ones are quoted as superseded.

use super::candidates::CandidateKind;
use super::evidence::{EvidencePack, Role};
use super::field_answer::{answers_by_form, card_answer, field_answer, is_card, value_overlap};
use super::reader_input::reader_input;
use super::select::Scored;
use super::short_answer::{short_answer, typed_value};
use super::span::SpanFn;
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
/// Rows among the trees' best weighed again by the values the question names, and
/// the share of the best row's probability they must reach.
const ROW_CHOICES: usize = 6;
const ROW_SHARE: f32 = 0.5;
/// Most participants listed for "who received it".
const MAX_PARTICIPANTS: usize = 12;

/// Writes the answer, or None when even the best candidate is under `threshold`.
/// `span`, the reader's span head, picks the short answer within the quote.
pub fn compose(
    scored: &[Scored],
    question: &Question,
    pack: &EvidencePack,
    threshold: f32,
    known_people: &HashSet<String>,
    span: Option<SpanFn<'_>>,
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
    let by_form = |s: &Scored| {
        pack.items
            .get(s.candidate.item)
            .is_some_and(|i| answers_by_form(i, &s.candidate.text, question))
    };

    if let CandidateKind::Participant { role, .. } = best.candidate.kind {
        return Some(participants(scored, best, role, threshold, question, pack));
    }

    // Latest wins: a passage of a later message that gives another value of the kind
    // asked for, about the same thing, takes the lead.
    let mut primary = best;
    let mut superseded = Vec::new();
    // The quote shown as replaced, when a later value leads.
    let mut earlier: Option<&Scored> = None;
    if !question.expects.is_empty() && best.candidate.kind == CandidateKind::Sentence {
        let value = |s: &Scored| typed_value(&s.candidate.text, question, known_people);
        if let Some(v0) = value(best) {
            let named = named_stems(&best.candidate.text, question);
            let later = scored
                .iter()
                .skip(1)
                .take(12)
                .filter(|s| s.candidate.kind == CandidateKind::Sentence)
                .filter(|s| s.probability >= threshold.max(best.probability * SUPERSEDED_SHARE))
                .filter(|s| key_of(s) != key_of(best))
                .filter(|s| date_of(s).zip(date_of(best)).is_some_and(|(a, b)| a > b))
                .filter(|s| value(s).is_some_and(|v| !same_value(&v, &v0)))
                // It restates what is asked as fully as the earlier passage does: a
                // later figure about something else replaces nothing.
                .filter(|s| named_stems(&s.candidate.text, question) >= named)
                // A line that answers by its form gives way only to another such.
                .filter(|s| !by_form(best) || by_form(s))
                // The latest message; of its passages, the best scored (the first).
                .enumerate()
                .max_by_key(|(i, s)| (date_of(s), std::cmp::Reverse(*i)))
                .map(|(_, s)| s);
            if let Some(l) = later {
                primary = l;
                superseded.push(n_of(best));
                earlier = Some(best);
            }
        }
    }

    // Rows of a table: the row whose values the question names leads, among rows
    // the trees scored close to the best.
    let is_record = |s: &Scored| pack.items.get(s.candidate.item).is_some_and(|i| i.fields);
    if is_record(primary) && superseded.is_empty() {
        let rows = scored
            .iter()
            .take(ROW_CHOICES)
            .filter(|s| is_record(s) && s.probability >= primary.probability * ROW_SHARE);
        let named = rows
            .enumerate()
            .max_by_key(|(i, s)| {
                (
                    value_overlap(&s.candidate.text, question),
                    std::cmp::Reverse(*i),
                )
            })
            .map(|(_, s)| s);
        if let Some(row) = named {
            primary = row;
        }
    }

    // An event a later invitation updated or cancelled: its latest version leads.
    let later = pack
        .items
        .get(primary.candidate.item)
        .and_then(|i| i.later_version.as_deref());
    if let Some(later) = later {
        let latest = scored.iter().find(|s| {
            s.candidate.kind == CandidateKind::Sentence
                && pack
                    .items
                    .get(s.candidate.item)
                    .is_some_and(|i| i.key == later && i.attachment.is_some())
        });
        if let Some(l) = latest {
            superseded.push(n_of(primary));
            earlier = Some(primary);
            primary = l;
        }
    }
    // The latest version leads already: an earlier one in the evidence is shown as
    // replaced.
    if earlier.is_none() {
        let key = pack
            .items
            .get(primary.candidate.item)
            .map(|i| i.key.as_str());
        earlier = scored.iter().find(|s| {
            s.candidate.kind == CandidateKind::Sentence
                && pack
                    .items
                    .get(s.candidate.item)
                    .is_some_and(|i| i.later_version.as_deref().is_some_and(|l| Some(l) == key))
        });
        if let Some(e) = earlier {
            superseded.push(n_of(e));
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
        // Another row of the table, or another field of an invitation's card, answers
        // another question, unless a list is asked.
        let card_line = |s: &Scored| pack.items.get(s.candidate.item).is_some_and(is_card);
        let other_row = (is_record(s) || card_line(s) && card_line(primary))
            && question.qtype != QuestionType::List;
        let same_message = key_of(s) == key_of(primary) && !other_row;
        if close && (same_message || question.qtype == QuestionType::List) {
            chosen.push(s);
        }
    }

    // A lead that ends in a colon announces what follows ("the workshop moves to a
    // new room:"): the next sentence of its passage is quoted too.
    let follower = primary
        .candidate
        .text
        .trim_end()
        .ends_with(':')
        .then(|| {
            scored.iter().find(|s| {
                s.candidate.kind == CandidateKind::Sentence
                    && s.candidate.item == primary.candidate.item
                    && s.candidate.position == primary.candidate.position + 1
            })
        })
        .flatten();
    if let Some(f) = follower {
        chosen.retain(|c| !std::ptr::eq(*c, f));
        chosen.insert(1, f);
    }

    let logits = span
        .filter(|_| !question.expects.is_empty())
        .and_then(|read| {
            let input = reader_input(pack.items.get(primary.candidate.item)?, &primary.candidate)?;
            read(&question.question, &input)
        });
    let record = pack
        .items
        .get(primary.candidate.item)
        .is_some_and(|i| i.fields);
    let card = pack.items.get(primary.candidate.item).is_some_and(is_card);
    let short = if record {
        field_answer(&primary.candidate.text, question)
    } else if let Some(value) = card
        .then(|| card_answer(&primary.candidate.text, question))
        .flatten()
    {
        Some(value)
    } else if let Some(f) =
        follower.filter(|_| typed_value(&primary.candidate.text, question, known_people).is_none())
    {
        // The value is in what the colon announces.
        short_answer(&f.candidate.text, question, known_people, None)
    } else {
        short_answer(
            &primary.candidate.text,
            question,
            known_people,
            logits.as_ref(),
        )
    };
    let mut lines = Vec::new();
    // The short answer leads the first quote that holds it: the lead's, or the
    // sentence its colon announces.
    let mut led = false;
    for (i, s) in chosen.iter().enumerate() {
        let quote = one_line(&s.candidate.text);
        let n = n_of(s);
        let may_lead = i == 0 || follower.is_some_and(|f| std::ptr::eq(*s, f));
        lines.push(match &short {
            Some(v) if !led && may_lead && quote.contains(v.as_str()) => {
                led = true;
                format!("{v} — \"{quote}\" [{n}]")
            }
            _ => format!("\"{quote}\" [{n}]"),
        });
    }
    if let Some(e) = earlier {
        lines.push(format!(
            "Earlier, now superseded: \"{}\" [{}]",
            one_line(&e.candidate.text),
            n_of(e)
        ));
    }
    Some(Selection {
        text: lines.join("\n"),
        short_answer: short,
        superseded,
        probability: best.probability,
    })
}

/// How many of the question's word stems `text` names, each once.
fn named_stems(text: &str, question: &Question) -> usize {
    let own: HashSet<String> = crate::query::terms::stems(text).into_iter().collect();
    let asked: HashSet<&String> = question.stems.iter().collect();
    asked.into_iter().filter(|s| own.contains(*s)).count()
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
    // "Who received it?" asks for them all, in header order; otherwise only those
    // the selector backs nearly as well as the best.
    let every = recipients && question.asks_every_recipient();
    let mut chosen: Vec<&Scored> = scored
        .iter()
        .filter(|s| match s.candidate.kind {
            CandidateKind::Participant { role: r, .. } => {
                (r == role || recipients && matches!(r, Role::To | Role::Cc))
                    && pack.items.get(s.candidate.item).map(|i| i.key.as_str()) == Some(key)
            }
            _ => false,
        })
        .filter(|s| every || s.probability >= threshold.max(best.probability * COMPANION_SHARE))
        .collect();
    if every {
        chosen.sort_by_key(|s| match s.candidate.kind {
            CandidateKind::Participant { role, rank } => (role != Role::To, rank),
            _ => (true, usize::MAX),
        });
        let mut seen = HashSet::new();
        chosen.retain(|s| seen.insert(s.candidate.text.as_str()));
    }
    chosen.truncate(MAX_PARTICIPANTS);
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
    use crate::answer::evidence::item;
    use crate::query::people::AddressBook;

    fn scored(item: usize, text: &str, p: f32) -> Scored {
        Scored::of_text(CandidateKind::Sentence, item, text, f64::from(p), p)
    }

    #[test]
    fn the_short_answer_leads_and_a_weak_best_abstains() {
        let q = Question::read("When is the design review?", &AddressBook::default(), 0);
        let pack = EvidencePack::build(vec![item("The design review is on May 8.", "Quill")], 100);
        let s = vec![scored(0, "The design review is on May 8.", 0.9)];
        let sel = compose(&s, &q, &pack, 0.5, &HashSet::new(), None).expect("answers");
        assert_eq!(sel.text, "May 8 — \"The design review is on May 8.\" [1]");
        assert_eq!(sel.short_answer.as_deref(), Some("May 8"));
        assert!(compose(&s, &q, &pack, 0.95, &HashSet::new(), None).is_none());
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
        let sel = compose(&s, &q, &pack, 0.5, &HashSet::new(), None).expect("answers");
        assert!(sel.text.starts_with("June 17 — "), "{}", sel.text);
        assert!(sel
            .text
            .contains("Earlier, now superseded: \"The design review is on June 3.\" [1]"));
        assert_eq!(sel.superseded, vec![1]);
    }

    #[test]
    fn a_lead_ending_in_a_colon_quotes_what_it_announces() {
        let q = Question::read(
            "where is the tuesday workshop now?",
            &AddressBook::default(),
            0,
        );
        let text = "Please note a change of place for the Tuesday workshop:\nWe will now meet in Room 4B. Lunch is at noon.";
        let pack = EvidencePack::build(vec![item(text, "Quill")], 1000);
        let cands = crate::answer::candidates::candidates(&pack);
        let at = |needle: &str| {
            cands
                .iter()
                .find(|c| c.text.starts_with(needle))
                .cloned()
                .expect("a sentence")
        };
        let s = vec![
            Scored {
                candidate: at("Please note"),
                score: 1.0,
                probability: 0.9,
            },
            Scored {
                candidate: at("Lunch"),
                score: 0.5,
                probability: 0.3,
            },
            Scored {
                candidate: at("We will"),
                score: 0.1,
                probability: 0.1,
            },
        ];
        let sel = compose(&s, &q, &pack, 0.5, &HashSet::new(), None).expect("answers");
        let lines: Vec<&str> = sel.text.lines().collect();
        assert!(lines[0].starts_with("\"Please note"), "{}", sel.text);
        assert!(
            lines[1].contains("We will now meet in Room 4B."),
            "{}",
            sel.text
        );
        assert!(!sel.text.contains("Lunch"), "{}", sel.text);
    }

    #[test]
    fn a_later_figure_about_something_else_replaces_nothing() {
        let q = Question::read(
            "How much do the tables for the fair cost?",
            &AddressBook::default(),
            0,
        );
        let mut early = item(
            "The tables for the fair cost $240 from Corvid Hire.",
            "Quill",
        );
        early.date = Some(1_000_000);
        let mut late = item("Parking at the fair is $15 a car.", "Quill");
        late.date = Some(2_000_000);
        late.key = "later".into();
        let pack = EvidencePack::build(vec![early, late], 1000);
        let s = vec![
            scored(
                0,
                "The tables for the fair cost $240 from Corvid Hire.",
                0.9,
            ),
            scored(1, "Parking at the fair is $15 a car.", 0.8),
        ];
        let sel = compose(&s, &q, &pack, 0.5, &HashSet::new(), None).expect("answers");
        assert!(sel.text.starts_with("$240 — "), "{}", sel.text);
        assert!(sel.superseded.is_empty(), "{}", sel.text);
        // Restating the tables, a later sum does replace it.
        let mut later = item("The tables for the fair now cost $310.", "Quill");
        later.date = Some(3_000_000);
        later.key = "latest".into();
        let mut early = item(
            "The tables for the fair cost $240 from Corvid Hire.",
            "Quill",
        );
        early.date = Some(1_000_000);
        let pack = EvidencePack::build(vec![early, later], 1000);
        let s = vec![
            scored(
                0,
                "The tables for the fair cost $240 from Corvid Hire.",
                0.9,
            ),
            scored(1, "The tables for the fair now cost $310.", 0.8),
        ];
        let sel = compose(&s, &q, &pack, 0.5, &HashSet::new(), None).expect("answers");
        assert!(sel.text.starts_with("$310 — "), "{}", sel.text);
        assert_eq!(sel.superseded, vec![1]);
    }

    #[test]
    fn of_a_later_messages_passages_the_best_scored_supersedes() {
        let q = Question::read("When is the design review?", &AddressBook::default(), 0);
        let mut early = item("The design review is on June 3.", "Quill");
        early.date = Some(1_000_000);
        let mut late = item(
            "The design review moved to June 17. The slides are due June 10.",
            "Quill",
        );
        late.date = Some(2_000_000);
        late.key = "later".into();
        let pack = EvidencePack::build(vec![early, late], 1000);
        let s = vec![
            scored(0, "The design review is on June 3.", 0.9),
            scored(1, "The design review moved to June 17.", 0.8),
            scored(1, "The slides are due June 10.", 0.6),
        ];
        let sel = compose(&s, &q, &pack, 0.5, &HashSet::new(), None).expect("answers");
        assert!(sel.text.starts_with("June 17 — "), "{}", sel.text);
    }

    fn participant(role: Role, rank: usize, text: &str, p: f32) -> Scored {
        let mut s = scored(0, text, p);
        s.candidate.kind = CandidateKind::Participant { role, rank };
        s
    }

    #[test]
    fn who_received_it_lists_every_recipient_in_header_order() {
        let pack = EvidencePack::build(vec![item("The kiln permit is renewed.", "Quill")], 100);
        // The selector backs one recipient far above the others.
        let s = vec![
            participant(Role::Cc, 0, "Ines Moreau <ines@kiln.example>", 0.9),
            participant(Role::To, 1, "Omar Haddad <omar@kiln.example>", 0.3),
            participant(Role::To, 0, "Dana Reyes <dana@kiln.example>", 0.2),
        ];
        let short = |q: &str| {
            let q = Question::read(q, &AddressBook::default(), 0);
            compose(&s, &q, &pack, 0.5, &HashSet::new(), None)
                .expect("answers")
                .short_answer
        };
        assert_eq!(
            short("Who received the email?").as_deref(),
            Some("Dana Reyes, Omar Haddad, Ines Moreau")
        );
        // One recipient picked out by a single role stays the selector's choice.
        assert_eq!(
            short("Who is the main recipient?").as_deref(),
            Some("Ines Moreau")
        );
    }
}
