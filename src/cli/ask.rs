//! `quoth ask "QUESTION" [--thread ID] [--session NAME] [--llm] [--json]`

use super::output::{print_json, safe, safe_line, use_color};
use anyhow::{Context, Result};
use quoth::engine::AskOutcome;
use quoth::serve::client::Client;
use quoth::serve::protocol::{EventKind, Op};
use std::io::Write;

pub struct AskArgs<'a> {
    pub question: &'a str,
    pub thread: Option<&'a str>,
    /// With a thread: widen to the mailbox when it does not answer.
    pub widen: bool,
    pub session: Option<&'a str>,
    pub llm: bool,
}

/// Asks through the data directory's server: the same answer, the session kept there.
pub fn run(client: &mut Client, args: AskArgs, json: bool) -> Result<i32> {
    let streaming = !json && args.llm;
    let value = client.call(
        Op::Ask {
            question: args.question.to_string(),
            thread: args.thread.map(str::to_string),
            widen: args.widen,
            session: args.session.map(str::to_string),
            llm: args.llm,
        },
        &mut |e| show_event(e.kind, &e.text, json, streaming),
    )?;
    if streaming {
        eprintln!();
    }
    if json {
        print_json(&value)?;
    } else {
        let outcome: AskOutcome =
            serde_json::from_value(value).context("reading the server's answer")?;
        print_text(&outcome);
    }
    Ok(0)
}

/// What the user sees of an event while the answer is being made (on stderr).
fn show_event(kind: EventKind, text: &str, json: bool, streaming: bool) {
    match kind {
        EventKind::Rewrite if !json => eprintln!("(asking: {})", safe_line(text)),
        EventKind::Delta if streaming => {
            eprint!("{}", safe(text));
            let _ = std::io::stderr().flush();
        }
        EventKind::Note if !json => eprintln!("note: {}", safe_line(text)),
        _ => {}
    }
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
        let source = match (&c.attachment, c.place.as_deref()) {
            (Some(a), Some(place)) => format!(" [{}, {}]", safe_line(a), safe_line(place)),
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
