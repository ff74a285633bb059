//! What travels between a front end and the engine: requests in, events out,
//! each serialisable as JSON for a front end attached over the socket.

use crate::answer::conversation::Conversation;
use crate::engine::{AskOutcome, AttachmentState, AttachmentStates, SearchHit};
use crate::mail::model::{MessageKey, ThreadId};
use crate::store::{StoredMessage, ThreadSummary};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Identifies a request; results carry it so a front end can drop stale ones.
pub type RequestId = u64;

/// What a front end asks of the engine. Requests and events travel as JSON over
/// the socket to an attached front end (`attach` in [`crate::serve::protocol`]).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EngineRequest {
    /// The attachment page a citation points at, with the quote located in it.
    Page {
        req: RequestId,
        citation: Box<crate::engine::Citation>,
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
        target: crate::engine::mailbox::moves::MoveTarget,
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
        phase: crate::engine::IngestPhase,
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
        page: Option<Box<crate::engine::AttachmentPage>>,
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
        also_in: crate::engine::mailbox::copies::AlsoIn,
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
        outcome: Box<crate::engine::mailbox::moves::MoveOutcome>,
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
        report: crate::engine::mailbox::expunge::ExpungeReport,
    },
    /// A flag was set or cleared: each copy's flags now, and its thread's summary.
    Flagged {
        req: RequestId,
        outcome: Box<crate::engine::mailbox::flags::FlagOutcome>,
    },
    /// A draft file is ready for the editor.
    DraftReady {
        req: RequestId,
        draft: Box<crate::engine::mailbox::compose::DraftStarted>,
    },
    /// A draft was sent.
    DraftSent {
        req: RequestId,
        sent: Box<crate::engine::mailbox::compose::SentMail>,
    },
    /// A draft was kept in Drafts.
    DraftPostponed {
        req: RequestId,
        postponed: Box<crate::engine::mailbox::compose::PostponedDraft>,
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
