//! Opening a data directory: the store first (bounded in time, so a damaged sled
//! file never hangs a command), then the derived files, each checked against what
//! it should hold and rebuilt from the store when it is damaged.
//!
//! - The store (sled) is the source of truth. An open that does not finish within
//!   [`STORE_OPEN_TIMEOUT`] (longer for a large store) or fails on damaged data
//!   names `quoth rebuild`, which re-reads the mail sources (listed outside the
//!   store, in `roots.json`).
//! - The search index (tantivy) is checked segment by segment (footers and
//!   checksums); a damaged one is rebuilt from the store.
//! - The vector file is checked by header and record length; a damaged one is
//!   moved aside and its texts are queued for embedding again. A file that lost
//!   records (fewer vectors than finished embedding jobs) gets the same repair.
//! - The vectors are kept only when the installed embedding model made them
//!   (`vectors/origin`); vectors of another model are removed and their texts queued
//!   for embedding again.
//! - The HNSW graph dump is checked against the vector file it was built from
//!   (sizes and record count) and rebuilt when it does not match.
//!
//! What was repaired is kept as notes for the front end to show.

use super::{Engine, EngineConfig, EngineError, Result};
use crate::index::embed::{EmbedConfig, ModelPaths};
use crate::index::lexical::{LexicalError, LexicalIndex};
use crate::index::vector::{VectorConfig, VectorError, VectorIndex};
use crate::index::vector_origin::{self, Verdict};
use crate::retrieve::gate::Gate;
use crate::store::jobs::{JobQueue, QueueConfig};
use crate::store::{Store, StoreError};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The vector index's folder in a data directory.
pub(super) const VECTORS_DIR: &str = "vectors";

/// Longest wait for sled to open a small store's files.
pub const STORE_OPEN_TIMEOUT: Duration = Duration::from_secs(5);

/// The slowest reading of its files an open is given time for: sled reads its log
/// back on opening, the more so after a large write (an ingest), so a large healthy
/// store may take longer than [`STORE_OPEN_TIMEOUT`] to open on a slow disk.
const STORE_OPEN_BYTES_PER_SEC: u64 = 20_000_000;

/// How long an open of the store in `dir` may take before it counts as damaged:
/// [`STORE_OPEN_TIMEOUT`], or the time to read its files at
/// [`STORE_OPEN_BYTES_PER_SEC`] when that is longer.
fn store_open_bound(dir: &Path) -> Duration {
    STORE_OPEN_TIMEOUT.max(Duration::from_secs(
        bytes_under(dir, 2) / STORE_OPEN_BYTES_PER_SEC,
    ))
}

/// The size of the files in `dir` and its folders, `depth` levels down (sled keeps
/// its large values in `blobs/`); what cannot be read counts nothing.
fn bytes_under(dir: &Path, depth: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok())
        .map(|e| match e.metadata() {
            Ok(m) if m.is_file() => m.len(),
            Ok(m) if m.is_dir() && depth > 0 => bytes_under(&e.path(), depth - 1),
            _ => 0,
        })
        .sum()
}

/// What the user is told of vectors lost to a damaged vector file: `damaged`
/// records the file held that were left out (a torn tail counts once, however much
/// it cut off), and `lost` texts found with a done job and no vector, which is the
/// count that matters: those are embedded again.
fn vectors_lost_note(damaged: usize, lost: u64) -> Option<String> {
    let texts = |n: u64| {
        if n == 1 {
            "1 text".to_string()
        } else {
            format!("{n} texts")
        }
    };
    match (damaged, lost) {
        (0, 0) => None,
        (_, 0) => Some(format!(
            "the vector file held {damaged} damaged records: left out; their texts are embedded again by the background jobs (`quoth embed`)"
        )),
        (0, n) => Some(format!(
            "{} had lost their vectors (a damaged vector file): queued for embedding again (`quoth embed`)",
            texts(n)
        )),
        (_, n) => Some(format!(
            "the vector file was damaged: {} lost their vectors and are queued for embedding again (`quoth embed`)",
            texts(n)
        )),
    }
}

