//! Reranking of the best candidates. A cross-encoder on ONNX would be the strongest
//! choice, but no licensed cross-encoder weights can be fetched; late interaction over
//! the embedding model's own token vectors (MaxSim, as in ColBERT) needs no new model.

/// Scores candidates for a question; higher is better.
pub trait Reranker: Send + Sync {
    fn name(&self) -> &'static str;
    /// One score per candidate text, same order.
    fn scores(&self, question: &str, candidates: &[&str]) -> Result<Vec<f32>, String>;
}

/// MaxSim: for each question token, its best cosine against the candidate's tokens;
/// the mean over question tokens.
pub fn max_sim(question: &[Vec<f32>], candidate: &[Vec<f32>]) -> f32 {
    if question.is_empty() || candidate.is_empty() {
        return 0.0;
    }
    let total: f32 = question
        .iter()
        .map(|q| {
            candidate
                .iter()
                .map(|c| q.iter().zip(c).map(|(a, b)| a * b).sum::<f32>())
                .fold(f32::MIN, f32::max)
        })
        .sum();
    total / question.len() as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_sim_rewards_covering_every_question_token() {
        let q = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        let both = vec![vec![1.0, 0.0], vec![0.0, 1.0]];
        let one = vec![vec![1.0, 0.0]];
        assert!((max_sim(&q, &both) - 1.0).abs() < 1e-6);
        assert!((max_sim(&q, &one) - 0.5).abs() < 1e-6);
        assert_eq!(max_sim(&q, &[]), 0.0);
    }
}
