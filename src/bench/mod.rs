//! `quoth bench`: prints speed and memory figures. Timings are medians of repeated
//! runs on a shared machine: read them as ratios, not absolutes. Never used in tests.

mod ask;
mod fusion;
mod graph;
mod imap;
mod office;
mod pdf;
mod retrieval;
mod selector;
mod serve;
mod span;
mod state;
mod tui;

use anyhow::{bail, Context, Result};
use quoth::engine::{Engine, RetrieveOptions, SearchMode};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub what: BenchWhat,
}

#[derive(clap::Subcommand, Debug)]
pub enum BenchWhat {
    /// Cold-ingest throughput and peak RSS, beside `notmuch new` and `mu index` on the
    /// same Maildir; then search latency over 100 varied queries.
    Ingest {
        /// A Maildir tree to ingest (also given to notmuch and mu).
        #[arg(long)]
        maildir: Option<PathBuf>,
        /// An mbox file or folder of them (the scale set).
        #[arg(long)]
        mbox: Option<PathBuf>,
        /// Skip notmuch and mu.
        #[arg(long)]
        no_peers: bool,
        /// Runs of each ingest; the median is reported.
        #[arg(long, default_value_t = 1)]
        runs: usize,
        /// Where to put the temporary stores (default: a temp dir).
        #[arg(long)]
        work_dir: Option<PathBuf>,
    },
    /// Embedding throughput (2 threads), the share of chunks skipped as duplicates,
    /// vector index size and peak RSS over a mailbox, then hybrid query latency p50/p95
    /// over 100 varied questions on it (or on --latency-store, a store with every vector
    /// built, such as the mbox scale set).
    Semantic {
        /// Mail to ingest and embed for the throughput figures; without it only the
        /// latency on --latency-store is measured.
        #[arg(long, required_unless_present = "latency_store")]
        maildir: Option<PathBuf>,
        #[arg(long)]
        latency_store: Option<PathBuf>,
        #[arg(long)]
        work_dir: Option<PathBuf>,
    },
    /// Retrieval quality per mode (lexical, semantic, hybrid): recall@5 and MRR over a
    /// question set with gold Message-IDs, and precision@10 / recall@50 for the
    /// palimpzest fraud-scheme description.
    Retrieval {
        /// Mail to ingest and embed first (skipped when already there).
        #[arg(long)]
        maildir: Option<PathBuf>,
        /// A question set (JSON lines with question and gold_message_ids).
        #[arg(long)]
        questions: Option<PathBuf>,
        /// The palimpzest-enron folder (enron-eval/ and enron-eval-gold.tsv).
        #[arg(long)]
        palimpzest: Option<PathBuf>,
        /// Where the stores live (reused between runs).
        #[arg(long)]
        work_dir: Option<PathBuf>,
    },
    /// Mail state on a store: a flag change and a tag change until a count sees it
    /// (50 messages, each undone after), and counting ten saved views. Flags are set
    /// and cleared on the mail's own files: run it on a copy of a store you keep.
    State {
        #[arg(long)]
        store: PathBuf,
    },
    /// Warm `ask` latency (extractive answerer) p50/p95 over a question set, on a data
    /// directory that is already ingested and embedded.
    Ask {
        #[arg(long)]
        store: PathBuf,
        /// A question set in the `quoth eval` format.
        #[arg(long)]
        questions: PathBuf,
        /// Timed passes after the warm-up pass.
        #[arg(long, default_value_t = 2)]
        passes: usize,
    },
    /// Chooses hybrid retrieval's fusion weights: recall@5, recall@12 and MRR of the
    /// gold messages over a grid of settings, for the dev split's question sets.
    Fusion {
        #[arg(long)]
        store: PathBuf,
        /// Question sets in the `quoth eval` format.
        #[arg(long, required = true, num_args = 1..)]
        questions: Vec<PathBuf>,
    },
    /// The short answer inside an answering sentence, with and without the reader's
    /// span head, on cases written by models/reader/make_spans.py (dev split).
    Span {
        /// JSON lines: qid, question, text_b, answers, split.
        #[arg(long)]
        cases: PathBuf,
        /// The models folder (default: as `ask` finds it).
        #[arg(long)]
        models: Option<PathBuf>,
    },
    /// Dumps the evidence selector's training data for a question set: every
    /// candidate of every try with its features and label (models/selector/train.py).
    Selector {
        /// An ingested, embedded data directory holding the set's mail.
        #[arg(long)]
        store: PathBuf,
        /// A question set in the `quoth eval` format.
        #[arg(long)]
        questions: PathBuf,
        /// The set's name, kept in the dump.
        #[arg(long)]
        set: String,
        /// The split the set belongs to: train, dev or test.
        #[arg(long, value_parser = ["train", "dev", "test"])]
        split: String,
        /// Where to write the dump (JSON lines).
        #[arg(long)]
        out: PathBuf,
    },
    /// IMAP sync against a Dovecot started for the run on a loopback port (root,
    /// dovecot-imapd installed): initial sync rate, no-change sync time, and APPEND
    /// to searchable with IDLE running.
    Imap {
        /// A Maildir tree whose folders are appended to the server first.
        #[arg(long)]
        maildir: PathBuf,
        /// Initial syncs; the median is reported.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        #[arg(long)]
        work_dir: Option<PathBuf>,
    },
    /// PDF attachment text: text-layer pages/s on the GeoTopo lecture notes (117
    /// pages) and OCR pages/s on pages of it rendered as images.
    Pdf {
        /// The shared data folder (default: QUOTH_SHARED, then ../shared).
        #[arg(long)]
        shared: Option<PathBuf>,
        /// Passes over the text layer.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Pages read by OCR.
        #[arg(long, default_value_t = 4)]
        ocr_pages: u32,
    },
    /// Spreadsheet and document extraction: KB of text per second on a generated
    /// workbook of `rows` rows and a document of as many paragraphs, beside the PDF
    /// path on the GeoTopo lecture notes.
    Office {
        #[arg(long, default_value_t = 10_000)]
        rows: usize,
        /// The shared data folder (default: QUOTH_SHARED, then ../shared).
        #[arg(long)]
        shared: Option<PathBuf>,
        /// Passes over each file; the median is reported.
        #[arg(long, default_value_t = 5)]
        runs: usize,
    },
    /// Start to first frame on a data dir, and keystroke-to-redraw latency p50/p95
    /// while a background ingest runs.
    Tui(tui::TuiBenchArgs),
    /// The knowledge graph: a lexical ingest of `--mbox` (or `--maildir`) beside
    /// reading its graph, in messages per second, the graph's size, and lookup
    /// latency p50/p95 (a thread's people and facts, people by name and by
    /// organisation, facts by words) over the store.
    Graph {
        /// Mail to ingest into a new store first (mbox files or Maildir trees).
        #[arg(long)]
        mail: Vec<PathBuf>,
        /// The store: made here from `--mail`, or an existing one whose graph is
        /// read again.
        #[arg(long)]
        store: Option<PathBuf>,
    },
    /// Search latency in process, through a `quoth serve` socket when idle, and
    /// through it while that server embeds the Maildir: p50/p95, the socket hop and
    /// the busy/idle ratio.
    Serve {
        #[arg(long)]
        maildir: PathBuf,
        /// Where the bench's store is made (default: a temporary directory).
        #[arg(long)]
        work_dir: Option<PathBuf>,
    },
}

