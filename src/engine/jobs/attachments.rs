//! Attachment text as background work: every attachment with a text view (PDF, plain
//! text, CSV, HTML) waits as a durable `attach_text` job keyed by its content hash.
//! A worker extracts the text page by page (PDFs on a thread of their own, under
//! `catch_unwind`, with size, page and time caps), stores the cleaned pages, cuts them
//! into chunks for every message that carries the attachment, queues their embedding
//! and re-indexes those messages. A kill at any point loses nothing: a claimed job
//! comes back, and every write is keyed so that doing it again changes nothing.

use crate::attach::page::{chunk_page, clean_page_text};
use crate::attach::{
    attachment_text_with, has_text_view, AttachmentText, EventVersion, LocatedText, PageSource,
    PdfLimits, PdfStatus,
};
use crate::engine::jobs::embedding::{enqueue_embed_jobs, now_ms};
use crate::engine::{Engine, Result};
use crate::index::chunk::ChunkConfig;
use crate::mail::model::{AttachmentInfo, MessageKey};
use crate::store::jobs::{JobCounts, JobQueue};
use crate::store::{
    attachment_ordinal, content_hash, display_name, embed_id, AttachmentExtract, AttachmentKind,
    ChunkAttachment, ChunkId, ContentHash, PageRecord, Store, StoredChunk,
};
use serde::Serialize;
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub const ATTACH_JOB: &str = "attach_text";
/// Looking this far ahead makes every lease held by a dead process look expired.
const ORPHAN_AFTER_MS: i64 = 24 * 3600 * 1000;
/// Jobs between re-indexing the messages they touched.
const INDEX_EVERY: usize = 32;

/// What a run of attachment jobs did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AttachReport {
    pub extracted: u64,
    /// Contents already extracted (by an interrupted run), only re-chunked.
    pub already_extracted: u64,
    pub pages: u64,
    pub ocr_pages: u64,
    pub chunks: u64,
    pub failed: u64,
    pub seconds: f64,
    pub counts: JobCounts,
}

/// A new message's attachments: their descriptions and bytes, in the same order.
pub(in crate::engine) type NewAttachments<'a> = (MessageKey, &'a [AttachmentInfo], &'a [Vec<u8>]);

/// Extracted text as stored: the outcome and the cleaned pages.
type Extracted = (AttachmentExtract, Vec<(u32, PageRecord)>);

