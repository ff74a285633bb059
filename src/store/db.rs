//! The sled database: Quoth's source of truth. Everything else (the tantivy index,
//! later the vectors) is derived from it and can be rebuilt.

use super::records::{embed_id, ChunkRecord, StoredChunk, StoredMessage, ThreadFacts};
use crate::mail::model::MessageKey;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::path::Path;

#[path = "attachments.rs"]
pub mod attachments;
#[path = "graph.rs"]
pub mod graph;
mod mail_state;
mod moves;
mod remove;
mod sources;
mod threads;

/// Bump when a record layout changes; an older store is rebuilt from its sources.
pub const SCHEMA_VERSION: u32 = 2;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sled(sled::Error),
    #[error("the store holds damaged data ({0}): run `quoth rebuild` to re-read your mail into a new store")]
    DamagedData(String),
    #[error("corrupt record in {tree} ({reason}): run `quoth rebuild` to re-read your mail into a new store")]
    Corrupt { tree: &'static str, reason: String },
    #[error(
        "the store at {path} has schema version {found}, this Quoth needs {expected}: run `quoth rebuild` to re-read your mail into a new store"
    )]
    SchemaMismatch {
        path: String,
        found: u32,
        expected: u32,
    },
    #[error("another Quoth process has the data directory open ({0} is locked): close it or wait for it to finish; while `quoth serve` or the UI runs, `search`, `ask`, `show`, `status`, `stats`, `ingest` and `embed` go through it")]
    Locked(String),
    #[error("the store at {path} looks damaged ({reason}): run `quoth rebuild` to re-read your mail into a new store")]
    Damaged { path: String, reason: String },
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// sled reports damaged pages as `Corruption`; the user needs to know the fix.
impl From<sled::Error> for StoreError {
    fn from(e: sled::Error) -> Self {
        match e {
            sled::Error::Corruption { .. } => StoreError::DamagedData(e.to_string()),
            other => StoreError::Sled(other),
        }
    }
}

/// Handles to every tree. Cloning is cheap (sled trees are reference counted).
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    meta: sled::Tree,
    messages: sled::Tree,
    msgids: sled::Tree,
    chunks: sled::Tree,
    facts: sled::Tree,
    msg_thread: sled::Tree,
    threads: sled::Tree,
    sources: sled::Tree,
    roots: sled::Tree,
    quarantine: sled::Tree,
    attachments: sled::Tree,
    embed_chunks: sled::Tree,
    /// Messages by state (unread, flagged...), for `is:` in queries.
    mail_states: sled::Tree,
    /// The state sets read so far, kept in step with `mail_states`.
    live_states: std::sync::Arc<super::live_sets::LiveSets<crate::mail::state::MailState>>,
    attach: attachments::AttachTrees,
    graph: graph::GraphTrees,
    /// Bumped by every write that adds or removes messages: what is derived from the
    /// set of messages (the address book) is cached by it, since counting the
    /// messages reads every key. One process holds the store, so it is enough.
    generation: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// One message with everything written for it in one go.
pub struct NewMessage<'a> {
    pub message: &'a StoredMessage,
    pub facts: &'a ThreadFacts,
    pub chunks: &'a [StoredChunk],
    pub attachment_bytes: &'a [Vec<u8>],
    pub reply_to: &'a [crate::mail::model::Mailbox],
}

