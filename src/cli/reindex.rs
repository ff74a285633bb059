//! `quoth reindex`: rebuild the tantivy index from sled.

use super::output::print_json;
use anyhow::Result;
use quoth::engine::Engine;
use serde_json::json;

pub fn run(engine: &mut Engine, json: bool) -> Result<i32> {
    let started = std::time::Instant::now();
    let n = engine.reindex(&mut |_, _| {})?;
    let secs = started.elapsed().as_secs_f64();
    if json {
        print_json(&json!({"indexed": n, "seconds": secs}))?;
    } else {
        println!("reindexed {n} messages in {secs:.2} s");
    }
    Ok(0)
}
