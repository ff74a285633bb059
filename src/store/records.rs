//! What sled holds: the records of the source of truth.

use crate::index::chunk::ChunkSpan;
use crate::mail::clean::Segment;
use crate::mail::model::{AttachmentInfo, BodyFormat, Mailbox, MessageKey, ThreadId};
use crate::source::SourceLocation;
use serde::{Deserialize, Serialize};

/// A message as stored: headers, where its bytes are, the decoded body and its segments.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredMessage {
    pub key: MessageKey,
    pub message_id: Option<String>,
    pub in_reply_to: Vec<String>,
    pub references: Vec<String>,
    pub date: Option<i64>,
    pub from: Vec<Mailbox>,
    pub to: Vec<Mailbox>,
    pub cc: Vec<Mailbox>,
    pub bcc: Vec<Mailbox>,
    pub subject: String,
    pub folder: String,
    /// Maildir flag letters (S seen, R replied, F flagged, ...).
    pub flags: String,
    pub location: SourceLocation,
    /// BLAKE3 of the raw bytes as read, to notice a changed file.
    pub raw_hash: [u8; 32],
    pub raw_size: u64,
    pub body: String,
    pub body_format: BodyFormat,
    pub segments: Vec<Segment>,
    pub attachments: Vec<AttachmentInfo>,
    pub chunk_count: u32,
    /// The originals its forwarded or quoted tail carries, with their authors.
    pub embedded: Vec<crate::mail::embedded::EmbeddedMessage>,
}

impl StoredMessage {
    /// The content identity copies of this email share.
    pub fn content_id(&self) -> Option<crate::mail::copies::ContentId> {
        let sender = self.from.first().map(|m| m.address.as_str()).unwrap_or("");
        crate::mail::copies::content_id(
            sender,
            self.date,
            &self.subject,
            &self.body,
            &self.attachments,
        )
    }

    pub fn is_unread(&self) -> bool {
        !self.flags.contains('S')
    }

    pub fn is_flagged(&self) -> bool {
        self.flags.contains('F')
    }

    pub fn sender(&self) -> String {
        self.from
            .first()
            .map(|m| m.short().to_string())
            .unwrap_or_default()
    }

    /// The text of one segment.
    pub fn segment_text(&self, seg: &Segment) -> &str {
        self.body.get(seg.start..seg.end).unwrap_or("")
    }
}

/// Stable identity of a chunk: derived from its message key and span, so the same
/// message ingested again yields the same chunk ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ChunkId(pub [u8; 16]);

impl ChunkId {
    pub fn derive(message: &MessageKey, span: ChunkSpan) -> Self {
        let mut h = blake3::Hasher::new();
        h.update(&message.0);
        h.update(&(span.start as u64).to_be_bytes());
        h.update(&(span.end as u64).to_be_bytes());
        let mut id = [0u8; 16];
        id.copy_from_slice(&h.finalize().as_bytes()[..16]);
        Self(id)
    }

    pub fn to_hex(&self) -> String {
        crate::mail::model::hex(&self.0)
    }
}

/// Identity of an embed text: the same text (the same mail filed in several folders)
/// has one id and is embedded once. The vector index is keyed by it.
pub fn embed_id(embed_text: &str) -> u64 {
    let h = blake3::hash(embed_text.as_bytes());
    let mut b = [0u8; 8];
    b.copy_from_slice(&h.as_bytes()[..8]);
    u64::from_be_bytes(b)
}

/// A piece of authored text, the unit of retrieval and citation.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredChunk {
    pub id: ChunkId,
    pub message: MessageKey,
    pub ordinal: u32,
    /// Byte span of `cite_text` in the message's decoded body.
    pub start: u32,
    pub end: u32,
    /// Verbatim authored text: the only text that may be quoted as evidence.
    pub cite_text: String,
    /// `cite_text` with subject, sender, date and thread context: searched, never quoted.
    pub embed_text: String,
    /// Set when the text is a page of an attachment rather than the body; then the
    /// span is in that page's stored text.
    pub attachment: Option<crate::store::ChunkAttachment>,
    /// Set when the text is a forwarded or quoted original's, not the sender's: who
    /// wrote it, as its header says.
    pub origin: Option<crate::mail::embedded::EmbeddedMessage>,
    /// Its index in the message's `embedded`.
    pub origin_index: Option<u16>,
}

/// How a chunk is kept in sled: its span only. Its texts are derived from the message
/// when read, so the body text is stored once.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct ChunkRecord {
    pub id: ChunkId,
    pub ordinal: u32,
    pub start: u32,
    pub end: u32,
    /// The index in the message's `embedded` of the original this text is from.
    pub origin: Option<u16>,
}

impl StoredChunk {
    /// A chunk of `msg` with its texts.
    pub fn of(msg: &StoredMessage, rec: &ChunkRecord) -> Self {
        let cite_text = msg
            .body
            .get(rec.start as usize..rec.end as usize)
            .unwrap_or("")
            .to_string();
        let origin = rec
            .origin
            .and_then(|i| msg.embedded.get(usize::from(i)))
            .cloned();
        let embed_text = match &origin {
            Some(o) => original_embed_text(o, &msg.subject, msg.date, &cite_text),
            None => embed_text(&msg.subject, &msg.from, &msg.to, msg.date, &cite_text),
        };
        Self {
            id: rec.id,
            message: msg.key,
            ordinal: rec.ordinal,
            start: rec.start,
            end: rec.end,
            embed_text,
            cite_text,
            attachment: None,
            origin,
            origin_index: rec.origin,
        }
    }

