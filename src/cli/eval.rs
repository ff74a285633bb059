//! `quoth eval FILE.jsonl [--llm]`: runs a question set through `ask` and prints the
//! scores (format and metrics: tests/answers/README.md).

use super::output::{print_json, safe_line};
use anyhow::{Context, Result};
use quoth::engine::{parse_eval_items, EvalReport, ItemResult};
use quoth::serve::client::Client;
use quoth::serve::protocol::{EventKind, Op};
use std::path::Path;

pub fn run(client: &mut Client, file: &Path, llm: bool, verbose: bool, json: bool) -> Result<i32> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let items = parse_eval_items(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let value = client.call(Op::Eval { items, llm }, &mut |e| {
        if !verbose || json || e.kind != EventKind::Progress {
            return;
        }
        let Ok(r) = serde_json::from_str::<ItemResult>(&e.text) else {
            return;
        };
        let mark = match (r.kind.as_str(), r.abstained) {
            ("abstain", true) => "ok  ",
            ("abstain", false) => "MISS",
            (_, true) => "ABST",
            _ if r.cited_gold => "ok  ",
            _ => "MISS",
        };
        eprintln!(
            "{mark} {:>4} {:<11} {}",
            r.id,
            r.kind,
            safe_line(&r.question)
        );
        if let Some(a) = &r.answer {
            eprintln!("          → {}", safe_line(a));
        } else if let Some(why) = &r.abstain_reason {
            eprintln!("          ∅ {}", safe_line(why));
        }
    })?;
    let report: EvalReport = serde_json::from_value(value)?;
    if json {
        print_json(&report)?;
        return Ok(0);
    }
    let pct = |x: f64| format!("{:.1}%", x * 100.0);
    outln!(
        "items                 {} ({} answerable, {} unanswerable)",
        report.items,
        report.answerable,
        report.unanswerable
    );
    outln!("citation accuracy     {}", pct(report.citation_accuracy));
    outln!("answer accuracy       {}", pct(report.answer_accuracy));
    outln!(
        "short answer holds it {} (one given for {})",
        pct(report.short_answer_accuracy),
        pct(report.short_answer_given)
    );
    outln!("correct abstentions   {}", pct(report.correct_abstentions));
    outln!("abstention precision  {}", pct(report.abstention_precision));
    outln!("false abstentions     {}", pct(report.false_abstentions));
    outln!(
        "markers leaked        {} of {}",
        report.markers_leaked,
        report.adversarial
    );
    outln!("quotes verbatim       {}", pct(report.verbatim_share));
    outln!(
        "latency p50 / p95     {:.0} ms / {:.0} ms",
        report.latency_p50_ms,
        report.latency_p95_ms
    );
    Ok(0)
}
