//! The ingest pipeline: discover → read, parse, clean and chunk on worker threads →
//! write to sled in batches → rethread → index new and rethreaded messages in tantivy.
//!
//! Nothing here aborts on bad mail: a message that cannot be parsed is quarantined
//! with its bytes and reason, a file that cannot be read is reported, and ingest goes on.

use crate::engine::ask::memory::release_free_memory;
use crate::engine::jobs::attachments::enqueue_attachment_jobs;
use crate::engine::jobs::embedding::enqueue_embed_jobs;
use crate::engine::jobs::graph::enqueue_graph_jobs;
use crate::engine::jobs::prepare::{prepare, Prepared};
use crate::engine::mailbox::threading::rethread;
use crate::engine::{Engine, EngineError};
use crate::index::chunk::ChunkConfig;
use crate::mail::identity::content_key;
use crate::mail::model::{MessageKey, ThreadId};
use crate::mail::parse::parse_message;
use crate::source::{discover, read_source_file, RawMail, SourceFile, SourceLocation};
use crate::store::jobs::JobQueue;
use crate::store::{embed_id, NewMessage, QuarantineItem, SourceCursor, Store, StoreError};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver};
use std::time::Instant;

/// Messages written to sled per batch.
const BATCH: usize = 512;
/// Batches between returning freed memory to the system while reading.
const BATCHES_PER_TRIM: usize = 16;

/// Which step ingest is at, for progress reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum IngestPhase {
    Scanning,
    Reading,
    Threading,
    Indexing,
    Done,
}

#[derive(Debug, Clone, Serialize)]
pub struct IngestProgress {
    pub phase: IngestPhase,
    pub done: usize,
    pub total: usize,
}

/// What an ingest did, as counted.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct IngestReport {
    pub files_found: usize,
    pub files_unchanged: usize,
    pub files_read: usize,
    pub messages_read: usize,
    pub added: usize,
    pub already_known: usize,
    pub quarantined: usize,
    /// Files that could not be read, or were not mail, with the reason.
    pub file_errors: Vec<(String, String)>,
    pub rethreaded: usize,
    pub indexed: usize,
    /// Jobs queued for stored mail that had none (after an interrupted run).
    pub reconciled: crate::engine::ReconcileReport,
    pub threads: usize,
    /// New messages of muted threads, marked read and archived.
    #[serde(default)]
    pub muted: usize,
    pub seconds: f64,
}

/// What a worker learned about one message.
pub(in crate::engine) enum Outcome {
    Known(MessageKey),
    New(Box<Prepared>),
    Quarantine(Box<QuarantineItem>),
}

enum WorkItem {
    Message { file: usize, outcome: Outcome },
    FileDone { file: usize, error: Option<String> },
}

pub(in crate::engine) fn run(
    engine: &mut Engine,
    paths: &[PathBuf],
    progress: &mut dyn FnMut(&IngestProgress),
) -> Result<IngestReport, EngineError> {
    let started = Instant::now();
    let mut report = IngestReport::default();
    progress(&IngestProgress {
        phase: IngestPhase::Scanning,
        done: 0,
        total: 0,
    });
    for p in paths {
        let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        engine.store.add_root(&abs.to_string_lossy())?;
    }
    crate::engine::open::record_mail_roots(&engine.data_dir, &engine.store.roots()?)?;
    let found = discover(paths)?;
    report.files_found = found.files.len();
    for (path, why) in &found.unreadable {
        quarantine_unreadable(&engine.store, path, why)?;
        report.quarantined += 1;
        report
            .file_errors
            .push((path.display().to_string(), why.clone()));
    }
    let mut todo = Vec::new();
    for file in found.files {
        let path = file.path.to_string_lossy().into_owned();
        match engine.store.source_cursor(&path)? {
            Some(c) if c.mtime_ns == file.mtime_ns && c.size == file.size => {
                report.files_unchanged += 1;
            }
            _ => todo.push(file),
        }
    }
    report.files_read = todo.len();

    if !todo.is_empty() {
        engine.store.set_documents_owed(true)?;
    }
    let added = read_and_store(engine, &todo, &mut report, progress)?;
    release_free_memory();

    if added.is_empty() && report.files_read == 0 {
        engine.store.set_documents_owed(false)?;
        report.threads = engine.store.thread_count()?;
        report.seconds = started.elapsed().as_secs_f64();
        progress(&IngestProgress {
            phase: IngestPhase::Done,
            done: 0,
            total: 0,
        });
        return Ok(report);
    }

    let (threads, rethreaded) =
        rethread_and_index(engine, &added, AddedDocuments::Missing, progress)?;
    report.threads = threads;
    report.rethreaded = rethreaded;
    report.indexed = added.len();
    report.muted = engine.quiet_muted(&added)?;
    engine.store.set_documents_owed(false)?;
    report.reconciled = engine.reconcile_derived_work()?;
    crate::engine::mailbox::privacy::make_private(&engine.data_dir)
        .map_err(|e| StoreError::Sled(e.into()))?;
    engine.store.flush()?;
    report.seconds = started.elapsed().as_secs_f64();
    progress(&IngestProgress {
        phase: IngestPhase::Done,
        done: report.indexed,
        total: report.indexed,
    });
    Ok(report)
}

