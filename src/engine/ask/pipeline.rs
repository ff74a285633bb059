//! `ask`: from a question to a validated, cited answer or an honest abstention.
//!
//! conversation (standalone rewrite) → plan → retrieval (the thread in view first,
//! widening to the mailbox when it holds no evidence) → evidence pack → answerer →
//! citation validator → if too few claims survive, one retry with wider retrieval →
//! else "I don't know", with what was searched.

use crate::answer::conversation::{CitedMessage, Conversation};
use crate::answer::evidence::EvidencePack;
use crate::answer::extract::ExtractiveAnswerer;
use crate::answer::validate::validate;
use crate::answer::{AnswerRequest, Answerer, Draft, ReaderInput};
use crate::engine::ask::ask_tries::{draft_answer, hints_of, plan_attempts, Tries};
use crate::engine::ask::model_calls::ModelCalls;
use crate::engine::graph::answer::GraphOutcome;
use crate::engine::retrieval::retrieve::{RetrieveHints, RetrieveOptions, SearchMode};
use crate::engine::{Engine, Result};
use crate::query::question::Question;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

/// The sentence an abstention starts with.
pub const ABSTAIN: &str = "I don't know: the mailbox has no evidence for that.";
/// The answer when the mail found speaks of the question but does not answer it.
pub const NOT_SAID: &str = "I don't know: the mail I found on this does not say.";

/// Options of one question.
#[derive(Debug, Clone)]
pub struct AskOptions {
    /// A thread to search first (hex id).
    pub thread: Option<String>,
    /// Messages taken from the best hits into the evidence pack.
    pub depth: usize,
    /// Evidence pack budget in tokens.
    pub budget: usize,
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

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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
    /// Where in the attachment: "page 3", "Sheet1, row 14", "paragraph 2", "event".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// The stored message's key (hex), to open it.
    pub key: String,
    /// Byte span of the cited chunk in the message body (or page text).
    pub start: u32,
    pub end: u32,
    /// Where the quote is: "text" (what the message's sender wrote, or a forwarded or
    /// quoted original, see `author`) or "header" (a fact of the message's headers).
    pub source: String,
    /// A later message gave another value: this quote is shown as replaced.
    pub superseded: bool,
    /// Who wrote the quoted text, when it is not the message's sender: the author of
    /// a forwarded or quoted message whose original is not in the store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// That author's date as the forward or reply header gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author_date: Option<String>,
    /// How the message's sender passed it on: "forwarded" or "quoted".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passed_on: Option<String>,
    /// Byte range of the short answer inside `quote`, to highlight.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer_span: Option<(usize, usize)>,
}

impl Citation {
    /// The cited page of a PDF, for a viewer that opens a file at a page; None for a
    /// message body, a text file, or a spreadsheet's row or a document's paragraph.
    pub fn pdf_page(&self) -> Option<u32> {
        let page = self.page?;
        match self.place.as_deref() {
            None => Some(page),
            Some(place) => (place == format!("page {page}")).then_some(page),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RetrievedMessage {
    pub message_id: Option<String>,
    pub score: f32,
}

/// Why a question was not answered, and the mail that came closest.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Abstention {
    /// Why the last try gave no answer (the selector's or the reader's judgement).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The best match of the search, when the search judged it evidence for the
    /// question: the mail speaks of the thing asked without saying what is asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closest: Option<ClosestMail>,
}

/// A message named in an abstention, for the user to open.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ClosestMail {
    /// The stored message's key (hex), to open it.
    #[serde(default)]
    pub key: String,
    pub message_id: Option<String>,
    pub subject: String,
    pub from: String,
    /// RFC 3339, when the message has a date.
    pub date: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DroppedClaim {
    pub claim: String,
    pub reason: String,
}

/// The answer to one question: the schema of `quoth ask --json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AskOutcome {
    pub question: String,
    pub rewrite: String,
    /// None when abstaining.
    pub answer: Option<String>,
    /// The span that answers (a name, a date, an amount), when the question asks for
    /// a value; it leads the answer and is highlighted in its quote.
    pub short_answer: Option<String>,
    pub abstained: bool,
    /// When abstaining: why, and the mail that came closest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstention: Option<Abstention>,
    pub citations: Vec<Citation>,
    pub retrieved: Vec<RetrievedMessage>,
    pub timings_ms: BTreeMap<String, f64>,
    pub answerer: String,
    /// The queries searched, in order.
    pub searched: Vec<String>,
    pub notes: Vec<String>,
    pub dropped: Vec<DroppedClaim>,
    /// The retrieval gate's confidence in its best evidence (0..1).
    pub confidence: f32,
    /// The evidence selector's calibrated probability for the answer (0 when it
    /// abstained on every try).
    pub selector_probability: f32,
    /// Not read back by a client: the server's reading of the question.
    #[serde(skip_deserializing)]
    pub plan: Question,
}

impl AskOutcome {
    /// The text to show: the answer, or the abstention with what was searched. When
    /// the search found mail about the question that does not say what is asked,
    /// the abstention says so and names the closest message.
    pub fn display_text(&self) -> String {
        if let Some(a) = &self.answer {
            return a.clone();
        }
        let searched = format!("Searched: {}", self.searched.join("; then "));
        match self.abstention.as_ref().and_then(|a| a.closest.as_ref()) {
            Some(c) => {
                let date = c
                    .date
                    .as_deref()
                    .map(|d| format!(", {}", d.get(..10).unwrap_or(d)))
                    .unwrap_or_default();
                format!(
                    "{NOT_SAID} Closest: \"{}\" from {}{date}. {searched}",
                    c.subject, c.from
                )
            }
            None => format!("{ABSTAIN} {searched}"),
        }
    }
}

/// Tries added after the last one when its claims were not backed by their quotes.
const DEEPER_TRIES: usize = 2;

/// A validated answer.
pub(in crate::engine) struct Answered {
    pub(in crate::engine) text: String,
    pub(in crate::engine) citations: Vec<Citation>,
    pub(in crate::engine) short: Option<String>,
    pub(in crate::engine) probability: f32,
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
        let mut tries = Tries::default();
        let question = question.trim();
        let resolved = conversation.resolve(question);
        if resolved.standalone != question {
            on_event(AskEvent::Rewrite(resolved.standalone.clone()));
        }
        let ctx = self.mailbox_context()?;
        let plan = Question::read(&resolved.standalone, &ctx.book, ctx.newest);
        tries.timings.insert("plan".to_string(), ms(t0));

