//! `quoth bench ask`: warm `ask` latency with the extractive answerer over a question
//! set, on a store that is already ingested and embedded. One pass warms the caches
//! (model, address book, index pages); the next passes are timed.

use crate::cli::output::print_json;
use anyhow::{Context, Result};
use quoth::answer::conversation::Conversation;
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::engine::{parse_eval_items, AskOptions};
use serde_json::json;
use std::path::Path;
use std::time::Instant;

pub fn run(data_dir: &Path, questions: &Path, passes: usize, json: bool) -> Result<i32> {
    let engine =
        super::open_engine(data_dir).with_context(|| format!("opening {}", data_dir.display()))?;
    let text = std::fs::read_to_string(questions)
        .with_context(|| format!("reading {}", questions.display()))?;
    let items = parse_eval_items(&text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let answerer = ExtractiveAnswerer;
    let opts = AskOptions::default();
    let mut timed = Vec::new();
    let mut stage_totals: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    for pass in 0..=passes.max(1) {
        for item in &items {
            let turns: Vec<String> = if item.turns.is_empty() {
                item.question.iter().cloned().collect()
            } else {
                item.turns.clone()
            };
            let mut conversation = Conversation::default();
            for q in turns {
                let t = Instant::now();
                let o = engine.ask(&q, &mut conversation, &answerer, &opts, &mut |_| {})?;
                let ms = t.elapsed().as_secs_f64() * 1000.0;
                if pass > 0 {
                    timed.push(ms);
                    for (stage, v) in o.timings_ms {
                        stage_totals.entry(stage).or_default().push(v);
                    }
                }
            }
        }
    }
    timed.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| timed[((timed.len() as f64 - 1.0) * p).round() as usize];
    let stages: serde_json::Map<String, serde_json::Value> = stage_totals
        .into_iter()
        .map(|(k, mut v)| {
            v.sort_by(|a, b| a.total_cmp(b));
            (k, json!(v[v.len() / 2]))
        })
        .collect();
    let out = json!({
        "messages": engine.store().message_count()?,
        "asks": timed.len(),
        "p50_ms": pct(0.5),
        "p95_ms": pct(0.95),
        "max_ms": pct(1.0),
        "stage_medians_ms": stages,
    });
    if json {
        print_json(&out)?;
    } else {
        outln!(
            "warm ask (extractive) over {} messages: {} asks, p50 {:.0} ms, p95 {:.0} ms, max {:.0} ms",
            out["messages"], out["asks"], pct(0.5), pct(0.95), pct(1.0)
        );
        outln!("stage medians (ms): {}", serde_json::Value::Object(stages));
    }
    Ok(0)
}
