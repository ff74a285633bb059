//! Hybrid search weighs the words more when some message holds every one of them:
//! the words are then the mail's own, and lexical ranking is the surer list.

mod common;

use quoth::engine::{FusionWeights, RetrieveOptions, SearchMode};

fn options(mode: SearchMode) -> RetrieveOptions {
    RetrieveOptions {
        mode,
        limit: 10,
        rerank: false,
        now: 1_800_000_000,
    }
}

fn write(mail: &std::path::Path, n: u32, subject: &str, body: &str) {
    let text = format!(
        "From: Potter {n} <p{n}@example.com>\r\nTo: you@example.com\r\nSubject: {subject}\r\n\
         Message-ID: <studio-{n}@example.com>\r\nDate: Mon, 6 Mar 2023 10:00:00 +0000\r\n\r\n{body}\r\n"
    );
    std::fs::write(mail.join(format!("cur/{n}.test:2,S")), text).expect("write");
}

#[test]
fn the_weights_follow_whether_one_message_holds_every_word() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mail = tmp.path().join("mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(mail.join(sub)).expect("maildir");
    }
    write(
        &mail,
        1,
        "Studio kiln",
        "The kiln firing moves to Thursday; bring your bisque ware by noon.",
    );
    write(
        &mail,
        2,
        "Glaze order",
        "The glaze order for the studio arrives next week.",
    );
    write(
        &mail,
        3,
        "Range booking",
        "Firing range booking for the club is confirmed.",
    );
    let mut engine = common::open(&tmp.path().join("data"));
    let report = common::ingest(&mut engine, &[mail]);
    assert_eq!(report.added, 3);
    let weights = FusionWeights::default();
    assert_ne!(
        weights.every_word,
        (weights.lexical, weights.semantic),
        "the two settings differ, so the test can tell them apart"
    );

    let held = engine
        .retrieve("kiln firing", options(SearchMode::Hybrid))
        .expect("search");
    assert_eq!(held.fusion_weights, Some(weights.every_word));
    assert_eq!(
        held.hits.first().map(|h| h.hit.subject.as_str()),
        Some("Studio kiln")
    );

    // Each word is in some message, never both in one.
    let apart = engine
        .retrieve("glaze range", options(SearchMode::Hybrid))
        .expect("search");
    assert_eq!(
        apart.fusion_weights,
        Some((weights.lexical, weights.semantic))
    );
    assert!(apart.hits.len() >= 2, "each word's message is found");

    // One word alone says nothing about the mail's own wording.
    let one = engine
        .retrieve("glaze", options(SearchMode::Hybrid))
        .expect("search");
    assert_eq!(
        one.fusion_weights,
        Some((weights.lexical, weights.semantic))
    );

    let lexical = engine
        .retrieve("kiln firing", options(SearchMode::Lexical))
        .expect("search");
    assert_eq!(lexical.fusion_weights, None, "no fusion outside hybrid");
}
