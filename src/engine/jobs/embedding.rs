//! Background embedding: after a lexical ingest, every distinct chunk text waits as a
//! durable "embed" job; workers claim batches, embed them, append the vectors (fsynced)
//! and only then mark the jobs done. A kill at any point loses nothing: claimed jobs
//! come back when their lease expires, and a text whose vector already exists is not
//! embedded again.

use crate::engine::{Engine, EngineError, Result};
use crate::index::embed::{EmbedConfig, EmbedError, Embedder, ModelPaths};
use crate::index::vector_origin::{self, Verdict};
use crate::store::jobs::{JobCounts, JobId, JobQueue};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

pub const EMBED_JOB: &str = "embed";
/// Texts claimed and embedded per step.
const BATCH: usize = 64;
/// Looking this far ahead makes every lease held by a dead process look expired.
const ORPHAN_AFTER_MS: i64 = 24 * 3600 * 1000;
/// Steps between graph dumps (the vectors themselves are durable at every step).
const SAVE_EVERY: usize = 50;

/// Embedding progress, as `quoth status` and engine events report it.
#[derive(Debug, Clone, Copy, Default, Serialize, serde::Deserialize)]
pub struct EmbedProgress {
    pub done: u64,
    pub total: u64,
    pub failed: u64,
    /// Texts per second in this run.
    pub rate: f64,
    /// Seconds until done at this rate.
    pub eta_seconds: Option<f64>,
}