    pub fn record(&self) -> ChunkRecord {
        ChunkRecord {
            id: self.id,
            ordinal: self.ordinal,
            start: self.start,
            end: self.end,
            origin: self.origin_index,
        }
    }
}

/// The context that goes in front of a chunk's text for search, never quoted. It
/// leaves out the folder, so the same mail filed in several folders has one embed text
/// and is embedded once.
pub fn embed_text(
    subject: &str,
    from: &[Mailbox],
    to: &[Mailbox],
    date: Option<i64>,
    cite_text: &str,
) -> String {
    let date = date
        .and_then(|ts| chrono::DateTime::from_timestamp(ts, 0))
        .map(|d| d.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_default();
    format!(
        "Subject: {subject}\nFrom: {}\nTo: {}\nDate: {date}\n\n{cite_text}",
        crate::mail::model::display_list(from),
        crate::mail::model::display_list(to),
    )
}

/// The search context of a forwarded or quoted original's text: its own subject,
/// author and date, so the same original carried by several messages has one embed
/// text and is embedded once.
pub fn original_embed_text(
    origin: &crate::mail::embedded::EmbeddedMessage,
    outer_subject: &str,
    outer_date: Option<i64>,
    cite_text: &str,
) -> String {
    let author = Mailbox {
        name: Some(origin.author.clone()),
        address: String::new(),
    };
    embed_text(
        origin.subject.as_deref().unwrap_or(outer_subject),
        std::slice::from_ref(&author),
        &[],
        origin.timestamp.or(outer_date),
        cite_text,
    )
}

/// What threading needs of a message, kept apart so a rethread reads little.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThreadFacts {
    pub message_id: Option<String>,
    pub in_reply_to: Vec<String>,
    pub references: Vec<String>,
    pub subject: String,
    pub participants: Vec<String>,
    pub date: Option<i64>,
    /// What the thread list shows, so a rethread needs nothing else.
    pub sender: String,
    pub unread: bool,
    pub has_attachment: bool,
    /// The content identity copies of this email share
    /// ([`crate::mail::copies::content_id`]); `None` for undated mail.
    pub content: Option<crate::mail::copies::ContentId>,
    pub flagged: bool,
    /// The folder the message is in, as [`StoredMessage::folder`].
    pub folder: String,
}

/// A thread as listed: built from its messages after each ingest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ThreadSummary {
    pub id: ThreadId,
    pub subject: String,
    pub first_date: Option<i64>,
    pub latest_date: Option<i64>,
    pub messages: Vec<MessageKey>,
    pub senders: Vec<String>,
    /// Distinct emails with no copy read.
    pub unread: u32,
    pub has_attachment: bool,
    /// Distinct emails among `messages` (copies in several folders count once); 0 in
    /// a summary written before copies were told apart. Last, as fields a record
    /// gained are: an older record then ends early and is read as [`legacy`].
    pub emails: u32,
    /// Distinct emails with a copy flagged.
    pub flagged: u32,
    /// The folders its emails are in, by name, with how many are there and unread.
    pub folders: Vec<FolderCount>,
}

/// How many of a thread's (or a mailbox's) emails a folder holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FolderCount {
    pub name: String,
    pub emails: u32,
    pub unread: u32,
}

impl ThreadSummary {
    /// Distinct emails, for a count to show.
    pub fn email_count(&self) -> usize {
        if self.emails == 0 {
            self.messages.len()
        } else {
            self.emails as usize
        }
    }
}

/// The records of stores written before copies were told apart, read into today's.
pub(crate) mod legacy {
    use super::*;

    #[derive(Deserialize)]
    pub struct ThreadFacts {
        message_id: Option<String>,
        in_reply_to: Vec<String>,
        references: Vec<String>,
        subject: String,
        participants: Vec<String>,
        date: Option<i64>,
        sender: String,
        unread: bool,
        has_attachment: bool,
    }

    impl From<ThreadFacts> for super::ThreadFacts {
        fn from(f: ThreadFacts) -> Self {
            Self {
                message_id: f.message_id,
                in_reply_to: f.in_reply_to,
                references: f.references,
                subject: f.subject,
                participants: f.participants,
                date: f.date,
                sender: f.sender,
                unread: f.unread,
                has_attachment: f.has_attachment,
                content: None,
                flagged: false,
                folder: String::new(),
            }
        }
    }

    #[derive(Deserialize)]
    pub struct ThreadSummary {
        id: ThreadId,
        subject: String,
        first_date: Option<i64>,
        latest_date: Option<i64>,
        messages: Vec<MessageKey>,
        senders: Vec<String>,
        unread: u32,
        has_attachment: bool,
    }

    impl From<ThreadSummary> for super::ThreadSummary {
        fn from(t: ThreadSummary) -> Self {
            Self {
                id: t.id,
                subject: t.subject,
                first_date: t.first_date,
                latest_date: t.latest_date,
                messages: t.messages,
                senders: t.senders,
                unread: t.unread,
                has_attachment: t.has_attachment,
                emails: 0,
                flagged: 0,
                folders: Vec::new(),
            }
        }
    }
}

/// A message that could not be read, kept with its bytes and the reason.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct QuarantineItem {
    pub location: SourceLocation,
    pub folder: String,
    pub reason: String,
    pub raw: Vec<u8>,
    pub at: i64,
}

/// What was last seen of a source file: when unchanged, it is not read again.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SourceCursor {
    pub mtime_ns: i64,
    pub size: u64,
    /// Messages the file held (stored or already known).
    pub messages: Vec<MessageKey>,
    /// Messages of the file that went to quarantine.
    pub quarantined: u32,
}
