//! "Who received it?", "who wrote it?", "who is mentioned?": a question that says
//! which part the person plays ([`AskedRole`]) is answered by a candidate of that
//! part. The trees score a message's header facts by the question's words, and
//! "who received the email?" shares as many with the sender's line as with a
//! recipient's; a person the text names is in a sentence, not in the headers.

use super::candidates::CandidateKind;
use super::detect::find_all;
use super::evidence::{EvidencePack, Role};
use super::select::Scored;
use crate::query::asks::AskedRole;
use crate::query::question::{AnswerKind, Question};
use std::collections::HashSet;

/// Puts first a candidate of the part the question asks for, from the message the
/// best candidate comes from. Err says why that message cannot answer: its headers
/// name no one of that part, its text names no one, or no single recipient is its
/// main one.
pub fn fit_role(
    scored: &mut Vec<Scored>,
    pack: &EvidencePack,
    question: &Question,
    known_people: &HashSet<String>,
) -> Result<(), String> {
    let Some(asked) = question.asks_role() else {
        return Ok(());
    };
    let message_of = |s: &Scored| pack.items.get(s.candidate.item).map(|it| it.key.clone());
    let Some(chosen) = scored.first().and_then(message_of) else {
        return Ok(());
    };
    let ours = |s: &Scored| message_of(s).as_deref() == Some(chosen.as_str());
    let best_role = scored.first().and_then(|s| role_of(s.candidate.kind));
    let wanted: fn(Role) -> bool = match asked {
        AskedRole::Mentioned => {
            if best_role.is_none() {
                return Ok(());
            }
            let names_someone = |s: &Scored| {
                find_all(&s.candidate.text, known_people)
                    .iter()
                    .any(|f| matches!(f.kind, AnswerKind::Person | AnswerKind::Organization))
            };
            let found = scored.iter().position(|s| {
                s.candidate.kind == CandidateKind::Sentence && ours(s) && names_someone(s)
            });
            return match found {
                Some(i) => {
                    scored[..=i].rotate_right(1);
                    Ok(())
                }
                None => Err("the message's own text names no one".to_string()),
            };
        }
        AskedRole::Recipients { main: true } => {
            let mut to: Vec<usize> = Vec::new();
            for (i, s) in scored.iter().enumerate() {
                if ours(s)
                    && role_of(s.candidate.kind) == Some(Role::To)
                    && !to
                        .iter()
                        .any(|&j| scored[j].candidate.text == s.candidate.text)
                {
                    to.push(i);
                }
            }
            return match to.as_slice() {
                [one] => {
                    // The main recipient alone, first: the message's other people are not it.
                    let main = scored.remove(*one);
                    scored.retain(|s| !(ours(s) && role_of(s.candidate.kind).is_some()));
                    scored.insert(0, main);
                    Ok(())
                }
                [] => Err("the message's headers address it to no one".to_string()),
                many => Err(format!(
                    "the message is addressed to {} people alike; none is its main recipient",
                    many.len()
                )),
            };
        }
        AskedRole::Recipients { main: false } => |r| matches!(r, Role::To | Role::Cc),
        AskedRole::Sender => |r| r == Role::From,
    };
    let Some(role) = best_role else {
        return Ok(());
    };
    if wanted(role) {
        return Ok(());
    }
    let found = scored
        .iter()
        .position(|s| ours(s) && role_of(s.candidate.kind).is_some_and(wanted));
    match found {
        Some(i) => {
            scored[..=i].rotate_right(1);
            Ok(())
        }
        None => Err(match asked {
            AskedRole::Sender => "the message's headers name no sender".to_string(),
            _ => "the message's headers name no recipient".to_string(),
        }),
    }
}

fn role_of(kind: CandidateKind) -> Option<Role> {
    match kind {
        CandidateKind::Participant { role, .. } => Some(role),
        _ => None,
    }
}
