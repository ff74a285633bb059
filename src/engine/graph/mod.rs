//! The graph service: lookups over what the graph jobs stored. A thread's people
//! (with when each joined and dropped off), its organisations and its dated facts;
//! the people the user dealt with, by name or by organisation; facts by thread or by
//! words. Every answer names the message it comes from, to be cited.

pub(in crate::engine) mod answer;
mod current_value;
mod first_mention;
mod person_detail;

use crate::engine::{Engine, Result};
use crate::graph::facts::{mark_superseded, DatedFact};
use crate::graph::identity::Identities;
use crate::graph::organisation::{
    names_organisation, organisation_of, signature_organisation, Organisation,
};
use crate::graph::thread_people::{
    thread_people, HeaderMessage, PartRole, ThreadEmail, ThreadParticipant,
};
use crate::mail::model::{MessageKey, ThreadId};
use crate::mail::thread::normalize_subject;
use crate::query::terms::{content_words, stem};
use crate::store::StoredMessage;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// Most people a lookup lists.
const PEOPLE_LIMIT: usize = 50;
/// Threads whose facts a words lookup reads.
const FACT_THREADS: usize = 5;
/// Most words of an attribute looked up, and messages stating one that are read.
const ATTRIBUTE_WORDS: usize = 4;
const STATING_READ: usize = 20;

/// The people of an organisation on a thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrganisationPeople {
    /// The mail domain; empty for an organisation a sender's signature names (a
    /// sender at a personal address).
    pub domain: String,
    pub name: String,
    /// The participants' names.
    pub people: Vec<String>,
}

/// A thread as the graph sees it: `quoth facts THREAD --json`, and the UI's
/// people-and-facts view.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ThreadGraph {
    pub thread: String,
    pub subject: String,
    pub emails: Vec<ThreadEmail>,
    pub participants: Vec<ThreadParticipant>,
    pub organisations: Vec<OrganisationPeople>,
    /// Facts in date order; a replaced one names the later one.
    pub facts: Vec<DatedFact>,
    /// What the thread's authored text names (people, places, sums, dates, codes),
    /// the most mentioned first, each with where it is first named.
    #[serde(default)]
    pub entities: Vec<ThreadEntity>,
    /// Messages of the thread the graph has not read yet (their jobs wait).
    pub pending: usize,
}

/// A value the thread's mail names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreadEntity {
    pub kind: String,
    pub text: String,
    /// Emails that name it.
    pub mentions: usize,
    /// The first message that names it (hex key), its date and the span there.
    pub message: String,
    pub date: Option<i64>,
    pub start: u32,
    pub end: u32,
}

/// Most entities a thread lists.
const THREAD_ENTITIES: usize = 40;

/// One person the user dealt with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PersonSummary {
    pub name: String,
    pub addresses: Vec<String>,
    pub organisation: Option<String>,
    /// Messages that name them (each stored copy counts once per address).
    pub messages: usize,
    pub sent: usize,
    pub received: usize,
    pub first: Option<i64>,
    pub last: Option<i64>,
    /// The latest message that names them (hex key), to open or cite.
    pub latest_message: Option<String>,
}

/// `quoth people QUERY --json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PeopleView {
    pub query: String,
    /// The organisation the query names, when it names one.
    pub organisation: Option<Organisation>,
    pub people: Vec<PersonSummary>,
}

/// `quoth facts QUERY --json`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FactsView {
    pub query: String,
    /// The thread when the query named one.
    pub thread: Option<String>,
    pub facts: Vec<DatedFact>,
}

/// A message's headers as the graph reads them.
pub(in crate::engine) fn header_message(msg: &StoredMessage) -> HeaderMessage {
    HeaderMessage {
        key: msg.key.to_hex(),
        date: msg.date,
        from: msg.from.clone(),
        reply_to: Vec::new(),
        to: msg.to.clone(),
        cc: msg.cc.clone(),
        bcc: msg.bcc.clone(),
    }
}

