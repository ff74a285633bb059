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

use super::{
    attachment_states, AskEvent, AskOptions, AskOutcome, AttachmentState, AttachmentStates, Engine,
    SearchHit, WatchCommand, WatchOptions,
};
use crate::answer::conversation::Conversation;
use crate::answer::Answerer;
use crate::mail::model::{MessageKey, ThreadId};
use crate::source::imap::AccountConfig;
use crate::store::{Store, StoredMessage, ThreadSummary};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use tokio::sync::mpsc;
use work::{background_asked, save_attachment, send_threads, thread_messages, Work};

mod calls;
mod drafts;
mod front_ends;
mod imap;
mod mail;
mod mail_state;
mod requester;
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

pub use work::sort_threads;

/// Identifies a request; results carry it so a front end can drop stale ones.
pub type RequestId = u64;

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

/// What a front end asks of the engine. Requests and events travel as JSON over
/// the socket to an attached front end (`attach` in [`crate::serve::protocol`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineRequest {
    /// The attachment page a citation points at, with the quote located in it.
    Page {
        req: RequestId,
        citation: Box<super::Citation>,
    },
    /// The thread list, newest first, in batches.
    Threads,
    /// The messages of one thread, oldest first, one copy of each email: `show`
    /// where it is one of the copies.
    Thread {
        req: RequestId,
        id: ThreadId,
        show: Option<MessageKey>,
    },
    /// A search in the query language: its first `limit` hits (a front end pages by
    /// asking again with a larger limit).
    Search {
        req: RequestId,
        query: String,
        limit: usize,
        /// Best match first unless a date order is asked for (a saved view's sort).
        #[serde(default)]
        order: crate::engine::SearchOrder,
    },
    /// How many messages each query matches (the counts beside saved views).
    Count {
        req: RequestId,
        queries: Vec<String>,
    },
    /// Add and remove tags on a thread or a message.
    Tag {
        req: RequestId,
        target: crate::engine::mailbox::tagging::TagTarget,
        add: Vec<String>,
        remove: Vec<String>,
    },
    /// Every tag in use, with how many messages carry it (to complete a tag name).
    Tags { req: RequestId },
    /// A question in a conversation, optionally scoped to a thread (hex id).
    Ask {
        req: RequestId,
        question: String,
        conversation: Conversation,
        thread: Option<String>,
    },
    /// One message by key.
    Open { req: RequestId, key: MessageKey },
    /// Write an attachment (a cited PDF) to a file, for an external viewer.
    SaveAttachment {
        req: RequestId,
        key: MessageKey,
        name: String,
        page: Option<u32>,
    },
    /// The raw message, headers and all, as its source holds it.
    Raw { req: RequestId, key: MessageKey },
    /// A thread's people, organisations and facts (hex thread id).
    ThreadGraph { req: RequestId, thread: String },
    /// Write attachment `index` of a message to `path` (a file or a directory).
    SaveAttachmentAs {
        req: RequestId,
        key: MessageKey,
        index: u32,
        path: PathBuf,
    },
    /// Set or clear a flag letter on an email (every copy of it), at its source.
    SetFlag {
        req: RequestId,
        key: MessageKey,
        flag: char,
        on: bool,
    },
    /// Move a message to another folder of its Maildir (archive, trash...).
    Move {
        req: RequestId,
        key: MessageKey,
        target: super::mailbox::moves::MoveTarget,
    },
    /// Show a message in the front end (another program asked: `quoth open`).
    Reveal { key: MessageKey },
    /// Empty the trash folders for good (`confirm`), or only say what they hold.
    Expunge { req: RequestId, confirm: bool },
    /// Write a draft for the user's editor: a reply, reply to all or forward of
    /// `of`, or a new message.
    StartDraft {
        req: RequestId,
        kind: crate::mail::compose::DraftKind,
        of: Option<MessageKey>,
    },
    /// Send the draft file `path` (made by `StartDraft`) through the sendmail
    /// command and keep it in Sent; the original is marked replied or passed on.
    SendDraft {
        req: RequestId,
        path: PathBuf,
        original: Option<(MessageKey, crate::mail::compose::DraftKind)>,
    },
    /// Keep the draft file `path` in the Drafts folder.
    PostponeDraft {
        req: RequestId,
        path: PathBuf,
        original: Option<MessageKey>,
    },
    /// Remove the draft file `path`.
    DiscardDraft { req: RequestId, path: PathBuf },
    /// Ingest mail, then (with `embed`) run the embedding jobs.
    Ingest { paths: Vec<PathBuf>, embed: bool },
    /// Ingest the mail sources the store already knows again and sync every IMAP
    /// account (new mail).
    Sync,
    /// Run the pending embedding jobs.
    Embed,
}

