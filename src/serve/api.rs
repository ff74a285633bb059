//! The operations every front end shares, answered as the JSON objects the CLI
//! prints with `--json`: the Unix socket and the HTTP API both call [`Api::call`],
//! so a question asked over either gets the same answer.

use super::protocol::{ApiError, ErrorKind, EventKind, Op};
use crate::answer::extract::ExtractiveAnswerer;
use crate::answer::Answerer;
use crate::engine::handle::{
    AttachedFrontEnd, EngineEvent, EngineHandle, EngineRequest, Question, Requester,
};
use crate::engine::mailbox::moves::MoveTarget;
use crate::engine::{AskEvent, EngineError, LlmAnswerer, LlmConfig, RetrieveOptions, SearchMode};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

mod runs;

/// Hits a search returns when the request names no limit.
pub const DEFAULT_SEARCH_LIMIT: usize = 20;
/// Addresses `addresses` lists when the request does not say.
pub const DEFAULT_ADDRESS_LIMIT: usize = 20;
/// Emails a move takes when the request names no limit: all of a large mailbox.
pub const MOVE_LIMIT: usize = 1_000_000;
/// Threads listed when the request names no limit.
const DEFAULT_THREAD_LIMIT: usize = 200;
/// Least time between two progress events of a waited-for ingest.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// One engine shared by every connection, reached through its handle: reads run
/// side by side.
pub struct Api {
    /// Hands background work (an ingest, embedding) to the engine handle, so it
    /// runs in the background, yielding to reads, and its progress shows in the
    /// handle's front ends; attaches front ends of other terminals.
    handle: Requester,
    /// Asks of one named session run one at a time, so follow-ups see each other.
    sessions: Mutex<()>,
    /// Whether a UI shows the handle's events (it can show a message asked for).
    front_end: bool,
    /// The server serving this API, for `status`.
    life: Option<Arc<super::Lifetime>>,
}

impl Api {
    /// The engine of a handle, for every client of the server.
    pub fn over(handle: &EngineHandle) -> Self {
        Self {
            handle: handle.requester(),
            sessions: Mutex::new(()),
            front_end: false,
            life: None,
        }
    }

    /// The API as served by the server of `life`, which `status` names.
    pub fn with_lifetime(mut self, life: Arc<super::Lifetime>) -> Self {
        self.life = Some(life);
        self
    }

    /// Another front end of the engine, for a connection that asked to attach.
    pub fn attach(&self) -> (AttachedFrontEnd, tokio::sync::mpsc::Receiver<EngineEvent>) {
        self.handle.attach()
    }

    /// Whether the engine runs background work (an ingest, a sync, embedding).
    pub fn background_busy(&self) -> bool {
        self.handle.background_busy()
    }

    /// How many progress reports the engine's background work has made.
    pub fn progress_made(&self) -> u64 {
        self.handle.progress_made()
    }

    /// How many front ends of other terminals are attached.
    pub fn attached(&self) -> usize {
        self.handle.attached()
    }

    /// The identity of the store the engine holds.
    pub fn store_identity(&self) -> Result<String, ApiError> {
        self.handle.store_identity().map_err(engine_error)
    }

    /// The API of a handle whose events a UI shows.
    pub fn with_front_end(mut self) -> Self {
        self.front_end = true;
        self
    }

