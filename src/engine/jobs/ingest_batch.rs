//! Mail held in memory (fetched from an IMAP server) through the same steps as mail
//! read from files: parse, clean and chunk on worker threads (needing only the store,
//! so a caller that shares the engine does this without holding it), then one sled
//! batch, tantivy documents, embed jobs. Rethreading is left to the caller, which may
//! store several batches and rethread once.
//!
//! A batch may be a replay (the process died after storing it, before its sync cursor
//! moved): messages already stored are reported as known, and if the search index
//! lost their documents in the crash they are indexed again.

use crate::engine::jobs::embedding::enqueue_embed_jobs;
use crate::engine::jobs::ingest::{classify, commit_prepared, Outcome};
use crate::engine::jobs::prepare::Prepared;
use crate::engine::{Engine, EngineError};
use crate::index::chunk::ChunkConfig;
use crate::mail::identity::content_key;
use crate::mail::model::{MessageKey, ThreadId};
use crate::source::RawMail;
use crate::store::{embed_id, QuarantineItem, Store};
use std::collections::HashSet;
use std::panic::AssertUnwindSafe;

/// What became of one message of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailOutcome {
    Added(MessageKey),
    /// Already stored (from this source, another folder, or local mail).
    Known(MessageKey),
    /// Could not be parsed: kept in quarantine with its reason.
    Quarantined(MessageKey),
}

impl MailOutcome {
    pub fn key(&self) -> MessageKey {
        match self {
            Self::Added(k) | Self::Known(k) | Self::Quarantined(k) => *k,
        }
    }
}

/// A batch parsed, cleaned and chunked, not yet stored: the slow part of storing
/// mail, done without the engine (only the store is read, to skip known mail).
pub(in crate::engine) struct PreparedBatch {
    keys: Vec<MessageKey>,
    outcomes: Vec<Outcome>,
}

/// Parses, cleans and chunks a batch on worker threads.
pub(in crate::engine) fn prepare_mails(store: &Store, mails: Vec<RawMail>) -> PreparedBatch {
    let keys: Vec<MessageKey> = mails.iter().map(|m| content_key(&m.raw)).collect();
    let outcomes = classify_parallel(store, mails);
    PreparedBatch { keys, outcomes }
}

/// Writes a prepared batch (outcomes in input order): the part that needs the engine.
/// Mail stored by someone else since it was prepared (a local ingest running beside
/// a sync) counts as known. Documents are added to the tantivy writer but not
/// committed: the caller commits once it is ready.
pub(in crate::engine) fn commit_mails(
    engine: &mut Engine,
    batch: PreparedBatch,
) -> Result<Vec<MailOutcome>, EngineError> {
    let mut seen = HashSet::new();
    let mut pending: Vec<Prepared> = Vec::new();
    let mut result = Vec::with_capacity(batch.keys.len());
    for (key, outcome) in batch.keys.into_iter().zip(batch.outcomes) {
        let stored_since =
            matches!(outcome, Outcome::New(_)) && engine.store.contains_message(&key)?;
        result.push(match outcome {
            Outcome::New(prepared) if !stored_since && seen.insert(key) => {
                // Replace, not add: a crash may have left a committed document for a
                // message whose sled write was lost.
                engine.retrieval.lexical.upsert(
                    &prepared.message,
                    ThreadId::of_root(&key),
                    true,
                )?;
                pending.push(*prepared);
                MailOutcome::Added(key)
            }
            Outcome::New(_) | Outcome::Known(_) => {
                repair_known(engine, &key)?;
                MailOutcome::Known(key)
            }
            Outcome::Quarantine(item) => {
                engine.store.quarantine(&item)?;
                MailOutcome::Quarantined(key)
            }
        });
    }
    commit_prepared(&engine.store, &engine.jobs, &pending)?;
    Ok(result)
}

/// A stored message without a search document lost it to a crash between the sled
/// write and the tantivy commit (and perhaps its embed jobs too): put both back.
fn repair_known(engine: &mut Engine, key: &MessageKey) -> Result<(), EngineError> {
    if engine.retrieval.lexical.contains(key)? {
        return Ok(());
    }
    let Some(msg) = engine.store.message(key)? else {
        return Ok(());
    };
    let thread = engine
        .store
        .thread_of(key)?
        .unwrap_or_else(|| ThreadId::of_root(key));
    engine.retrieval.lexical.upsert(&msg, thread, true)?;
    let ids: Vec<u64> = engine
        .store
        .chunks_of(key)?
        .iter()
        .map(|c| embed_id(&c.embed_text))
        .collect();
    enqueue_embed_jobs(&engine.jobs, &ids)?;
    Ok(())
}

/// Classifies on up to four threads, keeping input order.
fn classify_parallel(store: &Store, mails: Vec<RawMail>) -> Vec<Outcome> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    let per = mails.len().div_ceil(workers).max(1);
    let mut parts: Vec<Vec<RawMail>> = Vec::new();
    let mut rest = mails;
    while rest.len() > per {
        let tail = rest.split_off(per);
        parts.push(rest);
        rest = tail;
    }
    parts.push(rest);
    let cfg = ChunkConfig::default();
    std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .into_iter()
            .map(|part| {
                let cfg = &cfg;
                scope.spawn(move || {
                    part.into_iter()
                        .map(|m| classify_guarded(store, m, cfg))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

/// The parser already runs under `catch_unwind`; this also covers cleaning and
/// chunking, so a panic costs one quarantined message, never the batch (nor the
/// order of outcomes, which callers zip with their UIDs).
fn classify_guarded(store: &Store, mail: RawMail, cfg: &ChunkConfig) -> Outcome {
    let copy = mail.clone();
    match std::panic::catch_unwind(AssertUnwindSafe(|| classify(store, copy, cfg))) {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Quarantine(Box::new(QuarantineItem {
            location: mail.location,
            folder: mail.folder,
            reason: "reading this message crashed the parser".into(),
            raw: mail.raw,
            at: chrono::Utc::now().timestamp(),
        })),
    }
}
