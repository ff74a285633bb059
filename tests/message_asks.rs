//! "What are they requesting?" and "what did she attach?" asked of one email are answered by
//! its sentence of that kind, and refused by an email without one: invented mail,
//! the real engine (sled, tantivy, the ONNX embedder, selector and reader).

mod common;

use common::{ask_of_thread, engine_on, team_mail};
use quoth::engine::Engine;

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

fn the_mail() -> Vec<String> {
    team_mail("request", &MAIL)
}

/// The engine on the invented mail (None without the models).
fn engine_on_the_mail() -> Option<(tempfile::TempDir, Engine)> {
    engine_on(&the_mail())
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
        let out = ask_of_thread(&engine, word, question);
        let answer = out.answer.unwrap_or_default();
        assert!(
            answer.contains(request),
            "{question} of the {word} email: expected the request quoted, got {answer:?} ({:?})",
            out.notes
        );
    }
    // A report whose only request-like line offers help asks nothing.
    let out = ask_of_thread(&engine, "pallets", "what is she requesting?");
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

    let out = ask_of_thread(&engine, "bays", "what did she attach?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        answer.contains("Attached is the revised floor plan"),
        "expected the attachment's sentence, got {answer:?} ({:?})",
        out.notes
    );
    let out = ask_of_thread(&engine, "regatta", "what did she attach?");
    assert!(
        out.abstained,
        "the regatta email attaches nothing, yet it answered {:?}",
        out.answer
    );
}
