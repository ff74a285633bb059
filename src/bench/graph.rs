//! `quoth bench graph`: whether reading the graph keeps up with ingest, what it
//! costs on disk, and how fast its lookups answer. With `--mail`, the mail is
//! ingested (lexical, no embedding) into a new store and timed; then the graph is
//! read from scratch and timed; then lookups run over the store: a thread's people
//! and facts, people by address prefix and by organisation, facts by words.

use super::state::median_p95;
use crate::cli::output::print_json;
use anyhow::{Context, Result};
use quoth::engine::Engine;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Lookups of each kind.
const LOOKUPS: usize = 200;

fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = Instant::now();
    let out = f();
    (out, t.elapsed().as_secs_f64() * 1000.0)
}

pub fn run(mail: &[PathBuf], store: Option<PathBuf>, json: bool) -> Result<i32> {
    let dir = match store {
        Some(dir) => dir,
        None => super::tempfile_dir(None)?.join("graph-store"),
    };
    let ingest = if mail.is_empty() {
        None
    } else {
        Some(ingest(&dir, mail)?)
    };
    let engine = super::open_engine(&dir).with_context(|| format!("opening {}", dir.display()))?;
    let messages = engine.store().message_count()?;

    let queued = engine.rebuild_graph()?;
    let stop = AtomicBool::new(false);
    let report = engine.extract_graph(&stop, &mut |_| {})?;
    let graph_rate = report.messages as f64 / report.seconds.max(1e-9);
    let bytes = engine.store().graph_bytes();
    let (people_entries, org_entries, fact_entries) = engine.store().graph_index_sizes();

    let lookups = lookups(&engine)?;
    let out = json!({
        "messages": messages,
        "ingest": ingest.map(|(n, s)| json!({ "messages": n, "seconds": s, "per_second": n as f64 / s.max(1e-9) })),
        "graph": {
            "queued": queued,
            "messages": report.messages,
            "facts": report.facts,
            "seconds": report.seconds,
            "per_second": graph_rate,
            "bytes": bytes,
            "people_entries": people_entries,
            "organisation_entries": org_entries,
            "fact_entries": fact_entries,
        },
        "lookups_ms": lookups,
    });
    if json {
        print_json(&out)?;
        return Ok(0);
    }
    outln!("store: {messages} messages");
    if let Some((n, s)) = ingest {
        outln!(
            "lexical ingest:  {n} messages in {s:.1} s ({:.0} messages/s)",
            n as f64 / s.max(1e-9)
        );
    }
    outln!(
        "graph read:      {} messages, {} facts in {:.1} s ({graph_rate:.0} messages/s)",
        report.messages,
        report.facts,
        report.seconds
    );
    outln!(
        "graph size:      {:.1} MB ({people_entries} address postings, {org_entries} organisation addresses, {fact_entries} fact keys)",
        bytes as f64 / 1e6
    );
    for (name, v) in lookups.as_object().into_iter().flatten() {
        outln!(
            "{name:<24} p50 {:.2} ms  p95 {:.2} ms  ({} lookups)",
            v["p50"].as_f64().unwrap_or(0.0),
            v["p95"].as_f64().unwrap_or(0.0),
            v["n"].as_u64().unwrap_or(0)
        );
    }
    Ok(0)
}

/// Ingests `mail` into a new store at `dir` (no embedding); messages and seconds.
fn ingest(dir: &Path, mail: &[PathBuf]) -> Result<(usize, f64)> {
    let mut engine = super::open_engine(dir)?;
    let t = Instant::now();
    let report = engine.ingest(mail, &mut |_| {})?;
    Ok((report.added, t.elapsed().as_secs_f64()))
}

/// Lookup latencies over threads, addresses and organisations spread over the store.
fn lookups(engine: &Engine) -> Result<serde_json::Value> {
    let threads = engine.store().threads()?;
    let step = (threads.len() / LOOKUPS).max(1);
    let picked: Vec<_> = threads.iter().step_by(step).take(LOOKUPS).collect();
    let mut thread_ms = Vec::new();
    let mut facts_ms = Vec::new();
    for t in &picked {
        let id = t.id.to_hex();
        thread_ms.push(timed(|| engine.thread_graph(&id)).1);
        facts_ms.push(timed(|| engine.facts(&id)).1);
    }
    let book = engine.mailbox_context()?.book;
    let step = (book.people.len() / LOOKUPS).max(1);
    let mut people_ms = Vec::new();
    let mut org_ms = Vec::new();
    let mut words_ms = Vec::new();
    for p in book.people.iter().step_by(step).take(LOOKUPS) {
        let Some(address) = p.addresses.first() else {
            continue;
        };
        let prefix: String = address.chars().take(4).collect();
        people_ms.push(timed(|| engine.people(&prefix)).1);
        let domain = address.rsplit('@').next().unwrap_or("");
        if let Some(org) = quoth::graph::organisation::organisation_of(domain) {
            org_ms.push(timed(|| engine.people(&org.name)).1);
        }
    }
    for t in picked.iter().take(LOOKUPS / 4) {
        let words: String = t
            .subject
            .split_whitespace()
            .filter(|w| w.len() > 3)
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        if !words.is_empty() {
            words_ms.push(timed(|| engine.facts(&words)).1);
        }
    }
    let stat = |v: Vec<f64>| {
        let n = v.len();
        let (p50, p95) = median_p95(v);
        json!({ "p50": p50, "p95": p95, "n": n })
    };
    Ok(json!({
        "thread people": stat(thread_ms),
        "thread facts": stat(facts_ms),
        "people by address": stat(people_ms),
        "people by organisation": stat(org_ms),
        "facts by words": stat(words_ms),
    }))
}
