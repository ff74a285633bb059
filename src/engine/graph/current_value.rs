//! The value that stands now: for "when's the review now?" or "what's the current
//! rent?", the facts of the conversations the question finds whose attribute shares
//! the question's words and whose kind fits what it asks (a date for "when", a sum
//! for "how much") and that names the thing the question asks about (its focus, "the
//! cost center number"); the latest one that no later message replaced is quoted, and the
//! value it replaced follows, marked superseded. With no such fact the question goes
//! to the evidence selector as any other.

use super::answer::{validated, GraphOutcome};
use crate::answer::evidence::EvidenceItem;
use crate::engine::{Engine, Result, SearchMode};
use crate::graph::facts::DatedFact;
use crate::mail::model::MessageKey;
use crate::query::question::{Question, QuestionType};
use crate::query::terms::stem;
use std::collections::HashSet;

/// Conversations whose facts are read, best hits first.
const THREADS: usize = 3;

impl Engine {
    pub(in crate::engine) fn current_value(
        &self,
        plan: &Question,
        topic: &[String],
    ) -> Result<GraphOutcome> {
        let Ok(retrieval) = self.question_retrieval(&plan.question, 10, SearchMode::Hybrid) else {
            return Ok(GraphOutcome::NotForGraph);
        };
        let wanted: HashSet<String> = topic.iter().map(|w| stem(w)).collect();
        let mut seen = Vec::new();
        for hit in &retrieval.hits {
            if seen.contains(&hit.hit.thread_id) {
                continue;
            }
            seen.push(hit.hit.thread_id.clone());
            if seen.len() > THREADS {
                break;
            }
            let Some(g) = self.thread_graph(&hit.hit.thread_id)? else {
                continue;
            };
            let shared = |f: &DatedFact| {
                f.fact
                    .key
                    .split(' ')
                    .filter(|k| wanted.contains(*k))
                    .count()
            };
            let best = g
                .facts
                .iter()
                .enumerate()
                .filter(|(_, f)| f.superseded_by.is_none() && fits(plan.qtype, &f.fact.kind))
                .filter(|(_, f)| names_the_focus(plan, &f.fact.key) && shared(f) > 0)
                .max_by(|(_, a), (_, b)| shared(a).cmp(&shared(b)).then(a.date.cmp(&b.date)));
            let Some((at, latest)) = best else {
                continue;
            };
            let earlier = g.facts.iter().find(|f| f.superseded_by == Some(at));
            return self.cite_current(latest, earlier);
        }
        Ok(GraphOutcome::NotForGraph)
    }

    /// The answer quoting the standing value, and the one it replaced.
    fn cite_current(
        &self,
        latest: &DatedFact,
        earlier: Option<&DatedFact>,
    ) -> Result<GraphOutcome> {
        let mut items = Vec::new();
        for f in [Some(latest), earlier].into_iter().flatten() {
            match self.fact_item(f)? {
                Some(mut item) => {
                    item.n = items.len() + 1;
                    items.push(item);
                }
                None => return Ok(GraphOutcome::NotForGraph),
            }
        }
        let mut text = format!(
            "{} \u{2014} \u{201c}{}\u{201d} [1]",
            latest.fact.value,
            latest.quote.trim()
        );
        if let Some(old) = earlier {
            text.push_str(&format!(
                "\nEarlier, now superseded: \u{201c}{}\u{201d} [2]",
                old.quote.trim()
            ));
        }
        let Some(mut answered) = validated(&text, items, latest.fact.value.clone()) else {
            return Ok(GraphOutcome::NotForGraph);
        };
        for c in &mut answered.citations {
            c.superseded =
                earlier.is_some_and(|old| c.key == old.message && c.quote == old.quote.trim());
        }
        Ok(GraphOutcome::Answered(
            answered,
            format!(
                "the latest value of \u{201c}{}\u{201d} in \u{201c}{}\u{201d}",
                latest.fact.attribute, latest.subject
            ),
        ))
    }

    /// The passage of the stating message that holds a fact's sentence.
    fn fact_item(&self, f: &DatedFact) -> Result<Option<EvidenceItem>> {
        let Some(key) = MessageKey::from_hex(&f.message) else {
            return Ok(None);
        };
        let Some(msg) = self.store.message(&key)? else {
            return Ok(None);
        };
        let chunk = self.store.chunks_of(&key)?.into_iter().find(|c| {
            c.origin.is_none() && c.attachment.is_none() && c.cite_text.contains(f.quote.trim())
        });
        let Some(chunk) = chunk else {
            return Ok(None);
        };
        let like = self.header_item(&msg)?;
        Ok(Some(self.other_item(&msg, &chunk, &like)?))
    }
}

/// Whether a fact's kind answers the question's type.
fn fits(qtype: QuestionType, kind: &str) -> bool {
    match qtype {
        QuestionType::When => matches!(kind, "date" | "time"),
        QuestionType::Where => matches!(kind, "place" | "text"),
        QuestionType::HowMuch => matches!(kind, "money" | "quantity"),
        QuestionType::Who => matches!(kind, "person" | "organisation"),
        _ => true,
    }
}

/// Whether a fact's attribute is what the question asks about: its head noun ("the
/// cost center *number*") is among the attribute's words; a question without one
/// ("when is the party now?") must ask for a kind of value (a date, a place, a sum).
fn names_the_focus(plan: &Question, key: &str) -> bool {
    match plan.focus.last() {
        Some(head) => key.split(' ').any(|k| k == head),
        None => plan.qtype != QuestionType::What,
    }
}
