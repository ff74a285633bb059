//! In-memory copies of the store's sets of messages (the messages in a state, the
//! messages with a tag), so a query reads a set without scanning its database tree.
//! A set is read from its tree the first time it is asked for; after that every
//! write to the tree changes the copy too, under one lock, so a copy never lags its
//! tree. Each content a set takes gets a new id, which the search index keys its
//! per-segment matches by.

use crate::mail::model::MessageKey;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn fresh_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// Hashes a message key by folding its bytes: keys are content hashes, already
/// uniform, and SipHash over them was most of the cost of matching a large set
/// against an index segment.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = self.0.rotate_left(29) ^ u64::from_le_bytes(word);
        }
    }

    fn write_usize(&mut self, _len: usize) {}

    fn finish(&self) -> u64 {
        self.0
    }
}

type Keys = HashSet<MessageKey, BuildHasherDefault<KeyHasher>>;

/// A set of messages as it stands at one moment. Two sets with the same id have
/// the same messages.
#[derive(Debug, Clone)]
pub struct KeySet {
    id: u64,
    keys: Keys,
}

impl Default for KeySet {
    fn default() -> Self {
        Self::new([])
    }
}

impl KeySet {
    pub fn new(keys: impl IntoIterator<Item = MessageKey>) -> Self {
        Self {
            id: fresh_id(),
            keys: keys.into_iter().collect(),
        }
    }

    /// Names this content: it changes whenever a message joins or leaves the set.
    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn contains(&self, key: &MessageKey) -> bool {
        self.keys.contains(key)
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn keys(&self) -> impl Iterator<Item = &MessageKey> {
        self.keys.iter()
    }
}

/// One message joining (`true`) or leaving (`false`) a named set.
pub type SetChange<N> = (N, MessageKey, bool);

/// The loaded copies of a database's named sets.
pub struct LiveSets<N> {
    sets: RwLock<HashMap<N, Arc<KeySet>>>,
}

impl<N> Default for LiveSets<N> {
    fn default() -> Self {
        Self {
            sets: RwLock::new(HashMap::new()),
        }
    }
}

impl<N: Hash + Eq + Clone> LiveSets<N> {
    fn read(&self) -> RwLockReadGuard<'_, HashMap<N, Arc<KeySet>>> {
        self.sets.read().unwrap_or_else(|p| p.into_inner())
    }

    fn lock(&self) -> RwLockWriteGuard<'_, HashMap<N, Arc<KeySet>>> {
        self.sets.write().unwrap_or_else(|p| p.into_inner())
    }

    /// The set `name`, read with `load` from the database when it is not loaded.
    pub fn get<E>(
        &self,
        name: &N,
        load: impl FnOnce() -> Result<Vec<MessageKey>, E>,
    ) -> Result<Arc<KeySet>, E> {
        if let Some(set) = self.read().get(name) {
            return Ok(set.clone());
        }
        let mut sets = self.lock();
        if let Some(set) = sets.get(name) {
            return Ok(set.clone());
        }
        let set = Arc::new(KeySet::new(load()?));
        sets.insert(name.clone(), set.clone());
        Ok(set)
    }

    /// Runs `write`, the database write of `changes`, and applies them to the loaded
    /// copies, with no read of a copy in between. When the write fails, the copies
    /// it touched are dropped, to be read again from the database.
    pub fn write<T, E>(
        &self,
        changes: &[SetChange<N>],
        write: impl FnOnce() -> Result<T, E>,
    ) -> Result<T, E> {
        let mut sets = self.lock();
        let written = write();
        if written.is_err() {
            for (name, _, _) in changes {
                sets.remove(name);
            }
            return written;
        }
        let mut touched: Vec<&N> = Vec::new();
        for (name, key, present) in changes {
            let Some(set) = sets.get_mut(name) else {
                continue;
            };
            if set.contains(key) == *present {
                continue;
            }
            let set = Arc::make_mut(set);
            if *present {
                set.keys.insert(*key);
            } else {
                set.keys.remove(key);
            }
            if !touched.contains(&name) {
                touched.push(name);
            }
        }
        for name in touched {
            if let Some(set) = sets.get_mut(name) {
                Arc::make_mut(set).id = fresh_id();
            }
        }
        written
    }

    /// Drops every copy, as the database's sets are written anew.
    pub fn forget_all(&self) {
        self.lock().clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u8) -> MessageKey {
        MessageKey([i; 16])
    }

    #[test]
    fn a_loaded_set_follows_writes_and_takes_a_new_id_only_when_it_changes() {
        let live: LiveSets<&str> = LiveSets::default();
        let loads = std::cell::Cell::new(0);
        let load = || -> Result<Vec<MessageKey>, ()> {
            loads.set(loads.get() + 1);
            Ok(vec![key(1), key(2)])
        };
        let first = live.get(&"flagged", load).expect("load");
        assert_eq!(first.len(), 2);
        let again = live.get(&"flagged", load).expect("kept");
        assert_eq!(loads.get(), 1, "the second read does not load");
        assert_eq!(again.id(), first.id());

        live.write::<(), ()>(
            &[("flagged", key(3), true), ("flagged", key(1), false)],
            || Ok(()),
        )
        .expect("write");
        let changed = live.get(&"flagged", load).expect("changed");
        assert_ne!(changed.id(), first.id());
        assert!(changed.contains(&key(3)) && !changed.contains(&key(1)));
        assert!(
            first.contains(&key(1)),
            "a set already read keeps its content"
        );

        live.write::<(), ()>(&[("flagged", key(3), true)], || Ok(()))
            .expect("write");
        assert_eq!(
            live.get(&"flagged", load).expect("same").id(),
            changed.id(),
            "a write that changes nothing keeps the id"
        );
        live.write::<(), ()>(&[("unread", key(9), true)], || Ok(()))
            .expect("a set not loaded is left to its database");
        assert_eq!(loads.get(), 1);
    }

    #[test]
    fn a_failed_write_drops_the_copy_so_the_database_is_read_again() {
        let live: LiveSets<&str> = LiveSets::default();
        live.get(&"unread", || Ok::<_, ()>(vec![key(1)]))
            .expect("load");
        let failed = live.write(&[("unread", key(2), true)], || Err::<(), _>("disk full"));
        assert_eq!(failed, Err("disk full"));
        let reread = live
            .get(&"unread", || Ok::<_, ()>(vec![key(7)]))
            .expect("reload");
        assert!(reread.contains(&key(7)) && !reread.contains(&key(2)));
    }
}