impl Store {
    pub fn open(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|e| StoreError::Sled(e.into()))?;
        super::unfinished_snapshots::discard(dir).map_err(|e| StoreError::Sled(e.into()))?;
        let db = sled::Config::new()
            .path(dir)
            .cache_capacity(32 * 1024 * 1024)
            .flush_every_ms(Some(1000))
            .open()
            .map_err(|e| open_error(dir, e))?;
        let store = Self {
            meta: db.open_tree("meta")?,
            messages: db.open_tree("messages")?,
            msgids: db.open_tree("msgids")?,
            chunks: db.open_tree("chunks")?,
            facts: db.open_tree("thread_facts")?,
            msg_thread: db.open_tree("msg_thread")?,
            threads: db.open_tree("threads")?,
            sources: db.open_tree("sources")?,
            roots: db.open_tree("roots")?,
            quarantine: db.open_tree("quarantine")?,
            attachments: db.open_tree("attachments")?,
            embed_chunks: db.open_tree("embed_chunks")?,
            mail_states: db.open_tree("mail_states")?,
            live_states: Default::default(),
            attach: attachments::AttachTrees::open(&db)?,
            graph: graph::GraphTrees::open(&db)?,
            generation: Default::default(),
            db,
        };
        store.check_schema(dir)?;
        store.build_mail_states()?;
        Ok(store)
    }

    /// The ingest roots recorded in a store of any schema version, for a rebuild.
    pub fn roots_of_any_version(dir: &Path) -> Result<Vec<String>> {
        super::unfinished_snapshots::discard(dir).map_err(|e| StoreError::Sled(e.into()))?;
        let db = sled::Config::new().path(dir).open()?;
        let roots = db.open_tree("roots")?;
        roots
            .iter()
            .keys()
            .map(|k| Ok(String::from_utf8_lossy(&k?).into_owned()))
            .collect()
    }

    fn check_schema(&self, dir: &Path) -> Result<()> {
        match self.meta.get("schema_version")? {
            None => {
                self.meta
                    .insert("schema_version", &SCHEMA_VERSION.to_be_bytes())?;
                Ok(())
            }
            Some(v) => {
                let found = v.as_ref().try_into().map(u32::from_be_bytes).unwrap_or(0);
                if found == SCHEMA_VERSION {
                    Ok(())
                } else {
                    Err(StoreError::SchemaMismatch {
                        path: dir.display().to_string(),
                        found,
                        expected: SCHEMA_VERSION,
                    })
                }
            }
        }
    }

    pub fn flush(&self) -> Result<()> {
        self.db.flush()?;
        Ok(())
    }

    /// Marks (or clears) search documents owed: set before an ingest stores mail whose
    /// documents are written only after threading, so a crash in between is caught up
    /// by a reindex when the store is next opened.
    pub fn set_documents_owed(&self, owed: bool) -> Result<()> {
        set_flag(&self.meta, "documents_owed", owed)
    }

    pub fn documents_owed(&self) -> Result<bool> {
        Ok(self.meta.contains_key("documents_owed")?)
    }

    /// Marks (or clears) derived work owed: set before new mail is stored, cleared
    /// once every stored text has a vector or an embedding job and every attachment
    /// its text or an extraction job. A process killed in between leaves it set, and
    /// the next open reconciles.
    pub fn set_derived_work_owed(&self, owed: bool) -> Result<()> {
        if owed && self.meta.contains_key("derived_work_owed")? {
            return Ok(());
        }
        set_flag(&self.meta, "derived_work_owed", owed)
    }

    pub fn derived_work_owed(&self) -> Result<bool> {
        Ok(self.meta.contains_key("derived_work_owed")?)
    }

    /// This store's identity: 32 hex digits drawn when first asked for and kept
    /// with the store, so a store made anew at the same path is another store.
    pub fn identity(&self) -> Result<String> {
        if let Some(id) = self.meta.get("identity")? {
            return Ok(String::from_utf8_lossy(&id).into_owned());
        }
        let mut bytes = [0u8; 16];
        std::io::Read::read_exact(
            &mut std::fs::File::open("/dev/urandom").map_err(|e| StoreError::Sled(e.into()))?,
            &mut bytes,
        )
        .map_err(|e| StoreError::Sled(e.into()))?;
        let id: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        // Two openers of one store are ruled out by sled's lock; the first id stays.
        match self
            .meta
            .compare_and_swap("identity", None as Option<&[u8]>, Some(id.as_bytes()))?
        {
            Ok(()) => Ok(id),
            Err(current) => Ok(current
                .current
                .map(|c| String::from_utf8_lossy(&c).into_owned())
                .unwrap_or(id)),
        }
    }

    /// Every stored attachment's message and position, in key order.
    pub fn attachment_positions(&self) -> impl Iterator<Item = Result<(MessageKey, u32)>> + '_ {
        self.attachments.iter().keys().filter_map(|k| match k {
            Ok(k) => {
                let key = k.get(..16).and_then(|b| b.try_into().ok()).map(MessageKey);
                let index = k
                    .get(16..20)
                    .and_then(|b| b.try_into().ok())
                    .map(u32::from_be_bytes);
                key.zip(index).map(Ok)
            }
            Err(e) => Some(Err(e.into())),
        })
    }

    pub fn size_on_disk(&self) -> u64 {
        self.db.size_on_disk().unwrap_or(0)
    }

    // ---- messages ----

    pub fn contains_message(&self, key: &MessageKey) -> Result<bool> {
        Ok(self.messages.contains_key(key.0)?)
    }

    pub fn message(&self, key: &MessageKey) -> Result<Option<StoredMessage>> {
        self.messages
            .get(key.0)?
            .map(|v| decode("messages", &v))
            .transpose()
    }

    pub fn message_count(&self) -> Result<usize> {
        count(&self.messages)
    }

    /// Keys of the messages with this Message-ID (copies of one mail can differ).
    pub fn keys_by_message_id(&self, message_id: &str) -> Result<Vec<MessageKey>> {
        let mut prefix = message_id.as_bytes().to_vec();
        prefix.push(0);
        let mut out = Vec::new();
        for item in self.msgids.scan_prefix(&prefix) {
            let (k, _) = item?;
            if let Some(key) = k.get(prefix.len()..).and_then(|b| b.try_into().ok()) {
                out.push(MessageKey(key));
            }
        }
        Ok(out)
    }

    /// All messages, in key order.
    pub fn messages(&self) -> impl Iterator<Item = Result<StoredMessage>> + '_ {
        self.messages
            .iter()
            .values()
            .map(|v| decode("messages", &v?))
    }

    /// Every stored message's key, without reading the messages.
    pub fn message_keys(&self) -> impl Iterator<Item = Result<MessageKey>> + '_ {
        self.messages.iter().keys().map(|k| {
            let k = k?;
            <[u8; 16]>::try_from(k.as_ref())
                .map(MessageKey)
                .map_err(|_| StoreError::Corrupt {
                    tree: "messages",
                    reason: "a key is not 16 bytes".into(),
                })
        })
    }

    /// The generation of the set of messages (see the field); 0 after opening.
    pub fn generation(&self) -> u64 {
        self.generation.load(std::sync::atomic::Ordering::SeqCst)
    }

    pub(super) fn bump_generation(&self) {
        self.generation
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    /// Writes a batch of new messages with their facts, chunks and attachments.
    pub fn insert_messages(&self, batch: &[NewMessage<'_>]) -> Result<()> {
        let mut messages = sled::Batch::default();
        let mut msgids = sled::Batch::default();
        let mut chunks = sled::Batch::default();
        let mut facts = sled::Batch::default();
        let mut attachments = sled::Batch::default();
        let mut embed_chunks = sled::Batch::default();
        let mut reply_to = sled::Batch::default();
        let mut states = Vec::new();
        for item in batch {
            let key = item.message.key;
            messages.insert(&key.0, encode(item.message));
            Self::new_states(&mut states, &key, &item.message.flags);
            if let Some(id) = &item.message.message_id {
                let mut k = id.as_bytes().to_vec();
                k.push(0);
                k.extend_from_slice(&key.0);
                msgids.insert(k, &[]);
            }
            for chunk in item.chunks {
                let ck = chunk_key(&key, chunk.ordinal);
                let mut ek = embed_id(&chunk.embed_text).to_be_bytes().to_vec();
                ek.extend_from_slice(&ck);
                embed_chunks.insert(ek, &[]);
                chunks.insert(ck, encode(&chunk.record()));
            }
            facts.insert(&key.0, encode(item.facts));
            reply_to.insert(&key.0, encode(&item.reply_to));
            for (i, bytes) in item.attachment_bytes.iter().enumerate() {
                let mut k = key.0.to_vec();
                k.extend_from_slice(&(i as u32).to_be_bytes());
                attachments.insert(k, bytes.as_slice());
            }
        }
        // Children first, the message record last: a message that exists has all its parts.
        self.chunks.apply_batch(chunks)?;
        self.embed_chunks.apply_batch(embed_chunks)?;
        self.facts.apply_batch(facts)?;
        self.attachments.apply_batch(attachments)?;
        self.graph.keep_reply_to(reply_to)?;
        self.msgids.apply_batch(msgids)?;
        self.write_states(&states)?;
        self.messages.apply_batch(messages)?;
        self.bump_generation();
        Ok(())
    }

    pub fn chunks_of(&self, key: &MessageKey) -> Result<Vec<StoredChunk>> {
        let Some(msg) = self.message(key)? else {
            return Ok(Vec::new());
        };
        let mut chunks = self
            .chunks
            .scan_prefix(key.0)
            .values()
            .map(|v| {
                Ok(StoredChunk::of(
                    &msg,
                    &decode::<ChunkRecord>("chunks", &v?)?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        chunks.extend(self.attachment_chunks_of(&msg)?);
        Ok(chunks)
    }

    /// The chunks whose embed text has this id (copies of one mail share it).
    pub fn chunks_with_embed(&self, id: u64) -> Result<Vec<StoredChunk>> {
        let mut out = Vec::new();
        for k in self.embed_chunks.scan_prefix(id.to_be_bytes()).keys() {
            let k = k?;
            let Some(key) = k.get(8..24).and_then(|b| b.try_into().ok()).map(MessageKey) else {
                continue;
            };
            let Some(msg) = self.message(&key)? else {
                continue;
            };
            match self.chunks.get(&k[8..])? {
                Some(v) => out.push(StoredChunk::of(&msg, &decode::<ChunkRecord>("chunks", &v)?)),
                None => out.extend(self.attachment_chunk(&msg, &k[8..])?),
            }
        }
        Ok(out)
    }

    /// The messages holding a chunk with this embed id.
    pub fn messages_with_embed(&self, id: u64) -> Result<Vec<MessageKey>> {
        let mut out = Vec::new();
        for k in self.embed_chunks.scan_prefix(id.to_be_bytes()).keys() {
            let k = k?;
            if let Some(key) = k.get(8..24).and_then(|b| b.try_into().ok()) {
                out.push(MessageKey(key));
            }
        }
        out.dedup();
        Ok(out)
    }

    /// Every distinct embed id, with one chunk that carries it.
    pub fn distinct_embed_ids(&self) -> Result<Vec<u64>> {
        let mut out: Vec<u64> = Vec::new();
        for k in self.embed_chunks.iter().keys() {
            let k = k?;
            if let Some(id) = k
                .get(..8)
                .and_then(|b| b.try_into().ok())
                .map(u64::from_be_bytes)
            {
                if out.last() != Some(&id) {
                    out.push(id);
                }
            }
        }
        Ok(out)
    }

    pub fn db(&self) -> &sled::Db {
        &self.db
    }

    pub fn chunk_count(&self) -> Result<usize> {
        count(&self.chunks)
    }

    pub fn attachment_bytes(&self, key: &MessageKey, index: u32) -> Result<Option<Vec<u8>>> {
        let mut k = key.0.to_vec();
        k.extend_from_slice(&index.to_be_bytes());
        Ok(self.attachments.get(k)?.map(|v| v.to_vec()))
    }
}

fn chunk_key(key: &MessageKey, ordinal: u32) -> Vec<u8> {
    let mut k = key.0.to_vec();
    k.extend_from_slice(&ordinal.to_be_bytes());
    k
}

/// What a failed sled open means for the user: another process holds the lock, the
/// files are damaged, or another I/O error.
fn open_error(dir: &Path, e: sled::Error) -> StoreError {
    let path = dir.display().to_string();
    match e {
        sled::Error::Io(io)
            if io.kind() == std::io::ErrorKind::WouldBlock
                || io.to_string().contains("could not acquire lock") =>
        {
            StoreError::Locked(path)
        }
        sled::Error::Corruption { .. } => StoreError::Damaged {
            path,
            reason: "sled found corrupt data".into(),
        },
        sled::Error::Unsupported(why) | sled::Error::ReportableBug(why) => {
            StoreError::Damaged { path, reason: why }
        }
        other => StoreError::Sled(other),
    }
}

/// Counts a tree's entries. sled's own `len` counts every item of its iterator, and
/// on a damaged page that iterator yields the same error forever: this stops at the
/// first error and returns it.
pub(super) fn count(tree: &sled::Tree) -> Result<usize> {
    let mut n = 0;
    for key in tree.iter().keys() {
        key?;
        n += 1;
    }
    Ok(n)
}

/// Whether the store holds any message (without counting them).
impl Store {
    pub fn has_messages(&self) -> Result<bool> {
        Ok(self.messages.first()?.is_some())
    }
}

/// Sets or clears a durable yes/no marker in a tree.
pub(super) fn set_flag(tree: &sled::Tree, name: &str, on: bool) -> Result<()> {
    if on {
        tree.insert(name, &[1])?;
    } else {
        tree.remove(name)?;
    }
    Ok(())
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising our own plain records into a Vec cannot fail.
    bincode::serialize(value).unwrap_or_default()
}

/// Thread facts, of today's form or of a store written before they kept content.
pub(super) fn decode_facts(bytes: &[u8]) -> Result<ThreadFacts> {
    decode_or_legacy::<ThreadFacts, crate::store::records::legacy::ThreadFacts>(
        "thread_facts",
        bytes,
    )
}

/// A record that gained fields at its end: an older one is read in its old form.
pub(super) fn decode_or_legacy<T: DeserializeOwned, L: DeserializeOwned + Into<T>>(
    tree: &'static str,
    bytes: &[u8],
) -> Result<T> {
    match bincode::deserialize::<T>(bytes) {
        Ok(v) => Ok(v),
        Err(first) => match bincode::deserialize::<L>(bytes) {
            Ok(old) => Ok(old.into()),
            Err(_) => Err(StoreError::Corrupt {
                tree,
                reason: first.to_string(),
            }),
        },
    }
}

fn decode<T: DeserializeOwned>(tree: &'static str, bytes: &[u8]) -> Result<T> {
    bincode::deserialize(bytes).map_err(|e| StoreError::Corrupt {
        tree,
        reason: e.to_string(),
    })
}

/// Writes to one tree in batches of bounded size. Thread assignments and the thread
/// list are derived data (the next rethread recomputes them), so they need no single
/// atomic batch; and one sled batch over a whole large mailbox holds every page it
/// touches in memory until it is applied (about 700 MB for 100k messages).
struct BoundedBatch<'a> {
    tree: &'a sled::Tree,
    batch: sled::Batch,
    len: usize,
}

impl<'a> BoundedBatch<'a> {
    const MAX: usize = 1024;

    fn new(tree: &'a sled::Tree) -> Self {
        Self {
            tree,
            batch: sled::Batch::default(),
            len: 0,
        }
    }

    fn insert(&mut self, key: &[u8], value: &[u8]) -> Result<()> {
        self.batch.insert(key, value);
        self.bump()
    }

    fn remove(&mut self, key: &[u8]) -> Result<()> {
        self.batch.remove(key);
        self.bump()
    }

    fn bump(&mut self) -> Result<()> {
        self.len += 1;
        if self.len >= Self::MAX {
            self.tree.apply_batch(std::mem::take(&mut self.batch))?;
            self.len = 0;
        }
        Ok(())
    }

    fn finish(mut self) -> Result<()> {
        if self.len > 0 {
            self.tree.apply_batch(std::mem::take(&mut self.batch))?;
        }
        Ok(())
    }
}
