//! `is:` terms and tags following the server's flags and keywords, both ways.

use super::*;
use crate::imap::PASSWORD;

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
