//! `quoth stats`

use super::output::print_json;
use anyhow::Result;
use quoth::engine::Stats;

pub fn run(s: &Stats, json: bool) -> Result<i32> {
    if json {
        print_json(&s)?;
        return Ok(0);
    }
    outln!("messages     {}", s.messages);
    outln!("threads      {}", s.threads);
    outln!("chunks       {}", s.chunks);
    outln!("quarantined  {}", s.quarantined);
    let a = &s.attachments;
    let statuses: Vec<String> = a
        .by_status
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    outln!(
        "attachments  {} read ({}), {} pages ({} by OCR), {} chunks, {} pending, {} failed",
        a.extracted,
        statuses.join(", "),
        a.pages,
        a.ocr_pages,
        a.chunks,
        a.pending,
        a.failed
    );
    outln!("lost         {}", s.lost);
    outln!("source files {}", s.source_files);
    outln!("store        {:.1} MB", s.store_bytes as f64 / 1e6);
    outln!(
        "lexical      {:.1} MB, {} documents",
        s.lexical_bytes as f64 / 1e6,
        s.lexical_docs
    );
    Ok(0)
}
