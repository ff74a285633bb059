//! `quoth eval`: runs a question set through `ask` and scores it. The format is
//! documented in tests/answers/README.md: one JSON object a line with `question` (or
//! `turns` for a conversation), `kind` (fact, followup, filter, abstain,
//! adversarial), `gold_message_ids`, `answer_any` and, for adversarial items, `marker`.

use crate::answer::conversation::Conversation;
use crate::answer::normalize::{normalize, occurs_verbatim};
use crate::answer::Answerer;
use crate::engine::ask::{AskOptions, AskOutcome, Citation};
use crate::engine::{Engine, EngineError, Result};
use crate::mail::model::MessageKey;
use serde::{Deserialize, Serialize};
use std::time::Instant;

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct EvalItem {
    #[serde(default)]
    pub id: String,
    pub kind: String,
    #[serde(default)]
    pub question: Option<String>,
    #[serde(default)]
    pub turns: Vec<String>,
    #[serde(default)]
    pub gold_message_ids: Vec<String>,
    #[serde(default)]
    pub answer_any: Vec<String>,
    #[serde(default)]
    pub marker: Option<String>,
    /// Scope the question to the thread of this message (by Message-ID).
    #[serde(default)]
    pub thread_of: Option<String>,
}

impl EvalItem {
    pub fn answerable(&self) -> bool {
        self.kind != "abstain"
    }

    fn questions(&self) -> Vec<String> {
        if self.turns.is_empty() {
            self.question.iter().cloned().collect()
        } else {
            self.turns.clone()
        }
    }
}

/// Reads a JSONL question set; blank lines and lines starting with `//` are skipped.
pub fn parse_eval_items(text: &str) -> std::result::Result<Vec<EvalItem>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let item: EvalItem =
            serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if item.questions().is_empty() {
            return Err(format!("line {}: no `question` or `turns`", i + 1));
        }
        out.push(item);
    }
    Ok(out)
}

/// How one item went.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ItemResult {
    pub id: String,
    pub kind: String,
    pub question: String,
    pub rewrite: String,
    pub answer: Option<String>,
    pub abstained: bool,
    /// Why it abstained, when it did.
    #[serde(default)]
    pub abstain_reason: Option<String>,
    pub cited_gold: bool,
    /// A gold message was among the retrieved messages (retrieval found it).
    pub retrieved_gold: bool,
    pub answer_correct: bool,
    /// The short answer the answer leads with, when it gives one.
    pub short_answer: Option<String>,
    /// The short answer holds an `answer_any` string.
    pub short_correct: bool,
    pub marker_leaked: bool,
    pub quotes: usize,
    pub quotes_verbatim: usize,
    pub cited: Vec<String>,
    pub latency_ms: f64,
}

/// The scores of a run.
#[derive(Debug, Clone, Serialize, Deserialize, Default)]
pub struct EvalReport {
    pub items: usize,
    pub answerable: usize,
    pub unanswerable: usize,
    /// A gold message among the citations, over answerable items.
    pub citation_accuracy: f64,
    /// An `answer_any` string in the answer or its quotes, over answerable items.
    pub answer_accuracy: f64,
    /// The short answer holds an `answer_any` string, over answerable items.
    pub short_answer_accuracy: f64,
    /// Answerable items answered with a short answer, over answerable items.
    pub short_answer_given: f64,
    /// Unanswerable items abstained on, over unanswerable items.
    pub correct_abstentions: f64,
    /// Answerable items abstained on, over answerable items.
    pub false_abstentions: f64,
    /// Of all abstentions, the share on unanswerable items.
    pub abstention_precision: f64,
    pub markers_leaked: usize,
    pub adversarial: usize,
    /// Quotes found verbatim in their cited message's stored text, over all quotes.
    pub verbatim_share: f64,
    pub latency_p50_ms: f64,
    pub latency_p95_ms: f64,
    pub results: Vec<ItemResult>,
}

fn contains_loose(hay: &str, needle: &str) -> bool {
    let n = normalize(needle);
    !n.is_empty() && normalize(hay).contains(&n)
}

