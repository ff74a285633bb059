//! "When did Oskar send it?", "when was the memo written?": a question of when a
//! message was sent ([`Question::asks_when_sent`]) is answered by the chosen
//! message's date, quoted from its headers, not by a date its text names.

use super::compose::Selection;
use super::evidence::{date_line, EvidencePack, Role};
use super::select::Scored;
use crate::query::question::Question;
use crate::query::terms::content_words;

/// The answer: the date of the best candidate's message, when the question names
/// no one or names its sender. Err says why not when it names someone else ("when
/// did Ana send it?" of a message Oskar sent); None when the message has no date.
pub fn sent_date(
    scored: &[Scored],
    pack: &EvidencePack,
    question: &Question,
) -> Result<Option<Selection>, String> {
    let Some((best, item)) = scored
        .first()
        .and_then(|b| Some((b, pack.items.get(b.candidate.item)?)))
    else {
        return Ok(None);
    };
    let sender: Vec<String> = item
        .participants
        .iter()
        .filter(|p| p.role == Role::From)
        .flat_map(|p| content_words(&p.display()))
        .collect();
    // "When did Ana send it?" of a message Oskar sent: the date is not Ana's.
    let named_sender = question.people.is_empty()
        || question.people.iter().any(|p| {
            content_words(&p.mention)
                .iter()
                .any(|w| sender.iter().any(|s| s == w))
        });
    if !named_sender {
        return Err("the message it would come from was sent by someone else".to_string());
    }
    let Some((timestamp, line)) = item.date.and_then(|t| Some((t, date_line(t)?))) else {
        return Ok(None);
    };
    let Some(when) = chrono::DateTime::from_timestamp(timestamp, 0) else {
        return Ok(None);
    };
    let short = when.format("%A, %B %-d, %Y, %H:%M UTC").to_string();
    Ok(Some(Selection {
        text: format!("{short} — \"Date: {line}\" [{}]", item.n),
        short_answer: Some(short),
        superseded: Vec::new(),
        probability: best.probability,
    }))
}