/// Quarantines a folder or file that could not be read, with the reason, so `quoth
/// quarantine` lists it; the rest of the ingest goes on.
fn quarantine_unreadable(
    store: &Store,
    path: &std::path::Path,
    why: &str,
) -> Result<(), EngineError> {
    store.quarantine(&QuarantineItem {
        location: crate::source::SourceLocation::File {
            path: path.display().to_string(),
        },
        folder: String::new(),
        reason: format!("could not be read: {why}"),
        raw: Vec::new(),
        at: chrono::Utc::now().timestamp(),
    })?;
    Ok(())
}

/// Whether the messages just added have their search documents yet.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(in crate::engine) enum AddedDocuments {
    /// Indexed as they were stored, each as its own thread.
    Indexed,
    /// Not indexed: they are indexed once, after threading, with their thread.
    Missing,
}

/// Rethreads the store after `added` came in (or messages left it) and indexes the
/// messages whose document is missing or whose thread changed; returns the thread
/// count and how many documents were replaced because a thread changed.
pub(in crate::engine) fn rethread_and_index(
    engine: &mut Engine,
    added: &[MessageKey],
    documents: AddedDocuments,
    progress: &mut dyn FnMut(&IngestProgress),
) -> Result<(usize, usize), EngineError> {
    progress(&IngestProgress {
        phase: IngestPhase::Threading,
        done: 0,
        total: added.len(),
    });
    let threading = rethread(&engine.store)?;
    release_free_memory();
    let added_set: HashSet<MessageKey> = added.iter().copied().collect();
    let mut to_index: Vec<(MessageKey, bool)> = match documents {
        // Indexed each as its own thread: only those that joined a thread, and
        // older messages whose thread changed, are indexed again.
        AddedDocuments::Indexed => threading
            .changed
            .iter()
            .filter(|(k, t)| !(added_set.contains(k) && *t == ThreadId::of_root(k)))
            .map(|(k, _)| (*k, true))
            .collect(),
        AddedDocuments::Missing => threading
            .changed
            .iter()
            .filter(|(k, _)| !added_set.contains(k))
            .map(|(k, _)| (*k, true))
            .collect(),
    };
    let replaced = to_index.len();
    if documents == AddedDocuments::Missing {
        to_index.extend(added.iter().map(|k| (*k, false)));
    }
    engine.index_messages(&to_index, &mut |done, total| {
        progress(&IngestProgress {
            phase: IngestPhase::Indexing,
            done,
            total,
        })
    })?;
    Ok((threading.threads, replaced))
}

/// Parses, cleans and chunks one message, unless the store already has it.
pub(in crate::engine) fn classify(store: &Store, mail: RawMail, cfg: &ChunkConfig) -> Outcome {
    let key = content_key(&mail.raw);
    if store.contains_message(&key).unwrap_or(false) {
        follow_renamed_file(store, &key, &mail);
        return Outcome::Known(key);
    }
    match parse_message(&mail.raw) {
        Ok(parsed) => Outcome::New(Box::new(prepare(key, &mail, parsed, cfg))),
        Err(e) => Outcome::Quarantine(Box::new(QuarantineItem {
            location: mail.location.clone(),
            folder: mail.folder.clone(),
            reason: e.to_string(),
            raw: mail.raw,
            at: chrono::Utc::now().timestamp(),
        })),
    }
}

/// A known message read from a file other than the one the store names, which is
/// gone: the file was renamed (a flag set here or by another client, a crash between
/// a rename and its record). The store follows it to this file and its flags.
fn follow_renamed_file(store: &Store, key: &MessageKey, mail: &RawMail) {
    let SourceLocation::File { path: here } = &mail.location else {
        return;
    };
    let Ok(Some(stored)) = store.message(key) else {
        return;
    };
    let SourceLocation::File { path: was } = &stored.location else {
        return;
    };
    if was != here && !std::path::Path::new(was).exists() {
        // A failed write leaves the old record, which the next ingest repairs.
        let _ = store.relocate(key, mail.location.clone(), &mail.folder, &mail.flags);
    }
}

/// Writes prepared messages to sled in one batch and queues their embed jobs.
pub(in crate::engine) fn commit_prepared(
    store: &Store,
    jobs: &JobQueue,
    pending: &[Prepared],
) -> Result<(), EngineError> {
    let batch: Vec<NewMessage> = pending
        .iter()
        .map(|p| NewMessage {
            message: &p.message,
            facts: &p.facts,
            chunks: &p.chunks,
            attachment_bytes: &p.attachment_bytes,
            reply_to: &p.reply_to,
        })
        .collect();
    if batch.is_empty() {
        return Ok(());
    }
    // Until the jobs below are queued, a kill would leave stored texts without them:
    // the flag makes the next open reconcile.
    store.set_derived_work_owed(true)?;
    store.insert_messages(&batch)?;
    let with_attachments: Vec<_> = pending
        .iter()
        .filter(|p| !p.message.attachments.is_empty())
        .map(|p| {
            let m = &p.message;
            (
                m.key,
                m.attachments.as_slice(),
                p.attachment_bytes.as_slice(),
            )
        })
        .collect();
    enqueue_attachment_jobs(store, jobs, &with_attachments)?;
    let embed_ids: Vec<u64> = pending
        .iter()
        .flat_map(|p| p.chunks.iter().map(|c| embed_id(&c.embed_text)))
        .collect();
    enqueue_embed_jobs(jobs, &embed_ids)?;
    let keys: Vec<_> = pending.iter().map(|p| p.message.key).collect();
    enqueue_graph_jobs(jobs, &keys)?;
    Ok(())
}

