//! The features the evidence selector weighs, for each candidate of a question. All
//! are general to any mailbox: how close the candidate is to the question in meaning
//! (the MiniLM cosine, one feature among many) and in words (IDF-weighted overlap of
//! Snowball stems), whether it states the kind of value the question asks for,
//! whether it has the question's specific numbers, codes and names or others of
//! their kind instead, what kind of candidate it is (a sentence, a header fact) and
//! what the question asks about the message, how retrieval ranked its message, how
//! recent the message is, and the shape of the sentence.
//!
//! The names are part of the model's file: a model is only used with the features it
//! was trained on (src/answer/select/model.rs checks them).

use crate::answer::candidates::{Candidate, CandidateKind};
use crate::answer::detect::{find_all, Found};
use crate::answer::evidence::{EvidencePack, Role};
use crate::lexicon::{has_phrase, GREETINGS_AND_SIGNOFFS, REQUEST_CUES, REVISION_CUES};
use crate::query::question::{AnswerKind, Question, QuestionType, SlotKind};
use crate::query::terms::{content_words, stem};
use std::collections::{HashMap, HashSet};

/// The feature names, in the order of every feature vector.
pub const FEATURE_NAMES: &[&str] = &[
    "kind_sentence",
    "kind_sender",
    "kind_to",
    "kind_cc",
    "kind_subject",
    "kind_attachment",
    "recipient_rank",
    "sim",
    "sim_window",
    "sim_passage",
    "sim_rank",
    "sim_gap",
    "lex",
    "lex_window",
    "lex_message",
    "lex_subject",
    "lex_rank",
    "lex_gap",
    "focus_in_text",
    "focus_head_in_text",
    "focus_in_message",
    "expects_person",
    "expects_organization",
    "expects_date",
    "expects_time",
    "expects_money",
    "expects_quantity",
    "expects_place",
    "expects_phone",
    "expects_email",
    "expects_code",
    "has_person",
    "has_organization",
    "has_date",
    "has_time",
    "has_money",
    "has_quantity",
    "has_place",
    "has_phone",
    "has_email",
    "has_code",
    "type_fit",
    "type_fit_window",
    "new_name",
    "slots",
    "slots_present",
    "slots_in_message",
    "slots_contradicted",
    "cue_sender",
    "cue_recipient",
    "cue_address",
    "cue_subject",
    "cue_attachment",
    "cue_request",
    "cue_money",
    "q_who",
    "q_when",
    "q_how_much",
    "q_where",
    "q_yes_no",
    "q_list",
    "q_what",
    "q_has_focus",
    "q_terms",
    "participant_named",
    "retrieval_rank",
    "retrieval_score",
    "scoped",
    "date_rank",
    "newest",
    "words",
    "position",
    "first_sentence",
    "is_question",
    "request_cue",
    "greeting",
    "sentences_in_passage",
    "forwarded",
    "revision_cue",
    "novelty",
    "new_value",
    "new_expected_value",
    "prev_lex",
    "next_lex",
    "prev_sim",
    "next_sim",
    "prev_new_expected_value",
    "passage_best_lex",
    "distance_to_passage_best_lex",
    "matched_terms",
    "lex_and_new_value",
    "window_lex_and_new_value",
    "focus_and_new_value",
    "header_without_cue",
];

/// What the features of one question are computed from.
pub struct Context<'a> {
    pub question: &'a Question,
    pub pack: &'a EvidencePack,
    /// Inverse document frequency of question stems (missing stems weigh 1, scope
    /// words 0).
    pub weights: &'a HashMap<String, f32>,
    /// Lowercased name parts of people the mailbox knows.
    pub known_people: &'a HashSet<String>,
    /// The user scoped the question to this evidence (a thread).
    pub scoped: bool,
    /// Cosine of the question with each candidate's text, and with its window, in
    /// candidate order; None without the embedding model.
    pub similarity: Option<&'a [f32]>,
    pub window_similarity: Option<&'a [f32]>,
}