/// Queues an extraction job for every attachment of these messages that has a text
/// view, and records which content each attachment holds. Returns the jobs added.
pub(in crate::engine) fn enqueue_attachment_jobs(
    store: &Store,
    jobs: &JobQueue,
    messages: &[NewAttachments<'_>],
) -> Result<usize> {
    let mut payloads = Vec::new();
    for (key, infos, bytes) in messages {
        for (info, data) in infos.iter().zip(bytes.iter()) {
            let name = info.name.as_deref().unwrap_or("");
            if !has_text_view(&info.mime_type, name, data) {
                continue;
            }
            let hash = content_hash(data);
            store.record_attachment(key, info.index, &hash)?;
            payloads.push(hash.to_vec());
        }
    }
    Ok(jobs.enqueue_many(ATTACH_JOB, &payloads, now_ms())?)
}

impl Engine {
    /// Queues extraction for stored attachments that have none recorded: mail
    /// ingested before attachments were read. Returns the jobs added.
    pub fn queue_unread_attachments(&self) -> Result<usize> {
        let mut added = 0;
        for msg in self.store.messages() {
            let msg = msg?;
            let mut bytes = Vec::new();
            let mut infos = Vec::new();
            for a in &msg.attachments {
                if self.store.attachment_hash(&msg.key, a.index)?.is_some() {
                    continue;
                }
                if let Some(b) = self.store.attachment_bytes(&msg.key, a.index)? {
                    infos.push(a.clone());
                    bytes.push(b);
                }
            }
            if !infos.is_empty() {
                let batch = [(msg.key, infos.as_slice(), bytes.as_slice())];
                added += enqueue_attachment_jobs(&self.store, &self.jobs, &batch)?;
            }
        }
        Ok(added)
    }

    pub fn attachment_job_counts(&self) -> Result<JobCounts> {
        Ok(self.jobs.counts(ATTACH_JOB)?)
    }

    /// Runs attachment jobs until none is left or `stop` is set, then re-indexes
    /// the messages whose attachments gained text. Embedding of the new chunks is
    /// queued for [`Engine::embed_pending`].
    pub fn extract_attachments(
        &mut self,
        limits: &PdfLimits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&AttachReport),
    ) -> Result<AttachReport> {
        let started = Instant::now();
        let mut report = AttachReport::default();
        let mut touched: BTreeSet<MessageKey> = BTreeSet::new();
        let mut since_index = 0;
        while !stop.load(Ordering::Relaxed) {
            let mut claimed = self.jobs.claim(ATTACH_JOB, 1, now_ms())?;
            if claimed.is_empty() && self.jobs.counts(ATTACH_JOB)?.running > 0 {
                // This process holds the store's lock: running jobs are a dead
                // process's, so take them now instead of waiting out their leases.
                claimed = self
                    .jobs
                    .claim_orphans(ATTACH_JOB, 1, now_ms(), ORPHAN_AFTER_MS)?;
            }
            let Some(job) = claimed.pop() else { break };
            let Ok(hash) = <ContentHash>::try_from(job.payload.as_slice()) else {
                self.jobs
                    .fail(job.id, job.lease_token, "bad payload", now_ms())?;
                report.failed += 1;
                continue;
            };
            match self.process_content(&hash, limits, &mut report) {
                Ok(keys) => {
                    touched.extend(keys);
                    self.jobs.complete(job.id, job.lease_token, now_ms())?;
                }
                Err(e) => {
                    self.jobs
                        .fail(job.id, job.lease_token, &e.to_string(), now_ms())?;
                    report.failed += 1;
                }
            }
            since_index += 1;
            if since_index >= INDEX_EVERY {
                self.reindex_touched(&mut touched)?;
                since_index = 0;
            }
            report.counts = self.jobs.counts(ATTACH_JOB)?;
            progress(&report);
        }
        self.reindex_touched(&mut touched)?;
        self.jobs.flush()?;
        report.counts = self.jobs.counts(ATTACH_JOB)?;
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    fn reindex_touched(&mut self, touched: &mut BTreeSet<MessageKey>) -> Result<()> {
        if touched.is_empty() {
            return Ok(());
        }
        let keys: Vec<(MessageKey, bool)> = touched.iter().map(|k| (*k, true)).collect();
        self.index_messages(&keys, &mut |_, _| {})?;
        touched.clear();
        Ok(())
    }

    /// Extracts one content (unless an earlier run stored it) and chunks it for
    /// every message carrying it; returns those messages.
    fn process_content(
        &self,
        hash: &ContentHash,
        limits: &PdfLimits,
        report: &mut AttachReport,
    ) -> Result<Vec<MessageKey>> {
        let users = self.store.attachment_users(hash)?;
        let extract = match self.store.attachment_extract(hash)? {
            Some(e) => {
                report.already_extracted += 1;
                e
            }
            None => {
                let Some((extract, pages)) = self.extract_content(&users, limits)? else {
                    return Ok(Vec::new());
                };
                self.store.put_attachment_extract(hash, &extract, &pages)?;
                report.extracted += 1;
                report.pages += u64::from(extract.text_pages);
                report.ocr_pages += u64::from(extract.ocr_pages);
                extract
            }
        };
        let pages = self.store.attachment_pages(hash)?;
        let cfg = ChunkConfig::default();
        let mut keys = Vec::new();
        for (key, index) in users {
            let Some(msg) = self.store.message(&key)? else {
                continue;
            };
            let Some(info) = msg.attachments.get(index as usize) else {
                continue;
            };
            let name = display_name(info.name.as_deref(), index);
            let mut chunks = Vec::new();
            let mut chunk_pages = Vec::new();
            for (number, page) in &pages {
                let at = ChunkAttachment {
                    index,
                    name: name.clone(),
                    page: extract.kind.has_places().then_some(*number),
                    place: page.place.clone(),
                    fields: extract.kind.has_fields(),
                };
                for span in chunk_page(&page.text, &cfg) {
                    let (Some(cite), Some(ordinal)) = (
                        page.text.get(span.start..span.end),
                        attachment_ordinal(index, chunks.len()),
                    ) else {
                        continue;
                    };
                    chunks.push(StoredChunk {
                        id: attachment_chunk_id(&key, index, *number, span.start, span.end),
                        message: key,
                        ordinal,
                        start: span.start as u32,
                        end: span.end as u32,
                        embed_text: crate::store::attachment_embed_text(&msg, &at, cite),
                        cite_text: cite.to_string(),
                        attachment: Some(at.clone()),
                        origin: None,
                        origin_index: None,
                    });
                    chunk_pages.push(*number);
                }
            }
            self.store
                .replace_attachment_chunks(&key, index, &chunks, &chunk_pages)?;
            let versions: Vec<(u32, crate::attach::EventVersion)> = pages
                .iter()
                .filter_map(|(n, p)| Some((*n, p.version.clone()?)))
                .filter(|(_, v)| !v.uid.is_empty())
                .collect();
            self.store.record_event_versions(&key, index, &versions)?;
            let ids: Vec<u64> = chunks.iter().map(|c| embed_id(&c.embed_text)).collect();
            enqueue_embed_jobs(&self.jobs, &ids)?;
            report.chunks += chunks.len() as u64;
            keys.push(key);
        }
        Ok(keys)
    }

    /// Reads the bytes from the first message that still has them and extracts
    /// their text. None when no message has them any more.
    fn extract_content(
        &self,
        users: &[(MessageKey, u32)],
        limits: &PdfLimits,
    ) -> Result<Option<Extracted>> {
        for (key, index) in users {
            let (Some(msg), Some(bytes)) = (
                self.store.message(key)?,
                self.store.attachment_bytes(key, *index)?,
            ) else {
                continue;
            };
            let Some(info) = msg.attachments.get(*index as usize) else {
                continue;
            };
            let name = info.name.as_deref().unwrap_or("");
            // PDFs are already read under catch_unwind on their own thread; this
            // guards the text decoders too, so no attachment can end the run.
            let text = catch_unwind(AssertUnwindSafe(|| {
                attachment_text_with(&info.mime_type, name, &bytes, limits)
            }));
            return Ok(Some(match text {
                Ok(Some(text)) => to_pages(text),
                Ok(None) => (
                    AttachmentExtract {
                        kind: AttachmentKind::Plain,
                        status: PdfStatus::Corrupt("no text view for this type".into()),
                        page_count: 0,
                        ocr_pages: 0,
                        text_pages: 0,
                    },
                    Vec::new(),
                ),
                Err(_) => (
                    AttachmentExtract {
                        kind: AttachmentKind::Plain,
                        status: PdfStatus::Corrupt("the reader failed on it".into()),
                        page_count: 0,
                        ocr_pages: 0,
                        text_pages: 0,
                    },
                    Vec::new(),
                ),
            }));
        }
        Ok(None)
    }
}

/// The stored form of extracted text: cleaned pages and the outcome.
fn to_pages(text: AttachmentText) -> Extracted {
    let (kind, single) = match text {
        AttachmentText::Pdf(pdf) => {
            let pages: Vec<(u32, PageRecord)> = pdf
                .pages
                .into_iter()
                .map(|p| {
                    let record = PageRecord::plain(clean_page_text(&p.text), p.source);
                    (p.number, record)
                })
                .collect();
            let extract = AttachmentExtract {
                kind: AttachmentKind::Pdf,
                status: pdf.status,
                page_count: pdf.page_count,
                ocr_pages: count(&pages, |p| p.source == PageSource::Ocr),
                text_pages: count(&pages, |p| !p.text.is_empty()),
            };
            return (extract, pages);
        }
        AttachmentText::Spreadsheet(t) => return located(AttachmentKind::Spreadsheet, t, &[]),
        AttachmentText::Document(t) => return located(AttachmentKind::Document, t, &[]),
        AttachmentText::Calendar(c) => {
            let versions: Vec<EventVersion> = c.events.into_iter().map(|e| e.version).collect();
            return located(AttachmentKind::Calendar, c.text, &versions);
        }
        AttachmentText::Plain { text, .. } => (AttachmentKind::Plain, text),
        AttachmentText::Csv { text, .. } => (AttachmentKind::Csv, text),
        AttachmentText::Html { text, .. } => (AttachmentKind::Html, text),
    };
    let text = clean_page_text(&single);
    let extract = AttachmentExtract {
        kind,
        status: PdfStatus::Ok,
        page_count: 1,
        ocr_pages: 0,
        text_pages: u32::from(!text.is_empty()),
    };
    let page = PageRecord::plain(text, PageSource::TextLayer);
    (extract, vec![(1, page)])
}

/// Parts in named places (rows, paragraphs, events) as numbered pages that keep
/// their place, and for events their version.
fn located(kind: AttachmentKind, text: LocatedText, versions: &[EventVersion]) -> Extracted {
    let pages: Vec<(u32, PageRecord)> = text
        .parts
        .into_iter()
        .enumerate()
        .map(|(i, part)| {
            let record = PageRecord {
                text: clean_page_text(&part.text),
                source: PageSource::TextLayer,
                place: Some(part.place),
                version: versions.get(i).cloned(),
            };
            (i as u32 + 1, record)
        })
        .collect();
    let extract = AttachmentExtract {
        kind,
        status: text.status,
        page_count: text.units,
        ocr_pages: 0,
        text_pages: count(&pages, |p| !p.text.is_empty()),
    };
    (extract, pages)
}

fn count(pages: &[(u32, PageRecord)], f: impl Fn(&PageRecord) -> bool) -> u32 {
    pages.iter().filter(|(_, p)| f(p)).count() as u32
}

/// Stable across runs, distinct across pages and attachments of one message.
fn attachment_chunk_id(
    key: &MessageKey,
    index: u32,
    page: u32,
    start: usize,
    end: usize,
) -> ChunkId {
    let mut h = blake3::Hasher::new();
    h.update(&key.0);
    h.update(b"attachment");
    h.update(&index.to_be_bytes());
    h.update(&page.to_be_bytes());
    h.update(&(start as u64).to_be_bytes());
    h.update(&(end as u64).to_be_bytes());
    let mut id = [0u8; 16];
    id.copy_from_slice(&h.finalize().as_bytes()[..16]);
    ChunkId(id)
}
