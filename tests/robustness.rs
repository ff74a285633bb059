//! Hostile and odd real mail: every message of the SpamAssassin corpus and every .eml of
//! mail-parser's fixtures (malformed ones included) goes in without a crash; anything
//! unreadable is quarantined with a reason, counted and listed.

mod common;

use common::{ingest, open, shared};

#[test]
fn spamassassin_corpus_ingests_without_loss() {
    let Some(corpus) = shared("data/fixtures/spamassassin") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = open(tmp.path());
    let report = ingest(&mut engine, &[corpus]);
    let stats = engine.stats().expect("stats");
    eprintln!("{report:?}\n{stats:?}");
    // 6,046 message files (the package's README, LICENSE, NOTICE and package.json are not mail).
    assert_eq!(report.messages_read, 6_046);
    assert_eq!(
        report.added + report.already_known + report.quarantined,
        6_046,
        "every message is stored, recognised as a copy, or quarantined"
    );
    assert_eq!(stats.lost, 0);
    assert_eq!(stats.quarantined, report.quarantined);
    for q in engine.store().quarantined().expect("list") {
        assert!(!q.reason.is_empty());
        assert!(!q.raw.is_empty() || q.reason.contains("empty"));
    }
}

#[test]
fn mail_parser_fixtures_ingest_and_quarantine_with_reasons() {
    let Some(resources) = shared("data/fixtures/mail-parser/resources") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = open(tmp.path());
    let report = ingest(&mut engine, std::slice::from_ref(&resources));
    let eml_count = walk_count(&resources, "eml");
    eprintln!("{report:?}");
    assert!(eml_count >= 97, "{eml_count} .eml files");
    // Every .eml plus the messages of the small Maildir.
    assert!(report.messages_read >= eml_count);
    assert_eq!(
        report.added + report.already_known + report.quarantined,
        report.messages_read
    );
    let stats = engine.stats().expect("stats");
    assert_eq!(stats.lost, 0);
    for q in engine.store().quarantined().expect("list") {
        eprintln!("quarantined {}: {}", q.location.describe(), q.reason);
        assert!(!q.reason.is_empty());
    }
    // What was stored can be searched and shown.
    let hits = engine
        .search("subject:test OR message", 50, 0)
        .expect("search runs");
    assert!(!hits.is_empty());
    for h in hits {
        engine.find_message(&h.key).expect("every hit can be shown");
    }
}

#[test]
fn garbage_bytes_are_quarantined_not_fatal() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mail = tmp.path().join("mail");
    std::fs::create_dir_all(&mail).expect("mkdir");
    std::fs::write(mail.join("empty.eml"), b"").expect("write");
    std::fs::write(mail.join("blank.eml"), b"\n\n\n").expect("write");
    std::fs::write(
        mail.join("good.eml"),
        b"Subject: fine\nFrom: a@b.example\n\nhello world\n",
    )
    .expect("write");
    let mut binary = vec![0u8, 159, 146, 150, 255, 254];
    binary.extend(std::iter::repeat_n(0xffu8, 4096));
    std::fs::write(mail.join("binary.eml"), &binary).expect("write");
    let mut engine = open(&tmp.path().join("data"));
    let report = ingest(&mut engine, &[mail]);
    assert_eq!(report.messages_read, 4);
    assert_eq!(report.added + report.quarantined, 4);
    assert!(report.quarantined >= 2, "{report:?}");
    let reasons: Vec<String> = engine
        .store()
        .quarantined()
        .expect("list")
        .into_iter()
        .map(|q| q.reason)
        .collect();
    assert!(reasons.iter().any(|r| r.contains("empty")), "{reasons:?}");
    assert_eq!(engine.search("hello", 5, 0).expect("search").len(), 1);
}

fn walk_count(dir: &std::path::Path, ext: &str) -> usize {
    let mut n = 0;
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                n += walk_count(&p, ext);
            } else if p.extension().is_some_and(|x| x == ext) {
                n += 1;
            }
        }
    }
    n
}
