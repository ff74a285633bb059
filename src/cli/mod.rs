//! Command-line front end: one module per subcommand, all talking to the engine.

/// `println!` for the CLI: through [`output::emit`], which ends quietly on a closed
/// pipe and lets no control character through.
macro_rules! outln {
    () => {
        $crate::cli::output::emit(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::cli::output::emit(format_args!($($arg)*), true)
    };
}

mod ask;
mod attachments;
mod count;
mod demo;
mod eval;
mod graph;
mod ingest;
mod move_mail;
pub(crate) mod output;
mod quarantine;
mod reindex;
mod search;
mod serve;
pub(crate) mod server_start;
mod show;
mod stats;
mod sync;
mod tag;
pub(crate) mod tui;
mod views;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use quoth::serve::client::Client;
use quoth::serve::protocol::Op;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "quoth",
    version,
    about = "A terminal mail reader that answers questions about your mail, with citations"
)]
pub struct Cli {
    /// Where Quoth keeps its store and indexes.
    #[arg(long, global = true, env = "QUOTH_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Print machine-readable JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Open this Maildir in the terminal UI (ingested into the data dir in the
    /// background). Without a subcommand and without it, the UI opens the data dir's
    /// mail, or the demo mailbox when there is none.
    #[arg(long)]
    pub maildir: Option<PathBuf>,
    /// Answer in the UI with the OpenAI-compatible model of QUOTH_LLM_BASE_URL.
    #[arg(long)]
    pub llm: bool,
    /// Key bindings of the UI: vim or emacs (patched by keymap.toml in the config dir).
    #[arg(long, default_value = "vim", env = "QUOTH_KEYMAP")]
    pub keymap: quoth::tui::Preset,
    /// The config file whose IMAP accounts the UI syncs and watches (default:
    /// $XDG_CONFIG_HOME/quoth/config.toml).
    #[arg(long, env = "QUOTH_CONFIG")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Read mail from Maildir folders, mbox files or .eml files (idempotent).
    Ingest {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Only the lexical ingest: leave the embedding jobs for `quoth embed`.
        #[arg(long)]
        no_embed: bool,
    },
    /// Run the pending embedding jobs (resumes after an interruption).
    Embed,
    /// Background work: embedding jobs done, pending, failed, rate and ETA.
    Status,
    /// Search with notmuch-style syntax: words, "phrases", from: to: cc: subject: body:
    /// date:A..B has:attachment is:unread|read|flagged|replied|passed|draft|trashed
    /// folder: thread: id:, AND OR NOT ( ).
    Search {
        query: String,
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// lexical (BM25), semantic (embeddings) or hybrid (both, fused).
        #[arg(long, value_enum, default_value = "hybrid")]
        mode: search::ModeArg,
        /// Show each stage's rank and score for every hit.
        #[arg(long)]
        explain: bool,
        /// Rerank the top 20 of a hybrid search by late interaction (MaxSim over the
        /// model's token vectors): better ranks, at about 0.7 s per search on 2 cores.
        #[arg(long)]
        rerank: bool,
        /// What to print, one per line: a summary of each email (the default),
        /// its thread ids, Message-IDs, files (every copy's), or the tags of the
        /// listed emails, as notmuch does.
        #[arg(long, value_enum, default_value = "summary")]
        output: search::OutputArg,
    },
    /// How many messages a query matches (each stored copy counts), for status bars:
    /// `quoth count is:unread`.
    Count { query: String },
    /// The saved searches of the config file (`[[views]]`; Unread and Flagged by
    /// default), each with its total and unread counts.
    Views,
    /// Add and remove tags on the messages a query matches: `quoth tag +work -later
    /// from:ana`; find them again with `tag:work`.
    Tag {
        /// `+TAG` and `-TAG` changes, then the query (or `--` then the query).
        #[arg(required = true, allow_hyphen_values = true, trailing_var_arg = true)]
        words: Vec<String>,
    },
    /// Ask a question; the answer quotes the mail it relies on, or says it does not know.
    Ask {
        question: String,
        /// Answer from this thread only (thread id, message key or Message-ID).
        #[arg(long)]
        thread: Option<String>,
        /// With --thread: when the thread does not answer, search the whole mailbox
        /// (and say so).
        #[arg(long, requires = "thread")]
        widen: bool,
        /// Keep the conversation under this name, so follow-ups can lean on it.
        #[arg(long)]
        session: Option<String>,
        /// Answer with the OpenAI-compatible model of QUOTH_LLM_BASE_URL/QUOTH_LLM_MODEL.
        #[arg(long)]
        llm: bool,
    },
    /// Run a question set (JSONL) through ask and print its scores.
    Eval {
        file: PathBuf,
        #[arg(long)]
        llm: bool,
        /// Print each item's outcome as it goes.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Print a message with its segments (authored, quoted, signature...) marked.
    Show { id: String },
    /// Counts of messages, threads, chunks and quarantined items, and index sizes.
    Stats,
    /// Addresses from the mail's headers whose name or address starts with PREFIX,
    /// those on the most mail first, one "Name <address>" a line (for address
    /// completion in an editor or another mail client).
    Address {
        #[arg(default_value = "")]
        prefix: String,
        #[arg(long, default_value_t = quoth::serve::api::DEFAULT_ADDRESS_LIMIT)]
        limit: usize,
    },
    /// Move the mail a search matches (`*`: all of it) to a folder: `archive` and
    /// `trash` are the account's own, anything else a folder's path (`work/2024`).
    /// Maildir files are renamed into the folder; IMAP moves go to the server with
    /// the next sync.
    Move {
        query: String,
        #[arg(long)]
        to: String,
        /// Move at most this many of the matches (newest first for a query of
        /// filters only; by relevance otherwise).
        #[arg(long, default_value_t = quoth::serve::api::MOVE_LIMIT)]
        limit: usize,
    },
    /// Empty the trash folders (where `delete` moves mail) of their Maildir mail for
    /// good; without --yes, only say what would go.
    Expunge {
        #[arg(long)]
        yes: bool,
    },
    /// Show a message (a Message-ID or key) in Quoth's UI: the open one, or a new
    /// one started in this terminal.
    Open { message: String },
    /// List the messages that could not be read, with the reason.
    Quarantine,
    /// The people QUERY names (a name, an address, or an organisation: everyone at
    /// it), with how much mail each is on and when, from the headers.
    People { query: String },
    /// The dated facts the mail states, of a thread (its id) or of what QUERY names:
    /// each with its quote, and marked when a later message replaced it.
    Facts { query: String },
    /// Rebuild the search index and the graph of people and facts from the store.
    Reindex,
    /// Re-read every recorded mail source into a new store (after a schema change).
    Rebuild,
    /// Ingest the demo mailbox that ships with Quoth and run a few searches.
    Demo,
    /// Measure ingest and search speed (see `quoth bench --help`).
    Bench(crate::bench::BenchArgs),
    /// Fetch mail from the IMAP accounts of the config file; --watch stays connected.
    Sync(sync::SyncArgs),
    /// Serve this data directory to other clients: `search`, `ask`, `status` and
    /// `stats` go through a running server, and --http adds an HTTP/JSON API.
    Serve(serve::ServeArgs),
}

/// Runs a command; returns the process exit code.
pub fn run(cli: Cli) -> Result<i32> {
    let Some(command) = cli.command else {
        return tui::run(tui::TuiArgs {
            data_dir: cli.data_dir,
            maildir: cli.maildir,
            llm: cli.llm,
            keymap: cli.keymap,
            config: cli.config,
            open: None,
        });
    };
    let data_dir = data_dir(cli.data_dir.clone())?;
    let json = cli.json;
    match command {
        Command::Ingest { paths, no_embed } => {
            ingest::run(&mut connect(&data_dir)?, &paths, !no_embed, json)
        }
        Command::Embed => ingest::embed(&mut connect(&data_dir)?, json),
        Command::Status => {
            let mut client = connect(&data_dir)?;
            let mut v = client.call(Op::Status, &mut |_| {})?;
            // The JSON carries every note this command's user was told, the
            // greeting's (what the server found on opening, on stderr already) first.
            let notes = v.get_mut("notes").and_then(|n| n.as_array_mut());
            if let Some(notes) = notes.filter(|_| json) {
                let told = client
                    .greeting
                    .notes
                    .iter()
                    .cloned()
                    .map(serde_json::Value::from);
                notes.splice(0..0, told);
            }
            ingest::status_of_server(v, json)
        }
        Command::Count { query } => count::run(&data_dir, &query, json),
        Command::Views => {
            let config = match quoth::config::path(cli.config.as_deref()) {
                Some(path) if cli.config.is_some() || path.exists() => quoth::config::load(&path)?,
                _ => quoth::config::Config::default(),
            };
            views::run(&data_dir, &config.views(), json)
        }
        Command::Tag { words } => tag::run(&data_dir, &words, json),
        Command::Search {
            query,
            limit,
            mode,
            explain,
            rerank,
            output,
        } => {
            let args = search::SearchArgs {
                query: &query,
                limit,
                mode,
                explain,
                rerank,
                output,
            };
            search::run(&mut connect(&data_dir)?, args, json)
        }
        Command::Ask {
            question,
            thread,
            widen,
            session,
            llm,
        } => {
            let args = ask::AskArgs {
                question: &question,
                thread: thread.as_deref(),
                widen,
                session: session.as_deref(),
                llm,
            };
            ask::run(&mut connect(&data_dir)?, args, json)
        }
        Command::Eval { file, llm, verbose } => {
            eval::run(&mut connect(&data_dir)?, &file, llm, verbose, json)
        }
        Command::Show { id } => show::run(&mut connect(&data_dir)?, &id, json),
        Command::Stats => {
            let v = connect(&data_dir)?.call(Op::Stats, &mut |_| {})?;
            stats::run(&serde_json::from_value(v)?, json)
        }
        Command::Address { prefix, limit } => {
            let entries: Vec<quoth::engine::AddressEntry> =
                serde_json::from_value(connect(&data_dir)?.call(
                    Op::Addresses {
                        prefix,
                        limit: Some(limit),
                    },
                    &mut |_| {},
                )?)?;
            if json {
                output::print_json(&entries)?;
            } else {
                for e in &entries {
                    outln!("{}", quoth::terminal_text::for_terminal(&e.mailbox()));
                }
            }
            Ok(0)
        }
        Command::Move { query, to, limit } => {
            move_mail::run(&mut connect(&data_dir)?, &query, &to, limit, json)
        }
        Command::Expunge { yes } => move_mail::expunge(&mut connect(&data_dir)?, yes, json),
        // A background server has no UI to show the message in: a UI starts here.
        Command::Open { message } => {
            match Client::connect(&data_dir)?.filter(|c| !c.greeting.background) {
                Some(mut c) => {
                    let shown = c.call(Op::Reveal { message }, &mut |_| {})?;
                    if json {
                        output::print_json(&shown)?;
                    } else {
                        outln!(
                            "shown in the open Quoth UI: {}",
                            output::safe_line(shown["subject"].as_str().unwrap_or_default())
                        );
                    }
                    Ok(0)
                }
                None => tui::run(tui::TuiArgs {
                    data_dir: cli.data_dir,
                    maildir: None,
                    llm: cli.llm,
                    keymap: cli.keymap,
                    config: cli.config,
                    open: Some(message),
                }),
            }
        }
        Command::Quarantine => quarantine::run(&mut connect(&data_dir)?, json),
        Command::People { query } => graph::people(&mut connect(&data_dir)?, &query, json),
        Command::Facts { query } => graph::facts(&mut connect(&data_dir)?, &query, json),
        Command::Reindex => reindex::run(&mut connect(&data_dir)?, json),
        Command::Rebuild => reindex::rebuild(&data_dir, json),
        Command::Demo => demo::run(cli.data_dir.is_some().then_some(data_dir), json),
        Command::Bench(args) => crate::bench::run(args, json),
        Command::Sync(args) => sync::run(&data_dir, args, json),
        Command::Serve(args) => serve::run_server(&data_dir, args),
    }
}

/// Ends what the command left running in this process (its own server).
pub fn finish() {
    server_start::stop_here();
}

fn data_dir(given: Option<PathBuf>) -> Result<PathBuf> {
    match given {
        Some(d) => Ok(d),
        None => dirs::data_dir()
            .map(|d| d.join("quoth"))
            .context("no data directory: pass --data-dir or set QUOTH_DATA_DIR"),
    }
}

/// The data directory's server: the running one, or one started in the
/// background (in this process with `QUOTH_INLINE=1`). Every command that reads
/// or changes the mail goes through it.
fn connect(data_dir: &std::path::Path) -> Result<Client> {
    let client = server_start::connect_or_start(data_dir)?;
    // What the server found and did since its last client: this command's user hears it.
    for note in &client.greeting.notes {
        eprintln!("note: {}", output::safe_line(note));
    }
    Ok(client)
}
