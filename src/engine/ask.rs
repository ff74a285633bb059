//! `ask`: from a question to a validated, cited answer or an honest abstention.
//!
//! conversation (standalone rewrite) → plan → retrieval (the thread in view first,
//! widening to the mailbox when it holds no evidence) → evidence pack → answerer →
//! citation validator → if too few claims survive, one retry with wider retrieval →
//! else "I don't know", with what was searched.

use super::retrieve::{RetrieveHints, RetrieveOptions, SearchMode};
use super::{Engine, Result};
use crate::answer::conversation::{CitedMessage, Conversation, Turn};
use crate::answer::evidence::EvidencePack;
use crate::answer::extract::{idf_weights, ExtractiveAnswerer};
use crate::answer::terms::content_words;
use crate::answer::validate::validate;
use crate::answer::{AnswerError, AnswerRequest, Answerer, Draft};
use crate::mail::model::MessageKey;
use crate::query::plan::Plan;
use serde::Serialize;
use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

/// The sentence an abstention starts with.
pub const ABSTAIN: &str = "I don't know: the mailbox has no evidence for that.";

/// Options of one question.
#[derive(Debug, Clone)]
pub struct AskOptions {
    /// A thread to search first (hex id).
    pub thread: Option<String>,
    /// Messages taken from the best hits into the evidence pack.
    pub depth: usize,
    /// Evidence pack budget in tokens.
    pub budget: usize,
    /// Least retrieval confidence worth handing to an answerer.
    pub min_confidence: f32,
    /// Least share of claims that must survive validation.
    pub min_kept_share: f32,
    pub rerank: bool,
    /// When the thread holds no answer, search the whole mailbox (and say so). Off,
    /// the question is answered from the thread alone or not at all.
    pub widen: bool,
}

impl Default for AskOptions {
    fn default() -> Self {
        Self {
            thread: None,
            depth: 12,
            budget: 3000,
            min_confidence: 0.2,
            min_kept_share: 0.7,
            rerank: false,
            widen: true,
        }
    }
}

