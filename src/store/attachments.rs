//! Attachment text in sled: what extraction found in each attachment, page by page,
//! and the chunks cut from it for each message that carries the attachment.
//!
//! Extraction is keyed by the BLAKE3 hash of the attachment's bytes, so the same PDF
//! mailed to ten people is read (and OCR'd) once. Chunks are keyed by message,
//! because their embed text names the message's subject, sender and date. Chunk
//! texts are never stored: like body chunks they are cut from the stored page text
//! when read, so the page text is the one source that search, embedding and
//! citations share.
//!
//! Trees:
//! * `attach_refs`: key ‖ index → content hash
//! * `attach_users`: hash ‖ key ‖ index → () (who carries this content)
//! * `attach_extracts`: hash → [`AttachmentExtract`]
//! * `attach_pages`: hash ‖ page → [`PageRecord`]
//! * `attach_chunks`: key ‖ ordinal → [`AttachmentChunkRecord`]; the ordinal has
//!   its top bit set, so it never collides with a body chunk's, and the same
//!   `embed_chunks` index (embed id ‖ key ‖ ordinal) finds both kinds.
//! * `event_versions`: uid hash ‖ key ‖ index ‖ page → [`EventVersion`]: every
//!   version of a calendar event that a message carries, to find the latest.
//! * `invite_answers`: uid → ([`InviteAnswer`], when): the user's sent answers.

use super::{decode, decode_or_legacy, encode, Result, Store};
use crate::attach::itip::InviteAnswer;
use crate::attach::{EventVersion, PageSource, PdfStatus};
use crate::mail::model::MessageKey;
use crate::store::records::{embed_text, ChunkId, StoredChunk, StoredMessage};
use serde::{Deserialize, Serialize};

/// Ordinals of attachment chunks: top bit set, then 11 bits of attachment index
/// and 20 bits of position within the attachment.
const ORDINAL_BASE: u32 = 1 << 31;
const INDEX_SHIFT: u32 = 20;
const MAX_INDEX: u32 = (1 << 11) - 1;
const MAX_SEQ: u32 = (1 << INDEX_SHIFT) - 1;

/// BLAKE3 of an attachment's bytes.
pub type ContentHash = [u8; 32];

pub fn content_hash(bytes: &[u8]) -> ContentHash {
    *blake3::hash(bytes).as_bytes()
}

/// What kind of text an attachment held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AttachmentKind {
    Pdf,
    Plain,
    Csv,
    Html,
    /// A row a page.
    Spreadsheet,
    /// A paragraph a page.
    Document,
    /// An event a page.
    Calendar,
}

impl AttachmentKind {
    /// Whether its pages are records of named fields rather than prose.
    pub fn has_fields(self) -> bool {
        self == AttachmentKind::Spreadsheet
    }

    /// Whether a page of this kind is a place a citation names ("page 3",
    /// "Sheet1, row 14"); a text attachment is one page, named by its file alone.
    pub fn has_places(self) -> bool {
        matches!(
            self,
            AttachmentKind::Pdf
                | AttachmentKind::Spreadsheet
                | AttachmentKind::Document
                | AttachmentKind::Calendar
        )
    }
}

/// The outcome of extracting one attachment's content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachmentExtract {
    pub kind: AttachmentKind,
    pub status: PdfStatus,
    /// Pages in the document (1 for text attachments, 0 when it could not be opened).
    pub page_count: u32,
    /// Pages read by OCR.
    pub ocr_pages: u32,
    /// Pages stored with text.
    pub text_pages: u32,
}

/// One page's text, cleaned: what chunks are cut from and citations quote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageRecord {
    pub text: String,
    pub source: PageSource,
    /// Where the page is when it is not a numbered page: "Sheet1, row 14",
    /// "paragraph 3", "event".
    pub place: Option<String>,
    /// For an event, its version among those with its UID.
    pub version: Option<EventVersion>,
}

impl PageRecord {
    /// A page of text with no place but its number.
    pub fn plain(text: String, source: PageSource) -> Self {
        PageRecord {
            text,
            source,
            place: None,
            version: None,
        }
    }
}

