//! `quoth quarantine`: what could not be read, and why.

use super::output::{print_json, safe_line};
use anyhow::Result;
use quoth::engine::Engine;
use serde_json::json;

pub fn run(engine: &Engine, json: bool) -> Result<i32> {
    let items = engine.store().quarantined()?;
    if json {
        let list: Vec<_> = items
            .iter()
            .map(|q| json!({"source": q.location.describe(), "folder": q.folder, "reason": q.reason, "bytes": q.raw.len()}))
            .collect();
        print_json(&list)?;
        return Ok(0);
    }
    if items.is_empty() {
        outln!("nothing is quarantined");
    }
    for q in &items {
        outln!(
            "{}\n    {} ({} bytes kept)",
            safe_line(&q.location.describe()),
            safe_line(&q.reason),
            q.raw.len()
        );
    }
    Ok(0)
}
