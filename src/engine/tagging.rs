//! Tagging: `+tag` and `-tag` on the messages a query matches, and the tags in use.
//! Tags are the user's own data ([`crate::store::tags`]); they need neither index
//! written, so a front end tags mail while an ingest holds the engine.

use super::{Engine, Result};
use crate::index::lexical_query::compile;
use crate::mail::model::MessageKey;
use crate::query::syntax::parse_query;
use crate::store::tags::check_tag;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What a tag command did.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct TagReport {
    /// Messages the query matched.
    pub matched: usize,
    /// Of those, messages whose tags changed.
    pub changed: usize,
}

impl Engine {
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
        let compiled = compile(&parsed, &self.lexical, &self.mail_states(&parsed)?);
        let keys: Vec<MessageKey> = self
            .lexical
            .matching_keys(compiled.as_ref())?
            .into_iter()
            .collect();
        let changed = self.tags.change(&keys, add, remove)?;
        Ok(TagReport {
            matched: keys.len(),
            changed,
        })
    }

    /// The tags of one message, sorted.
    pub fn tags_of(&self, key: &MessageKey) -> Result<Vec<String>> {
        Ok(self.tags.of(key)?)
    }

    /// Every tag in use, with how many messages carry it.
    pub fn all_tags(&self) -> Result<BTreeMap<String, usize>> {
        Ok(self.tags.all()?)
    }
}