impl Engine {
    /// The people of the mailbox, merged across addresses and name spellings.
    /// Merged once per store generation, as the address book is.
    pub(in crate::engine) fn identities(&self) -> Result<Arc<Identities>> {
        let count = self.store.generation();
        if let Ok(Some((at, ids))) = self.mailbox.identities.lock().map(|c| c.clone()) {
            if at == count {
                return Ok(ids);
            }
        }
        let ids = Arc::new(Identities::from_book(&self.mailbox_context()?.book));
        if let Ok(mut cache) = self.mailbox.identities.lock() {
            *cache = Some((count, ids.clone()));
        }
        Ok(ids)
    }

    /// A thread's people, organisations and facts. `None` for no such thread.
    pub fn thread_graph(&self, thread: &str) -> Result<Option<ThreadGraph>> {
        let Some(id) = ThreadId::from_hex(thread) else {
            return Ok(None);
        };
        let Some(summary) = self.store.thread(&id)? else {
            return Ok(None);
        };
        let ids = self.identities()?;
        let person = |a: &str| ids.addresses_of(a).first().cloned().unwrap_or_default();
        let mut headers = Vec::new();
        let mut facts = Vec::new();
        let mut entities: Vec<ThreadEntity> = Vec::new();
        let mut pending = 0;
        let subject = normalize_subject(&summary.subject);
        for key in &summary.messages {
            let Some(msg) = self.store.message(key)? else {
                continue;
            };
            let mut header = header_message(&msg);
            let graph = self.store.message_graph(key)?;
            let reply_bit = 1u8 << PartRole::ReplyTo.code();
            if let Some(g) = &graph {
                header.reply_to = g
                    .people
                    .iter()
                    .filter(|p| p.roles & reply_bit != 0)
                    .map(|p| crate::mail::model::Mailbox {
                        name: p.name.clone(),
                        address: p.address.clone(),
                    })
                    .collect();
            }
            headers.push(header);
            match graph {
                Some(g) => {
                    count_entities(&mut entities, &msg, &g.entities);
                    facts.extend(dated_facts(&ids, &msg, thread, &subject, g.facts));
                }
                None => pending += 1,
            }
        }
        let people = thread_people(&headers, &person);
        let signed = signature_organisations(self, &summary.messages)?;
        // Copies state the same facts: keep one of each.
        let mut seen = HashSet::new();
        facts.retain(|f: &DatedFact| {
            seen.insert((f.fact.key.clone(), f.fact.value.clone(), f.date))
        });
        facts.sort_by(|a, b| {
            a.date
                .cmp(&b.date)
                .then_with(|| a.fact.start.cmp(&b.fact.start))
        });
        mark_superseded(&mut facts);
        Ok(Some(ThreadGraph {
            thread: thread.to_string(),
            subject: summary.subject.clone(),
            organisations: organisations(&people.participants, &signed),
            emails: people.emails,
            participants: people.participants,
            facts,
            entities: top_entities(entities),
            pending,
        }))
    }

    /// The organisation a phrase names, among those the graph has seen.
    pub(in crate::engine) fn organisation_named(
        &self,
        phrase: &str,
    ) -> Result<Option<Organisation>> {
        for domain in self.store.graph_domains()? {
            if let Some(org) = organisation_of(&domain) {
                if names_organisation(phrase, &org) {
                    return Ok(Some(org));
                }
            }
        }
        Ok(None)
    }

    /// The people a query names: everyone at the organisation it names, or the
    /// people whose name or address starts with it.
    pub fn people(&self, query: &str) -> Result<PeopleView> {
        let ids = self.identities()?;
        let organisation = self.organisation_named(query)?;
        let mut groups: Vec<Vec<String>> = Vec::new();
        let mut add = |addresses: Vec<String>| {
            if !groups
                .iter()
                .any(|g| g.iter().any(|a| addresses.contains(a)))
            {
                groups.push(addresses);
            }
        };
        match &organisation {
            Some(org) => {
                for address in self.store.addresses_at(&org.domain)? {
                    add(ids.addresses_of(&address));
                }
            }
            None => {
                let book = self.mailbox_context()?.book;
                for p in book.complete(query, PEOPLE_LIMIT) {
                    for a in &p.addresses {
                        add(ids.addresses_of(a));
                    }
                }
            }
        }
        let mut people = Vec::new();
        for addresses in groups {
            if let Some(p) = self.person_summary(&ids, addresses)? {
                people.push(p);
            }
        }
        people.sort_by(|a, b| {
            b.messages
                .cmp(&a.messages)
                .then_with(|| a.name.cmp(&b.name))
        });
        people.truncate(PEOPLE_LIMIT);
        Ok(PeopleView {
            query: query.to_string(),
            organisation,
            people,
        })
    }