    /// Runs one operation; `on_event` sees its events as they happen. `Shutdown` is
    /// the caller's to handle and is refused here.
    pub fn call(
        &self,
        op: Op,
        on_event: &mut dyn FnMut(EventKind, String),
    ) -> Result<Value, ApiError> {
        match op {
            Op::Search {
                query,
                mode,
                limit,
                rerank,
            } => self.search(&query, mode.as_deref(), limit, rerank),
            Op::Ask {
                question,
                thread,
                widen,
                session,
                llm,
            } => self.ask(
                &question,
                thread.as_deref(),
                widen,
                session.as_deref(),
                llm,
                on_event,
            ),
            Op::Count { query } => self.count(&query),
            Op::Tag { query, add, remove } => self.tag(&query, &add, &remove),
            Op::Tags => to_value(&self.handle.all_tags().map_err(engine_error)?),
            Op::Status => self.status(),
            Op::Stats => to_value(&self.handle.stats().map_err(engine_error)?),
            Op::Message { message } => {
                to_value(&self.handle.message(&message).map_err(engine_error)?)
            }
            Op::Ingest { paths, embed, wait } => self.ingest(paths, embed, wait, on_event),
            Op::Embed => self.queue(EngineRequest::Embed),
            Op::Eval { items, llm } => self.eval(&items, llm, on_event),
            Op::Sync {
                config,
                account,
                batch,
                retries,
            } => self.sync(&config, account.as_deref(), batch, retries),
            Op::Addresses { prefix, limit } => to_value(
                &self
                    .handle
                    .addresses(&prefix, limit.unwrap_or(DEFAULT_ADDRESS_LIMIT))
                    .map_err(engine_error)?,
            ),
            Op::Threads { limit } => self.threads(limit.unwrap_or(DEFAULT_THREAD_LIMIT)),
            Op::Move { query, to, limit } => self.move_matching(&query, &to, limit),
            Op::Reveal { message } => self.reveal(&message),
            Op::Quarantine => to_value(&self.handle.quarantine().map_err(engine_error)?),
            Op::People { query } => to_value(&self.handle.people(&query).map_err(engine_error)?),
            Op::Facts { query } => to_value(&self.handle.facts(&query).map_err(engine_error)?),
            Op::ThreadGraph { thread } => {
                match self.handle.thread_graph(&thread).map_err(engine_error)? {
                    Some(g) => to_value(&g),
                    None => Err(ApiError::new(
                        ErrorKind::NotFound,
                        format!("no thread has the id {thread:?}"),
                    )),
                }
            }
            Op::Reindex => self.reindex(),
            Op::Expunge { confirm: false } => {
                to_value(&self.handle.expunge_preview().map_err(engine_error)?)
            }
            Op::Expunge { confirm: true } => {
                to_value(&self.handle.expunge_trash().map_err(engine_error)?)
            }
            Op::Shutdown => Err(ApiError::new(
                ErrorKind::Refused,
                "this server was started in the foreground: stop it where it runs",
            )),
            Op::Attach => Err(ApiError::new(
                ErrorKind::Refused,
                "only a socket connection can attach as a front end",
            )),
            Op::Watch { .. } => Err(ApiError::new(
                ErrorKind::Refused,
                "a watch streams over the socket only (quoth sync --watch)",
            )),
        }
    }

    fn search(
        &self,
        query: &str,
        mode: Option<&str>,
        limit: Option<usize>,
        rerank: bool,
    ) -> Result<Value, ApiError> {
        let mode = match mode.unwrap_or("hybrid") {
            "hybrid" => SearchMode::Hybrid,
            "lexical" => SearchMode::Lexical,
            "semantic" => SearchMode::Semantic,
            other => {
                return Err(ApiError::new(
                    ErrorKind::BadRequest,
                    format!("mode is lexical, semantic or hybrid, not {other:?}"),
                ))
            }
        };
        let opts = RetrieveOptions {
            mode,
            limit: limit.unwrap_or(DEFAULT_SEARCH_LIMIT),
            rerank,
            now: chrono::Utc::now().timestamp(),
        };
        match self.handle.search(query, opts) {
            Ok(r) => to_value(&r),
            Err(e) => Err(query_error(e, query)),
        }
    }

    fn tag(&self, query: &str, add: &[String], remove: &[String]) -> Result<Value, ApiError> {
        let now = chrono::Utc::now().timestamp();
        match self.handle.tag(query, add, remove, now) {
            Ok(report) => to_value(&report),
            Err(e @ EngineError::BadTag(_)) => {
                Err(ApiError::new(ErrorKind::BadRequest, e.to_string()))
            }
            Err(e) => Err(query_error(e, query)),
        }
    }

    fn count(&self, query: &str) -> Result<Value, ApiError> {
        match self.handle.count(query, chrono::Utc::now().timestamp()) {
            Ok(n) => Ok(json!({ "count": n })),
            Err(e) => Err(query_error(e, query)),
        }
    }

    fn ask(
        &self,
        question: &str,
        thread: Option<&str>,
        widen: bool,
        session: Option<&str>,
        llm: bool,
        on_event: &mut dyn FnMut(EventKind, String),
    ) -> Result<Value, ApiError> {
        let answerer = answerer(llm).map_err(|m| ApiError::new(ErrorKind::Refused, m))?;
        let _one_session_at_a_time =
            session.map(|_| self.sessions.lock().unwrap_or_else(|p| p.into_inner()));
        let mut forward = |e: AskEvent| match e {
            AskEvent::Rewrite(r) => on_event(EventKind::Rewrite, r),
            AskEvent::Delta(d) => on_event(EventKind::Delta, d),
            AskEvent::Note(n) => on_event(EventKind::Note, n),
        };
        let question = Question {
            text: question,
            thread,
            widen,
            session,
        };
        let outcome = self
            .handle
            .ask(question, answerer.as_ref(), &mut forward)
            .map_err(engine_error)?;
        to_value(&outcome)
    }

