//! `quoth bench tui`: time from start to the first frame (and to the first frame with
//! threads) on a data dir, and keystroke-to-redraw latency while a background ingest
//! runs. Drives the real event loop on a TestBackend with synthetic keys.

use crate::cli::tui::answerer;
use anyhow::{Context, Result};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use quoth::engine::handle::{EngineHandle, EngineRequest};
use quoth::tui::{self, App, AppOptions, EngineLink, Keymap, LoopOptions, Preset, Theme};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct TuiBenchArgs {
    /// A data dir with mail in it, for the time to the first frame.
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// Mail to ingest (into a fresh temp data dir) while keys are typed.
    #[arg(long)]
    pub ingest: Option<PathBuf>,
    /// Runs of the first-frame measure; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub runs: usize,
    /// Synthetic keys typed during the ingest.
    #[arg(long, default_value_t = 300)]
    pub keys: usize,
    /// Milliseconds between two keys.
    #[arg(long, default_value_t = 30)]
    pub interval_ms: u64,
    #[arg(long, default_value_t = 120)]
    pub width: u16,
    #[arg(long, default_value_t = 40)]
    pub height: u16,
}

pub fn run(args: TuiBenchArgs, json: bool) -> Result<i32> {
    anyhow::ensure!(
        args.store.is_some() || args.ingest.is_some(),
        "give --store DATA_DIR and/or --ingest MAILDIR"
    );
    let mut report = serde_json::Map::new();
    if let Some(store) = &args.store {
        let mut first = Vec::new();
        let mut with_threads = Vec::new();
        for _ in 0..args.runs.max(1) {
            let (f, t) = first_frame(store, &args)?;
            first.push(f);
            with_threads.push(t);
        }
        report.insert(
            "first_frame_ms".into(),
            json!({"median": median(&mut first), "runs": first}),
        );
        report.insert(
            "first_frame_with_threads_ms".into(),
            json!({"median": median(&mut with_threads), "runs": with_threads}),
        );
    }
    if let Some(mail) = &args.ingest {
        report.insert(
            "keys_during_ingest".into(),
            keys_during_ingest(mail, &args)?,
        );
    }
    let report = serde_json::Value::Object(report);
    if json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_report(&report);
    }
    Ok(0)
}

fn print_report(r: &serde_json::Value) {
    if let Some(v) = r.get("first_frame_ms") {
        outln!(
            "start to first frame:              {:>8.1} ms (median)",
            v["median"].as_f64().unwrap_or(0.0)
        );
    }
    if let Some(v) = r.get("first_frame_with_threads_ms") {
        outln!(
            "start to first frame with threads: {:>8.1} ms (median)",
            v["median"].as_f64().unwrap_or(0.0)
        );
    }
    if let Some(v) = r.get("keys_during_ingest") {
        outln!(
            "keystroke to redraw during ingest: p50 {:.2} ms, p95 {:.2} ms over {} keys ({} after it); ingest {:.1} s",
            v["p50_ms"].as_f64().unwrap_or(0.0),
            v["p95_ms"].as_f64().unwrap_or(0.0),
            v["keys_during"].as_u64().unwrap_or(0),
            v["keys_after"].as_u64().unwrap_or(0),
            v["seconds"].as_f64().unwrap_or(0.0),
        );
    }
}

fn setup(data_dir: &Path, rt: &tokio::runtime::Runtime) -> Result<(App, EngineLink)> {
    let engine =
        super::open_engine(data_dir).with_context(|| format!("opening {}", data_dir.display()))?;
    let (handle, events) = EngineHandle::start(engine, answerer(false)?, rt.handle());
    let keymap = Keymap::builtin(Preset::Vim)?;
    let app = App::new(keymap, Theme::plain(), AppOptions::default());
    Ok((app, EngineLink::local(handle, events)))
}

fn runtime() -> Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}

/// From before the engine opens to the first frame, and to the first with threads.
fn first_frame(store: &Path, args: &TuiBenchArgs) -> Result<(f64, f64)> {
    let rt = runtime()?;
    let t0 = Instant::now();
    let (mut app, mut link) = setup(store, &rt)?;
    let setup_ms = ms(t0.elapsed());
    let mut term = Terminal::new(TestBackend::new(args.width, args.height))?;
    let stats = rt.block_on(tui::run(
        &mut app,
        &mut term,
        futures::stream::empty(),
        &mut link,
        &LoopOptions {
            until_idle: true,
            ..LoopOptions::default()
        },
    ))?;
    drop(link);
    rt.shutdown_timeout(Duration::from_secs(5));
    let first = setup_ms + stats.first_frame.map(ms).unwrap_or(f64::NAN);
    let threads = setup_ms + stats.first_threads.map(ms).unwrap_or(f64::NAN);
    Ok((first, threads))
}

/// Types `j`/`k` every `interval_ms` while `mail` is ingested into a temp data dir.
fn keys_during_ingest(mail: &Path, args: &TuiBenchArgs) -> Result<serde_json::Value> {
    let tmp = tempfile_dir()?;
    let rt = runtime()?;
    let (mut app, mut link) = setup(&tmp, &rt)?;
    app.start_background(EngineRequest::Ingest {
        paths: vec![mail.to_path_buf()],
        embed: false,
    });
    let mut term = Terminal::new(TestBackend::new(args.width, args.height))?;
    let interval = Duration::from_millis(args.interval_ms);
    let keys = futures::stream::unfold(0usize, move |i| async move {
        tokio::time::sleep(interval).await;
        let c = if i % 2 == 0 { 'j' } else { 'k' };
        Some((
            Ok(Event::Key(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::NONE,
            ))),
            i + 1,
        ))
    });
    let keys = Box::pin(futures::StreamExt::take(keys, args.keys));
    let t0 = Instant::now();
    let stats = rt.block_on(tui::run(
        &mut app,
        &mut term,
        keys,
        &mut link,
        &LoopOptions {
            until_idle: true,
            stall_timeout: Duration::from_secs(3600),
            ..LoopOptions::default()
        },
    ))?;
    let seconds = t0.elapsed().as_secs_f64();
    drop(link);
    rt.shutdown_timeout(Duration::from_secs(5));
    let _ = std::fs::remove_dir_all(&tmp);
    let mut during: Vec<f64> = stats
        .key_to_draw
        .iter()
        .filter(|(_, busy)| *busy)
        .map(|(d, _)| ms(*d))
        .collect();
    let after = stats.key_to_draw.len() - during.len();
    during.sort_by(f64::total_cmp);
    Ok(json!({
        "p50_ms": percentile(&during, 0.50),
        "p95_ms": percentile(&during, 0.95),
        "keys_during": during.len(),
        "keys_after": after,
        "seconds": seconds,
    }))
}

fn tempfile_dir() -> Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("quoth-bench-tui-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    percentile(v, 0.5)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}
