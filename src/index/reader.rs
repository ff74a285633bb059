//! The reader: a cross-encoder that reads a question and one candidate sentence
//! together (with its neighbours and its message's subject and sender) and gives one
//! logit, above 0 when the sentence answers the question better than nothing does.
//! It runs on ONNX Runtime like the embedding model, from a model trained offline
//! (models/reader/README.md, where the input format is fixed).

use super::embed::{EmbedError, ModelPaths, Result};
use super::pair_input::{Fitted, PairModel};
use crate::answer::ReaderInput;
use std::path::{Path, PathBuf};
use tokenizers::Encoding;

pub use super::pair_input::{candidate_text, MAX_TOKENS, NEIGHBOUR_WORDS};

/// The model file, under a models folder.
pub const READER_FILE: &str = "reader/reader-int8.onnx";
/// Pairs per run: one. The int8 model quantises its activations over the whole
/// batch, so a pair run beside others (and their padding) scores differently (by
/// more than half a logit); alone, a pair always scores the same.
const BATCH: usize = 1;

pub struct Reader {
    model: PairModel,
}

impl Reader {
    /// Finds the reader beside the embedding model's files, else in the source tree's
    /// models folder; None when it is in neither.
    pub fn locate(paths: &ModelPaths) -> Option<PathBuf> {
        PairModel::locate(paths, READER_FILE)
    }

    pub fn load(paths: &ModelPaths, model: &Path, threads: usize) -> Result<Self> {
        Ok(Self {
            model: PairModel::load(paths, model, threads)?,
        })
    }

    /// The candidate text as the reader reads it with `question`.
    pub fn fit(&self, question: &str, input: &ReaderInput) -> Result<Fitted> {
        self.model.pairs.fit(question, input)
    }

    /// The reader's logit for each candidate, in order.
    pub fn score(&self, question: &str, inputs: &[ReaderInput]) -> Result<Vec<f32>> {
        let mut encodings = Vec::with_capacity(inputs.len());
        for input in inputs {
            let fit = self.model.pairs.fit(question, input)?;
            encodings.push(self.model.pairs.encode(question, &fit.text)?);
        }
        let mut out = Vec::with_capacity(inputs.len());
        for batch in encodings.chunks(BATCH) {
            out.extend(self.run(batch)?);
        }
        Ok(out)
    }

    fn run(&self, batch: &[Encoding]) -> Result<Vec<f32>> {
        let rows = batch.len();
        self.model.run(batch, |outputs, _| {
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
