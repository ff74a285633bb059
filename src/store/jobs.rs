//! Durable background-job queue in sled.
//!
//! Jobs move `Pending → Running → Done | Failed`. A job's id is the first 16
//! bytes of `blake3(kind ‖ 0 ‖ payload)`, so enqueueing is idempotent. Every
//! state change of a job is one sled transaction over three trees:
//!
//! * `jobs`: id → bincode(`Job`)
//! * `jobs_by_state`: `klen(u32 BE) ‖ kind ‖ state ‖ [lease_until] ‖ seq` →
//!   `id ‖ not_before`; pending/done/failed are ordered by enqueue sequence
//!   (FIFO), running jobs by lease expiry, so claiming is a prefix scan.
//! * `jobs_counts`: `klen ‖ kind ‖ state` → u64 BE, maintained in the same
//!   transaction as the job, so counts are O(1) and correct across crashes.
//!
//! Time is always passed in as unix milliseconds, so the logic is
//! deterministic. A running job whose lease expired (its worker crashed)
//! stays `Running` in the store and in `counts` until it is claimed again.

use std::collections::BTreeMap;

mod claim;
mod forget;

use serde::{Deserialize, Serialize};
use sled::transaction::{
    ConflictableTransactionError, TransactionError, Transactional, TransactionalTree,
};

#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error("job store: {0}")]
    Sled(sled::Error),
    #[error("the job store holds damaged data ({0}): run `quoth rebuild` to re-read your mail into a new store")]
    Damaged(String),
    #[error("job store transaction: {0}")]
    Transaction(String),
    #[error("corrupt job record: {0}")]
    Corrupt(String),
    #[error("the lease on this job was lost to another worker")]
    LeaseLost,
    #[error("no such job")]
    NotFound,
}

