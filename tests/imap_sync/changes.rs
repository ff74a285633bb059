//! A sync keeps the store equal to the server through appends, expunges, flag
//! changes, recreated folders, kills mid-way and IDLE pushes, and keeps mail that
//! another source holds.

use super::*;
use crate::imap::{append_all, maildir_messages, PASSWORD};

/// Starts `quoth sync`, lets it work for `after`, and kills it with SIGKILL.
fn kill_midway(c: &mut Command, after: Duration) {
    let mut child = c
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("quoth starts");
    std::thread::sleep(after);
    let _ = child.kill();
    let _ = child.wait();
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

#[test]
fn sync_matches_the_server_through_changes_and_kills() {
    let Some(allen) = common::shared("data/enron/maildir/allen-p") else {
        return;
    };
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    let folders = maildir_messages(&allen);
    let total: usize = folders.values().map(Vec::len).sum();
    assert_eq!(total, 3034, "allen-p holds 3,034 messages");
    rt.block_on(async {
        let mut s = server.session().await;
        for (folder, msgs) in &folders {
            append_all(&mut s, folder, msgs).await;
        }
        s.logout().await;
    });
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let a = work.path().join("a");

    // Initial sync, uninterrupted: the rate figure.
    let t = Instant::now();
    run_ok(quoth(&a, &config, &[]));
    let initial = t.elapsed();
    assert_matches(&rt, &server, &a, "initial sync");

    let no_change: Vec<f64> = (0..3)
        .map(|_| {
            let t = Instant::now();
            run_ok(quoth(&a, &config, &[]));
            t.elapsed().as_secs_f64()
        })
        .collect();
    assert_matches(&rt, &server, &a, "no-change sync");

    // An initial sync killed three times at different points, then finished.
    let b = work.path().join("b");
    for fraction in [0.2, 0.45, 0.7] {
        kill_midway(&mut quoth(&b, &config, &[]), initial.mul_f64(fraction));
    }
    run_ok(quoth(&b, &config, &[]));
    assert_matches(&rt, &server, &b, "initial sync killed three times");

    // New mail (fresh and copies of stored mail), expunges, flag changes and a
    // malformed message, synced by a process killed mid-way and a second one.
    rt.block_on(async {
        let mut s = server.session().await;
        let fresh: Vec<Vec<u8>> = (0..40).map(|i| fresh_message(i, "first")).collect();
        append_all(&mut s, "INBOX", &fresh).await;
        append_all(&mut s, "INBOX", &folders["straw"][..5]).await;
        s.append("INBOX", None, b"this is not a mail message at all\r\n")
            .await
            .expect("append");
        s.select("sent").await.expect("select");
        s.command("UID STORE 1:25 +FLAGS.SILENT (\\Deleted)")
            .await
            .expect("store");
        s.command("EXPUNGE").await.expect("expunge");
        s.select("INBOX").await.expect("select");
        s.command("UID STORE 1:30 +FLAGS.SILENT (\\Seen)")
            .await
            .expect("store");
        s.command("UID STORE 10:12 +FLAGS.SILENT (\\Flagged \\Answered)")
            .await
            .expect("store");
        s.command("UID STORE 5 -FLAGS.SILENT (\\Seen)")
            .await
            .expect("store");
        s.logout().await;
    });
    kill_midway(
        &mut quoth(&a, &config, &["--batch", "10"]),
        Duration::from_millis(400),
    );
    run_ok(quoth(&a, &config, &[]));
    assert_matches(&rt, &server, &a, "appends, expunges, flags, malformed mail");
    let quarantined = quoth::engine::Engine::open(&a)
        .expect("open")
        .stats()
        .expect("stats")
        .quarantined;
    assert_eq!(quarantined, 1, "the malformed message is quarantined");

    // A folder deleted and recreated (new UIDVALIDITY) with part of its mail, and
    // a folder deleted for good.
    rt.block_on(async {
        let mut s = server.session().await;
        s.command("DELETE \"discussion_threads\"")
            .await
            .expect("delete");
        append_all(
            &mut s,
            "discussion_threads",
            &folders["discussion_threads"][..60],
        )
        .await;
        s.command("DELETE \"contacts\"").await.expect("delete");
        s.logout().await;
    });
    kill_midway(
        &mut quoth(&a, &config, &["--batch", "10"]),
        Duration::from_millis(300),
    );
    run_ok(quoth(&a, &config, &[]));
    assert_matches(&rt, &server, &a, "recreated and deleted folders");

    // IDLE: APPEND on the server, and time until the watch loop has the message
    // stored and searchable (it reports new mail after the index commit).
    let (mut watch, rx) = start_watch(&a, &config);
    let wait_for = |what: &str| next_event(&rx, what);
    // The first sync and the IDLE connection come up in either order.
    let mut up = std::collections::HashSet::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while up.len() < 2 {
        let left = deadline.saturating_duration_since(Instant::now());
        let v = rx.recv_timeout(left).expect("the watch loop starts");
        if let Some(e) = v["event"]
            .as_str()
            .filter(|e| ["synced", "idling"].contains(e))
        {
            up.insert(e.to_string());
        }
    }
    let mut push = Vec::new();
    for i in 0..5 {
        let t = rt.block_on(async {
            let mut s = server.session().await;
            s.append("INBOX", None, &fresh_message(i, "pushed"))
                .await
                .expect("append");
            let t = Instant::now();
            s.logout().await;
            t
        });
        let event = wait_for("new_mail");
        push.push(t.elapsed().as_secs_f64());
        assert_eq!(event["folder"], "INBOX");
        assert_eq!(event["count"], 1);
    }
    let _ = watch.kill();
    let _ = watch.wait();
    assert_matches(&rt, &server, &a, "mail pushed through IDLE");

    eprintln!(
        "IMAP figures: initial sync {total} messages in {:.2} s ({:.0} messages/s); \
         no-change sync median {:.3} s; APPEND to searchable with IDLE median {:.3} s",
        initial.as_secs_f64(),
        total as f64 / initial.as_secs_f64(),
        median(no_change),
        median(push)
    );
}

#[test]
fn a_message_another_source_holds_survives_an_expunge() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    let msgs: Vec<Vec<u8>> = (0..3).map(|i| fresh_message(i, "shared")).collect();
    rt.block_on(async {
        let mut s = server.session().await;
        append_all(&mut s, "INBOX", &msgs).await;
        append_all(&mut s, "Archive", &msgs).await;
        s.logout().await;
    });
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    // Message 0 is also in a local Maildir, with LF line ends: the same content key.
    let maildir = work.path().join("local");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let lf = String::from_utf8_lossy(&msgs[0]).replace("\r\n", "\n");
    std::fs::write(maildir.join("cur/1:2,S"), lf).expect("local copy");
    let out = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .env("QUOTH_INLINE", "1")
        .arg("--data-dir")
        .arg(&data)
        .args(["ingest", "--no-embed"])
        .arg(&maildir)
        .output()
        .expect("ingest runs");
    assert!(out.status.success());
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let stored = || {
        let engine = quoth::engine::Engine::open(&data).expect("open");
        let stats = engine.stats().expect("stats");
        assert_eq!(stats.lexical_docs as usize, stats.messages);
        stats.messages
    };
    run_ok(quoth(&data, &config, &[]));
    assert_eq!(stored(), 3, "one copy of each message, wherever it is held");

    let expunge = |folder: &str, uids: &str| {
        rt.block_on(async {
            let mut s = server.session().await;
            s.select(folder).await.expect("select");
            s.command(&format!("UID STORE {uids} +FLAGS.SILENT (\\Deleted)"))
                .await
                .expect("store");
            s.command("EXPUNGE").await.expect("expunge");
            s.logout().await;
        })
    };
    expunge("INBOX", "1:3");
    run_ok(quoth(&data, &config, &[]));
    assert_eq!(stored(), 3, "Archive still holds all three");

    expunge("Archive", "1:2");
    run_ok(quoth(&data, &config, &[]));
    assert_eq!(
        stored(),
        2,
        "message 1 is gone; message 0 stays (a local file holds it), message 2 stays"
    );
    let engine = quoth::engine::Engine::open(&data).expect("open");
    assert!(engine.find_message("<zebra-shared-0@example.com>").is_ok());
    assert!(engine.find_message("<zebra-shared-1@example.com>").is_err());
    assert!(engine.find_message("<zebra-shared-2@example.com>").is_ok());
}