/// What the features of every candidate draw on: the question's weighted terms
/// and names, each message's stems and text, the pack's dates, and each
/// candidate's overlap, similarity, values and passage.
struct Shared<'c> {
    terms: Vec<(String, f32)>,
    question_lower: String,
    q_names: Vec<String>,
    q_mentions: Vec<String>,
    message_stems: HashMap<&'c str, HashSet<String>>,
    message_text: HashMap<&'c str, String>,
    dates: Vec<i64>,
    newest: Option<i64>,
    max_score: f32,
    lex: Vec<f32>,
    best_lex: f32,
    sims: Vec<f32>,
    best_sim: f32,
    question_stems: HashSet<String>,
    found_all: Vec<Vec<Found>>,
    new_values: Vec<(bool, bool)>,
    passage_best: HashMap<usize, (f32, usize)>,
}

impl<'c> Shared<'c> {
    fn new(ctx: &'c Context, cands: &[Candidate]) -> Self {
        let q = ctx.question;
        let terms: Vec<(String, f32)> = q
            .stems
            .iter()
            .map(|s| (s.clone(), ctx.weights.get(s).copied().unwrap_or(1.0)))
            .filter(|t| t.1 > 0.0)
            .collect();
        let question_lower = q.question.to_lowercase();
        let q_names: Vec<String> = q
            .slots
            .iter()
            .filter(|s| s.kind == SlotKind::Name)
            .map(|s| s.text.to_lowercase())
            .collect();
        let q_mentions: Vec<String> = q
            .people
            .iter()
            .flat_map(|p| p.match_terms.iter().cloned())
            .chain(q.people.iter().map(|p| p.mention.to_lowercase()))
            .collect();

        // Per message: the stems of everything it says, its subject's stems, its date.
        let mut message_stems: HashMap<&str, HashSet<String>> = HashMap::new();
        let mut message_text: HashMap<&str, String> = HashMap::new();
        for item in &ctx.pack.items {
            let entry = message_stems.entry(item.key.as_str()).or_default();
            entry.extend(stem_set(&item.cite_text));
            entry.extend(stem_set(&item.subject));
            let text = message_text.entry(item.key.as_str()).or_default();
            text.push_str(&item.cite_text);
            text.push('\n');
        }
        let mut dates: Vec<i64> = ctx.pack.items.iter().filter_map(|i| i.date).collect();
        dates.sort_unstable();
        dates.dedup();
        let newest = dates.last().copied();
        let max_score = ctx
            .pack
            .items
            .iter()
            .map(|i| i.score)
            .fold(f32::MIN, f32::max)
            .max(1e-6);

        let lex: Vec<f32> = cands
            .iter()
            .map(|c| weighted_share(&terms, &stem_set(&c.text)))
            .collect();
        let best_lex = lex.iter().copied().fold(0.0, f32::max);
        let sims: Vec<f32> = ctx
            .similarity
            .map(|s| s.to_vec())
            .unwrap_or_else(|| vec![crate::answer::extract::UNKNOWN_SIMILARITY; cands.len()]);
        let best_sim = sims.iter().copied().fold(f32::MIN, f32::max);

        // What each candidate states that the question does not.
        let question_stems: HashSet<String> = q.stems.iter().cloned().collect();
        let found_all: Vec<Vec<Found>> = cands
            .iter()
            .map(|c| find_all(&c.text, ctx.known_people))
            .collect();
        let new_values: Vec<(bool, bool)> = cands
            .iter()
            .zip(&found_all)
            .map(|(c, found)| {
                let fresh: Vec<&Found> = found
                    .iter()
                    .filter(|x| {
                        c.text
                            .get(x.span.clone())
                            .is_some_and(|v| !question_lower.contains(&v.to_lowercase()))
                    })
                    .collect();
                let expected = fresh.iter().any(|x| q.expects.contains(&x.kind));
                (!fresh.is_empty(), expected)
            })
            .collect();
        // Neighbours in the same passage, and the passage's best lexical match.
        let mut passage_best: HashMap<usize, (f32, usize)> = HashMap::new();
        for (ci, c) in cands.iter().enumerate() {
            if c.kind == CandidateKind::Sentence {
                let e = passage_best.entry(c.item).or_insert((-1.0, c.position));
                if lex[ci] > e.0 {
                    *e = (lex[ci], c.position);
                }
            }
        }
        Self {
            terms,
            question_lower,
            q_names,
            q_mentions,
            message_stems,
            message_text,
            dates,
            newest,
            max_score,
            lex,
            best_lex,
            sims,
            best_sim,
            question_stems,
            found_all,
            new_values,
            passage_best,
        }
    }

