//! The input of the models that read a question and one candidate sentence together
//! (the reader and its span head): the pair `[CLS] question [SEP] text [SEP]`, where
//! the text is `{subject} | {sender} | {prev} >> {sentence} << {next}`, its
//! neighbours shortened until the pair fits in [`MAX_TOKENS`], exactly as the models
//! were trained (models/reader/README.md, "Input format").

use super::embed::{model_session, EmbedError, ModelPaths, Result};
use crate::answer::ReaderInput;
use ort::session::{Session, SessionOutputs};
use ort::value::Tensor;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tokenizers::{EncodeInput, Encoding, Tokenizer, TruncationParams, TruncationStrategy};

/// Tokens of one (question, candidate) pair, [CLS] and both [SEP] included.
pub const MAX_TOKENS: usize = 128;
/// Neighbouring sentences are cut to this many words (the last ones before the
/// sentence, the first ones after it) before the pair is fitted to [`MAX_TOKENS`].
pub const NEIGHBOUR_WORDS: usize = 30;

/// `{subject} | {sender} | {prev} >> {sentence} << {next}`.
pub fn candidate_text(input: &ReaderInput, prev: &[&str], next: &[&str]) -> String {
    fitted(input, prev, next).text
}

/// A candidate's text and where its sentence lies in it (bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fitted {
    pub text: String,
    pub sentence: Range<usize>,
}

fn fitted(input: &ReaderInput, prev: &[&str], next: &[&str]) -> Fitted {
    let head = format!(
        "{} | {} | {} >> ",
        input.subject,
        input.sender,
        prev.join(" ")
    );
    let sentence = head.len()..head.len() + input.sentence.len();
    let text = format!("{head}{} << {}", input.sentence, next.join(" "));
    Fitted { text, sentence }
}

/// A model that reads pairs: its ONNX session and the pairs' encoder.
pub struct PairModel {
    session: PairSession,
    pub pairs: PairEncoder,
}

impl PairModel {
    /// A model file beside the embedding model's files (the runtime and tokenizer it
    /// shares), else in the source tree's models folder, where it ships.
    pub fn locate(paths: &ModelPaths, file: &str) -> Option<PathBuf> {
        let beside = paths.tokenizer.parent().map(|d| d.join(file));
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(file);
        beside.into_iter().chain([shipped]).find(|p| p.is_file())
    }

    pub fn load(paths: &ModelPaths, model: &Path, threads: usize) -> Result<Self> {
        Ok(Self {
            session: PairSession::load(paths, model, threads)?,
            pairs: PairEncoder::load(paths)?,
        })
    }

    /// Runs the model on a batch of pairs, as [`PairSession::run`].
    pub fn run<T>(
        &self,
        batch: &[Encoding],
        read: impl FnOnce(&SessionOutputs<'_>, usize) -> Result<T>,
    ) -> Result<T> {
        self.session.run(batch, read)
    }
}

/// One pair model's ONNX session, for pairs encoded by a [`PairEncoder`].
pub struct PairSession(Mutex<Session>);

impl PairSession {
    pub fn load(paths: &ModelPaths, model: &Path, threads: usize) -> Result<Self> {
        Ok(Self(Mutex::new(model_session(
            &paths.runtime,
            model,
            threads,
        )?)))
    }