        let scope: Vec<String> = match opts.thread.as_ref().or(conversation.thread.as_ref()) {
            Some(t) => vec![t.clone()],
            None => resolved.prefer_threads.clone(),
        };
        let scoped = !scope.is_empty();
        let widen = opts.widen || !scoped;
        let mut attempts = plan_attempts(&plan, opts, scope, widen);

        // Who was on the mail, who joined and when: the headers answer exactly.
        let t = Instant::now();
        let in_view = opts.thread.as_deref().or(conversation.thread.as_deref());
        match self.graph_answer(&plan, in_view)? {
            GraphOutcome::Answered(answered, note) => {
                tries.answered = Some(answered);
                tries.notes.push(note);
                attempts.clear();
            }
            GraphOutcome::NoAnswer(note) => {
                tries.searched.push(plan.text.clone());
                tries.unanswered = Some(note.clone());
                tries.notes.push(note);
                attempts.clear();
            }
            GraphOutcome::NotForGraph => {}
        }
        tries.timings.insert("graph".into(), ms(t));

        let hints = hints_of(&plan, &resolved.avoid_messages);
        let weights = self.term_weights(&plan, &resolved.standalone);
        // The question's meaning, for the selector; without the model the selector
        // weighs the other features alone.
        let embedder = self.embedder().ok();
        let question_vector: Option<Vec<f32>> = embedder
            .as_ref()
            .and_then(|e| e.embed(&[resolved.standalone.as_str()]).ok())
            .and_then(|mut v| v.pop());
        // Each text is embedded, and each pair read, once for all the tries.
        let calls = ModelCalls::default();
        let embed = |texts: &[&str]| -> Option<Vec<Vec<f32>>> {
            calls.embed(texts, |missing| {
                embedder.as_ref().and_then(|e| e.embed(missing).ok())
            })
        };
        // The reader reads the question with candidate sentences, loaded when first
        // needed; without it the selector judges alone. The question is the same in
        // every try.
        let read = |q: &str, inputs: &[ReaderInput]| {
            calls.read(inputs, |missing| self.read_pairs(q, missing))
        };
        let span = |q: &str, input: &ReaderInput| calls.span(input, |i| self.read_span(q, i));