impl From<sled::Error> for JobError {
    fn from(e: sled::Error) -> Self {
        match e {
            sled::Error::Corruption { .. } => JobError::Damaged(e.to_string()),
            other => JobError::Sled(other),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct JobId(pub [u8; 16]);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum JobState {
    Pending,
    Running,
    Done,
    Failed,
}

impl JobState {
    const ALL: [JobState; 4] = [Self::Pending, Self::Running, Self::Done, Self::Failed];
    fn tag(self) -> u8 {
        match self {
            Self::Pending => 0,
            Self::Running => 1,
            Self::Done => 2,
            Self::Failed => 3,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    pub id: JobId,
    pub kind: String,
    /// Emptied when the job completes (a done job keeps only a small record).
    pub payload: Vec<u8>,
    pub state: JobState,
    pub attempts: u32,
    pub not_before_ms: i64,
    pub lease_until_ms: i64,
    pub lease_token: u64,
    pub last_error: Option<String>,
    pub seq: u64,
    pub enqueued_ms: i64,
    pub finished_ms: Option<i64>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct JobCounts {
    pub pending: u64,
    pub running: u64,
    pub done: u64,
    pub failed: u64,
}

#[derive(Debug, Clone, Copy)]
pub struct QueueConfig {
    pub lease_ms: i64,
    pub max_attempts: u32,
    pub backoff_base_ms: i64,
    pub backoff_cap_ms: i64,
}

impl Default for QueueConfig {
    fn default() -> Self {
        Self {
            lease_ms: 60_000,
            max_attempts: 5,
            backoff_base_ms: 1000,
            backoff_cap_ms: 300_000,
        }
    }
}

impl QueueConfig {
    /// Delay before retry number `attempts` (1-based): base × 2^(attempts-1), capped.
    fn backoff_ms(&self, attempts: u32) -> i64 {
        let exp = attempts.saturating_sub(1).min(62);
        self.backoff_base_ms
            .saturating_mul(1i64 << exp)
            .min(self.backoff_cap_ms)
            .max(0)
    }
}

/// Batch size for multi-job transactions.
const BATCH: usize = 1000;

#[derive(Clone)]
pub struct JobQueue {
    db: sled::Db,
    jobs: sled::Tree,
    idx: sled::Tree,
    counts: sled::Tree,
    cfg: QueueConfig,
}

type TxResult<T> = Result<T, ConflictableTransactionError<JobError>>;

fn abort<T>(e: JobError) -> TxResult<T> {
    Err(ConflictableTransactionError::Abort(e))
}

fn kind_prefix(kind: &str) -> Vec<u8> {
    let mut k = Vec::with_capacity(4 + kind.len() + 17);
    k.extend_from_slice(&(kind.len() as u32).to_be_bytes());
    k.extend_from_slice(kind.as_bytes());
    k
}

fn state_prefix(kind: &str, state: JobState) -> Vec<u8> {
    let mut k = kind_prefix(kind);
    k.push(state.tag());
    k
}

/// i64 → big-endian bytes that sort in numeric order.
fn sortable(v: i64) -> [u8; 8] {
    ((v as u64) ^ (1 << 63)).to_be_bytes()
}

fn unsortable(b: &[u8]) -> Option<i64> {
    Some((u64::from_be_bytes(b.try_into().ok()?) ^ (1 << 63)) as i64)
}

fn index_key(job: &Job) -> Vec<u8> {
    let mut k = state_prefix(&job.kind, job.state);
    if job.state == JobState::Running {
        k.extend_from_slice(&sortable(job.lease_until_ms));
    }
    k.extend_from_slice(&job.seq.to_be_bytes());
    k
}

fn index_value(job: &Job) -> Vec<u8> {
    let mut v = job.id.0.to_vec();
    v.extend_from_slice(&job.not_before_ms.to_be_bytes());
    v
}

/// Parses an index value into (id, not_before_ms).
fn parse_index_value(v: &[u8]) -> Result<(JobId, i64), JobError> {
    if v.len() != 24 {
        return Err(JobError::Corrupt(format!(
            "index value of {} bytes",
            v.len()
        )));
    }
    let mut id = [0u8; 16];
    id.copy_from_slice(&v[..16]);
    let nb = i64::from_be_bytes(
        v[16..]
            .try_into()
            .map_err(|_| JobError::Corrupt("index".into()))?,
    );
    Ok((JobId(id), nb))
}

fn decode_job(bytes: &[u8]) -> Result<Job, JobError> {
    bincode::deserialize(bytes).map_err(|e| JobError::Corrupt(e.to_string()))
}

fn encode_job(job: &Job) -> Result<Vec<u8>, JobError> {
    bincode::serialize(job).map_err(|e| JobError::Transaction(format!("encode job: {e}")))
}

fn decode_count(bytes: &[u8]) -> Result<u64, JobError> {
    let arr: [u8; 8] = bytes
        .try_into()
        .map_err(|_| JobError::Corrupt(format!("counter of {} bytes", bytes.len())))?;
    Ok(u64::from_be_bytes(arr))
}

fn check_lease(job: &Job, token: u64) -> Result<(), JobError> {
    if job.state == JobState::Running && job.lease_token == token {
        Ok(())
    } else {
        Err(JobError::LeaseLost)
    }
}

/// One invocation of a transaction over the three trees, with pending
/// counter deltas applied at the end.
struct Tx<'a> {
    jobs: &'a TransactionalTree,
    idx: &'a TransactionalTree,
    counts: &'a TransactionalTree,
    deltas: BTreeMap<Vec<u8>, i64>,
}

impl Tx<'_> {
    fn load(&self, id: JobId) -> TxResult<Option<Job>> {
        match self.jobs.get(id.0)? {
            None => Ok(None),
            Some(b) => decode_job(&b).map(Some).or_else(abort),
        }
    }

    fn load_existing(&self, id: JobId) -> TxResult<Job> {
        match self.load(id)? {
            Some(j) => Ok(j),
            None => abort(JobError::NotFound),
        }
    }

    /// Writes `new`, replacing `old` (same id) in the index and counters.
    fn store(&mut self, old: Option<&Job>, new: &Job) -> TxResult<()> {
        if let Some(old) = old {
            self.idx.remove(index_key(old))?;
            *self
                .deltas
                .entry(state_prefix(&old.kind, old.state))
                .or_default() -= 1;
        }
        self.idx.insert(index_key(new), index_value(new))?;
        *self
            .deltas
            .entry(state_prefix(&new.kind, new.state))
            .or_default() += 1;
        let bytes = encode_job(new).or_else(abort)?;
        self.jobs.insert(&new.id.0, bytes)?;
        Ok(())
    }

    fn finish(self) -> TxResult<()> {
        for (key, delta) in self.deltas {
            if delta == 0 {
                continue;
            }
            let cur = match self.counts.get(&key)? {
                Some(b) => decode_count(&b).or_else(abort)?,
                None => 0,
            };
            let next = cur as i64 + delta;
            if next < 0 {
                return abort(JobError::Corrupt("job counter would go negative".into()));
            }
            self.counts.insert(key, &(next as u64).to_be_bytes())?;
        }
        Ok(())
    }
}

impl JobQueue {
    pub fn open(db: &sled::Db, cfg: QueueConfig) -> Result<Self, JobError> {
        Ok(Self {
            db: db.clone(),
            jobs: db.open_tree("jobs")?,
            idx: db.open_tree("jobs_by_state")?,
            counts: db.open_tree("jobs_counts")?,
            cfg,
        })
    }

    pub fn job_id(kind: &str, payload: &[u8]) -> JobId {
        let mut h = blake3::Hasher::new();
        h.update(kind.as_bytes());
        h.update(&[0]);
        h.update(payload);
        let mut id = [0u8; 16];
        id.copy_from_slice(&h.finalize().as_bytes()[..16]);
        JobId(id)
    }

    fn run_tx<R>(&self, f: impl Fn(&mut Tx<'_>) -> TxResult<R>) -> Result<R, JobError> {
        (&self.jobs, &self.idx, &self.counts)
            .transaction(|(jobs, idx, counts)| {
                let mut tx = Tx {
                    jobs,
                    idx,
                    counts,
                    deltas: BTreeMap::new(),
                };
                let r = f(&mut tx)?;
                tx.finish()?;
                Ok(r)
            })
            .map_err(|e| match e {
                TransactionError::Abort(e) => e,
                TransactionError::Storage(e) => JobError::Sled(e),
            })
    }

    fn new_job(kind: &str, payload: &[u8], seq: u64, now_ms: i64) -> Job {
        Job {
            id: Self::job_id(kind, payload),
            kind: kind.to_string(),
            payload: payload.to_vec(),
            state: JobState::Pending,
            attempts: 0,
            not_before_ms: now_ms,
            lease_until_ms: 0,
            lease_token: 0,
            last_error: None,
            seq,
            enqueued_ms: now_ms,
            finished_ms: None,
        }
    }

    /// Returns false if a job with this kind+payload already exists (in any state).
    pub fn enqueue(&self, kind: &str, payload: &[u8], now_ms: i64) -> Result<bool, JobError> {
        let id = Self::job_id(kind, payload);
        if self.jobs.contains_key(id.0)? {
            return Ok(false);
        }
        let job = Self::new_job(kind, payload, self.db.generate_id()?, now_ms);
        self.run_tx(|tx| {
            if tx.load(id)?.is_some() {
                return Ok(false);
            }
            tx.store(None, &job)?;
            Ok(true)
        })
    }

    /// Enqueues many payloads, one transaction per batch; returns how many were new.
    pub fn enqueue_many(
        &self,
        kind: &str,
        payloads: &[Vec<u8>],
        now_ms: i64,
    ) -> Result<usize, JobError> {
        let mut added = 0;
        for chunk in payloads.chunks(BATCH) {
            let mut fresh = Vec::with_capacity(chunk.len());
            for p in chunk {
                if !self.jobs.contains_key(Self::job_id(kind, p).0)? {
                    fresh.push(Self::new_job(kind, p, self.db.generate_id()?, now_ms));
                }
            }
            if fresh.is_empty() {
                continue;
            }
            added += self.run_tx(|tx| {
                let mut n = 0;
                for job in &fresh {
                    if tx.load(job.id)?.is_none() {
                        tx.store(None, job)?;
                        n += 1;
                    }
                }
                Ok(n)
            })?;
        }
        Ok(added)
    }

    /// Applies `f` to a running job held with `token`, atomically.
    fn update_leased(&self, id: JobId, token: u64, f: impl Fn(&mut Job)) -> Result<Job, JobError> {
        self.run_tx(|tx| {
            let old = tx.load_existing(id)?;
            check_lease(&old, token).or_else(abort)?;
            let mut job = old.clone();
            f(&mut job);
            tx.store(Some(&old), &job)?;
            Ok(job)
        })
    }

    /// Extends the lease to `now + lease_ms`. Works even after the lease
    /// expired, as long as no other worker has re-claimed the job.
    pub fn heartbeat(&self, id: JobId, token: u64, now_ms: i64) -> Result<(), JobError> {
        let until = now_ms.saturating_add(self.cfg.lease_ms);
        self.update_leased(id, token, |j| j.lease_until_ms = until)
            .map(|_| ())
    }

    fn mark_done(job: &mut Job, now_ms: i64) {
        job.state = JobState::Done;
        job.finished_ms = Some(now_ms);
        job.payload = Vec::new();
        job.last_error = None;
    }

    pub fn complete(&self, id: JobId, token: u64, now_ms: i64) -> Result<(), JobError> {
        self.update_leased(id, token, |j| Self::mark_done(j, now_ms))
            .map(|_| ())
    }

    /// Completes all jobs in one transaction. All or nothing: if any lease
    /// was lost (or a job is missing) nothing changes and the error is returned.
    pub fn complete_many(&self, done: &[(JobId, u64)], now_ms: i64) -> Result<(), JobError> {
        self.run_tx(|tx| {
            for &(id, token) in done {
                let old = tx.load_existing(id)?;
                check_lease(&old, token).or_else(abort)?;
                let mut job = old.clone();
                Self::mark_done(&mut job, now_ms);
                tx.store(Some(&old), &job)?;
            }
            Ok(())
        })
    }

    /// Records a failed attempt: back to pending with exponential backoff, or
    /// `Failed` once `max_attempts` is reached. Returns the new state.
    pub fn fail(
        &self,
        id: JobId,
        token: u64,
        reason: &str,
        now_ms: i64,
    ) -> Result<JobState, JobError> {
        let cfg = self.cfg;
        let job = self.update_leased(id, token, |j| {
            j.last_error = Some(reason.to_string());
            if j.attempts < cfg.max_attempts {
                j.state = JobState::Pending;
                j.not_before_ms = now_ms.saturating_add(cfg.backoff_ms(j.attempts));
            } else {
                j.state = JobState::Failed;
                j.finished_ms = Some(now_ms);
            }
        })?;
        Ok(job.state)
    }

    /// Moves every failed job of `kind` back to pending with a fresh attempt budget.
    pub fn retry_failed(&self, kind: &str, now_ms: i64) -> Result<usize, JobError> {
        let mut ids = Vec::new();
        for kv in self.idx.scan_prefix(state_prefix(kind, JobState::Failed)) {
            ids.push(parse_index_value(&kv?.1)?.0);
        }
        let mut n = 0;
        for chunk in ids.chunks(BATCH) {
            n += self.run_tx(|tx| {
                let mut n = 0;
                for &id in chunk {
                    let Some(old) = tx.load(id)? else { continue };
                    if old.state != JobState::Failed {
                        continue;
                    }
                    let mut job = old.clone();
                    job.state = JobState::Pending;
                    job.attempts = 0;
                    job.not_before_ms = now_ms;
                    job.finished_ms = None;
                    tx.store(Some(&old), &job)?;
                    n += 1;
                }
                Ok(n)
            })?;
        }
        Ok(n)
    }

    pub fn get(&self, id: JobId) -> Result<Option<Job>, JobError> {
        self.jobs.get(id.0)?.map(|b| decode_job(&b)).transpose()
    }

    pub fn counts(&self, kind: &str) -> Result<JobCounts, JobError> {
        let mut c = [0u64; 4];
        for (slot, state) in c.iter_mut().zip(JobState::ALL) {
            if let Some(b) = self.counts.get(state_prefix(kind, state))? {
                *slot = decode_count(&b)?;
            }
        }
        Ok(JobCounts {
            pending: c[0],
            running: c[1],
            done: c[2],
            failed: c[3],
        })
    }

    pub fn flush(&self) -> Result<(), JobError> {
        self.db.flush()?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "jobs_tests.rs"]
mod tests;
