//! `quoth quarantine`: what could not be read, and why.

use super::output::{print_json, safe_line};
use anyhow::Result;
use quoth::serve::client::Client;
use quoth::serve::protocol::Op;
use serde_json::Value;

/// The quarantine of the data directory's server.
pub fn run(client: &mut Client, json: bool) -> Result<i32> {
    show(&client.call(Op::Quarantine, &mut |_| {})?, json)
}

fn show(list: &Value, json: bool) -> Result<i32> {
    if json {
        print_json(list)?;
        return Ok(0);
    }
    let items = list.as_array().map(Vec::as_slice).unwrap_or_default();
    if items.is_empty() {
        outln!("nothing is quarantined");
    }
    for q in items {
        outln!(
            "{}\n    {} ({} bytes kept)",
            safe_line(q["source"].as_str().unwrap_or_default()),
            safe_line(q["reason"].as_str().unwrap_or_default()),
            q["bytes"].as_u64().unwrap_or(0)
        );
    }
    Ok(0)
}
