//! The tantivy index: a derived, rebuildable BM25 index over messages.
//!
//! One document per message. `body` holds the whole decoded body (quoted history
//! included: it helps find a message), names and addresses are searchable, and the
//! message key links a hit back to sled, where the text to show and to cite lives.

use crate::mail::model::{MessageKey, ThreadId};
use crate::store::StoredMessage;
use std::path::{Path, PathBuf};
use tantivy::collector::TopDocs;
use tantivy::query::Query as TantivyQuery;
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, Value,
    STORED, STRING,
};
use tantivy::{doc, Index, IndexReader, IndexWriter, ReloadPolicy, TantivyDocument, Term};

#[derive(Debug, thiserror::Error)]
pub enum LexicalError {
    #[error("search index error: {0}")]
    Tantivy(#[from] tantivy::TantivyError),
    #[error("search index at {0} is unreadable ({1}); run `quoth reindex` to rebuild it")]
    Unreadable(PathBuf, String),
    #[error("search index directory: {0}")]
    Io(#[from] std::io::Error),
}

pub type Result<T> = std::result::Result<T, LexicalError>;

/// Handles to the schema's fields.
#[derive(Clone, Copy)]
pub struct Fields {
    pub key: Field,
    /// The key's first and last 8 bytes, big-endian, as fast fields: a segment's
    /// keys read per document without the term dictionary (see `key_set`).
    pub key_hi: Field,
    pub key_lo: Field,
    pub message_id: Field,
    pub thread: Field,
    pub from: Field,
    pub to: Field,
    pub cc: Field,
    pub subject: Field,
    pub body: Field,
    pub date: Field,
    pub folder: Field,
    pub has_attachment: Field,
}

/// The fast fields of a message key's halves.
pub const KEY_HI: &str = "key_hi";
pub const KEY_LO: &str = "key_lo";

/// A message key's halves, as [`KEY_HI`] and [`KEY_LO`] hold them.
pub fn key_halves(key: &MessageKey) -> (u64, u64) {
    let mut hi = [0u8; 8];
    let mut lo = [0u8; 8];
    hi.copy_from_slice(&key.0[..8]);
    lo.copy_from_slice(&key.0[8..]);
    (u64::from_be_bytes(hi), u64::from_be_bytes(lo))
}

/// The message key of its halves.
pub fn key_of_halves(hi: u64, lo: u64) -> MessageKey {
    let mut k = [0u8; 16];
    k[..8].copy_from_slice(&hi.to_be_bytes());
    k[8..].copy_from_slice(&lo.to_be_bytes());
    MessageKey(k)
}

fn build_schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let stemmed = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("en_stem")
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let plain = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("default")
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let fields = Fields {
        key: b.add_text_field("key", STRING | STORED),
        key_hi: b.add_u64_field(KEY_HI, NumericOptions::default().set_fast()),
        key_lo: b.add_u64_field(KEY_LO, NumericOptions::default().set_fast()),
        message_id: b.add_text_field("message_id", STRING),
        thread: b.add_text_field("thread", STRING | STORED),
        from: b.add_text_field("from", plain.clone()),
        to: b.add_text_field("to", plain.clone()),
        cc: b.add_text_field("cc", plain.clone()),
        subject: b.add_text_field("subject", stemmed.clone()),
        body: b.add_text_field("body", stemmed),
        date: b.add_i64_field(
            "date",
            NumericOptions::default()
                .set_indexed()
                .set_fast()
                .set_stored(),
        ),
        folder: b.add_text_field("folder", plain),
        has_attachment: b.add_u64_field(
            "has_attachment",
            NumericOptions::default().set_indexed().set_fast(),
        ),
    };
    (b.build(), fields)
}

/// Checks every file of every live segment against the checksum in its footer. A
/// truncated or garbled file is found here, at open, rather than by a search that
/// fails or returns wrong hits later.
fn check_segments(index: &Index) -> std::result::Result<(), String> {
    let damaged = index.validate_checksum().map_err(|e| e.to_string())?;
    match damaged.iter().next() {
        Some(path) => Err(format!("{} fails its checksum", path.display())),
        None => Ok(()),
    }
}

/// The index with its single writer and a reader that reloads after each commit.
pub struct LexicalIndex {
    dir: PathBuf,
    index: Index,
    reader: IndexReader,
    writer: Option<IndexWriter>,
    pub fields: Fields,
}

/// One hit: the message key and its BM25 score.
#[derive(Debug, Clone)]
pub struct LexicalHit {
    pub key: MessageKey,
    pub score: f32,
}

/// Indexing threads and their memory budget. A thread flushes a segment when its
/// share fills, and serialising it briefly takes as much again: one thread with
/// 32 MB keeps a 100k-message ingest's peak about 50 MB lower than two with 24 MB
/// each, with no loss of speed here (readers and sled keep the cores busy).
const WRITER_THREADS: usize = 1;
const WRITER_MEMORY_BYTES: usize = 32 * 1024 * 1024;

impl LexicalIndex {
    /// Opens the index in `dir`, creating it when absent.
    pub fn open(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir)?;
        let (schema, fields) = build_schema();
        let index = if dir.join("meta.json").exists() {
            let index = Index::open_in_dir(dir)
                .map_err(|e| LexicalError::Unreadable(dir.to_path_buf(), e.to_string()))?;
            if index.schema() != schema {
                return Err(LexicalError::Unreadable(
                    dir.to_path_buf(),
                    "its schema is from another version".into(),
                ));
            }
            check_segments(&index)
                .map_err(|why| LexicalError::Unreadable(dir.to_path_buf(), why))?;
            index
        } else {
            Index::create_in_dir(dir, schema)?
        };
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(Self {
            dir: dir.to_path_buf(),
            index,
            reader,
            writer: None,
            fields,
        })
    }

