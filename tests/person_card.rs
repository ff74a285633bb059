//! "What is Dana's job title?", "what's her cell number?", "fax for Marta Quill",
//! "who is Dana Reyes?", "how can I call Marta Quill?":
//! a person's title and numbers are said on their card, the signature of their own
//! mail or a block of lines that hands on a contact. The answer quotes the card's
//! line for what is asked (the newest card's), and says "I don't know" when no card
//! gives it rather than quoting another number. Invented mail, the real engine
//! (sled, tantivy, the ONNX embedder, selector and reader).

mod common;

use common::{ask, engine_on, invented_email};
use quoth::engine::AskOutcome;

fn the_mail() -> Vec<String> {
    vec![
        invented_email(
            "dock-1",
            "From: Dana Reyes <dana.reyes@kestrel.example>\nTo: Lior Abel <lior.abel@example.org>",
            "Dock rota",
            3,
            "Lior,\n\nThe dock rota for June is pinned by the gate.\n\n-- \nDana Reyes\n\
             Deputy Site Manager\nKestrel Freight\nOffice: +1 617 555 0100\n",
        ),
        invented_email(
            "dock-2",
            "From: Dana Reyes <dana.reyes@kestrel.example>\nTo: Lior Abel <lior.abel@example.org>",
            "Crane hire",
            14,
            "Lior,\n\nWe need the crane on Tuesday for the container lift.\n\n-- \nDana Reyes\n\
             Site Manager\nKestrel Freight\nOffice: +1 617 555 0100  Cell: +1 617 555 0199\n",
        ),
        // A signature without a name line: the card of the email's sender.
        invented_email(
            "route",
            "From: Ivo Brandt <ivo.brandt@kestrel.example>\nTo: Lior Abel <lior.abel@example.org>",
            "Route change",
            9,
            "Lior,\n\nThe Tuesday run goes by the coast road from next week.\n\n-- \n\
             Route Planner\nKestrel Freight\nDirect: +1 617 555 0150\n",
        ),
        invented_email(
            "crane",
            "From: Lior Abel <lior.abel@example.org>\nTo: Dana Reyes <dana.reyes@kestrel.example>",
            "Re: Crane hire",
            15,
            "Dana,\n\nThe yard contact for the crane is below; she books the lifts.\n\n\
             Marta Quill\nYard Supervisor, North Pier\n(508) 555-0123 (fax)\n508.555.0124\n\n\
             Lior\n",
        ),
    ]
}

/// Asks `question` and checks its short answer, with the outcome for more checks.
fn answers(engine: &quoth::engine::Engine, question: &str, short: &str, why: &str) -> AskOutcome {
    let out = ask(engine, question);
    assert_eq!(
        out.short_answer.as_deref(),
        Some(short),
        "{question}: {why}; answered {:?} ({:?})",
        out.answer,
        out.notes
    );
    out
}

#[test]
fn a_persons_title_and_numbers_are_quoted_from_their_newest_card() {
    let Some((_tmp, engine)) = engine_on(&the_mail()) else {
        return;
    };

    let out = answers(
        &engine,
        "what is Dana Reyes's job title?",
        "Site Manager",
        "her newest signature says so",
    );
    assert_eq!(out.citations.len(), 1, "{:?}", out.citations);
    assert_eq!(out.citations[0].quote, "Site Manager");
    assert_eq!(out.citations[0].subject, "Crane hire");

    let out = answers(
        &engine,
        "what's Dana's cell number?",
        "+1 617 555 0199",
        "the line labelled Cell",
    );
    assert!(out.citations[0].quote.contains("Cell: +1 617 555 0199"));

    let out = answers(
        &engine,
        "fax for Marta Quill",
        "(508) 555-0123",
        "the number labelled fax",
    );
    let quotes: Vec<&str> = out.citations.iter().map(|c| c.quote.as_str()).collect();
    assert!(
        quotes.contains(&"Marta Quill"),
        "a card in someone else's mail is quoted with its name line: {quotes:?}"
    );

    let to_call = "a number to call is not the fax";
    answers(
        &engine,
        "What is Marta Quill's phone number?",
        "508.555.0124",
        to_call,
    );
    answers(
        &engine,
        "how can I call Marta Quill?",
        "508.555.0124",
        to_call,
    );
    answers(
        &engine,
        "who's Dana Reyes?",
        "Site Manager",
        "her title says who she is",
    );

    // Typed in lower case, the name is still found in the headers, and the signature
    // of Ivo's own email is his card though it does not name him.
    answers(
        &engine,
        "ivo brandt phone",
        "+1 617 555 0150",
        "his signature's number",
    );
    answers(
        &engine,
        "who is ivo brandt",
        "Route Planner",
        "his signature's title",
    );

    let out = ask(&engine, "what's Dana's fax number?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        !answer.contains("555 01"),
        "no card of hers gives a fax, so none of her numbers answers: {answer:?}"
    );
}