/// One measured run of a child process.
#[derive(Debug, Clone, Copy)]
struct Measured {
    seconds: f64,
    peak_rss_mb: f64,
}

pub fn run(args: BenchArgs, json: bool) -> Result<i32> {
    match args.what {
        BenchWhat::Ingest {
            maildir,
            mbox,
            no_peers,
            runs,
            work_dir,
        } => bench_ingest(maildir, mbox, no_peers, runs.max(1), work_dir, json),
        BenchWhat::Semantic {
            maildir,
            latency_store,
            work_dir,
        } => match (maildir, latency_store) {
            (Some(maildir), store) => bench_semantic(&maildir, store, work_dir, json),
            (None, Some(store)) => print_latency(&hybrid_latency(&store)?, json),
            (None, None) => anyhow::bail!("give --maildir, --latency-store or both"),
        },
        BenchWhat::Ask {
            store,
            questions,
            passes,
        } => ask::run(&store, &questions, passes, json),
        BenchWhat::State { store } => state::run(&store, json),
        BenchWhat::Graph { mail, store } => graph::run(&mail, store, json),
        BenchWhat::Serve { maildir, work_dir } => serve::run(&maildir, work_dir, json),
        BenchWhat::Span { cases, models } => span::run(&cases, models.as_deref(), json),
        BenchWhat::Fusion { store, questions } => fusion::run(&store, &questions, json),
        BenchWhat::Selector {
            store,
            questions,
            set,
            split,
            out,
        } => selector::run(
            selector::DumpArgs {
                store: &store,
                questions: &questions,
                set: &set,
                split: &split,
                out: &out,
            },
            json,
        ),
        BenchWhat::Retrieval {
            maildir,
            questions,
            palimpzest,
            work_dir,
        } => retrieval::run(maildir, questions, palimpzest, work_dir, json),
        BenchWhat::Imap {
            maildir,
            runs,
            work_dir,
        } => imap::run(&maildir, runs.max(1), work_dir, json),
        BenchWhat::Pdf {
            shared,
            runs,
            ocr_pages,
        } => pdf::run(shared, runs.max(1), ocr_pages.max(1), json),
        BenchWhat::Office { rows, shared, runs } => office::run(rows, shared, runs.max(1), json),
        BenchWhat::Tui(args) => tui::run(args, json),
    }
}

