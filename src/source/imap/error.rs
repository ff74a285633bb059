//! What can go wrong talking to an IMAP account, named by account and step so a
//! message tells the user where to look, and sorted into transient (retry) or not.

use std::io;

#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error("config file {path}: {reason}")]
    Config { path: String, reason: String },
    #[error("no account named '{0}' in the config file")]
    NoSuchAccount(String),
    #[error("account '{account}': {reason}")]
    Account { account: String, reason: String },
    #[error("account '{account}': getting the {what}: {reason}")]
    Credentials {
        account: String,
        what: &'static str,
        reason: String,
    },
    #[error("account '{account}': cannot connect to {host}:{port}: {source}")]
    Connect {
        account: String,
        host: String,
        port: u16,
        #[source]
        source: io::Error,
    },
    #[error("account '{account}': TLS with {host} failed: {reason}")]
    Tls {
        account: String,
        host: String,
        reason: String,
    },
    #[error("account '{account}': the server refused the login of '{user}': {reason}")]
    Auth {
        account: String,
        user: String,
        reason: String,
    },
    #[error("account '{account}': {step}: {reason}")]
    Protocol {
        account: String,
        step: String,
        reason: String,
        /// The connection broke (rather than the server saying no): worth a retry.
        transient: bool,
    },
    #[error("account '{account}': {step}: no answer from the server in {secs} s")]
    Timeout {
        account: String,
        step: String,
        secs: u64,
    },
}

impl ImapError {
    /// Whether trying again later may succeed: the network or the server had a hiccup.
    /// A refused login, a bad certificate or a wrong setting will not fix itself.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Connect { .. } | Self::Timeout { .. } => true,
            Self::Protocol { transient, .. } => *transient,
            _ => false,
        }
    }

    /// Wraps an async-imap error met at `step`.
    pub fn protocol(account: &str, step: impl Into<String>, e: async_imap::error::Error) -> Self {
        use async_imap::error::Error as E;
        let transient = matches!(e, E::Io(_) | E::ConnectionLost);
        Self::Protocol {
            account: account.to_string(),
            step: step.into(),
            reason: e.to_string(),
            transient,
        }
    }
}
