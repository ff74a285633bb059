//! Flags written back to Maildir files: read and flagged rename the file with the
//! right `:2,` letters (out of `new/` into `cur/`), on every copy of the email; the
//! store, the thread list and a later ingest agree with the files, also when another
//! program (or a crash between a rename and its record) renamed a file first.

mod common;

use quoth::engine::Engine;
use quoth::mail::model::MessageKey;
use quoth::source::SourceLocation;
use std::path::{Path, PathBuf};

fn maildir(root: &Path, folder: &str) -> PathBuf {
    let dir = root.join(folder);
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).expect("maildir");
    }
    dir
}

fn mail(id: &str, subject: &str, body: &str, extra: &str) -> String {
    format!(
        "From: Lena Vos <lena@example.net>\r\nTo: Omar Haddad <omar@example.net>\r\n\
         Subject: {subject}\r\nMessage-ID: <{id}>\r\nDate: Thu, 8 Feb 2024 10:00:00 +0000\r\n\
         {extra}\r\n{body}\r\n"
    )
}

fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["cur", "new"] {
        for e in std::fs::read_dir(dir.join(sub)).expect("read dir") {
            let name = e.expect("entry").file_name().to_string_lossy().into_owned();
            out.push(format!("{sub}/{name}"));
        }
    }
    out.sort();
    out
}

fn key_of(engine: &Engine, id: &str) -> MessageKey {
    engine
        .store()
        .messages()
        .filter_map(Result::ok)
        .find(|m| m.message_id.as_deref() == Some(id))
        .map(|m| m.key)
        .expect("stored")
}

fn path_of(engine: &Engine, key: &MessageKey) -> String {
    match engine
        .store()
        .message(key)
        .expect("read")
        .expect("stored")
        .location
    {
        SourceLocation::File { path } => path,
        other => panic!("not a file: {other:?}"),
    }
}

