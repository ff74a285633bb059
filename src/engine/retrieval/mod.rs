//! The retrieval service: search by words, by meaning and both (rank fusion, the
//! confidence gate), counts, and the retrieval question sets. It owns the indexes it
//! searches and the embedding model ([`Indexes`]).

pub(super) mod dense;
mod options;
pub(super) mod retrieval_eval;
pub(super) mod retrieve;
mod retrieved;
pub(super) mod search;

/// What retrieval owns: the word index, the vectors, the embedding model (loaded
/// at the first text that needs it) and the confidence gate.
pub(in crate::engine) struct Indexes {
    pub lexical: crate::index::lexical::LexicalIndex,
    pub vectors: crate::index::vector::VectorIndex,
    pub embedder: std::sync::OnceLock<std::sync::Arc<crate::index::embed::Embedder>>,
    pub gate: crate::retrieve::gate::Gate,
}