    fn person_summary(
        &self,
        ids: &Identities,
        addresses: Vec<String>,
    ) -> Result<Option<PersonSummary>> {
        let mut seen: HashSet<MessageKey> = HashSet::new();
        let (mut sent, mut received) = (0, 0);
        let (mut first, mut last): (Option<i64>, Option<i64>) = (None, None);
        let mut latest: Option<(Option<i64>, MessageKey)> = None;
        for a in &addresses {
            for p in self.store.mail_with_address(a)? {
                if !seen.insert(p.key) {
                    continue;
                }
                if p.roles & 1 != 0 {
                    sent += 1;
                } else {
                    received += 1;
                }
                if let Some(d) = p.date {
                    first = Some(first.map_or(d, |f| f.min(d)));
                    last = Some(last.map_or(d, |l| l.max(d)));
                }
                if latest.as_ref().is_none_or(|(d, _)| p.date > *d) {
                    latest = Some((p.date, p.key));
                }
            }
        }
        if seen.is_empty() {
            return Ok(None);
        }
        let name = addresses
            .first()
            .and_then(|a| ids.of_address(a))
            .map(|p| p.name.clone())
            .unwrap_or_else(|| addresses.first().cloned().unwrap_or_default());
        Ok(Some(PersonSummary {
            name,
            organisation: addresses
                .iter()
                .find_map(|a| organisation_of(a))
                .map(|o| o.name),
            messages: seen.len(),
            sent,
            received,
            first,
            last,
            latest_message: latest.map(|(_, k)| k.to_hex()),
            addresses,
        }))
    }

    /// Facts of a thread (a hex id), or of the facts whose attribute the words name
    /// and of the threads a search for them finds first.
    pub fn facts(&self, query: &str) -> Result<FactsView> {
        if let Some(graph) = self.thread_graph(query.trim())? {
            return Ok(FactsView {
                query: query.to_string(),
                thread: Some(graph.thread),
                facts: graph.facts,
            });
        }
        // Attribute keys are stems in the order written: look up the query's runs of
        // one to four stems, each a key the graph may hold.
        let stems: Vec<String> = content_words(query).iter().map(|w| stem(w)).collect();
        let mut threads: Vec<String> = Vec::new();
        let mut by_attribute: Vec<String> = Vec::new();
        for len in (1..=ATTRIBUTE_WORDS.min(stems.len())).rev() {
            for run in stems.windows(len) {
                let key = run.join(" ");
                if by_attribute.contains(&key) {
                    continue;
                }
                let stating = self.store.messages_stating(&key)?;
                if stating.is_empty() {
                    continue;
                }
                for m in stating.iter().take(STATING_READ) {
                    let thread = self
                        .store
                        .thread_of(m)?
                        .unwrap_or_else(|| ThreadId::of_root(m))
                        .to_hex();
                    if !threads.contains(&thread) && threads.len() < 2 * FACT_THREADS {
                        threads.push(thread);
                    }
                }
                by_attribute.push(key);
            }
        }
        let now = self.mailbox_context()?.newest;
        for hit in self
            .search(query, FACT_THREADS * 4, now)
            .unwrap_or_default()
        {
            if threads.len() >= 3 * FACT_THREADS {
                break;
            }
            if !threads.contains(&hit.thread_id) {
                threads.push(hit.thread_id);
            }
        }
        let mut facts = Vec::new();
        for t in &threads {
            if let Some(g) = self.thread_graph(t)? {
                facts.extend(g.facts);
            }
        }
        // Facts of a named attribute first, then by date.
        let named = |f: &DatedFact| by_attribute.contains(&f.fact.key);
        facts.sort_by(|a, b| named(b).cmp(&named(a)).then_with(|| a.date.cmp(&b.date)));
        mark_superseded(&mut facts);
        Ok(FactsView {
            query: query.to_string(),
            thread: None,
            facts,
        })
    }
}