#[test]
fn flags_rename_maildir_files_and_the_store_follows() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    let inbox = maildir(&root, "inbox");
    let archive = maildir(&root, "archive");
    std::fs::write(
        inbox.join("new/1700000000.a1.host"),
        mail(
            "pump@example.net",
            "Pump quote",
            "The pump costs 840 euros.",
            "",
        ),
    )
    .expect("write");
    // One email kept twice: an export gave the archived copy a new Message-ID.
    std::fs::write(
        inbox.join("cur/1700000001.b2.host:2,S"),
        mail(
            "fence-1@example.net",
            "Fence",
            "The fence goes up on Monday.",
            "",
        ),
    )
    .expect("write");
    std::fs::write(
        archive.join("cur/1700000002.c3.host:2,S"),
        mail(
            "fence-2@example.net",
            "Fence",
            "The fence goes up on Monday.",
            "X-Folder: archive\r\n",
        ),
    )
    .expect("write");
    let mut engine = common::open(&tmp.path().join("data"));
    assert_eq!(
        common::ingest(&mut engine, std::slice::from_ref(&root)).added,
        3
    );
    let pump = key_of(&engine, "pump@example.net");
    let unread_threads = |e: &Engine| -> u32 {
        e.store()
            .threads()
            .expect("threads")
            .iter()
            .map(|t| t.unread)
            .sum()
    };
    assert_eq!(unread_threads(&engine), 1);

    // Reading the new message: out of new/, flagged S, and the store points at it.
    let outcome = engine.set_flag(&pump, 'S', true).expect("mark read");
    assert_eq!(outcome.kept_in_quoth, 0);
    assert_eq!(outcome.thread.as_ref().map(|t| t.unread), Some(0));
    assert_eq!(
        files(&inbox),
        ["cur/1700000000.a1.host:2,S", "cur/1700000001.b2.host:2,S"]
    );
    assert!(path_of(&engine, &pump).ends_with("inbox/cur/1700000000.a1.host:2,S"));
    assert_eq!(unread_threads(&engine), 0, "the thread list counts it read");

    // Flagging one copy flags the email: both files.
    let fence = key_of(&engine, "fence-1@example.net");
    let outcome = engine.set_flag(&fence, 'F', true).expect("flag");
    assert_eq!(outcome.messages.len(), 2, "both copies");
    assert!(files(&inbox).contains(&"cur/1700000001.b2.host:2,FS".to_string()));
    assert_eq!(files(&archive), ["cur/1700000002.c3.host:2,FS"]);
    assert_eq!(outcome.thread.map(|t| t.flagged), Some(1));

    // Unread again, and a later ingest finds nothing new and loses nothing.
    engine.set_flag(&pump, 'S', false).expect("mark unread");
    assert_eq!(files(&inbox)[0], "cur/1700000000.a1.host:2,");
    let again = common::ingest(&mut engine, std::slice::from_ref(&root));
    assert_eq!(again.added, 0);
    assert_eq!(engine.store().messages().count(), 3);
    assert_eq!(unread_threads(&engine), 1);

    // Another program (or a crash after a rename) renamed a file: the next ingest
    // points the store at it, with its flags.
    let was = path_of(&engine, &pump);
    let now = inbox.join("cur/1700000000.a1.host:2,RS");
    std::fs::rename(&was, &now).expect("rename");
    let after = common::ingest(&mut engine, std::slice::from_ref(&root));
    assert_eq!(after.added, 0);
    assert_eq!(path_of(&engine, &pump), now.to_string_lossy());
    let stored = engine
        .store()
        .message(&pump)
        .expect("read")
        .expect("stored");
    assert_eq!(stored.flags, "RS");

    // A rename the store has not seen yet: setting a flag finds the file.
    std::fs::rename(&now, inbox.join("cur/1700000000.a1.host:2,S")).expect("rename");
    engine
        .set_flag(&pump, 'F', true)
        .expect("flag a file renamed elsewhere");
    assert!(files(&inbox).contains(&"cur/1700000000.a1.host:2,FS".to_string()));
}

#[test]
fn mail_without_flags_in_its_source_keeps_them_in_quoth() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let eml = tmp.path().join("note.eml");
    std::fs::write(
        &eml,
        mail("note@example.net", "Note", "Bring the ladder.", ""),
    )
    .expect("write");
    let mut engine = common::open(&tmp.path().join("data"));
    assert_eq!(
        common::ingest(&mut engine, std::slice::from_ref(&eml)).added,
        1
    );
    let key = key_of(&engine, "note@example.net");
    let before = std::fs::read(&eml).expect("read");
    let outcome = engine.set_flag(&key, 'F', true).expect("flag");
    assert_eq!(outcome.kept_in_quoth, 1);
    assert_eq!(
        std::fs::read(&eml).expect("read"),
        before,
        "the file is untouched"
    );
    assert!(engine
        .store()
        .message(&key)
        .expect("read")
        .expect("stored")
        .is_flagged());
    assert!(eml.exists());
}

