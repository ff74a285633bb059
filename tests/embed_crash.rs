//! Kill -9 in the middle of embedding, then resume: every text is embedded exactly once
//! (one record per id in the durable vector file), every job ends done, and semantic
//! search gives the same results as an uninterrupted run.

mod common;

use common::{embed_all, ingest, models, open, semantic_keys, shared};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const QUERIES: &[&str] = &[
    "rent for the apartments",
    "gas price forecast for next month",
    "who should I call about the trading floor move",
    "vacation schedule",
    "bonus and salary review",
];

#[test]
fn kill_nine_during_embedding_resumes_without_redoing_or_losing_work() {
    let Some(maildir) = shared("data/enron/maildir/allen-p") else {
        return;
    };
    if models().is_none() {
        return;
    }
    // sent and _sent_mail hold the same mail under different Message-IDs: the
    // duplicates share embed texts and are embedded once.
    let sources: Vec<PathBuf> = ["sent", "_sent_mail"]
        .iter()
        .map(|f| maildir.join(f))
        .collect();
    let tmp = tempfile::tempdir().expect("tempdir");
    let crashed = tmp.path().join("crashed");
    let bin = env!("CARGO_BIN_EXE_quoth");
    let mut args = vec![
        "--data-dir".to_string(),
        crashed.display().to_string(),
        "ingest".into(),
        "--no-embed".into(),
    ];
    args.extend(sources.iter().map(|p| p.display().to_string()));
    assert!(Command::new(bin)
        .env("QUOTH_INLINE", "1")
        .args(&args)
        .stdout(Stdio::null())
        .status()
        .expect("runs")
        .success());

    let total = {
        let engine = open(&crashed);
        let p = engine.embed_progress().expect("progress");
        let stats = engine.stats().expect("stats");
        eprintln!(
            "{} chunks, {} distinct texts to embed",
            stats.chunks, p.total
        );
        assert!(
            (p.total as usize) < stats.chunks,
            "duplicates must share texts"
        );
        p.total
    };

    // Kill -9 twice at different points, then let it finish.
    for fraction in [0.25, 0.6] {
        let mut child = Command::new(bin)
            .env("QUOTH_INLINE", "1")
            .args(["--data-dir", &crashed.display().to_string(), "embed"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starts");
        let started = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(100));
            let records = vector_records(&crashed).values().sum::<usize>() as f64;
            if records >= fraction * total as f64 || started.elapsed() > Duration::from_secs(600) {
                break;
            }
            if let Ok(Some(_)) = child.try_wait() {
                break;
            }
        }
        child.kill().expect("kill -9"); // SIGKILL on Unix
        child.wait().expect("reaped");
        let records = vector_records(&crashed);
        eprintln!("killed at {} of {total} vectors", records.len());
        assert!(
            records.values().all(|&n| n == 1),
            "a text was embedded twice"
        );
    }
    let status = Command::new(bin)
        .env("QUOTH_INLINE", "1")
        .args(["--data-dir", &crashed.display().to_string(), "embed"])
        .stdout(Stdio::null())
        .status()
        .expect("runs");
    assert!(status.success());

    let records = vector_records(&crashed);
    eprintln!(
        "after resume: {} vectors, {} records",
        records.len(),
        records.values().sum::<usize>()
    );
    assert_eq!(records.len() as u64, total, "every text embedded");
    assert!(
        records.values().all(|&n| n == 1),
        "every text embedded exactly once"
    );
    let engine = open(&crashed);
    let p = engine.embed_progress().expect("progress");
    assert_eq!((p.done, p.failed), (total, 0));

    // The same search results as a run that was never interrupted.
    let clean_dir = tmp.path().join("clean");
    let mut clean = open(&clean_dir);
    ingest(&mut clean, &sources);
    embed_all(&mut clean);
    for q in QUERIES {
        assert_eq!(
            semantic_keys(&engine, q, 10),
            semantic_keys(&clean, q, 10),
            "{q}"
        );
    }
}

/// Records per id in the durable vector file: a 24-byte header ("QVEC", version, dim,
/// epoch), then records of a u64 id and 384 f32s; a torn last record is not counted.
fn vector_records(data_dir: &Path) -> HashMap<u64, usize> {
    let Ok(bytes) = std::fs::read(data_dir.join("vectors/vectors.bin")) else {
        return HashMap::new();
    };
    const HEADER: usize = 24;
    let record = 8 + 384 * 4;
    let mut out = HashMap::new();
    if bytes.len() < HEADER {
        return out;
    }
    assert_eq!(&bytes[..4], b"QVEC");
    for rec in bytes[HEADER..].chunks_exact(record) {
        let id = u64::from_le_bytes(rec[..8].try_into().expect("8 bytes"));
        *out.entry(id).or_insert(0) += 1;
    }
    out
}