/// The thread that opens the store. sled may panic on a damaged file; the panic is
/// caught and reported as [`StoreError::Damaged`], so a program's panic hook may
/// keep quiet about panics on this thread.
pub const STORE_OPEN_THREAD: &str = "quoth-store-open";

impl Engine {
    /// Opens (or creates) the data directory: `store/` for sled, `lexical/` for
    /// tantivy, `vectors/` for embeddings. See the module documentation for what is
    /// checked and repaired.
    pub fn open(data_dir: &Path) -> Result<Self> {
        super::mailbox::privacy::make_private(data_dir).map_err(|e| StoreError::Sled(e.into()))?;
        super::mailbox::privacy::remove_stale_viewer_copies();
        let store = open_store_bounded(&data_dir.join("store"))?;
        let mut notes = Vec::new();
        let lexical_dir = data_dir.join("lexical");
        let (lexical, rebuild) = match LexicalIndex::open(&lexical_dir) {
            Ok(index) => (index, false),
            Err(LexicalError::Unreadable(_, why)) => {
                notes.push(format!(
                    "the search index was damaged ({why}): rebuilt from the store"
                ));
                std::fs::remove_dir_all(&lexical_dir).map_err(LexicalError::Io)?;
                (LexicalIndex::open(&lexical_dir)?, true)
            }
            Err(e) => return Err(e.into()),
        };
        let vectors_dir = data_dir.join(VECTORS_DIR);
        let vectors = match VectorIndex::open(&vectors_dir, VectorConfig::default()) {
            Ok(v) => v,
            Err(VectorError::Corrupt(file, why)) => {
                let aside = set_aside(&vectors_dir)?;
                notes.push(format!(
                    "the vector file {file} was damaged ({why}): moved to {}; its texts are embedded again by the background jobs (`quoth embed`)",
                    aside.display()
                ));
                VectorIndex::open(&vectors_dir, VectorConfig::default())?
            }
            Err(e) => return Err(e.into()),
        };
        let (vectors, model_changed) = vectors_of_this_model(data_dir, vectors, &mut notes)?;
        let jobs = JobQueue::open(store.db(), QueueConfig::default()).map_err(EngineError::Jobs)?;
        let tags = open_tags(data_dir, &mut notes)?;
        let mut engine = Self {
            data_dir: data_dir.to_path_buf(),
            store,
            mailbox: super::mailbox::UserState {
                tags,
                context: Mutex::new(None),
                identities: Mutex::new(None),
            },
            retrieval: super::retrieval::Indexes {
                lexical,
                vectors,
                embedder: OnceLock::new(),
                gate: Gate::default(),
            },
            models: super::ask::Models::default(),
            jobs,
            config: EngineConfig::default(),
            open_notes: Vec::new(),
        };
        // Renames of Maildir files a stopped process began (a flag, a move): the
        // store follows those that happened, and their documents are owed.
        super::mailbox::moves::settle_renames(&engine.store)?;
        // Documents owed: a process stopped between storing mail and committing its
        // documents (ingest threads, then indexes); finish both.
        let owed = engine.store.documents_owed()?;
        if owed {
            super::mailbox::threading::rethread(&engine.store)?;
        }
        if rebuild
            || owed
            || engine.retrieval.lexical.doc_count() == 0 && engine.store.has_messages()?
        {
            engine.reindex(&mut |_, _| {})?;
        }
        // A store written before thread facts held folders and copies, once: copies
        // join threads, so the documents of messages whose thread changed follow.
        if engine.store.complete_facts()? > 0 {
            super::jobs::ingest::rethread_and_index(
                &mut engine,
                &[],
                super::jobs::ingest::AddedDocuments::Indexed,
                &mut |_| {},
            )?;
        }
        let done = engine.jobs.counts(super::EMBED_JOB)?.done;
        let vectors_short = (engine.retrieval.vectors.len() as u64) < done;
        let mut lost = 0;
        if engine.store.derived_work_owed()? || vectors_short {
            lost = engine.reconcile_derived_work()?.vectors_requeued;
        }
        if model_changed {
            notes.push(format!(
                "the embedding model changed: {lost} texts are queued for embedding again (`quoth embed`)"
            ));
        } else if let Some(note) =
            vectors_lost_note(engine.retrieval.vectors.damaged_records(), lost)
        {
            notes.push(note);
        }
        engine.open_notes = notes;
        Ok(engine)
    }