        let mut answerer_used = answerer.name();
        let mut i = 0;
        let mut deeper_tries = 0;
        while i < attempts.len() {
            let attempt = attempts[i].clone();
            i += 1;
            let Some(retrieval) =
                self.retrieve_for(&plan, &attempt, opts.rerank, ctx.newest, &hints, &mut tries)
            else {
                continue;
            };
            let in_thread = attempt.label == "thread";
            // Whether the evidence answers is the selector's to judge, not the
            // retrieval gate's: only an empty search ends a try here.
            if retrieval.hits.is_empty() {
                if in_thread && widen {
                    tries
                        .notes
                        .push("the thread holds no evidence: widened to the whole mailbox".into());
                }
                continue;
            }
            let t = Instant::now();
            let pack = self.evidence_pack(
                &retrieval,
                &plan.people,
                attempt.budget,
                question_vector.as_deref(),
            )?;
            tries.timings.insert("pack".into(), ms(t));
            let request = AnswerRequest {
                question: &plan,
                typed: question,
                scoped: in_thread && opts.thread.is_some(),
                term_weights: &weights,
                pack: &pack,
                known_people: &ctx.known_people,
                question_vector: question_vector.as_deref(),
                embed: Some(&embed),
                read: Some(&read),
                span: Some(&span),
            };
            let t = Instant::now();
            let draft = draft_answer(answerer, &request, on_event, &mut tries.notes);
            if draft.fell_back {
                answerer_used = ExtractiveAnswerer.name();
            }
            let draft = draft.draft;
            *tries.timings.entry("answer".into()).or_insert(0.0) += ms(t);
            let (text, selection) = match draft {
                Draft::Text(t) => (t, None),
                Draft::Selected(sel) => (sel.text.clone(), Some(sel)),
                Draft::NoAnswer(why) => {
                    tries.unanswered = Some(why.clone());
                    if in_thread && widen {
                        tries.notes.push(format!(
                            "the thread does not answer it ({why}): widened to the whole mailbox"
                        ));
                    }
                    continue;
                }
            };
            let validation = validate(&text, &pack);
            // A header line (a sender, a subject) answers only as part of a message
            // about the question, which the reader cannot judge: searching the
            // mailbox, when the search found nothing it takes for evidence, a header
            // alone is no answer. Asked of a thread, the user chose the message.
            let header_only = validation
                .kept
                .iter()
                .all(|(_, quotes)| quotes.iter().all(|q| q.header));
            if header_only && !validation.kept.is_empty() && !in_thread && !retrieval.evidence {
                tries.unanswered = Some(
                    "the search found nothing about the question, and a header line alone \
                     does not answer it"
                        .to_string(),
                );
                continue;
            }
            tries
                .dropped
                .extend(validation.dropped.iter().map(|(c, r)| DroppedClaim {
                    claim: c.text.clone(),
                    reason: r.clone(),
                }));
            if !validation.kept.is_empty() && validation.kept_share() >= opts.min_kept_share {
                tries.answered = Some(assemble(&validation, &pack, selection.as_ref()));
                break;
            }
            // Claims the quotes did not back: try again with more evidence, in the
            // same scope when no wider try is left.
            if i == attempts.len() && deeper_tries < DEEPER_TRIES {
                deeper_tries += 1;
                let mut again = attempt.clone();
                again.depth *= 2;
                again.budget *= 2;
                attempts.push(again);
            }
            let note = format!(
                "{} of {} claims were backed by their quotes: retrying with wider retrieval",
                validation.kept.len(),
                validation.kept.len() + validation.dropped.len()
            );
            on_event(AskEvent::Note(note.clone()));
            tries.notes.push(note);
        }
        for (stage, spent) in calls.timings() {
            tries.timings.insert(stage.into(), spent);
        }
        tries.timings.insert("total".into(), ms(t0));
        tries.notes.extend(self.reading_notes());
        Ok(tries.outcome(
            question,
            resolved.standalone,
            plan,
            answerer_used,
            conversation,
        ))
    }
}

impl Engine {
    /// The mailbox search `ask` runs for a standalone question (its first try over
    /// the whole mailbox, in hybrid mode), here in any mode, for benchmarks of
    /// retrieval settings.
    pub fn question_retrieval(
        &self,
        question: &str,
        limit: usize,
        mode: SearchMode,
    ) -> Result<crate::engine::Retrieval> {
        let ctx = self.mailbox_context()?;
        let plan = Question::read(question, &ctx.book, ctx.newest);
        let hints = RetrieveHints {
            people: plan.people_terms(),
            date: plan.date.as_ref().map(|d| d.range),
            avoid: Default::default(),
        };
        self.retrieve_query(
            &plan.search_query(true, &[]),
            RetrieveOptions {
                mode,
                limit,
                rerank: false,
                now: ctx.newest,
            },
            &hints,
        )
    }
}

/// The surviving claims, with their citations renumbered 1..k in order of appearance.
pub(in crate::engine) fn assemble(
    validation: &crate::answer::validate::Validation,
    pack: &EvidencePack,
    selection: Option<&crate::answer::compose::Selection>,
) -> Answered {
    let short = selection.and_then(|s| s.short_answer.clone());
    let superseded: &[usize] = selection.map_or(&[], |s| s.superseded.as_slice());
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
                let origin = item.origin.as_ref().filter(|_| !q.header);
                let answer_span = short
                    .as_deref()
                    .and_then(|s| q.quote.find(s).map(|at| (at, at + s.len())));
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
                    place: item.place.clone(),
                    key: item.key.clone(),
                    start: item.start,
                    end: item.end,
                    source: if q.header { "header" } else { "text" }.to_string(),
                    superseded: superseded.contains(&q.n),
                    author: origin.map(|o| o.author.clone()),
                    author_date: origin.and_then(|o| o.date.clone()),
                    passed_on: origin.map(|o| o.how.clone()),
                    answer_span,
                });
            }
        }
        lines.push(renumber(&claim.text, &order, &claim.cited));
    }
    Answered {
        text: lines.join("\n"),
        citations,
        short,
        probability: selection.map_or(0.0, |s| s.probability),
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

pub(in crate::engine) fn cited_messages(citations: &[Citation]) -> Vec<CitedMessage> {
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

pub(in crate::engine) fn rfc3339(ts: i64) -> Option<String> {
    chrono::DateTime::from_timestamp(ts, 0).map(|d| d.to_rfc3339())
}

pub(in crate::engine) fn ms(t: Instant) -> f64 {
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
