//! A quote that names another day than the one the question names, from a message
//! that never names the asked day and was not sent on it, speaks of another
//! occasion: "which room is the Oct 10 kiln review in?" is not answered by the
//! October 23 review's room. Invented mail, the real engine (sled, tantivy, the
//! ONNX embedder and reader).

mod common;

use common::{ask, engine_on, team_mail};

const MAIL: [(&str, &str, &str); 2] = [
    (
        "Kiln review",
        "Mira Holt <mira.holt@example.org>",
        "Hi all,\n\nThe kiln review on October 23 is in room 4B on the second floor. \
         Bring your firing logs.\n\nMira\n",
    ),
    (
        "Glaze order",
        "Oskar Lind <oskar.lind@example.org>",
        "Team,\n\nThe glaze order went out this morning and should arrive within two \
         weeks.\n\nOskar\n",
    ),
];

#[test]
fn a_quote_about_another_day_does_not_answer() {
    let Some((_tmp, engine)) = engine_on(&team_mail("another-day", &MAIL)) else {
        return;
    };
    // Asked for the day the mail speaks of, the line answers.
    let out = ask(&engine, "which room is the october 23 kiln review in?");
    let answer = out.answer.clone().unwrap_or_default();
    assert!(
        !out.abstained && answer.contains("room 4B"),
        "expected the review's room, got {answer:?} ({:?})",
        out.abstention
    );
    // Asked for another day, the same line is about another review.
    let out = ask(&engine, "which room is the oct 10 kiln review in?");
    assert!(
        out.answer.as_deref().is_none_or(|a| !a.contains("room 4B")),
        "the October 23 review answered for October 10: {:?}",
        out.answer
    );
}
