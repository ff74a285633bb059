//! The learned evidence selector: for each candidate of the evidence pack (a
//! sentence, a header fact), the calibrated probability that it answers the
//! question. Features in [`features`], the trained trees in [`model`]; how they were
//! trained and on what is in models/selector/README.md.

pub mod answerability;
pub mod features;
pub mod model;
pub mod reading;

use super::candidates::Candidate;
use features::{features, Context, FEATURE_NAMES};
use model::SelectorModel;

/// A candidate with the selector's judgement of it.
#[derive(Debug, Clone)]
pub struct Scored {
    pub candidate: Candidate,
    /// The trees' raw score.
    pub score: f64,
    /// The calibrated probability that it answers the question.
    pub probability: f32,
}

#[cfg(test)]
impl Scored {
    /// A candidate of item `item` whose text is its own window, as the tests build
    /// them.
    pub(crate) fn of_text(
        kind: super::candidates::CandidateKind,
        item: usize,
        text: &str,
        score: f64,
        probability: f32,
    ) -> Scored {
        Scored {
            candidate: Candidate {
                kind,
                item,
                text: text.into(),
                window: text.into(),
                position: 0,
                of: 1,
                span: None,
                around: None,
            },
            score,
            probability,
        }
    }
}

/// What the selector judged of a question's evidence.
#[derive(Debug, Clone)]
pub struct Judgement {
    /// Every candidate, scored, best first.
    pub scored: Vec<Scored>,
    /// The calibrated probability that the evidence answers the question.
    pub answerable: f32,
    /// The least `answerable` at which Quoth answers.
    pub threshold: f32,
}

/// Scores every candidate (best first), then the question over them.
pub fn judge(ctx: &Context, cands: Vec<Candidate>, model: &SelectorModel) -> Judgement {
    let xs = features(ctx, &cands);
    let stage = &model.candidate;
    let mut pairs: Vec<(Scored, Vec<f32>)> = cands
        .into_iter()
        .zip(xs)
        .map(|(candidate, x)| {
            let score = stage.score(&x);
            (
                Scored {
                    candidate,
                    score,
                    probability: stage.probability(score),
                },
                x,
            )
        })
        .collect();
    pairs.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
    let (answerable, threshold) = match &model.answerability {
        Some(a) => {
            let q = answerability::question_features(&pairs);
            (a.probability(a.score(&q)), a.threshold)
        }
        None => (
            pairs.first().map_or(0.0, |p| p.0.probability),
            stage.threshold,
        ),
    };
    Judgement {
        scored: pairs.into_iter().map(|p| p.0).collect(),
        answerable,
        threshold,
    }
}

/// The shipped model for the current features.
pub fn shipped_model() -> Result<&'static SelectorModel, &'static model::ModelError> {
    SelectorModel::shipped(FEATURE_NAMES, &answerability::names())
}
