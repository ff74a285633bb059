//! The engine's operations as a client of the server asks them: each reads the
//! shared engine (reads run side by side) or writes it after the reads waiting,
//! and tells the front ends what changed. The server's API turns a request into
//! one of these calls and its answer into JSON; it never holds the engine itself.

use super::{EngineRequest, Requester};
use crate::answer::conversation::Conversation;
use crate::answer::Answerer;
use crate::engine::mailbox::expunge::ExpungeReport;
use crate::engine::mailbox::moves::{MoveReport, MoveTarget};
use crate::engine::mailbox::tagging::TagReport;
use crate::engine::{
    AddressEntry, AskEvent, AskOptions, AskOutcome, AttachmentState, EvalItem, EvalReport,
    IngestProgress, IngestReport, Result, Retrieval, RetrieveOptions, Stats, StatusReport,
    SyncOptions, SyncReport,
};
use crate::mail::model::display_list;
use crate::source::imap::AccountConfig;
use crate::store::StoredMessage;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One message as `quoth show --json` prints it: headers, segments and chunks.
#[derive(Debug, Clone, Serialize)]
pub struct MessageView {
    pub key: String,
    pub message_id: Option<String>,
    pub thread_id: Option<String>,
    pub date: Option<i64>,
    pub from: String,
    pub to: String,
    pub cc: String,
    pub subject: String,
    pub folder: String,
    pub flags: String,
    pub source: String,
    pub attachments: Vec<AttachmentState>,
    pub segments: Vec<SegmentView>,
    pub chunks: Vec<ChunkView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SegmentView {
    pub kind: &'static str,
    pub start: usize,
    pub end: usize,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ChunkView {
    pub id: String,
    pub start: u32,
    pub end: u32,
    pub cite_text: String,
    pub attachment: Option<crate::store::ChunkAttachment>,
}

/// A message the ingest could not read, as `quoth quarantine --json` prints it.
#[derive(Debug, Clone, Serialize)]
pub struct QuarantineEntry {
    pub source: String,
    pub folder: String,
    pub reason: String,
    pub bytes: usize,
}

/// A thread as `quoth threads --json` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct ThreadRow {
    pub id: String,
    pub subject: String,
    pub first_date: Option<i64>,
    pub latest_date: Option<i64>,
    pub messages: Vec<String>,
    pub emails: usize,
    pub senders: Vec<String>,
    pub unread: u32,
    pub has_attachment: bool,
}

/// What a reindex did.
#[derive(Debug, Clone, Serialize)]
pub struct ReindexReport {
    pub indexed: usize,
    pub seconds: f64,
    pub attachments_queued: usize,
}

/// A question, asked alone or in a named session, within a thread or not.
pub struct Question<'a> {
    pub text: &'a str,
    pub thread: Option<&'a str>,
    /// Looks beyond `thread` when it holds no answer.
    pub widen: bool,
    /// The conversation it follows, kept under this name.
    pub session: Option<&'a str>,
}

impl Requester {
    /// Whether background work runs (an ingest, a sync, embedding).
    pub fn background_busy(&self) -> bool {
        super::work::busy(&self.shared)
    }

    /// The identity of the store the engine holds.
    pub fn store_identity(&self) -> Result<String> {
        Ok(self.shared.store.identity()?)
    }

    pub fn search(&self, query: &str, opts: RetrieveOptions) -> Result<Retrieval> {
        self.shared.read(|e| e.retrieve(query, opts))
    }

    pub fn count(&self, query: &str, now: i64) -> Result<usize> {
        self.shared.read(|e| e.count(query, now))
    }

    pub fn tag(
        &self,
        query: &str,
        add: &[String],
        remove: &[String],
        now: i64,
    ) -> Result<TagReport> {
        self.shared.read(|e| e.tag(query, add, remove, now))
    }

    pub fn all_tags(&self) -> Result<BTreeMap<String, usize>> {
        self.shared.read(|e| e.all_tags())
    }

    pub fn stats(&self) -> Result<Stats> {
        self.shared.read(|e| e.stats())
    }

