//! The graph's trees: what each message gives the graph (its people with their roles,
//! and the facts its authored text states), with three indexes for lookups: mail by
//! address, addresses by organisation (domain), and messages by fact attribute.
//!
//! Every write is keyed by the message, so writing a message's graph twice stores
//! nothing twice; the message's record goes last and marks it done.

use super::{Result, Store, StoreError};
use crate::graph::facts::{Entity, Fact};
use crate::mail::model::{Mailbox, MessageKey};
use serde::{Deserialize, Serialize};

/// A participant of one message: their role bits ([`crate::graph::thread_people::PartRole`]
/// codes as bits), name and address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessagePerson {
    pub roles: u8,
    pub name: Option<String>,
    pub address: String,
}

/// What one message gives the graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageGraph {
    pub date: Option<i64>,
    pub people: Vec<MessagePerson>,
    pub facts: Vec<Fact>,
    /// Last, as fields a record gains are: an older record ends before it.
    pub entities: Vec<Entity>,
}

/// A record written before messages kept their entities.
#[derive(Deserialize)]
struct LegacyGraph {
    date: Option<i64>,
    people: Vec<MessagePerson>,
    facts: Vec<Fact>,
}

impl From<LegacyGraph> for MessageGraph {
    fn from(old: LegacyGraph) -> Self {
        Self {
            date: old.date,
            people: old.people,
            facts: old.facts,
            entities: Vec::new(),
        }
    }
}

/// One message an address is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    pub key: MessageKey,
    pub roles: u8,
    pub date: Option<i64>,
}

#[derive(Clone)]
pub(super) struct GraphTrees {
    /// message key → `MessageGraph`
    messages: sled::Tree,
    /// address ‖ 0 ‖ message key → roles ‖ date (i64 BE, `i64::MIN` for none)
    people: sled::Tree,
    /// domain ‖ 0 ‖ address → ()
    domains: sled::Tree,
    /// attribute key ‖ 0 ‖ message key → ()
    attributes: sled::Tree,
    /// message key → its Reply-To mailboxes (`Vec<Mailbox>`), written at ingest from
    /// the parsed headers so the graph need not read the source again. Header data,
    /// not derived: clearing the graph keeps it.
    reply_to: sled::Tree,
}

impl GraphTrees {
    pub(super) fn open(db: &sled::Db) -> Result<Self> {
        Ok(Self {
            messages: db.open_tree("graph_messages")?,
            people: db.open_tree("graph_people")?,
            domains: db.open_tree("graph_domains")?,
            attributes: db.open_tree("graph_attributes")?,
            reply_to: db.open_tree("reply_to")?,
        })
    }

    /// Writes ingest's batch of Reply-To records.
    pub(super) fn keep_reply_to(&self, batch: sled::Batch) -> Result<()> {
        Ok(self.reply_to.apply_batch(batch)?)
    }
}

fn joined(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut k = Vec::with_capacity(a.len() + 1 + b.len());
    k.extend_from_slice(a);
    k.push(0);
    k.extend_from_slice(b);
    k
}

fn prefix(a: &str) -> Vec<u8> {
    let mut k = a.as_bytes().to_vec();
    k.push(0);
    k
}

fn corrupt(tree: &'static str, reason: impl ToString) -> StoreError {
    StoreError::Corrupt {
        tree,
        reason: reason.to_string(),
    }
}

impl Store {
    /// Stores what a message gives the graph, its indexes first and its record last.
    pub fn record_graph(&self, key: &MessageKey, graph: &MessageGraph) -> Result<()> {
        let t = &self.graph;
        let date = graph.date.unwrap_or(i64::MIN).to_be_bytes();
        let mut people = sled::Batch::default();
        let mut domains = sled::Batch::default();
        for p in graph.people.iter().filter(|p| !p.address.is_empty()) {
            let mut value = vec![p.roles];
            value.extend_from_slice(&date);
            people.insert(joined(p.address.as_bytes(), &key.0), value);
            if let Some(org) = crate::graph::organisation::organisation_of(&p.address) {
                domains.insert(joined(org.domain.as_bytes(), p.address.as_bytes()), &[]);
            }
        }
        let mut attributes = sled::Batch::default();
        for f in &graph.facts {
            attributes.insert(joined(f.key.as_bytes(), &key.0), &[]);
        }
        t.people.apply_batch(people)?;
        t.domains.apply_batch(domains)?;
        t.attributes.apply_batch(attributes)?;
        let record = bincode::serialize(graph).map_err(|e| corrupt("graph_messages", e))?;
        t.messages.insert(key.0, record)?;
        Ok(())
    }

    /// What a message gave the graph; `None` before its job ran.
    pub fn message_graph(&self, key: &MessageKey) -> Result<Option<MessageGraph>> {
        match self.graph.messages.get(key.0)? {
            Some(v) => {
                super::decode_or_legacy::<MessageGraph, LegacyGraph>("graph_messages", &v).map(Some)
            }
            None => Ok(None),
        }
    }