impl EmbedProgress {
    pub fn from_counts(c: JobCounts, rate: f64) -> Self {
        let total = c.pending + c.running + c.done + c.failed;
        let left = (c.pending + c.running) as f64;
        Self {
            done: c.done,
            total,
            failed: c.failed,
            rate,
            eta_seconds: (rate > 0.0).then(|| left / rate),
        }
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct EmbedReport {
    pub embedded: u64,
    /// Jobs whose vector was already stored (a run interrupted after the vectors were
    /// written but before the jobs were marked done).
    pub already_stored: u64,
    pub failed: u64,
    pub seconds: f64,
    pub progress: EmbedProgress,
}

impl Engine {
    /// Loads the embedding model once; later calls reuse it.
    pub fn embedder(&self) -> Result<Arc<Embedder>> {
        if let Some(e) = self.retrieval.embedder.get() {
            return Ok(e.clone());
        }
        let paths = ModelPaths::locate(&self.data_dir)?;
        let cfg = EmbedConfig {
            threads: self.config.embed_threads,
            ..EmbedConfig::default()
        };
        let embedder = Arc::new(Embedder::load(&paths, cfg)?);
        // A model installed after the engine opened: the vectors made from now on are
        // its own, so it is recorded (those of an unrecorded model are left for the
        // next open to replace).
        let dir = self.data_dir.join(crate::engine::open::VECTORS_DIR);
        if self.retrieval.vectors.is_empty()
            && vector_origin::check(&dir, &paths.model, cfg.max_tokens)
                .is_ok_and(|v| v == Verdict::Unrecorded)
        {
            vector_origin::record(&dir, &paths.model, cfg.max_tokens)
                .map_err(|e| EmbedError::Model(e.to_string()))?;
        }
        let _ = self.retrieval.embedder.set(embedder.clone());
        Ok(embedder)
    }

    pub fn embed_progress(&self) -> Result<EmbedProgress> {
        Ok(EmbedProgress::from_counts(
            self.jobs.counts(EMBED_JOB)?,
            0.0,
        ))
    }

    /// Runs embed jobs until none is left or `stop` is set.
    pub fn embed_pending(
        &mut self,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&EmbedProgress),
    ) -> Result<EmbedReport> {
        let started = Instant::now();
        let mut report = EmbedReport::default();
        let mut steps = 0;
        while !stop.load(Ordering::Relaxed) {
            let Some(step) = self.embed_step_claim()? else {
                break;
            };
            // Loaded at the first text that needs it: jobs whose vector is already
            // stored (after a rebuild, say) finish without the model.
            let vectors = if step.texts().is_empty() {
                Ok(Vec::new())
            } else {
                self.embedder()?.embed(&step.texts())
            };
            self.embed_step_store(step, vectors, &mut report)?;
            steps += 1;
            if steps % SAVE_EVERY == 0 {
                self.retrieval.vectors.save()?;
            }
            let rate = report.embedded as f64 / started.elapsed().as_secs_f64().max(1e-9);
            progress(&EmbedProgress::from_counts(
                self.jobs.counts(EMBED_JOB)?,
                rate,
            ));
        }
        self.embed_save()?;
        report.seconds = started.elapsed().as_secs_f64();
        let rate = report.embedded as f64 / report.seconds.max(1e-9);
        report.progress = EmbedProgress::from_counts(self.jobs.counts(EMBED_JOB)?, rate);
        Ok(report)
    }

    /// Claims the next batch of embedding jobs and reads their texts; None when no
    /// job is left. Needs the engine for reading only, so a front end can run the
    /// model on the step's texts without holding the engine at all.
    pub fn embed_step_claim(&self) -> Result<Option<EmbedStep>> {
        let mut jobs = self.jobs.claim(EMBED_JOB, BATCH, now_ms())?;
        if jobs.is_empty() && self.jobs.counts(EMBED_JOB)?.running > 0 {
            // This process holds the store's lock and has finished its own jobs, so
            // jobs still running belong to a process that died: take them now
            // rather than waiting for their leases to expire.
            jobs = self
                .jobs
                .claim_orphans(EMBED_JOB, BATCH, now_ms(), ORPHAN_AFTER_MS)?;
        }
        if jobs.is_empty() {
            return Ok(None);
        }
        let mut step = EmbedStep::default();
        for job in &jobs {
            let Some(id) = payload_id(&job.payload) else {
                self.jobs
                    .fail(job.id, job.lease_token, "bad payload", now_ms())?;
                step.failed += 1;
                continue;
            };
            if self.retrieval.vectors.contains(id) {
                step.already_stored += 1;
                step.finished.push((job.id, job.lease_token));
                continue;
            }
            match self.store.chunks_with_embed(id)?.into_iter().next() {
                Some(chunk) => step
                    .todo
                    .push((id, chunk.embed_text, job.id, job.lease_token)),
                // The chunk is gone (its message was removed): nothing to embed,
                // and no job left behind, so the same text arriving again is
                // embedded and done jobs keep matching stored vectors.
                None => {
                    self.jobs.forget(EMBED_JOB, &job.payload)?;
                }
            }
        }
        Ok(Some(step))
    }

    /// Stores a claimed step's vectors (in the order of [`EmbedStep::texts`]) and
    /// completes its jobs, or records why they failed; adds to `report`.
    pub fn embed_step_store(
        &mut self,
        step: EmbedStep,
        vectors: std::result::Result<Vec<Vec<f32>>, crate::index::embed::EmbedError>,
        report: &mut EmbedReport,
    ) -> Result<()> {
        report.failed += step.failed;
        report.already_stored += step.already_stored;
        // A job claimed while its message was removed (an expunge while the model
        // ran) was forgotten with the message: its vector and its completion have
        // nowhere to go. The write lock held here keeps that from changing now.
        let mut live = Vec::with_capacity(step.todo.len());
        for t in &step.todo {
            live.push(self.jobs.get(t.2).map_err(EngineError::Jobs)?.is_some());
        }
        let mut finished: Vec<(JobId, u64)> = Vec::with_capacity(step.finished.len());
        for done in step.finished {
            if self.jobs.get(done.0).map_err(EngineError::Jobs)?.is_some() {
                finished.push(done);
            }
        }
        if !step.todo.is_empty() {
            match vectors {
                Ok(vectors) => {
                    let items: Vec<(u64, Vec<f32>)> = step
                        .todo
                        .iter()
                        .map(|t| t.0)
                        .zip(vectors)
                        .zip(&live)
                        .filter(|(_, live)| **live)
                        .map(|(item, _)| item)
                        .collect();
                    self.retrieval.vectors.insert_batch(&items)?;
                    self.retrieval.vectors.sync()?;
                    report.embedded += items.len() as u64;
                    finished.extend(
                        step.todo
                            .iter()
                            .zip(&live)
                            .filter(|(_, live)| **live)
                            .map(|(t, _)| (t.2, t.3)),
                    );
                }
                Err(e) => {
                    for (t, _) in step.todo.iter().zip(&live).filter(|(_, live)| **live) {
                        self.jobs.fail(t.2, t.3, &e.to_string(), now_ms())?;
                    }
                    report.failed += step.todo.len() as u64;
                }
            }
        }
        self.jobs.complete_many(&finished, now_ms())?;
        Ok(())
    }

    /// Saves the vector index and the job queue, and keeps the data dir private.
    pub fn embed_save(&mut self) -> Result<()> {
        self.retrieval.vectors.save()?;
        self.jobs.flush()?;
        crate::engine::mailbox::privacy::make_private(&self.data_dir)
            .map_err(|e| crate::store::StoreError::Sled(e.into()))?;
        Ok(())
    }
}

/// One batch of embedding jobs, claimed: the texts to embed and the jobs already
/// settled.
#[derive(Debug, Default)]
pub struct EmbedStep {
    todo: Vec<(u64, String, JobId, u64)>,
    finished: Vec<(JobId, u64)>,
    failed: u64,
    already_stored: u64,
}

impl EmbedStep {
    /// The texts the model must embed, in order.
    pub fn texts(&self) -> Vec<&str> {
        self.todo.iter().map(|t| t.1.as_str()).collect()
    }
}

/// Queues one embed job per id (idempotent: a known id is not queued again).
pub(in crate::engine) fn enqueue_embed_jobs(jobs: &JobQueue, ids: &[u64]) -> Result<usize> {
    let payloads: Vec<Vec<u8>> = ids.iter().map(|id| id.to_be_bytes().to_vec()).collect();
    Ok(jobs.enqueue_many(EMBED_JOB, &payloads, now_ms())?)
}

fn payload_id(payload: &[u8]) -> Option<u64> {
    payload.try_into().ok().map(u64::from_be_bytes)
}

pub(in crate::engine) fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

impl From<crate::store::jobs::JobError> for EngineError {
    fn from(e: crate::store::jobs::JobError) -> Self {
        EngineError::Jobs(e)
    }
}
