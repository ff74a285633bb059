//! A question that asks for a value of one written form (a clock time, a sum, a
//! phone number) is not answered by mail that speaks of the thing without giving
//! the value, and is answered when the mail gives it: invented mail, the real
//! engine (sled, tantivy, the ONNX embedder and reader).

mod common;

use common::{ask, engine_on, team_mail};

const MAIL: [(&str, &str, &str); 4] = [
    (
        "Farewell dinner for Ines",
        "Oskar Lind <oskar.lind@example.org>",
        "Team,\n\nOn Thursday, May 31, Oskar is hosting a farewell dinner for Ines \
         at Brennan's on Elm Street. Please let me know by Monday whether you can come.\n\n\
         Thanks,\nOskar\n",
    ),
    (
        "Ferry to Tern Island",
        "Mira Holt <mira.holt@example.org>",
        "Hi all,\n\nFor the retreat: the ferry to Tern Island leaves at 7:45 pm from \
         pier 3. Bring a jacket, it gets cold on the water.\n\nMira\n",
    ),
    (
        "Roof repair",
        "Dana Reyes <dana.reyes@example.org>",
        "Hello,\n\nThe roofer came on Tuesday and fixed the leak over the garage. \
         He will send the invoice to the office next week.\n\nDana\n",
    ),
    (
        "Boat hire",
        "Mira Holt <mira.holt@example.org>",
        "Hi,\n\nThe sailing club will rent us the blue boat for the afternoon. \
         The hire comes to $340 for the day, paid at the dock.\n\nMira\n",
    ),
];

fn the_mail() -> Vec<String> {
    team_mail("needed", &MAIL)
}

#[test]
fn a_question_for_a_value_is_refused_by_mail_without_it_and_answered_by_mail_with_it() {
    let Some((_tmp, engine)) = engine_on(&the_mail()) else {
        return;
    };

    for (question, closest) in [
        (
            "what time is the farewell dinner for ines?",
            "Farewell dinner for Ines",
        ),
        ("how much did the roof repair cost?", "Roof repair"),
        // Half of its words are in the ferry's mail, though their meaning scores
        // under the search's gate: that mail is still what the user should open.
        ("what colour is the ferry?", "Ferry to Tern Island"),
    ] {
        let out = ask(&engine, question);
        assert!(
            out.abstained,
            "{question}: the mail names no such value, yet it answered {:?}",
            out.answer
        );
        // The user is told that the mail found does not say, and which mail that
        // is, not that the mailbox has nothing on it.
        let shown = out.display_text();
        assert!(
            shown.starts_with(quoth::engine::NOT_SAID) && shown.contains(closest),
            "{question}: expected the abstention to name \"{closest}\", got {shown:?}"
        );
        let abstention = out.abstention.expect("an abstention says why");
        assert!(abstention.reason.is_some_and(|r| !r.is_empty()));
    }
    // Nothing in the mail is about this: no message is named.
    let out = ask(&engine, "who won the chess tournament in reykjavik?");
    assert!(
        out.abstained,
        "answered {:?} (confidence {})",
        out.answer, out.confidence
    );
    assert!(
        out.display_text().starts_with(quoth::engine::ABSTAIN),
        "{:?}",
        out.display_text()
    );
    for (question, value) in [
        ("what time does the ferry to tern island leave?", "7:45"),
        ("how much is the boat hire?", "$340"),
    ] {
        let out = ask(&engine, question);
        let answer = out.answer.unwrap_or_default();
        assert!(
            answer.contains(value),
            "{question}: expected an answer quoting {value}, got {answer:?} ({:?})",
            out.notes
        );
    }
}
