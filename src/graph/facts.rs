//! Dated facts from authored text: (attribute, value) pairs a sender states, such as
//! "the strike price is $14.50" or "Venue: Harbor Room", each kept with the byte
//! spans of its sentence and its value in the stored body. The value is a typed value
//! the detectors find (a date, a sum, a place...); the attribute is the phrase a
//! linking verb or a colon joins to it. A fact is kept only when its evidence is
//! found verbatim in the message's authored text ([`locate`]): facts another source
//! proposes (an LLM) pass the same check, and offsets always come from code.

use crate::answer::detect::find_all;
use crate::answer::sentences::sentences;
use crate::lexicon::{is_stop_word, FACT_LINK_WORDS, FACT_VERBS, HEADER_LABELS};
use crate::mail::clean::Segment;
use crate::query::question::AnswerKind;
use crate::query::terms::stem;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Most words an attribute has.
const ATTRIBUTE_WORDS: usize = 4;

/// A fact one message states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    /// The attribute as written: "strike price".
    pub attribute: String,
    /// Its words' stems, for matching across wordings: "strike price".
    pub key: String,
    /// The value as written: "$14.50".
    pub value: String,
    /// What kind of value: "money", "date", "place"...
    pub kind: String,
    /// The sentence that states it, as a byte span of the body.
    pub start: u32,
    pub end: u32,
    /// The value's byte span in the body.
    pub value_start: u32,
    pub value_end: u32,
}

/// A typed value the authored text names (a person, a place, a sum, a date, a
/// code...), with its byte span in the body: the graph's entities, whether or not a
/// fact states them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entity {
    pub kind: String,
    pub text: String,
    pub start: u32,
    pub end: u32,
}

/// Most entities kept of one message.
const ENTITIES: usize = 64;

/// The entities of the authored segments of `body`, each distinct text once, in order.
pub fn entities(body: &str, segments: &[Segment], known_people: &HashSet<String>) -> Vec<Entity> {
    read(body, segments, known_people).1
}

/// A fact proposed with its evidence, before it is found in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proposed {
    pub attribute: String,
    pub value: String,
    pub kind: String,
    /// The sentence that states it, as the proposer quotes it.
    pub evidence: String,
}

/// The facts the authored segments of `body` state. `known_people` helps find names
/// (lowercased name parts of the mailbox's people).
pub fn extract(body: &str, segments: &[Segment], known_people: &HashSet<String>) -> Vec<Fact> {
    read(body, segments, known_people).0
}

/// The facts and the entities of the authored segments of `body`, in one reading
/// of its sentences (the detectors run once).
pub fn read(
    body: &str,
    segments: &[Segment],
    known_people: &HashSet<String>,
) -> (Vec<Fact>, Vec<Entity>) {
    let mut facts = Vec::new();
    let mut entities: Vec<Entity> = Vec::new();
    for seg in segments.iter().filter(|s| s.kind.is_citable()) {
        let Some(text) = body.get(seg.start..seg.end) else {
            continue;
        };
        for span in sentences(text) {
            let sentence = span.text(text);
            let found = find_all(sentence, known_people);
            for f in &found {
                let value = sentence[f.span.clone()].trim();
                let kind = kind_name(f.kind);
                let known = entities.iter().any(|e| e.kind == kind && e.text == value);
                if value.is_empty() || known || entities.len() >= ENTITIES {
                    continue;
                }
                let start = seg.start + span.start + f.span.start;
                entities.push(Entity {
                    kind: kind.to_string(),
                    text: value.to_string(),
                    start: start as u32,
                    end: (start + value.len()) as u32,
                });
            }
            if let Some(proposed) = labelled(sentence, &found) {
                push_located(&mut facts, body, segments, &proposed);
                continue;
            }
            for found in found {
                let Some(attribute) = attribute_before(&sentence[..found.span.start], found.kind)
                else {
                    continue;
                };
                let value = &sentence[found.span.clone()];
                let proposed = Proposed {
                    attribute,
                    value: value.to_string(),
                    kind: kind_name(found.kind).to_string(),
                    evidence: sentence.to_string(),
                };
                push_located(&mut facts, body, segments, &proposed);
            }
        }
    }
    (facts, entities)
}

fn push_located(out: &mut Vec<Fact>, body: &str, segments: &[Segment], proposed: &Proposed) {
    if let Some(fact) = locate(body, segments, proposed) {
        if !out
            .iter()
            .any(|f| f.key == fact.key && f.value == fact.value)
        {
            out.push(fact);
        }
    }
}

