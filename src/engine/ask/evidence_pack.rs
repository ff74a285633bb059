//! The evidence pack of a question: the passages of the best hits, numbered, with
//! what an answerer needs to judge them (sender, recipients, quoted context).

use crate::answer::evidence::{Attribution, EvidenceItem, EvidencePack, Participant, Role};
use crate::answer::normalize::normalize;
use crate::engine::retrieval::retrieve::Retrieval;
use crate::engine::{Engine, Result};
use crate::index::lexical_query::{compile, StateSets};
use crate::mail::clean::SegmentKind;
use crate::mail::model::{display_list, MessageKey};
use crate::query::people::PersonMention;
use crate::query::syntax::Query;
use crate::store::{display_name, embed_id, StoredChunk, StoredMessage};

impl Engine {
    /// The numbered passages: each hit's best chunk, then the other chunks of the
    /// three best messages, within the token budget.
    pub(in crate::engine) fn evidence_pack(
        &self,
        retrieval: &Retrieval,
        people: &[PersonMention],
        budget: usize,
        question_vector: Option<&[f32]>,
    ) -> Result<EvidencePack> {
        let dense = |embed_text: &str| -> Option<f32> {
            let q = question_vector?;
            let v = self.retrieval.vectors.get(embed_id(embed_text))?;
            Some(v.iter().zip(q).map(|(a, b)| a * b).sum())
        };
        let mut items = Vec::new();
        let mut extra = Vec::new();
        for (rank, hit) in retrieval.hits.iter().enumerate() {
            let Some(key) = MessageKey::from_hex(&hit.hit.key) else {
                continue;
            };
            let message = self.store.message(&key)?;
            let recipients = message
                .as_ref()
                .map(|m| {
                    format!(
                        "{} {} {}",
                        display_list(&m.to),
                        display_list(&m.cc),
                        named_participants(people, m).join(" ")
                    )
                })
                .unwrap_or_default();
            let context = message.as_ref().map(quoted_context).unwrap_or_default();
            let participants = message.as_ref().map(participants).unwrap_or_default();
            let attachments: Vec<String> =
                message.as_ref().map(attachment_names).unwrap_or_default();
            let item = |c: &StoredChunk| EvidenceItem {
                n: 0,
                key: hit.hit.key.clone(),
                message_id: hit.hit.message_id.clone(),
                thread_id: hit.hit.thread_id.clone(),
                date: hit.hit.date,
                from: hit.hit.from.clone(),
                recipients: recipients.clone(),
                subject: hit.hit.subject.clone(),
                context: context.clone(),
                cite_text: c.cite_text.clone(),
                start: c.start,
                end: c.end,
                attachment: place(c).0,
                page: place(c).1,
                place: c.attachment.as_ref().and_then(|a| a.where_()),
                later_version: None,
                fields: c.attachment.as_ref().is_some_and(|a| a.fields),
                score: hit.hit.score,
                rank: rank + 1,
                dense: dense(&c.embed_text),
                participants: participants.clone(),
                attachments: attachments.clone(),
                origin: c.origin.as_ref().map(attribution),
            };
            let best = hit.chunk.as_ref().map(|c| c.ordinal);
            let chunks = self.store.chunks_of(&key)?;
            let first = best
                .and_then(|o| chunks.iter().find(|c| c.ordinal == o))
                .or(chunks.first());
            if let Some(c) = first {
                items.push(item(c));
            }
            if rank < 3 {
                for c in &chunks {
                    if Some(c.ordinal) != first.map(|f| f.ordinal) {
                        extra.push(item(c));
                    }
                }
            }
        }
        items.extend(extra);
        for it in items.iter_mut().filter(|i| i.origin.is_some()) {
            if let Some(original) = self.original_of(it)? {
                *it = original;
            }
        }
        self.latest_events(&mut items)?;
        Ok(EvidencePack::build(items, budget))
    }

    /// The original of a forwarded or quoted passage, when the store holds it: a
    /// message with the same text as authored text. Then the original is cited.
    fn original_of(&self, item: &EvidenceItem) -> Result<Option<EvidenceItem>> {
        let words: Vec<&str> = item.cite_text.split_whitespace().take(8).collect();
        if words.len() < 4 {
            return Ok(None);
        }
        let phrase = Query::Phrase(words.join(" "));
        let hits = self.retrieval.lexical.search(
            compile(&phrase, &self.retrieval.lexical, &StateSets::default()).as_ref(),
            10,
        )?;
        let wanted = normalize(&item.cite_text);
        let head: String = wanted.chars().take(120).collect();
        for hit in hits {
            if hit.key.to_hex() == item.key {
                continue;
            }
            let Some(msg) = self.store.message(&hit.key)? else {
                continue;
            };
            for c in self.store.chunks_of(&hit.key)? {
                if c.origin.is_some() || c.attachment.is_some() {
                    continue;
                }
                if normalize(&c.cite_text).contains(&head) {
                    return Ok(Some(self.other_item(&msg, &c, item)?));
                }
            }
        }
        Ok(None)
    }
}

impl Engine {
    /// A passage of another message than a hit's (the original of a forward, the
    /// latest version of an event), as an evidence item with `like`'s retrieval
    /// scores.
    pub(in crate::engine) fn other_item(
        &self,
        msg: &StoredMessage,
        c: &StoredChunk,
        like: &EvidenceItem,
    ) -> Result<EvidenceItem> {
        let at = c.attachment.as_ref();
        Ok(EvidenceItem {
            context: quoted_context(msg),
            cite_text: c.cite_text.clone(),
            start: c.start,
            end: c.end,
            attachment: at.map(|a| a.name.clone()),
            page: at.and_then(|a| a.page),
            place: at.and_then(|a| a.where_()),
            fields: at.is_some_and(|a| a.fields),
            n: like.n,
            score: like.score,
            rank: like.rank,
            dense: like.dense,
            ..self.header_item(msg)?
        })
    }
}

