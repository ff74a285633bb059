//! Forgetting a job, so the same input can be queued again later.
//!
//! Enqueueing is idempotent by input, which is right while the input's result is
//! kept. When the result is thrown away (a removed message's vector is tombstoned),
//! the done job must go too, or the same text arriving again would never be embedded.

use super::{index_key, state_prefix, JobError, JobQueue};

impl JobQueue {
    /// Removes the job of this kind and payload, whatever its state; returns whether
    /// there was one.
    pub fn forget(&self, kind: &str, payload: &[u8]) -> Result<bool, JobError> {
        let id = Self::job_id(kind, payload);
        if !self.jobs.contains_key(id.0)? {
            return Ok(false);
        }
        self.run_tx(|tx| {
            let Some(job) = tx.load(id)? else {
                return Ok(false);
            };
            tx.idx.remove(index_key(&job))?;
            *tx.deltas
                .entry(state_prefix(&job.kind, job.state))
                .or_default() -= 1;
            tx.jobs.remove(&id.0)?;
            Ok(true)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::store::jobs::{JobQueue, QueueConfig};

    #[test]
    fn a_forgotten_job_can_be_queued_again() {
        let dir = tempfile::tempdir().unwrap();
        let db = sled::open(dir.path()).unwrap();
        let q = JobQueue::open(&db, QueueConfig::default()).unwrap();
        assert!(q.enqueue("embed", b"x", 0).unwrap());
        let job = q.claim("embed", 1, 0).unwrap().remove(0);
        q.complete(job.id, job.lease_token, 1).unwrap();
        assert!(!q.enqueue("embed", b"x", 2).unwrap());
        assert!(q.forget("embed", b"x").unwrap());
        assert_eq!(q.counts("embed").unwrap().done, 0);
        assert!(q.enqueue("embed", b"x", 3).unwrap());
        assert_eq!(q.counts("embed").unwrap().pending, 1);
    }
}
