//! Latest wins for invitations: an event updated by a later invitation (a higher
//! `SEQUENCE`, or a later `DTSTAMP`) or withdrawn by a cancellation is answered from
//! its latest version. When a passage of an earlier version is in the evidence, the
//! latest version's passage joins it, and the earlier one is marked as replaced, so
//! the answer quotes the latest and shows the earlier as superseded.

use crate::answer::evidence::EvidenceItem;
use crate::attach::EventVersion;
use crate::engine::{Engine, Result};
use crate::mail::model::MessageKey;
use crate::store::{display_name, StoredMessage};

/// One version of an event as a message carries it.
struct Carried {
    key: MessageKey,
    index: u32,
    page: u32,
    version: EventVersion,
    date: Option<i64>,
}

impl Engine {
    /// Marks every evidence item that quotes an event a later version replaced, and
    /// puts the latest version's passages right after it when they are missing.
    pub(in crate::engine) fn latest_events(&self, items: &mut Vec<EvidenceItem>) -> Result<()> {
        let mut inserts: Vec<(usize, Vec<EvidenceItem>)> = Vec::new();
        for i in 0..items.len() {
            let Some((msg, index, version)) = self.event_of(&items[i])? else {
                continue;
            };
            let Some(latest) = self.latest_version(&version.uid)? else {
                continue;
            };
            let this = (msg.key, index, items[i].page.unwrap_or(1));
            if (latest.key, latest.index, latest.page) == this
                || (latest.version.order(), latest.date) <= (version.order(), msg.date)
            {
                continue;
            }
            let later_key = latest.key.to_hex();
            items[i].later_version = Some(later_key.clone());
            let present = |list: &[EvidenceItem]| {
                list.iter().any(|it| {
                    it.key == later_key && it.attachment.is_some() && it.page == Some(latest.page)
                })
            };
            if present(items) || inserts.iter().any(|(_, added)| present(added)) {
                continue;
            }
            let added = self.version_items(&latest, &items[i])?;
            if !added.is_empty() {
                inserts.push((i + 1, added));
            }
        }
        for (at, added) in inserts.into_iter().rev() {
            items.splice(at..at, added);
        }
        Ok(())
    }

    /// The event an evidence item quotes: its message, attachment index and version.
    fn event_of(&self, item: &EvidenceItem) -> Result<Option<(StoredMessage, u32, EventVersion)>> {
        let (Some(name), Some(page)) = (&item.attachment, item.page) else {
            return Ok(None);
        };
        let Some(key) = MessageKey::from_hex(&item.key) else {
            return Ok(None);
        };
        let Some(msg) = self.store.message(&key)? else {
            return Ok(None);
        };
        let Some(index) = msg
            .attachments
            .iter()
            .find(|a| &display_name(a.name.as_deref(), a.index) == name)
            .map(|a| a.index)
        else {
            return Ok(None);
        };
        let Some(hash) = self.store.attachment_hash(&key, index)? else {
            return Ok(None);
        };
        let version = self
            .store
            .attachment_page(&hash, page)?
            .and_then(|p| p.version)
            .filter(|v| !v.uid.is_empty());
        Ok(version.map(|v| (msg, index, v)))
    }

    /// The latest version of an event among the stored messages: the highest
    /// sequence, then the latest stamp, then the latest message.
    fn latest_version(&self, uid: &str) -> Result<Option<Carried>> {
        let mut best: Option<Carried> = None;
        for (key, index, page, version) in self.store.event_versions(uid)? {
            // An attendee's reply answers the event; it does not change it.
            if version.method == "REPLY" {
                continue;
            }
            let Some(msg) = self.store.message(&key)? else {
                continue;
            };
            let candidate = Carried {
                key,
                index,
                page,
                version,
                date: msg.date,
            };
            let newer = best.as_ref().is_none_or(|b| {
                (candidate.version.order(), candidate.date) > (b.version.order(), b.date)
            });
            if newer {
                best = Some(candidate);
            }
        }
        Ok(best)
    }

    /// The passages of one version's event, as evidence items shaped like `like`.
    fn version_items(&self, carried: &Carried, like: &EvidenceItem) -> Result<Vec<EvidenceItem>> {
        let Some(msg) = self.store.message(&carried.key)? else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for c in self.store.chunks_of(&carried.key)? {
            let Some(at) = &c.attachment else { continue };
            if at.index == carried.index && at.page == Some(carried.page) {
                out.push(self.other_item(&msg, &c, like)?);
            }
        }
        Ok(out)
    }
}
