//! What a retrieval is asked: the mode, the fusion weights, the limit, and the hints
//! a query plan adds.

use crate::mail::model::MessageKey;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    Lexical,
    Semantic,
    Hybrid,
}

/// How hybrid retrieval weighs its evidence. The defaults were chosen on the dev
/// split of the question sets (`quoth bench fusion`, models/selector/README.md).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FusionWeights {
    /// Weight of the lexical (BM25) list in reciprocal rank fusion.
    pub lexical: f32,
    /// Weight of the semantic (embedding) list.
    pub semantic: f32,
    /// A thread sibling of a strong hit enters at this share of its score.
    pub thread_sibling: f32,
    /// The lexical and semantic weights when some message holds every word the
    /// query names (two words or more): the words are then the mail's own, and the
    /// messages that hold them all are likelier answers than those near in meaning.
    pub every_word: (f32, f32),
}

impl FusionWeights {
    /// The lexical and semantic weights of rank fusion, by whether some message
    /// holds every word of the query.
    pub fn lists(&self, every_word: bool) -> (f32, f32) {
        if every_word {
            self.every_word
        } else {
            (self.lexical, self.semantic)
        }
    }
}

impl Default for FusionWeights {
    fn default() -> Self {
        Self {
            lexical: 1.0,
            semantic: 1.0,
            thread_sibling: 0.3,
            every_word: (2.0, 0.5),
        }
    }
}

/// Retrieval options beyond the query.
#[derive(Debug, Clone, Copy)]
pub struct RetrieveOptions {
    pub mode: SearchMode,
    pub limit: usize,
    pub rerank: bool,
    /// Unix seconds that relative dates are measured from.
    pub now: i64,
}

/// What a query plan knows beyond the query text: people and dates to favour (not
/// to require), and messages to leave out.
#[derive(Debug, Clone, Default)]
pub struct RetrieveHints {
    pub people: Vec<String>,
    pub date: Option<(Option<i64>, Option<i64>)>,
    pub avoid: HashSet<MessageKey>,
}
