//! Tagging: `+tag` and `-tag` on the messages a query matches, and the tags in use.
//! Tags are the user's own data ([`crate::store::tags`]); they need neither index
//! written, so a front end tags mail while an ingest holds the engine.

use crate::engine::{Engine, Result};
use crate::index::lexical_query::compile;
use crate::mail::model::{MessageKey, ThreadId};
use crate::query::syntax::parse_query;
use crate::store::tags::check_tag;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// What a tag command did.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct TagReport {
    /// Messages the query matched.
    pub matched: usize,
    /// Of those, messages whose tags changed.
    pub changed: usize,
}

/// What a front end tags: a whole thread (every copy of its emails) or one message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TagTarget {
    Thread(ThreadId),
    Message(MessageKey),
}

impl Engine {
    /// Adds `add` and removes `remove` on a thread or a message; returns what
    /// changed and the thread it is in.
    pub fn tag_target(
        &self,
        target: &TagTarget,
        add: &[String],
        remove: &[String],
    ) -> Result<(TagReport, ThreadId)> {
        for name in add.iter().chain(remove) {
            check_tag(name)?;
        }
        let (keys, thread) = match target {
            TagTarget::Thread(id) => (
                self.store
                    .thread(id)?
                    .map(|t| t.messages)
                    .unwrap_or_default(),
                *id,
            ),
            TagTarget::Message(key) => (vec![*key], self.thread_id(key)?),
        };
        let changed = self.change_tags(&keys, add, remove)?;
        let report = TagReport {
            matched: keys.len(),
            changed,
        };
        Ok((report, thread))
    }

    /// The tags on the mail of each thread, for the thread list: every tagged
    /// thread, or only `thread` (with an empty list when it has none).
    pub fn thread_tags(&self, thread: Option<&ThreadId>) -> Result<Vec<(ThreadId, Vec<String>)>> {
        if let Some(id) = thread {
            let mut tags = BTreeSet::new();
            for key in self
                .store
                .thread(id)?
                .map(|t| t.messages)
                .unwrap_or_default()
            {
                tags.extend(self.mailbox.tags.of(&key)?);
            }
            return Ok(vec![(*id, tags.into_iter().collect())]);
        }
        let mut by_thread: HashMap<ThreadId, BTreeSet<String>> = HashMap::new();
        for (key, tags) in self.mailbox.tags.tagged()? {
            if !self.store.contains_message(&key)? {
                continue;
            }
            by_thread
                .entry(self.thread_id(&key)?)
                .or_default()
                .extend(tags);
        }
        Ok(by_thread
            .into_iter()
            .map(|(id, t)| (id, t.into_iter().collect()))
            .collect())
    }

    /// Adds `add` and removes `remove` on every message `query` matches.
    pub fn tag(
        &self,
        query: &str,
        add: &[String],
        remove: &[String],
        now: i64,
    ) -> Result<TagReport> {
        for name in add.iter().chain(remove) {
            check_tag(name)?;
        }
        let parsed = parse_query(query, now)?;
        let compiled = compile(
            &parsed,
            &self.retrieval.lexical,
            &self.mail_states(&parsed)?,
        );
        let keys: Vec<MessageKey> = self
            .retrieval
            .lexical
            .matching_keys(compiled.as_ref())?
            .into_iter()
            .collect();
        let changed = self.change_tags(&keys, add, remove)?;
        Ok(TagReport {
            matched: keys.len(),
            changed,
        })
    }

    /// Adds and removes tags on `keys`, and records the change for the server
    /// copies of IMAP mail; returns how many messages' tags changed.
    pub(in crate::engine) fn change_tags(
        &self,
        keys: &[MessageKey],
        add: &[String],
        remove: &[String],
    ) -> Result<usize> {
        let changed = self.mailbox.tags.change(keys, add, remove)?;
        crate::engine::sync::keyword_sync::queue_keywords(&self.store, keys, add, remove)?;
        Ok(changed)
    }

    /// The tags of one message, sorted.
    pub fn tags_of(&self, key: &MessageKey) -> Result<Vec<String>> {
        Ok(self.mailbox.tags.of(key)?)
    }

    /// Every tag in use, with how many messages carry it.
    pub fn all_tags(&self) -> Result<BTreeMap<String, usize>> {
        Ok(self.mailbox.tags.all()?)
    }
}
