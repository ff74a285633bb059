//! `quoth bench fusion`: chooses hybrid retrieval's weights on data. For each
//! setting of a small grid (the lexical and semantic weights of rank fusion, and
//! the weights used instead when some message holds every word of the query),
//! every question of the given sets is searched as `ask` searches it, and the rank
//! of its first gold message is scored: recall@5, recall at the evidence depth, and
//! MRR. Run it on the dev split only.

use crate::cli::output::print_json;
use anyhow::{Context, Result};
use quoth::engine::{parse_eval_items, EngineConfig, FusionWeights, SearchMode};
use serde_json::json;
use std::path::{Path, PathBuf};

/// Messages `ask` takes into its evidence pack.
const DEPTH: usize = 12;

/// Where the first gold message ranked, over a question set.
#[derive(Debug, Default, Clone, Copy, serde::Serialize)]
struct Scores {
    recall_at_5: f64,
    recall_at_depth: f64,
    mrr: f64,
}

impl Scores {
    fn add(&mut self, rank: Option<usize>) {
        if let Some(p) = rank {
            self.recall_at_5 += f64::from(u8::from(p < 5));
            self.recall_at_depth += 1.0;
            self.mrr += 1.0 / (p as f64 + 1.0);
        }
    }

    fn over(self, n: usize) -> Self {
        let n = n.max(1) as f64;
        Self {
            recall_at_5: self.recall_at_5 / n,
            recall_at_depth: self.recall_at_depth / n,
            mrr: self.mrr / n,
        }
    }

    fn line(&self) -> String {
        format!(
            "recall@5 {:.3} recall@{DEPTH} {:.3} MRR {:.3}",
            self.recall_at_5, self.recall_at_depth, self.mrr
        )
    }
}

pub fn run(store: &Path, questions: &[PathBuf], json_out: bool) -> Result<i32> {
    let mut engine =
        super::open_engine(store).with_context(|| format!("opening {}", store.display()))?;
    let mut items = Vec::new();
    for q in questions {
        let text =
            std::fs::read_to_string(q).with_context(|| format!("reading {}", q.display()))?;
        items.extend(parse_eval_items(&text).map_err(|e| anyhow::anyhow!("{e}"))?);
    }
    // Answerable, standalone questions: a follow-up's retrieval depends on its turn.
    let items: Vec<_> = items
        .into_iter()
        .filter(|i| i.answerable() && i.turns.is_empty() && i.question.is_some())
        .collect();
    let bare = |s: &str| s.trim().trim_matches(['<', '>']).to_string();
    let score = |engine: &quoth::engine::Engine, mode: SearchMode| -> Result<Scores> {
        let mut scores = Scores::default();
        for item in &items {
            let q = item.question.as_deref().unwrap_or("");
            let gold: Vec<String> = item.gold_message_ids.iter().map(|g| bare(g)).collect();
            let r = engine.question_retrieval(q, DEPTH, mode)?;
            let rank = r.hits.iter().position(|h| {
                h.hit
                    .message_id
                    .as_deref()
                    .is_some_and(|m| gold.contains(&bare(m)))
            });
            scores.add(rank);
        }
        Ok(scores.over(items.len()))
    };
    let mut rows = Vec::new();
    // Each list alone first: hybrid has to beat the better of them.
    for (name, mode) in [
        ("lexical", SearchMode::Lexical),
        ("semantic", SearchMode::Semantic),
    ] {
        let s = score(&engine, mode)?;
        if !json_out {
            outln!("{name} alone: {}", s.line());
        }
        rows.push(json!({ "mode": name, "scores": s }));
    }
    // Fixed weights, and weights that change when some message holds every word.
    let mut settings = Vec::new();
    for (lexical, semantic) in [(1.0f32, 1.0f32), (2.0, 0.5)] {
        settings.push((lexical, semantic, (lexical, semantic)));
        for every_word in [
            (1.5f32, 1.0f32),
            (2.0, 1.0),
            (3.0, 1.0),
            (1.0, 0.5),
            (2.0, 0.5),
            (3.0, 0.5),
            (2.0, 0.25),
            (3.0, 0.25),
        ] {
            settings.push((lexical, semantic, every_word));
        }
    }
    for (lexical, semantic, every_word) in settings {
        let fusion = FusionWeights {
            lexical,
            semantic,
            every_word,
            ..FusionWeights::default()
        };
        engine.set_config(EngineConfig {
            fusion,
            ..EngineConfig::default()
        });
        let s = score(&engine, SearchMode::Hybrid)?;
        if !json_out {
            outln!(
                "lexical {lexical:.1} semantic {semantic:.1}, every word held {:.1} {:.2}: {}",
                every_word.0,
                every_word.1,
                s.line()
            );
        }
        rows.push(json!({
            "mode": "hybrid", "lexical": lexical, "semantic": semantic,
            "every_word": [every_word.0, every_word.1], "scores": s,
        }));
    }
    if json_out {
        print_json(&json!({"questions": items.len(), "depth": DEPTH, "grid": rows}))?;
    }
    Ok(0)
}
