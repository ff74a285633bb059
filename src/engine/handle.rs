//! A handle to an [`Engine`] running on a background tokio runtime: typed requests in,
//! typed events out over a bounded channel. Front ends never call the engine inline,
//! so a slow question or a long ingest cannot freeze them.
//!
//! Reads (search, ask) share the engine behind a read lock and run on the blocking
//! pool; ingest takes the write lock. Embedding runs the model with no lock held and
//! takes the write lock only to store a batch's vectors, so searching and asking
//! never wait for a batch while a mailbox is being embedded. Thread lists and messages are read from a clone of the store, which
//! needs no lock at all, so the thread list appears even while an ingest holds the
//! engine.
//!
//! With IMAP accounts, the handle also runs the watch loop (one IDLE task per account,
//! see [`crate::engine::watch_accounts`]) on its runtime. A sync waits on the network
//! without the engine and takes the write lock only to store a fetched batch, after
//! waiting reads; new mail is reported as [`EngineEvent::NewMail`] and embedded in the
//! background like any ingest.

use super::{Engine, WatchCommand, WatchOptions};
use crate::answer::Answerer;
use crate::source::imap::AccountConfig;
use crate::store::Store;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use tokio::sync::mpsc;

mod calls;
mod drafts;
mod front_ends;
mod imap;
mod mail;
mod mail_state;
mod protocol;
mod requester;
mod serve;
mod waiting;
mod work;

pub use calls::{
    ChunkView, MessageView, QuarantineEntry, Question, ReindexReport, SegmentView, ThreadRow,
};
use front_ends::FrontEnds;
pub use front_ends::{FrontEndId, NO_REQUEST};
pub use imap::WatchLease;
use requester::send_request;
pub use requester::{AttachedFrontEnd, Requester};

pub use protocol::{EngineEvent, EngineRequest, Progress, RequestId};
use serve::serve;
pub use work::sort_threads;

/// Search results a front end asks for at first, and then page by page; a list
/// this long says that more may match.
pub const SEARCH_LIMIT: usize = 200;
/// The most search results one request gets.
pub const SEARCH_LIMIT_MAX: usize = 20_000;

/// Thread summaries sent per [`EngineEvent::ThreadList`] batch: the first batch is on
/// screen before a large mailbox's whole list has been read.
pub const THREAD_BATCH: usize = 2000;

/// Capacity of the event channel. Results wait for room (backpressure); progress
/// reports are dropped when it is full, as a newer one follows.
const EVENT_CAPACITY: usize = 256;

/// Least time between two progress events of one kind.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Shared between the dispatcher's tasks.
struct Shared {
    engine: RwLock<Engine>,
    store: Store,
    data_dir: PathBuf,
    answerer: Box<dyn Answerer + Send + Sync>,
    /// Where events go: the front end that started the handle, and any attached.
    front_ends: FrontEnds,
    /// Reads waiting for the engine: sync steps wait while there are any.
    readers_waiting: waiting::Waiting,
    /// Sync steps waiting for the engine: embedding yields its lock to them.
    writers_waiting: waiting::Waiting,
    /// Ingest, sync or embedding in progress.
    background_busy: AtomicBool,
    /// Requests for background work sent and not yet queued: the work is under way
    /// from the moment it is asked for.
    work_asked: AtomicUsize,
    /// Background work asked for while other work ran: it runs next, once.
    queued_work: Mutex<Option<work::Work>>,
    /// New mail was stored while background work ran: it embeds that too before it
    /// ends.
    embed_again: AtomicBool,
    /// The front ends have been told that the embedding model is not installed.
    model_missing_told: AtomicBool,
    /// The IMAP watch loop, when accounts are configured; dropped (ending the loop)
    /// when the front end drops its handle.
    imap: Mutex<Option<mpsc::UnboundedSender<WatchCommand>>>,
    /// Who hears the watch loop's reports as they are ([`imap::WatchLease`]), and
    /// how many leases keep a loop that leases started.
    watchers: Mutex<imap::Watchers>,
    compose: super::mailbox::compose::ComposeSettings,
    /// The IMAP accounts, for reading a message from its server.
    accounts: Vec<AccountConfig>,
}

/// What the handle runs besides answering requests.
#[derive(Debug, Clone, Default)]
pub struct HandleOptions {
    /// IMAP accounts to sync at start and watch with IDLE while the handle lives.
    pub accounts: Vec<AccountConfig>,
    pub watch: WatchOptions,
    /// How mail the user writes is addressed, sent and kept.
    pub compose: crate::config::ComposeConfig,
}

/// Where a front end's requests go: a handle of its own, or the engine of another
/// process reached over its socket.
pub trait SendRequest: Send {
    /// Queues a request; false when the engine has stopped.
    fn send(&self, request: EngineRequest) -> bool;
}

impl SendRequest for EngineHandle {
    fn send(&self, request: EngineRequest) -> bool {
        EngineHandle::send(self, request)
    }
}

impl SendRequest for AttachedFrontEnd {
    fn send(&self, request: EngineRequest) -> bool {
        AttachedFrontEnd::send(self, request)
    }
}

/// The front end's side: send requests, receive events.
pub struct EngineHandle {
    requests: mpsc::UnboundedSender<EngineRequest>,
    shared: Arc<Shared>,
}

