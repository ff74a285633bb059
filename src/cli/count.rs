//! `quoth count QUERY`: how many messages a query matches (each stored copy
//! counts), one number for a status bar, as `notmuch count` prints.

use super::output::{bad_query, print_json};
use anyhow::Result;
use quoth::engine::EngineError;
use quoth::serve::client::ClientError;
use quoth::serve::protocol::{ErrorKind, Op};
use std::path::Path;

pub fn run(data_dir: &Path, query: &str, json: bool) -> Result<i32> {
    let count = match super::connect(data_dir)? {
        Some(mut c) => match c.call(
            Op::Count {
                query: query.to_string(),
            },
            &mut |_| {},
        ) {
            Ok(v) => v["count"].as_u64().unwrap_or(0),
            Err(ClientError::Api(e)) if e.kind == ErrorKind::Query => {
                return Ok(bad_query(&e.message, e.caret.as_deref()))
            }
            Err(e) => return Err(e.into()),
        },
        None => match super::open(data_dir)?.count(query, chrono::Utc::now().timestamp()) {
            Ok(n) => n as u64,
            Err(EngineError::Query(e)) => {
                return Ok(bad_query(
                    &format!("invalid query: {e}"),
                    Some(&e.caret(query)),
                ))
            }
            Err(e) => return Err(e.into()),
        },
    };
    if json {
        print_json(&serde_json::json!({ "count": count }))?;
    } else {
        outln!("{count}");
    }
    Ok(0)
}