/// Page records as stored before they named their place.
pub(super) mod legacy {
    use super::*;

    #[derive(Deserialize)]
    pub struct PageRecord {
        text: String,
        source: PageSource,
    }

    impl From<PageRecord> for super::PageRecord {
        fn from(p: PageRecord) -> Self {
            super::PageRecord::plain(p.text, p.source)
        }
    }
}

fn decode_page(bytes: &[u8]) -> Result<PageRecord> {
    decode_or_legacy::<PageRecord, legacy::PageRecord>("attach_pages", bytes)
}

/// Where a chunk came from when it is not the message body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkAttachment {
    /// Position among the message's attachments.
    pub index: u32,
    pub name: String,
    /// 1-based page for PDFs; None for text attachments, which have no pages.
    pub page: Option<u32>,
    /// The place, for the kinds whose pages are rows, paragraphs or events.
    pub place: Option<String>,
    /// Its pages are records of named fields (spreadsheet rows).
    pub fields: bool,
}

impl ChunkAttachment {
    /// How a citation names where the quote is: "page 3", "Sheet1, row 14", or
    /// nothing beyond the file's name.
    pub fn where_(&self) -> Option<String> {
        self.place
            .clone()
            .or_else(|| self.page.map(|p| format!("page {p}")))
    }
}

/// How an attachment chunk is kept: its page and span in the page text.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct AttachmentChunkRecord {
    pub id: ChunkId,
    pub ordinal: u32,
    pub attachment: u32,
    pub page: u32,
    pub start: u32,
    pub end: u32,
}

/// The sled trees of attachment text.
#[derive(Clone)]
pub(super) struct AttachTrees {
    refs: sled::Tree,
    users: sled::Tree,
    extracts: sled::Tree,
    pages: sled::Tree,
    pub(super) chunks: sled::Tree,
    events: sled::Tree,
    answers: sled::Tree,
}

impl AttachTrees {
    pub(super) fn open(db: &sled::Db) -> Result<Self> {
        Ok(Self {
            refs: db.open_tree("attach_refs")?,
            users: db.open_tree("attach_users")?,
            extracts: db.open_tree("attach_extracts")?,
            pages: db.open_tree("attach_pages")?,
            chunks: db.open_tree("attach_chunks")?,
            events: db.open_tree("event_versions")?,
            answers: db.open_tree("invite_answers")?,
        })
    }
}

/// The ordinal of the `seq`-th chunk of attachment `index`; None past the limits
/// (2047 attachments, a million chunks each), which such chunks are dropped for.
pub fn attachment_ordinal(index: u32, seq: usize) -> Option<u32> {
    let seq = u32::try_from(seq).ok().filter(|s| *s <= MAX_SEQ)?;
    (index <= MAX_INDEX).then_some(ORDINAL_BASE | (index << INDEX_SHIFT) | seq)
}

pub fn is_attachment_ordinal(ordinal: u32) -> bool {
    ordinal & ORDINAL_BASE != 0
}

/// The text search and embedding see for an attachment chunk: the page text with the
/// attachment's name and page in front of the message's own context.
pub fn attachment_embed_text(msg: &StoredMessage, at: &ChunkAttachment, cite: &str) -> String {
    let place = match at.where_() {
        Some(w) => format!("Attachment: {}, {w}\n", at.name),
        None => format!("Attachment: {}\n", at.name),
    };
    place + &embed_text(&msg.subject, &msg.from, &msg.to, msg.date, cite)
}

fn uid_hash(uid: &str) -> [u8; 16] {
    let mut out = [0u8; 16];
    out.copy_from_slice(&blake3::hash(uid.as_bytes()).as_bytes()[..16]);
    out
}

fn key_index(key: &MessageKey, index: u32) -> Vec<u8> {
    let mut k = key.0.to_vec();
    k.extend_from_slice(&index.to_be_bytes());
    k
}

