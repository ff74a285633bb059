//! Durable state in sled.

pub mod db;
pub mod file_renames;
pub mod imap_appends;
pub mod imap_changes;
pub mod imap_keywords;
pub mod jobs;
pub mod live_sets;
pub mod records;
pub mod sync_state;
pub mod tags;
mod unfinished_snapshots;

pub use db::attachments::{
    attachment_embed_text, attachment_ordinal, content_hash, display_name, is_attachment_ordinal,
    AttachmentExtract, AttachmentKind, ChunkAttachment, ContentHash, PageRecord,
};
pub use db::graph::{MessageGraph, MessagePerson, Posting};
pub use db::{NewMessage, Store, StoreError, SCHEMA_VERSION};
pub use records::*;