/// Most words a labelled line's label and value have ("Venue: Harbor Room, 3rd floor").
const LABEL_WORDS: usize = 4;
const LABELLED_VALUE_WORDS: usize = 10;

/// A labelled line, "Label: value": the label is the attribute and the rest of the
/// line the value, typed by the detected value that covers most of it ("text" when
/// none does). Header-like labels ("From:", "Sent:") are not facts.
fn labelled(sentence: &str, found: &[crate::answer::detect::Found]) -> Option<Proposed> {
    let (label, rest) = sentence.split_once(':')?;
    // A list item's bullet is not part of its label.
    let label = label
        .trim()
        .trim_start_matches(['-', '*', '\u{2022}', '>'])
        .trim();
    let value = rest.trim().trim_end_matches(['.', ';', ',']).trim();
    let label_words: Vec<&str> = label.split_whitespace().collect();
    if label_words.is_empty()
        || label_words.len() > LABEL_WORDS
        || !label
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '\'')
        || label_words.iter().all(|w| is_stop_word(&w.to_lowercase()))
        || HEADER_LABELS.contains(&label.to_lowercase().as_str())
        || value.is_empty()
        || value.split_whitespace().count() > LABELLED_VALUE_WORDS
        || value.starts_with("//")
    {
        return None;
    }
    let value_at = sentence.len() - rest.trim_start().len();
    let covering = found
        .iter()
        .filter(|f| f.span.start >= value_at)
        .max_by_key(|f| f.span.end - f.span.start)
        .filter(|f| 2 * (f.span.end - f.span.start) >= value.len());
    Some(Proposed {
        attribute: label.to_string(),
        value: value.to_string(),
        kind: covering.map_or("text", |f| kind_name(f.kind)).to_string(),
        evidence: sentence.to_string(),
    })
}

/// Finds a proposed fact's evidence verbatim in the authored text of `body` and its
/// value inside that evidence, and returns the fact with the offsets found; `None`
/// when either is not there (the fact is dropped).
pub fn locate(body: &str, segments: &[Segment], proposed: &Proposed) -> Option<Fact> {
    let evidence = proposed.evidence.trim();
    let value = proposed.value.trim();
    let key = attribute_key(&proposed.attribute);
    if evidence.is_empty() || value.is_empty() || key.is_empty() {
        return None;
    }
    for seg in segments.iter().filter(|s| s.kind.is_citable()) {
        let text = body.get(seg.start..seg.end)?;
        let mut from = 0;
        while let Some(at) = text.get(from..).and_then(|t| t.find(evidence)) {
            let start = seg.start + from + at;
            let end = start + evidence.len();
            if let Some(v) = evidence.find(value) {
                let value_start = start + v;
                return Some(Fact {
                    attribute: proposed.attribute.trim().to_string(),
                    key,
                    value: value.to_string(),
                    kind: proposed.kind.clone(),
                    start: start as u32,
                    end: end as u32,
                    value_start: value_start as u32,
                    value_end: (value_start + value.len()) as u32,
                });
            }
            from += at + evidence.len().max(1);
        }
    }
    None
}

/// The stems of an attribute's words, joined: how two wordings of one attribute
/// ("Strike prices", "strike price") are matched.
pub fn attribute_key(attribute: &str) -> String {
    attribute
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn kind_name(kind: AnswerKind) -> &'static str {
    match kind {
        AnswerKind::Person => "person",
        AnswerKind::Organization => "organisation",
        AnswerKind::Date => "date",
        AnswerKind::Time => "time",
        AnswerKind::Money => "money",
        AnswerKind::Quantity => "quantity",
        AnswerKind::Place => "place",
        AnswerKind::Phone => "phone",
        AnswerKind::Email => "email",
        AnswerKind::Code => "code",
    }
}

