//! IMAP sync against a real Dovecot on loopback: the 3,034 allen-p messages, then
//! appends, expunges, flag changes, a recreated folder (new UIDVALIDITY) and kill -9
//! of the `quoth sync` process mid-way; after each step the store must match the
//! server exactly. Also IDLE push, and clear errors that leave the store intact.
//! Figures (initial sync rate, no-change sync, APPEND to searchable) are printed,
//! never asserted.

mod common;
mod imap;

use imap::{append_all, local_snapshot, maildir_messages, server_snapshot, Dovecot, PASSWORD};
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
fn login_and_connection_errors_are_clear_and_leave_the_store_intact() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    rt.block_on(async {
        let mut s = server.session().await;
        let msgs: Vec<Vec<u8>> = (0..5).map(|i| fresh_message(i, "errors")).collect();
        append_all(&mut s, "INBOX", &msgs).await;
        s.logout().await;
    });
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    run_ok(quoth(
        &data,
        &server.write_config(ACCOUNT, PASSWORD, server.port),
        &[],
    ));
    let stored = || {
        quoth::engine::Engine::open(&data)
            .expect("open")
            .stats()
            .expect("stats")
            .messages
    };
    assert_eq!(stored(), 5);

    let fail = |config: &Path| -> String {
        let out = quoth(&data, config, &["--retries", "0"])
            .output()
            .expect("runs");
        assert!(!out.status.success(), "sync should fail");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };

    let wrong = server.write_config(ACCOUNT, "not-the-password", server.port);
    let err = fail(&wrong);
    assert!(
        err.contains("account 'test'") && err.contains("refused the login of 'alice'"),
        "{err}"
    );
    assert!(
        !err.contains("not-the-password"),
        "the password is never shown: {err}"
    );
    assert_eq!(stored(), 5, "a refused login leaves the store as it was");

    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let unreachable = server.write_config(ACCOUNT, PASSWORD, closed_port);
    let err = fail(&unreachable);
    assert!(
        err.contains("account 'test'")
            && err.contains(&format!("cannot connect to 127.0.0.1:{closed_port}")),
        "{err}"
    );

    let tls = work.path().join("tls.toml");
    std::fs::write(
        &tls,
        server
            .account_toml(ACCOUNT, PASSWORD, server.port)
            .replace("tls = \"plain\"", "tls = \"implicit\""),
    )
    .expect("config");
    let err = fail(&tls);
    assert!(
        err.contains("account 'test'") && err.contains("TLS with 127.0.0.1 failed"),
        "{err}"
    );

    let remote = work.path().join("remote.toml");
    std::fs::write(
        &remote,
        server
            .account_toml(ACCOUNT, PASSWORD, server.port)
            .replace("127.0.0.1", "imap.example.com"),
    )
    .expect("config");
    let err = fail(&remote);
    assert!(err.contains("only for a server on this machine"), "{err}");
    assert_eq!(stored(), 5);
    let _ = rt;
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

#[test]
fn the_watch_loop_reconnects_after_the_server_restarts() {
    let Some(mut server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    let (mut watch, rx) = start_watch(&data, &config);
    next_event(&rx, "idling");
    server.restart();
    // The IDLE connection breaks, is reported, and comes back after a backoff.
    next_event(&rx, "error");
    next_event(&rx, "idling");
    rt.block_on(async {
        let mut s = server.session().await;
        s.append("INBOX", None, &fresh_message(1, "after-restart"))
            .await
            .expect("append");
        s.logout().await;
    });
    let event = next_event(&rx, "new_mail");
    assert_eq!(event["count"], 1);
    let _ = watch.kill();
    let _ = watch.wait();
    assert_matches(&rt, &server, &data, "after a server restart");
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

/// A sendmail stand-in that keeps what it is given in `outbox`.
fn sendmail_stub(dir: &Path, outbox: &Path) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(outbox).expect("outbox");
    let script = dir.join("sendmail");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > \"{}/$(date +%s%N).eml\"\n",
            outbox.display()
        ),
    )
    .expect("script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    script
}

