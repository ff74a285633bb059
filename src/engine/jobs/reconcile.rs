//! Derived work reconciled from the store.
//!
//! The store is the source of truth; vectors and attachment text are derived from
//! it by durable jobs. Storing a message and queueing its jobs are separate writes,
//! so a process killed between them leaves texts with no job, and a damaged vector
//! file leaves done jobs with no vector. Reconciling walks the store and gives every
//! stored text without a vector or a job an embedding job (a done job whose vector is
//! gone is queued again), and every attachment without text or a job an extraction
//! job. It runs after every ingest and sync, and when the engine opens after a
//! process stopped half way (the store's "derived work owed" flag) or a derived
//! file was found damaged. Doing it twice changes nothing.

use crate::attach::has_text_view;
use crate::engine::jobs::attachments::{enqueue_attachment_jobs, ATTACH_JOB};
use crate::engine::jobs::embedding::{enqueue_embed_jobs, EMBED_JOB};
use crate::engine::{Engine, Result};
use crate::store::jobs::{JobQueue, JobState};
use serde::Serialize;

/// Background work as `quoth status` reports it.
#[derive(Debug, Clone, Copy, Serialize, serde::Deserialize)]
pub struct StatusReport {
    pub embedding: crate::engine::EmbedProgress,
    pub vectors: usize,
    pub attachments: crate::store::jobs::JobCounts,
    pub missing: WorkGaps,
    /// A server's engine runs background work now (an ingest, a sync, embedding);
    /// an engine opened in the command's own process runs none.
    #[serde(default)]
    pub background_work: bool,
}

/// What is missing: nothing, once reconciled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct WorkGaps {
    /// Stored texts with neither a vector nor a pending, running or failed job.
    pub texts_without_vector_or_job: u64,
    /// Of those, texts whose job is done but whose vector is gone.
    pub vectors_lost: u64,
    /// Attachments with a text view but neither extracted text nor a job.
    pub attachments_without_text_or_job: u64,
}

impl WorkGaps {
    pub fn is_empty(&self) -> bool {
        self.texts_without_vector_or_job == 0 && self.attachments_without_text_or_job == 0
    }
}

/// What a reconcile queued.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ReconcileReport {
    pub embed_jobs_queued: u64,
    /// Texts whose vector was lost and that are embedded again.
    pub vectors_requeued: u64,
    pub attachment_jobs_queued: u64,
    /// Messages the graph had not read, queued.
    #[serde(default)]
    pub graph_jobs_queued: u64,
}

impl ReconcileReport {
    pub fn is_empty(&self) -> bool {
        self.embed_jobs_queued == 0
            && self.attachment_jobs_queued == 0
            && self.graph_jobs_queued == 0
    }
}

/// The texts (embed ids) that need a job, and which of them lost their vector.
struct EmbedGaps {
    missing: Vec<u64>,
    lost: Vec<u64>,
}

impl Engine {
    /// Counts what derived work is missing, changing nothing (for `quoth status`).
    /// Embedding and attachment jobs, vectors, and what lacks a job.
    pub fn status_report(&self) -> Result<StatusReport> {
        Ok(StatusReport {
            embedding: self.embed_progress()?,
            vectors: self.vectors().len(),
            attachments: self.attachment_job_counts()?,
            missing: self.work_gaps()?,
            background_work: false,
        })
    }

    pub fn work_gaps(&self) -> Result<WorkGaps> {
        let embed = self.embed_gaps()?;
        let attachments = self.unqueued_attachments()?;
        Ok(WorkGaps {
            texts_without_vector_or_job: (embed.missing.len() + embed.lost.len()) as u64,
            vectors_lost: embed.lost.len() as u64,
            attachments_without_text_or_job: attachments.len() as u64,
        })
    }

    /// Queues every missing job (see the module documentation) and clears the
    /// store's "derived work owed" flag.
    pub fn reconcile_derived_work(&self) -> Result<ReconcileReport> {
        let embed = self.embed_gaps()?;
        for id in &embed.lost {
            self.jobs.forget(EMBED_JOB, &id.to_be_bytes())?;
        }
        let mut ids = embed.missing;
        ids.extend(&embed.lost);
        let embed_queued = enqueue_embed_jobs(&self.jobs, &ids)? as u64;
        let mut attachment_queued = 0;
        for (key, index) in self.unqueued_attachments()? {
            let (Some(msg), Some(bytes)) = (
                self.store.message(&key)?,
                self.store.attachment_bytes(&key, index)?,
            ) else {
                continue;
            };
            let Some(info) = msg.attachments.iter().find(|a| a.index == index) else {
                continue;
            };
            let batch = [(
                key,
                std::slice::from_ref(info),
                std::slice::from_ref(&bytes),
            )];
            attachment_queued += enqueue_attachment_jobs(&self.store, &self.jobs, &batch)? as u64;
        }
        let graph_queued = self.queue_graph_gaps()? as u64;
        self.store.set_derived_work_owed(false)?;
        Ok(ReconcileReport {
            embed_jobs_queued: embed_queued,
            vectors_requeued: embed.lost.len() as u64,
            attachment_jobs_queued: attachment_queued,
            graph_jobs_queued: graph_queued,
        })
    }

    fn embed_gaps(&self) -> Result<EmbedGaps> {
        let mut gaps = EmbedGaps {
            missing: Vec::new(),
            lost: Vec::new(),
        };
        for id in self.store.distinct_embed_ids()? {
            if self.retrieval.vectors.contains(id) {
                continue;
            }
            let job = self
                .jobs
                .get(JobQueue::job_id(EMBED_JOB, &id.to_be_bytes()))?;
            match job.map(|j| j.state) {
                None => gaps.missing.push(id),
                Some(JobState::Done) => gaps.lost.push(id),
                Some(_) => {}
            }
        }
        Ok(gaps)
    }

    /// Attachments with a text view whose content has neither an extraction job nor
    /// extracted text.
    fn unqueued_attachments(&self) -> Result<Vec<(crate::mail::model::MessageKey, u32)>> {
        let mut out = Vec::new();
        for pos in self.store.attachment_positions() {
            let (key, index) = pos?;
            match self.store.attachment_hash(&key, index)? {
                Some(hash) => {
                    let queued = self
                        .jobs
                        .get(JobQueue::job_id(ATTACH_JOB, &hash))?
                        .is_some();
                    if !queued && self.store.attachment_extract(&hash)?.is_none() {
                        out.push((key, index));
                    }
                }
                None => {
                    // Never recorded: either no text view (an image), or the process
                    // stopped between storing the mail and queueing its jobs.
                    let Some(msg) = self.store.message(&key)? else {
                        continue;
                    };
                    let Some(info) = msg.attachments.iter().find(|a| a.index == index) else {
                        continue;
                    };
                    let Some(bytes) = self.store.attachment_bytes(&key, index)? else {
                        continue;
                    };
                    let name = info.name.as_deref().unwrap_or("");
                    if has_text_view(&info.mime_type, name, &bytes) {
                        out.push((key, index));
                    }
                }
            }
        }
        Ok(out)
    }
}
