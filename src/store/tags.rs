//! Tags the user puts on messages (`+work`, `-later`). They are the user's own
//! data, not derived from the mail, so they live in a database of their own beside
//! the store (`<data dir>/tags/`): `quoth rebuild`, which makes the store anew from
//! the mail, leaves them alone, and a message keeps its tags because its key is its
//! content's hash, which a rebuild gives it again.

use super::db::Result;
use super::live_sets::{KeySet, LiveSets};
use crate::mail::model::MessageKey;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// Why a tag name cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{name}' is not a tag: {why}")]
pub struct BadTag {
    pub name: String,
    pub why: &'static str,
}

/// Checks a tag name: a word of letters, digits and `-_./@`, as notmuch users write
/// them, at most 64 characters; tags are compared as given.
pub fn check_tag(name: &str) -> std::result::Result<(), BadTag> {
    let bad = |why| {
        Err(BadTag {
            name: name.to_string(),
            why,
        })
    };
    if name.is_empty() {
        return bad("it is empty");
    }
    if name.chars().count() > 64 {
        return bad("it is longer than 64 characters");
    }
    if name.starts_with(['-', '+']) {
        return bad("it starts with + or -, which add and remove tags");
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || "-_./@".contains(c))
    {
        return bad("use letters, digits and - _ . / @ only");
    }
    Ok(())
}

/// The names of a stored list (names joined by newlines), as tags and keywords
/// are kept.
pub(super) fn names_of(value: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(value)
        .split('\n')
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The tag database.
#[derive(Clone)]
pub struct Tags {
    _db: sled::Db,
    /// Tag name, a zero byte, message key.
    by_tag: sled::Tree,
    /// Message key to its tags, sorted, joined by newlines.
    of_message: sled::Tree,
    /// The tags' sets of messages read so far, kept in step with `by_tag`.
    live: Arc<LiveSets<String>>,
}

impl Tags {
    pub fn open(dir: &Path) -> Result<Self> {
        let db = sled::Config::new()
            .path(dir)
            .cache_capacity(1024 * 1024)
            .flush_every_ms(Some(500))
            .open()?;
        Ok(Self {
            by_tag: db.open_tree("by_tag")?,
            of_message: db.open_tree("of_message")?,
            live: Default::default(),
            _db: db,
        })
    }

    /// The tags of a message, sorted.
    pub fn of(&self, key: &MessageKey) -> Result<Vec<String>> {
        Ok(self
            .of_message
            .get(key.0)?
            .map_or_else(Vec::new, |v| names_of(&v)))
    }

    /// Adds and removes tags on each message; returns how many messages changed.
    /// Names are checked by the caller ([`check_tag`]).
    pub fn change(&self, keys: &[MessageKey], add: &[String], remove: &[String]) -> Result<usize> {
        let mut changed = 0;
        for key in keys {
            let before = self.of(key)?;
            let mut after: Vec<String> = before
                .iter()
                .filter(|t| !remove.contains(t))
                .cloned()
                .chain(add.iter().cloned())
                .collect();
            after.sort();
            after.dedup();
            if after == before {
                continue;
            }
            let mut by_tag = sled::Batch::default();
            let mut changes = Vec::new();
            for gone in before.iter().filter(|t| !after.contains(t)) {
                by_tag.remove(entry(gone, key));
                changes.push((gone.clone(), *key, false));
            }
            for new in after.iter().filter(|t| !before.contains(t)) {
                by_tag.insert(entry(new, key), &[]);
                changes.push((new.clone(), *key, true));
            }
            self.live
                .write(&changes, || self.by_tag.apply_batch(by_tag))?;
            if after.is_empty() {
                self.of_message.remove(key.0)?;
            } else {
                self.of_message.insert(key.0, after.join("\n").as_bytes())?;
            }
            changed += 1;
        }
        Ok(changed)
    }

    /// The messages carrying a tag, as queries read them.
    pub fn tag_set(&self, tag: &str) -> Result<Arc<KeySet>> {
        self.live.get(&tag.to_string(), || self.keys_tagged(tag))
    }

    /// The messages carrying a tag.
    pub fn keys_tagged(&self, tag: &str) -> Result<Vec<MessageKey>> {
        let mut prefix = tag.as_bytes().to_vec();
        prefix.push(0);
        self.by_tag
            .scan_prefix(&prefix)
            .keys()
            .filter_map(|k| match k {
                Ok(k) => k
                    .get(prefix.len()..)
                    .and_then(|b| <[u8; 16]>::try_from(b).ok())
                    .map(|b| Ok(MessageKey(b))),
                Err(e) => Some(Err(e.into())),
            })
            .collect()
    }

    /// Every tagged message with its tags.
    pub fn tagged(&self) -> Result<Vec<(MessageKey, Vec<String>)>> {
        let mut out = Vec::new();
        for kv in self.of_message.iter() {
            let (k, v) = kv?;
            let Ok(key) = <[u8; 16]>::try_from(k.as_ref()) else {
                continue;
            };
            let tags = String::from_utf8_lossy(&v)
                .split('\n')
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect();
            out.push((MessageKey(key), tags));
        }
        Ok(out)
    }

    /// Every tag in use with how many messages carry it, by name.
    pub fn all(&self) -> Result<BTreeMap<String, usize>> {
        let mut out = BTreeMap::new();
        for k in self.by_tag.iter().keys() {
            let k = k?;
            if let Some(end) = k.iter().position(|&b| b == 0) {
                *out.entry(String::from_utf8_lossy(&k[..end]).into_owned())
                    .or_insert(0) += 1;
            }
        }
        Ok(out)
    }
}

fn entry(tag: &str, key: &MessageKey) -> Vec<u8> {
    let mut k = tag.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(&key.0);
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_added_removed_and_found_by_name() {
        let dir = tempfile::tempdir().expect("temp dir");
        let tags = Tags::open(dir.path()).expect("open");
        let (a, b) = (MessageKey([1; 16]), MessageKey([2; 16]));
        let s = |v: &[&str]| v.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        assert_eq!(
            tags.change(&[a, b], &s(&["work", "later"]), &[])
                .expect("tag"),
            2
        );
        assert_eq!(
            tags.change(&[a], &s(&["work"]), &[]).expect("again"),
            0,
            "no change"
        );
        assert_eq!(tags.change(&[b], &[], &s(&["later"])).expect("untag"), 1);
        assert_eq!(tags.of(&a).expect("of"), s(&["later", "work"]));
        assert_eq!(tags.of(&b).expect("of"), s(&["work"]));
        let mut work = tags.keys_tagged("work").expect("work");
        work.sort_by_key(|k| k.0);
        assert_eq!(work, vec![a, b]);
        assert_eq!(tags.keys_tagged("later").expect("later"), vec![a]);
        assert!(
            tags.keys_tagged("wor").expect("prefix").is_empty(),
            "whole names only"
        );
        let all = tags.all().expect("all");
        assert_eq!(all.get("work"), Some(&2));
        assert_eq!(all.get("later"), Some(&1));
        tags.change(&[a], &[], &s(&["later", "work"]))
            .expect("clear");
        assert!(tags.of(&a).expect("of").is_empty());
    }

    #[test]
    fn tag_names_are_words() {
        assert!(check_tag("work").is_ok());
        assert!(check_tag("to-do/2024@home").is_ok());
        assert!(check_tag("").is_err());
        assert!(check_tag("two words").is_err());
        assert!(check_tag("-later").is_err());
        assert!(check_tag("a:b").is_err());
        assert!(check_tag(&"x".repeat(65)).is_err());
    }
}
