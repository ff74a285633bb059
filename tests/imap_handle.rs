//! IMAP through the engine handle the terminal UI opens, against a real Dovecot on
//! loopback: the first sync at start, new mail pushed by IDLE as a `NewMail` event and
//! then found by a search through the handle, the sync request reaching every
//! account, a refused login reported as an error event while local mail stays
//! searchable, searches answered while a large first sync runs, and a sync asked for
//! during an ingest run after it rather than refused. Times (APPEND to
//! searchable, search latency during a sync) are printed, never asserted.

mod common;
mod imap;

use imap::{append_all, maildir_messages, Dovecot, PASSWORD};
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::engine::handle::{
    EngineEvent, EngineHandle, EngineRequest, HandleOptions, Progress, RequestId,
};
use quoth::engine::{Engine, SearchHit};
use quoth::source::imap::load_accounts;
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const ACCOUNT: &str = "test";

/// The handle as `quoth` (no subcommand) opens it: a two-worker runtime, the engine
/// on the data dir, the accounts of the config file.
struct Ui {
    rt: tokio::runtime::Runtime,
    handle: Option<EngineHandle>,
    events: mpsc::Receiver<EngineEvent>,
    next_req: RequestId,
    /// Every event seen, for failure messages.
    seen: Vec<String>,
}

impl Ui {
    fn open(data: &Path, config: &Path) -> Ui {
        let accounts = load_accounts(config).expect("the config file loads");
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let engine = Engine::open(data).expect("engine opens");
        let (handle, events) = EngineHandle::start_with(
            engine,
            Box::new(ExtractiveAnswerer),
            rt.handle(),
            HandleOptions {
                accounts,
                ..HandleOptions::default()
            },
        );
        Ui {
            rt,
            handle: Some(handle),
            events,
            next_req: 1,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, request: EngineRequest) {
        let sent = self.handle.as_ref().is_some_and(|h| h.send(request));
        assert!(sent, "the engine takes requests");
    }

    /// The next event that `pick` accepts, within `secs`; other events are kept in
    /// `seen` only.
    fn wait<T>(
        &mut self,
        what: &str,
        secs: u64,
        mut pick: impl FnMut(&EngineEvent) -> Option<T>,
    ) -> T {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let next = self
                .rt
                .block_on(async { tokio::time::timeout(left, self.events.recv()).await });
            let event = match next {
                Ok(Some(e)) => e,
                Ok(None) => panic!("the engine stopped while waiting for {what}"),
                Err(_) => panic!("no {what} in {secs} s; events: {:#?}", self.seen),
            };
            self.seen.push(summary(&event));
            if let Some(t) = pick(&event) {
                return t;
            }
        }
    }

    fn search(&mut self, query: &str) -> Vec<SearchHit> {
        let req = self.next_req;
        self.next_req += 1;
        self.send(EngineRequest::Search {
            req,
            query: query.into(),
            limit: quoth::engine::handle::SEARCH_LIMIT,
            order: Default::default(),
        });
        self.wait(&format!("results of '{query}'"), 30, |e| match e {
            EngineEvent::SearchResults { req: r, hits, .. } if *r == req => Some(hits.clone()),
            EngineEvent::Error {
                req: Some(r),
                message,
            } if *r == req => {
                panic!("search '{query}' failed: {message}")
            }
            _ => None,
        })
    }

    fn thread_subjects(&mut self) -> Vec<String> {
        self.send(EngineRequest::Threads);
        let mut subjects = Vec::new();
        self.wait("the thread list", 30, |e| match e {
            EngineEvent::ThreadList {
                threads, complete, ..
            } => {
                subjects.extend(threads.iter().map(|t| t.subject.clone()));
                complete.then_some(())
            }
            _ => None,
        });
        subjects
    }

    /// Every error message seen so far.
    fn errors(&self) -> Vec<&String> {
        self.seen
            .iter()
            .filter(|s| s.starts_with("error"))
            .collect()
    }
}

