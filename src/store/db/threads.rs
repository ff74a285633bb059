//! The thread records: each message's thread facts and thread, and the thread list.

use super::{
    count, decode_facts, decode_or_legacy, encode, BoundedBatch, Result, Store, StoreError,
};
use crate::mail::model::{MessageKey, ThreadId};
use crate::store::records::{ThreadFacts, ThreadSummary};

impl Store {
    /// Every message's thread facts, one at a time (a large mailbox's facts are read
    /// once per rethread and need not all be held in this form).
    pub fn thread_facts(&self) -> impl Iterator<Item = Result<(MessageKey, ThreadFacts)>> + '_ {
        self.facts.iter().map(|item| {
            let (k, v) = item?;
            let key = k
                .as_ref()
                .try_into()
                .map(MessageKey)
                .map_err(|_| StoreError::Corrupt {
                    tree: "thread_facts",
                    reason: "bad key length".into(),
                })?;
            Ok((key, decode_facts(&v)?))
        })
    }

    pub fn thread_of(&self, key: &MessageKey) -> Result<Option<ThreadId>> {
        Ok(self
            .msg_thread
            .get(key.0)?
            .and_then(|v| v.as_ref().try_into().ok().map(ThreadId)))
    }

    /// Sets the thread of each message; returns those whose thread changed.
    pub fn assign_threads(
        &self,
        assignment: &[(MessageKey, ThreadId)],
    ) -> Result<Vec<(MessageKey, ThreadId)>> {
        let mut changed = Vec::new();
        let mut batch = BoundedBatch::new(&self.msg_thread);
        for (key, thread) in assignment {
            let old = self.msg_thread.get(key.0)?;
            if old.as_deref() != Some(&thread.0[..]) {
                batch.insert(&key.0, &thread.0)?;
                changed.push((*key, *thread));
            }
        }
        batch.finish()?;
        Ok(changed)
    }

    /// Replaces the thread list.
    pub fn replace_threads(&self, threads: &[ThreadSummary]) -> Result<()> {
        let mut keep = std::collections::HashSet::new();
        let mut batch = BoundedBatch::new(&self.threads);
        for t in threads {
            let value = encode(t);
            if self.threads.get(t.id.0)?.as_deref() != Some(&value[..]) {
                batch.insert(&t.id.0, &value)?;
            }
            keep.insert(t.id.0);
        }
        for k in self.threads.iter().keys() {
            let k = k?;
            if !keep.contains(k.as_ref()) {
                batch.remove(&k)?;
            }
        }
        batch.finish()?;
        Ok(())
    }

    pub fn thread(&self, id: &ThreadId) -> Result<Option<ThreadSummary>> {
        self.threads
            .get(id.0)?
            .map(|v| decode_thread(&v))
            .transpose()
    }

    pub fn threads(&self) -> Result<Vec<ThreadSummary>> {
        self.threads
            .iter()
            .values()
            .map(|v| decode_thread(&v?))
            .collect()
    }

    /// The thread summaries one by one, in key order, so a caller can show the first
    /// ones before the whole list of a large mailbox is read.
    pub fn threads_iter(&self) -> impl Iterator<Item = Result<ThreadSummary>> + '_ {
        self.threads.iter().values().map(|v| decode_thread(&v?))
    }

    pub fn thread_count(&self) -> Result<usize> {
        count(&self.threads)
    }
}

/// A thread summary, of today's form or of a store written before it counted emails.
fn decode_thread(bytes: &[u8]) -> Result<ThreadSummary> {
    decode_or_legacy::<ThreadSummary, crate::store::records::legacy::ThreadSummary>(
        "threads", bytes,
    )
}
