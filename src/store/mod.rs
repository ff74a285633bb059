//! Durable state in sled.

pub mod db;
pub mod jobs;
pub mod records;
pub mod sync_state;

pub use db::{NewMessage, Store, StoreError, SCHEMA_VERSION};
pub use records::*;
