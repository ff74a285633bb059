//! "What are they requesting?" and "what did she attach?" asked of one email are answered by
//! its sentence of that kind, and refused by an email without one: invented mail,
//! the real engine (sled, tantivy, the ONNX embedder, selector and reader).

mod common;

use common::{embed_all, ingest, models, open};
use quoth::answer::conversation::Conversation;
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::engine::{AskOptions, Engine};
use std::path::Path;

const MAIL: [(&str, &str, &str); 4] = [
    (
        "Lease renewal",
        "Oskar Lind <oskar.lind@example.org>",
        "Hi Dana,\n\nThe landlord sent the renewal terms for the depot on Birch Road. \
         Could you sign the renewal form and return it to the front desk by Friday? \
         The rent stays the same for two more years.\n\nThanks,\nOskar\n",
    ),
    (
        "Warehouse audit",
        "Mira Holt <mira.holt@example.org>",
        "Team,\n\nThe auditors finished the count at the north warehouse on Tuesday. \
         They found eleven pallets more than the books showed, all of them paint.\n\n\
         Call me if you have any questions.\n\nMira\n",
    ),
    (
        "Boat hire",
        "Mira Holt <mira.holt@example.org>",
        "Jo,\n\nsend me the crew list for the regatta before noon tomorrow. \
         The club needs the names to print the badges.\n\nMira\n",
    ),
    (
        "Depot floor plan",
        "Dana Reyes <dana.reyes@example.org>",
        "Hello,\n\nAttached is the revised floor plan for the depot, with the loading \
         bays moved to the east wall. The builders start in June.\n\nDana\n",
    ),
];

fn maildir(dir: &Path) {
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).expect("maildir");
    }
    for (i, (subject, from, body)) in MAIL.iter().enumerate() {
        let raw = format!(
            "From: {from}\r\nTo: team@example.org\r\nSubject: {subject}\r\n\
             Date: Mon, {} May 2001 09:00:00 -0500\r\n\
             Message-ID: <request-{i}@example.org>\r\n\r\n{}",
            10 + i,
            body.replace('\n', "\r\n")
        );
        std::fs::write(dir.join(format!("cur/{i}.test:2,S")), raw).expect("write mail");
    }
}

/// The engine on the invented mail, searchable and embedded (None without the
/// models); the temp dir lives as long as it.
fn engine_on_the_mail() -> Option<(tempfile::TempDir, Engine)> {
    let models = models()?;
    std::env::set_var("QUOTH_MODELS_DIR", &models);
    let tmp = tempfile::tempdir().expect("tempdir");
    let mail = tmp.path().join("mail");
    maildir(&mail);
    let mut engine = open(&tmp.path().join("data"));
    ingest(&mut engine, &[mail]);
    embed_all(&mut engine);
    Some((tmp, engine))
}

/// Asks `question` of the thread of the one email `word` finds.
fn ask_of(engine: &Engine, word: &str, question: &str) -> quoth::engine::AskOutcome {
    let hits = engine.search(word, 5, 0).expect("search");
    assert_eq!(hits.len(), 1, "{word} finds one email");
    engine
        .ask(
            question,
            &mut Conversation::default(),
            &ExtractiveAnswerer,
            &AskOptions {
                thread: Some(hits[0].thread_id.clone()),
                // As `quoth ask --thread`: from the thread alone.
                widen: false,
                ..AskOptions::default()
            },
            &mut |_| {},
        )
        .expect("ask runs")
}

#[test]
fn what_an_email_asks_for_is_its_request_or_nothing() {
    let Some((_tmp, engine)) = engine_on_the_mail() else {
        return;
    };

    for (word, question, request) in [
        (
            "birch",
            "What are they requesting?",
            "Could you sign the renewal form",
        ),
        ("regatta", "what does Mira want?", "send me the crew list"),
    ] {
        let out = ask_of(&engine, word, question);
        let answer = out.answer.unwrap_or_default();
        assert!(
            answer.contains(request),
            "{question} of the {word} email: expected the request quoted, got {answer:?} ({:?})",
            out.notes
        );
    }
    // A report whose only request-like line offers help asks nothing.
    let out = ask_of(&engine, "pallets", "what is she requesting?");
    assert!(
        out.abstained,
        "the audit report asks nothing, yet it answered {:?}",
        out.answer
    );
}

#[test]
fn what_an_email_attaches_is_the_sentence_that_speaks_of_it_or_nothing() {
    let Some((_tmp, engine)) = engine_on_the_mail() else {
        return;
    };

    let out = ask_of(&engine, "bays", "what did she attach?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        answer.contains("Attached is the revised floor plan"),
        "expected the attachment's sentence, got {answer:?} ({:?})",
        out.notes
    );
    let out = ask_of(&engine, "regatta", "what did she attach?");
    assert!(
        out.abstained,
        "the regatta email attaches nothing, yet it answered {:?}",
        out.answer
    );
}
