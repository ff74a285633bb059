//! `quoth bench selector` writes the trees' training data: every candidate of every
//! try with its features and label, and what the reader made of the trees' best.
//! With `--no-reader` the same candidates and features come out without the reader's
//! logits (the trees' training reads none).

mod common;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn dump(data: &Path, questions: &Path, out: &Path, extra: &[&str]) -> Vec<Value> {
    let status = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .env("QUOTH_INLINE", "1")
        .arg("--data-dir")
        .arg(data)
        .args(["bench", "selector", "--set", "invented", "--split", "dev"])
        .arg("--store")
        .arg(data)
        .arg("--questions")
        .arg(questions)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("quoth runs");
    assert!(
        status.status.success(),
        "bench selector failed: {}",
        String::from_utf8_lossy(&status.stderr)
    );
    std::fs::read_to_string(out)
        .expect("the dump is written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn features(candidate: &Value) -> Vec<f64> {
    candidate["x"]
        .as_array()
        .expect("features")
        .iter()
        .map(|v| v.as_f64().expect("a number"))
        .collect()
}

fn candidates(line: &Value) -> &Vec<Value> {
    line["candidates"].as_array().expect("candidates")
}

#[test]
fn a_dump_without_the_reader_keeps_every_candidate_and_feature() {
    let mail = common::team_mail(
        "dump",
        &[
            (
                "Boat trip",
                "Ada Lovelace <ada@example.org>",
                "The ferry to the island leaves the harbour at 9:30 on Saturday.\n\
                 Bring a jacket, the crossing is cold.\n\nAda",
            ),
            (
                "Lunch on the island",
                "Bob Marsh <bob@example.org>",
                "I booked a table for eight at the fish place by the lighthouse.\n\
                 They close the kitchen at three.\n\nBob",
            ),
        ],
    );
    let Some((tmp, engine)) = common::engine_on(&mail) else {
        return;
    };
    drop(engine);
    let questions = tmp.path().join("questions.jsonl");
    let items = [
        serde_json::json!({"id": "q1", "kind": "fact", "question": "when does the ferry leave?",
            "gold_message_ids": ["dump-0@example.org"], "answer_any": ["9:30"]}),
        serde_json::json!({"id": "q2", "kind": "abstain", "question": "how much is a ferry ticket?"}),
    ];
    let text: Vec<String> = items.iter().map(|i| i.to_string()).collect();
    std::fs::write(&questions, text.join("\n") + "\n").expect("write questions");
    let data = tmp.path().join("data");
    let with = dump(&data, &questions, &tmp.path().join("with.jsonl"), &[]);
    let without = dump(
        &data,
        &questions,
        &tmp.path().join("without.jsonl"),
        &["--no-reader"],
    );

    assert_eq!(with.len(), 2);
    assert_eq!(without.len(), 2);
    let read = |lines: &[Value]| {
        lines
            .iter()
            .flat_map(candidates)
            .filter(|c| !c["reader"].is_null())
            .count()
    };
    assert!(
        read(&with) > 0,
        "the reader reads the trees' best sentences"
    );
    assert_eq!(read(&without), 0, "--no-reader runs no reader");
    for (a, b) in with.iter().zip(&without) {
        assert_eq!(a["id"], b["id"]);
        let (ca, cb) = (candidates(a), candidates(b));
        assert!(!ca.is_empty(), "{}: candidates are dumped", a["id"]);
        assert_eq!(ca.len(), cb.len(), "{}: the same candidates", a["id"]);
        for (x, y) in ca.iter().zip(cb) {
            assert_eq!(x["text"], y["text"]);
            assert_eq!(x["label"], y["label"]);
            let (fx, fy) = (features(x), features(y));
            assert_eq!(fx.len(), fy.len());
            assert!(
                fx.iter().zip(&fy).all(|(u, v)| (u - v).abs() < 1e-4),
                "{}: the same features",
                x["text"]
            );
            // What the reader would read is still written, for training it.
            assert_eq!(x["read"], y["read"]);
        }
    }
    let answering = with
        .iter()
        .flat_map(candidates)
        .filter(|c| c["label"] == serde_json::json!(1))
        .count();
    assert!(
        answering > 0,
        "the sentence with 9:30 is labelled as answering"
    );
}