    /// Runs the model on a batch of pairs and hands its outputs and the padded
    /// length to `read`.
    pub fn run<T>(
        &self,
        batch: &[Encoding],
        read: impl FnOnce(&SessionOutputs<'_>, usize) -> Result<T>,
    ) -> Result<T> {
        let (len, [ids, mask, types]) = tensors(batch)?;
        let inputs = ort::inputs![
            "input_ids" => ids,
            "attention_mask" => mask,
            "token_type_ids" => types,
        ];
        let mut session = self
            .0
            .lock()
            .map_err(|_| EmbedError::Inference("a model session was poisoned".into()))?;
        let outputs = session
            .run(inputs)
            .map_err(|e| EmbedError::Inference(e.to_string()))?;
        read(&outputs, len)
    }
}

/// Tokenises pairs as the models read them.
pub struct PairEncoder {
    /// Truncates a pair to [`MAX_TOKENS`], the longer side first.
    tokenizer: Tokenizer,
    /// The same without truncation, to measure a pair.
    counter: Tokenizer,
}

impl PairEncoder {
    pub fn load(paths: &ModelPaths) -> Result<Self> {
        let mut tokenizer = Tokenizer::from_file(&paths.tokenizer)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        tokenizer.with_padding(None);
        let mut counter = tokenizer.clone();
        counter
            .with_truncation(None)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_TOKENS,
                strategy: TruncationStrategy::LongestFirst,
                ..Default::default()
            }))
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(Self { tokenizer, counter })
    }

    /// The pair, truncated to [`MAX_TOKENS`]; offsets are bytes of each side's text.
    pub fn encode(&self, question: &str, text: &str) -> Result<Encoding> {
        self.tokenizer
            .encode(
                EncodeInput::Dual(question.to_string().into(), text.to_string().into()),
                true,
            )
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))
    }

    /// The candidate text, its neighbours shortened word by word from their far ends
    /// (the longer one first) until the pair fits in [`MAX_TOKENS`].
    pub fn fit(&self, question: &str, input: &ReaderInput) -> Result<Fitted> {
        let prev_all: Vec<&str> = input.prev.split_whitespace().collect();
        let next_all: Vec<&str> = input.next.split_whitespace().collect();
        let mut prev = &prev_all[prev_all.len().saturating_sub(NEIGHBOUR_WORDS)..];
        let mut next = &next_all[..next_all.len().min(NEIGHBOUR_WORDS)];
        loop {
            let fit = fitted(input, prev, next);
            let n = self.untruncated(question, &fit.text)?;
            if n <= MAX_TOKENS || (prev.is_empty() && next.is_empty()) {
                return Ok(fit);
            }
            for _ in 0..((n - MAX_TOKENS) / 2).max(1) {
                if !prev.is_empty() && prev.len() >= next.len() {
                    prev = &prev[1..];
                } else if !next.is_empty() {
                    next = &next[..next.len() - 1];
                }
            }
        }
    }

    /// Tokens of the pair before any truncation.
    fn untruncated(&self, question: &str, text: &str) -> Result<usize> {
        let enc = self
            .counter
            .encode(
                EncodeInput::Dual(question.to_string().into(), text.to_string().into()),
                true,
            )
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(enc.get_ids().len())
    }
}

/// The model inputs of a batch of pairs (`input_ids`, `attention_mask`,
/// `token_type_ids`, each `[rows, longest]`, zero-padded) and the padded length.
fn tensors(batch: &[Encoding]) -> Result<(usize, [Tensor<i64>; 3])> {
    let len = batch
        .iter()
        .map(|e| e.get_ids().len())
        .max()
        .unwrap_or(0)
        .max(1);
    let rows = batch.len();
    let mut ids = vec![0i64; rows * len];
    let mut mask = vec![0i64; rows * len];
    let mut types = vec![0i64; rows * len];
    for (r, e) in batch.iter().enumerate() {
        for (j, ((&id, &ty), &m)) in e
            .get_ids()
            .iter()
            .zip(e.get_type_ids())
            .zip(e.get_attention_mask())
            .enumerate()
        {
            ids[r * len + j] = i64::from(id);
            types[r * len + j] = i64::from(ty);
            mask[r * len + j] = i64::from(m);
        }
    }
    let shape = [rows as i64, len as i64];
    let tensor = |data: Vec<i64>| {
        Tensor::from_array((shape, data)).map_err(|e| EmbedError::Inference(e.to_string()))
    };
    Ok((len, [tensor(ids)?, tensor(mask)?, tensor(types)?]))
}
