//! A server killed during an ingest loses nothing and stores nothing twice.

use super::*;
use std::time::Duration;

/// Kill -9 of a server while the ingest a client handed it runs: the next client
/// works without it, and ingesting again stores exactly what an uninterrupted run
/// stores, with the same embedding jobs.
#[test]
fn a_server_killed_during_an_ingest_loses_nothing_and_stores_nothing_twice() {
    let Some(maildir) = common::shared("data/enron/maildir") else {
        return;
    };
    let counts = |dir: &Path| {
        let stats = json_of(dir, &["stats"]);
        let status = json_of(dir, &["status"]);
        (
            stats["messages"].as_u64().expect("messages"),
            stats["threads"].as_u64().expect("threads"),
            stats["lexical_docs"].as_u64().expect("documents"),
            status["embedding"]["total"].as_u64().expect("jobs"),
        )
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let whole = tmp.path().join("whole");
    let ingest = |dir: &Path| {
        let out = quoth(dir)
            .args(["ingest", "--no-embed"])
            .arg(&maildir)
            .output()
            .expect("ingest runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    ingest(&whole);
    let reference = counts(&whole);
    assert!(reference.0 > 8000, "{reference:?}");
    for delay_ms in [300, 1500, 3000] {
        let dir = tmp.path().join(format!("killed-{delay_ms}"));
        let (mut server, _) = start_server(&dir);
        assert!(
            ingest(&dir).contains("handed to the running Quoth"),
            "the ingest goes to the server"
        );
        std::thread::sleep(Duration::from_millis(delay_ms));
        server.kill().ok(); // SIGKILL on Unix
        server.wait().ok();
        // The dead server's socket is no obstacle: the CLI runs in process.
        let (messages, _, documents, _) = counts(&dir);
        eprintln!("server killed after {delay_ms} ms: {messages} messages stored");
        assert_eq!(documents, messages, "every stored message is searchable");
        ingest(&dir);
        assert_eq!(
            counts(&dir),
            reference,
            "after a kill at {delay_ms} ms and a resume"
        );
    }
}
