//! The ask service: a question answered from the evidence pack with a verbatim quote
//! or an honest "I don't know", its rewrites and sessions, the LLM answerer, and the
//! question sets that score it. It owns the models that read the question with the
//! evidence ([`Models`]).

pub(super) mod answer_eval;
pub(super) mod ask_tries;
pub(super) mod event_versions;
pub(super) mod evidence_pack;
pub(super) mod llm;
pub(super) mod memory;
pub(super) mod model_calls;
pub(super) mod pipeline;
pub(super) mod reading;
pub(super) mod sessions;

pub use pipeline::*;

/// A model loaded on first use: None when it is not installed, an error when it
/// could not be loaded.
type Loaded<T> = std::sync::OnceLock<Option<Result<std::sync::Arc<T>, String>>>;

/// What asking owns: the reader, loaded on the first question, and its span head,
/// loaded with the first short answer.
#[derive(Default)]
pub(in crate::engine) struct Models {
    pub reader: Loaded<crate::index::reader::Reader>,
    pub span_head: Loaded<crate::index::span_head::SpanHead>,
}