    /// The store's work: embedding, attachments, what is missing; and whether
    /// background work runs now.
    pub fn status(&self) -> Result<StatusReport> {
        let mut report = self.shared.read(|e| e.status_report())?;
        report.background_work = self.background_busy();
        Ok(report)
    }

    pub fn addresses(&self, prefix: &str, limit: usize) -> Result<Vec<AddressEntry>> {
        self.shared.read(|e| e.addresses(prefix, limit))
    }

    /// The people a query names (a name, an address or an organisation).
    pub fn people(&self, query: &str) -> Result<crate::engine::PeopleView> {
        self.shared.read(|e| e.people(query))
    }

    /// The facts of a thread (hex id) or of what a query names.
    pub fn facts(&self, query: &str) -> Result<crate::engine::FactsView> {
        self.shared.read(|e| e.facts(query))
    }

    /// A thread's people, organisations and facts.
    pub fn thread_graph(&self, thread: &str) -> Result<Option<crate::engine::ThreadGraph>> {
        self.shared.read(|e| e.thread_graph(thread))
    }

    pub fn find_message(&self, id: &str) -> Result<StoredMessage> {
        self.shared.read(|e| e.find_message(id))
    }

    /// A message by Message-ID or key, with its thread, segments and chunks.
    pub fn message(&self, id: &str) -> Result<MessageView> {
        self.shared.read(|engine| {
            let msg = engine.find_message(id)?;
            let thread_id = engine.thread_of(&msg.key)?.map(|t| t.to_hex());
            let attachments = engine.attachment_states(&msg)?;
            let chunks = engine
                .store()
                .chunks_of(&msg.key)?
                .into_iter()
                .map(|c| ChunkView {
                    id: c.id.to_hex(),
                    start: c.start,
                    end: c.end,
                    cite_text: c.cite_text,
                    attachment: c.attachment,
                })
                .collect();
            let segments = msg
                .segments
                .iter()
                .map(|s| SegmentView {
                    kind: s.kind.label(),
                    start: s.start,
                    end: s.end,
                    text: msg.segment_text(s).to_string(),
                })
                .collect();
            Ok(MessageView {
                key: msg.key.to_hex(),
                message_id: msg.message_id.clone(),
                thread_id,
                date: msg.date,
                from: display_list(&msg.from),
                to: display_list(&msg.to),
                cc: display_list(&msg.cc),
                subject: msg.subject.clone(),
                folder: msg.folder.clone(),
                flags: msg.flags.clone(),
                source: msg.location.describe(),
                attachments,
                segments,
                chunks,
            })
        })
    }

    /// The messages the ingest could not read, then the attachments whose text
    /// could not be read (their messages are stored; the files are kept).
    pub fn quarantine(&self) -> Result<Vec<QuarantineEntry>> {
        let store = &self.shared.store;
        let mut out: Vec<QuarantineEntry> = store
            .quarantined()?
            .iter()
            .map(|q| QuarantineEntry {
                source: q.location.describe(),
                folder: q.folder.clone(),
                reason: q.reason.clone(),
                bytes: q.raw.len(),
            })
            .collect();
        for (hash, _) in store.unreadable_attachments()? {
            for (key, index) in store.attachment_users(&hash)? {
                let Some(msg) = store.message(&key)? else {
                    continue;
                };
                let states =
                    crate::engine::mailbox::attachment_view::attachment_states(store, &msg)?;
                let Some(state) = states.into_iter().find(|s| s.index == index) else {
                    continue;
                };
                let id = msg.message_id.clone().unwrap_or_else(|| key.to_hex());
                out.push(QuarantineEntry {
                    source: format!("attachment {} of <{id}> ({})", state.name, msg.subject),
                    folder: msg.folder.clone(),
                    reason: state.message,
                    bytes: state.size as usize,
                });
            }
        }
        Ok(out)
    }

