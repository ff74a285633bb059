//! `quoth search QUERY [--mode lexical|semantic|hybrid] [--explain]`

use super::output::{bad_query, date, fit, highlight, print_json, safe_line, use_color};
use anyhow::{Context, Result};
use quoth::engine::{Retrieval, SearchMode};
use quoth::serve::client::{Client, ClientError};
use quoth::serve::protocol::{ErrorKind, Op};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeArg {
    Lexical,
    Semantic,
    Hybrid,
}

impl From<ModeArg> for SearchMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Lexical => SearchMode::Lexical,
            ModeArg::Semantic => SearchMode::Semantic,
            ModeArg::Hybrid => SearchMode::Hybrid,
        }
    }
}

/// `--output`: what `quoth search` prints for each email.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputArg {
    Summary,
    Threads,
    Messages,
    Files,
    /// The tags of the listed emails, each once, sorted.
    Tags,
}

pub struct SearchArgs<'a> {
    pub query: &'a str,
    pub limit: usize,
    pub mode: ModeArg,
    pub explain: bool,
    pub rerank: bool,
    pub output: OutputArg,
}

/// Searches through the data directory's server: the same hits as in process.
pub fn run(client: &mut Client, args: SearchArgs, json: bool) -> Result<i32> {
    let mode = match args.mode {
        ModeArg::Lexical => "lexical",
        ModeArg::Semantic => "semantic",
        ModeArg::Hybrid => "hybrid",
    };
    let value = client.call(
        Op::Search {
            query: args.query.to_string(),
            mode: Some(mode.to_string()),
            limit: Some(args.limit),
            rerank: args.rerank,
        },
        &mut |_| {},
    );
    let value = match value {
        Ok(v) => v,
        Err(ClientError::Api(e)) if e.kind == ErrorKind::Query => {
            return Ok(bad_query(&e.message, e.caret.as_deref()))
        }
        Err(e) => return Err(e.into()),
    };
    if json {
        print_json(&value)?;
        return Ok(0);
    }
    let retrieval: Retrieval =
        serde_json::from_value(value).context("reading the server's search result")?;
    print_hits(&retrieval, &args);
    Ok(0)
}

fn print_hits(r: &Retrieval, args: &SearchArgs) {
    let lines: Vec<String> = match args.output {
        OutputArg::Summary => return print_text(r, args.explain, args.limit),
        OutputArg::Threads => {
            let mut seen = std::collections::HashSet::new();
            r.hits
                .iter()
                .map(|h| h.hit.thread_id.clone())
                .filter(|t| seen.insert(t.clone()))
                .collect()
        }
        OutputArg::Messages => r
            .hits
            .iter()
            .filter_map(|h| h.hit.message_id.clone())
            .collect(),
        OutputArg::Files => r.hits.iter().flat_map(|h| h.hit.files.clone()).collect(),
        OutputArg::Tags => {
            let tags: std::collections::BTreeSet<String> =
                r.hits.iter().flat_map(|h| h.hit.tags.clone()).collect();
            tags.into_iter().collect()
        }
    };
    for line in lines {
        outln!("{}", safe_line(&line));
    }
}

fn print_text(r: &Retrieval, explain: bool, limit: usize) {
    for note in &r.notes {
        eprintln!("note: {note}");
    }
    if r.hits.is_empty() {
        outln!("no messages match");
        return;
    }
    if !r.evidence {
        outln!(
            "no evidence: the best match has confidence {:.2}, under the gate; closest messages:",
            r.confidence
        );
    }
    let color = use_color();
    for h in &r.hits {
        let hit = &h.hit;
        outln!(
            "{}  {}  {}  thread:{}",
            date(hit.date),
            fit(&hit.from, 22),
            fit(&hit.subject, 48),
            hit.thread_id
        );
        outln!("    {}", highlight(&hit.snippet, &hit.highlights, color));
        outln!(
            "    id:{}  key:{}",
            safe_line(hit.message_id.as_deref().unwrap_or("-")),
            &hit.key
        );
        if !hit.folder.is_empty() {
            let mut folders = safe_line(&hit.folder).into_owned();
            for f in &hit.also_in {
                folders.push_str(", ");
                folders.push_str(&safe_line(f));
            }
            outln!("    folder: {folders}");
        }
        if explain {
            let s = &h.stages;
            let rank = |r: Option<usize>, sc: Option<f32>| match (r, sc) {
                (Some(r), Some(s)) => format!("#{r} ({s:.3})"),
                (Some(r), None) => format!("#{r}"),
                _ => "-".to_string(),
            };
            outln!(
                "    explain: bm25 {}  dense {}  rrf {}  boost x{:.2}{}  rerank {}  final #{}",
                rank(s.lexical_rank, s.lexical_score),
                rank(s.dense_rank, s.dense_score),
                rank(s.fused_rank, s.fused_score),
                s.boost,
                if s.thread_expansion {
                    " (thread sibling)"
                } else {
                    ""
                },
                s.rerank_score
                    .map_or("-".to_string(), |v| format!("{v:.3}")),
                s.final_rank
            );
        }
    }
    if r.hits.len() >= limit {
        // On stderr, so a script reading the hits gets only hits.
        eprintln!(
            "note: the first {} emails are shown and more match; --limit shows more",
            r.hits.len()
        );
    }
    if explain {
        if let Some((lexical, semantic)) = r.fusion_weights {
            outln!("fusion weights: lexical {lexical:.2}, semantic {semantic:.2}");
        }
        outln!(
            "confidence {:.3} ({}); timings {:?}",
            r.confidence,
            if r.evidence {
                "evidence"
            } else {
                "no evidence"
            },
            r.timings_ms
        );
    }
}
