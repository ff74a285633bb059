//! `quoth show MESSAGE_ID`

use super::output::{date, print_json, safe, safe_line};
use anyhow::Result;
use quoth::engine::Engine;
use quoth::mail::model::display_list;

pub fn run(engine: &Engine, id: &str, json: bool) -> Result<i32> {
    let msg = engine.find_message(id)?;
    let thread = engine.thread_of(&msg.key)?.map(|t| t.to_hex());
    let states = engine.attachment_states(&msg)?;
    if json {
        print_json(&quoth::serve::api::message_json(engine, id)?)?;
        return Ok(0);
    }
    outln!(
        "Message-ID: {}",
        safe_line(msg.message_id.as_deref().unwrap_or("-"))
    );
    outln!("Key:        {}", msg.key);
    outln!("Thread:     {}", thread.unwrap_or_default());
    outln!("Date:       {}", date(msg.date));
    outln!("From:       {}", safe_line(&display_list(&msg.from)));
    outln!("To:         {}", safe_line(&display_list(&msg.to)));
    if !msg.cc.is_empty() {
        outln!("Cc:         {}", safe_line(&display_list(&msg.cc)));
    }
    outln!("Subject:    {}", safe_line(&msg.subject));
    outln!(
        "Folder:     {}  flags: {}",
        safe_line(&msg.folder),
        safe_line(&msg.flags)
    );
    outln!("Source:     {}", safe_line(&msg.location.describe()));
    super::attachments::print_states(&states);
    for seg in &msg.segments {
        outln!(
            "──── {} [{}..{}] ────",
            seg.kind.label(),
            seg.start,
            seg.end
        );
        outln!("{}", safe(msg.segment_text(seg).trim_end()));
    }
    Ok(0)
}
