//! Turns one parsed message into the records sled stores: segments, chunks, facts.

use crate::index::chunk::{chunk_regions, merge_adjacent, ChunkConfig, ChunkSpan};
use crate::mail::clean::{segment_body, SegmentKind};
use crate::mail::embedded::embedded_messages;
use crate::mail::model::{Mailbox, MessageKey, ParsedMessage};
use crate::source::RawMail;
use crate::store::{
    embed_text, original_embed_text, ChunkId, StoredChunk, StoredMessage, ThreadFacts,
};

/// Everything written for one new message.
pub struct Prepared {
    pub message: StoredMessage,
    pub facts: ThreadFacts,
    pub chunks: Vec<StoredChunk>,
    pub attachment_bytes: Vec<Vec<u8>>,
    /// The Reply-To header, kept for the graph.
    pub reply_to: Vec<Mailbox>,
}

pub fn prepare(
    key: MessageKey,
    raw: &RawMail,
    parsed: ParsedMessage,
    cfg: &ChunkConfig,
) -> Prepared {
    let segments = segment_body(&parsed.body);
    let authored: Vec<ChunkSpan> = segments
        .iter()
        .filter(|s| s.kind == SegmentKind::Authored)
        .map(|s| ChunkSpan {
            start: s.start,
            end: s.end,
        })
        .collect();
    let spans = chunk_regions(&parsed.body, &merge_adjacent(&authored, &parsed.body), cfg);
    // The forwarded and quoted originals, each chunked on its own and attributed.
    let embedded = embedded_messages(&parsed.body, &segments);
    let mut regions: Vec<(ChunkSpan, Option<u16>)> = spans.into_iter().map(|s| (s, None)).collect();
    for (i, e) in embedded.iter().enumerate() {
        let span = ChunkSpan {
            start: e.start,
            end: e.end,
        };
        for s in chunk_regions(&parsed.body, &[span], cfg) {
            regions.push((s, u16::try_from(i).ok()));
        }
    }
    let chunks: Vec<StoredChunk> = regions
        .iter()
        .enumerate()
        .filter_map(|(i, (span, origin_index))| {
            let cite_text = parsed.body.get(span.start..span.end)?.to_string();
            let origin = origin_index
                .and_then(|o| embedded.get(usize::from(o)))
                .cloned();
            let embed_text = match &origin {
                Some(o) => original_embed_text(o, &parsed.subject, parsed.date, &cite_text),
                None => embed_text(
                    &parsed.subject,
                    &parsed.from,
                    &parsed.to,
                    parsed.date,
                    &cite_text,
                ),
            };
            Some(StoredChunk {
                id: ChunkId::derive(&key, *span),
                message: key,
                ordinal: i as u32,
                start: span.start as u32,
                end: span.end as u32,
                embed_text,
                cite_text,
                attachment: None,
                origin,
                origin_index: *origin_index,
            })
        })
        .collect();
    let facts = ThreadFacts {
        message_id: parsed.message_id.clone(),
        in_reply_to: parsed.in_reply_to.clone(),
        references: parsed.references.clone(),
        subject: parsed.subject.clone(),
        participants: parsed.participants(),
        date: parsed.date,
        sender: parsed
            .from
            .first()
            .map(|m| m.short().to_string())
            .unwrap_or_default(),
        unread: !raw.flags.contains('S'),
        has_attachment: !parsed.attachments.is_empty(),
        content: crate::mail::copies::content_id(
            parsed
                .from
                .first()
                .map(|m| m.address.as_str())
                .unwrap_or(""),
            parsed.date,
            &parsed.subject,
            &parsed.body,
            &parsed.attachments,
        ),
        flagged: raw.flags.contains('F'),
        folder: raw.folder.clone(),
    };
    let message = StoredMessage {
        key,
        message_id: parsed.message_id,
        in_reply_to: parsed.in_reply_to,
        references: parsed.references,
        date: parsed.date,
        from: parsed.from,
        to: parsed.to,
        cc: parsed.cc,
        bcc: parsed.bcc,
        subject: parsed.subject,
        folder: raw.folder.clone(),
        flags: raw.flags.clone(),
        location: raw.location.clone(),
        raw_hash: *blake3::hash(&raw.raw).as_bytes(),
        raw_size: raw.raw.len() as u64,
        body: parsed.body,
        body_format: parsed.body_format,
        segments,
        attachments: parsed.attachments,
        chunk_count: chunks.len() as u32,
        embedded,
    };
    Prepared {
        message,
        facts,
        chunks,
        attachment_bytes: parsed.attachment_bytes,
        reply_to: parsed.reply_to,
    }
}

/// `2001-03-05 14:30` (UTC), or empty for an impossible date.
pub fn format_date(ts: i64) -> String {
    chrono::DateTime::from_timestamp(ts, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default()
}