    /// The candidate next to `ci` in the same passage (`step` -1 or 1).
    fn neighbour(cands: &[Candidate], ci: usize, step: isize) -> Option<usize> {
        let j = ci.checked_add_signed(step)?;
        (j < cands.len()
            && cands[j].item == cands[ci].item
            && cands[j].kind == CandidateKind::Sentence
            && cands[ci].kind == CandidateKind::Sentence)
            .then_some(j)
    }
}

/// A feature vector for each candidate, in order.
pub fn features(ctx: &Context, cands: &[Candidate]) -> Vec<Vec<f32>> {
    let shared = Shared::new(ctx, cands);
    (0..cands.len())
        .map(|ci| {
            let mut f = Vec::with_capacity(FEATURE_NAMES.len());
            about_the_candidate(ctx, &shared, cands, ci, &mut f);
            about_the_question(ctx, &shared, cands, ci, &mut f);
            debug_assert_eq!(f.len(), FEATURE_NAMES.len());
            f
        })
        .collect()
}

/// The candidate's kind, meaning, words, the question's focus and the values the
/// candidate states, against what the question asks.
fn about_the_candidate(
    ctx: &Context,
    shared: &Shared,
    cands: &[Candidate],
    ci: usize,
    f: &mut Vec<f32>,
) {
    let q = ctx.question;
    let c = &cands[ci];
    let Shared {
        terms,
        question_lower,
        message_stems,
        message_text,
        lex,
        best_lex,
        sims,
        best_sim,
        found_all,
        ..
    } = shared;
    let item = &ctx.pack.items[c.item];
    let own = stem_set(&c.text);
    let window = stem_set(&c.window);
    let message = &message_stems[item.key.as_str()];
    let found = &found_all[ci];
    let found_window = find_all(&c.window, ctx.known_people);
    let (role_to, role_cc, sender, recipient_rank) = match c.kind {
        CandidateKind::Participant { role, rank } => (
            role == Role::To,
            role == Role::Cc,
            role == Role::From,
            rank as f32,
        ),
        _ => (false, false, false, 0.0),
    };
    push_bool(f, c.kind == CandidateKind::Sentence);
    push_bool(f, sender);
    push_bool(f, role_to);
    push_bool(f, role_cc);
    push_bool(f, c.kind == CandidateKind::Subject);
    push_bool(f, c.kind == CandidateKind::Attachment);
    f.push(recipient_rank);
    // Meaning.
    f.push(sims[ci]);
    f.push(
        ctx.window_similarity
            .map_or(crate::answer::extract::UNKNOWN_SIMILARITY, |w| w[ci]),
    );
    f.push(item.dense.unwrap_or(0.0));
    f.push(rank_of(sims, ci));
    f.push(if ctx.similarity.is_some() {
        sims[ci] - best_sim
    } else {
        0.0
    });
    // Words.
    f.push(lex[ci]);
    f.push(weighted_share(terms, &window));
    f.push(weighted_share(terms, message));
    f.push(weighted_share(terms, &stem_set(&item.subject)));
    f.push(rank_of(lex, ci));
    f.push(lex[ci] - best_lex);
    // What the question asks about.
    f.push(focus_share(&q.focus, &own));
    push_bool(f, q.focus.last().is_some_and(|h| own.contains(h)));
    f.push(focus_share(&q.focus, message));
    for kind in AnswerKind::ALL {
        push_bool(f, q.expects(kind));
    }
    for kind in AnswerKind::ALL {
        push_bool(f, found.iter().any(|x| x.kind == kind));
    }
    let fits = |found: &[Found]| q.expects.iter().any(|k| found.iter().any(|x| x.kind == *k));
    push_bool(f, fits(found));
    push_bool(f, fits(&found_window));
    push_bool(f, new_name(&c.text, found, question_lower));
    // The question's specific numbers, codes and names.
    let n_slots = q.slots.len() as f32;
    f.push(n_slots);
    let present = |text: &str| {
        let t = text.to_lowercase();
        q.slots
            .iter()
            .filter(|s| contains_word(&t, &s.text.to_lowercase()))
            .count() as f32
    };
    f.push(if n_slots > 0.0 {
        present(&c.text) / n_slots
    } else {
        0.0
    });
    f.push(if n_slots > 0.0 {
        present(&message_text[item.key.as_str()]) / n_slots
    } else {
        0.0
    });
    push_bool(f, contradicts(q, &c.text, found));
}

