//! The engine owns Quoth's state and side effects: the sled store, the tantivy index,
//! and the pipelines that fill them. Front ends (the CLI, later the TUI) talk only to it.

mod access;
mod address_book;
mod answer_eval;
mod ask;
mod ask_tries;
mod attachment_view;
mod attachments;
pub mod compose;
pub mod copies;
mod dense;
mod draft_parts;
mod embedding;
mod evidence_pack;
pub mod expunge;
pub mod flags;
pub mod handle;
mod ingest;
mod ingest_batch;
mod keyword_sync;
mod llm;
mod memory;
pub mod message_files;
pub mod moves;
pub mod muting;
mod open;
mod prepare;
pub mod privacy;
mod reading;
mod reconcile;
mod remove;
mod retrieval_eval;
mod retrieve;
mod search;
mod server_changes;
mod sessions;
mod stats;
mod sync;
pub mod tagging;
mod threading;
mod watch;

pub use access::EngineAccess;
pub use address_book::{AddressEntry, MailboxContext};
pub use answer_eval::{parse_eval_items, EvalItem, EvalReport, ItemResult};
pub use ask::{AskEvent, AskOptions, AskOutcome, Citation, DroppedClaim, RetrievedMessage};
pub use attachment_view::{
    attachment_states, configured_viewer, viewer_argv, AttachmentPage, AttachmentState,
    AttachmentStates, AttachmentStats, DEFAULT_VIEWER,
};
pub use attachments::{AttachReport, ATTACH_JOB};
pub use embedding::{EmbedProgress, EmbedReport, EMBED_JOB};
pub use ingest::{IngestPhase, IngestProgress, IngestReport};
pub use llm::{LlmAnswerer, LlmConfig};
pub use open::{STORE_OPEN_THREAD, STORE_OPEN_TIMEOUT};
pub use prepare::format_date;
pub use reconcile::{ReconcileReport, StatusReport, WorkGaps};
pub use remove::RemoveReport;
pub use retrieval_eval::{parse_questions, quote_free_text, ModeScores, RetrievalQuestion};
pub use retrieve::{
    ChunkRef, FusionWeights, Retrieval, RetrieveHints, RetrieveOptions, RetrievedHit, SearchMode,
    StageScores,
};
pub use search::{SearchHit, SearchOrder};
pub use sessions::session_path;
pub use stats::Stats;
pub use sync::{sync_account, AccountReport, FolderReport, SyncOptions, SyncReport};
pub use watch::{watch_accounts, AccountOutcome, SyncEvent, WatchCommand, WatchOptions};

