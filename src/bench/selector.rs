//! `quoth bench selector`: dumps the evidence selector's training data. Every item of
//! a question set is asked as `quoth eval` asks it, and every candidate the selector
//! would score on each try (every sentence and header fact of each evidence pack) is
//! written with its feature vector and its label: does it answer (a gold message, and
//! one of the item's answers in it)? `models/selector/train.py` reads the dumps.

use crate::cli::output::print_json;
use anyhow::{Context, Result};
use quoth::answer::conversation::Conversation;
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::answer::normalize::normalize;
use quoth::answer::reader_input::reader_input;
use quoth::answer::select::features::FEATURE_NAMES;
use quoth::answer::select::shipped_model;
use quoth::answer::{AnswerError, AnswerRequest, Answerer, Draft, ReaderInput};
use quoth::engine::{parse_eval_items, AskOptions, EvalItem};
use serde_json::json;
use std::cell::RefCell;
use std::io::Write;
use std::path::Path;

pub struct DumpArgs<'a> {
    pub store: &'a Path,
    pub questions: &'a Path,
    /// A name for the question set (kept in the dump).
    pub set: &'a str,
    /// train, dev or test.
    pub split: &'a str,
    pub out: &'a Path,
    /// Whether the reader reads the trees' best candidates (their `reader` logits).
    pub reader: bool,
}

/// Candidates, from the trees' best, that the reader reads.
const READ_DEPTH: usize = 16;

/// One candidate as dumped.
struct Row {
    x: Vec<f32>,
    message_id: Option<String>,
    text: String,
    kind: String,
    /// The reader's logit (sentences, when the reader is installed).
    reader: Option<f32>,
    /// What the reader read of it, field by field (a training example's input).
    read: Option<ReaderInput>,
    /// The candidate stage's score.
    score: f64,
    /// The try (of the ask's widening tries) it was seen in.
    attempt: usize,
}

/// What the selector judged of one try's evidence.
struct Attempt {
    answerable: f32,
    threshold: f32,
}

/// An answerer that records what the selector would see and answers nothing, so
/// every try of the question (the thread, the mailbox, a wider search) is recorded.
#[derive(Default)]
struct Recorder {
    /// Whether to run the reader over the candidates it would read.
    reader: bool,
    rows: RefCell<Vec<Row>>,
    attempts: RefCell<Vec<Attempt>>,
    /// The standalone question the selector saw (a follow-up rewritten).
    question: RefCell<String>,
}

impl Answerer for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }

    fn answer(
        &self,
        request: &AnswerRequest<'_>,
        _on_delta: &mut dyn FnMut(&str),
    ) -> Result<Draft, AnswerError> {
        let f = ExtractiveAnswerer.featurize(request);
        let judged = ExtractiveAnswerer.judge(request)?;
        let stage = &shipped_model()
            .map_err(|e| AnswerError::Selector(e.to_string()))?
            .candidate;
        let mut attempts = self.attempts.borrow_mut();
        let attempt = attempts.len();
        attempts.push(Attempt {
            answerable: judged.answerable,
            threshold: judged.threshold,
        });
        *self.question.borrow_mut() = request.question.question.clone();
        let scores: Vec<f64> = f.features.iter().map(|x| stage.score(x)).collect();
        // The reader reads the trees' best candidates, as many as any fusion setting
        // may use.
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        order.truncate(READ_DEPTH);
        let inputs: Vec<Option<ReaderInput>> = f
            .candidates
            .iter()
            .enumerate()
            .map(|(i, c)| {
                order
                    .contains(&i)
                    .then(|| reader_input(&request.pack.items[c.item], c))
                    .flatten()
            })
            .collect();
        let read: Vec<ReaderInput> = inputs.iter().flatten().cloned().collect();
        let mut logits = request
            .read
            .filter(|_| self.reader)
            .and_then(|r| r(&request.question.question, &read))
            .unwrap_or_default()
            .into_iter();
        let mut rows = self.rows.borrow_mut();
        for (((c, x), input), score) in f.candidates.iter().zip(f.features).zip(&inputs).zip(scores)
        {
            let item = &request.pack.items[c.item];
            rows.push(Row {
                score,
                attempt,
                x,
                message_id: item.message_id.clone(),
                text: c.text.clone(),
                kind: format!("{:?}", c.kind),
                reader: input.as_ref().and_then(|_| logits.next()),
                read: input.clone(),
            });
        }
        Ok(Draft::NoAnswer("recording".into()))
    }
}

fn bare(id: &str) -> String {
    id.trim().trim_matches(['<', '>']).to_string()
}

