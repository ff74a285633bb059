//! `quoth ingest PATH...`

use super::output::{print_json, safe_line};
use anyhow::{Context, Result};
use quoth::engine::StatusReport;
use quoth::serve::client::Client;
use quoth::serve::lifetime::ServerState;
use quoth::serve::protocol::{EventKind, Op};
use std::io::IsTerminal;
use std::path::PathBuf;

fn print_report(report: &quoth::engine::IngestReport) {
    outln!(
        "{} files ({} unchanged, {} read): {} messages read, {} added, {} already known, {} quarantined",
        report.files_found,
        report.files_unchanged,
        report.files_read,
        report.messages_read,
        report.added,
        report.already_known,
        report.quarantined
    );
    outln!(
        "{} threads; {} documents indexed ({} rethreaded) in {:.2} s",
        report.threads,
        report.indexed,
        report.rethreaded,
        report.seconds
    );
    if report.quarantined > 0 {
        outln!("see `quoth quarantine` for the messages that could not be read");
    }
    for (path, why) in &report.file_errors {
        outln!("could not read {}: {}", safe_line(path), safe_line(why));
    }
}

/// `quoth embed`: runs the pending attachment and embedding jobs.
/// Ingests through the data directory's server (paths made absolute: the server
/// may run elsewhere in the file system). A UI or a foreground server is handed the
/// work and shows it; a background server, which nobody watches, ingests while this
/// command shows the progress and report as an ingest in this process would, then
/// runs the attachment and embedding jobs while this command waits.
pub fn run(client: &mut Client, paths: &[PathBuf], then_embed: bool, json: bool) -> Result<i32> {
    let mut absolute = Vec::new();
    for p in paths {
        let p = std::path::absolute(p).with_context(|| format!("resolving {}", p.display()))?;
        absolute.push(p.to_string_lossy().into_owned());
    }
    let wait = client.greeting.background;
    let live = std::io::stderr().is_terminal() && !json;
    let value = client.call(
        Op::Ingest {
            paths: absolute,
            embed: then_embed,
            wait,
        },
        &mut |e| match e.kind {
            EventKind::Note if !json => eprintln!("note: {}", safe_line(&e.text)),
            EventKind::Progress if live => eprint!("\r{}   ", safe_line(&e.text)),
            _ => {}
        },
    )?;
    if !wait {
        if json {
            print_json(&value)?;
        } else {
            outln!("handed to the running Quoth (its UI or `quoth serve`): `quoth status` shows the progress");
        }
        return Ok(0);
    }
    if live {
        eprintln!();
    }
    let report: quoth::engine::IngestReport = serde_json::from_value(value.clone())?;
    if !json {
        print_report(&report);
    }
    let status = if then_embed {
        Some(wait_for_background_work(client, json)?)
    } else {
        None
    };
    if json {
        let mut value = value;
        value["status"] = serde_json::to_value(status)?;
        print_json(&value)?;
    }
    Ok(0)
}

/// Waits until the server's background work (attachments, embedding) has ended,
/// with a progress line on a terminal; returns the status it ended with.
pub fn wait_for_background_work(client: &mut Client, json: bool) -> Result<StatusReport> {
    let live = std::io::stderr().is_terminal() && !json;
    let mut shown = false;
    loop {
        let value = client.call(Op::Status, &mut |_| {})?;
        print_notes(&value);
        let status: StatusReport = serde_json::from_value(value)?;
        if !status.background_work {
            if shown {
                eprintln!();
            }
            if !json {
                let p = &status.embedding;
                outln!(
                    "embedding: {} of {} texts done, {} failed",
                    p.done,
                    p.total,
                    p.failed
                );
            }
            return Ok(status);
        }
        if live {
            let p = &status.embedding;
            eprint!("\rembedding: {}/{}   ", p.done, p.total);
            shown = true;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
}

/// `quoth embed`: the embedding jobs, run by the data directory's server; a
/// background server's work is watched to its end, as nobody else watches it.
pub fn embed(client: &mut Client, json: bool) -> Result<i32> {
    let v = client.call(Op::Embed, &mut |_| {})?;
    if client.greeting.background {
        let status = wait_for_background_work(client, json)?;
        if json {
            print_json(&status)?;
        }
    } else if json {
        print_json(&v)?;
    } else {
        outln!("handed to the running Quoth: `quoth status` shows the progress");
    }
    Ok(0)
}

/// The server's notes in a status (see [`quoth::serve::api`]), on stderr.
fn print_notes(status: &serde_json::Value) {
    let notes = status.get("notes").and_then(|n| n.as_array());
    for note in notes.into_iter().flatten().filter_map(|n| n.as_str()) {
        eprintln!("note: {}", safe_line(note));
    }
}

/// `quoth status` through a running server: the work of its store, and the server.
pub fn status_of_server(value: serde_json::Value, json: bool) -> Result<i32> {
    if json {
        print_json(&value)?;
        return Ok(0);
    }
    print_notes(&value);
    let server: Option<ServerState> = value
        .get("server")
        .and_then(|s| serde_json::from_value(s.clone()).ok());
    status(&serde_json::from_value(value)?, false)?;
    if let Some(s) = server {
        let kind = if s.background {
            "background"
        } else {
            "foreground"
        };
        let work = if s.working {
            "background work in hand"
        } else {
            "no background work"
        };
        let watch = if s.watching {
            ", watching IMAP accounts"
        } else {
            ""
        };
        outln!(
            "server: process {}, {kind}, up {}, {} {} connected ({} UI{} attached), {work}{watch}",
            s.pid,
            uptime(s.uptime_secs),
            s.clients,
            if s.clients == 1 { "client" } else { "clients" },
            s.attached,
            if s.attached == 1 { "" } else { "s" }
        );
    }
    Ok(0)
}

/// An uptime as people say it: seconds, minutes, hours.
fn uptime(secs: u64) -> String {
    match secs {
        0..=119 => format!("{secs} s"),
        120..=7199 => format!("{} min", secs / 60),
        _ => format!("{} h {} min", secs / 3600, secs % 3600 / 60),
    }
}
/// `quoth status`
fn status(report: &StatusReport, json: bool) -> Result<i32> {
    let (p, a, gaps) = (&report.embedding, &report.attachments, &report.missing);
    if json {
        print_json(report)?;
    } else {
        outln!(
            "attachments: {} read, {} pending, {} failed",
            a.done,
            a.pending + a.running,
            a.failed
        );
        outln!(
            "embedding: {} of {} texts done, {} pending, {} failed; {} vectors",
            p.done,
            p.total,
            p.total - p.done - p.failed,
            p.failed,
            report.vectors
        );
        if !gaps.is_empty() {
            outln!(
                "missing: {} texts without a vector or an embedding job, {} attachments without text or a job; `quoth embed` queues and runs them",
                gaps.texts_without_vector_or_job,
                gaps.attachments_without_text_or_job
            );
        }
    }
    Ok(0)
}
