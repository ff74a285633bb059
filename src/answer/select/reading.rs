//! The reader's part in the judgement: the trees' best candidates are ranked again
//! with the reader's logit, and a best sentence the reader does not find answering
//! the question is not quoted. How the setting was chosen, and on what, is in
//! models/reader/README.md; it is read from models/reader/fusion.json.

use super::Judgement;
use crate::answer::candidates::CandidateKind;
use serde::Deserialize;
use std::sync::OnceLock;

const SHIPPED: &str = include_str!("../../../models/reader/fusion.json");

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
pub struct Fusion {
    /// How many of the trees' best candidates the reader reads.
    pub top_k: usize,
    /// The reader's logit's weight beside the trees' score.
    pub weight: f64,
    /// The least logit of a best sentence that may be quoted.
    pub gate: Option<f32>,
    /// With the reader, the trees' answerability must reach this share of their
    /// threshold (1: the trees' own threshold; 0: the reader alone decides).
    #[serde(default = "one")]
    pub trust: f32,
}

fn one() -> f32 {
    1.0
}

impl Fusion {
    /// The shipped setting; None when the file does not hold one.
    pub fn shipped() -> Option<Fusion> {
        static FUSION: OnceLock<Option<Fusion>> = OnceLock::new();
        *FUSION.get_or_init(|| {
            serde_json::from_str::<Option<Fusion>>(SHIPPED)
                .ok()
                .flatten()
        })
    }

    /// How many candidates, from the best, the reader should read.
    pub fn reads(&self, j: &Judgement) -> usize {
        self.top_k.min(j.scored.len())
    }

    /// Ranks the first `logits.len()` candidates again by the trees' score plus the
    /// weighted logit (a header fact, which has none, keeps its score). Returns
    /// whether the new best may be quoted: a sentence needs a logit of at least the
    /// gate.
    pub fn apply(&self, j: &mut Judgement, logits: &[Option<f32>]) -> bool {
        let n = logits.len().min(j.scored.len());
        let mut head: Vec<(f64, Option<f32>, super::Scored)> = j
            .scored
            .drain(..n)
            .zip(logits)
            .map(|(s, &l)| {
                let fused = s.score + self.weight * f64::from(l.unwrap_or(0.0));
                (fused, l, s)
            })
            .collect();
        head.sort_by(|a, b| b.0.total_cmp(&a.0));
        let quotable = match head.first() {
            Some((_, logit, best)) => {
                best.candidate.kind != CandidateKind::Sentence
                    || match (self.gate, logit) {
                        (Some(g), Some(l)) => *l >= g,
                        _ => true,
                    }
            }
            None => true,
        };
        let rest = std::mem::take(&mut j.scored);
        j.scored = head.into_iter().map(|h| h.2).chain(rest).collect();
        quotable
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::select::Scored;

    fn scored(text: &str, kind: CandidateKind, score: f64) -> Scored {
        Scored::of_text(kind, 0, text, score, 0.5)
    }

    fn judgement(cands: Vec<Scored>) -> Judgement {
        Judgement {
            scored: cands,
            answerable: 0.9,
            threshold: 0.5,
        }
    }

    #[test]
    fn the_reader_reorders_the_head_and_gates_the_best_sentence() {
        let f = Fusion {
            top_k: 2,
            weight: 1.0,
            gate: Some(0.0),
            trust: 1.0,
        };
        let mut j = judgement(vec![
            scored("near miss", CandidateKind::Sentence, 1.0),
            scored("answer", CandidateKind::Sentence, 0.5),
            scored("tail", CandidateKind::Sentence, 0.1),
        ]);
        assert!(f.apply(&mut j, &[Some(-2.0), Some(1.5)]));
        let order: Vec<&str> = j.scored.iter().map(|s| s.candidate.text.as_str()).collect();
        assert_eq!(order, vec!["answer", "near miss", "tail"]);

        let mut j = judgement(vec![
            scored("near miss", CandidateKind::Sentence, 1.0),
            scored("other", CandidateKind::Sentence, 0.5),
        ]);
        assert!(
            !f.apply(&mut j, &[Some(-0.5), Some(-3.0)]),
            "no sentence the reader finds answering: nothing to quote"
        );
    }

    #[test]
    fn a_header_fact_is_not_gated() {
        let f = Fusion {
            top_k: 3,
            weight: 1.0,
            gate: Some(0.0),
            trust: 1.0,
        };
        let mut j = judgement(vec![
            scored("Dana Reyes <dana@example.com>", CandidateKind::Subject, 2.0),
            scored("a sentence", CandidateKind::Sentence, 0.5),
        ]);
        assert!(f.apply(&mut j, &[None, Some(-1.0)]));
        assert_eq!(j.scored[0].candidate.kind, CandidateKind::Subject);
    }
}
