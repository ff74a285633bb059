//! `quoth bench semantic`: embedding throughput, and the latency of hybrid and
//! plain search on a store.

use super::ingest::{measure, measure_quoth_ingest};
use super::{open_engine, tempfile_dir, varied_queries};
use anyhow::Result;
use quoth::engine::{Engine, RetrieveOptions, SearchMode};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

pub(super) fn bench_semantic(
    maildir: &Path,
    latency_store: Option<PathBuf>,
    work_dir: Option<PathBuf>,
    json: bool,
) -> Result<i32> {
    let dir = tempfile_dir(work_dir)?.join("semantic");
    let _ = std::fs::remove_dir_all(&dir);
    measure_quoth_ingest(&dir, maildir)?;
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    cmd.arg("--data-dir").arg(&dir).arg("embed");
    let embed = measure(cmd)?;
    let engine = open_engine(&dir)?;
    let stats = engine.stats()?;
    let texts = engine.vectors().len();
    let vector_bytes = engine.vectors().size_on_disk();
    drop(engine);
    let latency = hybrid_latency(latency_store.as_deref().unwrap_or(&dir))?;
    let out = json!({
        "chunks": stats.chunks,
        "distinct_texts": texts,
        "duplicate_share": 1.0 - texts as f64 / stats.chunks.max(1) as f64,
        "embed_seconds": embed.seconds,
        "texts_per_s": texts as f64 / embed.seconds.max(1e-9),
        "chunks_per_s": stats.chunks as f64 / embed.seconds.max(1e-9),
        "embed_peak_rss_mb": embed.peak_rss_mb,
        "vector_index_mb": vector_bytes as f64 / 1e6,
        "hybrid": latency,
    });
    if json {
        crate::cli::output::print_json(&out)?;
        return Ok(0);
    }
    outln!(
        "embedding {} chunks ({} distinct texts, {:.0}% skipped as duplicates): {:.1} s, {:.1} texts/s, {:.1} chunks/s, peak RSS {:.0} MB",
        stats.chunks,
        texts,
        100.0 * out["duplicate_share"].as_f64().unwrap_or(0.0),
        embed.seconds,
        out["texts_per_s"].as_f64().unwrap_or(0.0),
        out["chunks_per_s"].as_f64().unwrap_or(0.0),
        embed.peak_rss_mb
    );
    outln!("vector index on disk: {:.1} MB", vector_bytes as f64 / 1e6);
    print_latency(&latency, false)
}

/// Prints what [`hybrid_latency`] measured.
pub(super) fn print_latency(latency: &serde_json::Value, json: bool) -> Result<i32> {
    if json {
        crate::cli::output::print_json(latency)?;
        return Ok(0);
    }
    outln!(
        "searched store: {} vectors, vector index {:.1} MB on disk, peak RSS of the searching process {:.0} MB",
        latency["vectors"],
        latency["vector_index_mb"].as_f64().unwrap_or(0.0),
        latency["peak_rss_mb"].as_f64().unwrap_or(0.0)
    );
    for (name, l) in [
        ("hybrid search", &latency["default"]),
        ("hybrid + rerank", &latency["rerank"]),
    ] {
        outln!(
            "{name} over {} questions on {} messages ({} vectors): p50 {:.1} ms, p95 {:.1} ms",
            l["queries"],
            l["messages"],
            latency["vectors"],
            l["p50_ms"].as_f64().unwrap_or(0.0),
            l["p95_ms"].as_f64().unwrap_or(0.0)
        );
    }
    Ok(0)
}

/// Hybrid latency over 100 natural-language questions after a warm-up pass, as
/// `quoth search` runs it and with the opt-in rerank.
pub(super) fn hybrid_latency(data_dir: &Path) -> Result<serde_json::Value> {
    let engine = open_engine(data_dir)?;
    let questions: Vec<String> = varied_queries()
        .iter()
        .map(|q| quoth::engine::quote_free_text(q))
        .filter(|q| !q.is_empty())
        .collect();
    let mut out = json!({
        "vectors": engine.vectors().len(),
        "vector_index_mb": engine.vectors().size_on_disk() as f64 / 1e6,
    });
    for (name, rerank) in [("default", false), ("rerank", true)] {
        let opts = RetrieveOptions {
            mode: SearchMode::Hybrid,
            limit: 10,
            rerank,
            now: chrono::Utc::now().timestamp(),
        };
        for q in &questions {
            engine.retrieve(q, opts)?;
        }
        let times = timed(1, &questions, |q| engine.retrieve(q, opts).map(|_| ()))?;
        out[name] = latency_summary(&engine, questions.len(), times)?;
    }
    out["peak_rss_mb"] = json!(own_peak_rss_mb());
    Ok(out)
}

/// Runs every query `rounds` times; the time of each run in milliseconds.
fn timed<E: Into<anyhow::Error>>(
    rounds: usize,
    queries: &[String],
    mut run: impl FnMut(&str) -> std::result::Result<(), E>,
) -> Result<Vec<f64>> {
    let mut times = Vec::with_capacity(rounds * queries.len());
    for _ in 0..rounds {
        for q in queries {
            let t = Instant::now();
            run(q).map_err(Into::into)?;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    Ok(times)
}

/// p50 and p95 of the times in milliseconds.
pub(super) fn latency_summary_of(times: &[f64]) -> (f64, f64) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        sorted
            .get(((sorted.len().max(1) - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    (pct(0.5), pct(0.95))
}

/// p50 and p95 of the times, with the query and message counts.
fn latency_summary(engine: &Engine, queries: usize, times: Vec<f64>) -> Result<serde_json::Value> {
    let (p50, p95) = latency_summary_of(&times);
    Ok(json!({
        "queries": queries,
        "messages": engine.stats()?.messages,
        "p50_ms": p50,
        "p95_ms": p95,
    }))
}

/// Search latency over 100 varied queries, each run 5 times after a warm-up pass.
pub(super) fn search_latency(data_dir: &Path) -> Result<serde_json::Value> {
    let engine = open_engine(data_dir)?;
    let queries = varied_queries();
    let now = chrono::Utc::now().timestamp();
    for q in &queries {
        engine.search(q, 20, now)?;
    }
    let times = timed(5, &queries, |q| engine.search(q, 20, now).map(|_| ()))?;
    latency_summary(&engine, queries.len(), times)
}

/// This process's peak resident set so far, in MB.
fn own_peak_rss_mb() -> f64 {
    // SAFETY: rusage is plain data; getrusage fills it for this process.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    usage.ru_maxrss as f64 / 1024.0
}
