//! `quoth move QUERY --to archive|trash|FOLDER`: the mail a search matches moved
//! to a folder, as `A`, `d` and `M` move it in the UI; `quoth expunge`: the trash
//! emptied for good.

use super::output::{bad_query, print_json, safe_line};
use anyhow::{Context, Result};
use quoth::engine::mailbox::expunge::ExpungeReport;
use quoth::engine::mailbox::moves::MoveReport;
use quoth::serve::client::{Client, ClientError};
use quoth::serve::protocol::{ErrorKind, Op};

/// Moves through the data directory's server (an open UI follows at once).
pub fn run(client: &mut Client, query: &str, to: &str, limit: usize, json: bool) -> Result<i32> {
    let op = Op::Move {
        query: query.to_string(),
        to: to.to_string(),
        limit: Some(limit),
    };
    match client.call(op, &mut |_| {}) {
        Ok(v) => print(
            &serde_json::from_value(v).context("reading the server's move report")?,
            json,
        ),
        Err(ClientError::Api(e)) if e.kind == ErrorKind::Query => {
            Ok(bad_query(&e.message, e.caret.as_deref()))
        }
        Err(e) => Err(e.into()),
    }
}

fn print(report: &MoveReport, json: bool) -> Result<i32> {
    if json {
        print_json(report)?;
    } else {
        let to = if report.to_folders.is_empty() {
            String::new()
        } else {
            format!(" to {}", safe_line(&report.to_folders.join(", ")))
        };
        outln!(
            "moved {} of {} matching emails{to}; {} already there, {} failed",
            report.moved,
            report.matched,
            report.already_there,
            report.failed.len()
        );
        if !report.to_servers.is_empty() {
            outln!(
                "the next sync tells the server of {}",
                safe_line(&report.to_servers.join(", "))
            );
        }
        for f in &report.failed {
            eprintln!(
                "not moved: {}: {}",
                safe_line(f.message_id.as_deref().unwrap_or(&f.key)),
                safe_line(&f.error)
            );
        }
    }
    Ok(if report.failed.is_empty() { 0 } else { 1 })
}

pub fn expunge(client: &mut Client, confirm: bool, json: bool) -> Result<i32> {
    let v = client.call(Op::Expunge { confirm }, &mut |_| {})?;
    print_expunge(
        &serde_json::from_value(v).context("reading the server's expunge report")?,
        json,
    )
}

fn print_expunge(report: &ExpungeReport, json: bool) -> Result<i32> {
    if json {
        print_json(report)?;
        return Ok(0);
    }
    let folders = report.folders.join(", ");
    let folders = safe_line(&folders);
    match (report.done, report.removed) {
        (_, 0) => outln!("the trash is empty"),
        (true, n) => outln!("deleted {n} emails from {folders} for good"),
        (false, n) => {
            outln!(
                "{n} emails in {folders} would be deleted for good: `quoth expunge --yes` does it"
            )
        }
    }
    if report.left > 0 {
        outln!(
            "{} emails in the trash of mbox files stay where they are",
            report.left
        );
    }
    if report.done && !report.to_servers.is_empty() {
        outln!(
            "the next sync expunges the trash on the server of {}",
            safe_line(&report.to_servers.join(", "))
        );
    }
    Ok(0)
}