    pub fn index(&self) -> &Index {
        &self.index
    }

    fn writer(&mut self) -> Result<&mut IndexWriter> {
        if self.writer.is_none() {
            let w = self
                .index
                .writer_with_num_threads(WRITER_THREADS, WRITER_MEMORY_BYTES)?;
            self.writer = Some(w);
        }
        // Just set above when absent.
        self.writer
            .as_mut()
            .ok_or_else(|| LexicalError::Unreadable(self.dir.clone(), "no writer".into()))
    }

    /// Adds (or replaces) the document of a message.
    pub fn upsert(&mut self, msg: &StoredMessage, thread: ThreadId, replace: bool) -> Result<()> {
        self.upsert_with_attachments(msg, thread, replace, "")
    }

    /// As [`Self::upsert`], with the text of the message's attachments searched as
    /// part of its body, so that a word on page 40 of a PDF finds the message.
    pub fn upsert_with_attachments(
        &mut self,
        msg: &StoredMessage,
        thread: ThreadId,
        replace: bool,
        attachment_text: &str,
    ) -> Result<()> {
        let f = self.fields;
        let key_hex = msg.key.to_hex();
        let (key_hi, key_lo) = key_halves(&msg.key);
        let names = |list: &[crate::mail::model::Mailbox]| {
            list.iter()
                .map(|m| format!("{} {}", m.name.as_deref().unwrap_or(""), m.address))
                .collect::<Vec<_>>()
                .join(" ; ")
        };
        let document = doc!(
            f.key => key_hex.clone(),
            f.key_hi => key_hi,
            f.key_lo => key_lo,
            f.message_id => msg.message_id.clone().unwrap_or_default(),
            f.thread => thread.to_hex(),
            f.from => names(&msg.from),
            f.to => names(&msg.to),
            f.cc => format!("{} ; {}", names(&msg.cc), names(&msg.bcc)),
            f.subject => msg.subject.clone(),
            f.body => format!("{}{attachment_text}", msg.body),
            f.date => msg.date.unwrap_or(0),
            f.folder => msg.folder.clone(),
            f.has_attachment => u64::from(!msg.attachments.is_empty()),
        );
        let writer = self.writer()?;
        if replace {
            writer.delete_term(Term::from_field_text(f.key, &key_hex));
        }
        writer.add_document(document)?;
        Ok(())
    }

    /// Deletes the document of a message (gone at the next commit).
    pub fn delete(&mut self, key: &MessageKey) -> Result<()> {
        let term = Term::from_field_text(self.fields.key, &key.to_hex());
        self.writer()?.delete_term(term);
        Ok(())
    }

    /// Whether a committed document holds this message.
    pub fn contains(&self, key: &MessageKey) -> Result<bool> {
        let term = Term::from_field_text(self.fields.key, &key.to_hex());
        let query = tantivy::query::TermQuery::new(term, IndexRecordOption::Basic);
        Ok(self
            .reader
            .searcher()
            .search(&query, &tantivy::collector::Count)?
            > 0)
    }

    /// Makes the writes visible to searches.
    pub fn commit(&mut self) -> Result<()> {
        if let Some(w) = self.writer.as_mut() {
            w.commit()?;
        }
        self.reader.reload()?;
        Ok(())
    }

