//! The long-running side of the engine handle: ingest, an IMAP sync on request and
//! embedding in the background with progress, the thread list in batches, a thread's
//! messages, attachments saved for a viewer.

use super::{EngineEvent, Progress, Shared, PROGRESS_EVERY, THREAD_BATCH};
use crate::engine::{attachment_states, AttachmentStates, WatchCommand};
use crate::mail::model::{MessageKey, ThreadId};
use crate::store::{Store, StoredMessage, ThreadSummary};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use tokio::sync::oneshot;

/// What a background run does, in this order.
pub(super) struct Work {
    /// Local mail sources to ingest.
    pub paths: Option<Vec<PathBuf>>,
    /// Sync every IMAP account (through the watch loop) and wait for it.
    pub imap: bool,
    /// Then read attachments and embed what is pending.
    pub embed: bool,
}

impl Work {
    /// Adds another request's work to this one (a sync asked for during an ingest).
    fn merge(&mut self, other: Work) {
        if let Some(more) = other.paths {
            let paths = self.paths.get_or_insert_with(Vec::new);
            for p in more {
                if !paths.contains(&p) {
                    paths.push(p);
                }
            }
        }
        self.imap |= other.imap;
        self.embed |= other.embed;
    }
}

/// Runs `work`, then an idle report. While other background work runs, `work` waits
/// for it and runs next (requests that arrive meanwhile are merged into one run).
pub(super) fn background(shared: &Shared, work: Work) {
    // Queued before the busy flag is tried: whoever holds the flag after this sees it.
    queue(shared, work);
    if shared.background_busy.swap(true, Ordering::SeqCst) {
        return;
    }
    run_queued(shared);
}

/// [`background`] for work a front end asked for: its request was counted as
/// asked when sent ([`super::EngineHandle::send`]), and is queued now.
pub(super) fn background_asked(shared: &Shared, work: Work) {
    queue(shared, work);
    asked_work_queued(shared);
    if shared.background_busy.swap(true, Ordering::SeqCst) {
        return;
    }
    run_queued(shared);
}

/// One asked-for piece of work has been queued (or will never be).
pub(super) fn asked_work_queued(shared: &Shared) {
    let _ = shared
        .work_asked
        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
}

/// Whether background work runs, waits in the queue or has been asked for.
pub(super) fn busy(shared: &Shared) -> bool {
    shared.work_asked.load(Ordering::SeqCst) > 0
        || shared.background_busy.load(Ordering::SeqCst)
        || has_queued(shared)
}

/// The queue slot; a panic elsewhere while holding it leaves nothing half-written.
fn queued(shared: &Shared) -> std::sync::MutexGuard<'_, Option<Work>> {
    shared
        .queued_work
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn has_queued(shared: &Shared) -> bool {
    queued(shared).is_some()
}

fn queue(shared: &Shared, work: Work) {
    let mut queued = queued(shared);
    match queued.as_mut() {
        Some(waiting) => waiting.merge(work),
        None => *queued = Some(work),
    }
}

fn take_queued(shared: &Shared) -> Option<Work> {
    queued(shared).take()
}

/// Runs the queued work while holding `background_busy` (taken by the caller), until
/// none is left; releases the flag.
fn run_queued(shared: &Shared) {
    loop {
        match take_queued(shared) {
            Some(work) => run(shared, work, true),
            None => shared.background_busy.store(false, Ordering::SeqCst),
        }
        // `run` released the flag: work queued meanwhile runs now, unless another
        // caller took the flag and runs it.
        let waiting = has_queued(shared);
        if !waiting || shared.background_busy.swap(true, Ordering::SeqCst) {
            return;
        }
    }
}

/// Embeds mail a sync just stored. Quiet: the user was told of the mail already. When
/// other background work runs, that work embeds it before it ends.
pub(super) fn embed_new_mail(shared: &Shared) {
    shared.embed_again.store(true, Ordering::SeqCst);
    if shared.background_busy.swap(true, Ordering::SeqCst) {
        return;
    }
    let work = Work {
        paths: None,
        imap: false,
        embed: true,
    };
    run(shared, work, false);
    // A request that arrived during this quiet run waits for nobody else.
    let waiting = has_queued(shared);
    if waiting && !shared.background_busy.swap(true, Ordering::SeqCst) {
        run_queued(shared);
    }
}

