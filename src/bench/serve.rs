//! `quoth bench serve --maildir DIR`: search latency in process, through the socket
//! of a `quoth serve` when idle, and through it while that server embeds the
//! Maildir; prints p50/p95 of each, the socket hop (server idle p50 less in-process
//! p50) and the busy/idle ratio.

use super::{latency_summary_of, tempfile_dir, varied_queries};
use crate::cli::output::print_json;
use anyhow::{Context, Result};
use quoth::engine::{RetrieveOptions, SearchMode};
use quoth::serve::client::Client;
use quoth::serve::protocol::Op;
use serde_json::json;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Timed searches in each phase (the query list cycled).
const SEARCHES: usize = 200;

pub fn run(maildir: &Path, work: Option<std::path::PathBuf>, json_out: bool) -> Result<i32> {
    let dir = tempfile_dir(work)?.join("serve-store");
    if dir.exists() {
        std::fs::remove_dir_all(&dir)?;
    }
    let queries = varied_queries();
    let opts = RetrieveOptions {
        mode: SearchMode::Hybrid,
        limit: 20,
        rerank: false,
        now: chrono::Utc::now().timestamp(),
    };
    // In process, on the lexical store (no vectors yet, as in the other phases).
    let in_process = {
        let mut engine = super::open_engine(&dir)?;
        let report = engine.ingest(&[maildir.to_path_buf()], &mut |_| {})?;
        eprintln!(
            "ingested {} messages (no embedding yet)",
            report.added + report.already_known
        );
        for q in &queries {
            engine.retrieve(q, opts)?;
        }
        time_each(&queries, |q| {
            engine.retrieve(q, opts).map(|_| ()).map_err(Into::into)
        })?
    };

    let exe = std::env::current_exe()?;
    let mut server = Command::new(&exe)
        .arg("--data-dir")
        .arg(&dir)
        .arg("serve")
        .env_remove("XDG_RUNTIME_DIR")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting quoth serve")?;
    let result = through_server(&dir, &queries);
    let _ = server.kill();
    let _ = server.wait();
    let (idle, busy, embedded) = result?;
    let p50 = |t: &[f64]| latency_summary_of(t).0;
    let summary = json!({
        "messages_maildir": maildir.display().to_string(),
        "searches_per_phase": SEARCHES,
        "in_process": summary_json(&in_process),
        "server_idle": summary_json(&idle),
        "server_while_embedding": summary_json(&busy),
        "texts_embedded_meanwhile": embedded,
        "socket_hop_p50_ms": p50(&idle) - p50(&in_process),
        "busy_over_idle_p50": p50(&busy) / p50(&idle).max(1e-9),
    });
    if json_out {
        print_json(&summary)?;
    } else {
        outln!("search latency, {SEARCHES} hybrid searches per phase (p50 / p95 ms):");
        for (name, key) in [
            ("in process", "in_process"),
            ("through the server, idle", "server_idle"),
            ("through the server, embedding", "server_while_embedding"),
        ] {
            outln!(
                "  {name:<30} {:>8.2} / {:>8.2}",
                summary[key]["p50_ms"].as_f64().unwrap_or(0.0),
                summary[key]["p95_ms"].as_f64().unwrap_or(0.0)
            );
        }
        outln!(
            "socket hop at p50: {:.2} ms; p50 while embedding / idle: {:.2} ({} texts embedded meanwhile)",
            summary["socket_hop_p50_ms"].as_f64().unwrap_or(0.0),
            summary["busy_over_idle_p50"].as_f64().unwrap_or(0.0),
            embedded
        );
    }
    Ok(0)
}

/// Idle and busy search times through the server, and the texts it embedded while
/// busy.
fn through_server(dir: &Path, queries: &[String]) -> Result<(Vec<f64>, Vec<f64>, u64)> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut client = loop {
        if let Some(c) = Client::connect(dir)? {
            break c;
        }
        anyhow::ensure!(Instant::now() < deadline, "quoth serve did not start");
        std::thread::sleep(Duration::from_millis(100));
    };
    let search = |client: &mut Client, q: &str| -> Result<()> {
        client.call(
            Op::Search {
                query: q.to_string(),
                mode: Some("hybrid".into()),
                limit: Some(20),
                rerank: false,
            },
            &mut |_| {},
        )?;
        Ok(())
    };
    for q in queries {
        search(&mut client, q)?;
    }
    let idle = time_each(queries, |q| search(&mut client, q))?;
    let before = embedded_count(&mut client)?;
    client.call(Op::Embed, &mut |_| {})?;
    // Give the embedding a moment to start its first batch.
    std::thread::sleep(Duration::from_secs(2));
    let busy = time_each(queries, |q| search(&mut client, q))?;
    let after = embedded_count(&mut client)?;
    Ok((idle, busy, after.saturating_sub(before)))
}

fn embedded_count(client: &mut Client) -> Result<u64> {
    let status = client.call(Op::Status, &mut |_| {})?;
    Ok(status["embedding"]["done"].as_u64().unwrap_or(0))
}

/// Runs `SEARCHES` searches, cycling the queries; each one's time in ms.
fn time_each(queries: &[String], mut run: impl FnMut(&str) -> Result<()>) -> Result<Vec<f64>> {
    let mut times = Vec::with_capacity(SEARCHES);
    for q in queries.iter().cycle().take(SEARCHES) {
        let t = Instant::now();
        run(q)?;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    Ok(times)
}

fn summary_json(times: &[f64]) -> serde_json::Value {
    let (p50, p95) = latency_summary_of(times);
    json!({ "p50_ms": p50, "p95_ms": p95 })
}