#[test]
fn archive_and_delete_move_the_file_and_search_follows() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    let inbox = maildir(&root, "inbox");
    maildir(&root, "Trash");
    std::fs::write(
        inbox.join("cur/1700000100.d4.host:2,S"),
        mail(
            "kiln@example.net",
            "Kiln firing",
            "The kiln fires on Saturday at dawn.",
            "",
        ),
    )
    .expect("write");
    let mut engine = common::open(&tmp.path().join("data"));
    assert_eq!(
        common::ingest(&mut engine, std::slice::from_ref(&root)).added,
        1
    );
    let key = key_of(&engine, "kiln@example.net");
    let in_folder = |e: &Engine, folder: &str| {
        e.retrieve(
            &format!("kiln folder:{folder}"),
            quoth::engine::RetrieveOptions {
                mode: quoth::engine::SearchMode::Lexical,
                limit: 5,
                rerank: false,
                now: 1_800_000_000,
            },
        )
        .expect("search")
        .hits
        .len()
    };
    assert_eq!(in_folder(&engine, "inbox"), 1);

    // No archive folder yet: one is made beside the others.
    let moved = engine
        .move_message(&key, &quoth::engine::mailbox::moves::MoveTarget::Archive)
        .expect("archive");
    assert_eq!(moved.from_folder, "mail/inbox");
    assert_eq!(moved.to_folder, "mail/Archive");
    assert!(root.join("Archive/cur/1700000100.d4.host:2,S").is_file());
    assert!(files(&inbox).is_empty());
    assert_eq!(in_folder(&engine, "inbox"), 0);
    assert_eq!(
        in_folder(&engine, "archive"),
        1,
        "search knows the new folder"
    );
    let folders: Vec<(String, u32)> = moved
        .thread
        .as_ref()
        .expect("the thread, summarised again")
        .folders
        .iter()
        .map(|c| (c.name.clone(), c.emails))
        .collect();
    assert_eq!(folders, [("mail/Archive".to_string(), 1)]);

    // Delete goes to the trash folder there is, whatever its case.
    let trashed = engine
        .move_message(&key, &quoth::engine::mailbox::moves::MoveTarget::Trash)
        .expect("delete");
    assert_eq!(trashed.to_folder, "mail/Trash");
    assert!(root.join("Trash/cur/1700000100.d4.host:2,S").is_file());

    // Undo is a move back to the directory it came from.
    engine
        .move_message(
            &key,
            &quoth::engine::mailbox::moves::MoveTarget::Dir(moved.from_dir.clone()),
        )
        .expect("undo");
    assert_eq!(files(&inbox), ["cur/1700000100.d4.host:2,S"]);
    assert_eq!(in_folder(&engine, "inbox"), 1);
    // Nothing was stored twice, and an ingest agrees.
    assert_eq!(
        common::ingest(&mut engine, std::slice::from_ref(&root)).added,
        0
    );
    assert_eq!(engine.store().messages().count(), 1);
    assert_eq!(in_folder(&engine, "inbox"), 1);
}

#[test]
fn expunge_empties_the_trash_only_and_for_good() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    let inbox = maildir(&root, "inbox");
    let trash = maildir(&root, "Trash");
    let write = |dir: &Path, name: &str, id: &str, subject: &str| {
        std::fs::write(
            dir.join("cur").join(name),
            mail(id, subject, "The glaze order ships on Monday.", ""),
        )
        .expect("write");
    };
    write(
        &inbox,
        "1700000200.a1.host:2,S",
        "glaze@example.net",
        "Glaze order",
    );
    write(
        &inbox,
        "1700000201.a2.host:2,S",
        "clay@example.net",
        "Clay order",
    );
    // The same email kept in the inbox and in the trash: only the trash copy goes.
    write(
        &trash,
        "1700000202.a3.host:2,S",
        "glaze@example.net",
        "Glaze order",
    );
    write(
        &trash,
        "1700000203.a4.host:2,ST",
        "spam@example.net",
        "Cheap pots",
    );
    let mut engine = common::open(&tmp.path().join("data"));
    common::ingest(&mut engine, std::slice::from_ref(&root));
    // The two files of one email with the same bytes are one stored message.
    assert_eq!(engine.store().messages().count(), 3);

    let preview = engine.expunge_preview().expect("preview");
    assert!(!preview.done);
    assert_eq!((preview.removed, preview.kept_elsewhere), (2, 1));
    assert_eq!(files(&trash).len(), 2, "asking removes nothing");

    let report = engine.expunge_trash().expect("expunge");
    assert!(report.done);
    assert_eq!((report.removed, report.kept_elsewhere), (2, 1));
    assert!(files(&trash).is_empty(), "the trash's files are deleted");
    assert_eq!(files(&inbox).len(), 2, "the inbox is untouched");
    let mut left: Vec<String> = engine
        .store()
        .messages()
        .filter_map(Result::ok)
        .map(|m| {
            let SourceLocation::File { path } = &m.location else {
                panic!("not a file");
            };
            assert!(Path::new(path).exists(), "{path} is gone");
            format!("{} {}", m.folder, m.message_id.unwrap_or_default())
        })
        .collect();
    left.sort();
    assert_eq!(
        left,
        [
            "mail/inbox clay@example.net",
            "mail/inbox glaze@example.net"
        ]
    );
    assert!(
        engine.search("pots", 10, 0).expect("search").is_empty(),
        "the search index forgot the expunged mail"
    );
    let glaze = engine.search("subject:glaze", 10, 0).expect("search");
    assert_eq!(glaze.len(), 1);
    assert_eq!(
        glaze[0].folder, "mail/inbox",
        "the email stays at its inbox copy"
    );
    // Reading the Maildir again brings nothing back, and a second expunge finds an
    // empty trash.
    assert_eq!(
        common::ingest(&mut engine, std::slice::from_ref(&root)).added,
        0
    );
    assert_eq!(engine.store().messages().count(), 2);
    assert_eq!(engine.expunge_trash().expect("again").removed, 0);
}

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

