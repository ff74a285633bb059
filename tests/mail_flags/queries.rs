//! `is:` terms, `quoth count` and the saved views: what they match and in what order.

use super::*;

/// Seven invented emails in `root/inbox`, one in each state: unread, read, flagged,
/// replied, passed, draft, trashed (all but the first also read).
fn maildir_in_every_state(root: &Path) -> [(&'static str, &'static str); 7] {
    let inbox = maildir(root, "inbox");
    let states = [
        ("", "Kiln firing schedule"),
        ("S", "Glaze order arrived"),
        ("FS", "Studio rent invoice"),
        ("RS", "Clay delivery window"),
        ("PS", "Workshop flyer draft"),
        ("DS", "Note to the landlord"),
        ("ST", "Old newsletter"),
    ];
    for (i, (flags, subject)) in states.iter().enumerate() {
        std::fs::write(
            inbox.join(format!("cur/17000000{i:02}.m{i}.host:2,{flags}")),
            mail(
                &format!("state-{i}@example.net"),
                subject,
                &format!("About the {}.", subject.to_lowercase()),
                "",
            ),
        )
        .expect("write");
    }
    states
}

/// `quoth count` prints how many messages a query matches, through a server and in
/// its own process alike, and refuses an unknown state with the query's fault.
#[test]
fn count_answers_a_status_bar() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    maildir_in_every_state(&root);
    let data = tmp.path().join("data");
    let quoth = |inline: bool, args: &[&str]| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_quoth"));
        c.env_remove("XDG_RUNTIME_DIR")
            .env("QUOTH_SERVER_IDLE_EXIT", "5")
            .arg("--data-dir")
            .arg(&data)
            .args(args);
        if inline {
            c.env("QUOTH_INLINE", "1");
        } else {
            c.env_remove("QUOTH_INLINE");
        }
        c.output().expect("quoth runs")
    };
    let root = root.to_string_lossy().into_owned();
    let out = quoth(true, &["ingest", "--no-embed", &root]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for inline in [true, false] {
        let out = quoth(inline, &["count", "is:unread"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
        let out = quoth(inline, &["--json", "count", "is:read -is:trashed"]);
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        assert_eq!(v["count"], 5, "inline {inline}");
        let out = quoth(inline, &["count", "is:starred OR is:draft"]);
        assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
        let out = quoth(inline, &["count", "is:important"]);
        assert_eq!(out.status.code(), Some(2), "inline {inline}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("unknown value 'important' for 'is:'"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// `quoth views` lists the saved searches with their total and unread counts:
/// Unread and Flagged when config.toml names none, else the file's own, where a
/// view whose query cannot be read shows the fault and sets the exit status.
#[test]
fn views_list_the_saved_searches_with_their_counts() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    maildir_in_every_state(&root);
    let data = tmp.path().join("data");
    let config = tmp.path().join("config.toml");
    let quoth = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_quoth"))
            .env_remove("XDG_RUNTIME_DIR")
            .env("QUOTH_INLINE", "1")
            .arg("--data-dir")
            .arg(&data)
            .args(args)
            .output()
            .expect("quoth runs")
    };
    let out = quoth(&["ingest", "--no-embed", &root.to_string_lossy()]);
    assert!(out.status.success());
    std::fs::write(&config, "").expect("config");
    let cfg = config.to_string_lossy().into_owned();
    let out = quoth(&["--config", &cfg, "--json", "views"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let rows: Vec<(String, u64, u64)> = v["views"]
        .as_array()
        .expect("views")
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap_or_default().to_string(),
                r["total"].as_u64().unwrap_or(99),
                r["unread"].as_u64().unwrap_or(99),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [("Unread".to_string(), 1, 1), ("Flagged".to_string(), 1, 0)]
    );
    std::fs::write(
        &config,
        "[[views]]\nname = \"Studio\"\nquery = \"studio OR kiln\"\n\n[[views]]\nname = \"Broken\"\nquery = \"is:important\"\n",
    )
    .expect("config");
    let out = quoth(&["--config", &cfg, "views"]);
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Studio  1 unread / 2"), "{text}");
    assert!(text.contains("unknown value 'important'"), "{text}");
}

/// `is:` in a query sees each message's state as its flags are now: from the
/// Maildir letters at ingest, and at once after a flag changes, with no reindex.
#[test]
fn is_terms_follow_the_flags_as_they_change() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    let states = maildir_in_every_state(&root);
    let mut engine = common::open(&tmp.path().join("data"));
    assert_eq!(common::ingest(&mut engine, &[root]).added, states.len());
    let found = |e: &Engine, q: &str| -> Vec<String> {
        let mut subjects: Vec<String> = e
            .search(q, 50, 1_800_000_000)
            .unwrap_or_else(|err| panic!("{q}: {err}"))
            .into_iter()
            .map(|h| h.subject)
            .collect();
        subjects.sort();
        subjects
    };
    let of = |names: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(found(&engine, "is:unread"), of(&["Kiln firing schedule"]));
    assert_eq!(found(&engine, "is:flagged"), of(&["Studio rent invoice"]));
    assert_eq!(found(&engine, "is:replied"), of(&["Clay delivery window"]));
    assert_eq!(found(&engine, "is:passed"), of(&["Workshop flyer draft"]));
    assert_eq!(found(&engine, "is:draft"), of(&["Note to the landlord"]));
    assert_eq!(found(&engine, "is:trashed"), of(&["Old newsletter"]));
    assert_eq!(found(&engine, "is:read").len(), states.len() - 1);
    assert_eq!(found(&engine, "flag:seen"), found(&engine, "is:read"));
    // Combined with words, other fields and each other.
    assert_eq!(
        found(&engine, "is:read invoice"),
        of(&["Studio rent invoice"])
    );
    assert_eq!(found(&engine, "is:read kiln"), Vec::<String>::new());
    assert_eq!(
        found(&engine, "is:unread OR is:trashed"),
        of(&["Kiln firing schedule", "Old newsletter"])
    );
    assert_eq!(
        found(&engine, "from:lena -is:read"),
        of(&["Kiln firing schedule"])
    );

    // A flag change shows at once.
    let kiln = key_of(&engine, "state-0@example.net");
    engine.set_flag(&kiln, 'F', true).expect("flag");
    assert_eq!(
        found(&engine, "is:flagged"),
        of(&["Kiln firing schedule", "Studio rent invoice"])
    );
    engine.set_flag(&kiln, 'S', true).expect("read");
    assert_eq!(found(&engine, "is:unread"), Vec::<String>::new());
    assert_eq!(found(&engine, "is:read").len(), states.len());
    let rent = key_of(&engine, "state-2@example.net");
    engine.set_flag(&rent, 'F', false).expect("unflag");
    assert_eq!(found(&engine, "is:flagged"), of(&["Kiln firing schedule"]));

    // The sets live in the store: a reopened engine sees the same.
    drop(engine);
    let engine = common::open(&tmp.path().join("data"));
    assert_eq!(found(&engine, "is:flagged"), of(&["Kiln firing schedule"]));
    assert_eq!(found(&engine, "is:unread"), Vec::<String>::new());
}

/// A saved view lists its mail by date, newest or oldest first, whatever the
/// order the messages were stored in.
#[test]
fn a_view_lists_its_mail_in_date_order() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    let inbox = maildir(&root, "inbox");
    let days = [
        ("12", "Second week"),
        ("03", "First week"),
        ("26", "Fourth week"),
        ("19", "Third week"),
    ];
    for (i, (day, subject)) in days.iter().enumerate() {
        let text = format!(
            "From: Lena Vos <lena@example.net>\r\nTo: Omar Haddad <omar@example.net>\r\n\
             Subject: {subject}\r\nMessage-ID: <week-{i}@example.net>\r\n\
             Date: Mon, {day} Feb 2024 09:00:00 +0000\r\n\r\nKiln notes for the {subject}.\r\n"
        );
        std::fs::write(
            inbox.join(format!("cur/17100000{i:02}.m{i}.host:2,F")),
            text,
        )
        .expect("write");
    }
    let mut engine = common::open(&tmp.path().join("data"));
    assert_eq!(common::ingest(&mut engine, &[root]).added, days.len());
    let listed = |order| -> Vec<String> {
        engine
            .search_in_order("is:flagged", 10, 1_800_000_000, order)
            .expect("search")
            .into_iter()
            .map(|h| h.subject)
            .collect()
    };
    use quoth::engine::SearchOrder;
    assert_eq!(
        listed(SearchOrder::Newest),
        ["Fourth week", "Third week", "Second week", "First week"]
    );
    assert_eq!(
        listed(SearchOrder::Oldest),
        ["First week", "Second week", "Third week", "Fourth week"]
    );
    assert_eq!(
        engine
            .count("is:flagged kiln", 1_800_000_000)
            .expect("count"),
        4
    );
}
