//! `quoth ingest PATH...`

use super::output::{print_json, safe_line};
use anyhow::{Context, Result};
use quoth::engine::{EmbedProgress, Engine, IngestPhase, IngestProgress, StatusReport};
use quoth::serve::client::Client;
use quoth::serve::lifetime::ServerState;
use quoth::serve::protocol::{EventKind, Op};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

pub fn run(engine: &mut Engine, paths: &[PathBuf], then_embed: bool, json: bool) -> Result<i32> {
    let live = std::io::stderr().is_terminal() && !json;
    let mut last_phase = None;
    let mut progress = |p: &IngestProgress| {
        if !live {
            return;
        }
        let mut err = std::io::stderr();
        if last_phase != Some(p.phase) && last_phase.is_some() {
            let _ = writeln!(err);
        }
        last_phase = Some(p.phase);
        let _ = match p.phase {
            IngestPhase::Done => writeln!(err),
            phase => write!(err, "\r{phase:?}: {}/{}   ", p.done, p.total),
        };
    };
    let report = engine.ingest(paths, &mut progress)?;
    if !json {
        print_report(&report);
    }
    let (attachments, embedding) = if then_embed {
        (
            Some(super::attachments::extract(engine, json)?),
            embed_quietly(engine, json)?,
        )
    } else {
        (None, None)
    };
    if json {
        let mut value = serde_json::to_value(&report)?;
        value["attachments"] = serde_json::to_value(&attachments)?;
        value["embedding"] = serde_json::to_value(&embedding)?;
        print_json(&value)?;
    }
    Ok(0)
}

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
pub fn run_remote(
    client: &mut Client,
    paths: &[PathBuf],
    then_embed: bool,
    json: bool,
) -> Result<i32> {
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
        let status: StatusReport = serde_json::from_value(client.call(Op::Status, &mut |_| {})?)?;
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

pub fn embed(engine: &mut Engine, json: bool) -> Result<i32> {
    engine.reconcile_derived_work()?;
    super::attachments::extract(engine, json)?;
    if let Some(report) = embed_quietly(engine, json)? {
        if json {
            print_json(&report)?;
        }
    }
    Ok(0)
}

/// Runs the pending embedding jobs with a progress line (text mode); a kill leaves the
/// rest for the next run. Without the model it says how to fetch it and returns None.
fn embed_quietly(engine: &mut Engine, json: bool) -> Result<Option<quoth::engine::EmbedReport>> {
    if let Err(e) = engine.embedder() {
        eprintln!("note: {e}");
        return Ok(None);
    }
    let live = std::io::stderr().is_terminal() && !json;
    let stop = AtomicBool::new(false);
    let report = engine.embed_pending(&stop, &mut |p: &EmbedProgress| {
        if live {
            let eta = p.eta_seconds.map_or("-".into(), |s| format!("{s:.0} s"));
            eprint!(
                "\rembedding: {}/{} texts, {:.0}/s, ETA {eta}   ",
                p.done, p.total, p.rate
            );
        }
    })?;
    if live {
        eprintln!();
    }
    if !json {
        outln!(
            "embedded {} texts in {:.1} s ({:.1}/s); {} of {} done, {} failed",
            report.embedded,
            report.seconds,
            report.progress.rate,
            report.progress.done,
            report.progress.total,
            report.progress.failed
        );
    }
    Ok(Some(report))
}

/// `quoth status` through a running server: the work of its store, and the server.
pub fn status_of_server(value: serde_json::Value, json: bool) -> Result<i32> {
    if json {
        print_json(&value)?;
        return Ok(0);
    }
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
        outln!(
            "server: process {}, {kind}, up {}, {} {} connected ({} UI{} attached), {work}",
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
pub fn status(report: &StatusReport, json: bool) -> Result<i32> {
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