    /// Queues an ingest of mail (then, with `embed`, its attachments and
    /// embedding) in the background; `quoth status` shows its progress. With `wait`
    /// the ingest itself runs first, its progress reported as events, and the answer
    /// is its report.
    fn ingest(
        &self,
        paths: Vec<String>,
        embed: bool,
        wait: bool,
        on_event: &mut dyn FnMut(EventKind, String),
    ) -> Result<Value, ApiError> {
        let paths: Vec<PathBuf> = paths.into_iter().map(PathBuf::from).collect();
        if let Some(missing) = paths.iter().find(|p| !p.exists()) {
            return Err(ApiError::new(
                ErrorKind::NotFound,
                format!("{} does not exist", missing.display()),
            ));
        }
        if !wait {
            return self.queue(EngineRequest::Ingest { paths, embed });
        }
        let mut last = std::time::Instant::now();
        let report = self
            .handle
            .ingest_now(&paths, &mut |p| {
                if last.elapsed() >= PROGRESS_EVERY || p.done == p.total {
                    last = std::time::Instant::now();
                    on_event(
                        EventKind::Progress,
                        format!("{:?}: {}/{}", p.phase, p.done, p.total),
                    );
                }
            })
            .map_err(engine_error)?;
        // Attachments and embedding follow in the background.
        if embed {
            self.queue(EngineRequest::Embed)?;
        }
        to_value(&report)
    }

    fn move_matching(
        &self,
        query: &str,
        to: &str,
        limit: Option<usize>,
    ) -> Result<Value, ApiError> {
        let target = MoveTarget::named(to);
        let limit = limit.unwrap_or(MOVE_LIMIT);
        let report = self
            .handle
            .move_matching(query, &target, limit)
            .map_err(|e| query_error(e, query))?;
        to_value(&report)
    }

    fn reindex(&self) -> Result<Value, ApiError> {
        to_value(&self.handle.reindex().map_err(engine_error)?)
    }

    fn reveal(&self, message: &str) -> Result<Value, ApiError> {
        if !self.front_end && self.handle.attached() == 0 {
            return Err(ApiError::new(
                ErrorKind::Refused,
                "this Quoth server has no UI open to show the message in",
            ));
        }
        let msg = self.handle.find_message(message).map_err(engine_error)?;
        self.queue(EngineRequest::Reveal { key: msg.key })?;
        Ok(json!({ "shown": msg.key.to_hex(), "subject": msg.subject }))
    }

    fn queue(&self, request: EngineRequest) -> Result<Value, ApiError> {
        if self.handle.send(request) {
            Ok(json!({ "queued": true }))
        } else {
            Err(ApiError::new(
                ErrorKind::Internal,
                "the engine's background worker is gone",
            ))
        }
    }

    fn status(&self) -> Result<Value, ApiError> {
        let report = self.handle.status().map_err(engine_error)?;
        let mut value = to_value(&report)?;
        if let (Some(life), Some(object)) = (&self.life, value.as_object_mut()) {
            let server = super::lifetime::ServerState {
                pid: std::process::id(),
                uptime_secs: life.uptime().as_secs(),
                clients: life.connections(),
                attached: self.attached(),
                background: life.background,
                working: report.background_work,
                watching: self.handle.watching(),
                store: life.store_id().to_string(),
            };
            object.insert("server".into(), to_value(&server)?);
            // What the server's background work found since a client was last told
            // (a failed embedding, a model not installed): the asker hears it.
            object.insert("notes".into(), to_value(&life.take_notes())?);
        }
        Ok(value)
    }

    fn threads(&self, limit: usize) -> Result<Value, ApiError> {
        let threads = self.handle.threads(limit).map_err(engine_error)?;
        Ok(json!({ "threads": to_value(&threads)? }))
    }
}

/// The answerer asked for: the OpenAI-compatible model of `QUOTH_LLM_BASE_URL` when
/// `llm`, else the offline extractive one.
pub fn answerer(llm: bool) -> Result<Box<dyn Answerer + Send + Sync>, String> {
    if !llm {
        return Ok(Box::new(ExtractiveAnswerer));
    }
    let config = LlmConfig::from_env().ok_or_else(|| {
        "--llm needs an OpenAI-compatible endpoint: set QUOTH_LLM_BASE_URL (and QUOTH_LLM_MODEL, QUOTH_LLM_API_KEY)"
            .to_string()
    })?;
    LlmAnswerer::new(config)
        .map(|a| Box::new(a) as Box<dyn Answerer + Send + Sync>)
        .map_err(|e| e.to_string())
}

/// An engine error of a request with a query: a query error says where in
/// `query` it is.
fn query_error(e: EngineError, query: &str) -> ApiError {
    match e {
        EngineError::Query(e) => ApiError {
            kind: ErrorKind::Query,
            message: format!("invalid query: {e}"),
            caret: Some(e.caret(query)),
        },
        e => engine_error(e),
    }
}

fn to_value<T: serde::Serialize>(v: &T) -> Result<Value, ApiError> {
    serde_json::to_value(v).map_err(|e| ApiError::new(ErrorKind::Internal, e.to_string()))
}

fn engine_error(e: EngineError) -> ApiError {
    let kind = match &e {
        EngineError::NoSuchMessage(_) => ErrorKind::NotFound,
        EngineError::Query(_) | EngineError::Session(_) => ErrorKind::BadRequest,
        _ => ErrorKind::Internal,
    };
    ApiError::new(kind, e.to_string())
}
