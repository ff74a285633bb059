//! Answer quality with the real engine and model: the committed Enron eval set
//! (tests/answers/enron_eval.jsonl: facts of every question type, follow-ups,
//! corrections, filters, unanswerable near-misses and prompt-injection mail), and the
//! T5 Enron QA set (674 human-written questions about 48 emails, each asked with the
//! scope set to its email).

mod common;

use common::{embed_all, enron_store, ingest, models, open, shared};
use quoth::answer::conversation::Conversation;
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::answer::normalize::normalize;
use quoth::engine::{parse_eval_items, AskOptions};
use std::path::Path;

#[test]
fn the_enron_eval_set_meets_its_targets() {
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
            &ExtractiveAnswerer::default(),
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
    assert!(
        report.citation_accuracy >= CITATION_FLOOR,
        "citation accuracy {:.3}",
        report.citation_accuracy
    );
    assert!(
        report.correct_abstentions >= ABSTENTION_FLOOR,
        "correct abstentions {:.3}",
        report.correct_abstentions
    );
}

/// Floors the suite holds the answer pipeline to, so it cannot get worse unnoticed.
/// The targets are 0.90 each, and both are met (measured: citation accuracy 0.903,
/// 56 of 62; abstention 1.00). The citation floor leaves one item of room, since
/// the vector graph is built in parallel and its neighbours may differ by a rank.
const CITATION_FLOOR: f64 = 0.88;
const ABSTENTION_FLOOR: f64 = 0.90;

#[derive(serde::Deserialize)]
struct T5Question {
    message_id: String,
    question: String,
    is_impossible: bool,
    answers: Vec<T5Answer>,
}

#[derive(serde::Deserialize)]
struct T5Answer {
    text: String,
}

/// Whether an answer's quotes cover a gold span: the span inside a quote, or at least
/// half of the span's words in one.
fn overlaps(quotes: &[String], gold: &str) -> bool {
    let g = normalize(gold);
    let gold_words: Vec<&str> = g.split_whitespace().collect();
    quotes.iter().any(|q| {
        let q = normalize(q);
        if q.contains(&g) || (!q.is_empty() && g.contains(&q)) {
            return true;
        }
        let shared = gold_words
            .iter()
            .filter(|w| q.split_whitespace().any(|x| x == **w))
            .count();
        !gold_words.is_empty() && shared * 2 >= gold_words.len()
    })
}

#[test]
fn t5_enron_questions_scoped_to_their_email() {
    let Some(root) = shared("data/qa/t5-enron") else {
        return;
    };
    if models().is_none() {
        return;
    }
    let questions: Vec<T5Question> = std::fs::read_to_string(root.join("questions.jsonl"))
        .expect("questions")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("question parses"))
        .collect();
    assert_eq!(questions.len(), 674);
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = open(tmp.path());
    let report = ingest(&mut engine, &[root.join("emails")]);
    assert_eq!(report.added + report.already_known, 48, "{report:?}");
    embed_all(&mut engine);

    let answerer = ExtractiveAnswerer::default();
    let (mut answerable, mut correct, mut body_answerable, mut body_correct) = (0, 0, 0, 0);
    let (mut abstained_impossible, mut abstained_possible, mut impossible) = (0, 0, 0);
    let mut latencies = Vec::new();
    for q in &questions {
        let msg = engine
            .find_message(&q.message_id)
            .expect("the question's email is stored");
        let thread = engine
            .thread_of(&msg.key)
            .expect("thread")
            .expect("threaded");
        let opts = AskOptions {
            thread: Some(thread.to_hex()),
            widen: false,
            ..AskOptions::default()
        };
        let t = std::time::Instant::now();
        let o = engine
            .ask(
                &q.question,
                &mut Conversation::default(),
                &answerer,
                &opts,
                &mut |_| {},
            )
            .expect("ask runs");
        latencies.push(t.elapsed().as_secs_f64() * 1000.0);
        let quotes: Vec<String> = o.citations.iter().map(|c| c.quote.clone()).collect();
        if q.is_impossible {
            impossible += 1;
            if o.abstained {
                abstained_impossible += 1;
            }
            continue;
        }
        answerable += 1;
        if o.abstained {
            abstained_possible += 1;
        }
        let hit = q.answers.iter().any(|a| overlaps(&quotes, &a.text));
        if hit {
            correct += 1;
        }
        // Gold spans in the body's text can be quoted; spans in the headers (who sent
        // it, to whom, its subject) cannot, by design.
        let in_body = q
            .answers
            .iter()
            .any(|a| normalize(&msg.body).contains(&normalize(&a.text)));
        if in_body {
            body_answerable += 1;
            if hit {
                body_correct += 1;
            }
        }
    }
    latencies.sort_by(|a, b| a.total_cmp(b));
    let abstentions = abstained_impossible + abstained_possible;
    let precision = abstained_impossible as f64 / abstentions.max(1) as f64;
    let recall = abstained_impossible as f64 / impossible.max(1) as f64;
    eprintln!(
        "T5 Enron: answer accuracy {:.3} ({correct}/{answerable}); on gold spans in the body {:.3} ({body_correct}/{body_answerable}); abstention precision {:.3} ({abstained_impossible}/{abstentions}), recall {:.3} ({abstained_impossible}/{impossible}); p50 {:.0} ms",
        correct as f64 / answerable.max(1) as f64,
        body_correct as f64 / body_answerable.max(1) as f64,
        precision,
        recall,
        latencies[latencies.len() / 2]
    );
    assert_eq!(answerable + impossible, 674);
    // Regression floors under the measured figures (0.153 on body spans, recall 0.99):
    // the extractive answerer is cautious on these generic one-email questions
    // ("What is requested?"), and header answers ("Who sent it?") are never quoted.
    assert!(
        body_correct * 10 >= body_answerable,
        "body-span accuracy under 0.10"
    );
    assert!(recall >= 0.9, "abstention recall {recall:.3}");
    assert!(precision >= 0.15, "abstention precision {precision:.3}");
}
