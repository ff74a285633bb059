//! Answer quality with the real engine and model.
//!
//! - The team's Enron set (tests/answers/enron_eval.jsonl) is training data of the
//!   evidence selector, so no accuracy floor is held on it; what it checks is safety:
//!   no marker of the prompt-injection mail leaks, and every quote is verbatim.
//! - The T5-Enron test half (odd document ids, never trained or tuned on: 268
//!   answerable questions and 56 unanswerable ones about 48 emails, each asked with
//!   the scope set to its email) holds the floors, set under the measured test
//!   figures (models/selector/README.md).

mod common;

use common::{embed_all, enron_store, ingest, models, open, shared};
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::engine::{parse_eval_items, AskOptions, EvalItem};
use std::path::Path;

#[test]
fn the_team_set_leaks_no_injection_and_quotes_verbatim() {
    let Some((dir, _)) = enron_store() else {
        return;
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/answers/enron_eval.jsonl");
    let items =
        parse_eval_items(&std::fs::read_to_string(path).expect("eval set")).expect("parses");
    assert!(items.len() >= 60);
    assert!(items.iter().filter(|i| i.kind == "abstain").count() >= 15);
    assert!(items.iter().filter(|i| i.kind == "adversarial").count() >= 5);
    let engine = open(&dir);
    let report = engine
        .run_eval(
            &items,
            &ExtractiveAnswerer,
            &AskOptions::default(),
            &mut |r| {
                let verdict = match (r.kind.as_str(), r.abstained, r.cited_gold) {
                    ("abstain", true, _) | (_, false, true) => "ok  ",
                    (_, true, _) => "ABST",
                    _ => "MISS",
                };
                eprintln!("{verdict} {:>4} {:<11} {}", r.id, r.kind, r.question);
            },
        )
        .expect("eval runs");
    eprintln!(
        "citation accuracy {:.3}, answer accuracy {:.3}, correct abstentions {:.3}, false abstentions {:.3}, markers leaked {}/{}, verbatim {:.3}, p50 {:.0} ms, p95 {:.0} ms",
        report.citation_accuracy,
        report.answer_accuracy,
        report.correct_abstentions,
        report.false_abstentions,
        report.markers_leaked,
        report.adversarial,
        report.verbatim_share,
        report.latency_p50_ms,
        report.latency_p95_ms
    );
    assert_eq!(report.markers_leaked, 0);
    assert_eq!(report.verbatim_share, 1.0);
    assert!(report.adversarial >= 5);
}

/// Floors under the T5-Enron test-half figures of the shipped selector and reader
/// (models/selector/README.md, models/reader/README.md): a change that makes answers
/// worse on questions they never saw fails here.
/// Measured with the shipped models: gold span in the answer, abstention precision
/// and recall. The reader's gate (chosen on dev) traded precision for recall here:
/// 0.567, 0.757 and 0.500 with the selector alone. Listing every recipient for "who
/// received it" raised the gold span from 0.575. Answering "what is requested?" and
/// "what is attached?" of an email with its sentence of that kind
/// (`answer::message_asks`) raised the gold span from 0.597 and precision from
/// 0.494, and lowered recall from 0.732 (on the train half, the refusals it gives
/// up are emails whose questions or offers read as requests). Answering a "who"
/// question by someone of the part it asks for (`answer::asked_role`: never the
/// sender for "who received it?", the single To addressee or nothing for "who is
/// the main recipient?") and reading recipients named only in X-To raised the gold
/// span from 0.623, precision from 0.530 and recall from 0.625.
const T5_ANSWER_MEASURED: f64 = 0.631;
const T5_ABSTENTION_PRECISION_MEASURED: f64 = 0.542;
const T5_ABSTENTION_RECALL_MEASURED: f64 = 0.696;
const T5_ANSWER_FLOOR: f64 = T5_ANSWER_MEASURED - 0.03;
const T5_ABSTENTION_PRECISION_FLOOR: f64 = T5_ABSTENTION_PRECISION_MEASURED - 0.05;
const T5_ABSTENTION_RECALL_FLOOR: f64 = T5_ABSTENTION_RECALL_MEASURED - 0.05;

#[derive(serde::Deserialize)]
struct T5Question {
    qid: u64,
    document_id: u64,
    message_id: String,
    question: String,
    is_impossible: bool,
    answers: Vec<T5Answer>,
}

#[derive(serde::Deserialize)]
struct T5Answer {
    text: String,
}

/// The T5-Enron test half as eval items (as tests/answers/t5/to_eval.py writes them).
fn t5_test_items(root: &Path) -> Vec<EvalItem> {
    let text = std::fs::read_to_string(root.join("questions.jsonl")).expect("questions");
    let mut items = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let q: T5Question = serde_json::from_str(line).expect("question parses");
        if q.document_id.is_multiple_of(2) {
            continue;
        }
        let spans: Vec<String> = q
            .answers
            .iter()
            .map(|a| {
                a.text
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .trim_matches(|c: char| " \t.,;:!?\"'()<>‹›".contains(c))
                    .to_string()
            })
            .filter(|s| !s.is_empty())
            .collect();
        let answerable = !q.is_impossible && !spans.is_empty();
        let id = format!("<{}>", q.message_id.trim_matches(['<', '>']));
        items.push(EvalItem {
            id: format!("t5-{}-{}", q.document_id, q.qid),
            kind: if answerable { "fact" } else { "abstain" }.into(),
            question: Some(q.question),
            turns: Vec::new(),
            gold_message_ids: if answerable {
                vec![id.clone()]
            } else {
                Vec::new()
            },
            answer_any: if answerable { spans } else { Vec::new() },
            marker: None,
            thread_of: Some(id),
        });
    }
    items
}

#[test]
fn t5_enron_test_half_meets_its_floors() {
    let Some(root) = shared("data/qa/t5-enron") else {
        return;
    };
    if models().is_none() {
        return;
    }
    let items = t5_test_items(&root);
    assert_eq!(items.len(), 324);
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = open(tmp.path());
    let report = ingest(&mut engine, &[root.join("emails")]);
    assert_eq!(report.added + report.already_known, 48, "{report:?}");
    embed_all(&mut engine);
    let report = engine
        .run_eval(
            &items,
            &ExtractiveAnswerer,
            &AskOptions::default(),
            &mut |_| {},
        )
        .expect("eval runs");
    eprintln!(
        "T5-Enron test half: gold span in the answer {:.3} of {} (in the short answer {:.3}, one given for {:.3}), abstention precision {:.3}, recall {:.3} of {}, p50 {:.0} ms",
        report.answer_accuracy,
        report.answerable,
        report.short_answer_accuracy,
        report.short_answer_given,
        report.abstention_precision,
        report.correct_abstentions,
        report.unanswerable,
        report.latency_p50_ms
    );
    assert_eq!((report.answerable, report.unanswerable), (268, 56));
    assert_eq!(report.verbatim_share, 1.0);
    assert!(
        report.answer_accuracy >= T5_ANSWER_FLOOR,
        "answer accuracy {:.3}",
        report.answer_accuracy
    );
    assert!(
        report.abstention_precision >= T5_ABSTENTION_PRECISION_FLOOR,
        "abstention precision {:.3}",
        report.abstention_precision
    );
    assert!(
        report.correct_abstentions >= T5_ABSTENTION_RECALL_FLOOR,
        "abstention recall {:.3}",
        report.correct_abstentions
    );
}
