//! `quoth serve` with real processes: the CLI goes through the server that owns the
//! data directory, the HTTP API answers as the CLI does, tokens are required, and a
//! killed server leaves the CLI working.

#[path = "../common/mod.rs"]
mod common;

mod cli_and_http;
mod killed_server;
mod socket_clients;

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

fn quoth(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quoth"));
    c.env("QUOTH_INLINE", "1");
    c.arg("--data-dir").arg(dir).env_remove("XDG_RUNTIME_DIR");
    c
}

fn json_of(dir: &Path, args: &[&str]) -> Value {
    let out = quoth(dir)
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

/// A server on a free loopback port; returns it and its API base URL.
fn start_server(dir: &Path) -> (Child, String) {
    let mut child = quoth(dir)
        .args(["serve", "--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("serve prints its address");
    assert!(line.starts_with("http://127.0.0.1:"), "{line:?}");
    (child, line.trim().to_string())
}
