//! `quoth views`: the saved searches of config.toml (`[[views]]`, Unread and Flagged
//! by default), each with how many messages it holds and how many are unread.

use super::count::counts;
use super::output::print_json;
use anyhow::Result;
use quoth::config::View;
use std::path::Path;

pub fn run(data_dir: &Path, views: &[View], json: bool) -> Result<i32> {
    let queries: Vec<String> = views
        .iter()
        .flat_map(|v| [v.query.clone(), v.unread_query()])
        .collect();
    let found = counts(data_dir, &queries)?;
    let mut rows = Vec::new();
    for (view, pair) in views.iter().zip(found.chunks(2)) {
        let (total, unread) = match pair {
            [Ok(t), Ok(u)] => (Some(*t), Some(*u)),
            _ => (None, None),
        };
        let error = pair
            .iter()
            .find_map(|r| r.as_ref().err())
            .map(|b| b.message.clone());
        rows.push((view, total, unread, error));
    }
    if json {
        let list: Vec<_> = rows
            .iter()
            .map(|(v, total, unread, error)| {
                serde_json::json!({
                    "name": v.name,
                    "query": v.query,
                    "sort": v.sort,
                    "total": total,
                    "unread": unread,
                    "error": error,
                })
            })
            .collect();
        print_json(&serde_json::json!({ "views": list }))?;
    } else {
        let width = rows
            .iter()
            .map(|r| r.0.name.chars().count())
            .max()
            .unwrap_or(0);
        for (v, total, unread, error) in &rows {
            match (total, unread, error) {
                (Some(t), Some(u), _) => {
                    outln!("{:<width$}  {u} unread / {t}  ({})", v.name, v.query)
                }
                (_, _, Some(e)) => outln!("{:<width$}  {e}  ({})", v.name, v.query),
                _ => outln!("{:<width$}  ?  ({})", v.name, v.query),
            }
        }
    }
    Ok(if rows.iter().any(|r| r.3.is_some()) {
        2
    } else {
        0
    })
}
