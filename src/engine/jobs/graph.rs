//! The graph as background work: every stored message waits as a durable `graph`
//! job keyed by its key. A worker reads the message's people from its headers and
//! the facts of its authored text ([`crate::graph::facts`]) and stores them
//! ([`Store::record_graph`]). Every write is keyed by the message, so a job that is
//! run again after a kill stores nothing twice, and a claimed job whose worker died
//! comes back.

use crate::engine::jobs::embedding::now_ms;
use crate::engine::{Engine, Result};
use crate::graph::facts;
use crate::graph::thread_people::PartRole;
use crate::mail::model::{Mailbox, MessageKey};
use crate::store::jobs::{Job, JobCounts, JobQueue, JobState};
use crate::store::{MessageGraph, MessagePerson, Store, StoredMessage};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub const GRAPH_JOB: &str = "graph";
/// Jobs claimed and completed together.
const BATCH: usize = 256;
/// Looking this far ahead makes every lease held by a dead process look expired.
const ORPHAN_AFTER_MS: i64 = 24 * 3600 * 1000;

/// What a run of graph jobs did.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GraphReport {
    pub messages: u64,
    pub facts: u64,
    pub failed: u64,
    pub seconds: f64,
    pub counts: JobCounts,
}

/// Queues a graph job for each of these messages.
pub(in crate::engine) fn enqueue_graph_jobs(jobs: &JobQueue, keys: &[MessageKey]) -> Result<usize> {
    let payloads: Vec<Vec<u8>> = keys.iter().map(|k| k.0.to_vec()).collect();
    Ok(jobs.enqueue_many(GRAPH_JOB, &payloads, now_ms())?)
}

/// Adds Reply-To mailboxes to a message's graph people.
fn add_reply_to(graph: &mut MessageGraph, reply_to: Vec<Mailbox>) {
    let bit = 1u8 << PartRole::ReplyTo.code();
    for mb in reply_to {
        match graph.people.iter_mut().find(|p| p.address == mb.address) {
            Some(p) => p.roles |= bit,
            None => graph.people.push(MessagePerson {
                roles: bit,
                name: mb.name,
                address: mb.address,
            }),
        }
    }
}

/// The Reply-To header of a raw message, read from its header block only (a
/// folded header's lines joined).
pub fn reply_to_header(raw: &[u8]) -> Vec<Mailbox> {
    let end = raw
        .windows(2)
        .position(|w| w == b"\n\n")
        .or_else(|| raw.windows(4).position(|w| w == b"\r\n\r\n"))
        .unwrap_or(raw.len());
    let head = String::from_utf8_lossy(&raw[..end]);
    let mut value: Option<String> = None;
    for line in head.lines() {
        match value.as_mut() {
            Some(v) if line.starts_with([' ', '\t']) => v.push_str(line),
            Some(_) => break,
            None => {
                let name = line.get(..9);
                if name.is_some_and(|n| n.eq_ignore_ascii_case("reply-to:")) {
                    value = line.get(9..).map(str::to_string);
                }
            }
        }
    }
    value
        .map(|v| crate::mail::parse::address_header(v.trim()))
        .unwrap_or_default()
}

/// What a message gives the graph.
pub fn message_graph(msg: &StoredMessage, known_people: &HashSet<String>) -> MessageGraph {
    let mut people: Vec<MessagePerson> = Vec::new();
    let lists: [(PartRole, &Vec<Mailbox>); 4] = [
        (PartRole::From, &msg.from),
        (PartRole::To, &msg.to),
        (PartRole::Cc, &msg.cc),
        (PartRole::Bcc, &msg.bcc),
    ];
    for (role, list) in lists {
        for mb in list {
            let bit = 1u8 << role.code();
            match people
                .iter_mut()
                .find(|p| p.address == mb.address && p.name == mb.name)
            {
                Some(p) => p.roles |= bit,
                None => people.push(MessagePerson {
                    roles: bit,
                    name: mb.name.clone(),
                    address: mb.address.clone(),
                }),
            }
        }
    }
    let (facts, entities) = facts::read(&msg.body, &msg.segments, known_people);
    MessageGraph {
        date: msg.date,
        people,
        facts,
        entities,
    }
}

impl Engine {
    pub fn graph_job_counts(&self) -> Result<JobCounts> {
        Ok(self.jobs.counts(GRAPH_JOB)?)
    }

    /// Queues a graph job for every stored message the graph has not read and no
    /// job waits for (mail stored before the graph existed, or by a process killed
    /// between storing and queueing). Returns the jobs added.
    pub fn queue_graph_gaps(&self) -> Result<usize> {
        let mut missing = Vec::new();
        for key in self.store.message_keys() {
            let key = key?;
            if self.store.has_graph(&key)? {
                continue;
            }
            match self
                .jobs
                .get(JobQueue::job_id(GRAPH_JOB, &key.0))?
                .map(|j| j.state)
            {
                None => missing.push(key),
                // Done, and its record is gone (a graph rebuilt): run it again.
                Some(JobState::Done) => {
                    self.jobs.forget(GRAPH_JOB, &key.0)?;
                    missing.push(key);
                }
                Some(_) => {}
            }
        }
        enqueue_graph_jobs(&self.jobs, &missing)
    }