/// Text as written in a body, shown on one line: its line breaks and indents (a
/// wrapped line) read as one space. Values and quotes keep their spans as written.
pub fn flowed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The attribute a value is stated for, from the text before the value: a colon, or
/// a linking verb with the little words around it ("has been moved to"), and before
/// them up to four words of a noun phrase, back to a determiner, a pronoun or
/// punctuation. A person or an organisation must follow the verb or colon directly
/// ("the lead is Ana Ruiz", not "was moved by Ana Ruiz").
fn attribute_before(before: &str, kind: AnswerKind) -> Option<String> {
    let pieces: Vec<&str> = before.split_whitespace().collect();
    let lower = |raw: &str| {
        raw.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    let last = *pieces.last()?;
    let named = matches!(kind, AnswerKind::Person | AnswerKind::Organization);
    if named && !last.ends_with(':') && !FACT_VERBS.contains(&lower(last).as_str()) {
        return None;
    }
    let mut i = pieces.len();
    let mut linked = false;
    while i > 0 {
        let raw = pieces[i - 1];
        let word = lower(raw);
        let is_verb = FACT_VERBS.contains(&word.as_str());
        let is_link = FACT_LINK_WORDS.contains(&word.as_str());
        if raw.ends_with(':') && i == pieces.len() && !is_verb && !is_link {
            // "Venue: Harbor Room": the colon links, and its word ends the attribute.
            linked = true;
            break;
        }
        if is_verb || raw.ends_with(':') {
            linked = true;
        } else if !is_link {
            break;
        }
        i -= 1;
    }
    if !linked {
        return None;
    }
    let mut words: Vec<&str> = Vec::new();
    let mut j = i;
    while j > 0 && words.len() < ATTRIBUTE_WORDS {
        let raw = pieces[j - 1];
        let ends_clause =
            raw.ends_with(['.', ',', ';', '!', '?', ')']) || (j < i && raw.ends_with(':'));
        let word = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
        let plain = word.len() >= 2
            && word.chars().all(|c| c.is_alphabetic() || c == '-')
            && !is_stop_word(&word.to_lowercase())
            && !FACT_VERBS.contains(&word.to_lowercase().as_str());
        if ends_clause || !plain {
            break;
        }
        words.push(word);
        j -= 1;
    }
    words.reverse();
    (!words.is_empty()).then(|| words.join(" "))
}

/// A fact where it was stated: the graph's unit, listed and looked up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DatedFact {
    #[serde(flatten)]
    pub fact: Fact,
    /// What the fact is about: its thread's subject, reply prefixes dropped.
    pub subject: String,
    /// The thread (hex id) and the stating message (hex key).
    pub thread: String,
    pub message: String,
    pub message_id: Option<String>,
    pub author: String,
    pub date: Option<i64>,
    /// The quote: the stating sentence.
    pub quote: String,
    /// The index (in the same list) of the later fact of the same subject and
    /// attribute that replaced this one with another value.
    pub superseded_by: Option<usize>,
}

/// Marks every fact that a later fact of the same thread and attribute gave
/// another value: the latest stands, the earlier ones point to it. Both are kept.
pub fn mark_superseded(facts: &mut [DatedFact]) {
    for i in 0..facts.len() {
        let latest = (0..facts.len())
            .filter(|&j| {
                facts[j].thread == facts[i].thread && facts[j].fact.key == facts[i].fact.key
            })
            .max_by(|&a, &b| {
                facts[a]
                    .date
                    .cmp(&facts[b].date)
                    .then_with(|| facts[a].fact.start.cmp(&facts[b].fact.start))
            });
        facts[i].superseded_by = latest.filter(|&j| {
            facts[j].message != facts[i].message
                && facts[j].date > facts[i].date
                && !same_value(&facts[j].fact.value, &facts[i].fact.value)
        });
    }
}

