//! `quoth bench state`: what mail state costs on a store. A flag change until a
//! count of `is:flagged` sees it, a tag change until `tag:` sees it (each on 50
//! messages spread over the store, then undone), and counting ten saved views
//! (each with its unread count) as the folder list does when it opens.
//!
//! The flags are set and cleared again on the mail's own files (a Maildir file is
//! renamed twice); run it on a copy of a store you care about.

use crate::cli::output::print_json;
use anyhow::{Context, Result};
use quoth::engine::mailbox::tagging::TagTarget;
use quoth::mail::model::MessageKey;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

const PROBES: usize = 50;
const PROBE_TAG: &str = "quoth-bench-probe";

/// Ten views a user might keep, as `[[views]]` queries.
const VIEWS: [&str; 10] = [
    "is:unread",
    "is:flagged",
    "is:replied",
    "has:attachment",
    "date:30d..",
    "tag:work",
    "is:draft",
    "is:unread has:attachment",
    "tag:later OR is:flagged",
    "-is:trashed date:2001",
];

pub(super) fn median_p95(mut v: Vec<f64>) -> (f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0);
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
    (at(0.5), at(0.95))
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

pub fn run(data_dir: &Path, json: bool) -> Result<i32> {
    let engine =
        super::open_engine(data_dir).with_context(|| format!("opening {}", data_dir.display()))?;
    let now = chrono::Utc::now().timestamp();
    let total = engine.store().message_count()?;
    // The views counted right after the store opens, as a front end's folder list
    // does at start, before anything else has read the sets.
    let mut per_view: Vec<Vec<f64>> = vec![Vec::new(); VIEWS.len()];
    let mut count_views = || -> Result<f64> {
        let t = Instant::now();
        for (i, q) in VIEWS.iter().enumerate() {
            let v = Instant::now();
            engine.count(q, now)?;
            engine.count(&format!("({q}) AND is:unread"), now)?;
            per_view[i].push(ms(v));
        }
        Ok(ms(t))
    };
    let first_views = count_views()?;

    let step = (total / PROBES).max(1);
    let probes: Vec<(MessageKey, bool)> = engine
        .store()
        .messages()
        .step_by(step)
        .take(PROBES)
        .filter_map(|m| m.ok())
        .map(|m| (m.key, m.flags.contains('F')))
        .collect();

    let mut flag_ms = Vec::new();
    for (key, was) in &probes {
        let before = engine.count("is:flagged", now)?;
        let t = Instant::now();
        engine.set_flag(key, 'F', !was)?;
        let after = engine.count("is:flagged", now)?;
        flag_ms.push(ms(t));
        anyhow::ensure!(after != before, "a flag change did not reach the count");
        engine.set_flag(key, 'F', *was)?;
    }

    let mut tag_ms = Vec::new();
    let tag = vec![PROBE_TAG.to_string()];
    let query = format!("tag:{PROBE_TAG}");
    for (key, _) in &probes {
        let t = Instant::now();
        engine.tag_target(&TagTarget::Message(*key), &tag, &[])?;
        let seen = engine.count(&query, now)?;
        tag_ms.push(ms(t));
        anyhow::ensure!(seen >= 1, "a tag did not reach the count");
        engine.tag_target(&TagTarget::Message(*key), &[], &tag)?;
    }

    let mut views_ms = Vec::new();
    for _ in 0..20 {
        views_ms.push(count_views()?);
    }
    let per_view: Vec<(&str, f64)> = VIEWS
        .iter()
        .zip(per_view)
        .map(|(q, v)| (*q, median_p95(v).0))
        .collect();

    let (flag50, flag95) = median_p95(flag_ms);
    let (tag50, tag95) = median_p95(tag_ms);
    let (views50, views95) = median_p95(views_ms);
    let out = json!({
        "messages": total,
        "probes": probes.len(),
        "flag_to_count_ms": { "p50": flag50, "p95": flag95 },
        "tag_to_count_ms": { "p50": tag50, "p95": tag95 },
        "ten_views_counted_ms": { "first": first_views, "p50": views50, "p95": views95 },
        "view_p50_ms": per_view.iter().map(|(q, m)| json!({ "query": q, "p50": m })).collect::<Vec<_>>(),
    });
    if json {
        print_json(&out)?;
    } else {
        outln!("store: {total} messages, {} probes", probes.len());
        outln!("flag change to counted:  p50 {flag50:.1} ms  p95 {flag95:.1} ms");
        outln!("tag change to counted:   p50 {tag50:.1} ms  p95 {tag95:.1} ms");
        outln!(
            "10 views + unread counts: first {first_views:.1} ms  p50 {views50:.1} ms  p95 {views95:.1} ms"
        );
        for (q, m) in &per_view {
            outln!("  {m:>8.1} ms  {q}");
        }
    }
    Ok(0)
}
