//! The Quoth server's protocol, version [`PROTOCOL_VERSION`]: JSON lines over a Unix
//! socket.
//!
//! On connect the server writes one [`Greeting`] line. Then the client writes
//! [`Request`] lines, each with an id it chose; for each, the server writes any number
//! of event lines and then exactly one result or error line, all carrying that id:
//!
//! ```text
//! <- {"quoth":"server","protocol":1,"version":"0.1.0","pid":4242,"background":true,"store":"9f0c…","started":1764840000}
//! -> {"id":1,"op":"ask","question":"when is the roofer coming?","session":"kitchen"}
//! <- {"id":1,"event":{"kind":"rewrite","text":"..."}}
//! <- {"id":1,"result":{ ...the object of `quoth ask --json`... }}
//! -> {"id":2,"op":"search","query":"from:kessler roof","limit":5}
//! <- {"id":2,"error":{"kind":"query","message":"...","caret":"..."}}
//! ```
//!
//! Requests on one connection may overlap; replies of different ids may interleave.
//! Fields are only ever added within a version; a client that reads a greeting of
//! another version must stop and say so.
//!
//! # Attached front ends
//!
//! A UI in another terminal shares the running engine through `{"id":n,"op":"attach"}`.
//! Once its result has come, the client writes
//! [`EngineRequest`](crate::engine::handle::EngineRequest) lines and the server
//! writes [`EngineEvent`](crate::engine::handle::EngineEvent) lines, externally
//! tagged and snake_case, for as long as the connection stays open:
//!
//! ```text
//! -> {"id":1,"op":"attach"}
//! <- {"id":1,"result":{"attached":true}}
//! -> "threads"
//! <- {"thread_list":{"threads":[...],"first":true,"complete":true}}
//! -> {"search":{"req":4,"query":"roof","limit":200}}
//! <- {"search_results":{"req":4,"query":"roof","hits":[...]}}
//! <- {"progress":{"embed":{"done":120,"total":900}}}
//! ```
//!
//! Results carry the client's own request ids. Events that answer no request
//! (progress, new mail, a new thread list after an ingest) go to every front end.

use serde::{Deserialize, Serialize};

/// The version of this protocol. A change that an older client cannot read raises it.
pub const PROTOCOL_VERSION: u32 = 1;

/// The first line the server writes on a connection.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Greeting {
    /// Always "server".
    pub quoth: String,
    pub protocol: u32,
    /// The server program's version.
    pub version: String,
    /// The server's process id.
    #[serde(default)]
    pub pid: u32,
    /// Started in the background for a client: it exits when idle, and stops when a
    /// client that needs the data directory to itself asks it to (`shutdown`).
    #[serde(default)]
    pub background: bool,
    /// The identity of the store it serves ([`super::identity`]): a client talks
    /// only to the server of the store its data directory holds now.
    #[serde(default)]
    pub store: String,
    /// When it started, in seconds since the Unix epoch.
    #[serde(default)]
    pub started: u64,
    /// What the server found and did that no client had been told yet (a damaged
    /// file repaired on opening, background work that failed): told once, to the
    /// client connecting first after it happened.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Greeting {
    pub fn current(background: bool, store: &str, started: u64, notes: Vec<String>) -> Self {
        Self {
            quoth: "server".into(),
            protocol: PROTOCOL_VERSION,
            version: env!("CARGO_PKG_VERSION").into(),
            pid: std::process::id(),
            background,
            store: store.to_string(),
            started,
            notes,
        }
    }

    /// Whether this server serves the store `data_dir` holds now.
    pub fn serves(&self, data_dir: &std::path::Path) -> bool {
        !self.store.is_empty()
            && super::identity::current(data_dir).is_some_and(|id| id == self.store)
    }
}

/// One request: the client's id and the operation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Request {
    pub id: u64,
    #[serde(flatten)]
    pub op: Op,
}

