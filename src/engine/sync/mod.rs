//! The sync service: IMAP accounts fetched into the store, the IDLE watch loop, and
//! the changes (flags, keywords, moves) sent back to their servers. It owns no state
//! of its own beyond the store's sync bookkeeping, and borrows the engine only to
//! store what it fetched ([`access::EngineAccess`]).

pub(super) mod access;
pub(super) mod accounts;
pub(super) mod keyword_sync;
pub(super) mod server_changes;
pub(super) mod watch;

pub use accounts::*;