#[test]
fn mail_written_to_imap_mail_is_kept_in_the_servers_sent_and_drafts() {
    use quoth::config::ComposeConfig;
    use quoth::engine::mailbox::compose::{
        postpone_draft, send_draft, start_draft, ComposeSettings,
    };
    use quoth::mail::compose::DraftKind;
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    rt.block_on(async {
        let mut s = server.session().await;
        s.append("INBOX", None, &fresh_message(1, "kiln"))
            .await
            .expect("APPEND");
        s.logout().await;
    });
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    run_ok(quoth(&data, &config, &[]));

    let outbox = work.path().join("outbox");
    let script = sendmail_stub(work.path(), &outbox);
    let accounts = quoth::source::imap::load_accounts(&config).expect("accounts");
    let settings = ComposeSettings::new(
        ComposeConfig {
            from: Some("Alice <alice@example.com>".into()),
            sendmail: Some(format!("{} -t", script.display())),
            ..ComposeConfig::default()
        },
        &accounts,
    );
    {
        let engine = common::open(&data);
        let key = engine
            .store()
            .messages()
            .filter_map(Result::ok)
            .find(|m| m.subject == "zebra census kiln 1")
            .map(|m| m.key)
            .expect("synced");
        let store = engine.store();
        let reply = start_draft(store, &data, &settings, DraftKind::Reply, Some(&key))
            .expect("reply draft");
        let sent = send_draft(
            store,
            &data,
            &settings,
            &reply.path,
            Some((&key, DraftKind::Reply)),
        )
        .expect("sent");
        assert_eq!(sent.to_server.as_deref(), Some(ACCOUNT));
        assert!(sent.root.is_none(), "no local copy: the server keeps it");
        assert_eq!(std::fs::read_dir(&outbox).expect("outbox").count(), 1);
        let forward = start_draft(store, &data, &settings, DraftKind::Forward, Some(&key))
            .expect("forward draft");
        let kept =
            postpone_draft(store, &data, &settings, &forward.path, Some(&key)).expect("postponed");
        assert_eq!(kept.to_server.as_deref(), Some(ACCOUNT));
    }
    // The next sync appends both (making the folders), then reads them back.
    run_ok(quoth(&data, &config, &[]));
    let theirs = rt.block_on(async {
        let mut s = server.session().await;
        let snap = server_snapshot(&mut s).await;
        s.logout().await;
        snap
    });
    let flags_in = |folder: &str| -> Vec<String> {
        theirs
            .get(folder)
            .map(|rows| rows.iter().map(|(_, f)| f.clone()).collect())
            .unwrap_or_default()
    };
    assert_eq!(flags_in("Sent"), ["S"], "{theirs:?}");
    assert_eq!(flags_in("Drafts"), ["DS"], "{theirs:?}");
    assert_matches(&rt, &server, &data, "after the appends");
    let engine = common::open(&data);
    let hits = engine
        .search("subject:\"Re: zebra census kiln 1\"", 5, 0)
        .expect("search");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].folder, format!("{ACCOUNT}/Sent"));
    drop(engine);
    // Nothing waits any more: another sync appends nothing twice.
    run_ok(quoth(&data, &config, &[]));
    assert_matches(&rt, &server, &data, "after a sync with nothing to send");
}

/// `is:` in queries follows the IMAP flags a sync brings: the system flags of new
/// mail, and flags another client changes on the server later.
/// The subjects a search of the store in `data` finds, sorted.
fn sorted_subjects(data: &Path, query: &str) -> Vec<String> {
    let engine = quoth::engine::Engine::open(data).expect("open");
    let mut v: Vec<String> = engine
        .search(query, 20, 1_800_000_000)
        .expect("search")
        .into_iter()
        .map(|h| h.subject)
        .collect();
    v.sort();
    v
}

/// Another client runs `commands` on the server's INBOX.
fn another_client(rt: &tokio::runtime::Runtime, server: &Dovecot, commands: &[&str]) {
    rt.block_on(async {
        let mut s = server.session().await;
        s.select("INBOX").await.expect("select");
        for c in commands {
            s.command(c).await.expect("store");
        }
        s.logout().await;
    });
}

