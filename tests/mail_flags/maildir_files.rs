//! Flags, archive, delete and expunge written to Maildir files (and kept in Quoth
//! for mail without flags in its source), with the store and search following.

use super::*;
use quoth::source::SourceLocation;

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
