//! Syncing through the UI's handle: the first sync, IDLE pushes and the sync request,
//! a refused login, searches during a large first sync, and a sync asked for during
//! an ingest.

use super::*;
use crate::imap::{maildir_messages, PASSWORD};
use quoth::engine::handle::Progress;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

#[test]
fn new_mail_pushed_by_idle_reaches_the_ui_handle_and_is_searchable() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let old: Vec<Vec<u8>> = (0..3)
        .map(|i| message(i, "zebra", "1 Jan 2024 10:00:00 +0000"))
        .collect();
    append(&server, "INBOX", &old);
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let mut ui = Ui::open(&work.path().join("data"), &config);

    // The first sync at start, and the IDLE connection, in either order.
    let (mut synced, mut watching) = (None, false);
    while synced.is_none() || !watching {
        match ui.wait("the first sync and the IDLE connection", 60, |e| match e {
            EngineEvent::Synced { account, added, .. } if account == ACCOUNT => {
                Some((Some(*added), false))
            }
            EngineEvent::Watching { account, folder } if account == ACCOUNT => {
                assert_eq!(folder, "INBOX");
                Some((None, true))
            }
            _ => None,
        }) {
            (Some(added), _) => synced = Some(added),
            (None, w) => watching |= w,
        }
    }
    assert_eq!(synced, Some(3), "the first sync stores the server's mail");
    assert_eq!(ui.search("zebra").len(), 3);

    // Mail pushed while the handle is open: NewMail, then a search finds it.
    let words = ["quagga", "tapir", "okapi", "dugong", "saola"];
    let mut to_event = Vec::new();
    let mut to_searchable = Vec::new();
    for (i, word) in words.iter().enumerate() {
        let date = format!("{} Jan 2024 10:00:00 +0000", 2 + i);
        let appended = append(&server, "INBOX", &[message(i, word, &date)]);
        let (folder, count) = ui.wait("new mail", 60, |e| match e {
            EngineEvent::NewMail {
                account,
                folder,
                count,
            } if account == ACCOUNT => Some((folder.clone(), *count)),
            _ => None,
        });
        to_event.push(appended.elapsed().as_secs_f64());
        assert_eq!((folder.as_str(), count), ("INBOX", 1));
        let hits = ui.search(word);
        to_searchable.push(appended.elapsed().as_secs_f64());
        assert_eq!(hits.len(), 1, "{word} is found");
        assert_eq!(hits[0].subject, format!("{word} sighting {i}"));
        assert_eq!(hits[0].folder, "test/INBOX");
    }
    // The new mail goes through the background work path (embedding) like an ingest;
    // the sync below starts once the work for the last new message has ended.
    let last_new_mail = ui.seen.iter().rposition(|s| s.starts_with("NewMail"));
    let idle_since = last_new_mail.is_some_and(|i| ui.seen[i..].iter().any(|s| s.contains("Idle")));
    if !idle_since {
        ui.wait("the background work after new mail", 60, |e| {
            matches!(e, EngineEvent::Progress(Progress::Idle { .. })).then_some(())
        });
    }
    let subjects = ui.thread_subjects();
    assert_eq!(subjects.len(), 8, "{subjects:?}");
    assert_eq!(
        subjects[0], "saola sighting 4",
        "newest first: {subjects:?}"
    );

    // The sync request (the UI's R) syncs every account: mail in a folder that IDLE
    // does not watch comes in too.
    append(
        &server,
        "Archive",
        &[message(0, "aardvark", "20 Jan 2024 10:00:00 +0000")],
    );
    ui.send(EngineRequest::Sync);
    let summary = ui.wait("the end of the sync", 60, |e| match e {
        EngineEvent::Progress(Progress::Idle { summary }) if summary.contains(ACCOUNT) => {
            Some(summary.clone())
        }
        _ => None,
    });
    assert!(summary.contains("test: 1 new message"), "{summary}");
    let archived = |s: &String| s.contains("NewMail") && s.contains("\"Archive\"");
    if !ui.seen.iter().any(archived) {
        ui.wait("new mail in Archive", 30, |e| {
            matches!(e, EngineEvent::NewMail { folder, .. } if folder == "Archive").then_some(())
        });
    }
    assert_eq!(ui.search("aardvark").len(), 1);
    assert!(ui.errors().is_empty(), "{:#?}", ui.errors());

    eprintln!(
        "IMAP in the UI handle: APPEND to NewMail median {:.3} s, APPEND to a search hit \
         through the handle median {:.3} s (max {:.3} s) over {} messages",
        median(to_event.clone()),
        median(to_searchable.clone()),
        to_searchable.iter().cloned().fold(0.0, f64::max),
        words.len()
    );
}

