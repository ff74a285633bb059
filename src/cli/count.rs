//! `quoth count QUERY`: how many messages a query matches (each stored copy
//! counts), one number for a status bar, as `notmuch count` prints.

use super::output::{bad_query, print_json};
use anyhow::Result;
use quoth::serve::client::ClientError;
use quoth::serve::protocol::{ErrorKind, Op};
use std::path::Path;

/// A query the engine cannot read: the message and, where known, the caret line.
pub(super) struct BadQuery {
    pub message: String,
    pub caret: Option<String>,
}

/// How many messages each query matches, through the data directory's server.
pub(super) fn counts(data_dir: &Path, queries: &[String]) -> Result<Vec<Result<u64, BadQuery>>> {
    let mut out = Vec::with_capacity(queries.len());
    let mut c = super::connect(data_dir)?;
    for query in queries {
        let op = Op::Count {
            query: query.clone(),
        };
        out.push(match c.call(op, &mut |_| {}) {
            Ok(v) => Ok(v["count"].as_u64().unwrap_or(0)),
            Err(ClientError::Api(e)) if e.kind == ErrorKind::Query => Err(BadQuery {
                message: e.message,
                caret: e.caret,
            }),
            Err(e) => return Err(e.into()),
        });
    }
    Ok(out)
}

pub fn run(data_dir: &Path, query: &str, json: bool) -> Result<i32> {
    let count = match counts(data_dir, &[query.to_string()])?.pop() {
        Some(Ok(n)) => n,
        Some(Err(bad)) => return Ok(bad_query(&bad.message, bad.caret.as_deref())),
        None => 0,
    };
    if json {
        print_json(&serde_json::json!({ "count": count }))?;
    } else {
        outln!("{count}");
    }
    Ok(0)
}
