//! IMAP accounts as the user writes them in `config.toml`:
//!
//! ```toml
//! [[account]]
//! name = "work"
//! host = "imap.example.com"
//! tls = "implicit"            # or "starttls", or "plain" (loopback hosts only)
//! user = "me@example.com"
//! password_cmd = "pass show mail/work"
//! ```
//!
//! Secrets never sit in the file: they come from a command or an environment variable
//! when a connection is made, and the Debug output of an account hides them.

use super::ImapError;
use serde::Deserialize;
use std::fmt;
use std::net::IpAddr;
use std::path::Path;

/// How the connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TlsMode {
    /// TLS from the first byte (port 993).
    #[default]
    Implicit,
    /// Plain connection upgraded with STARTTLS before login (port 143).
    Starttls,
    /// No TLS at all: only for a server on this machine.
    Plain,
}

/// How Quoth logs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthMethod {
    /// LOGIN with a password.
    #[default]
    Login,
    /// SASL XOAUTH2 with an OAuth access token.
    Xoauth2,
}

/// One `[[account]]` of the config file.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccountConfig {
    pub name: String,
    pub host: String,
    pub port: Option<u16>,
    #[serde(default)]
    pub tls: TlsMode,
    pub user: String,
    #[serde(default)]
    pub auth: AuthMethod,
    /// Run through `sh -c`; the first line of its output is the password.
    pub password_cmd: Option<String>,
    /// The name of an environment variable holding the password.
    pub password_env: Option<String>,
    /// Prints an OAuth access token (XOAUTH2).
    pub oauth_token_cmd: Option<String>,
    /// Prints an OAuth refresh token, exchanged at `oauth_token_url` for an access token.
    pub oauth_refresh_token_cmd: Option<String>,
    pub oauth_client_id: Option<String>,
    /// Prints the OAuth client secret, for providers that want one.
    pub oauth_client_secret_cmd: Option<String>,
    pub oauth_token_url: Option<String>,
    /// The folder watched with IDLE by `quoth sync --watch` (one IDLE per connection).
    #[serde(default = "default_idle_folder")]
    pub idle_folder: String,
    /// Seconds a password or token command may run before it is stopped (a command
    /// waiting on a locked keyring must not hang the sync): 30 by default.
    pub command_timeout_s: Option<u64>,
    /// The From of mail written to this account's messages (replies, forwards).
    pub from: Option<String>,
    /// The command that sends this account's mail (the message on its stdin).
    pub sendmail: Option<String>,
}

/// How long a credentials command may run when the account does not say.
pub const DEFAULT_COMMAND_TIMEOUT_S: u64 = 30;

fn default_idle_folder() -> String {
    "INBOX".to_string()
}

/// Shows where secrets come from only as present or absent: a command line can itself
/// hold a secret (`echo hunter2`), so none of them is printed.
impl fmt::Debug for AccountConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hidden = |o: &Option<String>| o.as_ref().map(|_| "<redacted>");
        f.debug_struct("AccountConfig")
            .field("name", &self.name)
            .field("host", &self.host)
            .field("port", &self.port())
            .field("tls", &self.tls)
            .field("user", &self.user)
            .field("auth", &self.auth)
            .field("password_cmd", &hidden(&self.password_cmd))
            .field("password_env", &self.password_env)
            .field("oauth_token_cmd", &hidden(&self.oauth_token_cmd))
            .field(
                "oauth_refresh_token_cmd",
                &hidden(&self.oauth_refresh_token_cmd),
            )
            .field("oauth_client_id", &self.oauth_client_id)
            .field(
                "oauth_client_secret_cmd",
                &hidden(&self.oauth_client_secret_cmd),
            )
            .field("oauth_token_url", &self.oauth_token_url)
            .field("idle_folder", &self.idle_folder)
            .field("command_timeout_s", &self.command_timeout_s)
            .field("from", &self.from)
            .field("sendmail", &self.sendmail.as_ref().map(|_| "<set>"))
            .finish()
    }
}