/// What happens while a question is answered, in order.
#[derive(Debug, Clone)]
pub enum AskEvent {
    Rewrite(String),
    /// Answer text as the answerer writes it (before validation).
    Delta(String),
    Note(String),
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Citation {
    pub n: usize,
    pub message_id: Option<String>,
    pub thread_id: String,
    /// RFC 3339.
    pub date: Option<String>,
    pub from: String,
    pub subject: String,
    pub quote: String,
    pub attachment: Option<String>,
    pub page: Option<u32>,
    /// The stored message's key (hex), to open it.
    pub key: String,
    /// Byte span of the cited chunk in the message body (or page text).
    pub start: u32,
    pub end: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct RetrievedMessage {
    pub message_id: Option<String>,
    pub score: f32,
}

#[derive(Debug, Clone, Serialize)]
pub struct DroppedClaim {
    pub claim: String,
    pub reason: String,
}

/// The answer to one question: the schema of `quoth ask --json`.
#[derive(Debug, Clone, Serialize)]
pub struct AskOutcome {
    pub question: String,
    pub rewrite: String,
    /// None when abstaining.
    pub answer: Option<String>,
    pub abstained: bool,
    pub citations: Vec<Citation>,
    pub retrieved: Vec<RetrievedMessage>,
    pub timings_ms: BTreeMap<String, f64>,
    pub answerer: String,
    /// The queries searched, in order.
    pub searched: Vec<String>,
    pub notes: Vec<String>,
    pub dropped: Vec<DroppedClaim>,
    pub confidence: f32,
    pub plan: Plan,
}

impl AskOutcome {
    /// The text to show: the answer, or the abstention with what was searched.
    pub fn display_text(&self) -> String {
        match &self.answer {
            Some(a) => a.clone(),
            None => format!("{ABSTAIN} Searched: {}", self.searched.join("; then ")),
        }
    }
}

/// One retrieval-and-answer try.
struct Attempt {
    threads: Vec<String>,
    filters: bool,
    depth: usize,
    budget: usize,
    label: &'static str,
}

/// A validated answer.
struct Answered {
    text: String,
    citations: Vec<Citation>,
}

impl Engine {
    /// Answers `question` in `conversation`, adding the turn to it.
    pub fn ask(
        &self,
        question: &str,
        conversation: &mut Conversation,
        answerer: &dyn Answerer,
        opts: &AskOptions,
        on_event: &mut dyn FnMut(AskEvent),
    ) -> Result<AskOutcome> {
        let t0 = Instant::now();
        let mut timings = BTreeMap::new();
        let question = question.trim();
        let resolved = conversation.resolve(question);
        if resolved.standalone != question {
            on_event(AskEvent::Rewrite(resolved.standalone.clone()));
        }
        let ctx = self.mailbox_context()?;
        let plan = Plan::make(&resolved.standalone, &ctx.book, ctx.newest);
        timings.insert("plan".to_string(), ms(t0));

        let scope: Vec<String> = match opts.thread.as_ref().or(conversation.thread.as_ref()) {
            Some(t) => vec![t.clone()],
            None => resolved.prefer_threads.clone(),
        };
        let mut attempts = Vec::new();
        let scoped = !scope.is_empty();
        if scoped {
            attempts.push(Attempt {
                threads: scope,
                filters: false,
                depth: opts.depth,
                budget: opts.budget,
                label: "thread",
            });
        }
        let widen = opts.widen || !scoped;
        attempts.push(Attempt {
            threads: Vec::new(),
            filters: true,
            depth: opts.depth,
            budget: opts.budget,
            label: "mailbox",
        });
        attempts.push(Attempt {
            threads: Vec::new(),
            filters: false,
            depth: opts.depth * 2,
            budget: opts.budget * 2,
            label: "wider",
        });

        let hints = RetrieveHints {
            people: plan.people_terms(),
            date: plan.date.as_ref().map(|d| d.range),
            avoid: resolved
                .avoid_messages
                .iter()
                .filter_map(|k| MessageKey::from_hex(k))
                .collect(),
        };
        let weights = {
            // Words that only scope the search (a folder's name, a date) are not
            // things the answer must mention.
            let mut scope: Vec<String> = Vec::new();
            if let Some(f) = &plan.folder {
                scope.extend(content_words(&f.folder));
                scope.push("folder".into());
            }
            if let Some(d) = &plan.date {
                scope.extend(content_words(&d.phrase));
            }
            let terms: Vec<String> = content_words(&resolved.standalone)
                .into_iter()
                .filter(|w| !scope.contains(w))
                .collect();
            let docs = self.lexical.doc_count().max(1);
            let mut weights = idf_weights(&terms, |t| self.lexical.body_doc_freq(t), docs);
            for w in scope {
                weights.entry(w).or_insert(0.0);
            }
            weights
        };
        let extractive = ExtractiveAnswerer::default();

        let mut searched = Vec::new();
        let mut notes = Vec::new();
        let mut dropped = Vec::new();
        let mut retrieved = Vec::new();
        let mut confidence = 0.0;
        let mut answered: Option<Answered> = None;
        let mut answerer_used = answerer.name();
        if !widen {
            attempts.truncate(1);
        }
        let mut i = 0;
        while i < attempts.len() {
            let attempt = &attempts[i];
            i += 1;
            let query = self.attempt_query(&plan, attempt);
            searched.push(query.clone());
            let t = Instant::now();
            let retrieval = match self.retrieve_with(
                &query,
                RetrieveOptions {
                    mode: SearchMode::Hybrid,
                    limit: attempt.depth,
                    rerank: opts.rerank,
                    now: ctx.newest,
                },
                &hints,
            ) {
                Ok(r) => r,
                Err(e) => {
                    notes.push(format!("search \"{query}\" failed: {e}"));
                    continue;
                }
            };
            *timings
                .entry(format!("retrieve_{}", attempt.label))
                .or_insert(0.0) += ms(t);
            notes.extend(retrieval.notes.iter().cloned());
            if attempt.label != "thread" || retrieved.is_empty() {
                retrieved = retrieval
                    .hits
                    .iter()
                    .map(|h| RetrievedMessage {
                        message_id: h.hit.message_id.clone(),
                        score: h.hit.score,
                    })
                    .collect();
            }
            confidence = retrieval.confidence;
            let in_thread = attempt.label == "thread";
            if retrieval.hits.is_empty() || retrieval.confidence < opts.min_confidence {
                if in_thread && widen {
                    notes.push("the thread holds no evidence: widened to the whole mailbox".into());
                    continue;
                }
                if attempt.label == "mailbox" && plan.filters_may_hide() {
                    // A date or person read wrongly must not hide the answer: try
                    // without them.
                    continue;
                }
                break;
            }
            let t = Instant::now();
            let pack = self.evidence_pack(&retrieval, &plan.people, attempt.budget)?;
            timings.insert("pack".into(), ms(t));
            let request = AnswerRequest {
                question: &resolved.standalone,
                typed: question,
                scoped: in_thread && opts.thread.is_some(),
                qtype: plan.qtype,
                term_weights: &weights,
                pack: &pack,
            };
            let t = Instant::now();
            let first = {
                let mut delta = |d: &str| on_event(AskEvent::Delta(d.to_string()));
                answerer.answer(&request, &mut delta)
            };
            let draft = match first {
                Ok(d) => d,
                Err(e @ (AnswerError::Endpoint(_) | AnswerError::BadResponse(_))) => {
                    let note = format!("{e}; answered extractively instead");
                    on_event(AskEvent::Note(note.clone()));
                    notes.push(note);
                    answerer_used = extractive.name();
                    let mut delta = |d: &str| on_event(AskEvent::Delta(d.to_string()));
                    extractive
                        .answer(&request, &mut delta)
                        .unwrap_or_else(|e| Draft::NoAnswer(e.to_string()))
                }
            };
            *timings.entry("answer".into()).or_insert(0.0) += ms(t);
            let text = match draft {
                Draft::Text(t) => t,
                Draft::NoAnswer(why) => {
                    if in_thread && widen {
                        notes.push(format!(
                            "the thread does not answer it ({why}): widened to the whole mailbox"
                        ));
                    }
                    continue;
                }
            };
            let validation = validate(&text, &pack);
            dropped.extend(validation.dropped.iter().map(|(c, r)| DroppedClaim {
                claim: c.text.clone(),
                reason: r.clone(),
            }));
            if !validation.kept.is_empty() && validation.kept_share() >= opts.min_kept_share {
                answered = Some(assemble(&validation, &pack));
                break;
            }
            let note = format!(
                "{} of {} claims were backed by their quotes: retrying with wider retrieval",
                validation.kept.len(),
                validation.kept.len() + validation.dropped.len()
            );
            on_event(AskEvent::Note(note.clone()));
            notes.push(note);
        }
        timings.insert("total".into(), ms(t0));

        let (answer, citations) = match answered {
            Some(a) => (Some(a.text), a.citations),
            None => (None, Vec::new()),
        };
        conversation.push(Turn {
            question: question.to_string(),
            rewrite: resolved.standalone.clone(),
            answer: answer.clone(),
            cited: cited_messages(&citations),
        });
        Ok(AskOutcome {
            question: question.to_string(),
            rewrite: resolved.standalone,
            abstained: answer.is_none(),
            answer,
            citations,
            retrieved,
            timings_ms: timings,
            answerer: answerer_used.to_string(),
            searched,
            notes,
            dropped,
            confidence,
            plan,
        })
    }

    fn attempt_query(&self, plan: &Plan, attempt: &Attempt) -> String {
        let base = plan.to_query(None, attempt.filters);
        match attempt.threads.as_slice() {
            [] => base,
            [one] => format!("{base} thread:{one}"),
            many => {
                let any: Vec<String> = many.iter().map(|t| format!("thread:{t}")).collect();
                format!("{base} ({})", any.join(" OR "))
            }
        }
    }
}

/// The surviving claims, with their citations renumbered 1..k in order of appearance.
fn assemble(validation: &crate::answer::validate::Validation, pack: &EvidencePack) -> Answered {
    let mut order: Vec<usize> = Vec::new();
    let mut citations = Vec::new();
    let mut lines = Vec::new();
    for (claim, quotes) in &validation.kept {
        for q in quotes {
            if !order.contains(&q.n) {
                order.push(q.n);
            }
            let new_n = order.iter().position(|&n| n == q.n).map_or(0, |p| p + 1);
            if let Some(item) = pack.get(q.n) {
                citations.push(Citation {
                    n: new_n,
                    message_id: item.message_id.clone(),
                    thread_id: item.thread_id.clone(),
                    date: item.date.and_then(rfc3339),
                    from: item.from.clone(),
                    subject: item.subject.clone(),
                    quote: q.quote.clone(),
                    attachment: item.attachment.clone(),
                    page: item.page,
                    key: item.key.clone(),
                    start: item.start,
                    end: item.end,
                });
            }
        }
        lines.push(renumber(&claim.text, &order, &claim.cited));
    }
    Answered {
        text: lines.join("\n"),
        citations,
    }
}

/// Rewrites the `[n]` markers of a claim into the answer's own numbering.
fn renumber(text: &str, order: &[usize], cited: &[usize]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']') else {
            break;
        };
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..open + close];
        let mapped: Vec<String> = inner
            .split([',', ' '])
            .filter_map(|p| p.trim().parse::<usize>().ok())
            .filter(|n| cited.contains(n))
            .filter_map(|n| {
                order
                    .iter()
                    .position(|&o| o == n)
                    .map(|p| (p + 1).to_string())
            })
            .collect();
        if mapped.is_empty() {
            out.push_str(&rest[open..open + close + 1]);
        } else {
            out.push_str(&format!("[{}]", mapped.join(", ")));
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

fn cited_messages(citations: &[Citation]) -> Vec<CitedMessage> {
    let mut seen = HashSet::new();
    citations
        .iter()
        .filter(|c| seen.insert(c.key.clone()))
        .map(|c| CitedMessage {
            key: c.key.clone(),
            thread_id: c.thread_id.clone(),
            from: c.from.clone(),
        })
        .collect()
}

fn rfc3339(ts: i64) -> Option<String> {
    chrono::DateTime::from_timestamp(ts, 0).map(|d| d.to_rfc3339())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::renumber;

    #[test]
    fn markers_follow_the_answer_order() {
        assert_eq!(renumber("\"a\" [3]", &[3], &[3]), "\"a\" [1]");
        assert_eq!(renumber("\"a\" [3, 5]", &[5, 3], &[3, 5]), "\"a\" [2, 1]");
        assert_eq!(renumber("see [x]", &[], &[]), "see [x]");
    }
}
