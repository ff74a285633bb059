//! A server lives and dies with its store: it leaves within seconds when its data
//! directory is removed or made anew, whatever work it holds, and a client never
//! talks to a server of another store at the same path. Real processes, with the
//! sockets in a runtime directory as on a desktop (`XDG_RUNTIME_DIR`), where they
//! outlive the data directory.

mod common;

use common::{demo_mailbox, maildir_with_one};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The CLI as a desktop user runs it: sockets in `runtime`, no `QUOTH_INLINE`.
fn quoth(runtime: &Path, dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quoth"));
    c.env_remove("QUOTH_INLINE")
        .env("XDG_RUNTIME_DIR", runtime)
        .env("QUOTH_SERVER_IDLE_EXIT", "120")
        .arg("--data-dir")
        .arg(dir);
    c
}

fn json_of(mut command: Command, args: &[&str]) -> Value {
    let out = command
        .arg("--json")
        .args(args)
        .output()
        .expect("quoth runs");
    assert!(
        out.status.success(),
        "quoth {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// `quoth ingest --no-embed MAIL` into `dir`, through the server it finds or starts.
fn ingest(runtime: &Path, dir: &Path, mail: &Path) {
    let out = quoth(runtime, dir)
        .args(["ingest", "--no-embed"])
        .arg(mail)
        .output()
        .expect("ingest runs");
    assert!(
        out.status.success(),
        "ingest {}: {}",
        mail.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The pid of the server a `status` went through.
fn server_of(runtime: &Path, dir: &Path) -> u32 {
    let status = json_of(quoth(runtime, dir), &["status"]);
    status["server"]["pid"]
        .as_u64()
        .unwrap_or_else(|| panic!("status names no server: {status}")) as u32
}

fn runs(pid: u32) -> bool {
    quoth::serve::client::process_runs(pid)
}

/// Waits until none of `pids` runs; the ones still running when `within` is up.
fn still_running(pids: &[u32], within: Duration) -> Vec<u32> {
    let start = Instant::now();
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|p| runs(*p)).collect();
        if left.is_empty() || start.elapsed() > within {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Kills whatever is left, so no process outlives its test.
struct KillOnDrop(Vec<u32>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        for pid in self.0.iter().filter(|p| runs(**p)) {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    }
}

/// One invented message, for a mailbox that is not the demo's.
fn other_mailbox(dir: &Path) -> PathBuf {
    let maildir = dir.join("other-mail");
    maildir_with_one(
        &maildir,
        "From: Ines Kowal <ines@lighthouse.example>\r\n\
         To: Bo Strand <bo@lighthouse.example>\r\n\
         Subject: Lantern inventory\r\n\
         Date: Tue, 3 Mar 2026 09:15:00 +0000\r\n\
         Message-ID: <lantern-1@lighthouse.example>\r\n\
         \r\n\
         We counted forty-two brass lanterns in the north shed.\r\n",
    );
    maildir
}

#[test]
fn servers_leave_within_seconds_of_their_data_dirs_going() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let runtime = tmp.path().join("run");
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    let dirs: Vec<PathBuf> = (0..6)
        .map(|i| tmp.path().join(format!("data{i}")))
        .collect();
    let mut servers = KillOnDrop(Vec::new());
    for (i, dir) in dirs.iter().enumerate() {
        // Half of them have embedded their mail (the model loaded); the others
        // have only stored it.
        let mut ingest = quoth(&runtime, dir);
        ingest.arg("ingest");
        if i % 2 == 1 {
            ingest.arg("--no-embed");
        }
        let out = ingest.arg(demo_mailbox()).output().expect("ingest runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        servers.0.push(server_of(&runtime, dir));
    }
    let mut unique = servers.0.clone();
    unique.dedup();
    assert_eq!(unique.len(), dirs.len(), "one server per data dir");
    for dir in &dirs {
        std::fs::remove_dir_all(dir).expect("remove the data dir");
    }
    let left = still_running(&servers.0, Duration::from_secs(5));
    assert!(
        left.is_empty(),
        "servers still running 5 s after their data dirs went: {left:?}"
    );
}

#[test]
fn a_data_dir_made_anew_at_the_same_path_gets_its_own_server() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let runtime = tmp.path().join("run");
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    let dir = tmp.path().join("data");
    ingest(&runtime, &dir, &demo_mailbox());
    let demo_messages = json_of(quoth(&runtime, &dir), &["stats"])["messages"].clone();
    let old = server_of(&runtime, &dir);
    let mut servers = KillOnDrop(vec![old]);

    // Start over at once: the old server may not have noticed yet.
    std::fs::remove_dir_all(&dir).expect("remove the data dir");
    let other = other_mailbox(tmp.path());
    ingest(&runtime, &dir, &other);
    let stats = json_of(quoth(&runtime, &dir), &["stats"]);
    assert_eq!(stats["messages"], 1, "only the new mail: {stats}");
    assert_ne!(stats["messages"], demo_messages);
    let hits = json_of(quoth(&runtime, &dir), &["search", "lanterns"]);
    assert_eq!(hits["hits"].as_array().map(Vec::len), Some(1), "{hits}");

    let new = server_of(&runtime, &dir);
    servers.0.push(new);
    assert_ne!(new, old, "the new data dir has a server of its own");
    assert!(
        still_running(&[old], Duration::from_secs(5)).is_empty(),
        "the old server is gone within 5 s"
    );
    // The old server's leaving did not take the new server's socket with it.
    assert_eq!(server_of(&runtime, &dir), new);
}

#[test]
fn status_names_the_server() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let runtime = tmp.path().join("run");
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    let dir = tmp.path().join("data");
    ingest(&runtime, &dir, &demo_mailbox());
    let status = json_of(quoth(&runtime, &dir), &["status"]);
    let server = &status["server"];
    let pid = server["pid"].as_u64().expect("pid") as u32;
    let _kill = KillOnDrop(vec![pid]);
    assert!(runs(pid));
    assert_eq!(server["background"], true, "{status}");
    assert_eq!(server["clients"], 1, "the asking client: {status}");
    assert!(server["uptime_secs"].is_u64(), "{status}");
    assert_eq!(
        server["store"].as_str(),
        std::fs::read_to_string(dir.join("store-id"))
            .ok()
            .as_deref()
            .map(str::trim),
        "{status}"
    );
    let text = quoth(&runtime, &dir)
        .arg("status")
        .output()
        .expect("status runs");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains(&format!("server: process {pid}, background")),
        "{text}"
    );
}

#[test]
fn a_repair_on_opening_reaches_the_client_with_the_right_count() {
    if common::models().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let runtime = tmp.path().join("run");
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    let dir = tmp.path().join("data");
    let out = quoth(&runtime, &dir)
        .arg("ingest")
        .arg(demo_mailbox())
        .output()
        .expect("ingest runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut servers = KillOnDrop(vec![server_of(&runtime, &dir)]);
    // The store flushes within a second of the last write; then the server goes.
    std::thread::sleep(Duration::from_millis(1500));
    let _ = Command::new("kill")
        .arg("-9")
        .arg(servers.0[0].to_string())
        .status();
    assert!(still_running(&servers.0, Duration::from_secs(10)).is_empty());

    // Cut the vector file in the middle of a record, half way through.
    let file = dir.join("vectors/vectors.bin");
    let len = std::fs::metadata(&file).expect("vector file").len();
    let (header, record) = (24, 8 + 4 * 384);
    let records = (len - header) / record;
    assert!(
        records >= 10,
        "the demo mail is embedded: {records} records"
    );
    let kept = records / 2;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&file)
        .and_then(|f| f.set_len(header + kept * record + record / 3))
        .expect("cut the file");

    // The next command starts a server, which repairs the file on opening: its
    // user hears of it, with the number of texts to embed again.
    let out = quoth(&runtime, &dir)
        .args(["--json", "status"])
        .output()
        .expect("status runs");
    servers.0.push(server_of(&runtime, &dir));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let said = format!(
        "the vector file was damaged: {} texts lost their vectors",
        records - kept
    );
    assert!(
        stderr.contains(&format!("note: {said}")),
        "expected {said:?} in:\n{stderr}"
    );
    // And in the JSON's notes.
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json status");
    let notes = status["notes"].as_array().expect("notes").clone();
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.contains(&said))),
        "expected {said:?} in the JSON notes: {notes:?}"
    );
    // Told once.
    let again = quoth(&runtime, &dir)
        .arg("status")
        .output()
        .expect("status runs");
    assert!(
        !String::from_utf8_lossy(&again.stderr).contains("vector file"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}
