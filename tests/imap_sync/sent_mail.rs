//! Mail written to an IMAP account (sent and postponed) kept in the server's Sent and
//! Drafts.

use super::*;
use crate::imap::PASSWORD;

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
