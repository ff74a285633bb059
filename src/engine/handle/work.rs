//! The long-running side of the engine handle: ingest and embedding in the background
//! with progress, the thread list in batches, a thread's messages, attachments saved
//! for a viewer.

use super::{EngineEvent, Progress, Shared, PROGRESS_EVERY, THREAD_BATCH};
use crate::engine::{attachment_states, AttachmentStates};
use crate::mail::model::{MessageKey, ThreadId};
use crate::store::{Store, StoredMessage, ThreadSummary};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Ingest (when `paths` is given), then embedding (when `embed`), then an idle report.
pub(super) fn background(shared: &Shared, paths: Option<Vec<PathBuf>>, embed_after: bool) {
    if shared.background_busy.swap(true, Ordering::SeqCst) {
        shared.error(None, "background work is already running");
        return;
    }
    let mut summary = Vec::new();
    if let Some(paths) = paths {
        match ingest(shared, &paths) {
            Ok(s) => summary.push(s),
            Err(e) => shared.error(None, e),
        }
        send_threads(shared);
    }
    if embed_after {
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
    }
    shared.background_busy.store(false, Ordering::SeqCst);
    shared.emit(EngineEvent::Progress(Progress::Idle {
        summary: summary.join("; "),
    }));
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
    Ok(format!(
        "ingested {} new messages ({} threads)",
        report.added, report.threads
    ))
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

/// Runs the embedding jobs in steps, giving the lock to waiting reads in between.
/// Returns None when the model is not there (lexical search still works).
fn embed(shared: &Shared) -> crate::engine::Result<Option<String>> {
    if let Err(e) = shared.read(|e| e.embedder()) {
        return Ok(Some(format!("no semantic search: {e}")));
    }
    let mut embedded = 0;
    let mut last = Instant::now() - PROGRESS_EVERY;
    loop {
        while shared.readers_waiting.load(Ordering::SeqCst) > 0 {
            std::thread::sleep(Duration::from_millis(2));
        }
        shared.yield_embed.store(false, Ordering::SeqCst);
        let report = shared
            .write()
            .embed_pending(&shared.yield_embed, &mut |p| {
                if last.elapsed() >= PROGRESS_EVERY {
                    last = Instant::now();
                    shared.progress(Progress::Embed {
                        done: p.done,
                        total: p.total,
                    });
                }
            })?;
        embedded += report.embedded;
        let left = report
            .progress
            .total
            .saturating_sub(report.progress.done + report.progress.failed);
        if !shared.yield_embed.load(Ordering::SeqCst) || left == 0 {
            shared.progress(Progress::Embed {
                done: report.progress.done,
                total: report.progress.total,
            });
            break;
        }
    }
    Ok((embedded > 0).then(|| format!("embedded {embedded} passages")))
}

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
}

/// Newest activity first; ties by id so the order is stable.
pub fn sort_threads(threads: &mut [ThreadSummary]) {
    threads.sort_by(|a, b| b.latest_date.cmp(&a.latest_date).then(a.id.cmp(&b.id)));
}

/// A thread's messages by date, with the state of their attachments.
pub(super) fn thread_messages(
    store: &Store,
    id: &ThreadId,
) -> crate::engine::Result<(Vec<StoredMessage>, AttachmentStates)> {
    let mut states = AttachmentStates::new();
    let Some(summary) = store.thread(id)? else {
        return Ok((Vec::new(), states));
    };
    let mut messages = Vec::with_capacity(summary.messages.len());
    for key in &summary.messages {
        if let Some(m) = store.message(key)? {
            if !m.attachments.is_empty() {
                states.insert(m.key, attachment_states(store, &m)?);
            }
            messages.push(m);
        }
    }
    messages.sort_by_key(|m| m.date);
    Ok((messages, states))
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