/// The question's cues and type, retrieval and time, the sentence itself, what it
/// adds to the question, its neighbours, and the conjunctions that mark an answer.
fn about_the_question(
    ctx: &Context,
    shared: &Shared,
    cands: &[Candidate],
    ci: usize,
    f: &mut Vec<f32>,
) {
    let q = ctx.question;
    let c = &cands[ci];
    let item = &ctx.pack.items[c.item];
    let own = stem_set(&c.text);
    let lower = c.text.to_lowercase();
    let Shared {
        terms,
        q_names,
        q_mentions,
        dates,
        newest,
        max_score,
        lex,
        sims,
        question_stems,
        new_values,
        passage_best,
        ..
    } = shared;
    let neighbour = |ci: usize, step: isize| Shared::neighbour(cands, ci, step);
    // The question's cues and type.
    let cues = &q.cues;
    for b in [
        cues.sender,
        cues.recipient,
        cues.address,
        cues.subject,
        cues.attachment,
        cues.request,
        cues.money,
    ] {
        push_bool(f, b);
    }
    for t in [
        QuestionType::Who,
        QuestionType::When,
        QuestionType::HowMuch,
        QuestionType::Where,
        QuestionType::YesNo,
        QuestionType::List,
        QuestionType::What,
    ] {
        push_bool(f, q.qtype == t);
    }
    push_bool(f, !q.focus.is_empty());
    f.push(terms.len() as f32);
    let named = match c.kind {
        CandidateKind::Participant { .. } => {
            q_names.iter().any(|n| lower.contains(n.as_str()))
                || q_mentions
                    .iter()
                    .any(|m| !m.is_empty() && lower.contains(m.as_str()))
        }
        _ => false,
    };
    push_bool(f, named);
    // Retrieval and time.
    f.push(1.0 / item.rank.max(1) as f32);
    f.push(item.score / max_score);
    push_bool(f, ctx.scoped);
    let date_rank = item
        .date
        .and_then(|d| dates.iter().rev().position(|x| *x == d))
        .map_or(1.0, |p| p as f32 / dates.len().max(1) as f32);
    f.push(date_rank);
    push_bool(f, item.date.is_some() && item.date == *newest);
    // The sentence itself.
    let words = c.text.split_whitespace().count() as f32;
    f.push((1.0 + words).ln());
    f.push(c.position as f32 / c.of.max(1) as f32);
    push_bool(f, c.position == 0);
    push_bool(f, c.text.trim_end().ends_with('?'));
    push_bool(f, has_phrase(&lower, REQUEST_CUES));
    push_bool(
        f,
        words < 6.0 && GREETINGS_AND_SIGNOFFS.iter().any(|g| lower.starts_with(g)),
    );
    f.push(c.of as f32);
    push_bool(f, item.origin.is_some());
    push_bool(f, has_phrase(&lower, REVISION_CUES));
    // What it adds to the question.
    let novel = own.iter().filter(|s| !question_stems.contains(*s)).count();
    f.push(novel as f32 / own.len().max(1) as f32);
    push_bool(f, new_values[ci].0);
    push_bool(f, new_values[ci].1);
    let prev = neighbour(ci, -1);
    let next = neighbour(ci, 1);
    f.push(prev.map_or(0.0, |j| lex[j]));
    f.push(next.map_or(0.0, |j| lex[j]));
    f.push(prev.map_or(0.0, |j| sims[j]));
    f.push(next.map_or(0.0, |j| sims[j]));
    push_bool(f, prev.is_some_and(|j| new_values[j].1));
    let (best_lex_here, best_at) = passage_best
        .get(&c.item)
        .copied()
        .unwrap_or((lex[ci], c.position));
    f.push(best_lex_here);
    f.push((c.position as f32 - best_at as f32).abs().min(10.0));
    f.push(terms.iter().filter(|(t, _)| own.contains(t)).count() as f32);
    // The conjunctions that mark an answer: about the question, and stating a
    // value of the kind asked that the question does not give.
    let fresh = if new_values[ci].1 { 1.0 } else { 0.0 };
    let window_lex = lex[ci]
        .max(prev.map_or(0.0, |j| lex[j]))
        .max(next.map_or(0.0, |j| lex[j]));
    f.push(lex[ci] * fresh);
    f.push(window_lex * fresh);
    f.push(focus_share(&q.focus, &own) * fresh);
    let asks_about_message =
        cues.sender || cues.recipient || cues.address || cues.subject || cues.attachment;
    push_bool(f, c.kind.is_header() && !asks_about_message);
}

