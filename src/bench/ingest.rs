//! `quoth bench ingest`: Quoth's ingest beside notmuch and mu on one Maildir, as
//! the median of several runs of each, with its time and peak memory.

use super::semantic::search_latency;
use super::{open_engine, tempfile_dir};
use anyhow::{bail, Context, Result};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One measured run of a child process.
#[derive(Debug, Clone, Copy)]
pub(super) struct Measured {
    pub(super) seconds: f64,
    pub(super) peak_rss_mb: f64,
}

pub(super) fn bench_ingest(
    maildir: Option<PathBuf>,
    mbox: Option<PathBuf>,
    no_peers: bool,
    runs: usize,
    work_dir: Option<PathBuf>,
    json: bool,
) -> Result<i32> {
    if maildir.is_none() && mbox.is_none() {
        bail!("give --maildir and/or --mbox");
    }
    let tmp = tempfile_dir(work_dir)?;
    let mut rows = Vec::new();
    let mut search = None;
    if let Some(maildir) = &maildir {
        let count = count_maildir(maildir);
        warm_cache(maildir);
        let cold = median_of(runs, |i| {
            let dir = tmp.join(format!("quoth-maildir-{i}"));
            let _ = std::fs::remove_dir_all(&dir);
            measure_quoth_ingest(&dir, maildir)
        })?;
        rows.push(row("quoth ingest (Maildir, cold)", count, cold));
        let rescan_dir = tmp.join("quoth-maildir-0");
        if !rescan_dir.exists() {
            measure_quoth_ingest(&rescan_dir, maildir)?;
        }
        let rescan = median_of(runs.max(3), |_| measure_quoth_ingest(&rescan_dir, maildir))?;
        rows.push(row("quoth ingest (Maildir, no change)", count, rescan));
        if !no_peers {
            match median_of(runs, |i| {
                measure_notmuch(&tmp.join(format!("notmuch-{i}")), maildir)
            }) {
                Ok(m) => rows.push(row("notmuch new", count, m)),
                Err(e) => eprintln!("notmuch skipped: {e:#}"),
            }
            match median_of(runs, |i| measure_mu(&tmp.join(format!("mu-{i}")), maildir)) {
                Ok(m) => rows.push(row("mu index", count, m)),
                Err(e) => eprintln!("mu skipped: {e:#}"),
            }
        }
    }
    if let Some(mbox) = &mbox {
        warm_cache(mbox);
        let dir = tmp.join("quoth-mbox");
        let _ = std::fs::remove_dir_all(&dir);
        let m = measure_quoth_ingest(&dir, mbox)?;
        let count = open_engine(&dir)?.stats()?.messages;
        rows.push(row("quoth ingest (mbox scale set, cold)", count, m));
        search = Some(search_latency(&dir)?);
    }
    let ratio = ratio_to_mu(&rows);
    if json {
        crate::cli::output::print_json(
            &json!({"ingest": rows, "quoth_vs_mu": ratio, "search": search}),
        )?;
        return Ok(0);
    }
    outln!(
        "{:<40} {:>9} {:>9} {:>10} {:>12}",
        "ingest",
        "messages",
        "seconds",
        "msg/s",
        "peak RSS MB"
    );
    for r in &rows {
        outln!(
            "{:<40} {:>9} {:>9.2} {:>10.0} {:>12.1}",
            r["name"].as_str().unwrap_or(""),
            r["messages"],
            r["seconds"].as_f64().unwrap_or(0.0),
            r["msgs_per_s"].as_f64().unwrap_or(0.0),
            r["peak_rss_mb"].as_f64().unwrap_or(0.0)
        );
    }
    if let Some(r) = ratio {
        outln!("quoth cold Maildir ingest is {r:.2}x mu's rate");
    }
    if let Some(s) = search {
        outln!(
            "search over {} queries on {} messages: p50 {:.2} ms, p95 {:.2} ms",
            s["queries"],
            s["messages"],
            s["p50_ms"].as_f64().unwrap_or(0.0),
            s["p95_ms"].as_f64().unwrap_or(0.0)
        );
    }
    Ok(0)
}

fn row(name: &str, messages: usize, m: Measured) -> serde_json::Value {
    json!({
        "name": name,
        "messages": messages,
        "seconds": m.seconds,
        "msgs_per_s": messages as f64 / m.seconds.max(1e-9),
        "peak_rss_mb": m.peak_rss_mb,
    })
}

fn ratio_to_mu(rows: &[serde_json::Value]) -> Option<f64> {
    let rate = |name: &str| {
        rows.iter()
            .find(|r| r["name"] == name)
            .and_then(|r| r["msgs_per_s"].as_f64())
    };
    Some(rate("quoth ingest (Maildir, cold)")? / rate("mu index")?)
}

fn median_of(runs: usize, mut f: impl FnMut(usize) -> Result<Measured>) -> Result<Measured> {
    let mut all = Vec::new();
    for i in 0..runs {
        all.push(f(i)?);
    }
    all.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    Ok(all[all.len() / 2])
}

pub(super) fn measure_quoth_ingest(data_dir: &Path, source: &Path) -> Result<Measured> {
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    cmd.arg("--data-dir")
        .arg(data_dir)
        .args(["ingest", "--no-embed", "--json"])
        .arg(source);
    measure(cmd)
}

fn measure_notmuch(dir: &Path, maildir: &Path) -> Result<Measured> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    let config = dir.join("config");
    std::fs::write(
        &config,
        format!(
            "[database]\npath={}\nmail_root={}\n[new]\ntags=unread;inbox;\n[maildir]\nsynchronize_flags=false\n",
            dir.join("db").display(),
            maildir.display()
        ),
    )?;
    std::fs::create_dir_all(dir.join("db"))?;
    let mut cmd = Command::new("notmuch");
    cmd.env("NOTMUCH_CONFIG", &config).arg("new").arg("--quiet");
    measure(cmd)
}

fn measure_mu(dir: &Path, maildir: &Path) -> Result<Measured> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir)?;
    let status = Command::new("mu")
        .arg("init")
        .arg(format!("--muhome={}", dir.display()))
        .arg(format!("--maildir={}", maildir.display()))
        .stdout(std::process::Stdio::null())
        .status()
        .context("running mu (Debian package maildir-utils)")?;
    if !status.success() {
        bail!("mu init failed");
    }
    let mut cmd = Command::new("mu");
    cmd.arg("index")
        .arg(format!("--muhome={}", dir.display()))
        .arg("--quiet");
    measure(cmd)
}

/// Runs a child to completion; wall time and its peak resident set from wait4.
pub(super) fn measure(mut cmd: Command) -> Result<Measured> {
    cmd.stdout(std::process::Stdio::null());
    let started = Instant::now();
    let child = cmd.spawn().with_context(|| format!("starting {cmd:?}"))?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let seconds = started.elapsed().as_secs_f64();
    if rc < 0 {
        bail!("wait4 failed: {}", std::io::Error::last_os_error());
    }
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        bail!("{cmd:?} failed with status {status}");
    }
    Ok(Measured {
        seconds,
        peak_rss_mb: usage.ru_maxrss as f64 / 1024.0,
    })
}

fn count_maildir(dir: &Path) -> usize {
    quoth::source::discover(&[dir.to_path_buf()])
        .map(|f| f.files.len())
        .unwrap_or(0)
}

/// Reads every file once so each tool starts from the same warm page cache.
fn warm_cache(dir: &Path) {
    if let Ok(found) = quoth::source::discover(&[dir.to_path_buf()]) {
        for f in found.files {
            let _ = std::fs::read(&f.path);
        }
    }
}