/// What a client asks for. Results are the JSON objects of the matching CLI
/// commands with `--json`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// `quoth search --json`: `mode` is lexical, semantic or hybrid (the default).
    Search {
        query: String,
        #[serde(default)]
        mode: Option<String>,
        #[serde(default)]
        limit: Option<usize>,
        #[serde(default)]
        rerank: bool,
    },
    /// `quoth ask --json`. `thread` answers from that thread only (a thread id,
    /// message key or Message-ID) unless `widen`; `session` keeps the conversation.
    Ask {
        question: String,
        #[serde(default)]
        thread: Option<String>,
        #[serde(default)]
        widen: bool,
        #[serde(default)]
        session: Option<String>,
        #[serde(default)]
        llm: bool,
    },
    /// `quoth count --json`: how many messages a query matches.
    Count { query: String },
    /// `quoth tag --json`: tags added to and removed from the messages a query
    /// matches.
    Tag {
        query: String,
        #[serde(default)]
        add: Vec<String>,
        #[serde(default)]
        remove: Vec<String>,
    },
    /// Every tag in use with its count of messages.
    Tags,
    /// `quoth status --json`: background work.
    Status,
    /// `quoth stats --json`.
    Stats,
    /// `quoth show --json`: one message by Message-ID or key.
    Message { message: String },
    /// Thread summaries, newest first.
    Threads {
        #[serde(default)]
        limit: Option<usize>,
    },
    /// Ingest Maildir folders, mbox or .eml files (paths on the server's machine),
    /// then with `embed` their attachments and embedding, in the background:
    /// answers `{"queued": true}` at once; `status` shows the progress.
    Ingest {
        paths: Vec<String>,
        #[serde(default = "yes")]
        embed: bool,
        /// Ingest before answering, with progress events, and answer the object of
        /// `quoth ingest --json` (its attachments and embedding still run in the
        /// background); otherwise only queue it (`{"queued": true}`).
        #[serde(default)]
        wait: bool,
    },
    /// Run the pending embedding jobs in the background (`{"queued": true}`).
    Embed,
    /// `quoth eval`: ask every question of a question set (the items of its file)
    /// and score the answers; each item's result is a `progress` event (its JSON),
    /// and the answer is the object of `quoth eval --json`.
    Eval {
        items: Vec<crate::engine::EvalItem>,
        #[serde(default)]
        llm: bool,
    },
    /// `quoth sync`: fetch mail from the IMAP accounts of the config file at
    /// `config` (a path on the server's machine), all or the one named; answers the
    /// object of `quoth sync --json` when the sync has ended.
    Sync {
        config: String,
        #[serde(default)]
        account: Option<String>,
        #[serde(default)]
        batch: Option<usize>,
        #[serde(default)]
        retries: Option<u32>,
    },
    /// `quoth sync --watch`: watch the IMAP accounts of the config file at `config`
    /// (IDLE), all or the one named, and sync as mail arrives. Over the socket only:
    /// each report of the watch loop comes as a `progress` event whose text is the
    /// JSON of `quoth sync --watch --json`, until the client closes the connection,
    /// which ends a watch this request started. A server that watches already (a UI
    /// with accounts of its own) streams the reports of its watch.
    Watch {
        config: String,
        #[serde(default)]
        account: Option<String>,
        #[serde(default)]
        batch: Option<usize>,
        #[serde(default)]
        retries: Option<u32>,
    },
    /// `quoth address --json`: addresses whose name or address starts with
    /// `prefix`, those on the most mail first.
    Addresses {
        #[serde(default)]
        prefix: String,
        #[serde(default)]
        limit: Option<usize>,
    },
    /// `quoth move --json`: moves the mail `query` matches (up to `limit`, every
    /// match by default) to `to`: `archive`, `trash` or a folder's path.
    Move {
        query: String,
        to: String,
        #[serde(default)]
        limit: Option<usize>,
    },
    /// `quoth expunge --json`: what is in the trash folders, emptied for good
    /// only with `confirm`.
    Expunge {
        #[serde(default)]
        confirm: bool,
    },
    /// `quoth open`: the open UI shows this message (Message-ID or key); refused
    /// by a server with no UI.
    Reveal { message: String },
    /// `quoth quarantine --json`: the messages that could not be read, and why.
    Quarantine,
    /// `quoth people --json`: the people a query names (a name, an address, or an
    /// organisation, for everyone there), each with their mail's count and dates.
    People { query: String },
    /// `quoth facts --json`: the dated facts of a thread (hex id) or of what a query
    /// names, each with its quote and whether a later one replaced it.
    Facts { query: String },
    /// A thread's people (with when each joined and dropped off), organisations and
    /// facts: the object the UI's people-and-facts view shows.
    ThreadGraph { thread: String },
    /// `quoth reindex --json`: the search index rebuilt from the store (reads wait
    /// until it is done).
    Reindex,
    /// Stop the server when it was started in the background for a client (a
    /// foreground `quoth serve` refuses).
    Shutdown,
    /// Make this connection a front end of the engine (another terminal's UI): after
    /// the result `{"attached": true}`, the connection carries no more [`Request`]
    /// lines but the engine handle's own requests and events, one JSON object a line
    /// each way (see "Attached front ends" above).
    Attach,
}

