//! "What is Dana's job title?", "what's her cell number?", "fax for Marta Quill",
//! "who is Dana Reyes?", "how can I call Marta Quill?":
//! a person's title and numbers are said on their card, the signature of their own
//! mail or a block of lines that hands on a contact. The answer quotes the card's
//! line for what is asked (the newest card's), and says "I don't know" when no card
//! gives it rather than quoting another number. Invented mail, the real engine
//! (sled, tantivy, the ONNX embedder, selector and reader).

mod common;

use common::{ask, engine_on, invented_email};

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

#[test]
fn a_persons_title_and_numbers_are_quoted_from_their_newest_card() {
    let Some((_tmp, engine)) = engine_on(&the_mail()) else {
        return;
    };

    let out = ask(&engine, "what is Dana Reyes's job title?");
    assert_eq!(
        out.short_answer.as_deref(),
        Some("Site Manager"),
        "her newest signature says Site Manager: {:?} ({:?})",
        out.answer,
        out.notes
    );
    assert_eq!(out.citations.len(), 1, "{:?}", out.citations);
    assert_eq!(out.citations[0].quote, "Site Manager");
    assert_eq!(out.citations[0].subject, "Crane hire");

    let out = ask(&engine, "what's Dana's cell number?");
    assert_eq!(
        out.short_answer.as_deref(),
        Some("+1 617 555 0199"),
        "{:?} ({:?})",
        out.answer,
        out.notes
    );
    assert!(out.citations[0].quote.contains("Cell: +1 617 555 0199"));

    let out = ask(&engine, "fax for Marta Quill");
    assert_eq!(
        out.short_answer.as_deref(),
        Some("(508) 555-0123"),
        "{:?} ({:?})",
        out.answer,
        out.notes
    );
    let quotes: Vec<&str> = out.citations.iter().map(|c| c.quote.as_str()).collect();
    assert!(
        quotes.contains(&"Marta Quill"),
        "a card in someone else's mail is quoted with its name line: {quotes:?}"
    );

    let out = ask(&engine, "What is Marta Quill's phone number?");
    assert_eq!(
        out.short_answer.as_deref(),
        Some("508.555.0124"),
        "a number to call is not the fax: {:?} ({:?})",
        out.answer,
        out.notes
    );

    let out = ask(&engine, "who's Dana Reyes?");
    assert_eq!(
        out.short_answer.as_deref(),
        Some("Site Manager"),
        "{:?} ({:?})",
        out.answer,
        out.notes
    );

    let out = ask(&engine, "how can I call Marta Quill?");
    assert_eq!(
        out.short_answer.as_deref(),
        Some("508.555.0124"),
        "{:?} ({:?})",
        out.answer,
        out.notes
    );

    let out = ask(&engine, "what's Dana's fax number?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        !answer.contains("555 01"),
        "no card of hers gives a fax, so none of her numbers answers: {answer:?}"
    );
}
