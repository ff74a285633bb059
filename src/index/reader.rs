//! The reader: a cross-encoder that reads a question and one candidate sentence
//! together (with its neighbours and its message's subject and sender) and gives one
//! logit, above 0 when the sentence answers the question better than nothing does.
//! It runs on ONNX Runtime like the embedding model, from models trained offline
//! (models/reader/README.md, where the input format is fixed). The shipped reader is
//! two such models trained on different data; its logit is the mean of theirs, which
//! ranks answers and refuses near misses better than either alone.

use super::embed::{EmbedError, ModelPaths, Result};
use super::pair_input::{Fitted, PairEncoder, PairModel, PairSession};
use crate::answer::ReaderInput;
use std::path::{Path, PathBuf};
use tokenizers::Encoding;

pub use super::pair_input::{candidate_text, MAX_TOKENS, NEIGHBOUR_WORDS};

/// The model file, under a models folder.
pub const READER_FILE: &str = "reader/reader-int8.onnx";
/// Further members of the reader, beside [`READER_FILE`]: each found is read too.
pub const MEMBER_FILES: &[&str] = &["reader/reader-contrast-int8.onnx"];
/// Pairs per run: one. The int8 model quantises its activations over the whole
/// batch, so a pair run beside others (and their padding) scores differently (by
/// more than half a logit); alone, a pair always scores the same.
const BATCH: usize = 1;

pub struct Reader {
    /// Fits and encodes the pairs, once for all the models.
    pairs: PairEncoder,
    /// The first model's session and its members'.
    models: Vec<PairSession>,
}

impl Reader {
    /// Finds the reader beside the embedding model's files, else in the source tree's
    /// models folder; None when it is in neither.
    pub fn locate(paths: &ModelPaths) -> Option<PathBuf> {
        PairModel::locate(paths, READER_FILE)
    }

    /// The members found in the folder of `model`, the reader's first file.
    pub fn members(model: &Path) -> Vec<PathBuf> {
        let Some(folder) = model.parent().and_then(Path::parent) else {
            return Vec::new();
        };
        MEMBER_FILES
            .iter()
            .map(|f| folder.join(f))
            .filter(|p| p.is_file())
            .collect()
    }

    /// Loads `model` and the members found beside it. The models run side by side,
    /// so `threads` are shared among them: a candidate's pair is too short for
    /// one model to keep several threads busy.
    pub fn load(paths: &ModelPaths, model: &Path, threads: usize) -> Result<Self> {
        let members = Self::members(model);
        let each = (threads / (members.len() + 1)).max(1);
        let mut models = vec![PairSession::load(paths, model, each)?];
        for member in members {
            models.push(PairSession::load(paths, &member, each)?);
        }
        Ok(Self {
            pairs: PairEncoder::load(paths)?,
            models,
        })
    }

    /// How many models the reader averages.
    pub fn models(&self) -> usize {
        self.models.len()
    }

    /// The candidate text as the reader reads it with `question`.
    pub fn fit(&self, question: &str, input: &ReaderInput) -> Result<Fitted> {
        self.pairs.fit(question, input)
    }

    /// The reader's logit for each candidate, in order: the mean of its models'.
    pub fn score(&self, question: &str, inputs: &[ReaderInput]) -> Result<Vec<f32>> {
        let pairs = &self.pairs;
        let mut encodings = Vec::with_capacity(inputs.len());
        for input in inputs {
            let fit = pairs.fit(question, input)?;
            encodings.push(pairs.encode(question, &fit.text)?);
        }
        let each = |model: &PairSession| -> Result<Vec<f32>> {
            let mut logits = Vec::with_capacity(encodings.len());
            for batch in encodings.chunks(BATCH) {
                logits.extend(Self::run(model, batch)?);
            }
            Ok(logits)
        };
        let per_model: Vec<Result<Vec<f32>>> = std::thread::scope(|scope| {
            let (first, rest) = self
                .models
                .split_first()
                .ok_or_else(|| EmbedError::Inference("the reader has no model".to_string()))?;
            let others: Vec<_> = rest.iter().map(|m| scope.spawn(move || each(m))).collect();
            let mut all = vec![each(first)];
            for handle in others {
                all.push(handle.join().unwrap_or_else(|_| {
                    Err(EmbedError::Inference(
                        "a reader thread panicked".to_string(),
                    ))
                }));
            }
            Ok::<_, EmbedError>(all)
        })?;
        let mut sum = vec![0f32; inputs.len()];
        for logits in per_model {
            for (s, l) in sum.iter_mut().zip(logits?) {
                *s += l;
            }
        }
        let n = self.models.len() as f32;
        Ok(sum.into_iter().map(|s| s / n).collect())
    }

    fn run(model: &PairSession, batch: &[Encoding]) -> Result<Vec<f32>> {
        let rows = batch.len();
        model.run(batch, |outputs, _| {
            let (shape, data) = outputs[0]
                .try_extract_tensor::<f32>()
                .map_err(|e| EmbedError::Inference(e.to_string()))?;
            if shape.first().copied() != Some(rows as i64) || data.len() != rows {
                return Err(EmbedError::Inference(format!(
                    "the reader returned {} logits for {rows} pairs",
                    data.len()
                )));
            }
            Ok(data.to_vec())
        })
    }
}
