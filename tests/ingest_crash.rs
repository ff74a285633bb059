//! Kill -9 during an ingest, then open the store again: every stored message has its
//! search document and a thread (the ingest stores mail first and indexes it after
//! threading, so a kill in between must be caught up when the store is opened), a
//! second ingest completes the mailbox without adding anything twice, and the
//! embedding jobs equal an uninterrupted run's (a kill between storing mail and
//! queueing its jobs is reconciled from the store).

mod common;

use common::{open, shared};
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn kill_nine_during_ingest_leaves_every_stored_message_searchable() {
    let Some(maildir) = shared("data/enron/maildir") else {
        return;
    };
    let reference = {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut engine = open(dir.path());
        engine
            .ingest(std::slice::from_ref(&maildir), &mut |_| {})
            .expect("ingest");
        engine.embed_progress().expect("progress").total
    };
    assert!(reference > 8971, "{reference} embedding jobs");
    // Twelve points across the ingest (about 4 s in a test build), the last ones
    // after it may have finished.
    for delay_ms in [
        150, 400, 700, 1000, 1300, 1600, 1900, 2200, 2600, 3000, 3500, 4200,
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut child = Command::new(env!("CARGO_BIN_EXE_quoth"))
            .env("QUOTH_INLINE", "1")
            .arg("--data-dir")
            .arg(dir.path())
            .args(["ingest", "--no-embed"])
            .arg(&maildir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start quoth ingest");
        std::thread::sleep(Duration::from_millis(delay_ms));
        let finished = child.try_wait().expect("poll ingest").is_some();
        child.kill().ok(); // SIGKILL on Unix
        child.wait().expect("reap ingest");

        let mut engine = open(dir.path());
        let stats = engine.stats().expect("stats");
        eprintln!(
            "killed after {delay_ms} ms (finished: {finished}): {} messages stored, {} documents, {} threads",
            stats.messages, stats.lexical_docs, stats.threads
        );
        assert_eq!(
            stats.lexical_docs, stats.messages as u64,
            "every stored message has its search document after reopening"
        );
        if stats.messages > 0 {
            assert!(stats.threads > 0, "threads were rebuilt");
        }
        assert!(!engine.store().documents_owed().expect("flag"));
        let before = stats.messages;

        let report = engine
            .ingest(std::slice::from_ref(&maildir), &mut |_| {})
            .expect("second ingest");
        let stats = engine.stats().expect("stats");
        assert_eq!(stats.messages, 8971, "the mailbox is complete");
        assert_eq!(stats.lost, 0);
        assert_eq!(stats.lexical_docs, 8971);
        assert_eq!(before + report.added, 8971, "nothing added twice");
        let jobs = engine.embed_progress().expect("progress").total;
        assert_eq!(
            jobs, reference,
            "embedding jobs after a kill at {delay_ms} ms"
        );
        let gaps = engine.work_gaps().expect("gaps");
        assert!(gaps.is_empty(), "{gaps:?}");
    }
}