    /// The newest `limit` threads.
    pub fn threads(&self, limit: usize) -> Result<Vec<ThreadRow>> {
        let mut threads = Vec::new();
        for t in self.shared.store.threads_iter() {
            threads.push(t?);
        }
        super::sort_threads(&mut threads);
        threads.truncate(limit);
        Ok(threads
            .iter()
            .map(|t| ThreadRow {
                id: t.id.to_hex(),
                subject: t.subject.clone(),
                first_date: t.first_date,
                latest_date: t.latest_date,
                messages: t.messages.iter().map(|k| k.to_hex()).collect(),
                emails: t.email_count(),
                senders: t.senders.clone(),
                unread: t.unread,
                has_attachment: t.has_attachment,
            })
            .collect())
    }

    /// Answers a question, its rewrite and the answer's words as `on_event` events;
    /// a named session's conversation is read before and kept after.
    pub fn ask(
        &self,
        question: Question<'_>,
        answerer: &dyn Answerer,
        on_event: &mut dyn FnMut(AskEvent),
    ) -> Result<AskOutcome> {
        self.shared.read(|engine| {
            let mut conversation = match question.session {
                Some(name) => engine.load_session(name)?,
                None => Conversation::default(),
            };
            let opts = AskOptions {
                thread: question
                    .thread
                    .map(|t| engine.resolve_thread(t))
                    .transpose()?,
                widen: question.thread.is_none() || question.widen,
                ..AskOptions::default()
            };
            let outcome =
                engine.ask(question.text, &mut conversation, answerer, &opts, on_event)?;
            if let Some(name) = question.session {
                engine.save_session(name, &conversation)?;
            }
            Ok(outcome)
        })
    }

    /// Asks a question set's items and scores the answers.
    pub fn eval(
        &self,
        items: &[EvalItem],
        answerer: &dyn Answerer,
        on_result: &mut dyn FnMut(&crate::engine::ItemResult),
    ) -> Result<EvalReport> {
        self.shared
            .read(|e| e.run_eval(items, answerer, &AskOptions::default(), on_result))
    }

    /// Ingests mail now (its attachments and embedding are the caller's to queue);
    /// every front end then lists the new threads.
    pub fn ingest_now(
        &self,
        paths: &[PathBuf],
        progress: &mut dyn FnMut(&IngestProgress),
    ) -> Result<IngestReport> {
        let report = self.shared.write().ingest(paths, progress)?;
        self.send(EngineRequest::Threads);
        Ok(report)
    }

    /// Moves the messages `query` matches, at most `limit`.
    pub fn move_matching(&self, query: &str, to: &MoveTarget, limit: usize) -> Result<MoveReport> {
        let report = self.shared.write().move_matching(query, to, limit)?;
        if report.moved > 0 {
            // IMAP moves go to their servers with the next sync.
            self.send(EngineRequest::Threads);
        }
        Ok(report)
    }

    /// Indexes every stored message again and queues attachments never read.
    pub fn reindex(&self) -> Result<ReindexReport> {
        let started = std::time::Instant::now();
        let report = {
            let mut engine = self.shared.write();
            let indexed = engine.reindex(&mut |_, _| {})?;
            let attachments_queued = engine.queue_unread_attachments()?;
            ReindexReport {
                indexed,
                seconds: started.elapsed().as_secs_f64(),
                attachments_queued,
            }
        };
        self.send(EngineRequest::Threads);
        Ok(report)
    }

    pub fn expunge_preview(&self) -> Result<ExpungeReport> {
        self.shared.read(|e| e.expunge_preview())
    }

    /// Removes the trash for good.
    pub fn expunge_trash(&self) -> Result<ExpungeReport> {
        let report = self.shared.write().expunge_trash()?;
        if report.removed > 0 {
            self.send(EngineRequest::Threads);
        }
        Ok(report)
    }

    /// Syncs IMAP accounts now; every front end then lists the new threads.
    pub fn sync(&self, accounts: &[AccountConfig], opts: &SyncOptions) -> Result<SyncReport> {
        let report = self.shared.write().sync(accounts, opts)?;
        self.send(EngineRequest::Threads);
        Ok(report)
    }
}
