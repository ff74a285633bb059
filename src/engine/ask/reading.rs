//! The models that read a question with a candidate sentence (the reader and its span
//! head), each loaded once per engine when a question first needs it.

use crate::answer::{ReaderInput, SpanLogits};
use crate::engine::Engine;
use crate::index::embed::ModelPaths;
use crate::index::reader::Reader;
use crate::index::span_head::SpanHead;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Threads of the reader's session: a question's candidates are one short batch.
const READER_THREADS: usize = 2;

impl Engine {
    /// The reader: None when its model (or the embedding model's runtime and
    /// tokenizer, which it shares) is not installed, an error when it would not load.
    pub fn reader(&self) -> Option<Result<Arc<Reader>, String>> {
        load_once(&self.models.reader, &self.data_dir, "the reader", |paths| {
            let model = Reader::locate(paths)?;
            Some((Reader::load(paths, &model, READER_THREADS), model))
        })
    }

    /// The span head, as [`Engine::reader`].
    pub fn span_head(&self) -> Option<Result<Arc<SpanHead>, String>> {
        load_once(
            &self.models.span_head,
            &self.data_dir,
            "the span head",
            |paths| {
                let model = SpanHead::locate(paths)?;
                Some((SpanHead::load(paths, &model, READER_THREADS), model))
            },
        )
    }

    /// The reader's logits for a question's candidates; None without the reader.
    pub(crate) fn read_pairs(&self, question: &str, inputs: &[ReaderInput]) -> Option<Vec<f32>> {
        self.reader()?.ok()?.score(question, inputs).ok()
    }

    /// The span head's reading of one sentence; None without the span head.
    pub(crate) fn read_span(&self, question: &str, input: &ReaderInput) -> Option<SpanLogits> {
        self.span_head()?.ok()?.read(question, input).ok()
    }

    /// What the user is told when a model is installed but would not load.
    pub(crate) fn reading_notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(Some(Err(e))) = self.models.reader.get() {
            notes.push(format!("{e}; the selector judged alone"));
        }
        if let Some(Some(Err(e))) = self.models.span_head.get() {
            notes.push(format!(
                "{e}; the short answer is the first value of its kind"
            ));
        }
        notes
    }
}

/// Loads a model into `cell` the first time it is asked for: `load` locates it
/// (None when it is not installed) and loads it; a failure is kept as a sentence
/// naming `what` and the file.
fn load_once<T, E: std::fmt::Display>(
    cell: &super::Loaded<T>,
    data_dir: &Path,
    what: &str,
    load: impl FnOnce(&ModelPaths) -> Option<(Result<T, E>, PathBuf)>,
) -> Option<Result<Arc<T>, String>> {
    cell.get_or_init(|| {
        let paths = ModelPaths::locate(data_dir).ok()?;
        let (loaded, model) = load(&paths)?;
        Some(
            loaded
                .map(Arc::new)
                .map_err(|e| format!("{what} did not load from {}: {e}", model.display())),
        )
    })
    .clone()
}
