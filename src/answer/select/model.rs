//! The trained selector, in two stages, each gradient-boosted trees with a
//! calibration that turns their score into a probability and a threshold:
//! - the candidate stage scores every candidate (does it answer?); its threshold is
//!   the least probability a further quote needs;
//! - the answerability stage scores the question over what the first stage found
//!   (does the evidence answer it at all?); under its threshold Quoth abstains.
//!
//! Both come from `models/selector/selector.json`, written by
//! `models/selector/train.py` and compiled into the program.

use serde::Deserialize;
use std::sync::OnceLock;

/// The shipped model.
const SHIPPED: &str = include_str!("../../../models/selector/selector.json");

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("the selector model is not readable: {0}")]
    Unreadable(String),
    #[error("the selector model was trained on other features ({0}); retrain it (models/selector/README.md)")]
    Features(String),
}

#[derive(Debug, Clone, Deserialize)]
struct Tree {
    feature: Vec<i64>,
    threshold: Vec<f64>,
    left: Vec<i64>,
    right: Vec<i64>,
    value: Vec<f64>,
}

#[derive(Debug, Clone, Deserialize)]
struct Trees {
    init: f64,
    learning_rate: f64,
    trees: Vec<Tree>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
struct Calibration {
    a: f64,
    b: f64,
}

#[derive(Debug, Clone, Deserialize)]
struct StageFile {
    features: Vec<String>,
    model: Trees,
    calibration: Calibration,
    threshold: f64,
}

#[derive(Debug, Clone, Deserialize)]
struct ModelFile {
    #[serde(flatten)]
    candidate: StageFile,
    answerability: Option<StageFile>,
}

/// One stage: trees, calibration, threshold.
#[derive(Debug, Clone)]
pub struct Stage {
    trees: Trees,
    calibration: Calibration,
    /// Least calibrated probability that passes.
    pub threshold: f32,
}

/// A loaded selector model.
#[derive(Debug, Clone)]
pub struct SelectorModel {
    pub candidate: Stage,
    /// Absent in a model trained without it: then the candidate stage's threshold
    /// decides alone.
    pub answerability: Option<Stage>,
}

impl SelectorModel {
    /// Reads a model file and checks its stages were trained on these features.
    pub fn from_json(
        json: &str,
        features: &[&str],
        question_features: &[&str],
    ) -> Result<Self, ModelError> {
        let file: ModelFile =
            serde_json::from_str(json).map_err(|e| ModelError::Unreadable(e.to_string()))?;
        Ok(Self {
            candidate: Stage::from_file(file.candidate, features)?,
            answerability: file
                .answerability
                .map(|a| Stage::from_file(a, question_features))
                .transpose()?,
        })
    }

    /// The shipped model, read once.
    pub fn shipped(
        features: &[&str],
        question_features: &[&str],
    ) -> Result<&'static SelectorModel, &'static ModelError> {
        static MODEL: OnceLock<Result<SelectorModel, ModelError>> = OnceLock::new();
        MODEL
            .get_or_init(|| SelectorModel::from_json(SHIPPED, features, question_features))
            .as_ref()
    }
}

impl Stage {
    fn from_file(file: StageFile, features: &[&str]) -> Result<Self, ModelError> {
        if file.features != features {
            let missing: Vec<&str> = features
                .iter()
                .filter(|f| !file.features.iter().any(|g| g == *f))
                .copied()
                .collect();
            return Err(ModelError::Features(if missing.is_empty() {
                "the order differs".into()
            } else {
                format!("it lacks {}", missing.join(", "))
            }));
        }
        for t in &file.model.trees {
            let n = t.feature.len();
            let ok = [
                t.threshold.len(),
                t.left.len(),
                t.right.len(),
                t.value.len(),
            ]
            .iter()
            .all(|&l| l == n)
                && t.feature.iter().all(|&f| f < features.len() as i64)
                && t.left.iter().chain(&t.right).all(|&c| c < n as i64);
            if !ok || n == 0 {
                return Err(ModelError::Unreadable("a tree is malformed".into()));
            }
        }
        Ok(Self {
            trees: file.model,
            calibration: file.calibration,
            threshold: file.threshold as f32,
        })
    }

    /// The trees' raw score (log-odds) for one feature vector.
    pub fn score(&self, x: &[f32]) -> f64 {
        let mut sum = self.trees.init;
        for t in &self.trees.trees {
            let mut node = 0usize;
            // A leaf has no children (-1); a walk is at most the tree's size.
            for _ in 0..t.feature.len() {
                let f = t.feature[node];
                if t.left[node] < 0 || f < 0 {
                    break;
                }
                let v = f64::from(x.get(f as usize).copied().unwrap_or(0.0));
                node = if v <= t.threshold[node] {
                    t.left[node] as usize
                } else {
                    t.right[node] as usize
                };
            }
            sum += self.trees.learning_rate * t.value[node];
        }
        sum
    }

    /// The calibrated probability that a candidate with this raw score answers.
    pub fn probability(&self, score: f64) -> f32 {
        let z = self.calibration.a * score + self.calibration.b;
        (1.0 / (1.0 + (-z).exp())) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = r#"{
        "features": ["a", "b"],
        "model": {"kind": "gbdt", "init": -1.0, "learning_rate": 0.5, "trees": [
            {"feature": [0, -2, -2], "threshold": [0.5, -2, -2],
             "left": [1, -1, -1], "right": [2, -1, -1], "value": [0, -2.0, 4.0]}
        ]},
        "calibration": {"a": 1.0, "b": 0.0},
        "threshold": 0.5
    }"#;

    #[test]
    fn trees_walk_to_their_leaves() {
        let m = SelectorModel::from_json(TINY, &["a", "b"], &[]).expect("model");
        let c = &m.candidate;
        assert_eq!(c.score(&[0.0, 9.0]), -2.0);
        assert_eq!(c.score(&[1.0, 9.0]), 1.0);
        assert!(c.probability(1.0) > 0.7);
        assert!(m.answerability.is_none());
    }

    #[test]
    fn a_model_of_other_features_is_refused() {
        let err = SelectorModel::from_json(TINY, &["a", "c"], &[]).expect_err("refused");
        assert!(err.to_string().contains("lacks c"), "{err}");
    }

    #[test]
    fn the_shipped_model_fits_the_features() {
        let names = super::super::answerability::names();
        SelectorModel::shipped(super::super::features::FEATURE_NAMES, &names)
            .expect("the shipped model matches the feature names: retrain after changing them");
    }
}