    /// What opening the data directory found damaged and repaired.
    pub fn open_notes(&self) -> &[String] {
        &self.open_notes
    }
}

/// Opens sled on a thread of its own and waits at most [`store_open_bound`]: sled
/// may spin on a damaged file instead of failing.
fn open_store_bounded(dir: &Path) -> Result<Store> {
    let bound = store_open_bound(dir);
    let (tx, rx) = std::sync::mpsc::channel();
    let path = dir.to_path_buf();
    std::thread::Builder::new()
        .name(STORE_OPEN_THREAD.into())
        .spawn(move || {
            let opened = std::panic::catch_unwind(|| Store::open(&path)).unwrap_or_else(|_| {
                Err(StoreError::Damaged {
                    path: path.display().to_string(),
                    reason: "reading it panicked".into(),
                })
            });
            let _ = tx.send(opened);
        })
        .map_err(EngineError::Runtime)?;
    match rx.recv_timeout(bound) {
        Ok(opened) => Ok(opened?),
        Err(_) => Err(StoreError::Damaged {
            path: dir.display().to_string(),
            reason: format!("it did not open within {} s", bound.as_secs()),
        }
        .into()),
    }
}

/// Keeps the vectors when the installed embedding model made them
/// ([`vector_origin`]), and records the model when there are none yet. Vectors of
/// another model (or of an unrecorded one) are removed, and true is returned: their
/// texts are queued for embedding again once the engine is open. Without an
/// installed model nothing is checked (nothing can be embedded either); a model file
/// that cannot be read is noted, and the vectors are kept.
fn vectors_of_this_model(
    data_dir: &Path,
    vectors: VectorIndex,
    notes: &mut Vec<String>,
) -> Result<(VectorIndex, bool)> {
    let Ok(paths) = ModelPaths::locate(data_dir) else {
        return Ok((vectors, false));
    };
    let dir = data_dir.join(VECTORS_DIR);
    let max_tokens = EmbedConfig::default().max_tokens;
    let verdict = match vector_origin::check(&dir, &paths.model, max_tokens) {
        Ok(verdict) => verdict,
        Err(e) => {
            notes.push(format!("which model made the vectors is not known: {e}"));
            return Ok((vectors, false));
        }
    };
    if verdict == Verdict::Same {
        return Ok((vectors, false));
    }
    let changed = !vectors.is_empty();
    let vectors = if changed {
        drop(vectors);
        std::fs::remove_dir_all(&dir).map_err(VectorError::Io)?;
        VectorIndex::open(&dir, VectorConfig::default())?
    } else {
        vectors
    };
    if let Err(e) = vector_origin::record(&dir, &paths.model, max_tokens) {
        notes.push(format!(
            "which model makes the vectors could not be recorded: {e}"
        ));
    }
    Ok((vectors, changed))
}