impl EngineHandle {
    /// Starts the dispatcher on `runtime`; returns the handle and the event stream.
    pub fn start(
        engine: Engine,
        answerer: Box<dyn Answerer + Send + Sync>,
        runtime: &tokio::runtime::Handle,
    ) -> (EngineHandle, mpsc::Receiver<EngineEvent>) {
        Self::start_with(engine, answerer, runtime, HandleOptions::default())
    }

    /// Starts the dispatcher and, with accounts, the IMAP watch loop on `runtime` (a
    /// multi-thread runtime: sync steps block their worker while they store mail).
    pub fn start_with(
        engine: Engine,
        answerer: Box<dyn Answerer + Send + Sync>,
        runtime: &tokio::runtime::Handle,
        options: HandleOptions,
    ) -> (EngineHandle, mpsc::Receiver<EngineEvent>) {
        let (req_tx, mut req_rx) = mpsc::unbounded_channel::<EngineRequest>();
        let (ev_tx, ev_rx) = mpsc::channel(EVENT_CAPACITY);
        let shared = Arc::new(Shared {
            store: engine.store().clone(),
            data_dir: engine.data_dir().to_path_buf(),
            engine: RwLock::new(engine),
            answerer,
            front_ends: FrontEnds::new(ev_tx),
            readers_waiting: waiting::Waiting::default(),
            writers_waiting: waiting::Waiting::default(),
            background_busy: AtomicBool::new(false),
            work_asked: AtomicUsize::new(0),
            queued_work: Mutex::new(None),
            embed_again: AtomicBool::new(false),
            model_missing_told: AtomicBool::new(false),
            imap: Mutex::new(None),
            watchers: Mutex::new(imap::Watchers::default()),
            compose: super::mailbox::compose::ComposeSettings::new(
                options.compose,
                &options.accounts,
            ),
            accounts: options.accounts.clone(),
        });
        if !options.accounts.is_empty() {
            imap::start(&shared, runtime, options.accounts, options.watch);
        }
        let rt = runtime.clone();
        let kept = shared.clone();
        runtime.spawn(async move {
            while let Some(request) = req_rx.recv().await {
                if let EngineRequest::Search { req, .. } = &request {
                    shared.front_ends.note_search(*req);
                }
                let shared = shared.clone();
                rt.spawn_blocking(move || serve(&shared, request));
            }
            // The front end is gone: so is the reason to watch its mail.
            shared.imap_commands_close();
        });
        (
            EngineHandle {
                requests: req_tx,
                shared: kept,
            },
            ev_rx,
        )
    }

    /// A sender of requests, for another front end to start background work that
    /// this handle's front end then sees (progress, new threads).
    pub fn requester(&self) -> Requester {
        Requester {
            requests: self.requests.clone(),
            shared: self.shared.clone(),
        }
    }

    /// Queues a request; false when the engine has stopped.
    pub fn send(&self, request: EngineRequest) -> bool {
        send_request(&self.requests, &self.shared, request)
    }

    /// Another front end of this engine, with its own stream of events.
    pub fn attach(&self) -> (AttachedFrontEnd, mpsc::Receiver<EngineEvent>) {
        self.requester().attach()
    }
}

impl Shared {
    fn emit(&self, event: EngineEvent) {
        self.front_ends.emit(event);
    }

    fn progress(&self, p: Progress) {
        self.front_ends.progress(p);
    }

    fn error(&self, req: Option<RequestId>, e: impl std::fmt::Display) {
        self.emit(EngineEvent::Error {
            req,
            message: e.to_string(),
        });
    }

    /// Runs `f` under the read lock (embedding holds the write lock only to store a
    /// batch's vectors; sync steps wait while reads are waiting).
    fn read<T>(&self, f: impl FnOnce(&Engine) -> T) -> T {
        let waits = self.readers_waiting.enter();
        let guard = self.engine.read().unwrap_or_else(|p| p.into_inner());
        drop(waits);
        f(&guard)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Engine> {
        // A panic in another request leaves the engine as it was between two calls:
        // sled and tantivy keep their own consistency, so going on is safe.
        self.engine.write().unwrap_or_else(|p| p.into_inner())
    }

    /// The write lock for one step of a sync: waiting reads go first (a sync step can
    /// wait a moment, a key press should not), and a running embedding steps aside.
    fn write_after_reads(&self) -> std::sync::RwLockWriteGuard<'_, Engine> {
        self.readers_waiting.until_none();
        let waits = self.writers_waiting.enter();
        let guard = self.write();
        drop(waits);
        guard
    }

    /// Where to ask the IMAP watch loop for a sync, when it runs.
    fn imap_commands(&self) -> Option<mpsc::UnboundedSender<WatchCommand>> {
        self.imap.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Asks the watch loop to send an account's changes to its server now; without
    /// a loop (no accounts in this front end) they wait for the next sync.
    fn push_to_server(&self, account: &str) {
        if let Some(commands) = self.imap_commands() {
            let _ = commands.send(WatchCommand::Push {
                account: account.to_string(),
            });
        }
    }

    fn imap_commands_close(&self) {
        self.imap.lock().unwrap_or_else(|p| p.into_inner()).take();
    }
}
