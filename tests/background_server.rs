//! A command that finds no server running starts one in the background and goes
//! through it; later commands reuse it, a command that needs the data directory to
//! itself stops it, it exits when idle, and a killed one is replaced. Real processes
//! on a real data directory.

mod common;

use common::demo_mailbox;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The CLI as a user runs it: no `QUOTH_INLINE`, the socket in the data directory.
fn quoth(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quoth"));
    c.env_remove("QUOTH_INLINE")
        .env_remove("XDG_RUNTIME_DIR")
        .env("QUOTH_SERVER_IDLE_EXIT", "60")
        .arg("--data-dir")
        .arg(dir);
    c
}

fn json_of(command: &mut Command, args: &[&str]) -> Value {
    let out = command
        .arg("--json")
        .args(args)
        .output()
        .expect("quoth runs");
    if !out.status.success() {
        let log = command
            .get_args()
            .skip_while(|a| *a != "--data-dir")
            .nth(1)
            .and_then(|dir| std::fs::read_to_string(Path::new(dir).join("server.log")).ok());
        let dir = command
            .get_args()
            .skip_while(|a| *a != "--data-dir")
            .nth(1)
            .map(|d| Path::new(d).to_path_buf())
            .unwrap_or_default();
        panic!(
            "quoth {args:?} failed: {}\nserver log:\n{}\nservers now: {:?}",
            String::from_utf8_lossy(&out.stderr),
            log.unwrap_or_default(),
            servers_of(&dir)
        );
    }
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn hit_keys(v: &Value) -> Vec<String> {
    let hits = v["hits"].as_array().expect("hits");
    assert!(!hits.is_empty(), "{v}");
    hits.iter()
        .map(|h| h["key"].as_str().expect("key").to_string())
        .collect()
}

/// The greeting of the data directory's server, when one listens.
fn greeting(dir: &Path) -> Option<Value> {
    let stream = UnixStream::connect(dir.join("server.sock")).ok()?;
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).ok()?;
    serde_json::from_str(&line).ok()
}

fn server_pid(dir: &Path) -> u32 {
    let g = greeting(dir).expect("a server listens");
    assert_eq!(g["background"], true, "{g}");
    g["pid"].as_u64().expect("pid") as u32
}

/// Whether a process runs (a zombie whose threads have all exited does not).
fn runs(pid: u32) -> bool {
    quoth::serve::client::process_runs(pid)
}

