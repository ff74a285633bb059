//! What a retrieval gives: the ranked hits, each with its best chunk and where it
//! stood at each stage, and the confidence that the best one is evidence.

use super::options::SearchMode;
use crate::engine::retrieval::search::SearchHit;
use crate::retrieve::gate::GateSignals;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Where a hit stood at each stage, for `--explain`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct StageScores {
    pub lexical_rank: Option<usize>,
    pub lexical_score: Option<f32>,
    pub dense_rank: Option<usize>,
    pub dense_score: Option<f32>,
    pub fused_rank: Option<usize>,
    pub fused_score: Option<f32>,
    /// Product of the date and people multipliers (1 when none applied).
    pub boost: f32,
    /// Brought in as a thread sibling of a strong hit.
    pub thread_expansion: bool,
    pub rerank_score: Option<f32>,
    pub final_rank: usize,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RetrievedHit {
    #[serde(flatten)]
    pub hit: SearchHit,
    /// The chunk that matched best (the evidence a later answer would cite).
    pub chunk: Option<ChunkRef>,
    pub stages: StageScores,
    /// The Message-IDs of the email's other copies among the results read.
    #[serde(skip)]
    pub copy_ids: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ChunkRef {
    pub ordinal: u32,
    pub start: u32,
    pub end: u32,
    pub cite_text: String,
    /// The attachment's file name when the chunk is a page of one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attachment: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<u32>,
    /// Where in the attachment: "page 3", "Sheet1, row 14".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Retrieval {
    pub mode: SearchMode,
    pub hits: Vec<RetrievedHit>,
    /// Confidence in 0..1 that the best hit is evidence for the query.
    pub confidence: f32,
    /// False when the confidence is under the gate: "no evidence".
    pub evidence: bool,
    /// What the gate saw for the candidate it trusted most.
    pub gate_signals: Option<GateSignals>,
    /// The lexical and semantic weights hybrid fusion used (None in the other
    /// modes): [`FusionWeights::every_word`](super::options::FusionWeights) when
    /// some message held every word of the query.
    #[serde(default)]
    pub fusion_weights: Option<(f32, f32)>,
    /// Things the user should know (model missing, vectors still being built...).
    pub notes: Vec<String>,
    #[serde(skip_deserializing)]
    pub timings_ms: HashMap<&'static str, f64>,
}
