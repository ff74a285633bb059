//! A set of messages as a query over the index (`is:` and `tag:` terms). A segment
//! never changes, so each segment's message keys (one per document) are read once
//! from its key fast fields and kept; the documents of a set in a segment are then found
//! once for each content of the set (its [`KeySet::id`]) and kept too. Counting the
//! saved views again, or after one flag changed, is a pass over a few bitsets.

use super::lexical::{key_of_halves, KEY_HI, KEY_LO};
use crate::mail::model::MessageKey;
use crate::store::live_sets::KeySet;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use tantivy::index::SegmentId;
use tantivy::query::{
    BitSetDocSet, ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight,
};
use tantivy::BitSet;
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyError};

/// Segments whose keys are kept: more than an index has at once.
const KEPT_SEGMENTS: usize = 64;
/// Matches kept, each one (segment, set content): every view's sets over every
/// segment, with room for the contents a flag change leaves behind.
const KEPT_MATCHES: usize = 512;

/// Each document's message key in one segment (None: a document without one).
type SegmentKeys = Vec<Option<MessageKey>>;

struct Kept<K, V> {
    entries: VecDeque<(K, Arc<V>)>,
}

impl<K: PartialEq, V> Kept<K, V> {
    const fn new() -> Self {
        Self {
            entries: VecDeque::new(),
        }
    }

    fn get(&self, key: &K) -> Option<Arc<V>> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }

    fn put(&mut self, key: K, value: Arc<V>, cap: usize) {
        self.entries.push_front((key, value));
        self.entries.truncate(cap);
    }
}

static SEGMENTS: Mutex<Kept<SegmentId, SegmentKeys>> = Mutex::new(Kept::new());
static MATCHES: Mutex<Kept<(SegmentId, u64), BitSet>> = Mutex::new(Kept::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The messages of `set`, matched by the key's fast fields.
pub fn key_set_query(set: Arc<KeySet>) -> Box<dyn Query> {
    Box::new(KeySetQuery { set })
}

#[derive(Clone)]
struct KeySetQuery {
    set: Arc<KeySet>,
}

impl std::fmt::Debug for KeySetQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeySetQuery({} keys)", self.set.len())
    }
}

impl Query for KeySetQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for KeySetQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let docs = matches(reader, &self.set)?;
        Ok(Box::new(ConstScorer::new(
            BitSetDocSet::from(BitSet::clone(&docs)),
            boost,
        )))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) == doc {
            Ok(Explanation::new("KeySetQuery", 1.0))
        } else {
            Err(TantivyError::InvalidArgument(
                "the document is not in the set".to_string(),
            ))
        }
    }
}

/// The documents of `set` in a segment.
fn matches(reader: &SegmentReader, set: &KeySet) -> tantivy::Result<Arc<BitSet>> {
    let id = (reader.segment_id(), set.id());
    if let Some(found) = lock(&MATCHES).get(&id) {
        return Ok(found);
    }
    let mut docs = BitSet::with_max_value(reader.max_doc());
    let keys = match set.is_empty() {
        true => Arc::default(),
        false => segment_keys(reader)?,
    };
    for (doc, key) in keys.iter().enumerate() {
        if key.is_some_and(|k| set.contains(&k)) {
            docs.insert(doc as DocId);
        }
    }
    let docs = Arc::new(docs);
    lock(&MATCHES).put(id, docs.clone(), KEPT_MATCHES);
    Ok(docs)
}

/// Each document's key in a segment, read from the key's fast fields.
fn segment_keys(reader: &SegmentReader) -> tantivy::Result<Arc<SegmentKeys>> {
    let id = reader.segment_id();
    if let Some(found) = lock(&SEGMENTS).get(&id) {
        return Ok(found);
    }
    let fast = reader.fast_fields();
    let (hi, lo) = (fast.u64(KEY_HI)?, fast.u64(KEY_LO)?);
    let keys: SegmentKeys = (0..reader.max_doc())
        .map(|doc| Some(key_of_halves(hi.first(doc)?, lo.first(doc)?)))
        .collect();
    let keys = Arc::new(keys);
    lock(&SEGMENTS).put(id, keys.clone(), KEPT_SEGMENTS);
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::lexical::key_halves;
    use tantivy::collector::Count;
    use tantivy::schema::{Schema, FAST, STRING};
    use tantivy::{doc, Index, Term};

    #[test]
    fn a_set_matches_exactly_its_keys_across_segments_and_deletes() {
        let mut schema = Schema::builder();
        let key = schema.add_text_field("key", STRING);
        let hi = schema.add_u64_field(KEY_HI, FAST);
        let lo = schema.add_u64_field(KEY_LO, FAST);
        let document = |k: &MessageKey| {
            let (h, l) = key_halves(k);
            doc!(key => k.to_hex(), hi => h, lo => l)
        };
        let index = Index::create_in_ram(schema.build());
        let keys: Vec<MessageKey> = (0u8..6).map(|i| MessageKey([i; 16])).collect();
        let mut writer = index.writer(15_000_000).expect("writer");
        for (i, k) in keys.iter().enumerate() {
            writer.add_document(document(k)).expect("add");
            if i == 2 {
                writer.commit().expect("first segment");
            }
        }
        // Two copies of one message count twice, as the index holds each copy.
        writer.add_document(document(&keys[4])).expect("copy");
        writer
            .add_document(doc!(key => "no key halves"))
            .expect("odd");
        writer.commit().expect("commit");
        let reader = index.reader().expect("reader");
        let count = |set: &KeySet| {
            reader
                .searcher()
                .search(key_set_query(Arc::new(set.clone())).as_ref(), &Count)
                .expect("search")
        };
        let first_two = KeySet::new(keys[..2].iter().copied());
        assert_eq!(count(&first_two), 2);
        assert_eq!(count(&first_two), 2, "the kept matches answer the same");
        assert_eq!(count(&KeySet::new([keys[1], keys[4]])), 3);
        assert_eq!(count(&KeySet::default()), 0);
        assert_eq!(count(&KeySet::new([MessageKey([0xee; 16]), keys[5]])), 1);

        writer.delete_term(Term::from_field_text(key, &keys[1].to_hex()));
        writer.commit().expect("delete");
        reader.reload().expect("reload");
        assert_eq!(count(&first_two), 1, "a deleted document leaves the count");
    }
}