fn bench_ingest(
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

pub(super) fn tempfile_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    let dir = given.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("quoth-bench-{}", std::process::id()))
    });
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

fn median_of(runs: usize, mut f: impl FnMut(usize) -> Result<Measured>) -> Result<Measured> {
    let mut all = Vec::new();
    for i in 0..runs {
        all.push(f(i)?);
    }
    all.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    Ok(all[all.len() / 2])
}

fn measure_quoth_ingest(data_dir: &Path, source: &Path) -> Result<Measured> {
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
fn measure(mut cmd: Command) -> Result<Measured> {
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

fn bench_semantic(
    maildir: &Path,
    latency_store: Option<PathBuf>,
    work_dir: Option<PathBuf>,
    json: bool,
) -> Result<i32> {
    let dir = tempfile_dir(work_dir)?.join("semantic");
    let _ = std::fs::remove_dir_all(&dir);
    measure_quoth_ingest(&dir, maildir)?;
    let exe = std::env::current_exe()?;
    let mut cmd = Command::new(exe);
    cmd.arg("--data-dir").arg(&dir).arg("embed");
    let embed = measure(cmd)?;
    let engine = open_engine(&dir)?;
    let stats = engine.stats()?;
    let texts = engine.vectors().len();
    let vector_bytes = engine.vectors().size_on_disk();
    drop(engine);
    let latency = hybrid_latency(latency_store.as_deref().unwrap_or(&dir))?;
    let out = json!({
        "chunks": stats.chunks,
        "distinct_texts": texts,
        "duplicate_share": 1.0 - texts as f64 / stats.chunks.max(1) as f64,
        "embed_seconds": embed.seconds,
        "texts_per_s": texts as f64 / embed.seconds.max(1e-9),
        "chunks_per_s": stats.chunks as f64 / embed.seconds.max(1e-9),
        "embed_peak_rss_mb": embed.peak_rss_mb,
        "vector_index_mb": vector_bytes as f64 / 1e6,
        "hybrid": latency,
    });
    if json {
        crate::cli::output::print_json(&out)?;
        return Ok(0);
    }
    outln!(
        "embedding {} chunks ({} distinct texts, {:.0}% skipped as duplicates): {:.1} s, {:.1} texts/s, {:.1} chunks/s, peak RSS {:.0} MB",
        stats.chunks,
        texts,
        100.0 * out["duplicate_share"].as_f64().unwrap_or(0.0),
        embed.seconds,
        out["texts_per_s"].as_f64().unwrap_or(0.0),
        out["chunks_per_s"].as_f64().unwrap_or(0.0),
        embed.peak_rss_mb
    );
    outln!("vector index on disk: {:.1} MB", vector_bytes as f64 / 1e6);
    print_latency(&latency, false)
}

/// Prints what [`hybrid_latency`] measured.
fn print_latency(latency: &serde_json::Value, json: bool) -> Result<i32> {
    if json {
        crate::cli::output::print_json(latency)?;
        return Ok(0);
    }
    outln!(
        "searched store: {} vectors, vector index {:.1} MB on disk, peak RSS of the searching process {:.0} MB",
        latency["vectors"],
        latency["vector_index_mb"].as_f64().unwrap_or(0.0),
        latency["peak_rss_mb"].as_f64().unwrap_or(0.0)
    );
    for (name, l) in [
        ("hybrid search", &latency["default"]),
        ("hybrid + rerank", &latency["rerank"]),
    ] {
        outln!(
            "{name} over {} questions on {} messages ({} vectors): p50 {:.1} ms, p95 {:.1} ms",
            l["queries"],
            l["messages"],
            latency["vectors"],
            l["p50_ms"].as_f64().unwrap_or(0.0),
            l["p95_ms"].as_f64().unwrap_or(0.0)
        );
    }
    Ok(0)
}

/// Hybrid latency over 100 natural-language questions after a warm-up pass, as
/// `quoth search` runs it and with the opt-in rerank.
fn hybrid_latency(data_dir: &Path) -> Result<serde_json::Value> {
    let engine = open_engine(data_dir)?;
    let questions: Vec<String> = varied_queries()
        .iter()
        .map(|q| quoth::engine::quote_free_text(q))
        .filter(|q| !q.is_empty())
        .collect();
    let mut out = json!({
        "vectors": engine.vectors().len(),
        "vector_index_mb": engine.vectors().size_on_disk() as f64 / 1e6,
    });
    for (name, rerank) in [("default", false), ("rerank", true)] {
        let opts = RetrieveOptions {
            mode: SearchMode::Hybrid,
            limit: 10,
            rerank,
            now: chrono::Utc::now().timestamp(),
        };
        for q in &questions {
            engine.retrieve(q, opts)?;
        }
        let times = timed(1, &questions, |q| engine.retrieve(q, opts).map(|_| ()))?;
        out[name] = latency_summary(&engine, questions.len(), times)?;
    }
    out["peak_rss_mb"] = json!(own_peak_rss_mb());
    Ok(out)
}

/// Runs every query `rounds` times; the time of each run in milliseconds.
fn timed<E: Into<anyhow::Error>>(
    rounds: usize,
    queries: &[String],
    mut run: impl FnMut(&str) -> std::result::Result<(), E>,
) -> Result<Vec<f64>> {
    let mut times = Vec::with_capacity(rounds * queries.len());
    for _ in 0..rounds {
        for q in queries {
            let t = Instant::now();
            run(q).map_err(Into::into)?;
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    Ok(times)
}

/// p50 and p95 of the times in milliseconds.
pub(super) fn latency_summary_of(times: &[f64]) -> (f64, f64) {
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let pct = |p: f64| {
        sorted
            .get(((sorted.len().max(1) - 1) as f64 * p).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    (pct(0.5), pct(0.95))
}

/// p50 and p95 of the times, with the query and message counts.
fn latency_summary(engine: &Engine, queries: usize, times: Vec<f64>) -> Result<serde_json::Value> {
    let (p50, p95) = latency_summary_of(&times);
    Ok(json!({
        "queries": queries,
        "messages": engine.stats()?.messages,
        "p50_ms": p50,
        "p95_ms": p95,
    }))
}

/// Search latency over 100 varied queries, each run 5 times after a warm-up pass.
fn search_latency(data_dir: &Path) -> Result<serde_json::Value> {
    let engine = open_engine(data_dir)?;
    let queries = varied_queries();
    let now = chrono::Utc::now().timestamp();
    for q in &queries {
        engine.search(q, 20, now)?;
    }
    let times = timed(5, &queries, |q| engine.search(q, 20, now).map(|_| ()))?;
    latency_summary(&engine, queries.len(), times)
}

/// 100 queries mixing words, phrases, fields, dates and boolean forms.
pub(super) fn varied_queries() -> Vec<String> {
    const WORDS: &[&str] = &[
        "gas",
        "price",
        "contract",
        "meeting",
        "power",
        "california",
        "enron",
        "deal",
        "schedule",
        "trading",
        "energy",
        "report",
        "conference",
        "budget",
        "risk",
        "transmission",
        "pipeline",
        "credit",
        "legal",
        "market",
    ];
    const PEOPLE: &[&str] = &["lay", "skilling", "kean", "allen", "shapiro"];
    let mut out = Vec::new();
    for (i, w) in WORDS.iter().enumerate() {
        let other = WORDS[(i + 7) % WORDS.len()];
        let person = PEOPLE[i % PEOPLE.len()];
        out.push(w.to_string());
        out.push(format!("{w} {other}"));
        out.push(format!("\"{w} {other}\" OR {w}"));
        out.push(format!("from:{person} {w}"));
        out.push(format!(
            "{w} date:2001-0{}..2001-12-31 NOT {other}",
            1 + i % 9
        ));
    }
    out
}

/// This process's peak resident set so far, in MB.
fn own_peak_rss_mb() -> f64 {
    // SAFETY: rusage is plain data; getrusage fills it for this process.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    usage.ru_maxrss as f64 / 1024.0
}

/// Opens the data directory in this process (a benchmark measures the engine
/// itself), once a background server holding it has stopped.
pub(super) fn open_engine(data_dir: &Path) -> Result<quoth::engine::Engine> {
    crate::cli::server_start::stop_background(data_dir)?;
    Ok(quoth::engine::Engine::open(data_dir)?)
}