fn yes() -> bool {
    true
}

/// One line the server writes for a request.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Reply {
    pub id: u64,
    #[serde(flatten)]
    pub body: ReplyBody,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(rename_all = "snake_case")]
pub enum ReplyBody {
    /// Something that happens on the way: a rewrite, a note, a piece of an answer
    /// being written, progress.
    Event(Event),
    /// The request's result: the last line for its id.
    Result(serde_json::Value),
    /// The request failed: the last line for its id.
    Error(ApiError),
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub text: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// The standalone question a follow-up was rewritten into.
    Rewrite,
    /// A piece of the answer as the answerer writes it.
    Delta,
    /// What the user should know (widened scope, endpoint failures).
    Note,
    /// Background work's progress, as a line of text.
    Progress,
}

/// Why a request failed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub kind: ErrorKind,
    pub message: String,
    /// For a query syntax error: the query with a caret under the fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caret: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The request line is not a request of this protocol.
    BadRequest,
    /// The search query does not parse.
    Query,
    /// No such message or thread.
    NotFound,
    /// The request was understood, but the server may not do it.
    Refused,
    /// Anything else; the message says what.
    Internal,
}

impl ApiError {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            caret: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_and_replies_round_trip_as_documented() {
        let line = r#"{"id":1,"op":"ask","question":"when?","session":"s"}"#;
        let r: Request = serde_json::from_str(line).expect("parses");
        assert_eq!(
            r,
            Request {
                id: 1,
                op: Op::Ask {
                    question: "when?".into(),
                    thread: None,
                    widen: false,
                    session: Some("s".into()),
                    llm: false,
                }
            }
        );
        let status: Request = serde_json::from_str(r#"{"id":7,"op":"status"}"#).expect("parses");
        assert_eq!(status.op, Op::Status);
        let attach: Request = serde_json::from_str(r#"{"id":9,"op":"attach"}"#).expect("parses");
        assert_eq!(attach.op, Op::Attach);
        // No operation has a field of its own named like the request's id.
        let show = Request {
            id: 8,
            op: Op::Message {
                message: "<a@b>".into(),
            },
        };
        let text = serde_json::to_string(&show).expect("serialises");
        assert_eq!(text, r#"{"id":8,"op":"message","message":"<a@b>"}"#);
        assert_eq!(
            serde_json::from_str::<Request>(&text).expect("parses"),
            show
        );
        let reply = Reply {
            id: 2,
            body: ReplyBody::Error(ApiError::new(ErrorKind::Query, "bad")),
        };
        let text = serde_json::to_string(&reply).expect("serialises");
        assert_eq!(text, r#"{"id":2,"error":{"kind":"query","message":"bad"}}"#);
        assert_eq!(serde_json::from_str::<Reply>(&text).expect("parses"), reply);
        let event = Reply {
            id: 3,
            body: ReplyBody::Event(Event {
                kind: EventKind::Delta,
                text: "x".into(),
            }),
        };
        let text = serde_json::to_string(&event).expect("serialises");
        assert_eq!(text, r#"{"id":3,"event":{"kind":"delta","text":"x"}}"#);
    }

    #[test]
    fn an_unknown_operation_is_not_a_request() {
        assert!(serde_json::from_str::<Request>(r#"{"id":1,"op":"format_disk"}"#).is_err());
        assert!(serde_json::from_str::<Request>(r#"{"op":"status"}"#).is_err());
    }
}
