//! `quoth show MESSAGE_ID`

use super::output::{date, print_json, safe, safe_line};
use anyhow::{Context, Result};
use quoth::engine::AttachmentState;
use quoth::serve::client::Client;
use quoth::serve::protocol::Op;
use serde_json::Value;

/// Shows a message read through the data directory's server.
pub fn run(client: &mut Client, id: &str, json: bool) -> Result<i32> {
    let message = client.call(
        Op::Message {
            message: id.to_string(),
        },
        &mut |_| {},
    )?;
    show(&message, json)
}

/// The message as `--json` gives it, or as text with its segments marked.
fn show(m: &Value, json: bool) -> Result<i32> {
    if json {
        print_json(m)?;
        return Ok(0);
    }
    let field = |name: &str| m[name].as_str().unwrap_or_default().to_string();
    outln!(
        "Message-ID: {}",
        safe_line(m["message_id"].as_str().unwrap_or("-"))
    );
    outln!("Key:        {}", field("key"));
    outln!("Thread:     {}", field("thread_id"));
    outln!("Date:       {}", date(m["date"].as_i64()));
    outln!("From:       {}", safe_line(&field("from")));
    outln!("To:         {}", safe_line(&field("to")));
    if !field("cc").is_empty() {
        outln!("Cc:         {}", safe_line(&field("cc")));
    }
    outln!("Subject:    {}", safe_line(&field("subject")));
    outln!(
        "Folder:     {}  flags: {}",
        safe_line(&field("folder")),
        safe_line(&field("flags"))
    );
    outln!("Source:     {}", safe_line(&field("source")));
    let states: Vec<AttachmentState> = serde_json::from_value(m["attachments"].clone())
        .context("reading the message's attachments")?;
    super::attachments::print_states(&states);
    for seg in m["segments"].as_array().into_iter().flatten() {
        outln!(
            "──── {} [{}..{}] ────",
            seg["kind"].as_str().unwrap_or_default(),
            seg["start"],
            seg["end"]
        );
        outln!(
            "{}",
            safe(seg["text"].as_str().unwrap_or_default().trim_end())
        );
    }
    Ok(0)
}
