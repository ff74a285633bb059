//! The mailbox service: what the user sees and does to their mail. Threads, flags,
//! moves and archive, the trash and its expunge, tags and muting, copies of one email,
//! the address book, attachments as a viewer shows them, compose and drafts, the
//! data directory's privacy, and the store's figures. It owns the user's tags and the
//! address book's cached reading of the mailbox ([`UserState`]).

pub(super) mod address_book;
pub(super) mod attachment_view;
pub mod compose;
pub mod copies;
pub(super) mod draft_parts;
pub mod expunge;
pub mod flags;
pub(super) mod invitation;
pub mod message_files;
pub mod moves;
pub mod muting;
pub mod privacy;
pub(super) mod remove;
pub(super) mod stats;
pub mod tagging;
pub(super) mod threading;

/// What the mailbox owns beside the store: the user's tags, kept apart from
/// everything derived from the mail, and the address book's reading of the
/// mailbox, cached by the store's generation.
pub(in crate::engine) struct UserState {
    pub tags: crate::store::tags::Tags,
    pub context: std::sync::Mutex<Option<(u64, address_book::MailboxContext)>>,
    /// The address book's people merged across addresses, by the same generation.
    pub identities:
        std::sync::Mutex<Option<(u64, std::sync::Arc<crate::graph::identity::Identities>)>>,
}
