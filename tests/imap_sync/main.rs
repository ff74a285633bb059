//! IMAP sync against a real Dovecot on loopback: the 3,034 allen-p messages, then
//! appends, expunges, flag changes, a recreated folder (new UIDVALIDITY) and kill -9
//! of the `quoth sync` process mid-way; after each step the store must match the
//! server exactly. Also IDLE push, and clear errors that leave the store intact.
//! Figures (initial sync rate, no-change sync, APPEND to searchable) are printed,
//! never asserted.

#[path = "../common/mod.rs"]
mod common;
#[path = "../imap/mod.rs"]
mod imap;

mod changes;
mod failures;
mod flags_and_tags;
mod quoth_server;
mod sent_mail;

use imap::{local_snapshot, server_snapshot, Dovecot};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const ACCOUNT: &str = "test";

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

fn quoth(data: &Path, config: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quoth"));
    c.env("QUOTH_INLINE", "1");
    c.arg("--data-dir")
        .arg(data)
        .arg("sync")
        .arg("--config")
        .arg(config)
        .args(extra)
        .env_remove("QUOTH_CONFIG");
    c
}

fn run_ok(mut c: Command) -> Output {
    let out = c.output().expect("quoth runs");
    assert!(
        out.status.success(),
        "quoth sync failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

fn assert_matches(rt: &tokio::runtime::Runtime, server: &Dovecot, data: &Path, step: &str) {
    let theirs = rt.block_on(async {
        let mut s = server.session().await;
        let snap = server_snapshot(&mut s).await;
        s.logout().await;
        snap
    });
    let ours = local_snapshot(data, ACCOUNT);
    for (folder, rows) in &theirs {
        assert_eq!(
            ours.get(folder).map(Vec::len),
            Some(rows.len()),
            "{step}: message count of {folder}"
        );
        assert_eq!(
            ours.get(folder),
            Some(rows),
            "{step}: keys and flags of {folder}"
        );
    }
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        theirs.keys().collect::<Vec<_>>(),
        "{step}: folders"
    );
}

fn fresh_message(i: usize, tag: &str) -> Vec<u8> {
    format!(
        "From: Tess Ter <tess@example.com>\r\nTo: alice@example.com\r\n\
         Subject: zebra census {tag} {i}\r\nMessage-ID: <zebra-{tag}-{i}@example.com>\r\n\
         Date: Mon, 1 Jan 2024 10:00:00 +0000\r\n\r\n\
         The {tag} zebra count for pen {i} is {}.\r\n",
        i * 7
    )
    .into_bytes()
}

/// Starts `quoth sync --watch --json` and returns it with a channel of its events.
fn start_watch(
    data: &Path,
    config: &Path,
) -> (std::process::Child, mpsc::Receiver<serde_json::Value>) {
    spawn_watch(quoth(data, config, &["--watch"]))
}

/// Starts a `quoth sync --watch` command with `--json` and returns it with a
/// channel of its events.
fn spawn_watch(mut command: Command) -> (std::process::Child, mpsc::Receiver<serde_json::Value>) {
    let mut watch = command
        .arg("--json")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("watch starts");
    let (tx, rx) = mpsc::channel();
    let stdout = watch.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Ok(v) = serde_json::from_str(&line) {
                if tx.send(v).is_err() {
                    return;
                }
            }
        }
    });
    (watch, rx)
}

fn next_event(rx: &mpsc::Receiver<serde_json::Value>, what: &str) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let v = rx
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no {what} event"));
        if v["event"] == what {
            return v;
        }
    }
}