fn wait_until_gone(pid: u32, within: Duration) -> bool {
    let start = Instant::now();
    while runs(pid) {
        if start.elapsed() > within {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

/// The `quoth serve` processes serving `dir`, found by their command lines.
fn servers_of(dir: &Path) -> Vec<u32> {
    let wanted = dir.display().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc") {
        let Ok(entry) = entry else { continue };
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let args: Vec<String> = cmdline
            .split(|b| *b == 0)
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        if args.iter().any(|a| a == "serve") && args.contains(&wanted) && runs(pid) {
            found.push(pid);
        }
    }
    found
}

/// Stops whatever server is left, so no process outlives its test's directory.
struct StopServers<'a>(&'a Path);

impl Drop for StopServers<'_> {
    fn drop(&mut self) {
        for pid in servers_of(self.0) {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    }
}

/// A data directory with the demo mailbox ingested in this process's way.
fn demo_store(dir: &Path) {
    let out = quoth(dir)
        .env("QUOTH_INLINE", "1")
        .args(["ingest", "--no-embed"])
        .arg(demo_mailbox())
        .output()
        .expect("ingest runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn commands_start_one_background_server_reuse_it_and_a_foreground_server_takes_over() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("data");
    let _stop = StopServers(&dir);
    demo_store(&dir);
    let inline = json_of(
        quoth(&dir).env("QUOTH_INLINE", "1"),
        &["search", "roof", "--mode", "lexical"],
    );
    assert!(
        greeting(&dir).is_none(),
        "an inline command leaves no server"
    );

    let through = json_of(&mut quoth(&dir), &["search", "roof", "--mode", "lexical"]);
    assert_eq!(hit_keys(&through), hit_keys(&inline));
    let pid = server_pid(&dir);
    assert!(runs(pid));
    let mode = std::fs::metadata(dir.join("server.log"))
        .expect("server log")
        .permissions();
    assert_eq!(
        std::os::unix::fs::PermissionsExt::mode(&mode) & 0o077,
        0,
        "the server log is private"
    );

    // The next commands, even with QUOTH_INLINE, go through the same server.
    let stats = json_of(&mut quoth(&dir), &["stats"]);
    assert!(stats["messages"].as_u64().expect("messages") > 0, "{stats}");
    let status = json_of(quoth(&dir).env("QUOTH_INLINE", "1"), &["status"]);
    assert_eq!(status["background_work"], false, "{status}");
    assert_eq!(server_pid(&dir), pid, "the server is reused");
    assert_eq!(servers_of(&dir), vec![pid]);

    // A foreground server needs the data directory: the background one stops.
    let mut foreground = quoth(&dir)
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    BufReader::new(foreground.stderr.take().expect("stderr"))
        .read_line(&mut line)
        .expect("serve says where it listens");
    assert!(line.contains("listening on"), "{line:?}");
    assert!(wait_until_gone(pid, Duration::from_secs(10)));
    let g = greeting(&dir).expect("the foreground server listens");
    assert_eq!(g["background"], false, "{g}");
    assert_eq!(g["pid"].as_u64(), Some(u64::from(foreground.id())));
    let again = json_of(&mut quoth(&dir), &["search", "roof", "--mode", "lexical"]);
    assert_eq!(hit_keys(&again), hit_keys(&inline));
    let _ = foreground.kill();
    let _ = foreground.wait();
}

#[test]
fn an_ingest_through_a_background_server_reports_and_embeds_as_one_in_process() {
    if common::models().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let (by_server, in_process) = (tmp.path().join("server"), tmp.path().join("inline"));
    let _stop = StopServers(&by_server);
    let demo = demo_mailbox();
    let demo = demo.to_str().expect("path");
    let expected = json_of(
        quoth(&in_process).env("QUOTH_INLINE", "1"),
        &["ingest", demo],
    );
    let got = json_of(&mut quoth(&by_server), &["ingest", demo]);
    for field in [
        "files_found",
        "messages_read",
        "added",
        "quarantined",
        "threads",
        "indexed",
    ] {
        assert_eq!(got[field], expected[field], "{field}: {got}");
    }
    assert!(got["added"].as_u64().expect("added") > 0);
    // The command waited for the embedding its server ran.
    let embedding = &got["status"]["embedding"];
    assert_eq!(got["status"]["background_work"], false, "{got}");
    assert_eq!(embedding["done"], embedding["total"], "{got}");
    assert_eq!(
        embedding["done"], expected["status"]["embedding"]["done"],
        "{got}"
    );

    // Another command sees what the server did; a semantic search finds mail.
    let status = json_of(&mut quoth(&by_server), &["status"]);
    assert_eq!(status["embedding"], got["status"]["embedding"]);
    assert_eq!(status["vectors"], got["status"]["vectors"]);
    let hits = json_of(
        &mut quoth(&by_server),
        &["search", "when does the roofer come", "--mode", "semantic"],
    );
    assert!(!hits["hits"].as_array().expect("hits").is_empty(), "{hits}");
    // Ingesting again adds nothing.
    let twice = json_of(&mut quoth(&by_server), &["ingest", "--no-embed", demo]);
    assert_eq!(twice["added"], 0, "{twice}");
    assert_eq!(servers_of(&by_server).len(), 1);
}

#[test]
fn a_killed_background_server_is_replaced_and_an_idle_one_exits() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("data");
    let _stop = StopServers(&dir);
    demo_store(&dir);
    let before = json_of(&mut quoth(&dir), &["stats"]);
    let pid = server_pid(&dir);
    assert!(Command::new("kill")
        .arg("-9")
        .arg(pid.to_string())
        .status()
        .expect("kill")
        .success());
    assert!(wait_until_gone(pid, Duration::from_secs(10)));
    assert!(
        dir.join("server.sock").exists(),
        "kill -9 leaves the socket file"
    );

    // The next command finds the dead socket and starts a new server.
    let after = json_of(quoth(&dir).env("QUOTH_SERVER_IDLE_EXIT", "2"), &["stats"]);
    assert_eq!(after["messages"], before["messages"]);
    assert_eq!(after["threads"], before["threads"]);
    let second = server_pid(&dir);
    assert_ne!(second, pid);

    // With nothing to do, it exits after its idle time and removes its socket.
    assert!(
        wait_until_gone(second, Duration::from_secs(30)),
        "the idle server exits"
    );
    assert!(!dir.join("server.sock").exists());
    assert!(servers_of(&dir).is_empty());
}

#[test]
fn commands_started_at_once_share_one_server() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("data");
    let _stop = StopServers(&dir);
    demo_store(&dir);
    let children: Vec<_> = (0..4)
        .map(|_| {
            quoth(&dir)
                .args(["--json", "stats"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn")
        })
        .collect();
    let mut counts = Vec::new();
    for child in children {
        let out = child.wait_with_output().expect("wait");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        counts.push(v["messages"].clone());
    }
    assert!(counts.windows(2).all(|w| w[0] == w[1]), "{counts:?}");
    // Servers that lost the race for the data directory have exited.
    let deadline = Instant::now() + Duration::from_secs(10);
    while servers_of(&dir).len() > 1 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(servers_of(&dir), vec![server_pid(&dir)]);
}