fn page_key(hash: &ContentHash, page: u32) -> Vec<u8> {
    let mut k = hash.to_vec();
    k.extend_from_slice(&page.to_be_bytes());
    k
}

impl Store {
    /// Remembers that attachment `index` of `key` has this content.
    pub fn record_attachment(
        &self,
        key: &MessageKey,
        index: u32,
        hash: &ContentHash,
    ) -> Result<()> {
        let mut user = hash.to_vec();
        user.extend_from_slice(&key_index(key, index));
        self.attach.users.insert(user, &[])?;
        self.attach.refs.insert(key_index(key, index), &hash[..])?;
        Ok(())
    }

    pub fn attachment_hash(&self, key: &MessageKey, index: u32) -> Result<Option<ContentHash>> {
        Ok(self
            .attach
            .refs
            .get(key_index(key, index))?
            .and_then(|v| v.as_ref().try_into().ok()))
    }

    /// The messages (and attachment positions) that carry this content.
    pub fn attachment_users(&self, hash: &ContentHash) -> Result<Vec<(MessageKey, u32)>> {
        let mut out = Vec::new();
        for k in self.attach.users.scan_prefix(hash).keys() {
            let k = k?;
            let key = k
                .get(32..48)
                .and_then(|b| b.try_into().ok())
                .map(MessageKey);
            let index = k
                .get(48..52)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_be_bytes);
            if let (Some(key), Some(index)) = (key, index) {
                out.push((key, index));
            }
        }
        Ok(out)
    }

    pub fn attachment_extract(&self, hash: &ContentHash) -> Result<Option<AttachmentExtract>> {
        self.attach
            .extracts
            .get(hash)?
            .map(|v| decode("attach_extracts", &v))
            .transpose()
    }

    /// Every extraction outcome, for stats.
    /// Contents that could not be read at all (damaged, encrypted or too large),
    /// with their outcome: the attachment quarantine.
    pub fn unreadable_attachments(&self) -> Result<Vec<(ContentHash, AttachmentExtract)>> {
        let mut out = Vec::new();
        for item in self.attach.extracts.iter() {
            let (k, v) = item?;
            let extract: AttachmentExtract = decode("attach_extracts", &v)?;
            let unreadable = matches!(
                extract.status,
                PdfStatus::Corrupt(_) | PdfStatus::Encrypted | PdfStatus::TooLarge { .. }
            );
            if let (true, Ok(hash)) = (unreadable, <ContentHash>::try_from(k.as_ref())) {
                out.push((hash, extract));
            }
        }
        Ok(out)
    }

    pub fn attachment_extracts(&self) -> Result<Vec<AttachmentExtract>> {
        self.attach
            .extracts
            .iter()
            .values()
            .map(|v| decode("attach_extracts", &v?))
            .collect()
    }

    /// Stores what extraction found: the pages first, the outcome last, so an
    /// outcome on record means its pages are too.
    pub fn put_attachment_extract(
        &self,
        hash: &ContentHash,
        extract: &AttachmentExtract,
        pages: &[(u32, PageRecord)],
    ) -> Result<()> {
        let mut batch = sled::Batch::default();
        for (number, page) in pages {
            batch.insert(page_key(hash, *number), encode(page));
        }
        self.attach.pages.apply_batch(batch)?;
        self.attach.extracts.insert(hash, encode(extract))?;
        Ok(())
    }

    pub fn attachment_page(&self, hash: &ContentHash, page: u32) -> Result<Option<PageRecord>> {
        self.attach
            .pages
            .get(page_key(hash, page))?
            .map(|v| decode_page(&v))
            .transpose()
    }

    /// Every stored page of a content, in order.
    pub fn attachment_pages(&self, hash: &ContentHash) -> Result<Vec<(u32, PageRecord)>> {
        let mut out = Vec::new();
        for item in self.attach.pages.scan_prefix(hash) {
            let (k, v) = item?;
            let Some(number) = k
                .get(32..36)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_be_bytes)
            else {
                continue;
            };
            out.push((number, decode_page(&v)?));
        }
        Ok(out)
    }

    /// Records the versions of the events one attachment of a message carries
    /// (page number and version).
    pub fn record_event_versions(
        &self,
        key: &MessageKey,
        index: u32,
        versions: &[(u32, EventVersion)],
    ) -> Result<()> {
        for (page, version) in versions {
            let mut k = uid_hash(&version.uid).to_vec();
            k.extend_from_slice(&key.0);
            k.extend_from_slice(&index.to_be_bytes());
            k.extend_from_slice(&page.to_be_bytes());
            self.attach.events.insert(k, encode(version))?;
        }
        Ok(())
    }

    /// Every recorded version of the event `uid`: the message, attachment index and
    /// page that carry it. Messages since deleted may still be listed.
    pub fn event_versions(&self, uid: &str) -> Result<Vec<(MessageKey, u32, u32, EventVersion)>> {
        let mut out = Vec::new();
        for item in self.attach.events.scan_prefix(uid_hash(uid)) {
            let (k, v) = item?;
            let key = k
                .get(16..32)
                .and_then(|b| b.try_into().ok())
                .map(MessageKey);
            let index = k
                .get(32..36)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_be_bytes);
            let page = k
                .get(36..40)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_be_bytes);
            let version: EventVersion = decode("event_versions", &v)?;
            if let (Some(key), Some(index), Some(page)) = (key, index, page) {
                if version.uid == uid {
                    out.push((key, index, page, version));
                }
            }
        }
        Ok(out)
    }

    /// Records the answer the user sent to the invitation `uid`, at `when` (Unix
    /// seconds); a later answer replaces it.
    pub fn record_invite_answer(&self, uid: &str, answer: InviteAnswer, when: i64) -> Result<()> {
        self.attach
            .answers
            .insert(uid.as_bytes(), encode(&(answer, when)))?;
        Ok(())
    }

    /// The answer the user last sent to the invitation `uid`, and when.
    pub fn invite_answer(&self, uid: &str) -> Result<Option<(InviteAnswer, i64)>> {
        self.attach
            .answers
            .get(uid.as_bytes())?
            .map(|v| decode("invite_answers", &v))
            .transpose()
    }

    /// Replaces the chunks of one attachment of a message (and their embed index
    /// entries) by `chunks`, whose ordinals come from [`attachment_ordinal`].
    pub fn replace_attachment_chunks(
        &self,
        key: &MessageKey,
        index: u32,
        chunks: &[StoredChunk],
        pages: &[u32],
    ) -> Result<()> {
        let (Some(lo), Some(hi)) = (
            attachment_ordinal(index, 0),
            attachment_ordinal(index, MAX_SEQ as usize),
        ) else {
            return Ok(());
        };
        let msg = self.message(key)?;
        let mut old = sled::Batch::default();
        let mut old_embed = sled::Batch::default();
        for item in self
            .attach
            .chunks
            .range(key_index(key, lo)..=key_index(key, hi))
        {
            let (k, _) = item?;
            if let Some(msg) = &msg {
                if let Some(chunk) = self.attachment_chunk(msg, &k)? {
                    let mut ek = crate::store::embed_id(&chunk.embed_text)
                        .to_be_bytes()
                        .to_vec();
                    ek.extend_from_slice(&k);
                    old_embed.remove(ek);
                }
            }
            old.remove(k);
        }
        self.embed_chunks.apply_batch(old_embed)?;
        self.attach.chunks.apply_batch(old)?;
        let mut new = sled::Batch::default();
        let mut embed = sled::Batch::default();
        for (chunk, page) in chunks.iter().zip(pages) {
            let ck = key_index(key, chunk.ordinal);
            let mut ek = crate::store::embed_id(&chunk.embed_text)
                .to_be_bytes()
                .to_vec();
            ek.extend_from_slice(&ck);
            embed.insert(ek, &[]);
            let rec = AttachmentChunkRecord {
                id: chunk.id,
                ordinal: chunk.ordinal,
                attachment: index,
                page: *page,
                start: chunk.start,
                end: chunk.end,
            };
            new.insert(ck, encode(&rec));
        }
        self.attach.chunks.apply_batch(new)?;
        self.embed_chunks.apply_batch(embed)?;
        Ok(())
    }

    /// One attachment chunk of `msg` by its key in `attach_chunks` (key ‖ ordinal),
    /// with its texts cut from the stored page.
    pub(super) fn attachment_chunk(
        &self,
        msg: &StoredMessage,
        chunk_key: &[u8],
    ) -> Result<Option<StoredChunk>> {
        let Some(v) = self.attach.chunks.get(chunk_key)? else {
            return Ok(None);
        };
        let rec: AttachmentChunkRecord = decode("attach_chunks", &v)?;
        let mut pages = PageCache::default();
        self.chunk_from_record(msg, &rec, &mut pages)
    }

    /// The attachment chunks of a message, in attachment, page and position order.
    pub fn attachment_chunks_of(&self, msg: &StoredMessage) -> Result<Vec<StoredChunk>> {
        let mut pages = PageCache::default();
        let mut out = Vec::new();
        for v in self.attach.chunks.scan_prefix(msg.key.0).values() {
            let rec: AttachmentChunkRecord = decode("attach_chunks", &v?)?;
            if let Some(c) = self.chunk_from_record(msg, &rec, &mut pages)? {
                out.push(c);
            }
        }
        Ok(out)
    }

    pub fn attachment_chunk_count(&self) -> Result<usize> {
        super::count(&self.attach.chunks)
    }

    fn chunk_from_record(
        &self,
        msg: &StoredMessage,
        rec: &AttachmentChunkRecord,
        pages: &mut PageCache,
    ) -> Result<Option<StoredChunk>> {
        let Some(info) = msg.attachments.get(rec.attachment as usize) else {
            return Ok(None);
        };
        let Some(hash) = self.attachment_hash(&msg.key, rec.attachment)? else {
            return Ok(None);
        };
        let Some(extract) = self.attachment_extract(&hash)? else {
            return Ok(None);
        };
        if pages.hash != Some((hash, rec.page)) {
            pages.page = self.attachment_page(&hash, rec.page)?;
            pages.hash = Some((hash, rec.page));
        }
        let Some(page) = &pages.page else {
            return Ok(None);
        };
        let text = &page.text;
        let cite_text = text
            .get(rec.start as usize..rec.end as usize)
            .unwrap_or("")
            .to_string();
        let at = ChunkAttachment {
            index: rec.attachment,
            name: display_name(info.name.as_deref(), rec.attachment),
            page: extract.kind.has_places().then_some(rec.page),
            place: page.place.clone(),
            fields: extract.kind.has_fields(),
        };
        Ok(Some(StoredChunk {
            id: rec.id,
            message: msg.key,
            ordinal: rec.ordinal,
            start: rec.start,
            end: rec.end,
            embed_text: attachment_embed_text(msg, &at, &cite_text),
            cite_text,
            attachment: Some(at),
            origin: None,
            origin_index: None,
        }))
    }

    /// All page text of a message's attachments, for its search document.
    pub fn attachment_search_text(&self, msg: &StoredMessage) -> Result<String> {
        let mut out = String::new();
        for a in &msg.attachments {
            let Some(hash) = self.attachment_hash(&msg.key, a.index)? else {
                continue;
            };
            for (_, page) in self.attachment_pages(&hash)? {
                if !page.text.is_empty() {
                    out.push_str("\n\n");
                    out.push_str(&page.text);
                }
            }
        }
        Ok(out)
    }
}

/// The last page read, since a message's chunks come page by page.
#[derive(Default)]
struct PageCache {
    hash: Option<(ContentHash, u32)>,
    page: Option<PageRecord>,
}

/// The name to cite an attachment by: its file name, or its position when unnamed.
pub fn display_name(name: Option<&str>, index: u32) -> String {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => n.to_string(),
        None => format!("attachment {}", index + 1),
    }
}
