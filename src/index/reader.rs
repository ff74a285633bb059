//! The reader: a cross-encoder that reads a question and one candidate sentence
//! together (with its neighbours and its message's subject and sender) and gives one
//! logit, above 0 when the sentence answers the question better than nothing does.
//! It runs on ONNX Runtime like the embedding model, from a model trained offline
//! (models/reader/README.md, where the input format is fixed).

use super::embed::{model_session, EmbedError, ModelPaths, Result};
use crate::answer::ReaderInput;
use ort::session::Session;
use ort::value::Tensor;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tokenizers::{EncodeInput, Encoding, Tokenizer, TruncationParams, TruncationStrategy};

/// The model file, under a models folder.
pub const READER_FILE: &str = "reader/reader-int8.onnx";
/// Tokens of one (question, candidate) pair, [CLS] and both [SEP] included.
pub const MAX_TOKENS: usize = 128;
/// Neighbouring sentences are cut to this many words (the last ones before the
/// sentence, the first ones after it) before the pair is fitted to [`MAX_TOKENS`].
pub const NEIGHBOUR_WORDS: usize = 30;
/// Pairs per run: one. The int8 model quantises its activations over the whole
/// batch, so a pair run beside others (and their padding) scores differently (by
/// more than half a logit); alone, a pair always scores the same.
const BATCH: usize = 1;

pub struct Reader {
    session: Mutex<Session>,
    /// Truncates a pair to [`MAX_TOKENS`], the longer side first.
    tokenizer: Tokenizer,
    /// The same without truncation, to measure a pair.
    counter: Tokenizer,
}

/// `{subject} | {sender} | {prev} >> {sentence} << {next}`.
pub fn candidate_text(input: &ReaderInput, prev: &[&str], next: &[&str]) -> String {
    format!(
        "{} | {} | {} >> {} << {}",
        input.subject,
        input.sender,
        prev.join(" "),
        input.sentence,
        next.join(" ")
    )
}

impl Reader {
    /// Finds the reader beside the embedding model's files (it shares their runtime
    /// and tokenizer), else in the source tree's models folder, where it ships; None
    /// when it is in neither.
    pub fn locate(paths: &ModelPaths) -> Option<PathBuf> {
        let beside = paths.tokenizer.parent().map(|d| d.join(READER_FILE));
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("models")
            .join(READER_FILE);
        beside.into_iter().chain([shipped]).find(|p| p.is_file())
    }

    pub fn load(paths: &ModelPaths, model: &Path, threads: usize) -> Result<Self> {
        let session = model_session(&paths.runtime, model, threads)?;
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
        Ok(Self {
            session: Mutex::new(session),
            tokenizer,
            counter,
        })
    }

    fn encode(&self, question: &str, text: &str) -> Result<Encoding> {
        self.tokenizer
            .encode(
                EncodeInput::Dual(question.to_string().into(), text.to_string().into()),
                true,
            )
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))
    }

    /// The candidate text, its neighbours shortened word by word from their far ends
    /// (the longer one first) until the pair fits in [`MAX_TOKENS`].
    pub fn fit(&self, question: &str, input: &ReaderInput) -> Result<String> {
        let prev_all: Vec<&str> = input.prev.split_whitespace().collect();
        let next_all: Vec<&str> = input.next.split_whitespace().collect();
        let mut prev = &prev_all[prev_all.len().saturating_sub(NEIGHBOUR_WORDS)..];
        let mut next = &next_all[..next_all.len().min(NEIGHBOUR_WORDS)];
        loop {
            let text = candidate_text(input, prev, next);
            let n = self.untruncated(question, &text)?;
            if n <= MAX_TOKENS || (prev.is_empty() && next.is_empty()) {
                return Ok(text);
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

    /// The reader's logit for each candidate, in order.
    pub fn score(&self, question: &str, inputs: &[ReaderInput]) -> Result<Vec<f32>> {
        let mut encodings = Vec::with_capacity(inputs.len());
        for input in inputs {
            let text = self.fit(question, input)?;
            encodings.push(self.encode(question, &text)?);
        }
        let mut out = Vec::with_capacity(inputs.len());
        for batch in encodings.chunks(BATCH) {
            out.extend(self.run(batch)?);
        }
        Ok(out)
    }

    fn run(&self, batch: &[Encoding]) -> Result<Vec<f32>> {
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
        let inputs = ort::inputs![
            "input_ids" => tensor(ids)?,
            "attention_mask" => tensor(mask)?,
            "token_type_ids" => tensor(types)?,
        ];
        let mut session = self
            .session
            .lock()
            .map_err(|_| EmbedError::Inference("the reader session was poisoned".into()))?;
        let outputs = session
            .run(inputs)
            .map_err(|e| EmbedError::Inference(e.to_string()))?;
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
    }
}
