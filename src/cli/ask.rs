//! `quoth ask "QUESTION" [--thread ID] [--session NAME] [--llm] [--json]`

use super::output::{print_json, safe, safe_line, use_color};
use anyhow::{Context, Result};
use quoth::answer::conversation::Conversation;
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::answer::Answerer;
use quoth::engine::{AskEvent, AskOptions, AskOutcome, Engine, LlmAnswerer, LlmConfig};
use std::io::Write;
use std::path::{Path, PathBuf};

pub struct AskArgs<'a> {
    pub question: &'a str,
    pub thread: Option<&'a str>,
    pub session: Option<&'a str>,
    pub llm: bool,
}

/// Where a named conversation is kept.
fn session_path(data_dir: &Path, name: &str) -> Result<PathBuf> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        || name.starts_with('.')
    {
        anyhow::bail!("a session name is letters, digits, '-', '_' and '.' only: {name:?}");
    }
    Ok(data_dir.join("sessions").join(format!("{name}.json")))
}

fn load_session(path: &Path) -> Result<Conversation> {
    match std::fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .with_context(|| format!("the session file {} is not readable", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Conversation::default()),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

fn save_session(path: &Path, conversation: &Conversation) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, serde_json::to_vec_pretty(conversation)?)?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// The answerer asked for: the LLM when `--llm` and an endpoint is configured.
pub fn answerer(llm: bool) -> Result<Box<dyn Answerer>> {
    if !llm {
        return Ok(Box::new(ExtractiveAnswerer::default()));
    }
    let config = LlmConfig::from_env().context(
        "--llm needs an OpenAI-compatible endpoint: set QUOTH_LLM_BASE_URL (and QUOTH_LLM_MODEL, QUOTH_LLM_API_KEY)",
    )?;
    Ok(Box::new(LlmAnswerer::new(config)?))
}

pub fn run(engine: &Engine, data_dir: &Path, args: AskArgs, json: bool) -> Result<i32> {
    let session = match args.session {
        Some(name) => Some(session_path(data_dir, name)?),
        None => None,
    };
    let mut conversation = match &session {
        Some(p) => load_session(p)?,
        None => Conversation::default(),
    };
    let answerer = answerer(args.llm)?;
    let opts = AskOptions {
        thread: args.thread.map(|t| resolve_thread(engine, t)).transpose()?,
        ..AskOptions::default()
    };
    let streaming = !json && args.llm;
    let mut on_event = |e: AskEvent| match e {
        AskEvent::Rewrite(r) if !json => eprintln!("(asking: {})", safe_line(&r)),
        AskEvent::Delta(d) if streaming => {
            eprint!("{}", safe(&d));
            let _ = std::io::stderr().flush();
        }
        AskEvent::Note(n) if !json => eprintln!("note: {}", safe_line(&n)),
        _ => {}
    };
    let outcome = engine.ask(
        args.question,
        &mut conversation,
        answerer.as_ref(),
        &opts,
        &mut on_event,
    )?;
    if streaming {
        eprintln!();
    }
    if let Some(p) = &session {
        save_session(p, &conversation)?;
    }
    if json {
        print_json(&outcome)?;
    } else {
        print_text(&outcome);
    }
    Ok(0)
}

/// A thread given as a thread id, a message key or a Message-ID.
fn resolve_thread(engine: &Engine, id: &str) -> Result<String> {
    let hex = id.trim().to_ascii_lowercase();
    if hex.len() == 16 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Ok(hex);
    }
    let msg = engine
        .find_message(id)
        .with_context(|| format!("no thread or message {id:?}"))?;
    Ok(engine
        .thread_of(&msg.key)?
        .map(|t| t.to_hex())
        .unwrap_or_else(|| quoth::mail::model::ThreadId::of_root(&msg.key).to_hex()))
}

pub fn print_text(o: &AskOutcome) {
    let color = use_color();
    let (bold, dim, reset) = if color {
        ("\x1b[1m", "\x1b[2m", "\x1b[0m")
    } else {
        ("", "", "")
    };
    for n in &o.notes {
        eprintln!("{dim}note: {}{reset}", safe_line(n));
    }
    outln!("{bold}{}{reset}", safe(&o.display_text()));
    if o.citations.is_empty() {
        return;
    }
    outln!();
    let mut last = 0;
    for c in &o.citations {
        if c.n == last {
            continue;
        }
        last = c.n;
        let source = match (&c.attachment, c.page) {
            (Some(a), Some(p)) => format!(" [{}, page {p}]", safe_line(a)),
            (Some(a), None) => format!(" [{}]", safe_line(a)),
            _ => String::new(),
        };
        outln!(
            "[{}] {} · {} · {}{source}",
            c.n,
            c.date
                .as_deref()
                .map(|d| d.get(..10).unwrap_or(d))
                .unwrap_or("(no date)"),
            safe_line(&c.from),
            safe_line(&c.subject)
        );
        outln!(
            "    {dim}{}{reset}",
            safe_line(c.message_id.as_deref().unwrap_or(&c.key))
        );
        outln!("    \"{}\"", safe_line(&c.quote));
    }
}
