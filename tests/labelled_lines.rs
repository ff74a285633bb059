//! A labelled line of a message ("- Venue: Tern Island Inn, ...") answers a
//! question for what its label names (a place for "where", days for "when", a sum
//! for "how much") when the question says nothing the line and its subject do not;
//! a later message that speaks of the same thing with another value of the kind
//! does not replace it. Invented mail, the real engine (sled, tantivy, the ONNX
//! embedder and reader).

mod common;

use common::{ask, engine_on, team_mail};

const MAIL: [(&str, &str, &str); 3] = [
    (
        "Spring retreat - first plan",
        "Mira Holt <mira.holt@example.org>",
        "Hi all,\n\nStarting the planning for the spring retreat. Here is where things stand:\n\n\
         - Venue: Tern Island Inn, a short ferry ride from the harbour; they are holding 11\n  \
         cabins for us until April 2\n\
         - Dates: Monday May 12 - Tuesday May 13\n\
         - Budget: $9,400 all-in, from the training line\n\n\
         Tell me by Friday if you cannot come.\n\nMira\n",
    ),
    (
        "Quarterly costs",
        "Oskar Lind <oskar.lind@example.org>",
        "Team,\n\nCosts rose this quarter, mostly for the new laptops and the May retreat \
         in the islands. The laptops came to $12,800.\n\nOskar\n",
    ),
    (
        "Boat hire",
        "Dana Reyes <dana.reyes@example.org>",
        "Hello,\n\nThe sailing club will rent us the blue boat for the afternoon of the \
         picnic. We meet at the dock by the old mill.\n\nDana\n",
    ),
];

#[test]
fn a_labelled_line_answers_what_its_label_names() {
    let Some((_tmp, engine)) = engine_on(&team_mail("labelled", &MAIL)) else {
        return;
    };
    for (question, value, line) in [
        (
            "where is the retreat?",
            "Tern Island Inn",
            "Venue: Tern Island Inn",
        ),
        ("when is the retreat?", "May 1", "Dates: Monday May 12"),
        (
            "how much is the retreat budget?",
            "$9,400",
            "Budget: $9,400",
        ),
    ] {
        let out = ask(&engine, question);
        let answer = out.answer.clone().unwrap_or_default();
        assert!(
            !out.abstained && answer.contains(line),
            "{question}: expected the line \"{line}\", got {answer:?} ({:?})",
            out.abstention
        );
        assert!(
            out.short_answer
                .as_deref()
                .is_some_and(|s| s.contains(value)),
            "{question}: short answer {:?}",
            out.short_answer
        );
        assert!(
            !answer.contains("superseded"),
            "{question}: a later message about something else replaced it: {answer}"
        );
    }
    // The retreat's venue is not the venue of a dinner held there.
    let out = ask(&engine, "where is the retreat dinner?");
    assert!(
        out.answer
            .as_deref()
            .is_none_or(|a| !a.contains("Venue: Tern Island Inn")),
        "{:?}",
        out.answer
    );
}
