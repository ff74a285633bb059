//! `quoth bench retrieval`: retrieval quality per mode.

use super::tempfile_dir;
use crate::cli::output::print_json;
use anyhow::{Context, Result};
use quoth::engine::{parse_questions, Engine, ModeScores, RetrievalQuestion, SearchMode};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// The palimpzest task, asked the way a person would.
const FRAUD_QUESTION: &str = "emails that discuss a fraudulent scheme or special purpose entity such as Raptor, Deathstar, Chewco or Fat Boy, not news articles";

const MODES: [SearchMode; 3] = [
    SearchMode::Lexical,
    SearchMode::Semantic,
    SearchMode::Hybrid,
];

pub fn run(
    maildir: Option<PathBuf>,
    questions: Option<PathBuf>,
    palimpzest: Option<PathBuf>,
    work_dir: Option<PathBuf>,
    json: bool,
) -> Result<i32> {
    let work = tempfile_dir(work_dir)?;
    let mut out = json!({});
    if let (Some(maildir), Some(questions)) = (&maildir, &questions) {
        let engine = ready_engine(&work.join("questions"), maildir)?;
        let text = std::fs::read_to_string(questions)
            .with_context(|| format!("reading {}", questions.display()))?;
        let set = parse_questions(&text).map_err(anyhow::Error::msg)?;
        let mut rows = Vec::new();
        for mode in MODES {
            rows.push(engine.evaluate_retrieval(&set, mode, true)?);
        }
        rows.push(engine.evaluate_retrieval(&set, SearchMode::Hybrid, false)?);
        if !json {
            outln!(
                "question set {} ({} questions)",
                questions.display(),
                set.len()
            );
            print_rows(
                &rows,
                &["", "", "hybrid + MaxSim rerank", "hybrid, no rerank"],
            );
        }
        out["questions"] = serde_json::to_value(&rows)?;
    }
    if let Some(pz) = &palimpzest {
        let engine = ready_engine(&work.join("palimpzest"), &pz.join("enron-eval"))?;
        let gold = palimpzest_gold(&pz.join("enron-eval-gold.tsv"))?;
        let q = [RetrievalQuestion {
            id: "fraud".into(),
            question: FRAUD_QUESTION.into(),
            gold_message_ids: gold,
        }];
        let mut rows = Vec::new();
        for mode in MODES {
            rows.push(engine.evaluate_retrieval(&q, mode, false)?);
        }
        rows.push(engine.evaluate_retrieval(&q, SearchMode::Hybrid, true)?);
        let labels = ["lexical", "semantic", "hybrid", "hybrid + MaxSim rerank"];
        if !json {
            outln!(
                "\npalimpzest-enron: \"{FRAUD_QUESTION}\" ({} relevant of 1,000)",
                q[0].gold_message_ids.len()
            );
            outln!("{:<26} {:>12} {:>10}", "mode", "precision@10", "recall@50");
            for (label, r) in labels.iter().zip(&rows) {
                outln!(
                    "{:<26} {:>12.2} {:>10.2}",
                    label,
                    r.precision_at_10,
                    r.recall_at_50
                );
            }
        }
        out["palimpzest"] = serde_json::to_value(&rows)?;
    }
    if json {
        print_json(&out)?;
    }
    Ok(0)
}

fn print_rows(rows: &[ModeScores], labels: &[&str]) {
    outln!(
        "{:<26} {:>9} {:>7} {:>9} {:>10}",
        "mode",
        "recall@5",
        "MRR",
        "evidence",
        "p50 ms"
    );
    for (i, r) in rows.iter().enumerate() {
        let label = labels
            .get(i)
            .filter(|l| !l.is_empty())
            .map(|l| l.to_string())
            .unwrap_or_else(|| format!("{:?}", r.mode).to_lowercase());
        outln!(
            "{:<26} {:>9.3} {:>7.3} {:>9.2} {:>10.1}",
            label,
            r.recall_at_5,
            r.mrr,
            r.evidence_rate,
            r.p50_ms
        );
    }
}

/// Opens (or fills) a store with the mail, embedded.
fn ready_engine(dir: &Path, mail: &Path) -> Result<Engine> {
    let mut engine = super::open_engine(dir)?;
    engine.ingest(&[mail.to_path_buf()], &mut |_| {})?;
    let stop = AtomicBool::new(false);
    engine.embed_pending(&stop, &mut |_| {})?;
    Ok(engine)
}

fn palimpzest_gold(tsv: &Path) -> Result<Vec<String>> {
    let text =
        std::fs::read_to_string(tsv).with_context(|| format!("reading {}", tsv.display()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (label, id) = (
        col("label").context("no label column")?,
        col("message_id").context("no message_id column")?,
    );
    Ok(lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.get(label) == Some(&"1"))
        .filter_map(|f| f.get(id).map(|s| s.to_string()))
        .collect())
}