    /// Drops every document (for a rebuild).
    pub fn clear(&mut self) -> Result<()> {
        self.writer()?.delete_all_documents()?;
        self.commit()
    }

    pub fn doc_count(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    /// In how many messages' bodies a word occurs (after the body field's stemming),
    /// for weighting question words by rarity.
    pub fn body_doc_freq(&self, word: &str) -> u64 {
        let Ok(mut analyzer) = self.index.tokenizer_for_field(self.fields.body) else {
            return 0;
        };
        let mut stream = analyzer.token_stream(word);
        let mut stemmed = None;
        stream.process(&mut |t| {
            if stemmed.is_none() {
                stemmed = Some(t.text.clone());
            }
        });
        let Some(stemmed) = stemmed else { return 0 };
        let term = Term::from_field_text(self.fields.body, &stemmed);
        self.reader.searcher().doc_freq(&term).unwrap_or(0)
    }

    pub fn size_on_disk(&self) -> u64 {
        dir_size(&self.dir)
    }

    /// How many messages a compiled query matches.
    pub fn count(&self, query: &dyn TantivyQuery) -> Result<usize> {
        Ok(self
            .reader
            .searcher()
            .search(query, &tantivy::collector::Count)?)
    }

    /// Runs a compiled query and returns the best `limit` hits.
    pub fn search(&self, query: &dyn TantivyQuery, limit: usize) -> Result<Vec<LexicalHit>> {
        let searcher = self.reader.searcher();
        let top = searcher.search(query, &TopDocs::with_limit(limit.max(1)).order_by_score())?;
        let mut hits = Vec::with_capacity(top.len());
        for (score, addr) in top {
            if let Some(key) = self.key_of(&searcher, addr)? {
                hits.push(LexicalHit { key, score });
            }
        }
        Ok(hits)
    }

    /// The newest `limit` messages matching a query, newest first (a query of
    /// filters alone has nothing to rank by relevance).
    pub fn newest(&self, query: &dyn TantivyQuery, limit: usize) -> Result<Vec<LexicalHit>> {
        self.by_date(query, limit, tantivy::Order::Desc)
    }

    /// The first `limit` messages matching a query in date order: newest first
    /// (`Desc`) or oldest first (`Asc`).
    pub fn by_date(
        &self,
        query: &dyn TantivyQuery,
        limit: usize,
        order: tantivy::Order,
    ) -> Result<Vec<LexicalHit>> {
        let searcher = self.reader.searcher();
        let top = searcher.search(
            query,
            &TopDocs::with_limit(limit.max(1)).order_by_fast_field::<i64>("date", order),
        )?;
        let mut hits = Vec::with_capacity(top.len());
        for (_, addr) in top {
            if let Some(key) = self.key_of(&searcher, addr)? {
                hits.push(LexicalHit { key, score: 1.0 });
            }
        }
        Ok(hits)
    }

    /// Every message matching a query (used for filters): no ranking, no limit.
    pub fn matching_keys(
        &self,
        query: &dyn TantivyQuery,
    ) -> Result<std::collections::HashSet<MessageKey>> {
        let searcher = self.reader.searcher();
        let docs = searcher.search(query, &tantivy::collector::DocSetCollector)?;
        let mut keys = std::collections::HashSet::with_capacity(docs.len());
        for addr in docs {
            if let Some(key) = self.key_of(&searcher, addr)? {
                keys.insert(key);
            }
        }
        Ok(keys)
    }

    /// The message key of an indexed document.
    fn key_of(
        &self,
        searcher: &tantivy::Searcher,
        addr: tantivy::DocAddress,
    ) -> Result<Option<MessageKey>> {
        let doc: TantivyDocument = searcher.doc(addr)?;
        Ok(doc
            .get_first(self.fields.key)
            .and_then(|v| v.as_str())
            .and_then(MessageKey::from_hex))
    }

    /// A snippet of `body` around the query's terms, with the byte ranges to highlight.
    pub fn snippet(
        &self,
        query: &dyn TantivyQuery,
        body: &str,
        max_chars: usize,
    ) -> Result<(String, Vec<std::ops::Range<usize>>)> {
        let searcher = self.reader.searcher();
        let mut generator =
            tantivy::snippet::SnippetGenerator::create(&searcher, query, self.fields.body)?;
        generator.set_max_num_chars(max_chars);
        let snippet = generator.snippet(body);
        Ok((
            snippet.fragment().to_string(),
            snippet.highlighted().to_vec(),
        ))
    }
}

fn dir_size(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}
