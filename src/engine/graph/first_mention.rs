//! Who first wrote about a topic, and when: the oldest message whose own authored
//! text holds every word of the topic. Quoted and forwarded text does not count (it
//! is someone else's mention, written earlier), nor do attachments. The answer quotes
//! the sentence that mentions it.

use super::answer::{validated, GraphOutcome};
use crate::answer::sentences::sentences;
use crate::engine::retrieval::search::SearchOrder;
use crate::engine::{Engine, Result};
use crate::mail::model::MessageKey;
use crate::query::terms::{content_words, stem};
use std::collections::HashSet;

/// Oldest matching emails read for an authored mention.
const OLDEST: usize = 40;

impl Engine {
    pub(in crate::engine) fn first_mention(&self, topic: &[String]) -> Result<GraphOutcome> {
        let query = topic
            .iter()
            .map(|w| w.trim_end_matches("'s").replace(['"', '\\'], ""))
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let now = self.mailbox_context()?.newest;
        let Ok(hits) = self.search_in_order(&query, OLDEST, now, SearchOrder::Oldest) else {
            return Ok(GraphOutcome::NotForGraph);
        };
        let wanted: Vec<String> = content_words(&query).iter().map(|w| stem(w)).collect();
        if wanted.is_empty() {
            return Ok(GraphOutcome::NotForGraph);
        }
        for hit in hits {
            let Some(key) = MessageKey::from_hex(&hit.key) else {
                continue;
            };
            let Some(msg) = self.store.message(&key)? else {
                continue;
            };
            for chunk in self.store.chunks_of(&key)? {
                if chunk.origin.is_some() || chunk.attachment.is_some() {
                    continue;
                }
                let Some(sentence) = mentioning_sentence(&chunk.cite_text, &wanted) else {
                    continue;
                };
                let like = self.header_item(&msg)?;
                let mut item = self.other_item(&msg, &chunk, &like)?;
                item.n = 1;
                let when = msg
                    .date
                    .and_then(|d| chrono::DateTime::from_timestamp(d, 0))
                    .map(|d| d.format("%B %-d, %Y").to_string())
                    .unwrap_or_default();
                let text = format!(
                    "{} first mentioned it on {when}: \u{201c}{sentence}\u{201d} [1]",
                    msg.sender()
                );
                let short = format!("{}, {when}", msg.sender());
                let Some(answered) = validated(&text, vec![item], short) else {
                    return Ok(GraphOutcome::NotForGraph);
                };
                return Ok(GraphOutcome::Answered(
                    answered,
                    "answered from the oldest message that mentions it".into(),
                ));
            }
        }
        Ok(GraphOutcome::NotForGraph)
    }
}

/// The first sentence of `text` that holds every wanted stem.
fn mentioning_sentence<'a>(text: &'a str, wanted: &[String]) -> Option<&'a str> {
    sentences(text)
        .into_iter()
        .map(|s| s.text(text).trim())
        .find(|s| {
            let stems: HashSet<String> = content_words(s).iter().map(|w| stem(w)).collect();
            wanted.iter().all(|w| stems.contains(w))
        })
}
