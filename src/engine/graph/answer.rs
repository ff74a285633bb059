//! Participation questions answered from the graph: who is on a conversation, who
//! joined it and when, who the user dealt with at an organisation. The answer quotes
//! header lines ("Cc: Wen Li <wen@larch.example>") of the messages that show them,
//! and passes the citation validator like every answer. When the graph finds the
//! conversation but not what is asked (no one was copied, the person never joined),
//! the honest answer is "I don't know"; when it cannot find the conversation, the
//! question goes to the evidence selector as any other.

use crate::answer::evidence::{EvidenceItem, EvidencePack, Participant};
use crate::answer::validate::validate;
use crate::engine::ask::{assemble, Answered};
use crate::engine::graph::ThreadGraph;
use crate::engine::SearchMode;
use crate::engine::{Engine, Result};
use crate::graph::identity::reading_order;
use crate::graph::thread_people::{PartRole, ThreadParticipant};
use crate::mail::model::MessageKey;
use crate::query::graph_intent::{graph_ask, Among, GraphAsk};
use crate::query::person_detail::detail_ask;
use crate::query::question::Question;
use crate::query::terms::{content_words, stem};
use std::collections::HashSet;

/// Most people an answer names.
const NAMED: usize = 8;
/// Messages a topic search finds, and how many of the best are read for the topic.
const TOPIC_HITS: usize = 10;
const TOPIC_CANDIDATES: usize = 5;

/// What the graph made of a question.
pub(in crate::engine) enum GraphOutcome {
    /// Not a question for the graph, or its conversation was not found.
    NotForGraph,
    /// The graph found the conversation and it does not show what is asked.
    NoAnswer(String),
    Answered(Answered, String),
}

/// One line of a graph answer: a header line of one message.
struct Line {
    message: MessageKey,
    role: PartRole,
    address: String,
    /// The claim's own words before the quote ("Wen Li joined on May 3, 2001:").
    lead: String,
    name: String,
}

impl Engine {
    /// Answers a participation question from the headers; `thread` is the thread in
    /// view, if any.
    pub(in crate::engine) fn graph_answer(
        &self,
        plan: &Question,
        thread: Option<&str>,
    ) -> Result<GraphOutcome> {
        let known = |words: &[String]| {
            self.organisation_named(&words.join(" "))
                .ok()
                .flatten()
                .is_some()
        };
        // A person's title or number: their card says it.
        if let Some(ask) = detail_ask(&plan.question) {
            if let Some((answered, note)) = self.person_detail(plan, &ask)? {
                return Ok(GraphOutcome::Answered(answered, note));
            }
        }
        let Some(ask) = graph_ask(plan, &known) else {
            return Ok(GraphOutcome::NotForGraph);
        };
        let (topic, organisation) = match &ask {
            GraphAsk::FirstMention { topic } => return self.first_mention(topic),
            GraphAsk::CurrentValue { topic } => return self.current_value(plan, topic),
            GraphAsk::Participants { topic, .. } | GraphAsk::Joined { topic, .. } => {
                (topic.clone(), None)
            }
            GraphAsk::AtOrganisation {
                organisation,
                topic,
            } => match self.organisation_named(&organisation.join(" "))? {
                Some(org) => (topic.clone(), Some(org)),
                None => return Ok(GraphOutcome::NotForGraph),
            },
        };
        let graph = match thread {
            Some(t) => self.thread_graph(t)?,
            None if !topic.is_empty() => self.topic_thread(&plan.question, &topic)?,
            None => None,
        };
        let lines = match (&ask, &graph, &organisation) {
            (GraphAsk::AtOrganisation { .. }, None, Some(org)) => self.people_lines(&org.domain)?,
            (_, None, _) => return Ok(GraphOutcome::NotForGraph),
            (GraphAsk::Participants { among, .. }, Some(g), _) => participant_lines(g, *among),
            (GraphAsk::Joined { person, .. }, Some(g), _) => joined_lines(g, person),
            (GraphAsk::AtOrganisation { .. }, Some(g), Some(org)) => {
                let at: Vec<&ThreadParticipant> = g
                    .participants
                    .iter()
                    .filter(|p| {
                        p.addresses.iter().any(|a| {
                            a.ends_with(&format!("@{}", org.domain))
                                || a.ends_with(&format!(".{}", org.domain))
                        })
                    })
                    .collect();
                at.into_iter()
                    .filter_map(|p| line_for(g, p, p.first, ""))
                    .collect()
            }
            (GraphAsk::AtOrganisation { .. }, Some(_), None)
            | (GraphAsk::FirstMention { .. } | GraphAsk::CurrentValue { .. }, ..) => {
                return Ok(GraphOutcome::NotForGraph)
            }
        };
        let note = match &graph {
            Some(g) => format!(
                "answered from the headers of the thread \u{201c}{}\u{201d}",
                g.subject
            ),
            None => "answered from the headers of the mail".to_string(),
        };
        if lines.is_empty() {
            return Ok(GraphOutcome::NoAnswer(match &graph {
                Some(g) => format!(
                    "the headers of \u{201c}{}\u{201d} do not show that",
                    g.subject
                ),
                None => "the headers do not show that".into(),
            }));
        }
        Ok(match self.cite_lines(&lines)? {
            Some(answered) => GraphOutcome::Answered(answered, note),
            None => GraphOutcome::NotForGraph,
        })
    }