/// A muted thread stays quiet: a reply arriving in it after it was muted is
/// tagged `muted`, marked read and archived, while new mail of other threads
/// arrives as it is.
#[test]
fn a_reply_in_a_muted_thread_arrives_read_and_archived() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    let inbox = maildir(&root, "inbox");
    std::fs::write(
        inbox.join("cur/1700000001.a.host:2,S"),
        mail(
            "kiln@example.net",
            "Kiln firing schedule",
            "Firing on Friday.",
            "",
        ),
    )
    .expect("write");
    let mut engine = common::open(&tmp.path().join("data"));
    assert_eq!(
        common::ingest(&mut engine, std::slice::from_ref(&root)).added,
        1
    );
    let kiln = key_of(&engine, "kiln@example.net");
    let thread = engine
        .store()
        .thread_of(&kiln)
        .expect("thread")
        .expect("a thread");
    let muted = vec!["muted".to_string()];
    let (report, _) = engine
        .tag_target(
            &quoth::engine::mailbox::tagging::TagTarget::Thread(thread),
            &muted,
            &[],
        )
        .expect("muted");
    assert_eq!(report.changed, 1);

    std::fs::write(
        inbox.join("new/1700000002.b.host"),
        mail(
            "kiln-reply@example.net",
            "Re: Kiln firing schedule",
            "Can we move it to Saturday?",
            "In-Reply-To: <kiln@example.net>\r\n",
        ),
    )
    .expect("write");
    std::fs::write(
        inbox.join("new/1700000003.c.host"),
        mail("glaze@example.net", "Glaze order", "The glaze is here.", ""),
    )
    .expect("write");
    let report = common::ingest(&mut engine, std::slice::from_ref(&root));
    assert_eq!((report.added, report.muted), (2, 1));

    let reply = key_of(&engine, "kiln-reply@example.net");
    let stored = engine
        .store()
        .message(&reply)
        .expect("read")
        .expect("stored");
    assert!(stored.flags.contains('S'), "read: {}", stored.flags);
    assert_eq!(engine.tags_of(&reply).expect("tags"), muted);
    let archived = files(&root.join("archive"));
    assert_eq!(archived.len(), 1, "{archived:?}");
    assert!(
        archived[0].starts_with("cur/1700000002.b.host"),
        "{archived:?}"
    );
    let unread: Vec<String> = engine
        .search("is:unread", 10, 1_800_000_000)
        .expect("search")
        .into_iter()
        .map(|h| h.subject)
        .collect();
    assert_eq!(unread, ["Glaze order"], "other mail arrives as it is");
}
