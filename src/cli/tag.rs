//! `quoth tag +work -later QUERY`: adds and removes tags on every message a query
//! matches, as `notmuch tag` does. Changes come first (`+name`, `-name`); the rest,
//! or what follows `--`, is the query.

use super::output::{bad_query, print_json};
use anyhow::{bail, Result};
use quoth::engine::mailbox::tagging::TagReport;
use quoth::serve::client::ClientError;
use quoth::serve::protocol::{ErrorKind, Op};
use std::path::Path;

/// The changes and the query of a tag command's words.
pub fn split_words(words: &[String]) -> Result<(Vec<String>, Vec<String>, String)> {
    let (mut add, mut remove) = (Vec::new(), Vec::new());
    let mut rest = words.iter().peekable();
    while let Some(word) = rest.peek() {
        if *word == "--" {
            rest.next();
            break;
        }
        match (word.strip_prefix('+'), word.strip_prefix('-')) {
            (Some(name), _) if !name.is_empty() => add.push(name.to_string()),
            (_, Some(name)) if !name.is_empty() => remove.push(name.to_string()),
            _ => break,
        }
        rest.next();
    }
    let query = rest.cloned().collect::<Vec<_>>().join(" ");
    if add.is_empty() && remove.is_empty() {
        bail!("nothing to change: give +TAG or -TAG before the query, e.g. quoth tag +work -later from:ana");
    }
    if query.trim().is_empty() {
        bail!("no query: say which messages to tag (`*` for every message)");
    }
    Ok((add, remove, query))
}

pub fn run(data_dir: &Path, words: &[String], json: bool) -> Result<i32> {
    let (add, remove, query) = split_words(words)?;
    let op = Op::Tag {
        query: query.clone(),
        add,
        remove,
    };
    let report: TagReport = match super::connect(data_dir)?.call(op, &mut |_| {}) {
        Ok(v) => serde_json::from_value(v)?,
        Err(ClientError::Api(e)) if e.kind == ErrorKind::Query => {
            return Ok(bad_query(&e.message, e.caret.as_deref()))
        }
        Err(e) => return Err(e.into()),
    };
    if json {
        print_json(&report)?;
    } else {
        let messages = |n: usize| if n == 1 { "message" } else { "messages" };
        outln!(
            "{} {} matched, {} changed",
            report.matched,
            messages(report.matched),
            report.changed
        );
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn changes_come_first_and_the_rest_is_the_query() {
        let (add, remove, query) = split_words(&words("+work -later from:ana budget")).expect("ok");
        assert_eq!(
            (add, remove),
            (vec!["work".to_string()], vec!["later".to_string()])
        );
        assert_eq!(query, "from:ana budget");
        let (_, remove, query) = split_words(&words("-inbox -- -is:read")).expect("ok");
        assert_eq!(remove, vec!["inbox".to_string()]);
        assert_eq!(
            query, "-is:read",
            "after -- a leading minus belongs to the query"
        );
        assert!(split_words(&words("from:ana")).is_err(), "no change");
        assert!(split_words(&words("+work")).is_err(), "no query");
    }
}
