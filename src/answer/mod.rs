//! Grounded answers: from a question and an evidence pack to an answer whose every
//! claim quotes authored mail verbatim, or to an honest "I don't know".
//!
//! Core only: the answerers here are pure; the LLM client that also implements
//! [`Answerer`] lives with the engine, which owns network I/O.

pub mod asked_role;
pub mod candidates;
pub mod compose;
pub mod conversation;
pub mod detect;
pub mod evidence;
pub mod extract;
pub mod field_answer;
pub mod heading;
pub mod injection;
pub mod message_asks;
pub mod normalize;
pub mod other_day;
pub mod prompt;
pub mod reader_input;
pub mod select;
pub mod sent_date;
pub mod sentences;
pub mod short_answer;
pub mod span;
pub mod unasked_kind;
pub mod validate;
pub mod whole_value;

use crate::query::question::Question;
use evidence::EvidencePack;
pub use reader_input::{ReadFn, ReaderInput};
pub use span::{SpanFn, SpanLogits};
use std::collections::{HashMap, HashSet};

/// Embeds texts with the sentence model: one unit vector per text, or None when the
/// model is not available.
pub type EmbedFn<'a> = &'a dyn Fn(&[&str]) -> Option<Vec<Vec<f32>>>;

/// What an answerer is given.
pub struct AnswerRequest<'a> {
    /// The standalone question (follow-ups already resolved), read.
    pub question: &'a Question,
    /// What the user typed this turn ("no, I meant the one I sent Jacques").
    pub typed: &'a str,
    /// The user scoped the question to a thread and this evidence comes from it.
    pub scoped: bool,
    /// Rarity of each question stem in the mailbox (inverse document frequency);
    /// missing stems weigh 1, and stems that only scope the search (a folder, a date)
    /// weigh 0.
    pub term_weights: &'a HashMap<String, f32>,
    pub pack: &'a EvidencePack,
    /// Lowercased name parts of the people of the mailbox's headers.
    pub known_people: &'a HashSet<String>,
    /// The question's vector, and the embedder for candidate texts.
    pub question_vector: Option<&'a [f32]>,
    pub embed: Option<EmbedFn<'a>>,
    /// The reader, which reads the question with each candidate sentence.
    pub read: Option<ReadFn<'a>>,
    /// The reader's span head, which picks the short answer in the chosen sentence.
    pub span: Option<SpanFn<'a>>,
}

/// An answerer's raw output: text with `"quote" [n]` citations, not yet validated.
#[derive(Debug, Clone, PartialEq)]
pub enum Draft {
    Text(String),
    /// The extractive answerer's selection: its text, the short answer it leads
    /// with, and the passages a later value superseded.
    Selected(compose::Selection),
    /// The answerer found nothing in the evidence that answers the question.
    NoAnswer(String),
}

#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error("the language model endpoint failed: {0}")]
    Endpoint(String),
    #[error("the language model answer was not usable: {0}")]
    BadResponse(String),
    #[error("the evidence selector cannot run: {0}")]
    Selector(String),
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