/// Moves a damaged vector directory aside (kept for inspection) and returns where.
/// Opens the user's tags. A damaged tag database is set aside, named in a note, and
/// started anew: the mail stays usable, and the damaged copy is kept for the user.
/// Any other error (a lock, a permission) is reported, touching nothing.
fn open_tags(data_dir: &Path, notes: &mut Vec<String>) -> Result<crate::store::tags::Tags> {
    use crate::store::tags::Tags;
    let dir = data_dir.join("tags");
    let damage = match std::panic::catch_unwind(|| Tags::open(&dir)) {
        Ok(Ok(tags)) => return Ok(tags),
        Ok(Err(StoreError::DamagedData(why))) => why,
        Ok(Err(StoreError::Corrupt { reason, .. })) => reason,
        Ok(Err(e)) => return Err(e.into()),
        Err(_) => "the database could not be read".to_string(),
    };
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S");
    let aside = dir.with_file_name(format!("tags.damaged-{stamp}"));
    std::fs::rename(&dir, &aside).map_err(|e| StoreError::Sled(e.into()))?;
    notes.push(format!(
        "the tag database was damaged ({damage}): set aside at {}, and tags start empty",
        aside.display()
    ));
    Ok(Tags::open(&dir)?)
}

fn set_aside(dir: &Path) -> Result<PathBuf> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S");
    let aside = dir.with_file_name(format!("vectors.damaged-{stamp}"));
    std::fs::rename(dir, &aside).map_err(VectorError::Io)?;
    Ok(aside)
}

/// The file, beside the store, that lists the mail sources ingested, so `quoth
/// rebuild` can re-read them even when the store itself is too damaged to open.
const ROOTS_FILE: &str = "roots.json";

/// Records the ingested mail sources in [`ROOTS_FILE`].
pub(super) fn record_mail_roots(data_dir: &Path, roots: &[String]) -> Result<()> {
    let json = serde_json::to_vec_pretty(roots).unwrap_or_default();
    let tmp = data_dir.join(format!("{ROOTS_FILE}.tmp"));
    super::mailbox::privacy::write_private(&tmp, &json)
        .and_then(|()| std::fs::rename(&tmp, data_dir.join(ROOTS_FILE)))
        .map_err(|e| StoreError::Sled(e.into()))?;
    Ok(())
}

/// The mail sources ingested into this data directory: from [`ROOTS_FILE`], or
/// from the store (of any schema version) when the file is missing.
pub(super) fn mail_roots(data_dir: &Path) -> Result<Vec<String>> {
    if let Ok(bytes) = std::fs::read(data_dir.join(ROOTS_FILE)) {
        if let Ok(roots) = serde_json::from_slice::<Vec<String>>(&bytes) {
            return Ok(roots);
        }
    }
    let dir = data_dir.join("store");
    let (tx, rx) = std::sync::mpsc::channel();
    let path = dir.clone();
    std::thread::spawn(move || {
        let _ = tx.send(Store::roots_of_any_version(&path));
    });
    match rx.recv_timeout(store_open_bound(&dir)) {
        Ok(roots) => Ok(roots?),
        Err(_) => Err(StoreError::Damaged {
            path: dir.display().to_string(),
            reason: "it did not open in time, and roots.json, which lists the mail to re-read, is missing".into(),
        }
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_store_is_given_time_to_read_its_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("conf"), b"segment_size: 524288").expect("conf");
        assert_eq!(store_open_bound(dir.path()), STORE_OPEN_TIMEOUT, "small");
        // A 300 MB log and 100 MB of blobs (sparse files: only their length counts).
        let db = std::fs::File::create(dir.path().join("db")).expect("db");
        db.set_len(300_000_000).expect("grow db");
        std::fs::create_dir(dir.path().join("blobs")).expect("blobs");
        let blob = std::fs::File::create(dir.path().join("blobs").join("1")).expect("blob");
        blob.set_len(100_000_000).expect("grow blob");
        assert_eq!(
            store_open_bound(dir.path()),
            Duration::from_secs(400_000_000 / STORE_OPEN_BYTES_PER_SEC)
        );
        assert!(store_open_bound(&dir.path().join("missing")) == STORE_OPEN_TIMEOUT);
    }
}
