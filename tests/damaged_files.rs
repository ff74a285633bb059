//! Damaged files: for each derived file (a tantivy segment, the vector file, the HNSW
//! graph dump) and for the sled store, a truncated and a garbled copy of the
//! embedded 8,971-message Enron store. Every command ends (a hang fails the test),
//! and either works or fails with an error that names the command that fixes it;
//! after that command (and `quoth embed` for texts whose vectors were lost) the
//! search results equal the undamaged store's.

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longer than any command takes on a healthy store; reaching it means a hang.
const HANG: Duration = Duration::from_secs(120);

const LEXICAL_QUERY: &str = "computer equipment upgrade";
const SEMANTIC_QUERY: &str = "who will update the risk management software";
/// About the invented mail of `tests/fixtures/injection-maildir`, which the store holds.
const QUESTION: &str = "How many people is Lena's reservation for?";

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
    seconds: f64,
}

fn quoth(data: &Path, args: &[&str]) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .env("QUOTH_INLINE", "1")
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("quoth starts");
    let out = loop {
        if child.try_wait().expect("poll").is_some() {
            break child.wait_with_output().expect("output");
        }
        if started.elapsed() > HANG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("quoth {args:?} hung on {}", data.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The message keys a search returns, in order.
fn hit_keys(json: &str) -> Vec<String> {
    let v: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    v["hits"]
        .as_array()
        .map(|hits| {
            hits.iter()
                .filter_map(|h| h["key"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn sorted(keys: &[String]) -> Vec<String> {
    let mut keys = keys.to_vec();
    keys.sort();
    keys
}

#[derive(Clone, Copy, Debug)]
enum Damage {
    /// Cut to `keep` parts in a thousand of its length.
    Truncate { keep: u64 },
    /// Three runs of 4 KiB of noise at a third, half and two thirds of the file.
    Garble,
}

fn damage(file: &Path, how: Damage) {
    use std::io::{Seek, SeekFrom, Write};
    let len = std::fs::metadata(file).expect("file").len();
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .open(file)
        .expect("open for damage");
    match how {
        Damage::Truncate { keep } => f.set_len(len * keep / 1000).expect("truncate"),
        Damage::Garble => {
            let mut state = 0x9e37_79b9_7f4a_7c15u64;
            for at in [len / 3, len / 2, 2 * len / 3] {
                let noise: Vec<u8> = (0..4096)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        (state >> 24) as u8
                    })
                    .collect();
                f.seek(SeekFrom::Start(at)).expect("seek");
                f.write_all(&noise).expect("garble");
            }
        }
    }
    f.sync_all().expect("sync");
}

/// The largest file of the tantivy index's segments.
fn largest_segment_file(lexical: &Path) -> PathBuf {
    std::fs::read_dir(lexical)
        .expect("lexical dir")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap_or_default().to_string_lossy();
            !name.ends_with(".json") && !name.ends_with(".lock") && p.is_file()
        })
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .expect("a segment file")
}

/// Where a damaged file is in a data directory.
type FileOf = fn(&Path) -> PathBuf;

/// The fix a failed command names, as the arguments to run it.
fn named_fix(stderr: &str) -> Option<&'static [&'static str]> {
    if stderr.contains("quoth rebuild") {
        Some(&["rebuild"])
    } else if stderr.contains("quoth reindex") {
        Some(&["reindex"])
    } else if stderr.contains("quoth embed") {
        Some(&["embed"])
    } else {
        None
    }
}

#[test]
fn every_damaged_file_is_repaired_or_names_its_fix() {
    let Some((store, _)) = common::enron_store() else {
        return;
    };
    let baseline_lexical = hit_keys(
        &quoth(
            &store,
            &["--json", "search", "--mode", "lexical", LEXICAL_QUERY],
        )
        .stdout,
    );
    let baseline_semantic = hit_keys(
        &quoth(
            &store,
            &["--json", "search", "--mode", "semantic", SEMANTIC_QUERY],
        )
        .stdout,
    );
    assert!(baseline_lexical.len() >= 10 && baseline_semantic.len() >= 5);
    let stats = |dir: &Path| -> Value {
        serde_json::from_str(&quoth(dir, &["--json", "stats"]).stdout).unwrap_or(Value::Null)
    };
    let baseline_stats = stats(&store);
    let baseline_vectors = {
        let status: Value =
            serde_json::from_str(&quoth(&store, &["--json", "status"]).stdout).expect("status");
        status["vectors"].as_u64().expect("vector count")
    };

    let targets: [(&str, FileOf); 5] = [
        ("a search index segment", |d| {
            largest_segment_file(&d.join("lexical"))
        }),
        ("the vector file", |d| d.join("vectors/vectors.bin")),
        ("the graph dump", |d| d.join("vectors/graph.hnsw.graph")),
        ("the graph data", |d| d.join("vectors/graph.hnsw.data")),
        ("the sled store", |d| d.join("store/db")),
    ];
    for (what, file_of) in targets {
        // A vector file keeps most of its records, so re-embedding the rest is quick.
        let cut = if what == "the vector file" { 970 } else { 600 };
        for how in [Damage::Truncate { keep: cut }, Damage::Garble] {
            let tmp = tempfile::tempdir().expect("temp dir");
            let data = tmp.path().join("data");
            common::copy_dir(&store, &data);
            damage(&file_of(&data), how);
            let commands: [&[&str]; 5] = [
                &["stats"],
                &["status"],
                &["--json", "search", "--mode", "lexical", LEXICAL_QUERY],
                &["--json", "search", "--mode", "semantic", SEMANTIC_QUERY],
                &["--json", "ask", QUESTION],
            ];
            let mut fixes: Vec<&[&str]> = Vec::new();
            for args in commands {
                let run = quoth(&data, args);
                eprintln!(
                    "{what} {how:?}: quoth {args:?} {} in {:.1} s",
                    if run.ok { "worked" } else { "failed" },
                    run.seconds
                );
                if !run.ok {
                    let fix = named_fix(&run.stderr).unwrap_or_else(|| {
                        panic!(
                            "{what} {how:?}: quoth {args:?} failed naming no fix: {}",
                            run.stderr
                        )
                    });
                    if !fixes.contains(&fix) {
                        fixes.push(fix);
                    }
                }
            }
            for fix in fixes {
                let run = quoth(&data, fix);
                assert!(run.ok, "{what} {how:?}: quoth {fix:?}: {}", run.stderr);
            }
            // Texts whose vectors were lost are embedded again.
            let run = quoth(&data, &["embed"]);
            assert!(run.ok, "{what} {how:?}: quoth embed: {}", run.stderr);
            let lexical = hit_keys(
                &quoth(
                    &data,
                    &["--json", "search", "--mode", "lexical", LEXICAL_QUERY],
                )
                .stdout,
            );
            // A rebuilt index ranks ties and near-ties its own way (the original
            // still counts replaced documents in its term statistics), and a
            // rebuilt graph is built in parallel: the same messages, maybe in
            // another order.
            assert_eq!(
                sorted(&lexical[..10]),
                sorted(&baseline_lexical[..10]),
                "{what} {how:?}: lexical hits"
            );
            let semantic = hit_keys(
                &quoth(
                    &data,
                    &["--json", "search", "--mode", "semantic", SEMANTIC_QUERY],
                )
                .stdout,
            );
            assert_eq!(
                sorted(&semantic),
                sorted(&baseline_semantic),
                "{what} {how:?}: semantic hits"
            );
            let after = stats(&data);
            for field in ["messages", "threads", "chunks", "lexical_docs"] {
                assert_eq!(
                    after[field], baseline_stats[field],
                    "{what} {how:?}: {field}"
                );
            }
            let status: Value =
                serde_json::from_str(&quoth(&data, &["--json", "status"]).stdout).expect("status");
            assert_eq!(
                status["vectors"].as_u64(),
                Some(baseline_vectors),
                "{what} {how:?}: every text has its vector again"
            );
        }
    }
}