#[test]
fn is_terms_follow_the_servers_flags() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    rt.block_on(async {
        let mut s = server.session().await;
        let flags = [
            None,
            Some("(\\Seen)"),
            Some("(\\Seen \\Flagged)"),
            Some("(\\Seen \\Answered)"),
            Some("(\\Seen \\Draft)"),
            Some("(\\Seen \\Deleted)"),
            Some("(\\Seen $Forwarded)"),
        ];
        for (i, f) in flags.iter().enumerate() {
            s.append("INBOX", *f, &fresh_message(i, "state"))
                .await
                .expect("append");
        }
        s.logout().await;
    });
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    run_ok(quoth(&data, &config, &[]));
    let subjects = |query: &str| sorted_subjects(&data, query);
    assert_eq!(subjects("is:unread"), vec!["zebra census state 0"]);
    assert_eq!(subjects("is:flagged"), vec!["zebra census state 2"]);
    assert_eq!(subjects("is:replied"), vec!["zebra census state 3"]);
    assert_eq!(subjects("is:draft"), vec!["zebra census state 4"]);
    assert_eq!(subjects("is:trashed"), vec!["zebra census state 5"]);
    assert_eq!(subjects("is:passed"), vec!["zebra census state 6"]);
    assert_eq!(subjects("flag:passed"), vec!["zebra census state 6"]);
    assert_eq!(subjects("is:read zebra").len(), 6);

    // Another client reads the first and unflags the third on the server.
    another_client(
        &rt,
        &server,
        &[
            "UID STORE 1 +FLAGS.SILENT (\\Seen \\Flagged)",
            "UID STORE 3 -FLAGS.SILENT (\\Flagged)",
        ],
    );
    run_ok(quoth(&data, &config, &[]));
    assert_eq!(subjects("is:unread"), Vec::<String>::new());
    assert_eq!(subjects("is:flagged"), vec!["zebra census state 0"]);
    assert_eq!(subjects("is:read zebra").len(), 7);
}

#[test]
fn tags_and_the_servers_keywords_follow_each_other() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    rt.block_on(async {
        let mut s = server.session().await;
        s.append(
            "INBOX",
            Some("(\\Seen work $Forwarded)"),
            &fresh_message(0, "kw"),
        )
        .await
        .expect("append");
        s.append("INBOX", None, &fresh_message(1, "kw"))
            .await
            .expect("append");
        s.logout().await;
    });
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    run_ok(quoth(&data, &config, &[]));
    let now = 1_800_000_000;
    let subjects = |query: &str| sorted_subjects(&data, query);
    let server_keywords = |rt: &tokio::runtime::Runtime| -> Vec<(u32, Vec<String>)> {
        rt.block_on(async {
            let mut s = server.session().await;
            s.select("INBOX").await.expect("select");
            let mut found: Vec<(u32, Vec<String>)> = s
                .flags("INBOX", 10, None)
                .await
                .expect("flags")
                .into_iter()
                .map(|f| (f.uid, f.keywords))
                .collect();
            found.sort();
            s.logout().await;
            found
        })
    };
    assert_eq!(
        subjects("tag:work"),
        ["zebra census kw 0"],
        "a keyword on the server is a tag"
    );
    {
        let engine = quoth::engine::Engine::open(&data).expect("open");
        let tags = engine
            .search("kw 0", 1, now)
            .expect("search")
            .first()
            .and_then(|h| quoth::mail::model::MessageKey::from_hex(&h.key))
            .map(|k| engine.tags_of(&k).expect("tags"));
        assert_eq!(
            tags,
            Some(vec!["work".to_string()]),
            "$-keywords are not tags"
        );
    }

    // Tags changed in Quoth reach the server at the next sync; one that cannot
    // be a keyword stays in Quoth.
    {
        let engine = quoth::engine::Engine::open(&data).expect("open");
        let to = |s: &[&str]| s.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        engine
            .tag("subject:\"kw 0\"", &[], &to(&["work"]), now)
            .expect("untag");
        engine
            .tag("subject:\"kw 1\"", &to(&["later", "café"]), &[], now)
            .expect("tag");
    }
    run_ok(quoth(&data, &config, &[]));
    assert_eq!(
        server_keywords(&rt),
        vec![
            (1, vec!["$Forwarded".to_string()]),
            (2, vec!["later".to_string()])
        ]
    );
    assert_eq!(subjects("tag:later"), ["zebra census kw 1"]);
    assert_eq!(subjects("tag:café"), ["zebra census kw 1"]);
    assert!(subjects("tag:work").is_empty());

    // Another client changes keywords on the server: the next sync takes them.
    another_client(
        &rt,
        &server,
        &[
            "UID STORE 2 -FLAGS.SILENT (later)",
            "UID STORE 1 +FLAGS.SILENT (urgent)",
        ],
    );
    run_ok(quoth(&data, &config, &[]));
    assert!(subjects("tag:later").is_empty());
    assert_eq!(subjects("tag:urgent"), ["zebra census kw 0"]);
    assert_eq!(
        subjects("tag:café"),
        ["zebra census kw 1"],
        "a tag the server cannot hold is not lost to its sync"
    );
}

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
