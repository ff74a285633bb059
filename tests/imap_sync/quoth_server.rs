//! A sync and a watch run in the Quoth server that holds the data directory.

use super::*;
use crate::imap::PASSWORD;

/// `quoth --data-dir DATA ARGS` as a user runs it: through the data directory's
/// server.
fn quoth_cli(data: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("QUOTH_INLINE")
        .env_remove("QUOTH_CONFIG")
        .output()
        .expect("quoth runs");
    assert!(
        out.status.success(),
        "quoth {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Kills the child when the test ends, however it ends.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `quoth serve` in the foreground on a new data directory, once it listens, with
/// its stderr, which is kept open to the end: the server's later lines must have
/// somewhere to go.
fn foreground_server(data: &Path) -> (KillOnDrop, std::io::BufReader<std::process::ChildStderr>) {
    std::fs::create_dir_all(data).expect("data dir");
    let mut held = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_quoth"))
            .arg("--data-dir")
            .arg(data)
            .arg("serve")
            .env_remove("QUOTH_INLINE")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("quoth serve starts"),
    );
    let mut log = std::io::BufReader::new(held.0.stderr.take().expect("stderr"));
    let mut listening = String::new();
    std::io::BufRead::read_line(&mut log, &mut listening).expect("reads");
    assert!(listening.contains("listening"), "{listening}");
    (held, log)
}

#[test]
fn a_sync_runs_in_the_server_that_holds_the_data_directory() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    rt.block_on(async {
        let mut s = server.session().await;
        for i in 0..3 {
            s.append("INBOX", None, &fresh_message(i, "served"))
                .await
                .expect("append");
        }
        s.logout().await;
    });
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    // A server in the foreground holds the data directory, as an open UI does.
    let (held, _log) = foreground_server(&data);

    let out = quoth_cli(
        &data,
        &[
            "--json",
            "sync",
            "--config",
            config.to_str().expect("utf-8 path"),
        ],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    let inbox = report["accounts"][0]["folders"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["folder"] == "INBOX"))
        .cloned()
        .expect("the INBOX was synced");
    assert_eq!(inbox["added"], 3, "{report}");

    // The server that holds the store has the mail, and it still runs.
    let found = quoth_cli(
        &data,
        &[
            "search",
            "zebra served",
            "--mode",
            "lexical",
            "--output",
            "messages",
        ],
    );
    let ids = String::from_utf8_lossy(&found.stdout).into_owned();
    assert_eq!(ids.lines().count(), 3, "{ids}");
    let status = String::from_utf8_lossy(&quoth_cli(&data, &["status"]).stdout).into_owned();
    assert!(
        status.contains(&format!("process {},", held.0.id())),
        "{status}"
    );
}

/// Whether the data directory's server says it watches IMAP accounts.
fn server_watching(data: &Path) -> bool {
    let out = quoth_cli(data, &["--json", "status"]);
    let status: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json status");
    status["server"]["watching"]
        .as_bool()
        .expect("the status names the server")
}

#[test]
fn a_watch_runs_in_the_server_that_holds_the_data_directory_and_ends_with_its_client() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    let (_held, _log) = foreground_server(&data);
    assert!(!server_watching(&data));

    // The watch goes to the server that holds the data directory.
    let mut command = quoth(&data, &config, &["--watch"]);
    command.env_remove("QUOTH_INLINE");
    let (child, rx) = spawn_watch(command);
    let mut watch = KillOnDrop(child);
    next_event(&rx, "idling");
    assert!(server_watching(&data), "the server runs the watch");
    rt.block_on(async {
        let mut s = server.session().await;
        s.append("INBOX", None, &fresh_message(1, "watched"))
            .await
            .expect("append");
        s.logout().await;
    });
    assert_eq!(next_event(&rx, "new_mail")["count"], 1);
    // Another client of the same server finds the new mail while the watch runs.
    let found = quoth_cli(
        &data,
        &[
            "search",
            "zebra watched",
            "--mode",
            "lexical",
            "--output",
            "messages",
        ],
    );
    assert_eq!(String::from_utf8_lossy(&found.stdout).lines().count(), 1);

    // The watch's client goes: the server stops watching, and still serves.
    let _ = watch.0.kill();
    let _ = watch.0.wait();
    let deadline = Instant::now() + Duration::from_secs(10);
    while server_watching(&data) {
        assert!(
            Instant::now() < deadline,
            "the server still watches 10 s after its client went"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
