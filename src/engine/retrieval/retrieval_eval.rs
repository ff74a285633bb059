//! Retrieval evaluation over a question set with gold Message-IDs: recall@5, MRR,
//! precision@10 and recall@50 per mode. Used by `quoth bench retrieval` and the
//! retrieval-quality tests.

use crate::engine::{Engine, Result, RetrieveOptions, SearchMode};
use crate::retrieve::metrics::{hit_at, precision_at, recall_at, reciprocal_rank};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// One question of a retrieval set (tests/retrieval/*.jsonl).
#[derive(Debug, Clone, Deserialize)]
pub struct RetrievalQuestion {
    pub id: String,
    pub question: String,
    pub gold_message_ids: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ModeScores {
    pub mode: SearchMode,
    pub questions: usize,
    /// Share of questions with a gold message in the top 5.
    pub recall_at_5: f64,
    pub mrr: f64,
    /// Mean share of the top 10 that is gold.
    pub precision_at_10: f64,
    /// Mean share of the gold found in the top 50.
    pub recall_at_50: f64,
    /// Share of questions the gate let through as having evidence.
    pub evidence_rate: f64,
    pub p50_ms: f64,
    /// Each question's reciprocal rank of its first gold message, in the set's
    /// order, so that two modes can be compared question by question.
    pub reciprocal_ranks: Vec<f64>,
}

pub fn parse_questions(jsonl: &str) -> std::result::Result<Vec<RetrievalQuestion>, String> {
    jsonl
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

fn bare(id: &str) -> String {
    id.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_string()
}

impl Engine {
    pub fn evaluate_retrieval(
        &self,
        questions: &[RetrievalQuestion],
        mode: SearchMode,
        rerank: bool,
    ) -> Result<ModeScores> {
        let (mut r5, mut p10, mut r50, mut evidence) = (0.0, 0.0, 0.0, 0.0);
        let mut times = Vec::new();
        let mut reciprocal_ranks = Vec::with_capacity(questions.len());
        for q in questions {
            let gold: HashSet<String> = q.gold_message_ids.iter().map(|g| bare(g)).collect();
            let t = std::time::Instant::now();
            let r = self.retrieve(
                &quote_free_text(&q.question),
                RetrieveOptions {
                    mode,
                    limit: 50,
                    rerank,
                    now: 0,
                },
            )?;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            // Each hit stands for its email: its own Message-ID and its copies'.
            let ranked: Vec<Vec<String>> = r
                .hits
                .iter()
                .map(|h| {
                    std::iter::once(h.hit.message_id.clone().unwrap_or_default())
                        .chain(h.copy_ids.iter().cloned())
                        .map(|id| bare(&id))
                        .collect()
                })
                .collect();
            r5 += hit_at(&ranked, &gold, 5);
            reciprocal_ranks.push(reciprocal_rank(&ranked, &gold));
            p10 += precision_at(&ranked, &gold, 10);
            r50 += recall_at(&ranked, &gold, 50);
            evidence += f64::from(u8::from(r.evidence));
        }
        let n = questions.len().max(1) as f64;
        times.sort_by(f64::total_cmp);
        Ok(ModeScores {
            mode,
            questions: questions.len(),
            recall_at_5: r5 / n,
            mrr: reciprocal_ranks.iter().sum::<f64>() / n,
            precision_at_10: p10 / n,
            recall_at_50: r50 / n,
            evidence_rate: evidence / n,
            p50_ms: times.get(times.len() / 2).copied().unwrap_or(0.0),
            reciprocal_ranks,
        })
    }
}

/// A question in plain words is not query syntax: keep only words, so "Phillip's"
/// or a stray colon cannot turn into a field or an error.
pub fn quote_free_text(question: &str) -> String {
    question
        .split(|c: char| !(c.is_alphanumeric() || c == '$' || c == '.' || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c: char| c == '.' || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty() && !matches!(*w, "AND" | "OR" | "NOT"))
        .collect::<Vec<_>>()
        .join(" ")
}
