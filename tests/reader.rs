//! The reader (a cross-encoder over question and sentence) on ONNX Runtime, with the
//! shipped model: it must read the question with the sentence, so an answering
//! sentence outscores one on the same subject that does not hold what was asked.

mod common;

use quoth::answer::ReaderInput;
use quoth::index::embed::ModelPaths;
use quoth::index::reader::Reader;
use quoth::index::span_head::SpanHead;

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
        // The near miss names the deposit and holds a sum, but not the deposit's.
        (
            "what deposit does the hall want?",
            input(
                "hall for the reunion",
                "",
                "The hall wants a deposit of $600 now and the full rent of $2,400 on the night.",
                "",
            ),
            input(
                "hall for the reunion",
                "",
                "The hall wants a deposit, amount not yet agreed, and the full rent of $2,400 on the night.",
                "",
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
fn the_shipped_reader_reads_with_each_of_its_models() {
    let Some(r) = reader() else { return };
    assert_eq!(r.models(), 1 + quoth::index::reader::MEMBER_FILES.len());
    let one = input("lunch", "", "Lunch is at noon in the atrium.", "");
    let alone = r
        .score("when is lunch", std::slice::from_ref(&one))
        .expect("scores");
    let beside = r
        .score(
            "when is lunch",
            &[input("lunch", "", "Bring a badge.", ""), one],
        )
        .expect("scores");
    assert_eq!(
        alone[0], beside[1],
        "a pair scores the same alone or beside others"
    );
}

#[test]
fn a_long_candidate_is_fitted_to_the_model_and_scored_alike_in_any_batch() {
    let Some(r) = reader() else { return };
    let long = "word ".repeat(400);
    let a = input("s", &long, "The audit starts on May 8.", &long);
    let fitted = r.fit("when is the audit?", &a).expect("fits");
    assert!(fitted.text.contains(">> The audit starts on May 8. <<"));
    assert_eq!(
        fitted.text.get(fitted.sentence.clone()),
        Some("The audit starts on May 8."),
        "the fitted text knows where its sentence is"
    );
    assert!(
        fitted.text.len() < 700,
        "the neighbours were cut: {}",
        fitted.text.len()
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

fn span_head() -> Option<SpanHead> {
    let dir = common::models()?;
    let paths = ModelPaths::in_dir(&dir);
    let model = SpanHead::locate(&paths).expect("the span head ships in models/reader");
    Some(SpanHead::load(&paths, &model, 1).expect("the span head loads"))
}

/// The span head's best span of `sentence` for `question`.
fn best_span(head: &SpanHead, question: &str, sentence: &str) -> String {
    let inp = input(
        "offsite planning",
        "We spoke to the venue today.",
        sentence,
        "",
    );
    let logits = head.read(question, &inp).expect("reads");
    assert!(!logits.tokens.is_empty(), "the sentence's tokens are read");
    for t in &logits.tokens {
        assert!(
            sentence.is_char_boundary(t.start) && sentence.is_char_boundary(t.end),
            "a token is a byte range of the sentence: {t:?}"
        );
    }
    let (range, score) = logits.best().expect("a span");
    assert!(score.is_finite());
    sentence[range].to_string()
}

#[test]
fn the_span_head_finds_what_the_question_asks_in_the_sentence() {
    let Some(head) = span_head() else { return };
    let sentence =
        "The deposit of $850 is due Friday, and the full price of $4,200 is paid on the day.";
    let deposit = best_span(&head, "how much is the deposit for the boat?", sentence);
    let full = best_span(&head, "what is the full price of the boat?", sentence);
    let when = best_span(&head, "when is the deposit due?", sentence);
    println!("deposit {deposit:?}, full {full:?}, when {when:?}");
    assert!(
        deposit.contains("$850") && !deposit.contains("4,200"),
        "{deposit}"
    );
    assert!(full.contains("$4,200") && !full.contains("850"), "{full}");
    assert!(when.contains("Friday") && !when.contains('$'), "{when}");
}

#[test]
fn the_span_head_reads_a_sentence_with_odd_text_without_failing() {
    let Some(head) = span_head() else { return };
    let odd = "Prix: 12 € — ½ off for “members”, déjà vu; 東京 office on 3/4.";
    let inp = input("s", "", odd, "");
    let logits = head.read("what is the price?", &inp).expect("reads");
    if let Some((range, _)) = logits.best() {
        assert!(
            odd.get(range.clone()).is_some(),
            "{range:?} slices the sentence"
        );
    }
    let long = "word ".repeat(300) + "The key is under the mat.";
    let inp = input("s", &"x ".repeat(200), long.trim(), &"y ".repeat(200));
    let logits = head
        .read("where is the key?", &inp)
        .expect("reads a sentence cut by truncation");
    assert!(logits.tokens.iter().all(|t| t.end <= long.trim().len()));
}