    /// The thread whose mail holds every topic word, the best such hit's.
    fn topic_thread(&self, question: &str, topic: &[String]) -> Result<Option<ThreadGraph>> {
        let retrieval = match self.question_retrieval(question, TOPIC_HITS, SearchMode::Hybrid) {
            Ok(r) => r,
            Err(_) => return Ok(None),
        };
        let wanted: Vec<String> = topic.iter().map(|w| stem(w)).collect();
        for hit in retrieval.hits.iter().take(TOPIC_CANDIDATES) {
            let Some(msg) = MessageKey::from_hex(&hit.hit.key)
                .map(|k| self.store.message(&k))
                .transpose()?
                .flatten()
            else {
                continue;
            };
            let words: HashSet<String> = content_words(&format!("{} {}", msg.subject, msg.body))
                .iter()
                .map(|w| stem(w))
                .collect();
            let covered = wanted.iter().filter(|w| words.contains(*w)).count();
            // Most of the topic's words: the conversation is about it.
            if 3 * covered >= 2 * wanted.len() {
                return self.thread_graph(&hit.hit.thread_id);
            }
        }
        Ok(None)
    }

    /// Everyone at a domain, each with their latest message.
    fn people_lines(&self, domain: &str) -> Result<Vec<Line>> {
        let view = self.people(domain)?;
        let mut lines = Vec::new();
        for p in view.people.iter().take(NAMED) {
            let Some(key) = p.latest_message.as_deref().and_then(MessageKey::from_hex) else {
                continue;
            };
            let Some(msg) = self.store.message(&key)? else {
                continue;
            };
            let found = [
                (PartRole::From, &msg.from),
                (PartRole::To, &msg.to),
                (PartRole::Cc, &msg.cc),
            ]
            .into_iter()
            .find_map(|(role, list)| {
                list.iter()
                    .find(|m| p.addresses.contains(&m.address))
                    .map(|m| (role, m.address.clone()))
            });
            if let Some((role, address)) = found {
                lines.push(Line {
                    message: key,
                    role,
                    address,
                    lead: String::new(),
                    name: reading_order(&p.name),
                });
            }
        }
        Ok(lines)
    }

    /// The answer: one claim per line, each quoting its header line, validated.
    fn cite_lines(&self, lines: &[Line]) -> Result<Option<Answered>> {
        let mut items: Vec<EvidenceItem> = Vec::new();
        let mut text = Vec::new();
        let mut names = Vec::new();
        for line in lines {
            let Some(msg) = self.store.message(&line.message)? else {
                continue;
            };
            let item = self.header_item(&msg)?;
            let Some(p) = item
                .participants
                .iter()
                .find(|p| p.address == line.address && role_matches(p, line.role))
            else {
                continue;
            };
            let quote = format!("{}: {}", p.role.label(), p.display());
            let n = match items.iter().position(|i| i.key == item.key) {
                Some(at) => at + 1,
                None => {
                    items.push(item);
                    items.len()
                }
            };
            text.push(format!("{}\u{201c}{quote}\u{201d} [{n}]", line.lead));
            if !names.contains(&line.name) {
                names.push(line.name.clone());
            }
        }
        if items.is_empty() {
            return Ok(None);
        }
        for (i, item) in items.iter_mut().enumerate() {
            item.n = i + 1;
        }
        Ok(validated(&text.join("\n"), items, names.join(", ")))
    }
}

