//! A reply arriving in a muted thread is marked read and archived.

use super::*;

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
