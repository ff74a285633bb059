//! Grounded answers: from a question and an evidence pack to an answer whose every
//! claim quotes authored mail verbatim, or to an honest "I don't know".
//!
//! Core only: the answerers here are pure; the LLM client that also implements
//! [`Answerer`] lives with the engine, which owns network I/O.

pub mod conversation;
pub mod evidence;
pub mod extract;
pub mod features;
pub mod injection;
pub mod normalize;
pub mod prompt;
pub mod reading;
pub mod sentences;
pub mod terms;
pub mod validate;

use crate::query::plan::QuestionType;
use evidence::EvidencePack;
use std::collections::HashMap;

/// What an answerer is given.
pub struct AnswerRequest<'a> {
    /// The standalone question (follow-ups already resolved).
    pub question: &'a str,
    /// What the user typed this turn ("no, I meant the one I sent Jacques"): the
    /// names in it, not those of an earlier turn, are what an answer must be about.
    pub typed: &'a str,
    /// The user scoped the question to a thread and this evidence comes from it.
    pub scoped: bool,
    pub qtype: QuestionType,
    /// Rarity of each question term in the mailbox (inverse document frequency);
    /// missing terms weigh 1, and words that only scope the search (a folder, a date)
    /// weigh 0.
    pub term_weights: &'a HashMap<String, f32>,
    pub pack: &'a EvidencePack,
}

/// An answerer's raw output: text with `"quote" [n]` citations, not yet validated.
#[derive(Debug, Clone, PartialEq)]
pub enum Draft {
    Text(String),
    /// The answerer found nothing in the evidence that answers the question.
    NoAnswer(String),
}

#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error("the language model endpoint failed: {0}")]
    Endpoint(String),
    #[error("the language model answer was not usable: {0}")]
    BadResponse(String),
}

/// Something that writes a draft answer from evidence. `on_delta` receives text as it
/// is produced (token by token for a streaming model, all at once otherwise).
pub trait Answerer {
    fn name(&self) -> &'static str;
    fn answer(
        &self,
        request: &AnswerRequest<'_>,
        on_delta: &mut dyn FnMut(&str),
    ) -> Result<Draft, AnswerError>;
}