/// The graph's answer `text` over `items`, numbered 1..n, when the validator keeps
/// every claim (a graph answer stands whole or not at all), with its short answer.
pub(super) fn validated(text: &str, items: Vec<EvidenceItem>, short: String) -> Option<Answered> {
    let pack = EvidencePack {
        tokens: 0,
        budget: 0,
        items,
    };
    let validation = validate(text, &pack);
    if validation.kept.is_empty() || !validation.dropped.is_empty() {
        return None;
    }
    let mut answered = assemble(&validation, &pack, None);
    answered.short = Some(short);
    answered.probability = 1.0;
    Some(answered)
}

fn role_matches(p: &Participant, role: PartRole) -> bool {
    p.role.label() == role.header()
}

/// The participants a "who was on / cc'd" question asks for, each at the first email
/// that names them in that role.
fn participant_lines(g: &ThreadGraph, among: Among) -> Vec<Line> {
    let wanted = |r: &PartRole| match among {
        Among::Everyone => true,
        Among::Recipients => matches!(r, PartRole::To | PartRole::Cc | PartRole::Bcc),
        Among::Copied => matches!(r, PartRole::Cc | PartRole::Bcc),
    };
    g.participants
        .iter()
        .filter(|p| p.roles.iter().any(wanted))
        .take(NAMED)
        .filter_map(|p| {
            let (at, role) = p.appearances.iter().copied().find(|(_, r)| wanted(r))?;
            line_with(g, p, at, role, "")
        })
        .collect()
}

/// Who joined after the first email (or when the named person did).
fn joined_lines(g: &ThreadGraph, person: &[String]) -> Vec<Line> {
    // Every word of the name, or two of them ("Mark Palmer and Eric Thode").
    let named = |p: &ThreadParticipant| {
        let name = p.name.to_lowercase();
        let found = person
            .iter()
            .filter(|w| {
                name.split(|c: char| !c.is_alphanumeric())
                    .any(|n| n == w.as_str())
                    || p.addresses.iter().any(|a| a.contains(w.as_str()))
            })
            .count();
        found == person.len() || found >= 2
    };
    g.participants
        .iter()
        .filter(|p| {
            if person.is_empty() {
                // Looped in: everyone brought into the conversation, that is all
                // but the one who started it.
                p.first > 0 || p.joined_as != PartRole::From
            } else {
                named(p)
            }
        })
        .take(NAMED)
        .filter_map(|p| {
            let date = g
                .emails
                .get(p.first)
                .and_then(|e| e.date)
                .and_then(|d| chrono::DateTime::from_timestamp(d, 0));
            let when = date
                .map(|d| d.format("%B %-d, %Y").to_string())
                .unwrap_or_default();
            let lead = match (p.first, &p.added_by) {
                (0, _) if matches!(p.joined_as, PartRole::Cc | PartRole::Bcc) => format!(
                    "{} copied {} on the first email, on {when}: ",
                    g.emails[0].from, p.name
                ),
                (0, _) => format!(
                    "{} brought in {} with the first email, on {when}: ",
                    g.emails[0].from, p.name
                ),
                (_, Some(by)) => format!("{} joined on {when}, added by {}: ", p.name, by),
                (_, None) => format!("{} joined on {when}: ", p.name),
            };
            line_for(g, p, p.first, &lead)
        })
        .collect()
}

fn line_for(g: &ThreadGraph, p: &ThreadParticipant, at: usize, lead: &str) -> Option<Line> {
    line_with(g, p, at, p.role_on(at)?, lead)
}

fn line_with(
    g: &ThreadGraph,
    p: &ThreadParticipant,
    at: usize,
    role: PartRole,
    lead: &str,
) -> Option<Line> {
    let email = g.emails.get(at)?;
    let message = MessageKey::from_hex(email.keys.first()?)?;
    Some(Line {
        message,
        role,
        address: p.address.clone(),
        lead: lead.to_string(),
        name: reading_order(&p.name),
    })
}
