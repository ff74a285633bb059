//! The reader's span head: start and end logits for each token of a candidate
//! sentence read with the question (the reader's input, `pair_input`), from which
//! `answer::span` takes the short answer. Trained offline beside the reader
//! (models/reader/README.md, "Span head").

use super::embed::{EmbedError, ModelPaths, Result};
use super::pair_input::PairModel;
use crate::answer::{ReaderInput, SpanLogits};
use std::path::{Path, PathBuf};

/// The model file, under a models folder.
pub const SPAN_FILE: &str = "reader/span-int8.onnx";

pub struct SpanHead {
    model: PairModel,
}

impl SpanHead {
    /// Finds the span head beside the embedding model's files, else in the source
    /// tree's models folder; None when it is in neither.
    pub fn locate(paths: &ModelPaths) -> Option<PathBuf> {
        PairModel::locate(paths, SPAN_FILE)
    }

    pub fn load(paths: &ModelPaths, model: &Path, threads: usize) -> Result<Self> {
        Ok(Self {
            model: PairModel::load(paths, model, threads)?,
        })
    }

    /// The start and end logits of the sentence's tokens, each token as a byte range
    /// of `input.sentence`. A sentence cut away by truncation has no tokens.
    pub fn read(&self, question: &str, input: &ReaderInput) -> Result<SpanLogits> {
        let fit = self.model.pairs.fit(question, input)?;
        let enc = self.model.pairs.encode(question, &fit.text)?;
        let (start, end) = self.model.run(std::slice::from_ref(&enc), |outputs, len| {
            let logits = |name: &str| -> Result<Vec<f32>> {
                let (_, data) = outputs[name]
                    .try_extract_tensor::<f32>()
                    .map_err(|e| EmbedError::Inference(e.to_string()))?;
                if data.len() != len {
                    return Err(EmbedError::Inference(format!(
                        "the span head returned {} {name} for {len} tokens",
                        data.len()
                    )));
                }
                Ok(data.to_vec())
            };
            Ok((logits("start_logits")?, logits("end_logits")?))
        })?;
        let mut out = SpanLogits::default();
        let sentence = fit.sentence.clone();
        for (t, (&seq, &(a, z))) in enc
            .get_sequence_ids()
            .iter()
            .zip(enc.get_offsets())
            .enumerate()
        {
            if seq == Some(1) && a >= sentence.start && z <= sentence.end && z > a {
                out.tokens.push(a - sentence.start..z - sentence.start);
                out.start.push(start[t]);
                out.end.push(end[t]);
            }
        }
        Ok(out)
    }
}
