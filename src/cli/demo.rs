//! `quoth demo`: ingest the demo mailbox that ships with Quoth and search it.

use super::output::{date, fit, highlight, print_json, use_color};
use anyhow::{Context, Result};
use quoth::engine::{AskOutcome, IngestReport, Retrieval, Stats};
use quoth::serve::protocol::Op;
use serde_json::json;
use std::path::PathBuf;

/// Questions whose answers are only in attachments: a PDF (cited by page), a
/// spreadsheet (by sheet and row) and an invitation (by event).
const QUESTIONS: &[&str] = &[
    "How much does consolidating backups with Cobalt save a year?",
    "What is the salary budget for the support analyst?",
    "When is the Q2 all-hands?",
];

/// Searches that show what the query language and hybrid retrieval do on the demo
/// mailbox (Dana never writes "leak": meaning finds her water-damage report).
const EXAMPLES: &[&str] = &[
    "who is fixing the roof leak",
    "strike price",
    "from:dana \"water damage\"",
    "\"board meeting\" date:2024-03-01..2024-03-31",
    "has:attachment",
    "budget AND NOT folder:sent",
];

pub fn demo_mailbox() -> PathBuf {
    std::env::var_os("QUOTH_DEMO_MAILBOX")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/demo-mailbox")
        })
}

/// The demo's own copy of the demo mailbox, in its data dir, made on first use: the
/// demo reads and flags mail like any mailbox, and the shipped one stays as shipped.
pub fn demo_mailbox_copy(data_dir: &std::path::Path) -> Result<PathBuf> {
    let shipped = demo_mailbox();
    anyhow::ensure!(
        shipped.is_dir(),
        "the demo mailbox is missing at {}",
        shipped.display()
    );
    let copy = data_dir.join("demo-mailbox");
    if !copy.is_dir() {
        let partial = data_dir.join("demo-mailbox.partial");
        let _ = std::fs::remove_dir_all(&partial);
        copy_tree(&shipped, &partial)
            .with_context(|| format!("copying the demo mailbox into {}", data_dir.display()))?;
        std::fs::rename(&partial, &copy)?;
    }
    Ok(copy)
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
            std::fs::set_permissions(&target, std::os::unix::fs::PermissionsExt::from_mode(0o600))?;
        }
    }
    Ok(())
}

/// A demo data dir made before the demo kept its own copy of the mailbox holds mail
/// that points at the shipped files, which reading (marking read, archiving) would
/// change. It is moved aside, as nothing in it is the user's own mail, and the demo
/// starts afresh; returns where it went.
pub fn retire_shared_demo_store(data_dir: &std::path::Path) -> Result<Option<PathBuf>> {
    if !data_dir.join("store").is_dir() || data_dir.join("demo-mailbox").is_dir() {
        return Ok(None);
    }
    let name = data_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "quoth-demo".into());
    let stamp = chrono::Utc::now().format("%Y%m%d%H%M%S");
    let aside = data_dir.with_file_name(format!("{name}.before-own-copy-{stamp}"));
    std::fs::rename(data_dir, &aside)
        .with_context(|| format!("moving the old demo data aside to {}", aside.display()))?;
    Ok(Some(aside))
}

/// The demo's data dir: the one given, else `quoth-demo` in the XDG data dir.
pub fn demo_data_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    match given {
        Some(d) => Ok(d),
        None => dirs::data_dir()
            .map(|d| d.join("quoth-demo"))
            .context("no data directory: pass --data-dir"),
    }
}

pub fn run(data_dir: Option<PathBuf>, json: bool) -> Result<i32> {
    let data_dir = demo_data_dir(data_dir)?;
    if let Some(aside) = retire_shared_demo_store(&data_dir)? {
        eprintln!("note: the earlier demo data is kept at {}", aside.display());
    }
    // Through the data directory's server, as every command that reads mail.
    let mut client = super::connect(&data_dir)?;
    let mailbox = demo_mailbox_copy(&data_dir)?;
    let ingest = Op::Ingest {
        paths: vec![std::path::absolute(&mailbox)?
            .to_string_lossy()
            .into_owned()],
        embed: true,
        wait: true,
    };
    let report: IngestReport = serde_json::from_value(client.call(ingest, &mut |_| {})?)?;
    // Attachments and embedding, which the searches and the question below use.
    let status = super::ingest::wait_for_background_work(&mut client, true)?;
    let stats: Stats = serde_json::from_value(client.call(Op::Stats, &mut |_| {})?)?;
    let mut results = Vec::new();
    for q in EXAMPLES {
        let search = Op::Search {
            query: q.to_string(),
            mode: Some("hybrid".into()),
            limit: Some(3),
            rerank: true,
        };
        let r: Retrieval = serde_json::from_value(client.call(search, &mut |_| {})?)?;
        results.push((q, r.hits.into_iter().map(|h| h.hit).collect::<Vec<_>>()));
    }
    if json {
        let searches: Vec<_> = results
            .iter()
            .map(|(q, hits)| json!({"query": q, "hits": hits}))
            .collect();
        print_json(&json!({"ingest": report, "stats": stats, "searches": searches}))?;
        return Ok(0);
    }
    outln!(
        "Demo mailbox {}: {} messages in {} threads ({} added now), data in {}",
        mailbox.display(),
        stats.messages,
        stats.threads,
        report.added,
        data_dir.display()
    );
    let color = use_color();
    for (q, hits) in &results {
        outln!("\n$ quoth search '{q}'");
        for h in hits {
            outln!(
                "  {}  {}  {}",
                date(h.date),
                fit(&h.from, 20),
                fit(&h.subject, 44)
            );
            outln!("      {}", highlight(&h.snippet, &h.highlights, color));
        }
        if hits.is_empty() {
            outln!("  no messages match");
        }
    }
    for question in QUESTIONS.iter().filter(|_| status.embedding.done > 0) {
        outln!("\n$ quoth ask '{question}'");
        let ask = Op::Ask {
            question: question.to_string(),
            thread: None,
            widen: false,
            session: None,
            llm: false,
        };
        let outcome: AskOutcome = serde_json::from_value(client.call(ask, &mut |_| {})?)?;
        super::ask::print_text(&outcome);
    }
    outln!(
        "\nTry your own: quoth --data-dir {} search 'QUERY'",
        data_dir.display()
    );
    Ok(0)
}