    pub fn has_graph(&self, key: &MessageKey) -> Result<bool> {
        Ok(self.graph.messages.contains_key(key.0)?)
    }

    /// Messages the graph has read.
    pub fn graph_message_count(&self) -> usize {
        self.graph.messages.len()
    }

    /// Index entries of the graph: (people postings, organisation addresses, facts
    /// by attribute).
    pub fn graph_index_sizes(&self) -> (usize, usize, usize) {
        let t = &self.graph;
        (t.people.len(), t.domains.len(), t.attributes.len())
    }

    /// The messages an address is on, with its roles there.
    pub fn mail_with_address(&self, address: &str) -> Result<Vec<Posting>> {
        let p = prefix(address);
        let mut out = Vec::new();
        for kv in self.graph.people.scan_prefix(&p) {
            let (k, v) = kv?;
            let key = k
                .get(p.len()..)
                .and_then(|b| <[u8; 16]>::try_from(b).ok())
                .ok_or_else(|| corrupt("graph_people", "bad key"))?;
            let date = v
                .get(1..9)
                .and_then(|b| <[u8; 8]>::try_from(b).ok())
                .map(i64::from_be_bytes)
                .ok_or_else(|| corrupt("graph_people", "bad value"))?;
            out.push(Posting {
                key: MessageKey(key),
                roles: v[0],
                date: (date != i64::MIN).then_some(date),
            });
        }
        Ok(out)
    }

    /// The addresses seen at a registered domain.
    pub fn addresses_at(&self, domain: &str) -> Result<Vec<String>> {
        let p = prefix(domain);
        let mut out = Vec::new();
        for k in self.graph.domains.scan_prefix(&p).keys() {
            let k = k?;
            out.push(String::from_utf8_lossy(&k[p.len()..]).into_owned());
        }
        Ok(out)
    }

    /// Every registered domain the graph has seen an address at.
    pub fn graph_domains(&self) -> Result<Vec<String>> {
        distinct_heads(&self.graph.domains)
    }

    /// The messages that state a fact of an attribute key.
    pub fn messages_stating(&self, attribute_key: &str) -> Result<Vec<MessageKey>> {
        let p = prefix(attribute_key);
        let mut out = Vec::new();
        for k in self.graph.attributes.scan_prefix(&p).keys() {
            let k = k?;
            if let Some(key) = k.get(p.len()..).and_then(|b| <[u8; 16]>::try_from(b).ok()) {
                out.push(MessageKey(key));
            }
        }
        Ok(out)
    }

    /// Empties the graph, to read it again from the messages.
    pub fn clear_graph(&self) -> Result<()> {
        let t = &self.graph;
        for tree in [&t.messages, &t.people, &t.domains, &t.attributes] {
            tree.clear()?;
        }
        Ok(())
    }

    /// Bytes the graph's records and indexes hold (keys and values), for reports.
    pub fn graph_bytes(&self) -> u64 {
        let t = &self.graph;
        [&t.messages, &t.people, &t.domains, &t.attributes]
            .iter()
            .flat_map(|tree| tree.iter().flatten())
            .map(|(k, v)| (k.len() + v.len()) as u64)
            .sum()
    }

    /// The Reply-To mailboxes ingest kept for a message (empty when it had none);
    /// `None` for a message stored before ingest kept them.
    pub fn reply_to(&self, key: &MessageKey) -> Result<Option<Vec<Mailbox>>> {
        self.graph
            .reply_to
            .get(key.0)?
            .map(|v| bincode::deserialize(&v).map_err(|e| corrupt("reply_to", e)))
            .transpose()
    }

    /// Takes a removed message out of the graph.
    pub(super) fn remove_graph(&self, key: &MessageKey) -> Result<()> {
        self.graph.reply_to.remove(key.0)?;
        let Some(graph) = self.message_graph(key)? else {
            return Ok(());
        };
        let t = &self.graph;
        for p in &graph.people {
            t.people.remove(joined(p.address.as_bytes(), &key.0))?;
        }
        for f in &graph.facts {
            t.attributes.remove(joined(f.key.as_bytes(), &key.0))?;
        }
        t.messages.remove(key.0)?;
        Ok(())
    }
}

/// The distinct parts before the 0 byte of a tree's keys, skipping ahead past each.
fn distinct_heads(tree: &sled::Tree) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut from: Vec<u8> = Vec::new();
    while let Some(kv) = tree.range(from.clone()..).next() {
        let (k, _) = kv?;
        let Some(end) = k.iter().position(|&b| b == 0) else {
            break;
        };
        out.push(String::from_utf8_lossy(&k[..end]).into_owned());
        from = k[..end].to_vec();
        from.push(1);
    }
    Ok(out)
}
