//! A set of messages as a query over the index (`is:` and `tag:` terms). A segment
//! never changes, so each segment's message keys (one per document) are read once
//! from its key field and kept; the documents of a set in a segment are then found
//! once for each content of the set (its [`KeySet::id`]) and kept too. Counting the
//! saved views again, or after one flag changed, is a pass over a few bitsets.

use crate::mail::model::MessageKey;
use crate::store::live_sets::KeySet;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard};
use tantivy::index::SegmentId;
use tantivy::query::{
    BitSetDocSet, ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight,
};
use tantivy::schema::{Field, IndexRecordOption};
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

static SEGMENTS: Mutex<Kept<(SegmentId, Field), SegmentKeys>> = Mutex::new(Kept::new());
static MATCHES: Mutex<Kept<(SegmentId, Field, u64), BitSet>> = Mutex::new(Kept::new());

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The messages of `set`, matched by the key field `field` (keys as lower-case hex,
/// as the index stores them).
pub fn key_set_query(set: Arc<KeySet>, field: Field) -> Box<dyn Query> {
    Box::new(KeySetQuery { field, set })
}

#[derive(Clone)]
struct KeySetQuery {
    field: Field,
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
        let docs = matches(reader, self.field, &self.set)?;
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
fn matches(reader: &SegmentReader, field: Field, set: &KeySet) -> tantivy::Result<Arc<BitSet>> {
    let id = (reader.segment_id(), field, set.id());
    if let Some(found) = lock(&MATCHES).get(&id) {
        return Ok(found);
    }
    let keys = segment_keys(reader, field)?;
    let mut docs = BitSet::with_max_value(reader.max_doc());
    for (doc, key) in keys.iter().enumerate() {
        if key.is_some_and(|k| set.contains(&k)) {
            docs.insert(doc as DocId);
        }
    }
    let docs = Arc::new(docs);
    lock(&MATCHES).put(id, docs.clone(), KEPT_MATCHES);
    Ok(docs)
}

/// Each document's key in a segment, read from the key field's terms.
fn segment_keys(reader: &SegmentReader, field: Field) -> tantivy::Result<Arc<SegmentKeys>> {
    let id = (reader.segment_id(), field);
    if let Some(found) = lock(&SEGMENTS).get(&id) {
        return Ok(found);
    }
    let mut keys: SegmentKeys = vec![None; reader.max_doc() as usize];
    let inverted = reader.inverted_index(field)?;
    let mut terms = inverted.terms().stream()?;
    while terms.advance() {
        let key = std::str::from_utf8(terms.key())
            .ok()
            .and_then(MessageKey::from_hex);
        let Some(key) = key else { continue };
        let mut postings =
            inverted.read_block_postings_from_terminfo(terms.value(), IndexRecordOption::Basic)?;
        loop {
            let docs = postings.docs();
            if docs.is_empty() {
                break;
            }
            for &doc in docs {
                if let Some(slot) = keys.get_mut(doc as usize) {
                    *slot = Some(key);
                }
            }
            postings.advance();
        }
    }
    let keys = Arc::new(keys);
    lock(&SEGMENTS).put(id, keys.clone(), KEPT_SEGMENTS);
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::Count;
    use tantivy::schema::{Schema, STRING};
    use tantivy::{doc, Index, Term};

    #[test]
    fn a_set_matches_exactly_its_keys_across_segments_and_deletes() {
        let mut schema = Schema::builder();
        let key = schema.add_text_field("key", STRING);
        let index = Index::create_in_ram(schema.build());
        let keys: Vec<MessageKey> = (0u8..6).map(|i| MessageKey([i; 16])).collect();
        let mut writer = index.writer(15_000_000).expect("writer");
        for (i, k) in keys.iter().enumerate() {
            writer.add_document(doc!(key => k.to_hex())).expect("add");
            if i == 2 {
                writer.commit().expect("first segment");
            }
        }
        // Two copies of one message count twice, as the index holds each copy.
        writer
            .add_document(doc!(key => keys[4].to_hex()))
            .expect("copy");
        writer.add_document(doc!(key => "not a key")).expect("odd");
        writer.commit().expect("commit");
        let reader = index.reader().expect("reader");
        let count = |set: &KeySet| {
            reader
                .searcher()
                .search(key_set_query(Arc::new(set.clone()), key).as_ref(), &Count)
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