    /// Queues the graph's missing messages when it holds fewer than the store and no
    /// job waits (a store written before the graph existed). Returns the jobs added.
    pub fn queue_graph_if_behind(&self) -> Result<usize> {
        let counts = self.jobs.counts(GRAPH_JOB)?;
        if counts.pending + counts.running > 0
            || self.store.graph_message_count() >= self.store.message_count()?
        {
            return Ok(0);
        }
        self.queue_graph_gaps()
    }

    /// Empties the graph and queues every message to be read into it again.
    /// Returns the jobs queued.
    pub fn rebuild_graph(&self) -> Result<usize> {
        self.store.clear_graph()?;
        self.queue_graph_gaps()
    }

    /// Runs graph jobs until none is left or `stop` is set.
    pub fn extract_graph(
        &self,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&GraphReport),
    ) -> Result<GraphReport> {
        let started = Instant::now();
        let mut report = GraphReport::default();
        let known = self.mailbox_context()?.known_people;
        while !stop.load(Ordering::Relaxed) && self.graph_step(&known, &mut report)? {
            report.seconds = started.elapsed().as_secs_f64();
            progress(&report);
        }
        report.counts = self.jobs.counts(GRAPH_JOB)?;
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// Runs one batch of graph jobs; false when none was waiting.
    pub fn graph_step(&self, known: &HashSet<String>, report: &mut GraphReport) -> Result<bool> {
        let mut claimed = self.jobs.claim(GRAPH_JOB, BATCH, now_ms())?;
        if claimed.is_empty() && self.jobs.counts(GRAPH_JOB)?.running > 0 {
            // This process holds the store's lock: running jobs are a dead
            // process's, so take them now instead of waiting out their leases.
            claimed = self
                .jobs
                .claim_orphans(GRAPH_JOB, BATCH, now_ms(), ORPHAN_AFTER_MS)?;
        }
        if claimed.is_empty() {
            return Ok(false);
        }
        let read = read_in_parallel(&self.store, &claimed, known);
        let mut done = Vec::with_capacity(claimed.len());
        for (job, read) in claimed.into_iter().zip(read) {
            let recorded = read.and_then(|graph| match graph {
                Some((key, graph)) => self
                    .store
                    .record_graph(&key, &graph)
                    .map(|()| graph.facts.len())
                    .map_err(|e| e.to_string()),
                // A message removed since it was queued has nothing to give.
                None => Ok(0),
            });
            match recorded {
                Ok(facts) => {
                    report.messages += 1;
                    report.facts += facts as u64;
                    done.push((job.id, job.lease_token));
                }
                Err(why) => {
                    report.failed += 1;
                    self.jobs.fail(job.id, job.lease_token, &why, now_ms())?;
                }
            }
        }
        self.jobs.complete_many(&done, now_ms())?;
        Ok(true)
    }
}

type ReadGraph = std::result::Result<Option<(MessageKey, MessageGraph)>, String>;

/// Reads the claimed jobs' messages on worker threads, each a run of the jobs in
/// turn (the text reading is the work; the single writer records them after), in
/// the jobs' order.
fn read_in_parallel(store: &Store, jobs: &[Job], known: &HashSet<String>) -> Vec<ReadGraph> {
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    let run = jobs.len().div_ceil(workers).max(1);
    let read_run = |run: &[Job]| -> Vec<ReadGraph> {
        run.iter()
            .map(|j| read_one(store, &j.payload, known))
            .collect()
    };
    std::thread::scope(|scope| {
        let handles: Vec<_> = jobs
            .chunks(run)
            .map(|part| (part.len(), scope.spawn(move || read_run(part))))
            .collect();
        handles
            .into_iter()
            .flat_map(|(n, h)| {
                // A worker that panicked leaves its jobs unread: they fail.
                h.join()
                    .unwrap_or_else(|_| vec![Err("graph reader panicked".to_string()); n])
            })
            .collect()
    })
}

/// What one message gives the graph; `None` for a message removed since it was
/// queued, or why it cannot be read.
fn read_one(store: &Store, payload: &[u8], known: &HashSet<String>) -> ReadGraph {
    let key = <[u8; 16]>::try_from(payload)
        .map(MessageKey)
        .map_err(|_| "bad payload".to_string())?;
    let Some(msg) = store.message(&key).map_err(|e| e.to_string())? else {
        return Ok(None);
    };
    let mut graph = message_graph(&msg, known);
    // Ingest keeps Reply-To from the parsed headers. A message stored before it did
    // has its source's header block read instead (local mail only: IMAP mail's bytes
    // stay on its server); a source that cannot be read gives none.
    let reply_to = match store.reply_to(&key).map_err(|e| e.to_string())? {
        Some(kept) => kept,
        None => crate::engine::mailbox::message_files::raw_message(store, &key)
            .map(|raw| reply_to_header(&raw))
            .unwrap_or_default(),
    };
    add_reply_to(&mut graph, reply_to);
    Ok(Some((key, graph)))
}

#[cfg(test)]
mod tests {
    use super::reply_to_header;

    #[test]
    fn reply_to_is_read_from_the_header_block_only() {
        let raw = b"From: a@quill.example\r\nReply-To: Desk\r\n <desk@quill.example>\r\nSubject: x\r\n\r\nReply-To: body@quill.example\r\n";
        let found = reply_to_header(raw);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].address, "desk@quill.example");
        assert!(reply_to_header(b"From: a@x.example\n\nReply-To: b@x.example\n").is_empty());
        assert!(reply_to_header("Subject: caf\u{e9} \u{e9}t\u{e9}\n\n".as_bytes()).is_empty());
    }
}