/// A message's facts as listed.
fn dated_facts(
    ids: &Identities,
    msg: &StoredMessage,
    thread: &str,
    subject: &str,
    facts: Vec<crate::graph::facts::Fact>,
) -> Vec<DatedFact> {
    facts
        .into_iter()
        .map(|f| DatedFact {
            quote: msg
                .body
                .get(f.start as usize..f.end as usize)
                .unwrap_or("")
                .to_string(),
            fact: f,
            subject: subject.to_string(),
            thread: thread.to_string(),
            message: msg.key.to_hex(),
            message_id: msg.message_id.clone(),
            author: msg
                .from
                .first()
                .and_then(|f| ids.of_address(&f.address))
                .map(|p| p.name.clone())
                .unwrap_or_else(|| msg.sender()),
            date: msg.date,
            superseded_by: None,
        })
        .collect()
}

/// Counts a message's entities into the thread's, keeping each one's first naming
/// (copies of one email, same sender and second, count once).
fn count_entities(
    into: &mut Vec<ThreadEntity>,
    msg: &StoredMessage,
    found: &[crate::graph::facts::Entity],
) {
    for e in found {
        let same = |t: &&mut ThreadEntity| t.kind == e.kind && t.text.eq_ignore_ascii_case(&e.text);
        match into.iter_mut().find(same) {
            Some(t) => {
                if msg.date != t.date || t.message == msg.key.to_hex() {
                    t.mentions += 1;
                }
                if msg.date < t.date {
                    t.message = msg.key.to_hex();
                    t.date = msg.date;
                    t.start = e.start;
                    t.end = e.end;
                }
            }
            None => into.push(ThreadEntity {
                kind: e.kind.clone(),
                text: e.text.clone(),
                mentions: 1,
                message: msg.key.to_hex(),
                date: msg.date,
                start: e.start,
                end: e.end,
            }),
        }
    }
}

fn top_entities(mut all: Vec<ThreadEntity>) -> Vec<ThreadEntity> {
    all.sort_by(|a, b| {
        b.mentions
            .cmp(&a.mentions)
            .then_with(|| a.date.cmp(&b.date))
    });
    all.truncate(THREAD_ENTITIES);
    all
}

/// The organisations senders' signatures name, by sender address, for senders
/// whose address names none.
fn signature_organisations(
    engine: &Engine,
    keys: &[MessageKey],
) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for key in keys {
        let Some(msg) = engine.store.message(key)? else {
            continue;
        };
        let Some(sender) = msg.from.first() else {
            continue;
        };
        if organisation_of(&sender.address).is_some() || out.contains_key(&sender.address) {
            continue;
        }
        let signature: String = msg
            .segments
            .iter()
            .filter(|s| s.kind == crate::mail::clean::SegmentKind::Signature)
            .map(|s| msg.segment_text(s))
            .collect::<Vec<_>>()
            .join("\n");
        if let Some(org) = signature_organisation(&signature) {
            out.insert(sender.address.clone(), org);
        }
    }
    Ok(out)
}

fn organisations(
    participants: &[ThreadParticipant],
    signed: &BTreeMap<String, String>,
) -> Vec<OrganisationPeople> {
    let mut by_domain: BTreeMap<String, OrganisationPeople> = BTreeMap::new();
    for p in participants {
        for org in p.addresses.iter().filter_map(|a| signed.get(a)) {
            let entry = by_domain
                .entry(format!("signature:{org}"))
                .or_insert(OrganisationPeople {
                    domain: String::new(),
                    name: org.clone(),
                    people: Vec::new(),
                });
            if !entry.people.contains(&p.name) {
                entry.people.push(p.name.clone());
            }
        }
        for a in &p.addresses {
            if let Some(org) = organisation_of(a) {
                let entry = by_domain
                    .entry(org.domain.clone())
                    .or_insert(OrganisationPeople {
                        domain: org.domain,
                        name: org.name,
                        people: Vec::new(),
                    });
                if !entry.people.contains(&p.name) {
                    entry.people.push(p.name.clone());
                }
            }
        }
    }
    by_domain.into_values().collect()
}