/// Runs `work` while holding `background_busy`; `announce` puts what was done in the
/// idle report.
fn run(shared: &Shared, work: Work, announce: bool) {
    let mut summary = Vec::new();
    let listed = work.paths.is_some() || work.imap;
    if let Some(paths) = work.paths {
        match ingest(shared, &paths) {
            Ok(s) => summary.push(s),
            Err(e) => shared.error(None, e),
        }
    }
    if work.imap {
        summary.push(sync_imap(shared));
    }
    if listed {
        send_threads(shared);
    }
    if work.embed {
        summary.extend(embed_pending(shared));
    }
    loop {
        shared.background_busy.store(false, Ordering::SeqCst);
        // New mail stored meanwhile asked for embedding and found the work busy: the
        // one who takes the work next embeds it (this run, unless another started).
        if !shared.embed_again.load(Ordering::SeqCst)
            || shared.background_busy.swap(true, Ordering::SeqCst)
        {
            break;
        }
        summary.extend(embed_pending(shared));
    }
    if !announce {
        summary.clear();
    }
    shared.emit(EngineEvent::Progress(Progress::Idle {
        summary: summary.join("; "),
    }));
}

/// Attachments, then embedding; what was done, for the idle report.
fn embed_pending(shared: &Shared) -> Vec<String> {
    shared.embed_again.store(false, Ordering::SeqCst);
    let mut summary = Vec::new();
    if let Err(e) = read_graph(shared) {
        shared.error(None, e);
    }
    match read_attachments(shared) {
        Ok(Some(s)) => summary.push(s),
        Ok(None) => {}
        Err(e) => shared.error(None, e),
    }
    match embed(shared) {
        Ok(Some(s)) => summary.push(s),
        Ok(None) => {}
        Err(e) => shared.error(None, e),
    }
    summary
}

