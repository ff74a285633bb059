//! The engine owns Quoth's state and side effects: the sled store, the indexes and the
//! pipelines that fill them, as five services, each in its folder with the state it
//! owns: `mailbox`, `retrieval`, `ask`, `sync` and `jobs`. Front ends reach it only
//! through its handle (`handle`), which the server's protocol carries to other
//! processes.

mod ask;
mod graph;
pub mod handle;
mod jobs;
pub mod mailbox;
mod open;
mod retrieval;
mod sync;

// Each service's modules by their short paths (`engine::mailbox::moves`).
pub use mailbox::{
    compose, copies, expunge, flags, message_files, moves, muting, privacy, tagging,
};

pub use ask::answer_eval::{parse_eval_items, EvalItem, EvalReport, ItemResult};
pub use ask::llm::{LlmAnswerer, LlmConfig};
pub use ask::sessions::session_path;
pub use ask::{
    Abstention, AskEvent, AskOptions, AskOutcome, Citation, ClosestMail, DroppedClaim,
    RetrievedMessage, ABSTAIN, NOT_SAID,
};
pub use graph::{
    FactsView, OrganisationPeople, PeopleView, PersonSummary, ThreadEntity, ThreadGraph,
};
pub use jobs::attachments::{AttachReport, ATTACH_JOB};
pub use jobs::embedding::{EmbedProgress, EmbedReport, EMBED_JOB};
pub use jobs::graph::{GraphReport, GRAPH_JOB};
pub use jobs::ingest::{IngestPhase, IngestProgress, IngestReport};
pub use jobs::prepare::format_date;
pub use jobs::reconcile::{ReconcileReport, StatusReport, WorkGaps};
pub use mailbox::address_book::{AddressEntry, MailboxContext};
pub use mailbox::attachment_view::{
    attachment_states, configured_viewer, viewer_argv, AttachmentPage, AttachmentState,
    AttachmentStates, AttachmentStats, DEFAULT_VIEWER,
};
pub use mailbox::remove::RemoveReport;
pub use mailbox::stats::Stats;
pub use open::{STORE_OPEN_THREAD, STORE_OPEN_TIMEOUT};
pub use retrieval::retrieval_eval::{
    parse_questions, quote_free_text, ModeScores, RetrievalQuestion,
};
pub use retrieval::retrieve::{
    ChunkRef, FusionWeights, Retrieval, RetrieveHints, RetrieveOptions, RetrievedHit, SearchMode,
    StageScores,
};
pub use retrieval::search::{SearchHit, SearchOrder};
pub use sync::access::EngineAccess;
pub use sync::watch::{watch_accounts, AccountOutcome, SyncEvent, WatchCommand, WatchOptions};
pub use sync::{sync_account, AccountReport, FolderReport, SyncOptions, SyncReport};

use crate::index::embed::EmbedError;
use crate::index::lexical::LexicalError;
use crate::index::vector::{VectorError, VectorIndex};
use crate::mail::model::{MessageKey, ThreadId};
use crate::query::syntax::QueryError;
use crate::source::SourceError;
use crate::store::jobs::{JobError, JobQueue};
use crate::store::{Store, StoreError, StoredMessage};
use std::path::{Path, PathBuf};

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
    pub fusion: retrieval::retrieve::FusionWeights,
}

impl Default for EngineConfig {
    fn default() -> Self {
        Self {
            embed_threads: std::env::var("QUOTH_EMBED_THREADS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(2),
            fusion: retrieval::retrieve::FusionWeights::default(),
        }
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;

pub struct Engine {
    data_dir: PathBuf,
    /// The mail, the source of truth every service reads.
    store: Store,
    mailbox: mailbox::UserState,
    retrieval: retrieval::Indexes,
    models: ask::Models,
    /// The durable background jobs (attachments, embedding).
    jobs: JobQueue,
    config: EngineConfig,
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
            .retrieval
            .vectors
            .ids()
            .filter(|id| !stored.contains(id))
            .collect();
        for id in &unused {
            self.retrieval.vectors.remove(*id);
        }
        if !unused.is_empty() {
            self.retrieval.vectors.compact()?;
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
        &self.retrieval.vectors
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
        jobs::ingest::run(self, paths, progress)
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
            self.retrieval
                .lexical
                .upsert_with_attachments(&msg, thread, *replace, &pages)?;
            indexed += 1;
            if i % 4096 == 0 {
                progress(i, keys.len());
                ask::memory::release_free_memory();
            }
        }
        self.retrieval.lexical.commit()?;
        progress(keys.len(), keys.len());
        Ok(indexed)
    }

    /// Rebuilds the tantivy index and the graph from sled.
    pub fn reindex(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Result<usize> {
        self.retrieval.lexical.clear()?;
        let keys: Vec<(MessageKey, bool)> = self
            .store
            .messages()
            .map(|m| m.map(|m| (m.key, false)))
            .collect::<std::result::Result<_, _>>()?;
        let indexed = self.index_messages(&keys, progress)?;
        self.store.set_documents_owed(false)?;
        self.rebuild_graph()?;
        let stop = std::sync::atomic::AtomicBool::new(false);
        self.extract_graph(&stop, &mut |_| {})?;
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
