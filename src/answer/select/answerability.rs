//! Whether the evidence answers the question at all: the second stage of the
//! selector. Its features are the question's (type, cues, expected kinds) and what
//! the first stage found (the best candidates' scores and the gap between them, the
//! best candidate's fit and overlap, the best fit of any candidate). Its calibrated
//! probability is what Quoth abstains on: a near miss (the mail speaks of the same
//! people and topic but never gives the detail asked) scores low even when a
//! sentence about the topic scores well as a candidate.

use super::features::FEATURE_NAMES;
use super::Scored;

/// Question-level feature names, in vector order.
pub const QUESTION_FEATURE_NAMES: &[&str] = &[
    "best",
    "second",
    "gap",
    "top3_mean",
    "candidates",
    "best_kind_sentence",
    "best_kind_sender",
    "best_kind_to",
    "best_kind_cc",
    "best_kind_subject",
    "best_kind_attachment",
    "best_type_fit",
    "best_focus_in_text",
    "best_lex",
    "best_sim",
    "best_slots_present",
    "best_slots_contradicted",
    "best_retrieval_rank",
    "max_focus_in_text",
    "max_focus_in_message",
    "max_lex",
    "max_sim",
    "max_slots_present",
    "max_type_fit",
    "max_lex_message",
];

/// Candidate features copied from the question's first candidate: they are the
/// question's own (its type, cues, slots and expected kinds).
const QUESTION_OWN: &[&str] = &[
    "q_who",
    "q_when",
    "q_how_much",
    "q_where",
    "q_yes_no",
    "q_list",
    "q_what",
    "cue_sender",
    "cue_recipient",
    "cue_address",
    "cue_subject",
    "cue_attachment",
    "cue_request",
    "cue_money",
    "q_has_focus",
    "slots",
    "q_terms",
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
    "scoped",
];

/// All question-level feature names: [`QUESTION_FEATURE_NAMES`], then the question's
/// own features.
pub fn names() -> Vec<&'static str> {
    QUESTION_FEATURE_NAMES
        .iter()
        .chain(QUESTION_OWN)
        .copied()
        .collect()
}

fn index(name: &str) -> usize {
    FEATURE_NAMES.iter().position(|n| *n == name).unwrap_or(0)
}

/// The question-level vector of a question's scored candidates (best first), with
/// each candidate's feature vector.
pub fn question_features(scored: &[(Scored, Vec<f32>)]) -> Vec<f32> {
    let score = |i: usize| scored.get(i).map_or(-10.0, |s| s.0.score as f32);
    let best = score(0);
    let second = score(1);
    let top3 = scored.iter().take(3).map(|s| s.0.score as f32).sum::<f32>()
        / scored.len().clamp(1, 3) as f32;
    let mut out = vec![
        best,
        second,
        best - second,
        if scored.is_empty() { -10.0 } else { top3 },
        (1.0 + scored.len() as f32).ln(),
    ];
    let of_best = |name: &str| scored.first().map_or(0.0, |s| s.1[index(name)]);
    for name in [
        "kind_sentence",
        "kind_sender",
        "kind_to",
        "kind_cc",
        "kind_subject",
        "kind_attachment",
        "type_fit",
        "focus_in_text",
        "lex",
        "sim",
        "slots_present",
        "slots_contradicted",
        "retrieval_rank",
    ] {
        out.push(of_best(name));
    }
    let max_of = |name: &str| {
        let i = index(name);
        scored.iter().map(|s| s.1[i]).fold(0.0f32, f32::max)
    };
    for name in [
        "focus_in_text",
        "focus_in_message",
        "lex",
        "sim",
        "slots_present",
        "type_fit",
        "lex_message",
    ] {
        out.push(max_of(name));
    }
    for name in QUESTION_OWN {
        out.push(of_best(name));
    }
    debug_assert_eq!(out.len(), QUESTION_FEATURE_NAMES.len() + QUESTION_OWN.len());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_a_candidate_feature_or_an_aggregate() {
        for n in QUESTION_OWN {
            assert!(FEATURE_NAMES.contains(n), "{n}");
        }
        assert_eq!(question_features(&[]).len(), names().len());
    }
}
