//! The reader's span head: start and end logits for each token of a candidate
//! sentence read with the question (the reader's input, `pair_input`), from which
//! `answer::span` takes the short answer. Trained offline beside the reader
//! (models/reader/README.md, "Span head").

use super::embed::{model_session, EmbedError, ModelPaths, Result};
use super::pair_input::{tensors, PairEncoder};
use super::reader::locate_model;
use crate::answer::{ReaderInput, SpanLogits};
use ort::session::Session;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The model file, under a models folder.
pub const SPAN_FILE: &str = "reader/span-int8.onnx";

pub struct SpanHead {
    session: Mutex<Session>,
    pairs: PairEncoder,
}

impl SpanHead {
    /// Finds the span head beside the embedding model's files, else in the source
    /// tree's models folder; None when it is in neither.
    pub fn locate(paths: &ModelPaths) -> Option<PathBuf> {
        locate_model(paths, SPAN_FILE)
    }

    pub fn load(paths: &ModelPaths, model: &Path, threads: usize) -> Result<Self> {
        Ok(Self {
            session: Mutex::new(model_session(&paths.runtime, model, threads)?),
            pairs: PairEncoder::load(paths)?,
        })
    }

    /// The start and end logits of the sentence's tokens, each token as a byte range
    /// of `input.sentence`. A sentence cut away by truncation has no tokens.
    pub fn read(&self, question: &str, input: &ReaderInput) -> Result<SpanLogits> {
        let fit = self.pairs.fit(question, input)?;
        let enc = self.pairs.encode(question, &fit.text)?;
        let (len, [ids, mask, types]) = tensors(std::slice::from_ref(&enc))?;
        let inputs = ort::inputs![
            "input_ids" => ids,
            "attention_mask" => mask,
            "token_type_ids" => types,
        ];
        let mut session = self
            .session
            .lock()
            .map_err(|_| EmbedError::Inference("the span head's session was poisoned".into()))?;
        let outputs = session
            .run(inputs)
            .map_err(|e| EmbedError::Inference(e.to_string()))?;
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
        let (start, end) = (logits("start_logits")?, logits("end_logits")?);
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
