//! A "who" question that says which part the person plays is answered by someone of
//! that part: "who received it?" by its recipients, never its sender; "who is its
//! main recipient?" by the one person it is addressed to, or not at all when it is
//! addressed to several alike; "who is mentioned?" by a sentence that names
//! someone, never a header; "when did she send it?" by the message's date, not a
//! date its text names. Invented mail, the real engine (sled, tantivy, the ONNX
//! embedder, selector and reader).

mod common;

use common::{ask_of_thread, engine_on, invented_email};

fn the_mail() -> Vec<String> {
    vec![
        invented_email(
            "glaze",
            "From: Oskar Lind <oskar.lind@example.org>\n\
             To: Priya Nand <priya.nand@example.org>\n\
             Cc: Tomas Berg <tomas.berg@example.org>",
            "Glaze order",
            10,
            "Priya,\n\nThe celadon glaze we ordered from Helga Moen at Clayworks arrives \
             on Thursday. The kiln room needs clearing before it comes.\n\nOskar\n",
        ),
        invented_email(
            "kiln",
            "From: Mira Holt <mira.holt@example.org>\n\
             To: Ana Ruiz <ana.ruiz@example.org>, Ben Okafor <ben.okafor@example.org>, \
             Cleo Varga <cleo.varga@example.org>",
            "Firing schedule",
            11,
            "Hello all,\n\nThe stoneware firing moves to the weekend. \
             The kiln reached temperature at noon and cooled overnight.\n\nMira\n",
        ),
        // A Lotus Notes export: its recipient is named only in X-To.
        invented_email(
            "notes",
            "From: ivo.brandt@example.org\nX-From: Ivo Brandt\nX-To: Sally Vance@RIDGE",
            "Pallet count",
            12,
            "Sally,\n\nThe pallet count for the east yard came to forty two, \
             two more than the ledger shows.\n\nIvo\n",
        ),
    ]
}

#[test]
fn who_got_an_email_is_answered_by_its_recipients_and_its_main_one_only_when_it_has_one() {
    let Some((_tmp, engine)) = engine_on(&the_mail()) else {
        return;
    };

    let out = ask_of_thread(&engine, "celadon", "who got this email?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        answer.contains("Priya Nand") && !answer.contains("oskar.lind@"),
        "the glaze email went to Priya (and Tomas), not its sender: {answer:?} ({:?})",
        out.notes
    );

    let out = ask_of_thread(&engine, "celadon", "who's the main recipient?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        answer.contains("Priya Nand") && !answer.contains("Tomas Berg"),
        "the one To of the glaze email is its main recipient: {answer:?} ({:?})",
        out.notes
    );

    let out = ask_of_thread(&engine, "stoneware", "who is the primary recipient?");
    assert!(
        out.abstained,
        "the firing email is addressed to three people alike, yet it answered {:?}",
        out.answer
    );

    let out = ask_of_thread(&engine, "pallet", "who received the email?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        answer.contains("Sally Vance") && !answer.contains("ivo.brandt@"),
        "the Notes email names its recipient in X-To: {answer:?} ({:?})",
        out.notes
    );

    let out = ask_of_thread(&engine, "pallet", "who sent it?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        answer.contains("Ivo Brandt") && !answer.contains("Sally Vance"),
        "the Notes email was sent by Ivo: {answer:?} ({:?})",
        out.notes
    );
}

#[test]
fn who_is_mentioned_is_answered_by_a_sentence_that_names_someone_or_not_at_all() {
    let Some((_tmp, engine)) = engine_on(&the_mail()) else {
        return;
    };

    let out = ask_of_thread(&engine, "celadon", "who is mentioned?");
    let answer = out.answer.unwrap_or_default();
    assert!(
        answer.contains("Helga Moen at Clayworks") && !answer.contains("@example.org"),
        "the glaze email's text names Helga Moen: {answer:?} ({:?})",
        out.notes
    );

    let out = ask_of_thread(&engine, "stoneware", "who gets mentioned?");
    assert!(
        out.abstained,
        "the firing email's text names no one, yet it answered {:?}",
        out.answer
    );
}

#[test]
fn when_an_email_was_sent_is_its_date_not_a_day_its_text_names() {
    let Some((_tmp, engine)) = engine_on(&the_mail()) else {
        return;
    };

    // Sent on 10 May 2001, 09:00 at UTC-5; its text names a Thursday.
    for question in ["when was this email sent?", "When did Oskar send it?"] {
        let out = ask_of_thread(&engine, "celadon", question);
        let answer = out.answer.unwrap_or_default();
        assert!(
            answer.contains("2001-05-10 14:00 UTC") && !answer.contains("arrives on Thursday"),
            "{question}: {answer:?} ({:?})",
            out.notes
        );
        assert_eq!(out.citations.len(), 1, "{:?}", out.citations);
    }
    // Tomas did not send it: its date is not his.
    let out = ask_of_thread(&engine, "celadon", "When did Tomas send it?");
    assert!(
        out.abstained,
        "Oskar sent the glaze email, yet it answered {:?}",
        out.answer
    );
    // When the glaze comes is in the text.
    let out = ask_of_thread(&engine, "celadon", "when does the glaze arrive?");
    let answer = out.answer.unwrap_or_default();
    assert!(answer.contains("Thursday"), "{answer:?}");
}
