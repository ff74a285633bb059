//! The steps of one question's tries (see [`crate::engine::ask`]): which tries to
//! run, what retrieval is told, one try's search, the question's word weights, the
//! answerer's draft with its fallback, and what the tries found, turned into the
//! question's outcome.

use crate::answer::conversation::{Conversation, Turn};
use crate::answer::extract::{idf_weights, ExtractiveAnswerer};
use crate::answer::{AnswerError, AnswerRequest, Answerer, Draft};
use crate::engine::ask::{
    cited_messages, ms, rfc3339, Abstention, Answered, AskEvent, AskOptions, AskOutcome,
    ClosestMail, DroppedClaim, RetrievedMessage,
};
use crate::engine::retrieval::retrieve::{RetrieveHints, RetrieveOptions, SearchMode};
use crate::engine::Engine;
use crate::mail::model::MessageKey;
use crate::query::question::Question;
use crate::query::terms::content_words;
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// One retrieval-and-answer try.
#[derive(Clone)]
pub(in crate::engine) struct Attempt {
    pub(in crate::engine) threads: Vec<String>,
    pub(in crate::engine) filters: bool,
    pub(in crate::engine) depth: usize,
    pub(in crate::engine) budget: usize,
    pub(in crate::engine) label: &'static str,
}

/// What the tries of a question found, and what they cost.
#[derive(Default)]
pub(in crate::engine) struct Tries {
    pub(in crate::engine) searched: Vec<String>,
    pub(in crate::engine) dropped: Vec<DroppedClaim>,
    pub(in crate::engine) retrieved: Vec<RetrievedMessage>,
    pub(in crate::engine) confidence: f32,
    /// The best match of the mailbox search, when the search judged it evidence.
    pub(in crate::engine) closest: Option<ClosestMail>,
    /// Why the last try that reached the answerer gave no answer.
    pub(in crate::engine) unanswered: Option<String>,
    pub(in crate::engine) answered: Option<Answered>,
    pub(in crate::engine) notes: Vec<String>,
    pub(in crate::engine) timings: BTreeMap<String, f64>,
}

impl Tries {
    /// The outcome of the question, added to the conversation as its turn.
    pub(in crate::engine) fn outcome(
        self,
        question: &str,
        rewrite: String,
        plan: Question,
        answerer: &str,
        conversation: &mut Conversation,
    ) -> AskOutcome {
        let (answer, citations, short_answer, selector_probability) = match self.answered {
            Some(a) => (Some(a.text), a.citations, a.short, a.probability),
            None => (None, Vec::new(), None, 0.0),
        };
        conversation.push(Turn {
            question: question.to_string(),
            rewrite: rewrite.clone(),
            answer: answer.clone(),
            cited: cited_messages(&citations),
        });
        let abstention = answer.is_none().then_some(Abstention {
            reason: self.unanswered,
            closest: self.closest,
        });
        AskOutcome {
            question: question.to_string(),
            rewrite,
            abstained: answer.is_none(),
            abstention,
            answer,
            short_answer,
            citations,
            retrieved: self.retrieved,
            timings_ms: self.timings,
            answerer: answerer.to_string(),
            searched: self.searched,
            notes: self.notes,
            dropped: self.dropped,
            confidence: self.confidence,
            selector_probability,
            plan,
        }
    }
}

/// The tries of a question: the thread in view (when there is one), then the
/// mailbox, first with the filters the question is sure of (a date, a folder, a
/// correspondent) and then, when they may have hidden the answer, without them and
/// deeper. Without `widen`, the first try alone.
pub(in crate::engine) fn plan_attempts(
    plan: &Question,
    opts: &AskOptions,
    scope: Vec<String>,
    widen: bool,
) -> Vec<Attempt> {
    let mut attempts = Vec::new();
    if !scope.is_empty() {
        attempts.push(Attempt {
            threads: scope,
            filters: false,
            depth: opts.depth,
            budget: opts.budget,
            label: "thread",
        });
    }
    let filtered = plan.search_query(true, &[]) != plan.search_query(false, &[]);
    if filtered {
        attempts.push(Attempt {
            threads: Vec::new(),
            filters: true,
            depth: opts.depth,
            budget: opts.budget,
            label: "mailbox",
        });
    }
    attempts.push(Attempt {
        threads: Vec::new(),
        filters: false,
        depth: if filtered { opts.depth * 2 } else { opts.depth },
        budget: if filtered {
            opts.budget * 2
        } else {
            opts.budget
        },
        label: if filtered { "wider" } else { "mailbox" },
    });
    if !widen {
        attempts.truncate(1);
    }
    attempts
}

/// What retrieval is told of a question beyond its query: the people and the date
/// it names, and the messages (hex keys) a follow-up asked to leave out.
pub(in crate::engine) fn hints_of(plan: &Question, avoid: &[String]) -> RetrieveHints {
    RetrieveHints {
        people: plan.people_terms(),
        date: plan.date.as_ref().map(|d| d.range),
        avoid: avoid
            .iter()
            .filter_map(|k| MessageKey::from_hex(k))
            .collect(),
    }
}

