//! The jobs service: ingest of Maildir, mbox and .eml sources, and the durable
//! background jobs that follow it (attachments read, texts embedded), with the
//! reconciliation that finds and queues what is missing. It owns the job queue.

pub(super) mod attachments;
pub(super) mod embedding;
pub mod graph;
pub(super) mod ingest;
pub(super) mod ingest_batch;
pub(super) mod prepare;
pub(super) mod reconcile;