/// The share of the question's focus words in `set` (0 without a focus).
fn focus_share(focus: &[String], set: &HashSet<String>) -> f32 {
    if focus.is_empty() {
        0.0
    } else {
        focus.iter().filter(|s| set.contains(*s)).count() as f32 / focus.len() as f32
    }
}

fn push_bool(f: &mut Vec<f32>, b: bool) {
    f.push(if b { 1.0 } else { 0.0 });
}

fn stem_set(text: &str) -> HashSet<String> {
    content_words(text).iter().map(|w| stem(w)).collect()
}

fn weighted_share(terms: &[(String, f32)], present: &HashSet<String>) -> f32 {
    let total: f32 = terms.iter().map(|t| t.1).sum();
    if total <= 0.0 {
        return 0.0;
    }
    terms
        .iter()
        .filter(|(s, _)| present.contains(s))
        .map(|t| t.1)
        .sum::<f32>()
        / total
}

/// Where value `i` ranks among `values` (0 = highest), as a share of their count.
fn rank_of(values: &[f32], i: usize) -> f32 {
    let v = values[i];
    let above = values.iter().filter(|x| **x > v).count();
    above as f32 / values.len().max(1) as f32
}

fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    })
}

/// Whether the candidate names someone or something the question does not.
fn new_name(text: &str, found: &[Found], question_lower: &str) -> bool {
    found
        .iter()
        .filter(|x| matches!(x.kind, AnswerKind::Person | AnswerKind::Organization))
        .any(|x| {
            text.get(x.span.clone())
                .is_some_and(|n| !question_lower.contains(&n.to_lowercase()))
        })
}

/// Whether the candidate gives another number or code of the kind the question
/// names, and not the question's own ("#2 and #3" for "#1").
fn contradicts(q: &Question, text: &str, found: &[Found]) -> bool {
    let lower = text.to_lowercase();
    q.slots
        .iter()
        .filter(|s| matches!(s.kind, SlotKind::Code | SlotKind::Number))
        .any(|s| {
            let own = s.text.to_lowercase();
            if contains_word(&lower, &own) {
                return false;
            }
            let hashed = own.starts_with('#');
            found.iter().any(|x| {
                let v = text.get(x.span.clone()).unwrap_or("").to_lowercase();
                match s.kind {
                    SlotKind::Code => x.kind == AnswerKind::Code && (v.starts_with('#') == hashed),
                    _ => x.kind == AnswerKind::Quantity,
                }
            })
        })
}

#[cfg(test)]
#[path = "features_tests.rs"]
mod tests;