/// A draft answer, and whether the answerer failed and the extractive one wrote it.
pub(in crate::engine) struct DraftAnswer {
    pub(in crate::engine) draft: Draft,
    pub(in crate::engine) fell_back: bool,
}

/// Asks the answerer; when its endpoint fails, answers extractively instead and
/// says so.
pub(in crate::engine) fn draft_answer(
    answerer: &dyn Answerer,
    request: &AnswerRequest<'_>,
    on_event: &mut dyn FnMut(AskEvent),
    notes: &mut Vec<String>,
) -> DraftAnswer {
    let first = {
        let mut delta = |d: &str| on_event(AskEvent::Delta(d.to_string()));
        answerer.answer(request, &mut delta)
    };
    match first {
        Ok(draft) => DraftAnswer {
            draft,
            fell_back: false,
        },
        Err(e @ (AnswerError::Endpoint(_) | AnswerError::BadResponse(_))) => {
            let note = format!("{e}; answered extractively instead");
            on_event(AskEvent::Note(note.clone()));
            notes.push(note);
            let mut delta = |d: &str| on_event(AskEvent::Delta(d.to_string()));
            let draft = ExtractiveAnswerer
                .answer(request, &mut delta)
                .unwrap_or_else(|e| Draft::NoAnswer(e.to_string()));
            DraftAnswer {
                draft,
                fell_back: true,
            }
        }
        Err(e @ AnswerError::Selector(_)) => {
            notes.push(e.to_string());
            DraftAnswer {
                draft: Draft::NoAnswer(e.to_string()),
                fell_back: false,
            }
        }
    }
}

impl Engine {
    /// Searches the mailbox for one try of a question, recording what was searched,
    /// what it found and what it cost; None when the search failed (noted).
    pub(in crate::engine) fn retrieve_for(
        &self,
        plan: &Question,
        attempt: &Attempt,
        rerank: bool,
        now: i64,
        hints: &RetrieveHints,
        tries: &mut Tries,
    ) -> Option<crate::engine::Retrieval> {
        let query = plan.search_query(attempt.filters, &attempt.threads);
        tries.searched.push(query.to_string());
        let t = Instant::now();
        let options = RetrieveOptions {
            mode: SearchMode::Hybrid,
            limit: attempt.depth,
            rerank,
            now,
        };
        let retrieval = match self.retrieve_query(&query, options, hints) {
            Ok(r) => r,
            Err(e) => {
                tries.notes.push(format!("search \"{query}\" failed: {e}"));
                return None;
            }
        };
        *tries
            .timings
            .entry(format!("retrieve_{}", attempt.label))
            .or_insert(0.0) += ms(t);
        tries.notes.extend(retrieval.notes.iter().cloned());
        if attempt.label != "thread" || tries.retrieved.is_empty() {
            tries.retrieved = retrieval
                .hits
                .iter()
                .map(|h| RetrievedMessage {
                    message_id: h.hit.message_id.clone(),
                    score: h.hit.score,
                })
                .collect();
            tries.closest = speaks_of_the_question(&retrieval)
                .then(|| retrieval.hits.first())
                .flatten()
                .map(|h| ClosestMail {
                    key: h.hit.key.clone(),
                    message_id: h.hit.message_id.clone(),
                    subject: h.hit.subject.clone(),
                    from: h.hit.from.clone(),
                    date: h.hit.date.and_then(rfc3339),
                });
        }
        tries.confidence = retrieval.confidence;
        Some(retrieval)
    }

    /// How much each word of the question weighs (by its rarity in the mail).
    /// Words that only scope the search (a folder's name, a date) are not things
    /// the answer must mention: they weigh nothing.
    pub(in crate::engine) fn term_weights(
        &self,
        plan: &Question,
        standalone: &str,
    ) -> HashMap<String, f32> {
        let scope = plan.scope_words();
        let terms: Vec<String> = content_words(standalone)
            .into_iter()
            .filter(|w| !scope.contains(w))
            .collect();
        let docs = self.retrieval.lexical.doc_count().max(1);
        let mut weights = idf_weights(&terms, |t| self.retrieval.lexical.body_doc_freq(t), docs);
        for w in scope {
            weights.entry(crate::query::terms::stem(&w)).or_insert(0.0);
        }
        weights
    }
}

/// Whether the search's best match is mail about the question, to name when the
/// answer is not in it: the gate found evidence, or the match holds at least half
/// of the question's content words though its meaning scored under the gate ("who
/// is bringing the cake to the picnic?" of the picnic's thread, which never says).
/// Mail sharing fewer of its words is not named: the mailbox has nothing on it.
fn speaks_of_the_question(retrieval: &crate::engine::Retrieval) -> bool {
    retrieval.evidence
        || retrieval
            .gate_signals
            .is_some_and(|s| s.term_coverage >= HALF_OF_THE_WORDS)
}

/// The share of the question's content words that makes a match about it.
const HALF_OF_THE_WORDS: f32 = 0.5;
