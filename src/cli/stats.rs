//! `quoth stats`

use super::output::print_json;
use anyhow::Result;
use quoth::engine::Engine;

pub fn run(engine: &Engine, json: bool) -> Result<i32> {
    let s = engine.stats()?;
    if json {
        print_json(&s)?;
        return Ok(0);
    }
    println!("messages     {}", s.messages);
    println!("threads      {}", s.threads);
    println!("chunks       {}", s.chunks);
    println!("quarantined  {}", s.quarantined);
    let a = &s.attachments;
    let statuses: Vec<String> = a
        .by_status
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    println!(
        "attachments  {} read ({}), {} pages ({} by OCR), {} chunks, {} pending, {} failed",
        a.extracted,
        statuses.join(", "),
        a.pages,
        a.ocr_pages,
        a.chunks,
        a.pending,
        a.failed
    );
    println!("lost         {}", s.lost);
    println!("source files {}", s.source_files);
    println!("store        {:.1} MB", s.store_bytes as f64 / 1e6);
    println!(
        "lexical      {:.1} MB, {} documents",
        s.lexical_bytes as f64 / 1e6,
        s.lexical_docs
    );
    Ok(0)
}
