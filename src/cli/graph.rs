//! `quoth people QUERY` and `quoth facts THREAD|QUERY`: the graph's lookups.

use super::output::{print_json, safe_line};
use anyhow::Result;
use quoth::engine::{format_date, FactsView, PeopleView};
use quoth::graph::facts::flowed;
use quoth::serve::client::Client;
use quoth::serve::protocol::Op;

/// Runs a lookup: with `--json` its answer is printed as it came and `None` is
/// returned; otherwise the answer read as `T`, for the caller to print.
fn lookup<T: serde::de::DeserializeOwned>(
    client: &mut Client,
    op: Op,
    json: bool,
) -> Result<Option<T>> {
    let value = client.call(op, &mut |_| {})?;
    if json {
        print_json(&value)?;
        return Ok(None);
    }
    Ok(Some(serde_json::from_value(value)?))
}

/// The people a query names, or everyone at the organisation it names.
pub fn people(client: &mut Client, query: &str, json: bool) -> Result<i32> {
    let query_op = Op::People {
        query: query.to_string(),
    };
    let Some(view) = lookup::<PeopleView>(client, query_op, json)? else {
        return Ok(0);
    };
    if let Some(org) = &view.organisation {
        outln!("{} ({})", safe_line(&org.name), safe_line(&org.domain));
    }
    if view.people.is_empty() {
        outln!("no one in the mail matches {}", safe_line(query));
        return Ok(1);
    }
    for p in &view.people {
        let span = match (p.first, p.last) {
            (Some(a), Some(b)) => format!("{} … {}", day(a), day(b)),
            _ => String::new(),
        };
        outln!(
            "{} <{}>{}",
            safe_line(&p.name),
            safe_line(&p.addresses.join(", ")),
            p.organisation
                .as_deref()
                .map(|o| format!(" · {}", safe_line(o)))
                .unwrap_or_default()
        );
        outln!(
            "    {} messages ({} sent, {} received) {}",
            p.messages,
            p.sent,
            p.received,
            span
        );
    }
    Ok(0)
}

/// The dated facts of a thread or of what a query names.
pub fn facts(client: &mut Client, query: &str, json: bool) -> Result<i32> {
    let query_op = Op::Facts {
        query: query.to_string(),
    };
    let Some(view) = lookup::<FactsView>(client, query_op, json)? else {
        return Ok(0);
    };
    if view.facts.is_empty() {
        outln!("no facts found for {}", safe_line(query));
        return Ok(1);
    }
    for f in &view.facts {
        let mark = if f.superseded_by.is_some() {
            " (superseded)"
        } else {
            ""
        };
        outln!(
            "{} · {}: {}{}",
            f.date.map(day).unwrap_or_default(),
            safe_line(&flowed(&f.fact.attribute)),
            safe_line(&flowed(&f.fact.value)),
            mark
        );
        outln!(
            "    \u{201c}{}\u{201d} — {}, {}",
            safe_line(&flowed(&f.quote)),
            safe_line(&f.author),
            safe_line(&f.subject)
        );
    }
    Ok(0)
}

fn day(ts: i64) -> String {
    format_date(ts).chars().take(10).collect()
}
