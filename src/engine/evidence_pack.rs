//! The evidence pack of a question: the passages of the best hits, numbered, with
//! what an answerer needs to judge them (sender, recipients, quoted context).

use super::retrieve::Retrieval;
use super::{Engine, Result};
use crate::answer::evidence::{EvidenceItem, EvidencePack};
use crate::mail::clean::SegmentKind;
use crate::mail::model::{display_list, MessageKey};
use crate::query::people::PersonMention;
use crate::store::{StoredChunk, StoredMessage};

impl Engine {
    /// The numbered passages: each hit's best chunk, then the other chunks of the
    /// three best messages, within the token budget.
    pub(super) fn evidence_pack(
        &self,
        retrieval: &Retrieval,
        people: &[PersonMention],
        budget: usize,
    ) -> Result<EvidencePack> {
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
            let item = |cite_text: String, start: u32, end: u32, at: Place| EvidenceItem {
                n: 0,
                key: hit.hit.key.clone(),
                message_id: hit.hit.message_id.clone(),
                thread_id: hit.hit.thread_id.clone(),
                date: hit.hit.date,
                from: hit.hit.from.clone(),
                recipients: recipients.clone(),
                subject: hit.hit.subject.clone(),
                context: context.clone(),
                cite_text,
                start,
                end,
                attachment: at.0,
                page: at.1,
                score: hit.hit.score,
                rank: rank + 1,
            };
            let best = hit.chunk.as_ref().map(|c| c.ordinal);
            match &hit.chunk {
                Some(c) => items.push(item(
                    c.cite_text.clone(),
                    c.start,
                    c.end,
                    (c.attachment.clone(), c.page),
                )),
                None => {
                    if let Some(c) = self.store.chunks_of(&key)?.into_iter().next() {
                        let at = place(&c);
                        items.push(item(c.cite_text, c.start, c.end, at));
                    }
                }
            }
            if rank < 3 {
                for c in self.store.chunks_of(&key)? {
                    if Some(c.ordinal) != best && (best.is_some() || c.ordinal != 0) {
                        let at = place(&c);
                        extra.push(item(c.cite_text, c.start, c.end, at));
                    }
                }
            }
        }
        items.extend(extra);
        Ok(EvidencePack::build(items, budget))
    }
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
/// (kippflores@...) for the person asked about as "Kipp Flores".
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
                mention: "Kipp Flores".into(),
                match_terms: vec!["kippflores".into(), "kippflores@mcleodusa.net".into()],
                confidence: 0.9,
                correspondent: true,
            },
            PersonMention {
                mention: "Jacques".into(),
                match_terms: vec!["jacques craig".into(), "jacquestc@aol.com".into()],
                confidence: 0.9,
                correspondent: true,
            },
        ];
        assert_eq!(
            named_among(
                &people,
                "Phillip K Allen <k..allen@enron.com> KippFlores@mcleodusa.net"
            ),
            vec!["Kipp Flores"]
        );
        // A name alone is no match: the message must be with their address.
        assert!(named_among(&people, "Jacques Craig").is_empty());
    }
}
