//! Retrieval building blocks that do no I/O: rank fusion, the heuristics applied
//! after it, reranking by late interaction, and the confidence gate.

pub mod fuse;
pub mod gate;
pub mod heuristics;
pub mod metrics;
pub mod rerank;