/// Asks the watch loop to sync every account now and waits for it. Failures are
/// reported by the loop as error events; the summary only names them.
fn sync_imap(shared: &Shared) -> String {
    let stopped = "IMAP sync has stopped".to_string();
    let Some(commands) = shared.imap_commands() else {
        return stopped;
    };
    let (done, outcomes) = oneshot::channel();
    if commands
        .send(WatchCommand::SyncAll { done: Some(done) })
        .is_err()
    {
        return stopped;
    }
    let Ok(outcomes) = outcomes.blocking_recv() else {
        return stopped;
    };
    outcomes
        .iter()
        .map(|o| match &o.added {
            Ok(1) => format!("{}: 1 new message", o.account),
            Ok(n) => format!("{}: {n} new messages", o.account),
            Err(_) => format!("{}: sync failed", o.account),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn ingest(shared: &Shared, paths: &[PathBuf]) -> crate::engine::Result<String> {
    let mut last = Instant::now() - PROGRESS_EVERY;
    let mut engine = shared.write();
    let report = engine.ingest(paths, &mut |p| {
        if last.elapsed() >= PROGRESS_EVERY || p.done == p.total {
            last = Instant::now();
            shared.progress(Progress::Ingest {
                phase: p.phase,
                done: p.done,
                total: p.total,
            });
        }
    })?;
    let messages = if report.added == 1 {
        "message"
    } else {
        "messages"
    };
    let threads = if report.threads == 1 {
        "thread"
    } else {
        "threads"
    };
    Ok(format!(
        "ingested {} new {messages} ({} {threads})",
        report.added, report.threads
    ))
}

/// Runs the graph jobs (people and facts of new mail) in steps, each under the read
/// lock, yielding to writers between steps. Quiet: the graph is small, fast work.
fn read_graph(shared: &Shared) -> crate::engine::Result<()> {
    shared.read(|e| e.queue_graph_if_behind())?;
    let known = shared.read(|e| e.mailbox_context())?.known_people;
    let mut report = crate::engine::GraphReport::default();
    loop {
        shared.writers_waiting.until_none();
        if !shared.read(|e| e.graph_step(&known, &mut report))? {
            return Ok(());
        }
    }
}

/// Runs the attachment jobs (PDF pages, text attachments) before embedding, so their
/// passages are embedded and citable like bodies.
fn read_attachments(shared: &Shared) -> crate::engine::Result<Option<String>> {
    let stop = AtomicBool::new(false);
    let report = shared.write().extract_attachments(
        &crate::attach::PdfLimits::default(),
        &stop,
        &mut |_| {},
    )?;
    Ok((report.extracted > 0).then(|| format!("read {} attachments", report.extracted)))
}

/// Runs the embedding jobs in steps: each step's jobs are claimed under the read
/// lock, the model runs with no lock held, and the vectors are stored under a short
/// write lock, so searches and questions never wait for a batch to be embedded.
/// Returns None when the model is not there (lexical search still works).
fn embed(shared: &Shared) -> crate::engine::Result<Option<String>> {
    let model = match shared.read(|e| e.embedder()) {
        Ok(m) => m,
        Err(e) => {
            let why = format!("no semantic search: {e}");
            // Once to every front end (a server keeps it for its next client).
            if !shared.model_missing_told.swap(true, Ordering::SeqCst) {
                shared.error(None, why.clone());
            }
            return Ok(Some(why));
        }
    };
    let mut report = crate::engine::EmbedReport::default();
    let mut last = Instant::now() - PROGRESS_EVERY;
    let mut steps = 0usize;
    loop {
        shared.writers_waiting.until_none();
        let Some(step) = shared.read(|e| e.embed_step_claim())? else {
            break;
        };
        let texts = step.texts();
        let vectors = if texts.is_empty() {
            Ok(Vec::new())
        } else {
            model.embed_in_background(&texts)
        };
        drop(texts);
        shared
            .write()
            .embed_step_store(step, vectors, &mut report)?;
        steps += 1;
        if steps.is_multiple_of(EMBED_SAVE_EVERY) {
            shared.write().embed_save()?;
        }
        if last.elapsed() >= PROGRESS_EVERY {
            last = Instant::now();
            let p = shared.read(|e| e.embed_progress())?;
            shared.progress(Progress::Embed {
                done: p.done,
                total: p.total,
            });
        }
    }
    shared.write().embed_save()?;
    let p = shared.read(|e| e.embed_progress())?;
    shared.progress(Progress::Embed {
        done: p.done,
        total: p.total,
    });
    let embedded = report.embedded;
    let passages = if embedded == 1 { "passage" } else { "passages" };
    Ok((embedded > 0).then(|| format!("embedded {embedded} {passages}")))
}

/// Embedding steps between two saves of the vector index.
const EMBED_SAVE_EVERY: usize = 50;

/// Sends the thread list in batches as it is read; each batch is sorted newest first
/// and the front end merges them, so a large mailbox shows threads before its whole
/// list has been read.
pub(super) fn send_threads(shared: &Shared) {
    let mut batch = Vec::with_capacity(THREAD_BATCH);
    let mut first = true;
    for t in shared.store.threads_iter() {
        match t {
            Ok(t) => batch.push(t),
            Err(e) => shared.error(None, e),
        }
        if batch.len() == THREAD_BATCH {
            let mut threads = std::mem::take(&mut batch);
            sort_threads(&mut threads);
            shared.emit(EngineEvent::ThreadList {
                threads,
                first,
                complete: false,
            });
            first = false;
        }
    }
    sort_threads(&mut batch);
    shared.emit(EngineEvent::ThreadList {
        threads: batch,
        first,
        complete: true,
    });
    match shared.read(|e| e.thread_tags(None)) {
        Ok(tags) => shared.emit(EngineEvent::ThreadTags { tags, every: true }),
        Err(e) => shared.error(None, e),
    }
}

/// Newest activity first; ties by id so the order is stable.
pub fn sort_threads(threads: &mut [ThreadSummary]) {
    threads.sort_by(|a, b| b.latest_date.cmp(&a.latest_date).then(a.id.cmp(&b.id)));
}

/// A thread's messages by date, with the state of their attachments.
pub(super) fn thread_messages(
    store: &Store,
    id: &ThreadId,
    show: Option<&MessageKey>,
) -> crate::engine::Result<ThreadView> {
    let mut view = ThreadView::default();
    let Some(summary) = store.thread(id)? else {
        return Ok(view);
    };
    let mut messages = Vec::with_capacity(summary.messages.len());
    for key in &summary.messages {
        if let Some(m) = store.message(key)? {
            messages.push(m);
        }
    }
    messages.sort_by_key(|m| m.date);
    let (messages, also_in) = crate::engine::mailbox::copies::one_per_email(messages, show);
    for m in &messages {
        if !m.attachments.is_empty() {
            view.attachments.insert(m.key, attachment_states(store, m)?);
        }
    }
    view.messages = messages;
    view.also_in = also_in;
    Ok(view)
}

/// A thread as the reader shows it: one copy of each email, oldest first.
#[derive(Default)]
pub(super) struct ThreadView {
    pub messages: Vec<StoredMessage>,
    pub attachments: AttachmentStates,
    pub also_in: crate::engine::mailbox::copies::AlsoIn,
}

/// Writes the named attachment of a message under the data dir's `open/` folder.
pub(super) fn save_attachment(
    shared: &Shared,
    key: &MessageKey,
    name: &str,
) -> Result<PathBuf, String> {
    let msg = shared
        .store
        .message(key)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no message {}", key.to_hex()))?;
    let info = msg
        .attachments
        .iter()
        .find(|a| a.name.as_deref() == Some(name))
        .ok_or_else(|| format!("the message has no attachment {name}"))?;
    let bytes = shared
        .store
        .attachment_bytes(key, info.index)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("the bytes of {name} are not stored"))?;
    let dir = shared.data_dir.join("open");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    // Only the file name part: a name from mail must not climb out of the folder.
    let file = std::path::Path::new(name)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| "attachment.pdf".into());
    let path = dir.join(format!("{}-{file}", &key.to_hex()[..8]));
    std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
    Ok(path)
}
