//! `quoth bench`: prints speed and memory figures. Timings are medians of repeated
//! runs on a shared machine: read them as ratios, not absolutes. Never used in tests.

mod ask;
mod fusion;
mod graph;
mod imap;
mod ingest;
mod office;
mod pdf;
mod retrieval;
mod selector;
mod semantic;
mod serve;
mod span;
mod state;
mod tui;

use semantic::latency_summary_of;

use anyhow::Result;
use std::path::{Path, PathBuf};

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
        /// Leave the reader's logits out (the trees' training reads none): the dump
        /// is made in about half the time.
        #[arg(long)]
        no_reader: bool,
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

pub fn run(args: BenchArgs, json: bool) -> Result<i32> {
    match args.what {
        BenchWhat::Ingest {
            maildir,
            mbox,
            no_peers,
            runs,
            work_dir,
        } => ingest::bench_ingest(maildir, mbox, no_peers, runs.max(1), work_dir, json),
        BenchWhat::Semantic {
            maildir,
            latency_store,
            work_dir,
        } => match (maildir, latency_store) {
            (Some(maildir), store) => semantic::bench_semantic(&maildir, store, work_dir, json),
            (None, Some(store)) => {
                semantic::print_latency(&semantic::hybrid_latency(&store)?, json)
            }
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
            no_reader,
        } => selector::run(
            selector::DumpArgs {
                store: &store,
                questions: &questions,
                set: &set,
                split: &split,
                out: &out,
                reader: !no_reader,
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

pub(super) fn tempfile_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    let dir = given.unwrap_or_else(|| {
        std::env::temp_dir().join(format!("quoth-bench-{}", std::process::id()))
    });
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
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

/// Opens the data directory in this process (a benchmark measures the engine
/// itself), once a background server holding it has stopped.
pub(super) fn open_engine(data_dir: &Path) -> Result<quoth::engine::Engine> {
    crate::cli::server_start::stop_background(data_dir)?;
    Ok(quoth::engine::Engine::open(data_dir)?)
}