/// Background work, for a gauge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Progress {
    Ingest {
        phase: super::IngestPhase,
        done: usize,
        total: usize,
    },
    Embed {
        done: u64,
        total: u64,
    },
    /// Nothing runs in the background any more; `summary` says what was done.
    Idle {
        summary: String,
    },
}

/// What the engine reports back.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineEvent {
    Page {
        req: RequestId,
        page: Option<Box<super::AttachmentPage>>,
    },
    /// A batch of thread summaries; `first` starts a new list, `complete` ends it.
    ThreadList {
        threads: Vec<ThreadSummary>,
        first: bool,
        complete: bool,
    },
    ThreadMessages {
        req: RequestId,
        id: ThreadId,
        messages: Vec<StoredMessage>,
        /// How far each attachment's text has been read, by message.
        #[serde(with = "by_key")]
        attachments: AttachmentStates,
        /// The folders of each message's other copies.
        #[serde(with = "by_key")]
        also_in: super::mailbox::copies::AlsoIn,
    },
    SearchResults {
        req: RequestId,
        query: String,
        hits: Vec<SearchHit>,
    },
    /// Tags changed on a thread or a message (every front end hears `ThreadTags`).
    Tagged {
        req: RequestId,
        report: crate::engine::mailbox::tagging::TagReport,
    },
    /// The tags on threads' mail: after the thread list (`every`: these are all the
    /// tagged threads), and for a thread whose tags changed.
    ThreadTags {
        tags: Vec<(ThreadId, Vec<String>)>,
        every: bool,
    },
    /// The answer to `Tags`: every tag in use and how many messages carry it.
    TagList {
        req: RequestId,
        tags: Vec<(String, usize)>,
    },
    /// The answer to `Count`: per query, in order, its count or why it cannot be read.
    Counts {
        req: RequestId,
        counts: Vec<Result<u64, String>>,
    },
    /// A message moved to another folder.
    Moved {
        req: RequestId,
        outcome: Box<super::mailbox::moves::MoveOutcome>,
    },
    /// Another program asked the front end to show this message of this thread.
    Reveal {
        key: MessageKey,
        thread: ThreadId,
        subject: String,
    },
    /// The trash was emptied, or (not `done`) what it holds.
    Expunged {
        req: RequestId,
        report: super::mailbox::expunge::ExpungeReport,
    },
    /// A flag was set or cleared: each copy's flags now, and its thread's summary.
    Flagged {
        req: RequestId,
        outcome: Box<super::mailbox::flags::FlagOutcome>,
    },
    /// A draft file is ready for the editor.
    DraftReady {
        req: RequestId,
        draft: Box<super::mailbox::compose::DraftStarted>,
    },
    /// A draft was sent.
    DraftSent {
        req: RequestId,
        sent: Box<super::mailbox::compose::SentMail>,
    },
    /// A draft was kept in Drafts.
    DraftPostponed {
        req: RequestId,
        postponed: Box<super::mailbox::compose::PostponedDraft>,
    },
    DraftDiscarded {
        req: RequestId,
    },
    /// The standalone rewrite of a follow-up question.
    AnswerRewrite {
        req: RequestId,
        text: String,
    },
    /// Answer text as it is written.
    AnswerDelta {
        req: RequestId,
        text: String,
    },
    Answer {
        req: RequestId,
        outcome: Box<AskOutcome>,
        conversation: Conversation,
    },
    Message {
        req: RequestId,
        message: Box<StoredMessage>,
        attachments: Vec<AttachmentState>,
    },
    AttachmentSaved {
        req: RequestId,
        path: PathBuf,
        page: Option<u32>,
    },
    /// The raw bytes of a message.
    Raw {
        req: RequestId,
        key: MessageKey,
        raw: Vec<u8>,
    },
    /// An attachment was written where the user asked.
    AttachmentSavedAs {
        req: RequestId,
        path: PathBuf,
    },
    /// A thread's people, organisations and facts.
    ThreadGraph {
        req: RequestId,
        graph: Box<crate::engine::ThreadGraph>,
    },
    Progress(Progress),
    /// New messages were synced from an IMAP folder: stored and searchable now,
    /// embedded in the background.
    NewMail {
        account: String,
        folder: String,
        count: usize,
    },
    /// A sync of every folder of an IMAP account finished (at start, on request, and
    /// now and then).
    Synced {
        account: String,
        added: usize,
        seconds: f64,
    },
    /// The IDLE connection of an account is up, waiting for mail in `folder`.
    Watching {
        account: String,
        folder: String,
    },
    /// A request failed; `req` is None for background work (an IMAP account that
    /// cannot be reached is retried with backoff, and says so).
    Error {
        req: Option<RequestId>,
        message: String,
    },
}

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

