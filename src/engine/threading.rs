//! Recomputes threads over the whole store after new mail arrives, and rebuilds the
//! thread list. Threading reads only the compact per-message facts, held in a smaller
//! form still (addresses interned as numbers), so it stays light on a large mailbox.

use crate::mail::model::{MessageKey, ThreadId};
use crate::mail::thread::{thread_messages, ThreadInput};
use crate::store::{Store, StoreError, ThreadFacts, ThreadSummary};
use std::collections::HashMap;

pub struct ThreadingOutcome {
    pub threads: usize,
    /// Messages whose thread differs from what was stored (new messages included),
    /// with their thread now.
    pub changed: Vec<(MessageKey, ThreadId)>,
}

/// One message's facts as threading holds them.
struct Facts {
    key: MessageKey,
    message_id: Option<Box<str>>,
    in_reply_to: Vec<String>,
    references: Vec<String>,
    subject: Box<str>,
    participants: Box<[u32]>,
    date: Option<i64>,
    sender: Box<str>,
    unread: bool,
    has_attachment: bool,
}

impl Facts {
    fn new(key: MessageKey, f: ThreadFacts, addresses: &mut HashMap<Box<str>, u32>) -> Self {
        let mut participants: Vec<u32> = f
            .participants
            .iter()
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
            .map(|p| match addresses.get(p) {
                Some(&id) => id,
                None => {
                    let id = addresses.len() as u32;
                    addresses.insert(p.into(), id);
                    id
                }
            })
            .collect();
        participants.sort_unstable();
        participants.dedup();
        Self {
            key,
            message_id: f.message_id.map(String::into_boxed_str),
            in_reply_to: f.in_reply_to,
            references: f.references,
            subject: f.subject.into_boxed_str(),
            participants: participants.into_boxed_slice(),
            date: f.date,
            sender: f.sender.into_boxed_str(),
            unread: f.unread,
            has_attachment: f.has_attachment,
        }
    }
}

pub fn rethread(store: &Store) -> Result<ThreadingOutcome, StoreError> {
    let mut addresses = HashMap::new();
    let mut facts = store
        .thread_facts()
        .map(|item| item.map(|(key, f)| Facts::new(key, f, &mut addresses)))
        .collect::<Result<Vec<_>, _>>()?;
    drop(addresses);
    // Date order makes the representative choice and the subject fallback deterministic.
    facts.sort_by(|a, b| a.date.cmp(&b.date).then(a.key.cmp(&b.key)));
    let inputs: Vec<ThreadInput> = facts
        .iter()
        .map(|f| ThreadInput {
            message_id: f.message_id.as_deref(),
            in_reply_to: &f.in_reply_to,
            references: &f.references,
            subject: &f.subject,
            participants: &f.participants,
            date: f.date,
        })
        .collect();
    let reps = thread_messages(&inputs);
    drop(inputs);
    let assignment: Vec<(MessageKey, ThreadId)> = facts
        .iter()
        .zip(&reps)
        .map(|(f, &rep)| (f.key, ThreadId::of_root(&facts[rep].key)))
        .collect();
    drop(reps);
    let changed = store.assign_threads(&assignment)?;
    let summaries = summarise(&facts, &assignment);
    drop(facts);
    drop(assignment);
    store.replace_threads(&summaries)?;
    Ok(ThreadingOutcome {
        threads: summaries.len(),
        changed,
    })
}

fn summarise(facts: &[Facts], assignment: &[(MessageKey, ThreadId)]) -> Vec<ThreadSummary> {
    let mut by_thread: HashMap<ThreadId, ThreadSummary> = HashMap::new();
    // `facts` is in date order, so members and senders come out oldest first.
    for (f, (key, thread)) in facts.iter().zip(assignment) {
        let t = by_thread.entry(*thread).or_insert_with(|| ThreadSummary {
            id: *thread,
            subject: f.subject.to_string(),
            first_date: f.date,
            latest_date: f.date,
            messages: Vec::new(),
            senders: Vec::new(),
            unread: 0,
            has_attachment: false,
        });
        t.messages.push(*key);
        if f.date > t.latest_date {
            t.latest_date = f.date;
        }
        if t.first_date.is_none() {
            t.first_date = f.date;
        }
        if t.subject.is_empty() {
            t.subject = f.subject.to_string();
        }
        if !f.sender.is_empty() && !t.senders.iter().any(|s| **s == *f.sender) {
            t.senders.push(f.sender.to_string());
        }
        t.unread += u32::from(f.unread);
        t.has_attachment |= f.has_attachment;
    }
    let mut out: Vec<ThreadSummary> = by_thread.into_values().collect();
    out.sort_by(|a, b| b.latest_date.cmp(&a.latest_date).then(a.id.cmp(&b.id)));
    out
}