impl AccountConfig {
    /// How long a credentials command may run.
    pub fn command_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(
            self.command_timeout_s
                .unwrap_or(DEFAULT_COMMAND_TIMEOUT_S)
                .max(1),
        )
    }

    pub fn port(&self) -> u16 {
        self.port.unwrap_or(match self.tls {
            TlsMode::Implicit => 993,
            TlsMode::Starttls | TlsMode::Plain => 143,
        })
    }

    /// Refuses settings that would leak the password or cannot work, before any
    /// connection is tried.
    pub fn validate(&self) -> Result<(), ImapError> {
        let fail = |reason: String| {
            Err(ImapError::Account {
                account: self.name.clone(),
                reason,
            })
        };
        if self.name.is_empty() || self.name.contains(['/', '\0']) {
            return fail("an account name must be non-empty, without '/'".into());
        }
        if self.tls == TlsMode::Plain && !is_loopback(&self.host) {
            return fail(format!(
                "tls = \"plain\" would send the password in clear to {}; it is allowed only \
                 for a server on this machine (localhost, 127.0.0.1, ::1): use \"implicit\" or \
                 \"starttls\"",
                self.host
            ));
        }
        match self.auth {
            AuthMethod::Login => {
                if self.password_cmd.is_none() && self.password_env.is_none() {
                    return fail("set password_cmd or password_env".into());
                }
            }
            AuthMethod::Xoauth2 => {
                let refresh = self.oauth_refresh_token_cmd.is_some()
                    && self.oauth_client_id.is_some()
                    && self.oauth_token_url.is_some();
                if self.oauth_token_cmd.is_none() && !refresh {
                    return fail(
                        "auth = \"xoauth2\" needs oauth_token_cmd, or oauth_refresh_token_cmd \
                         with oauth_client_id and oauth_token_url"
                            .into(),
                    );
                }
            }
        }
        Ok(())
    }
}

/// `localhost`, or an address in 127.0.0.0/8 or ::1.
pub fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<IpAddr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(false)
}

/// Reads and checks every account of a config file ([`crate::config::load`]).
pub fn load_accounts(path: &Path) -> Result<Vec<AccountConfig>, ImapError> {
    crate::config::load(path)
        .map(|c| c.accounts)
        .map_err(|e| ImapError::Config {
            path: e.path,
            reason: e.reason,
        })
}

/// The accounts of a config file's text ([`crate::config::parse`]).
pub fn parse_accounts(text: &str) -> Result<Vec<AccountConfig>, String> {
    crate::config::parse(text).map(|c| c.accounts)
}

/// The accounts to sync: the one named, or all of them.
pub fn select_accounts(
    accounts: Vec<AccountConfig>,
    name: Option<&str>,
) -> Result<Vec<AccountConfig>, ImapError> {
    match name {
        None => Ok(accounts),
        Some(n) => {
            let picked: Vec<_> = accounts.into_iter().filter(|a| a.name == n).collect();
            if picked.is_empty() {
                Err(ImapError::NoSuchAccount(n.to_string()))
            } else {
                Ok(picked)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "[[account]]\nname = \"w\"\nuser = \"me\"\npassword_env = \"PW\"\n";

    #[test]
    fn plain_is_refused_off_loopback() {
        let text = format!("{BASE}host = \"imap.example.com\"\ntls = \"plain\"\n");
        let err = parse_accounts(&text).unwrap_err();
        assert!(err.contains("only for a server on this machine"), "{err}");
        for host in ["127.0.0.1", "localhost", "::1", "127.3.4.5"] {
            let text = format!("{BASE}host = \"{host}\"\ntls = \"plain\"\n");
            assert!(parse_accounts(&text).is_ok(), "{host}");
        }
    }

    #[test]
    fn debug_hides_secret_commands() {
        let text = format!("{BASE}host = \"h\"\npassword_cmd = \"echo hunter2\"\n");
        let accounts = parse_accounts(&text).unwrap();
        let shown = format!("{:?}", accounts[0]);
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("<redacted>"));
        assert_eq!(accounts[0].port(), 993);
    }

    #[test]
    fn xoauth2_needs_a_token_source() {
        let text = "[[account]]\nname = \"g\"\nhost = \"h\"\nuser = \"me\"\nauth = \"xoauth2\"\n";
        assert!(parse_accounts(text)
            .unwrap_err()
            .contains("oauth_token_cmd"));
    }
}
