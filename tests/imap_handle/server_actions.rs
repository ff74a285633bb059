//! Flags, moves, emptying the trash and the raw view of IMAP mail, made in Quoth and
//! reaching the server.

use super::*;
use crate::imap::PASSWORD;

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
