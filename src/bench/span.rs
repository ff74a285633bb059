//! `quoth bench span`: the short answer inside a sentence that answers, with and
//! without the reader's span head. Each case is a question with one of its evidence
//! sentences (as the reader reads it) and the question's answer strings
//! (models/reader/make_spans.py writes them for the dev split). Printed per split:
//! how often a short answer is given, and how often it holds a gold answer, is one,
//! or overlaps it (word F1), for:
//! - `first value`: the first value of the asked kind (no span head);
//! - `head among values`: the value of the asked kind the span head scores best;
//! - `head, free`: the span head's best span, whatever its kind (what `ask` gives).
//!
//! And the head's best span for every case, asking for a kind or not.

use crate::cli::output::print_json;
use anyhow::{Context, Result};
use quoth::answer::short_answer::{best_by_span, short_answer, typed_value, typed_values};
use quoth::answer::{ReaderInput, SpanLogits};
use quoth::index::embed::ModelPaths;
use quoth::index::span_head::SpanHead;
use quoth::query::people::AddressBook;
use quoth::query::question::Question;
use serde::Deserialize;
use serde_json::json;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;

#[derive(Deserialize)]
struct Case {
    qid: String,
    question: String,
    text_b: String,
    answers: Vec<String>,
    #[serde(default)]
    split: String,
}

/// `{subject} | {sender} | {prev} >> {sentence} << {next}` back into its parts.
fn parse(text_b: &str) -> Option<ReaderInput> {
    let (subject, rest) = text_b.split_once(" | ")?;
    let (sender, rest) = rest.split_once(" | ")?;
    let (prev, rest) = rest.split_once(" >> ")?;
    let (sentence, next) = rest.rsplit_once(" << ")?;
    Some(ReaderInput {
        subject: subject.into(),
        sender: sender.into(),
        prev: prev.into(),
        sentence: sentence.into(),
        next: next.into(),
    })
}

fn words(s: &str) -> Vec<String> {
    s.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '$' || c == '%'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn f1(pred: &[String], gold: &[String]) -> f64 {
    let common: usize = {
        let mut g = gold.to_vec();
        pred.iter()
            .filter(|w| {
                g.iter()
                    .position(|x| x == *w)
                    .map(|i| g.remove(i))
                    .is_some()
            })
            .count()
    };
    if common == 0 {
        return 0.0;
    }
    let (p, r) = (
        common as f64 / pred.len() as f64,
        common as f64 / gold.len() as f64,
    );
    2.0 * p * r / (p + r)
}

#[derive(Default, Clone, Copy, serde::Serialize)]
struct Tally {
    cases: usize,
    given: usize,
    holds: usize,
    exact: usize,
    f1: f64,
}

impl Tally {
    fn add(&mut self, short: Option<&str>, answers: &[String]) {
        self.cases += 1;
        let Some(s) = short else { return };
        self.given += 1;
        let pred = words(s);
        let joined = pred.join(" ");
        let golds: Vec<Vec<String>> = answers.iter().map(|a| words(a)).collect();
        self.holds += usize::from(golds.iter().any(|g| {
            !g.is_empty() && format!(" {joined} ").contains(&format!(" {} ", g.join(" ")))
        }));
        self.exact += usize::from(golds.contains(&pred));
        self.f1 += golds.iter().map(|g| f1(&pred, g)).fold(0.0, f64::max);
    }

    fn line(&self) -> String {
        let n = self.cases.max(1) as f64;
        format!(
            "given {:.3}  holds the gold {:.3}  exact {:.3}  F1 {:.3}",
            self.given as f64 / n,
            self.holds as f64 / n,
            self.exact as f64 / n,
            self.f1 / n
        )
    }
}

const POLICIES: [&str; 3] = ["first value", "head among values", "head, free"];

pub fn run(cases: &Path, models: Option<&Path>, json_out: bool) -> Result<i32> {
    let paths = match models {
        Some(d) => ModelPaths::in_dir(d),
        None => ModelPaths::locate(Path::new(".")).context("finding the models")?,
    };
    let model = SpanHead::locate(&paths).context("the span head is not installed")?;
    let head = SpanHead::load(&paths, &model, 2).context("loading the span head")?;
    let text =
        std::fs::read_to_string(cases).with_context(|| format!("reading {}", cases.display()))?;
    let known = HashSet::new();
    let book = AddressBook::default();
    let mut seen = HashSet::new();
    // split -> policy -> tally, over the questions that ask for a kind of value.
    let mut typed: BTreeMap<String, [Tally; 3]> = BTreeMap::new();
    // split -> the head's free span over every case.
    let mut free: BTreeMap<String, Tally> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Case = serde_json::from_str(line).context("a case line")?;
        let Some(input) = parse(&case.text_b) else {
            continue;
        };
        if !seen.insert((case.qid.clone(), input.sentence.clone())) {
            continue;
        }
        let logits: SpanLogits = head.read(&case.question, &input)?;
        let best = logits
            .best()
            .and_then(|(r, _)| input.sentence.get(r).map(str::to_string));
        for split in [case.split.clone(), "all".to_string()] {
            free.entry(split)
                .or_default()
                .add(best.as_deref(), &case.answers);
        }
        let q = Question::read(&case.question, &book, 0);
        if q.expects.is_empty() {
            continue;
        }
        let values = typed_values(&input.sentence, &q, &known);
        let shorts = [
            typed_value(&input.sentence, &q, &known),
            best_by_span(&values, &input.sentence, &logits),
            // As `ask` gives it.
            short_answer(&input.sentence, &q, &known, Some(&logits)),
        ];
        for split in [case.split.clone(), "all".to_string()] {
            let t = typed.entry(split).or_default();
            for (tally, s) in t.iter_mut().zip(&shorts) {
                tally.add(s.as_deref(), &case.answers);
            }
        }
    }
    if json_out {
        let t: BTreeMap<&String, BTreeMap<&str, Tally>> = typed
            .iter()
            .map(|(k, v)| (k, POLICIES.iter().copied().zip(v.iter().copied()).collect()))
            .collect();
        print_json(&json!({"asks_a_kind": t, "head_free_all_cases": free}))?;
        return Ok(0);
    }
    for (split, t) in &typed {
        println!("{split}: {} cases asking for a kind of value", t[0].cases);
        for (name, tally) in POLICIES.iter().zip(t) {
            println!("  {name:<18} {}", tally.line());
        }
    }
    for (split, t) in &free {
        println!("{split}: every case ({}), head free: {}", t.cases, t.line());
    }
    Ok(0)
}