/// Whether a candidate's text holds one of the answers (or, for a long answer such
/// as a whole sentence, lies inside it). A participant (`Name <address>`) answers
/// when its name or its address does: a list of recipients names each of them.
fn answers(text: &str, kind: &str, answer_any: &[String]) -> bool {
    let t = normalize(text);
    let parts: Vec<String> = if kind.starts_with("Participant") {
        text.split(['<', '>'])
            .map(normalize)
            .filter(|p| p.len() >= 4)
            .collect()
    } else {
        Vec::new()
    };
    answer_any.iter().any(|a| {
        let a = normalize(a);
        !a.is_empty()
            && (t.contains(&a)
                || (a.len() >= 40 && t.len() >= 20 && a.contains(&t))
                || parts.iter().any(|p| a.contains(p.as_str())))
    })
}

pub fn run(args: DumpArgs, json_out: bool) -> Result<i32> {
    let engine = super::open_engine(args.store)
        .with_context(|| format!("opening {}", args.store.display()))?;
    let text = std::fs::read_to_string(args.questions)
        .with_context(|| format!("reading {}", args.questions.display()))?;
    let items: Vec<EvalItem> = parse_eval_items(&text).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(args.out)
            .with_context(|| format!("creating {}", args.out.display()))?,
    );
    let (mut rows_total, mut positives, mut with_positive) = (0usize, 0usize, 0usize);
    for (i, item) in items.iter().enumerate() {
        let recorder = Recorder {
            reader: args.reader,
            ..Recorder::default()
        };
        let mut opts = AskOptions::default();
        if let Some(id) = &item.thread_of {
            let msg = engine.find_message(id)?;
            opts.thread = engine.thread_of(&msg.key)?.map(|t| t.to_hex());
            opts.widen = false;
        }
        let mut conversation = Conversation::default();
        let turns: Vec<String> = if item.turns.is_empty() {
            item.question.iter().cloned().collect()
        } else {
            item.turns.clone()
        };
        for (t, q) in turns.iter().enumerate() {
            if t + 1 < turns.len() {
                // Earlier turns are answered for real, so the last one is read in
                // its conversation.
                engine.ask(
                    q,
                    &mut conversation,
                    &ExtractiveAnswerer,
                    &opts,
                    &mut |_| {},
                )?;
            } else {
                engine.ask(q, &mut conversation, &recorder, &opts, &mut |_| {})?;
            }
        }
        let standalone = recorder.question.borrow().clone();
        let gold: Vec<String> = item.gold_message_ids.iter().map(|g| bare(g)).collect();
        let mut seen = std::collections::HashMap::new();
        let mut cands = Vec::new();
        let mut any_positive = false;
        let attempts = recorder.attempts.into_inner();
        let mut tries: Vec<Vec<usize>> = vec![Vec::new(); attempts.len()];
        for row in recorder.rows.into_inner() {
            let mid = row.message_id.as_deref().map(bare).unwrap_or_default();
            if let Some(&at) = seen.get(&(mid.clone(), row.text.clone())) {
                if let Some(t) = tries.get_mut(row.attempt) {
                    if !t.contains(&at) {
                        t.push(at);
                    }
                }
                continue;
            }
            seen.insert((mid.clone(), row.text.clone()), cands.len());
            if let Some(t) = tries.get_mut(row.attempt) {
                t.push(cands.len());
            }
            let gold_message = gold.contains(&mid);
            let label = item.answerable()
                && gold_message
                && answers(&row.text, &row.kind, &item.answer_any);
            any_positive |= label;
            positives += usize::from(label);
            cands.push(json!({
                "x": row.x,
                "label": u8::from(label),
                "gold_message": u8::from(gold_message),
                "kind": row.kind,
                "text": row.text,
                "reader": row.reader,
                "read": row.read,
                "score": row.score,
                "message": mid,
            }));
        }
        rows_total += cands.len();
        with_positive += usize::from(any_positive);
        let mut line = json!({
            "id": item.id,
            "question": standalone,
            "set": args.set,
            "split": args.split,
            "kind": item.kind,
            "answerable": item.answerable(),
            "has_positive": any_positive,
            "candidates": cands,
            "tries": attempts.iter().zip(&tries).map(|(a, t)| json!({
                "answerable": a.answerable,
                "threshold": a.threshold,
                "candidates": t,
            })).collect::<Vec<_>>(),
        });
        if i == 0 {
            line["features"] = json!(FEATURE_NAMES);
        }
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    let summary = json!({
        "items": items.len(),
        "answerable": items.iter().filter(|i| i.answerable()).count(),
        "answerable_with_a_positive_candidate": with_positive,
        "candidates": rows_total,
        "positive": positives,
        "out": args.out.display().to_string(),
    });
    if json_out {
        print_json(&summary)?;
    } else {
        outln!("{summary}");
    }
    Ok(0)
}
