//! `quoth show MESSAGE_ID`

use super::output::{date, print_json, safe, safe_line};
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
