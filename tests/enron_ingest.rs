//! Ingest of the real Enron Maildir (8,971 messages): counts, nothing lost, idempotence
//! across a second run and across the mbox copy of lay-k, and cleaning that keeps
//! quoted history out of every chunk.

mod common;

use common::{ingest, open, shared};
use std::path::Path;
use std::time::Instant;

#[test]
fn enron_maildir_ingests_completely_and_idempotently() {
    let Some(maildir) = shared("data/enron/maildir") else {
        return;
    };
    let Some(mbox_tar) = shared("data/enron/mbox-100k.tar.xz") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = open(&tmp.path().join("data"));

    let first = ingest(&mut engine, std::slice::from_ref(&maildir));
    let stats = engine.stats().expect("stats");
    assert_eq!(stats.messages, 8_971, "{first:?}");
    assert_eq!(stats.lost, 0);
    assert_eq!(stats.quarantined, 0);
    assert_eq!(first.added, 8_971);
    assert_eq!(stats.lexical_docs, 8_971);
    assert!(
        stats.threads > 1_000 && stats.threads < 8_971,
        "{} threads",
        stats.threads
    );
    // manifest.tsv sits in the folder and is not mail: it is neither stored nor quarantined.
    assert!(first.file_errors.is_empty(), "{:?}", first.file_errors);

    let t = Instant::now();
    let second = ingest(&mut engine, std::slice::from_ref(&maildir));
    eprintln!(
        "no-change rescan of 8,971 messages: {:.3} s",
        t.elapsed().as_secs_f64()
    );
    assert_eq!(second.added, 0);
    assert_eq!(
        second.files_read, 0,
        "unchanged files must not be read again"
    );
    assert_eq!(second.files_unchanged, 8_971);

    // lay-k again, from its mbox copy: same Message-IDs and content, so nothing new.
    let unpack = tmp.path().join("unpacked");
    std::fs::create_dir_all(&unpack).expect("mkdir");
    let status = std::process::Command::new("tar")
        .arg("-xJf")
        .arg(&mbox_tar)
        .arg("-C")
        .arg(&unpack)
        .arg("mbox/lay-k")
        .status()
        .expect("tar runs");
    assert!(status.success());
    let from_mbox = ingest(&mut engine, &[unpack.join("mbox/lay-k")]);
    assert_eq!(from_mbox.messages_read, 5_937);
    assert_eq!(from_mbox.added, 0, "{from_mbox:?}");
    assert_eq!(from_mbox.already_known, 5_937);
    assert_eq!(engine.stats().expect("stats").messages, 8_971);

    check_chunks_hold_only_authored_text(&engine);
    check_known_message(&engine, &maildir);
}

/// No chunk of any Enron message may contain quoted history or forward markers.
fn check_chunks_hold_only_authored_text(engine: &quoth::engine::Engine) {
    const MARKERS: &[&str] = &[
        "-----Original Message-----",
        "----- Forwarded by",
        "---------------------- Forwarded by",
        "\n> ",
    ];
    let mut checked = 0;
    for msg in engine.store().messages() {
        let msg = msg.expect("message decodes");
        for chunk in engine.store().chunks_of(&msg.key).expect("chunks") {
            checked += 1;
            assert_eq!(
                &msg.body[chunk.start as usize..chunk.end as usize],
                chunk.cite_text,
                "cite_text must be the exact span of the body"
            );
            for m in MARKERS {
                assert!(
                    !chunk.cite_text.contains(m),
                    "chunk of {} contains {m:?}:\n{}",
                    msg.message_id.as_deref().unwrap_or("?"),
                    chunk.cite_text
                );
            }
            assert!(chunk.embed_text.contains(&chunk.cite_text));
            // A forwarded or quoted original is searched under its own subject.
            let subject = chunk
                .origin
                .as_ref()
                .and_then(|o| o.subject.as_deref())
                .unwrap_or(&msg.subject);
            assert!(chunk.embed_text.contains(subject));
        }
    }
    assert!(checked > 8_000, "only {checked} chunks");
}

/// A known message is findable by Message-ID and by search.
fn check_known_message(engine: &quoth::engine::Engine, _maildir: &Path) {
    let msg = engine
        .find_message("<29020904.1075840230207.JavaMail.evans@thyme>")
        .expect("found by Message-ID");
    assert_eq!(msg.subject, "Franco Bernabe's tel number");
    assert_eq!(msg.from[0].address, "ggalata@enron.co.uk");
    let hits = engine
        .search("Bernabe from:ggalata", 5, 0)
        .expect("search runs");
    // Listed once for all its copies: as itself, or as a copy naming its folder.
    assert!(
        hits.iter()
            .any(|h| h.key == msg.key.to_hex() || h.also_in.contains(&msg.folder)),
        "{hits:?}"
    );
}
