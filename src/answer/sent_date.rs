//! "When did Oskar send it?", "when was the memo written?": a question of when a
//! message was sent ([`Question::asks_when_sent`]) is answered by the chosen
//! message's date, quoted from its headers, not by a date its text names.

use super::compose::Selection;
use super::evidence::{date_line, EvidencePack, Role};
use super::select::Scored;
use crate::query::question::Question;
use crate::query::terms::content_words;

/// The answer: the date of the best candidate's message, when the question names
/// no one or names its sender. None when the message has no date, or was sent by
/// someone other than the one the question names.
pub fn sent_date(scored: &[Scored], pack: &EvidencePack, question: &Question) -> Option<Selection> {
    let best = scored.first()?;
    let item = pack.items.get(best.candidate.item)?;
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
        return None;
    }
    let timestamp = item.date?;
    let line = date_line(timestamp)?;
    let short = chrono::DateTime::from_timestamp(timestamp, 0)?
        .format("%A, %B %-d, %Y, %H:%M UTC")
        .to_string();
    Some(Selection {
        text: format!("{short} — \"Date: {line}\" [{}]", item.n),
        short_answer: Some(short),
        superseded: Vec::new(),
        probability: best.probability,
    })
}
