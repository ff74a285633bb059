//! `quoth search QUERY`

use super::output::{date, fit, highlight, print_json, use_color};
use anyhow::Result;
use quoth::engine::{Engine, EngineError};

pub fn run(engine: &Engine, query: &str, limit: usize, json: bool) -> Result<i32> {
    let now = chrono::Utc::now().timestamp();
    let hits = match engine.search(query, limit, now) {
        Ok(hits) => hits,
        Err(EngineError::Query(e)) => {
            eprintln!("error: invalid query: {e}");
            eprintln!("{}", e.caret(query));
            return Ok(2);
        }
        Err(e) => return Err(e.into()),
    };
    if json {
        print_json(&hits)?;
        return Ok(0);
    }
    if hits.is_empty() {
        println!("no messages match");
        return Ok(0);
    }
    let color = use_color();
    for hit in &hits {
        println!(
            "{}  {}  {}  thread:{}",
            date(hit.date),
            fit(&hit.from, 22),
            fit(&hit.subject, 48),
            hit.thread_id
        );
        println!("    {}", highlight(&hit.snippet, &hit.highlights, color));
        println!(
            "    id:{}  key:{}",
            hit.message_id.as_deref().unwrap_or("-"),
            &hit.key
        );
    }
    Ok(0)
}