/// Reads the files on worker threads and writes what they find; returns the keys added.
fn read_and_store(
    engine: &mut Engine,
    files: &[SourceFile],
    report: &mut IngestReport,
    progress: &mut dyn FnMut(&IngestProgress),
) -> Result<Vec<MessageKey>, EngineError> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    let next = AtomicUsize::new(0);
    let (tx, rx) = sync_channel::<WorkItem>(256);
    let store = &engine.store;
    let cfg = ChunkConfig::default();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let next = &next;
            let cfg = &cfg;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(file) = files.get(i) else { break };
                let error = match read_source_file(file) {
                    Ok(mails) => {
                        for mail in mails {
                            let outcome = classify(store, mail, cfg);
                            if tx.send(WorkItem::Message { file: i, outcome }).is_err() {
                                return;
                            }
                        }
                        None
                    }
                    Err(e) => Some(e.to_string()),
                };
                if tx.send(WorkItem::FileDone { file: i, error }).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        write_results((&engine.store, &engine.jobs), files, rx, report, progress)
    })
}

/// The single writer: batches new messages into sled, and advances a file's cursor
/// only once every message it holds is committed. Search documents are written
/// later, once threading has given each message its thread.
fn write_results(
    (store, jobs): (&Store, &JobQueue),
    files: &[SourceFile],
    rx: Receiver<WorkItem>,
    report: &mut IngestReport,
    progress: &mut dyn FnMut(&IngestProgress),
) -> Result<Vec<MessageKey>, EngineError> {
    let mut pending: Vec<Prepared> = Vec::with_capacity(BATCH);
    let mut pending_cursors: Vec<(usize, SourceCursor)> = Vec::new();
    let mut per_file: HashMap<usize, SourceCursor> = HashMap::new();
    let mut seen_this_run: HashSet<MessageKey> = HashSet::new();
    let mut added = Vec::new();
    let mut files_done = 0;
    let mut batches = 0;
    let flush = |pending: &mut Vec<Prepared>,
                 cursors: &mut Vec<(usize, SourceCursor)>|
     -> Result<(), EngineError> {
        commit_prepared(store, jobs, pending)?;
        pending.clear();
        for (file, cursor) in cursors.drain(..) {
            store.set_source_cursor(&files[file].path.to_string_lossy(), &cursor)?;
        }
        Ok(())
    };
    for item in rx {
        match item {
            WorkItem::Message { file, outcome } => {
                report.messages_read += 1;
                let cursor = per_file.entry(file).or_insert_with(|| SourceCursor {
                    mtime_ns: files[file].mtime_ns,
                    size: files[file].size,
                    messages: Vec::new(),
                    quarantined: 0,
                });
                match outcome {
                    Outcome::Known(key) => {
                        report.already_known += 1;
                        cursor.messages.push(key);
                    }
                    Outcome::New(prepared) => {
                        let key = prepared.message.key;
                        cursor.messages.push(key);
                        if seen_this_run.insert(key) {
                            report.added += 1;
                            added.push(key);
                            pending.push(*prepared);
                        } else {
                            report.already_known += 1;
                        }
                    }
                    Outcome::Quarantine(item) => {
                        report.quarantined += 1;
                        cursor.quarantined += 1;
                        store.quarantine(&item)?;
                    }
                }
                if pending.len() >= BATCH {
                    flush(&mut pending, &mut pending_cursors)?;
                    batches += 1;
                    if batches % BATCHES_PER_TRIM == 0 {
                        release_free_memory();
                    }
                    progress(&IngestProgress {
                        phase: IngestPhase::Reading,
                        done: files_done,
                        total: files.len(),
                    });
                }
            }
            WorkItem::FileDone { file, error } => {
                files_done += 1;
                let cursor = per_file.remove(&file).unwrap_or(SourceCursor {
                    mtime_ns: files[file].mtime_ns,
                    size: files[file].size,
                    messages: Vec::new(),
                    quarantined: 0,
                });
                match error {
                    Some(e) => {
                        quarantine_unreadable(store, &files[file].path, &e)?;
                        report.quarantined += 1;
                        report
                            .file_errors
                            .push((files[file].path.display().to_string(), e));
                    }
                    None => pending_cursors.push((file, cursor)),
                }
            }
        }
    }
    flush(&mut pending, &mut pending_cursors)?;
    progress(&IngestProgress {
        phase: IngestPhase::Reading,
        done: files_done,
        total: files.len(),
    });
    Ok(added)
}