impl Drop for Ui {
    fn drop(&mut self) {
        // Dropping the handle ends the watch loop; blocking work still running is not
        // waited for.
        self.handle.take();
        let rt = std::mem::replace(
            &mut self.rt,
            tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("runtime"),
        );
        rt.shutdown_timeout(Duration::from_secs(2));
    }
}

/// One line per event: enough to see what happened, without whole hit lists.
fn summary(e: &EngineEvent) -> String {
    match e {
        EngineEvent::Error { req, message } => format!("error {req:?}: {message}"),
        EngineEvent::SearchResults { req, hits, .. } => {
            format!("results {req}: {} hits", hits.len())
        }
        EngineEvent::ThreadList { threads, .. } => format!("thread list: {}", threads.len()),
        other => format!("{other:?}"),
    }
}

fn message(i: usize, word: &str, date: &str) -> Vec<u8> {
    format!(
        "From: Tess Ter <tess@example.com>\r\nTo: alice@example.com\r\n\
         Subject: {word} sighting {i}\r\nMessage-ID: <{word}-{i}@example.com>\r\n\
         Date: {date}\r\n\r\n\
         A {word} was seen near pen {i} this morning.\r\n"
    )
    .into_bytes()
}

fn append(server: &Dovecot, folder: &str, msgs: &[Vec<u8>]) -> Instant {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut s = server.session().await;
        append_all(&mut s, folder, msgs).await;
        let appended = Instant::now();
        s.logout().await;
        appended
    })
}

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

/// Folder → (content key, flags) of every message on the server.
fn server_state(server: &Dovecot) -> std::collections::BTreeMap<String, Vec<(String, String)>> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut s = server.session().await;
        let snap = imap::server_snapshot(&mut s).await;
        s.logout().await;
        snap
    })
}

/// Polls the server until `ok` holds for its state; panics with it after `secs`.
fn wait_server(
    server: &Dovecot,
    what: &str,
    secs: u64,
    ok: impl Fn(&std::collections::BTreeMap<String, Vec<(String, String)>>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        let state = server_state(server);
        if ok(&state) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{what}: the server holds {state:#?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn holds(
    state: &std::collections::BTreeMap<String, Vec<(String, String)>>,
    folder: &str,
    key: &str,
) -> Option<String> {
    state
        .get(folder)?
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, f)| f.clone())
}

