//! `quoth eval FILE.jsonl [--llm]`: runs a question set through `ask` and prints the
//! scores (format and metrics: tests/answers/README.md).

use super::ask::answerer;
use super::output::print_json;
use anyhow::{Context, Result};
use quoth::engine::{parse_eval_items, AskOptions, Engine};
use std::path::Path;

pub fn run(engine: &Engine, file: &Path, llm: bool, verbose: bool, json: bool) -> Result<i32> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let items = parse_eval_items(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let answerer = answerer(llm)?;
    let report = engine.run_eval(
        &items,
        answerer.as_ref(),
        &AskOptions::default(),
        &mut |r| {
            if verbose && !json {
                let mark = match (r.kind.as_str(), r.abstained) {
                    ("abstain", true) => "ok  ",
                    ("abstain", false) => "MISS",
                    (_, true) => "ABST",
                    _ if r.cited_gold => "ok  ",
                    _ => "MISS",
                };
                eprintln!("{mark} {:>4} {:<11} {}", r.id, r.kind, r.question);
                if let Some(a) = &r.answer {
                    eprintln!("          → {}", a.replace('\n', " "));
                }
            }
        },
    )?;
    if json {
        print_json(&report)?;
        return Ok(0);
    }
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    println!(
        "items                 {} ({} answerable, {} unanswerable)",
        report.items, report.answerable, report.unanswerable
    );
    println!("citation accuracy     {}", pct(report.citation_accuracy));
    println!("answer accuracy       {}", pct(report.answer_accuracy));
    println!("correct abstentions   {}", pct(report.correct_abstentions));
    println!("false abstentions     {}", pct(report.false_abstentions));
    println!(
        "markers leaked        {} of {}",
        report.markers_leaked, report.adversarial
    );
    println!("quotes verbatim       {}", pct(report.verbatim_share));
    println!(
        "latency p50 / p95     {:.0} ms / {:.0} ms",
        report.latency_p50_ms, report.latency_p95_ms
    );
    Ok(0)
}
