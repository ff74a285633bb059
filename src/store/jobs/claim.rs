//! Claiming jobs: the ready ones first in, leased to the claimer; and, for a
//! process that holds the store alone, the running jobs a dead one left.

use super::{
    parse_index_value, state_prefix, unsortable, Job, JobError, JobId, JobQueue, JobState,
};

impl JobQueue {
    /// Collects up to `max` ready candidates: pending (FIFO) first, then
    /// running jobs whose lease has expired (oldest lease first).
    fn candidates(&self, kind: &str, max: usize, now_ms: i64) -> Result<Vec<JobId>, JobError> {
        let mut out = Vec::new();
        for kv in self.idx.scan_prefix(state_prefix(kind, JobState::Pending)) {
            if out.len() >= max {
                return Ok(out);
            }
            let (_, v) = kv?;
            let (id, not_before) = parse_index_value(&v)?;
            if not_before <= now_ms {
                out.push(id);
            }
        }
        let prefix = state_prefix(kind, JobState::Running);
        for kv in self.idx.scan_prefix(&prefix) {
            if out.len() >= max {
                break;
            }
            let (k, v) = kv?;
            let lease = k
                .get(prefix.len()..prefix.len() + 8)
                .and_then(unsortable)
                .ok_or_else(|| JobError::Corrupt("running index key".into()))?;
            if lease > now_ms {
                break;
            }
            out.push(parse_index_value(&v)?.0);
        }
        Ok(out)
    }

    /// Claims up to `max` ready jobs of `kind`, FIFO by enqueue sequence.
    pub fn claim(&self, kind: &str, max: usize, now_ms: i64) -> Result<Vec<Job>, JobError> {
        self.claim_ready_by(kind, max, now_ms, now_ms)
    }

    /// Claims as [`JobQueue::claim`] does, but as if `orphan_after_ms` had passed: for a
    /// process that holds the store alone, whose running jobs were left by a dead
    /// one. The new leases still run from `now_ms`, so a crash while they run
    /// leaves jobs that the next such claim takes again.
    pub fn claim_orphans(
        &self,
        kind: &str,
        max: usize,
        now_ms: i64,
        orphan_after_ms: i64,
    ) -> Result<Vec<Job>, JobError> {
        self.claim_ready_by(kind, max, now_ms.saturating_add(orphan_after_ms), now_ms)
    }

    /// Claims jobs ready by `ready_by_ms` (pending ones due by then, running ones
    /// whose lease ends by then), leasing them from `now_ms`.
    fn claim_ready_by(
        &self,
        kind: &str,
        max: usize,
        ready_by_ms: i64,
        now_ms: i64,
    ) -> Result<Vec<Job>, JobError> {
        if max == 0 {
            return Ok(Vec::new());
        }
        let mut claimed: Vec<Job> = Vec::new();
        // A concurrent claimer may take some candidates; rescan a few times.
        for _ in 0..3 {
            let want = max - claimed.len();
            let ids = self.candidates(kind, want, ready_by_ms)?;
            if ids.is_empty() {
                break;
            }
            let tokens = ids
                .iter()
                .map(|_| self.db.generate_id())
                .collect::<Result<Vec<_>, _>>()?;
            let got = self.run_tx(|tx| {
                let mut got = Vec::new();
                for (id, token) in ids.iter().zip(&tokens) {
                    let Some(old) = tx.load(*id)? else { continue };
                    let ready = match old.state {
                        JobState::Pending => old.not_before_ms <= ready_by_ms,
                        JobState::Running => old.lease_until_ms <= ready_by_ms,
                        _ => false,
                    };
                    if !ready || old.kind != kind {
                        continue;
                    }
                    let mut job = old.clone();
                    job.state = JobState::Running;
                    job.attempts = job.attempts.saturating_add(1);
                    job.lease_until_ms = now_ms.saturating_add(self.cfg.lease_ms);
                    job.lease_token = *token;
                    tx.store(Some(&old), &job)?;
                    got.push(job);
                }
                Ok(got)
            })?;
            let lost = got.len() < ids.len();
            claimed.extend(got);
            if !lost || claimed.len() >= max {
                break;
            }
        }
        Ok(claimed)
    }
}
