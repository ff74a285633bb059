//! `config.toml`, read once and whole: the IMAP accounts (`[[account]]`, their
//! fields in [`crate::source::imap::config`]), how reading treats mail (`[reader]`)
//! and how mail the user writes is sent and kept (`[compose]`). An unknown section or
//! field is an error, so a typo is reported rather than ignored.
//!
//! The file is the one given (`--config`, `QUOTH_CONFIG`), else
//! `$XDG_CONFIG_HOME/quoth/config.toml`.

use crate::source::imap::config::AccountConfig;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Every section of the config file.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default, rename = "account")]
    pub accounts: Vec<AccountConfig>,
    #[serde(default)]
    pub reader: ReaderConfig,
    #[serde(default)]
    pub compose: ComposeConfig,
}

/// A config file that cannot be used, and why.
#[derive(Debug, Clone, thiserror::Error)]
#[error("config file {path}: {reason}")]
pub struct ConfigError {
    pub path: String,
    pub reason: String,
}

/// `[compose]`: how mail the user writes is addressed, sent and kept.
///
/// ```toml
/// [compose]
/// from = "Ann Example <ann@example.com>"
/// sendmail = "msmtp -a work -t"   # gets the whole message on stdin
/// maildir = "~/Mail"              # where Sent and Drafts are, for mail not in a Maildir
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComposeConfig {
    pub from: Option<String>,
    /// Run through `sh -c` with the message on stdin; `sendmail -t -oi` when unset.
    pub sendmail: Option<String>,
    /// The Maildir whose Sent and Drafts folders keep mail written to messages of
    /// other sources, and new messages; the first Maildir Quoth reads when unset.
    pub maildir: Option<PathBuf>,
    /// Seconds the sendmail command may run: 120 by default.
    pub timeout_s: Option<u64>,
}

/// `[reader]`: how reading treats mail.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReaderConfig {
    /// Opening a message marks it read (`S`) at its source, as mutt does.
    #[serde(default = "yes")]
    pub mark_read: bool,
}

impl Default for ReaderConfig {
    fn default() -> Self {
        Self { mark_read: true }
    }
}

fn yes() -> bool {
    true
}

/// The config file: the one given, else `$XDG_CONFIG_HOME/quoth/config.toml`.
pub fn path(given: Option<&Path>) -> Option<PathBuf> {
    given
        .map(Path::to_path_buf)
        .or_else(|| dirs::config_dir().map(|d| d.join("quoth").join("config.toml")))
}

/// Parses and checks a config file's text (errors as text, for the caller to place).
pub fn parse(text: &str) -> Result<Config, String> {
    let config: Config = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut seen = std::collections::HashSet::new();
    for a in &config.accounts {
        a.validate().map_err(|e| e.to_string())?;
        if !seen.insert(a.name.as_str()) {
            return Err(format!("two accounts are named '{}'", a.name));
        }
    }
    Ok(config)
}

/// Reads and checks the config file at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    let error = |reason: String| ConfigError {
        path: path.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
    parse(&text).map_err(error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_is_read_at_once_and_a_typo_is_an_error() {
        let text = "[reader]\nmark_read = false\n\n[compose]\nfrom = \"Ann <ann@example.com>\"\n";
        let config = parse(text).expect("parses");
        assert!(!config.reader.mark_read);
        assert_eq!(
            config.compose.from.as_deref(),
            Some("Ann <ann@example.com>")
        );
        assert!(config.accounts.is_empty());
        let empty = parse("").expect("an empty file");
        assert!(empty.reader.mark_read, "reading marks read by default");
        let err = parse("[reader]\nmark_raed = true\n").expect_err("a typo");
        assert!(err.contains("mark_raed"), "{err}");
    }
}