use crate::index::embed::{EmbedError, Embedder};
use crate::index::lexical::{LexicalError, LexicalIndex};
use crate::index::vector::{VectorError, VectorIndex};
use crate::mail::model::{MessageKey, ThreadId};
use crate::query::syntax::QueryError;
use crate::retrieve::gate::Gate;
use crate::source::SourceError;
use crate::store::jobs::{JobError, JobQueue};
use crate::store::{Store, StoreError, StoredMessage};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Lexical(#[from] LexicalError),
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error("invalid query: {0}")]
    Query(#[from] QueryError),
    #[error("no message matches '{0}'")]
    NoSuchMessage(String),
    #[error(transparent)]
    Jobs(JobError),
    #[error(transparent)]
    Vector(#[from] VectorError),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    #[error(transparent)]
    Imap(#[from] crate::source::imap::ImapError),
    #[error("starting the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("opening the attachment: {0}")]
    Viewer(String),
    #[error("changing the mail at its source: {0}")]
    MailSource(String),
    #[error("{0}")]
    Session(String),
    #[error("writing mail: {0}")]
    Compose(String),
    #[error(transparent)]
    BadTag(#[from] crate::store::tags::BadTag),
}

/// Settings of an engine that a user may change.
#[derive(Debug, Clone, Copy)]
pub struct EngineConfig {
    /// ONNX Runtime threads for embedding.
    pub embed_threads: usize,
    /// How hybrid retrieval weighs its lists.
    pub fusion: retrieve::FusionWeights,
}

impl Default for EngineConfig {
    fn default() -> Self {
        Self {
            embed_threads: std::env::var("QUOTH_EMBED_THREADS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2),
            fusion: retrieve::FusionWeights::default(),
        }
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;

pub struct Engine {
    data_dir: PathBuf,
    store: Store,
    /// The user's tags, kept apart from everything derived from the mail.
    tags: crate::store::tags::Tags,
    lexical: LexicalIndex,
    vectors: VectorIndex,
    jobs: JobQueue,
    embedder: OnceLock<Arc<Embedder>>,
    /// The reader, loaded on the first question; None when it is not installed.
    reader: OnceLock<Option<std::result::Result<Arc<crate::index::reader::Reader>, String>>>,
    /// The reader's span head, loaded with the first short answer.
    span_head:
        OnceLock<Option<std::result::Result<Arc<crate::index::span_head::SpanHead>, String>>>,
    gate: Gate,
    config: EngineConfig,
    cached_context: Mutex<Option<(u64, MailboxContext)>>,
    /// What opening the data directory repaired, for front ends to show.
    open_notes: Vec<String>,
}

impl Engine {
    /// Builds a new store from the mail sources recorded in the old one: the path
    /// out of a schema change. The old store is kept until the new one is complete.
    pub fn rebuild(
        data_dir: &Path,
        progress: &mut dyn FnMut(&IngestProgress),
    ) -> Result<IngestReport> {
        let store_dir = data_dir.join("store");
        let roots: Vec<PathBuf> = open::mail_roots(data_dir)?
            .into_iter()
            .map(PathBuf::from)
            .collect();
        let old = data_dir.join("store.old");
        let _ = std::fs::remove_dir_all(&old);
        if store_dir.exists() {
            std::fs::rename(&store_dir, &old).map_err(|e| StoreError::Sled(e.into()))?;
        }
        let _ = std::fs::remove_dir_all(data_dir.join("lexical"));
        // The vectors stay: they are keyed by their text, so the texts read again
        // find theirs, and only vectors of texts no longer stored are dropped.
        let mut engine = Self::open(data_dir)?;
        let report = engine.ingest(&roots, progress)?;
        engine.drop_unused_vectors()?;
        drop(engine);
        let _ = std::fs::remove_dir_all(&old);
        Ok(report)
    }

    /// Drops the vectors of texts the store no longer holds.
    fn drop_unused_vectors(&mut self) -> Result<usize> {
        let stored: std::collections::HashSet<u64> =
            self.store.distinct_embed_ids()?.into_iter().collect();
        let unused: Vec<u64> = self
            .vectors
            .ids()
            .filter(|id| !stored.contains(id))
            .collect();
        for id in &unused {
            self.vectors.remove(*id);
        }
        if !unused.is_empty() {
            self.vectors.compact()?;
        }
        Ok(unused.len())
    }

    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn vectors(&self) -> &VectorIndex {
        &self.vectors
    }

    pub fn set_config(&mut self, config: EngineConfig) {
        self.config = config;
    }

    /// Reads mail from Maildirs, mbox files and .eml files. Idempotent: mail already
    /// stored (by content) is not added again, unchanged files are not even read.
    pub fn ingest(
        &mut self,
        paths: &[PathBuf],
        progress: &mut dyn FnMut(&IngestProgress),
    ) -> Result<IngestReport> {
        ingest::run(self, paths, progress)
    }

    /// Adds (or, for `replace`, updates) the tantivy documents of these messages.
    fn index_messages(
        &mut self,
        keys: &[(MessageKey, bool)],
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<usize> {
        let mut indexed = 0;
        for (i, (key, replace)) in keys.iter().enumerate() {
            let Some(msg) = self.store.message(key)? else {
                continue;
            };
            let thread = self
                .store
                .thread_of(key)?
                .unwrap_or_else(|| ThreadId::of_root(key));
            let pages = self.store.attachment_search_text(&msg)?;
            self.lexical
                .upsert_with_attachments(&msg, thread, *replace, &pages)?;
            indexed += 1;
            if i % 4096 == 0 {
                progress(i, keys.len());
                memory::release_free_memory();
            }
        }
        self.lexical.commit()?;
        progress(keys.len(), keys.len());
        Ok(indexed)
    }

    /// Rebuilds the tantivy index from sled.
    pub fn reindex(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Result<usize> {
        self.lexical.clear()?;
        let keys: Vec<(MessageKey, bool)> = self
            .store
            .messages()
            .map(|m| m.map(|m| (m.key, false)))
            .collect::<std::result::Result<_, _>>()?;
        let indexed = self.index_messages(&keys, progress)?;
        self.store.set_documents_owed(false)?;
        Ok(indexed)
    }

    /// Finds a message by its key (hex, or a unique prefix of at least 8 digits) or
    /// by its Message-ID (with or without angle brackets).
    pub fn find_message(&self, id: &str) -> Result<StoredMessage> {
        let id = id.trim();
        let bare = id.trim_start_matches('<').trim_end_matches('>');
        if let Some(key) = self.store.keys_by_message_id(bare)?.first() {
            if let Some(m) = self.store.message(key)? {
                return Ok(m);
            }
        }
        if let Some(key) = MessageKey::from_hex(&bare.to_ascii_lowercase()) {
            if let Some(m) = self.store.message(&key)? {
                return Ok(m);
            }
        }
        if bare.len() >= 8 && bare.chars().all(|c| c.is_ascii_hexdigit()) {
            let prefix = bare.to_ascii_lowercase();
            for m in self.store.messages() {
                let m = m?;
                if m.key.to_hex().starts_with(&prefix) {
                    return Ok(m);
                }
            }
        }
        Err(EngineError::NoSuchMessage(id.to_string()))
    }

    pub fn thread_of(&self, key: &MessageKey) -> Result<Option<ThreadId>> {
        Ok(self.store.thread_of(key)?)
    }
}