/// Read, flagged, archive, undo and delete made through the UI's handle reach a
/// real Dovecot (UID STORE, UID MOVE, the archive folder made on the server), the
/// store follows the server without losing the message on the way, and the local
/// state matches the server's at the end.
#[test]
fn flags_and_moves_made_in_the_ui_reach_the_server() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let msgs: Vec<Vec<u8>> = (0..2)
        .map(|i| message(i, "ibex", "3 Jan 2024 10:00:00 +0000"))
        .collect();
    append(&server, "INBOX", &msgs);
    append(&server, "Trash", &[]);
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    let mut ui = Ui::open(&data, &config);
    ui.wait("the first sync", 60, |e| {
        matches!(e, EngineEvent::Synced { account, .. } if account == ACCOUNT).then_some(())
    });
    let hit = |ui: &mut Ui, i: usize| -> SearchHit {
        let hits = ui.search(&format!("subject:\"ibex sighting {i}\""));
        assert_eq!(hits.len(), 1, "one ibex {i}");
        hits[0].clone()
    };
    let first = hit(&mut ui, 0);
    let key = quoth::mail::model::MessageKey::from_hex(&first.key).expect("key");
    let mut req = 100;
    let mut act = |ui: &mut Ui, request: EngineRequest| -> EngineEvent {
        req += 1;
        let this = req;
        ui.send(match request {
            EngineRequest::SetFlag { key, flag, on, .. } => EngineRequest::SetFlag {
                req: this,
                key,
                flag,
                on,
            },
            EngineRequest::Move { key, target, .. } => EngineRequest::Move {
                req: this,
                key,
                target,
            },
            EngineRequest::Expunge { confirm, .. } => EngineRequest::Expunge { req: this, confirm },
            other => other,
        });
        ui.wait("the action's outcome", 30, |e| match e {
            EngineEvent::Flagged { req, .. }
            | EngineEvent::Moved { req, .. }
            | EngineEvent::Expunged { req, .. }
                if *req == this =>
            {
                Some(e.clone())
            }
            EngineEvent::Error {
                req: Some(r),
                message,
            } if *r == this => panic!("the action failed: {message}"),
            _ => None,
        })
    };
    for flag in ['S', 'F'] {
        act(
            &mut ui,
            EngineRequest::SetFlag {
                req: 0,
                key,
                flag,
                on: true,
            },
        );
    }
    wait_server(&server, "\\Seen and \\Flagged stored", 30, |s| {
        holds(s, "INBOX", &first.key).as_deref() == Some("FS")
    });

    use quoth::engine::mailbox::moves::MoveTarget;
    let moved = act(
        &mut ui,
        EngineRequest::Move {
            req: 0,
            key,
            target: MoveTarget::Archive,
        },
    );
    let EngineEvent::Moved { outcome, .. } = moved else {
        unreachable!()
    };
    assert_eq!(outcome.to_folder, "test/Archive");
    wait_server(&server, "the message moved to a new Archive", 30, |s| {
        holds(s, "Archive", &first.key).as_deref() == Some("FS")
            && holds(s, "INBOX", &first.key).is_none()
    });
    // The store finds it in its new folder, and never lost it.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let h = hit(&mut ui, 0);
        if h.folder == "test/Archive" {
            break;
        }
        assert!(Instant::now() < deadline, "the store shows {}", h.folder);
        std::thread::sleep(Duration::from_millis(200));
    }
    // Undo: back to the inbox.
    act(
        &mut ui,
        EngineRequest::Move {
            req: 0,
            key,
            target: outcome.back.clone(),
        },
    );
    wait_server(&server, "the message back in INBOX", 30, |s| {
        holds(s, "INBOX", &first.key).is_some() && holds(s, "Archive", &first.key).is_none()
    });
    // Delete the other one: to the trash folder the server has.
    let second = hit(&mut ui, 1);
    let key2 = quoth::mail::model::MessageKey::from_hex(&second.key).expect("key");
    act(
        &mut ui,
        EngineRequest::Move {
            req: 0,
            key: key2,
            target: MoveTarget::Trash,
        },
    );
    wait_server(&server, "the other message in Trash", 30, |s| {
        holds(s, "Trash", &second.key).is_some() && holds(s, "INBOX", &second.key).is_none()
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while hit(&mut ui, 1).folder != "test/Trash" || hit(&mut ui, 0).folder != "test/INBOX" {
        assert!(
            Instant::now() < deadline,
            "the store does not follow the server"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // Emptying the trash: the server expunges the message, then the store forgets it.
    let emptied = act(
        &mut ui,
        EngineRequest::Expunge {
            req: 0,
            confirm: true,
        },
    );
    let EngineEvent::Expunged { report, .. } = emptied else {
        panic!("{emptied:?}");
    };
    assert_eq!(report.removed, 1, "{report:?}");
    assert_eq!(report.to_servers, [ACCOUNT.to_string()]);
    wait_server(&server, "the trash expunged", 30, |s| {
        holds(s, "Trash", &second.key).is_none() && holds(s, "INBOX", &second.key).is_none()
    });
    let deadline = Instant::now() + Duration::from_secs(30);
    while !ui.search("subject:\"ibex sighting 1\"").is_empty() {
        assert!(
            Instant::now() < deadline,
            "the store still has the expunged message"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(hit(&mut ui, 0).folder, "test/INBOX", "the other mail stays");
    assert!(ui.errors().is_empty(), "{:?}", ui.errors());
    drop(ui);
    let local = imap::local_snapshot(&data, ACCOUNT);
    let server_now = server_state(&server);
    for (folder, rows) in &server_now {
        assert_eq!(local.get(folder), Some(rows), "{folder}: local {local:#?}");
    }
}

/// Emptying the trash at once after moving mail there, before any sync has seen the
/// mail in the server's trash (its move may not even be sent yet): the server loses
/// it all the same, and no later sync reads it back in.
#[test]
fn mail_emptied_from_the_trash_before_a_sync_saw_it_there_leaves_the_server() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let msgs: Vec<Vec<u8>> = (0..3)
        .map(|i| message(i, "quokka", "4 Jan 2024 10:00:00 +0000"))
        .collect();
    append(&server, "INBOX", &msgs);
    append(&server, "Trash", &[]);
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let mut ui = Ui::open(&work.path().join("data"), &config);
    ui.wait("the first sync", 60, |e| {
        matches!(e, EngineEvent::Synced { account, .. } if account == ACCOUNT).then_some(())
    });
    use quoth::engine::mailbox::moves::MoveTarget;
    let kept = ui.search("subject:\"quokka sighting 2\"");
    assert_eq!(kept.len(), 1);
    let mut gone = Vec::new();
    for (round, i) in [0usize, 1].into_iter().enumerate() {
        let hits = ui.search(&format!("subject:\"quokka sighting {i}\""));
        assert_eq!(hits.len(), 1, "quokka {i}");
        let key = quoth::mail::model::MessageKey::from_hex(&hits[0].key).expect("key");
        let (moved, emptied) = (700 + 2 * round as u64, 701 + 2 * round as u64);
        ui.send(EngineRequest::Move {
            req: moved,
            key,
            target: MoveTarget::Trash,
        });
        ui.wait("the move", 30, |e| {
            matches!(e, EngineEvent::Moved { req, .. } if *req == moved).then_some(())
        });
        if round == 1 {
            // The second one's move reaches the server first.
            wait_server(&server, "the move sent", 30, |s| {
                holds(s, "INBOX", &hits[0].key).is_none()
            });
        }
        ui.send(EngineRequest::Expunge {
            req: emptied,
            confirm: true,
        });
        let report = ui.wait("the trash emptied", 30, |e| match e {
            EngineEvent::Expunged { req, report } if *req == emptied => Some(report.clone()),
            EngineEvent::Error {
                req: Some(r),
                message,
            } if *r == emptied => panic!("emptying failed: {message}"),
            _ => None,
        });
        assert_eq!(report.removed, 1, "{report:?}");
        gone.push(hits[0].key.clone());
        // The store lets it go once the server has.
        let deadline = Instant::now() + Duration::from_secs(30);
        while !ui
            .search(&format!("subject:\"quokka sighting {i}\""))
            .is_empty()
        {
            assert!(
                Instant::now() < deadline,
                "the store keeps quokka {i}; the server holds {:#?}",
                server_state(&server)
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    wait_server(&server, "both expunged", 30, |s| {
        gone.iter()
            .all(|k| holds(s, "Trash", k).is_none() && holds(s, "INBOX", k).is_none())
            && holds(s, "INBOX", &kept[0].key).is_some()
    });
    // Later syncs find nothing to read back.
    ui.send(EngineRequest::Sync);
    ui.wait("another sync", 60, |e| {
        matches!(e, EngineEvent::Synced { account, .. } if account == ACCOUNT).then_some(())
    });
    for i in [0, 1] {
        assert!(
            ui.search(&format!("subject:\"quokka sighting {i}\""))
                .is_empty(),
            "quokka {i} came back"
        );
    }
    assert_eq!(ui.search("subject:\"quokka sighting 2\"").len(), 1);
    assert!(ui.errors().is_empty(), "{:?}", ui.errors());
}

#[test]
fn the_raw_view_of_imap_mail_is_read_from_the_server_leaving_it_unread() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let sent = message(7, "oryx", "5 Jan 2024 10:00:00 +0000");
    append(&server, "INBOX", std::slice::from_ref(&sent));
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let mut ui = Ui::open(&work.path().join("data"), &config);
    ui.wait("the first sync", 60, |e| {
        matches!(e, EngineEvent::Synced { account, .. } if account == ACCOUNT).then_some(())
    });
    let hits = ui.search("subject:\"oryx sighting 7\"");
    assert_eq!(hits.len(), 1);
    let key = quoth::mail::model::MessageKey::from_hex(&hits[0].key).expect("key");
    ui.send(EngineRequest::Raw { req: 900, key });
    let raw = ui.wait("the raw message", 30, |e| match e {
        EngineEvent::Raw { req: 900, raw, .. } => Some(raw.clone()),
        EngineEvent::Error {
            req: Some(900),
            message,
        } => panic!("the raw view failed: {message}"),
        _ => None,
    });
    assert_eq!(raw, sent, "the bytes the server holds, headers and all");
    let state = server_state(&server);
    let flags = holds(&state, "INBOX", &hits[0].key).expect("still on the server");
    assert!(
        !flags.contains('S'),
        "reading it raw does not mark it read: {flags}"
    );
}

/// A move made in Quoth after an earlier move of the same message reached the
/// server, but before a sync found the message in its new folder, reaches the
/// server too: whether no sync has read the new folder yet (its UID there is not
/// known) or one has read it but not yet let go of the old UID.
#[test]
fn a_move_made_before_a_sync_found_the_last_one_reaches_the_server() {
    use quoth::engine::mailbox::moves::MoveTarget;
    use quoth::engine::SyncOptions;
    use quoth::store::imap_changes::ImapChanges;
    let Some(server) = Dovecot::start() else {
        return;
    };
    append(
        &server,
        "INBOX",
        &[
            message(0, "heron", "3 Feb 2024 10:00:00 +0000"),
            message(1, "egret", "3 Feb 2024 11:00:00 +0000"),
            message(2, "ibis", "3 Feb 2024 12:00:00 +0000"),
        ],
    );
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let account = load_accounts(&config).expect("config").remove(0);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let work = tempfile::tempdir().expect("work dir");
    let mut engine = common::open(&work.path().join("data"));
    let sync = |engine: &mut Engine, only: Option<&str>| {
        let opts = SyncOptions {
            only_folder: only.map(str::to_string),
            ..SyncOptions::default()
        };
        rt.block_on(engine.sync_account(&account, &opts))
            .expect("sync")
    };
    sync(&mut engine, None);
    // (word, a sync read the archive before the move back, archived once more
    // after it, the folder it ends in)
    for (word, read_there, again, ends_in) in [
        ("heron", false, false, "INBOX"),
        ("egret", true, false, "INBOX"),
        ("ibis", false, true, "Archive"),
    ] {
        let hits = engine.search(word, 5, 0).expect("search");
        let key = quoth::mail::model::MessageKey::from_hex(&hits[0].key).expect("key");
        let archived = engine
            .move_message(&key, &MoveTarget::Archive)
            .expect("archive");
        // The start of a sync: the move reaches the server and is cleared.
        let changes = ImapChanges::open(engine.store().db()).expect("changes");
        let pending = changes.of_account(ACCOUNT).expect("pending");
        assert_eq!(pending.len(), 1, "{word}: one move waits");
        rt.block_on(async {
            let mut s = server.session().await;
            if !s.folders().await.expect("LIST").contains(&"Archive".into()) {
                s.create_folder("Archive").await.expect("CREATE");
            }
            for (at, change) in &pending {
                s.select(&at.folder).await.expect("SELECT");
                s.move_uid(at.uid, "Archive").await.expect("MOVE");
                changes.sent(at, change).expect("sent");
            }
            s.logout().await;
        });
        if read_there {
            // A sync read the archive and stopped before the inbox.
            sync(&mut engine, Some("Archive"));
        }
        // Taken back.
        let back = engine
            .move_message(&key, &archived.back)
            .expect("move back");
        assert_eq!(back.to_folder, "test/INBOX", "{word}");
        if again {
            // Changed its mind again before any sync.
            engine
                .move_message(&key, &MoveTarget::Archive)
                .expect("archive again");
        }
        sync(&mut engine, None);
        let state = server_state(&server);
        let hex = key.to_hex();
        let other = if ends_in == "INBOX" {
            "Archive"
        } else {
            "INBOX"
        };
        assert!(
            holds(&state, ends_in, &hex).is_some() && holds(&state, other, &hex).is_none(),
            "{word}: the server holds {state:#?}"
        );
        let stored = engine.store().message(&key).expect("read").expect("kept");
        assert_eq!(stored.folder, format!("test/{ends_in}"), "{word}");
    }
}
