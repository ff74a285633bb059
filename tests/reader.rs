//! The reader (a cross-encoder over question and sentence) on ONNX Runtime, with the
//! shipped model: it must read the question with the sentence, so an answering
//! sentence outscores one on the same subject that does not hold what was asked.

mod common;

use quoth::answer::ReaderInput;
use quoth::index::embed::ModelPaths;
use quoth::index::reader::Reader;

fn input(subject: &str, prev: &str, sentence: &str, next: &str) -> ReaderInput {
    ReaderInput {
        subject: subject.into(),
        sender: "Marta Quill".into(),
        prev: prev.into(),
        sentence: sentence.into(),
        next: next.into(),
    }
}

fn reader() -> Option<Reader> {
    let dir = common::models()?;
    let paths = ModelPaths::in_dir(&dir);
    let model = Reader::locate(&paths).expect("the reader ships in models/reader");
    Some(Reader::load(&paths, &model, 1).expect("the reader loads"))
}

#[test]
fn an_answering_sentence_outscores_sentences_that_do_not_hold_the_answer() {
    let Some(r) = reader() else { return };
    let cases = [
        (
            "when does the crane get to the dock?",
            input(
                "crane booking",
                "I talked to the rental yard this morning.",
                "The crane will be delivered to the north dock on Thursday at 7 am.",
                "Let me know if that works.",
            ),
            input(
                "crane booking",
                "The crane will be delivered to the north dock.",
                "The rental yard wants a signed safety form before anything moves.",
                "",
            ),
        ),
        (
            "how much is the deposit for the boat hire",
            input(
                "boat hire for the offsite",
                "",
                "They need a deposit of $850 by Friday to hold the boat.",
                "The rest is due on the day.",
            ),
            input(
                "boat hire for the offsite",
                "",
                "They need a deposit by Friday to hold the boat.",
                "The rest is due on the day.",
            ),
        ),
    ];
    for (question, answer, other) in cases {
        let s = r
            .score(question, &[answer.clone(), other.clone()])
            .expect("scores");
        println!("{question}: {s:?}");
        assert_eq!(s.len(), 2);
        assert!(s.iter().all(|x| x.is_finite()));
        assert!(
            s[0] > s[1],
            "{question}: the answer {:.2} should outscore {:?} {:.2}",
            s[0],
            other.sentence,
            s[1]
        );
    }
}

#[test]
fn a_long_candidate_is_fitted_to_the_model_and_scored_alike_in_any_batch() {
    let Some(r) = reader() else { return };
    let long = "word ".repeat(400);
    let a = input("s", &long, "The audit starts on May 8.", &long);
    let fitted = r.fit("when is the audit?", &a).expect("fits");
    assert!(fitted.contains(">> The audit starts on May 8. <<"));
    assert!(
        fitted.len() < 700,
        "the neighbours were cut: {}",
        fitted.len()
    );
    let b = input("s", "", "Lunch is at noon.", "");
    let together = r
        .score("when is the audit?", &[a.clone(), b.clone()])
        .expect("scores");
    let alone = r.score("when is the audit?", &[a]).expect("scores");
    assert!(
        (together[0] - alone[0]).abs() < 1e-3,
        "padding must not change a score: {together:?} {alone:?}"
    );
}