fn bare_id(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

impl Engine {
    /// Whether a citation's quote is in the stored message where it points: its
    /// headers, the cited attachment passage, or the body at the cited span.
    /// The Message-IDs of the other copies of the message with key `hex`.
    fn copy_message_ids(&self, hex: &str) -> Result<Vec<String>> {
        let Some(key) = crate::mail::model::MessageKey::from_hex(hex) else {
            return Ok(Vec::new());
        };
        let Some(msg) = self.store.message(&key)? else {
            return Ok(Vec::new());
        };
        let thread = self.store.thread_of(&key)?;
        Ok(
            crate::engine::mailbox::copies::copies_in_thread(&self.store, msg, thread.as_ref())?
                .into_iter()
                .skip(1)
                .filter_map(|m| m.message_id.as_deref().map(bare_id))
                .collect(),
        )
    }

    fn quote_is_verbatim(&self, c: &Citation) -> Result<bool> {
        let Some(key) = MessageKey::from_hex(&c.key) else {
            return Ok(false);
        };
        let Some(msg) = self.store.message(&key)? else {
            return Ok(false);
        };
        if c.source == "header" {
            return Ok(occurs_verbatim(
                &c.quote,
                &crate::engine::ask::evidence_pack::message_header_text(&msg),
            ));
        }
        if c.attachment.is_some() {
            let chunks = self.store.attachment_chunks_of(&msg)?;
            return Ok(chunks.iter().any(|ch| {
                ch.start == c.start && ch.end == c.end && occurs_verbatim(&c.quote, &ch.cite_text)
            }));
        }
        let text = msg.body.get(c.start as usize..c.end as usize).unwrap_or("");
        Ok(occurs_verbatim(&c.quote, text))
    }

    /// Runs every item (each in a new conversation) and scores the answers.
    pub fn run_eval(
        &self,
        items: &[EvalItem],
        answerer: &dyn Answerer,
        opts: &AskOptions,
        progress: &mut dyn FnMut(&ItemResult),
    ) -> Result<EvalReport> {
        let mut report = EvalReport::default();
        let mut latencies = Vec::new();
        for item in items {
            let result = self.eval_item(item, answerer, opts, &mut latencies)?;
            progress(&result);
            report.results.push(result);
        }
        latencies.sort_by(|a, b| a.total_cmp(b));
        report.latency_p50_ms = percentile(&latencies, 0.5);
        report.latency_p95_ms = percentile(&latencies, 0.95);
        total(&mut report);
        Ok(report)
    }

    /// Asks one item's questions in a new conversation and scores the last answer;
    /// each question's latency goes to `latencies`.
    fn eval_item(
        &self,
        item: &EvalItem,
        answerer: &dyn Answerer,
        opts: &AskOptions,
        latencies: &mut Vec<f64>,
    ) -> Result<ItemResult> {
        let mut conversation = Conversation::default();
        let mut item_opts = opts.clone();
        if let Some(id) = &item.thread_of {
            // A question about one email is answered from it or not at all.
            let msg = self.find_message(id)?;
            item_opts.thread = Some(self.thread_id(&msg.key)?.to_hex());
            item_opts.widen = false;
        }
        let mut last: Option<AskOutcome> = None;
        let mut latency = 0.0;
        for q in item.questions() {
            let t = Instant::now();
            let outcome = self.ask(&q, &mut conversation, answerer, &item_opts, &mut |_| {})?;
            latency = t.elapsed().as_secs_f64() * 1000.0;
            latencies.push(latency);
            last = Some(outcome);
        }
        let Some(outcome) = last else {
            return Err(EngineError::NoSuchMessage(format!(
                "item {} has no question",
                item.id
            )));
        };
        let gold: Vec<String> = item.gold_message_ids.iter().map(|g| bare_id(g)).collect();
        // A citation stands for its email: the message cited and its copies.
        let mut cited: Vec<String> = Vec::new();
        for c in &outcome.citations {
            cited.extend(c.message_id.as_deref().map(bare_id));
            cited.extend(self.copy_message_ids(&c.key)?);
        }
        let shown = format!(
            "{} {}",
            outcome.answer.clone().unwrap_or_default(),
            outcome
                .citations
                .iter()
                .map(|c| c.quote.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        );
        let mut quotes_verbatim = 0;
        for c in &outcome.citations {
            if self.quote_is_verbatim(c)? {
                quotes_verbatim += 1;
            }
        }
        let holds_gold = |text: &str| item.answer_any.iter().any(|a| contains_loose(text, a));
        Ok(ItemResult {
            id: item.id.clone(),
            kind: item.kind.clone(),
            question: item.questions().join(" / "),
            rewrite: outcome.rewrite.clone(),
            answer: outcome.answer.clone(),
            abstained: outcome.abstained,
            abstain_reason: outcome.abstention.as_ref().and_then(|a| a.reason.clone()),
            cited_gold: cited.iter().any(|c| gold.contains(c)),
            retrieved_gold: outcome
                .retrieved
                .iter()
                .filter_map(|r| r.message_id.as_deref().map(bare_id))
                .any(|m| gold.contains(&m)),
            answer_correct: !outcome.abstained && holds_gold(&shown),
            short_answer: outcome.short_answer.clone(),
            short_correct: !outcome.abstained
                && outcome.short_answer.as_deref().is_some_and(holds_gold),
            marker_leaked: item
                .marker
                .as_ref()
                .is_some_and(|m| contains_loose(&shown, m)),
            quotes: outcome.citations.len(),
            quotes_verbatim,
            cited,
            latency_ms: latency,
        })
    }
}

/// The report's shares, from its results.
fn total(report: &mut EvalReport) {
    let results = &report.results;
    let answerable: Vec<&ItemResult> = results.iter().filter(|r| r.kind != "abstain").collect();
    let unanswerable: Vec<&ItemResult> = results.iter().filter(|r| r.kind == "abstain").collect();
    let share = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
    let of_answerable = |f: &dyn Fn(&ItemResult) -> bool| {
        share(answerable.iter().filter(|r| f(r)).count(), answerable.len())
    };
    let abstained_right = unanswerable.iter().filter(|r| r.abstained).count();
    let quotes: usize = results.iter().map(|r| r.quotes).sum();
    let verbatim: usize = results.iter().map(|r| r.quotes_verbatim).sum();
    report.items = results.len();
    report.answerable = answerable.len();
    report.unanswerable = unanswerable.len();
    report.citation_accuracy = of_answerable(&|r| r.cited_gold);
    report.answer_accuracy = of_answerable(&|r| r.answer_correct);
    report.short_answer_accuracy = of_answerable(&|r| r.short_correct);
    report.short_answer_given = of_answerable(&|r| !r.abstained && r.short_answer.is_some());
    report.false_abstentions = of_answerable(&|r| r.abstained);
    report.correct_abstentions = share(abstained_right, unanswerable.len());
    report.abstention_precision = share(
        abstained_right,
        results.iter().filter(|r| r.abstained).count(),
    );
    report.adversarial = results.iter().filter(|r| r.kind == "adversarial").count();
    report.markers_leaked = results.iter().filter(|r| r.marker_leaked).count();
    report.verbatim_share = if quotes == 0 {
        1.0
    } else {
        share(verbatim, quotes)
    };
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_questions_and_turns() {
        let items = parse_eval_items(
            "{\"id\":\"a\",\"kind\":\"fact\",\"question\":\"Q?\",\"gold_message_ids\":[\"<x@y>\"],\"answer_any\":[\"1\"]}\n\n// note\n{\"kind\":\"followup\",\"turns\":[\"A?\",\"and B?\"]}",
        )
        .expect("valid");
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].questions(), vec!["A?", "and B?"]);
        assert!(parse_eval_items("{\"kind\":\"fact\"}").is_err());
        assert!(parse_eval_items("{nope").is_err());
    }

    #[test]
    fn loose_matching_ignores_case_and_spacing() {
        assert!(contains_loose("Due  on\nNov. 30 at noon", "nov. 30"));
        assert!(!contains_loose("anything", ""));
        assert_eq!(bare_id(" <a@b> "), "a@b");
    }
}
