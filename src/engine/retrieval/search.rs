//! Lexical search: parse the query, run it on tantivy, decorate the hits from sled.

use crate::engine::{Engine, Result};
use crate::index::lexical_query::{compile, StateSets};
use crate::mail::model::{MessageKey, ThreadId};
use crate::query::syntax::{parse_query, Query};
use crate::store::StoredMessage;
use serde::Serialize;

/// The order of search hits: best match first, or by date (a saved view's sort).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchOrder {
    #[default]
    Relevance,
    Newest,
    Oldest,
}

/// One search result, as the CLI prints it and `--json` emits it.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct SearchHit {
    pub key: String,
    pub message_id: Option<String>,
    pub thread_id: String,
    pub date: Option<i64>,
    pub from: String,
    pub subject: String,
    pub folder: String,
    pub score: f32,
    pub snippet: String,
    /// Byte ranges of `snippet` that matched the query.
    pub highlights: Vec<(usize, usize)>,
    /// The folders of the email's other copies (listed once, under this hit).
    #[serde(default)]
    pub also_in: Vec<String>,
    /// Maildir flag letters (S seen, F flagged, R replied...).
    #[serde(default)]
    pub flags: String,
    /// Where the email is kept: the file of this copy and of its other copies (an
    /// mbox message as its mbox file; IMAP mail has none).
    #[serde(default)]
    pub files: Vec<String>,
    /// The user's tags on this copy.
    #[serde(default)]
    pub tags: Vec<String>,
}

impl SearchHit {
    /// A hit on a stored message, with the snippet to show.
    pub fn of(
        msg: &StoredMessage,
        thread: ThreadId,
        score: f32,
        snippet: String,
        highlights: Vec<(usize, usize)>,
    ) -> Self {
        Self {
            key: msg.key.to_hex(),
            message_id: msg.message_id.clone(),
            thread_id: thread.to_hex(),
            date: msg.date,
            from: msg.sender(),
            subject: msg.subject.clone(),
            folder: msg.folder.clone(),
            score,
            snippet,
            highlights,
            also_in: Vec::new(),
            flags: msg.flags.clone(),
            files: file_of(&msg.location).into_iter().collect(),
            tags: Vec::new(),
        }
    }
}

/// The file a message is kept in, when it is kept in a file.
pub(in crate::engine) fn file_of(location: &crate::source::SourceLocation) -> Option<String> {
    match location {
        crate::source::SourceLocation::File { path } => Some(path.clone()),
        crate::source::SourceLocation::Mbox { path, .. } => Some(path.clone()),
        crate::source::SourceLocation::Imap { .. } => None,
    }
}

/// How many hits per hit wanted are read to find the listed emails' other copies.
pub(in crate::engine) const COPY_WINDOW: usize = 4;

impl Engine {
    /// The messages in each state `query` asks for with `is:`, and with each tag
    /// it asks for with `tag:`, as the store and the tags hold them now.
    pub(in crate::engine) fn mail_states(&self, query: &Query) -> Result<StateSets> {
        Ok(StateSets::of(
            query,
            |state| self.store.state_set(state),
            |tag| self.mailbox.tags.tag_set(tag),
        )?)
    }

    /// How many messages a query matches (each stored copy counts), as `notmuch
    /// count` answers a status bar.
    pub fn count(&self, query: &str, now: i64) -> Result<usize> {
        let parsed = parse_query(query, now)?;
        let compiled = compile(
            &parsed,
            &self.retrieval.lexical,
            &self.mail_states(&parsed)?,
        );
        Ok(self.retrieval.lexical.count(compiled.as_ref())?)
    }

    /// Runs a query in the notmuch/mu-style syntax; `now` anchors relative dates.
    pub fn search(&self, query: &str, limit: usize, now: i64) -> Result<Vec<SearchHit>> {
        self.search_in_order(query, limit, now, SearchOrder::Relevance)
    }

    /// [`Engine::search`] with the hits in the order asked for.
    pub fn search_in_order(
        &self,
        query: &str,
        limit: usize,
        now: i64,
        order: SearchOrder,
    ) -> Result<Vec<SearchHit>> {
        let parsed = parse_query(query, now)?;
        let compiled = compile(
            &parsed,
            &self.retrieval.lexical,
            &self.mail_states(&parsed)?,
        );
        // Read past `limit` to find the listed emails' other copies.
        let depth = limit.saturating_mul(COPY_WINDOW);
        let hits = match order {
            SearchOrder::Relevance => self.retrieval.lexical.search(compiled.as_ref(), depth)?,
            SearchOrder::Newest => {
                self.retrieval
                    .lexical
                    .by_date(compiled.as_ref(), depth, tantivy::Order::Desc)?
            }
            SearchOrder::Oldest => {
                self.retrieval
                    .lexical
                    .by_date(compiled.as_ref(), depth, tantivy::Order::Asc)?
            }
        };
        let emails = crate::engine::mailbox::copies::ranked_emails(
            &self.store,
            hits,
            |h| h.key,
            |_| true,
            limit,
            limit.saturating_mul(COPY_WINDOW),
        )?;
        let mut out: Vec<SearchHit> = Vec::with_capacity(emails.len());
        for email in emails {
            let (hit, msg) = (email.shown, email.message);
            let (snippet, ranges) =
                self.retrieval
                    .lexical
                    .snippet(compiled.as_ref(), &msg.body, 160)?;
            let (snippet, highlights) = if snippet.is_empty() {
                (first_words(&msg.body, 160), Vec::new())
            } else {
                (
                    snippet,
                    ranges.into_iter().map(|r| (r.start, r.end)).collect(),
                )
            };
            let mut shown = SearchHit::of(
                &msg,
                self.thread_id(&hit.key)?,
                hit.score,
                snippet,
                highlights,
            );
            shown.also_in = email.also_in;
            shown.files.extend(email.copy_files);
            shown.tags = self.mailbox.tags.of(&msg.key)?;
            out.push(shown);
        }
        Ok(out)
    }

    /// The thread of a message (itself when not threaded yet).
    pub(in crate::engine) fn thread_id(&self, key: &MessageKey) -> Result<ThreadId> {
        Ok(self
            .store
            .thread_of(key)?
            .unwrap_or_else(|| ThreadId::of_root(key)))
    }
}

pub(in crate::engine) fn first_words(body: &str, max_chars: usize) -> String {
    let flat: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &flat[..i]),
        None => flat,
    }
}
