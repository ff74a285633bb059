//! IMAP accounts: settings and secrets (`config`, `credentials`), flag mapping, and
//! the protocol session sync uses. What is stored and when lives in `engine::sync`.

pub mod config;
pub mod credentials;
mod error;
pub mod flags;
pub mod session;

pub use config::{load_accounts, select_accounts, AccountConfig, AuthMethod, TlsMode};
pub use error::ImapError;
pub use session::{connect, FetchedMessage, FlagsOf, FolderStatus, IdleOutcome, ImapSession};
