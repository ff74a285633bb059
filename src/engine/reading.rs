//! The reader model, loaded once per engine when a question first needs it.

use super::Engine;
use crate::index::embed::ModelPaths;
use crate::index::reader::Reader;
use std::sync::Arc;

/// Threads of the reader's session: a question's candidates are one short batch.
const READER_THREADS: usize = 2;

impl Engine {
    /// The reader: None when its model (or the embedding model's runtime and
    /// tokenizer, which it shares) is not installed, an error when it would not load.
    pub fn reader(&self) -> Option<Result<Arc<Reader>, String>> {
        self.reader
            .get_or_init(|| {
                let paths = ModelPaths::locate(&self.data_dir).ok()?;
                let model = Reader::locate(&paths)?;
                Some(
                    Reader::load(&paths, &model, READER_THREADS)
                        .map(Arc::new)
                        .map_err(|e| {
                            format!("the reader did not load from {}: {e}", model.display())
                        }),
                )
            })
            .clone()
    }
}