impl Engine {
    /// A message as evidence of its headers alone (who sent it, who got it): what a
    /// header citation quotes.
    pub(in crate::engine) fn header_item(&self, msg: &StoredMessage) -> Result<EvidenceItem> {
        let thread = self
            .store
            .thread_of(&msg.key)?
            .unwrap_or_else(|| crate::mail::model::ThreadId::of_root(&msg.key));
        Ok(EvidenceItem {
            n: 0,
            key: msg.key.to_hex(),
            message_id: msg.message_id.clone(),
            thread_id: thread.to_hex(),
            date: msg.date,
            from: msg.sender(),
            recipients: format!("{} {}", display_list(&msg.to), display_list(&msg.cc)),
            subject: msg.subject.clone(),
            context: String::new(),
            cite_text: String::new(),
            start: 0,
            end: 0,
            attachment: None,
            page: None,
            place: None,
            later_version: None,
            fields: false,
            score: 0.0,
            rank: 1,
            dense: None,
            participants: participants(msg),
            attachments: attachment_names(msg),
            origin: None,
        })
    }
}

/// Who wrote a carried original, for its evidence item.
fn attribution(e: &crate::mail::embedded::EmbeddedMessage) -> Attribution {
    Attribution {
        author: e.author.clone(),
        date: e.date.clone(),
        timestamp: e.timestamp,
        how: e.carried.label().to_string(),
    }
}

/// The names of a message's attachments as the reader lists them.
fn attachment_names(msg: &StoredMessage) -> Vec<String> {
    msg.attachments
        .iter()
        .map(|a| display_name(a.name.as_deref(), a.index))
        .collect()
}

/// A message's headers as a header citation quotes them.
pub(crate) fn message_header_text(msg: &StoredMessage) -> String {
    crate::answer::evidence::header_text(
        &participants(msg),
        msg.date,
        &msg.subject,
        &attachment_names(msg),
    )
}

/// A message's sender and recipients, in header order.
fn participants(msg: &StoredMessage) -> Vec<Participant> {
    let mut out = Vec::new();
    for (role, list) in [
        (Role::From, &msg.from),
        (Role::To, &msg.to),
        (Role::Cc, &msg.cc),
    ] {
        for mb in list {
            out.push(Participant {
                role,
                name: mb.name.clone(),
                address: mb.address.clone(),
            });
        }
    }
    out
}

/// The most of a message's quoted history kept as context for its passages.
const CONTEXT_BYTES: usize = 2000;

/// The start of what a message quotes or forwards: what it replies to, without the
/// address lists of the quoted headers (Lotus Notes quotes list every recipient).
fn quoted_context(msg: &StoredMessage) -> String {
    let mut out = String::new();
    let quoted = msg
        .segments
        .iter()
        .filter(|seg| matches!(seg.kind, SegmentKind::Quoted | SegmentKind::Forwarded));
    for line in quoted.flat_map(|seg| msg.segment_text(seg).lines()) {
        if line.contains('@') || line.trim().is_empty() {
            continue;
        }
        if out.len() + line.len() > CONTEXT_BYTES {
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// An attachment's name and page, when a passage comes from one.
type Place = (Option<String>, Option<u32>);

fn place(chunk: &StoredChunk) -> Place {
    match &chunk.attachment {
        Some(a) => (Some(a.name.clone()), a.page),
        None => (None, None),
    }
}

/// The people the question named who are among a message's sender and recipients,
/// by the names the question used: a header may give a bare address
/// (wrentolliver@...) for the person asked about as "Wren Tolliver".
fn named_participants<'a>(people: &'a [PersonMention], msg: &StoredMessage) -> Vec<&'a str> {
    let participants = [&msg.from, &msg.to, &msg.cc].map(|list| display_list(list));
    named_among(people, &participants.join(" "))
}

/// The mentions whose addresses occur in `participants` (names and addresses).
fn named_among<'a>(people: &'a [PersonMention], participants: &str) -> Vec<&'a str> {
    let participants = participants.to_lowercase();
    people
        .iter()
        .filter(|p| {
            p.match_terms
                .iter()
                .any(|t| t.contains('@') && participants.contains(t.as_str()))
        })
        .map(|p| p.mention.as_str())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_address_takes_the_name_the_question_gave() {
        let people = vec![
            PersonMention {
                mention: "Wren Tolliver".into(),
                match_terms: vec!["wrentolliver".into(), "wrentolliver@dialup.example".into()],
                confidence: 0.9,
                correspondent: true,
            },
            PersonMention {
                mention: "Anselm".into(),
                match_terms: vec!["anselm duquesne".into(), "anselmg@post.example".into()],
                confidence: 0.9,
                correspondent: true,
            },
        ];
        assert_eq!(
            named_among(
                &people,
                "Frederick J Ostrander <f..ostrander@lumen.example> WrenTolliver@dialup.example"
            ),
            vec!["Wren Tolliver"]
        );
        // A name alone is no match: the message must be with their address.
        assert!(named_among(&people, "Anselm Duquesne").is_empty());
    }
}