#[test]
fn a_refused_login_is_an_error_event_and_local_mail_stays_searchable() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    {
        let mut engine = common::open(&data);
        common::ingest(&mut engine, &[common::demo_mailbox()]);
    }
    let wrong = "not-the-password";
    let config = server.write_config(ACCOUNT, wrong, server.port);
    let mut ui = Ui::open(&data, &config);

    let refused = |e: &EngineEvent| match e {
        EngineEvent::Error { req: None, message } if message.contains("refused the login") => {
            Some(message.clone())
        }
        _ => None,
    };
    let first = ui.wait("the refused login", 30, refused);
    assert!(
        first.contains("account 'test'") && first.contains("'alice'"),
        "{first}"
    );
    // The IDLE connection keeps trying, with a growing wait.
    ui.wait("a retry with a longer backoff", 30, |e| {
        refused(e).filter(|m| m.contains("retrying in 2 s"))
    });

    // The local copy works meanwhile.
    let hits = ui.search("strike price");
    assert!(!hits.is_empty(), "local mail is searchable");
    assert!(!ui.thread_subjects().is_empty());

    // The sync request reads the local sources again and reports the failure.
    ui.send(EngineRequest::Sync);
    let summary = ui.wait("the end of the sync", 60, |e| match e {
        EngineEvent::Progress(Progress::Idle { summary }) if summary.contains(ACCOUNT) => {
            Some(summary.clone())
        }
        _ => None,
    });
    assert!(summary.contains("test: sync failed"), "{summary}");
    assert!(summary.contains("ingested 0 new messages"), "{summary}");

    for line in &ui.seen {
        assert!(!line.contains(wrong), "the password is never shown: {line}");
    }
}

#[test]
fn searches_are_answered_while_a_large_first_sync_runs() {
    let Some(allen) = common::shared("data/enron/maildir/allen-p") else {
        return;
    };
    let Some(server) = Dovecot::start() else {
        return;
    };
    let folders = maildir_messages(&allen);
    let total: usize = folders.values().map(Vec::len).sum();
    for (folder, msgs) in &folders {
        append(&server, folder, msgs);
    }
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let started = Instant::now();
    let mut ui = Ui::open(&work.path().join("data"), &config);

    // A search every 50 ms until the first sync ends, each timed from request to
    // results.
    let mut latencies = Vec::new();
    let mut added = None;
    while added.is_none() {
        let (latency, synced) = timed_search(&mut ui, "gas price");
        latencies.push(latency);
        added = synced;
        std::thread::sleep(Duration::from_millis(50));
        assert!(
            started.elapsed() < Duration::from_secs(600),
            "the first sync ends"
        );
    }
    let sync_s = started.elapsed().as_secs_f64();
    assert!(added.unwrap_or(0) > 0);
    assert!(!ui.search("gas price").is_empty());
    // The same searches with nothing else running, for comparison.
    let idle: Vec<f64> = (0..10)
        .map(|_| timed_search(&mut ui, "gas price").0)
        .collect();
    eprintln!(
        "IMAP first sync in the UI handle: {total} messages in {sync_s:.1} s; {} searches \
         meanwhile, latency median {:.3} s, max {:.3} s (median {:.3} s afterwards)",
        latencies.len(),
        median(latencies.clone()),
        latencies.iter().cloned().fold(0.0, f64::max),
        median(idle)
    );
}

/// The time a search through the handle takes, and the mail added by a first sync
/// that ended meanwhile.
fn timed_search(ui: &mut Ui, query: &str) -> (f64, Option<usize>) {
    let asked = Instant::now();
    let req = ui.next_req;
    ui.next_req += 1;
    ui.send(EngineRequest::Search {
        req,
        query: query.into(),
        limit: quoth::engine::handle::SEARCH_LIMIT,
        order: Default::default(),
    });
    let mut synced = None;
    ui.wait("search results", 120, |e| match e {
        EngineEvent::SearchResults { req: r, .. } if *r == req => Some(()),
        EngineEvent::Synced { added, .. } => {
            synced = Some(*added);
            None
        }
        _ => None,
    });
    (asked.elapsed().as_secs_f64(), synced)
}

/// A sync asked for while other background work runs (here an ingest and its
/// embedding) is not refused: it runs when that work ends.
#[test]
fn a_sync_asked_for_during_an_ingest_runs_after_it() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let mut ui = Ui::open(&work.path().join("data"), &config);
    // The server is empty: the first sync stores nothing and starts no other work.
    ui.wait("the first sync", 60, |e| {
        matches!(e, EngineEvent::Synced { account, .. } if account == ACCOUNT).then_some(())
    });
    append(
        &server,
        "Archive",
        &[message(0, "pangolin", "3 Feb 2024 10:00:00 +0000")],
    );
    ui.send(EngineRequest::Ingest {
        paths: vec![common::demo_mailbox()],
        embed: true,
    });
    ui.send(EngineRequest::Sync);
    let summary = ui.wait("the end of the sync", 120, |e| match e {
        EngineEvent::Progress(Progress::Idle { summary }) if summary.contains(ACCOUNT) => {
            Some(summary.clone())
        }
        _ => None,
    });
    assert!(summary.contains("test: 1 new message"), "{summary}");
    assert_eq!(ui.search("pangolin").len(), 1);
    assert!(!ui.search("strike price").is_empty(), "the ingest ran too");
    assert!(ui.errors().is_empty(), "{:#?}", ui.errors());
}