/// A map keyed by message as a list of pairs (JSON keys are strings only).
mod by_key {
    use crate::mail::model::MessageKey;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::HashMap;

    pub fn serialize<V: Serialize, S: Serializer>(
        map: &HashMap<MessageKey, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    pub fn deserialize<'de, V: Deserialize<'de>, D: Deserializer<'de>>(
        d: D,
    ) -> Result<HashMap<MessageKey, V>, D::Error> {
        Ok(Vec::<(MessageKey, V)>::deserialize(d)?
            .into_iter()
            .collect())
    }
}

fn serve(shared: &Shared, request: EngineRequest) {
    match request {
        EngineRequest::Threads => send_threads(shared),
        EngineRequest::Thread { req, id, show } => {
            let result = thread_messages(&shared.store, &id, show.as_ref());
            match result {
                Ok(view) => shared.emit(EngineEvent::ThreadMessages {
                    req,
                    id,
                    messages: view.messages,
                    attachments: view.attachments,
                    also_in: view.also_in,
                }),
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::Page { req, citation } => match shared.read(|e| e.cited_page(&citation)) {
            Ok(page) => shared.emit(EngineEvent::Page {
                req,
                page: page.map(Box::new),
            }),
            Err(e) => shared.error(Some(req), e),
        },
        EngineRequest::Open { req, key } => match shared.store.message(&key) {
            Ok(Some(m)) => match attachment_states(&shared.store, &m) {
                Ok(attachments) => shared.emit(EngineEvent::Message {
                    req,
                    message: Box::new(m),
                    attachments,
                }),
                Err(e) => shared.error(Some(req), e),
            },
            Ok(None) => shared.error(Some(req), format!("no message {}", key.to_hex())),
            Err(e) => shared.error(Some(req), e),
        },
        EngineRequest::Tag {
            req,
            target,
            add,
            remove,
        } => mail_state::tag(shared, req, &target, &add, &remove),
        EngineRequest::Tags { req } => mail_state::tags(shared, req),
        EngineRequest::Count { req, queries } => mail_state::count(shared, req, &queries),
        EngineRequest::Search {
            req,
            query,
            limit,
            order,
        } => search(shared, req, query, limit, order),
        EngineRequest::Ask {
            req,
            question,
            conversation,
            thread,
        } => ask(shared, req, &question, conversation, thread),
        r @ (EngineRequest::SetFlag { .. }
        | EngineRequest::Reveal { .. }
        | EngineRequest::Expunge { .. }
        | EngineRequest::Move { .. }
        | EngineRequest::Raw { .. }
        | EngineRequest::SaveAttachmentAs { .. }) => mail::serve(shared, r),
        EngineRequest::ThreadGraph { req, thread } => {
            match shared.read(|e| e.thread_graph(&thread)) {
                Ok(Some(graph)) => shared.emit(EngineEvent::ThreadGraph {
                    req,
                    graph: Box::new(graph),
                }),
                Ok(None) => shared.error(Some(req), format!("no thread has the id {thread}")),
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::SaveAttachment {
            req,
            key,
            name,
            page,
        } => match save_attachment(shared, &key, &name) {
            Ok(path) => shared.emit(EngineEvent::AttachmentSaved { req, path, page }),
            Err(e) => shared.error(Some(req), e),
        },
        r @ (EngineRequest::StartDraft { .. }
        | EngineRequest::SendDraft { .. }
        | EngineRequest::PostponeDraft { .. }
        | EngineRequest::DiscardDraft { .. }) => drafts::serve(shared, r),
        EngineRequest::Ingest { paths, embed } => background_asked(
            shared,
            Work {
                paths: Some(paths),
                imap: false,
                embed,
            },
        ),
        EngineRequest::Sync => match shared.store.roots() {
            Ok(roots) => {
                let imap = shared.imap_commands().is_some();
                let roots: Vec<PathBuf> = roots.into_iter().map(PathBuf::from).collect();
                // A store of IMAP mail only has no local source to read again.
                let paths = (!roots.is_empty() || !imap).then_some(roots);
                background_asked(
                    shared,
                    Work {
                        paths,
                        imap,
                        embed: true,
                    },
                )
            }
            Err(e) => shared.error(None, e),
        },
        EngineRequest::Embed => background_asked(
            shared,
            Work {
                paths: None,
                imap: false,
                embed: true,
            },
        ),
    }
}

fn search(
    shared: &Shared,
    req: RequestId,
    query: String,
    limit: usize,
    order: crate::engine::SearchOrder,
) {
    if shared.front_ends.newer_search_than(req) {
        // A newer search was asked for before this one started: skip it. The
        // front end drops its result anyway, but it still wants an answer.
        shared.emit(EngineEvent::SearchResults {
            req,
            query,
            hits: Vec::new(),
        });
        return;
    }
    let now = chrono::Utc::now().timestamp();
    let limit = limit.clamp(1, SEARCH_LIMIT_MAX);
    let result = shared.read(|e| e.search_in_order(&query, limit, now, order));
    match result {
        Ok(hits) => shared.emit(EngineEvent::SearchResults { req, query, hits }),
        Err(e) => shared.error(Some(req), e),
    }
}

/// Answers a question, its rewrite and the answer's text streamed as they come.
fn ask(
    shared: &Shared,
    req: RequestId,
    question: &str,
    mut conversation: Conversation,
    thread: Option<String>,
) {
    let opts = AskOptions {
        thread,
        ..AskOptions::default()
    };
    let result = shared.read(|e| {
        e.ask(
            question,
            &mut conversation,
            shared.answerer.as_ref(),
            &opts,
            &mut |ev| match ev {
                AskEvent::Rewrite(text) => shared.emit(EngineEvent::AnswerRewrite { req, text }),
                AskEvent::Delta(text) => shared.emit(EngineEvent::AnswerDelta { req, text }),
                AskEvent::Note(_) => {}
            },
        )
    });
    match result {
        Ok(outcome) => shared.emit(EngineEvent::Answer {
            req,
            outcome: Box::new(outcome),
            conversation,
        }),
        Err(e) => shared.error(Some(req), e),
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
