//! `quoth show MESSAGE_ID`

use super::output::{date, print_json};
use anyhow::Result;
use quoth::engine::Engine;
use quoth::mail::model::display_list;
use serde_json::json;

pub fn run(engine: &Engine, id: &str, json: bool) -> Result<i32> {
    let msg = engine.find_message(id)?;
    let thread = engine.thread_of(&msg.key)?.map(|t| t.to_hex());
    let states = engine.attachment_states(&msg)?;
    if json {
        let segments: Vec<_> = msg
            .segments
            .iter()
            .map(|s| {
                json!({
                    "kind": s.kind.label(),
                    "start": s.start,
                    "end": s.end,
                    "text": msg.segment_text(s),
                })
            })
            .collect();
        let chunks: Vec<_> = engine
            .store()
            .chunks_of(&msg.key)?
            .into_iter()
            .map(|c| json!({"id": c.id.to_hex(), "start": c.start, "end": c.end, "cite_text": c.cite_text, "attachment": c.attachment}))
            .collect();
        print_json(&json!({
            "key": msg.key.to_hex(),
            "message_id": msg.message_id,
            "thread_id": thread,
            "date": msg.date,
            "from": display_list(&msg.from),
            "to": display_list(&msg.to),
            "cc": display_list(&msg.cc),
            "subject": msg.subject,
            "folder": msg.folder,
            "flags": msg.flags,
            "source": msg.location.describe(),
            "attachments": states,
            "segments": segments,
            "chunks": chunks,
        }))?;
        return Ok(0);
    }
    println!("Message-ID: {}", msg.message_id.as_deref().unwrap_or("-"));
    println!("Key:        {}", msg.key);
    println!("Thread:     {}", thread.unwrap_or_default());
    println!("Date:       {}", date(msg.date));
    println!("From:       {}", display_list(&msg.from));
    println!("To:         {}", display_list(&msg.to));
    if !msg.cc.is_empty() {
        println!("Cc:         {}", display_list(&msg.cc));
    }
    println!("Subject:    {}", msg.subject);
    println!("Folder:     {}  flags: {}", msg.folder, msg.flags);
    println!("Source:     {}", msg.location.describe());
    super::attachments::print_states(&states);
    for seg in &msg.segments {
        println!(
            "──── {} [{}..{}] ────",
            seg.kind.label(),
            seg.start,
            seg.end
        );
        println!("{}", msg.segment_text(seg).trim_end());
    }
    Ok(0)
}