/// Two wordings of one value: one holds the other once case, spaces and
/// punctuation are set aside ("$14.50" and "$14.50 per share").
fn same_value(a: &str, b: &str) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .collect::<String>()
            .to_lowercase()
    };
    let (a, b) = (norm(a), norm(b));
    !a.is_empty() && !b.is_empty() && (a.contains(&b) || b.contains(&a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::clean::segment_body;

    #[test]
    fn a_value_wrapped_over_lines_is_shown_on_one() {
        assert_eq!(
            flowed("the deposit of\n    two weeks'\r\n rent"),
            "the deposit of two weeks' rent"
        );
        assert_eq!(flowed("  $310  "), "$310");
    }

    fn facts_of(body: &str) -> Vec<(String, String, String)> {
        extract(body, &segment_body(body), &HashSet::new())
            .into_iter()
            .map(|f| (f.attribute, f.value, f.kind))
            .collect()
    }

    #[test]
    fn a_linking_verb_or_a_colon_joins_an_attribute_to_its_value() {
        let got = facts_of(
            "Hi all,\n\nThe strike price is $14.50 per share. The kickoff review has been moved to Friday.\n\nVenue: Harbor Room\n",
        );
        assert!(
            got.contains(&("strike price".into(), "$14.50".into(), "money".into())),
            "{got:?}"
        );
        assert!(
            got.iter()
                .any(|(a, v, _)| a == "kickoff review" && v.contains("Friday")),
            "{got:?}"
        );
        assert!(
            got.iter()
                .any(|(a, v, _)| a == "Venue" && v.contains("Harbor Room")),
            "{got:?}"
        );
    }

    #[test]
    fn values_without_a_named_attribute_are_not_facts() {
        let got =
            facts_of("I will see you at 3pm on Friday. It is $20. We paid $40, and then left.\n");
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn entities_are_typed_values_of_authored_text_with_their_spans() {
        let body =
            "Ana booked the Harbor Room for March 3. The deposit was $900.\n\n> Old news: $50.\n";
        let found = entities(body, &segment_body(body), &HashSet::new());
        let texts: Vec<(&str, &str)> = found
            .iter()
            .map(|e| (e.kind.as_str(), e.text.as_str()))
            .collect();
        assert!(texts.contains(&("money", "$900")), "{texts:?}");
        assert!(
            !texts.iter().any(|(_, t)| *t == "$50"),
            "quoted text names none: {texts:?}"
        );
        for e in &found {
            assert_eq!(&body[e.start as usize..e.end as usize], e.text);
        }
    }

    #[test]
    fn quoted_text_states_no_fact_of_this_message() {
        let body = "Thanks, noted.\n\n> The deposit is $900.\n";
        assert!(facts_of(body).is_empty());
    }

    #[test]
    fn offsets_point_at_the_evidence_and_the_value() {
        let body = "Hello.\nThe budget cap is $12,000 for now.\n";
        let facts = extract(body, &segment_body(body), &HashSet::new());
        let f = facts
            .iter()
            .find(|f| f.key == attribute_key("budget cap"))
            .expect("a fact");
        assert_eq!(&body[f.value_start as usize..f.value_end as usize], f.value);
        assert!(body[f.start as usize..f.end as usize].contains("budget cap is $12,000"));
    }

    #[test]
    fn a_proposed_fact_is_kept_only_when_its_evidence_is_found_verbatim() {
        let body = "The room is Studio 4.\n\n> The room is Studio 9.\n";
        let segs = segment_body(body);
        let proposed = |evidence: &str, value: &str| Proposed {
            attribute: "room".into(),
            value: value.into(),
            kind: "place".into(),
            evidence: evidence.into(),
        };
        let kept = locate(body, &segs, &proposed("The room is Studio 4.", "Studio 4")).unwrap();
        assert_eq!(
            &body[kept.value_start as usize..kept.value_end as usize],
            "Studio 4"
        );
        // Invented evidence, a value outside its evidence, and quoted text are dropped.
        assert_eq!(
            locate(body, &segs, &proposed("The room was Studio 4.", "Studio 4")),
            None
        );
        assert_eq!(
            locate(body, &segs, &proposed("The room is Studio 4.", "Studio 7")),
            None
        );
        assert_eq!(
            locate(body, &segs, &proposed("The room is Studio 9.", "Studio 9")),
            None
        );
    }

    fn dated(thread: &str, attribute: &str, value: &str, date: i64) -> DatedFact {
        DatedFact {
            fact: Fact {
                attribute: attribute.into(),
                key: attribute_key(attribute),
                value: value.into(),
                kind: "date".into(),
                start: 0,
                end: 1,
                value_start: 0,
                value_end: 1,
            },
            subject: "launch".into(),
            thread: thread.into(),
            message: format!("m{date}"),
            message_id: None,
            author: "Ana".into(),
            date: Some(date),
            quote: String::new(),
            superseded_by: None,
        }
    }

    #[test]
    fn a_later_value_of_the_same_attribute_supersedes_and_both_are_kept() {
        let mut facts = vec![
            dated("t1", "ship date", "March 3", 100),
            dated("t1", "ship dates", "March 17", 200),
            dated("t1", "ship date", "March 17", 150),
            dated("t2", "ship date", "April 1", 50),
        ];
        mark_superseded(&mut facts);
        assert_eq!(facts[0].superseded_by, Some(1));
        assert_eq!(facts[1].superseded_by, None);
        assert_eq!(
            facts[2].superseded_by, None,
            "the same value restated is not replaced"
        );
        let mut same_message = vec![dated("t1", "fee", "$40", 10), dated("t1", "fee", "$45", 10)];
        same_message[1].message = same_message[0].message.clone();
        mark_superseded(&mut same_message);
        assert_eq!(
            same_message[0].superseded_by, None,
            "one message does not replace itself"
        );
        assert_eq!(
            facts[3].superseded_by, None,
            "another thread's fact stands apart"
        );
    }
}
