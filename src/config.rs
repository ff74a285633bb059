//! `config.toml`, read once and whole: the IMAP accounts (`[[account]]`, their
//! fields in [`crate::source::imap::config`]), how reading treats mail (`[reader]`),
//! how mail the user writes is sent and kept (`[compose]`) and saved searches shown
//! as folders (`[[views]]`). An unknown section or
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
    /// Saved searches; [`Config::views`] gives the defaults when none are set.
    #[serde(default, rename = "views")]
    pub saved_views: Vec<View>,
}

/// `[[views]]`: a saved search, listed beside the folders with its counts.
///
/// ```toml
/// [[views]]
/// name = "Work, unread"
/// query = "tag:work is:unread"
/// sort = "oldest"        # newest (default) or oldest first
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct View {
    pub name: String,
    pub query: String,
    #[serde(default)]
    pub sort: ViewSort,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ViewSort {
    #[default]
    Newest,
    Oldest,
}

impl View {
    fn new(name: &str, query: &str) -> Self {
        Self {
            name: name.into(),
            query: query.into(),
            sort: ViewSort::Newest,
        }
    }

    /// The query of this view's unread mail.
    pub fn unread_query(&self) -> String {
        format!("({}) AND is:unread", self.query)
    }
}

impl Config {
    /// The saved searches: those of the file, else Unread and Flagged.
    pub fn views(&self) -> Vec<View> {
        if self.saved_views.is_empty() {
            vec![
                View::new("Unread", "is:unread"),
                View::new("Flagged", "is:flagged"),
            ]
        } else {
            self.saved_views.clone()
        }
    }
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
    let mut names = std::collections::HashSet::new();
    for v in &config.saved_views {
        if v.name.trim().is_empty() || v.query.trim().is_empty() {
            return Err("a view needs a name and a query".into());
        }
        if !names.insert(v.name.as_str()) {
            return Err(format!("two views are named '{}'", v.name));
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

/// Adds a saved view to the config file at `path` (made if missing), keeping the
/// rest of the file as written. When the file had no views, the defaults are
/// written first, so that they stay listed. Returns the views as they now are.
pub fn save_view(path: &Path, view: &View) -> Result<Vec<View>, ConfigError> {
    let error = |reason: String| ConfigError {
        path: path.display().to_string(),
        reason,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(error(e.to_string())),
    };
    let config = parse(&text).map_err(error)?;
    if config.views().iter().any(|v| v.name == view.name) {
        return Err(error(format!("a view is already named '{}'", view.name)));
    }
    let mut added = if config.saved_views.is_empty() {
        config.views()
    } else {
        Vec::new()
    };
    added.push(view.clone());
    #[derive(serde::Serialize)]
    struct Views<'a> {
        views: &'a [View],
    }
    let tables = toml::to_string(&Views { views: &added }).map_err(|e| error(e.to_string()))?;
    let mut new_text = text;
    if !new_text.is_empty() && !new_text.ends_with('\n') {
        new_text.push('\n');
    }
    if !new_text.is_empty() {
        new_text.push('\n');
    }
    new_text.push_str(&tables);
    let views = parse(&new_text).map_err(error)?.views();
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| error(e.to_string()))?;
    }
    let tmp = path.with_extension("toml.tmp");
    std::fs::write(&tmp, &new_text).map_err(|e| error(e.to_string()))?;
    std::fs::rename(&tmp, path).map_err(|e| error(e.to_string()))?;
    Ok(views)
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

    #[test]
    fn views_are_read_with_unread_and_flagged_as_defaults() {
        let defaults = parse("").expect("empty").views();
        let names: Vec<&str> = defaults.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["Unread", "Flagged"]);
        assert_eq!(defaults[0].query, "is:unread");
        let text =
            "[[views]]\nname = \"Work\"\nquery = \"tag:work OR from:ana\"\nsort = \"oldest\"\n";
        let views = parse(text).expect("parses").views();
        assert_eq!(views.len(), 1, "views of the file replace the defaults");
        assert_eq!(views[0].sort, ViewSort::Oldest);
        assert_eq!(
            views[0].unread_query(),
            "(tag:work OR from:ana) AND is:unread"
        );
        let twice = format!("{text}{text}");
        assert!(parse(&twice).expect_err("a name twice").contains("Work"));
        assert!(parse("[[views]]\nname = \"x\"\nquery = \" \"\n").is_err());
        assert!(parse("[[views]]\nname = \"x\"\nquery = \"a\"\nsort = \"size\"\n").is_err());
    }

    #[test]
    fn a_saved_view_is_added_to_the_file_and_the_defaults_stay() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("quoth").join("config.toml");
        let work = View {
            name: "Work \"now\"".into(),
            query: "tag:work AND date:7d..".into(),
            sort: ViewSort::Oldest,
        };
        let views = save_view(&path, &work).expect("saved in a new file");
        let names: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["Unread", "Flagged", "Work \"now\""]);
        let again = load(&path).expect("the file reads back").views();
        assert_eq!(again, views);

        std::fs::write(
            &path,
            "# mine\n[reader]\nmark_read = false\n\n[[views]]\nname = \"A\"\nquery = \"a\"\n",
        )
        .expect("write");
        let later = View::new("B", "from:b");
        let views = save_view(&path, &later).expect("added to the file's views");
        let names: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(
            names,
            ["A", "B"],
            "the defaults are not added beside views of the file"
        );
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(
            text.starts_with("# mine\n[reader]\nmark_read = false\n"),
            "{text}"
        );
        assert!(!load(&path).expect("reads").reader.mark_read);
        let err = save_view(&path, &later).expect_err("a name twice");
        assert!(err.reason.contains("already named 'B'"), "{err}");
    }
}
