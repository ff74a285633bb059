//! A set of messages as a query over their keys (`is:` and `tag:` terms). The set's
//! term automaton is the costly part, built from every key of the set each time a
//! plain term-set query runs; here it is built once per distinct set and kept (a
//! few recent sets, by the blake3 hash of their keys), so counting saved views and
//! listing them do not build it again while the set has not changed.

use crate::mail::model::MessageKey;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use tantivy::query::{AutomatonWeight, EnableScoring, Query, Weight};
use tantivy::schema::Field;
use tantivy_fst::raw::CompiledAddr;
use tantivy_fst::{Automaton, Map};

/// Sets kept: one per state and tag a user's views ask for is plenty.
const KEPT: usize = 16;

/// The keys of a set, as the automaton the key field's term dictionary is read with.
pub struct KeyAutomaton(Map<Vec<u8>>);

impl Automaton for KeyAutomaton {
    type State = Option<CompiledAddr>;

    fn start(&self) -> Self::State {
        Some(self.0.as_ref().root().addr())
    }

    fn is_match(&self, state: &Self::State) -> bool {
        state.is_some_and(|s| self.0.as_ref().node(s).is_final())
    }

    fn accept(&self, state: &Self::State, byte: u8) -> Self::State {
        let node = self.0.as_ref().node((*state)?);
        let transition = node.find_input(byte)?;
        Some(node.transition_addr(transition))
    }

    fn can_match(&self, state: &Self::State) -> bool {
        state.is_some()
    }
}

/// The messages of a set, matched by their key field.
#[derive(Clone)]
pub struct KeySetQuery {
    field: Field,
    automaton: Arc<KeyAutomaton>,
}

impl std::fmt::Debug for KeySetQuery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "KeySetQuery({} keys)", self.automaton.0.len())
    }
}

impl Query for KeySetQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(AutomatonWeight::<KeyAutomaton>::new(
            self.field,
            self.automaton.clone(),
        )))
    }
}

type Kept = VecDeque<([u8; 32], Arc<KeyAutomaton>)>;

static KEPT_SETS: Mutex<Kept> = Mutex::new(VecDeque::new());

/// The query of the messages `keys` on the key field `field` (keys as lower-case
/// hex, as the index stores them).
pub fn key_set_query(keys: &[MessageKey], field: Field) -> Box<dyn Query> {
    let mut hex: Vec<String> = keys.iter().map(|k| k.to_hex()).collect();
    hex.sort_unstable();
    hex.dedup();
    let mut hasher = blake3::Hasher::new();
    hasher.update(&field.field_id().to_le_bytes());
    for h in &hex {
        hasher.update(h.as_bytes());
        hasher.update(b"\n");
    }
    let id: [u8; 32] = hasher.finalize().into();
    let mut kept = KEPT_SETS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(at) = kept.iter().position(|(k, _)| *k == id) {
        if let Some(entry) = kept.remove(at) {
            let automaton = entry.1.clone();
            kept.push_front(entry);
            return Box::new(KeySetQuery { field, automaton });
        }
    }
    // The keys are sorted and distinct, which is all building asks for.
    let Ok(map) = Map::from_iter(hex.iter().map(|h| (h.as_bytes(), 0u64))) else {
        return Box::new(tantivy::query::EmptyQuery);
    };
    let automaton = Arc::new(KeyAutomaton(map));
    kept.push_front((id, automaton.clone()));
    kept.truncate(KEPT);
    Box::new(KeySetQuery { field, automaton })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::collector::Count;
    use tantivy::schema::{Schema, STRING};
    use tantivy::{doc, Index};

    #[test]
    fn a_set_matches_exactly_its_keys_and_a_changed_set_is_built_anew() {
        let mut schema = Schema::builder();
        let key = schema.add_text_field("key", STRING);
        let index = Index::create_in_ram(schema.build());
        let keys: Vec<MessageKey> = (0u8..6).map(|i| MessageKey([i; 16])).collect();
        let mut writer = index.writer(15_000_000).expect("writer");
        for k in &keys {
            writer.add_document(doc!(key => k.to_hex())).expect("add");
        }
        writer.commit().expect("commit");
        let searcher = index.reader().expect("reader").searcher();
        let count = |set: &[MessageKey]| {
            searcher
                .search(key_set_query(set, key).as_ref(), &Count)
                .expect("search")
        };
        assert_eq!(count(&keys[..2]), 2);
        assert_eq!(count(&keys[..2]), 2, "the kept set answers the same");
        assert_eq!(count(&keys[..3]), 3, "one key more: another set");
        assert_eq!(count(&[keys[5], keys[5], keys[1]]), 2);
        assert_eq!(count(&[]), 0);
        let unknown = MessageKey([0xee; 16]);
        assert_eq!(count(&[unknown, keys[4]]), 1);
    }
}
