//! `quoth ingest PATH...`

use super::output::print_json;
use anyhow::Result;
use quoth::engine::{Engine, IngestPhase, IngestProgress};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

pub fn run(engine: &mut Engine, paths: &[PathBuf], json: bool) -> Result<i32> {
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
    if json {
        print_json(&report)?;
        return Ok(0);
    }
    println!(
        "{} files ({} unchanged, {} read): {} messages read, {} added, {} already known, {} quarantined",
        report.files_found,
        report.files_unchanged,
        report.files_read,
        report.messages_read,
        report.added,
        report.already_known,
        report.quarantined
    );
    println!(
        "{} threads; {} documents indexed ({} rethreaded) in {:.2} s",
        report.threads, report.indexed, report.rethreaded, report.seconds
    );
    if report.quarantined > 0 {
        println!("see `quoth quarantine` for the messages that could not be read");
    }
    for (path, why) in &report.file_errors {
        println!("could not read {path}: {why}");
    }
    Ok(0)
}
