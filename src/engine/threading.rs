//! Recomputes threads over the whole store after new mail arrives, and rebuilds the
//! thread list. Threading reads only the compact per-message facts, so it stays fast
//! on a large mailbox.

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

pub fn rethread(store: &Store) -> Result<ThreadingOutcome, StoreError> {
    let mut facts = store.all_thread_facts()?;
    // Date order makes the representative choice and the subject fallback deterministic.
    facts.sort_by(|a, b| a.1.date.cmp(&b.1.date).then(a.0.cmp(&b.0)));
    let inputs: Vec<ThreadInput> = facts
        .iter()
        .map(|(_, f)| ThreadInput {
            message_id: f.message_id.as_deref(),
            in_reply_to: &f.in_reply_to,
            references: &f.references,
            subject: &f.subject,
            participants: &f.participants,
            date: f.date,
        })
        .collect();
    let reps = thread_messages(&inputs);
    let assignment: Vec<(MessageKey, ThreadId)> = facts
        .iter()
        .zip(&reps)
        .map(|((key, _), &rep)| (*key, ThreadId::of_root(&facts[rep].0)))
        .collect();
    let changed = store.assign_threads(&assignment)?;
    let summaries = summarise(&facts, &assignment);
    store.replace_threads(&summaries)?;
    Ok(ThreadingOutcome {
        threads: summaries.len(),
        changed,
    })
}

fn summarise(
    facts: &[(MessageKey, ThreadFacts)],
    assignment: &[(MessageKey, ThreadId)],
) -> Vec<ThreadSummary> {
    let mut by_thread: HashMap<ThreadId, ThreadSummary> = HashMap::new();
    // `facts` is in date order, so members and senders come out oldest first.
    for ((key, f), (_, thread)) in facts.iter().zip(assignment) {
        let t = by_thread.entry(*thread).or_insert_with(|| ThreadSummary {
            id: *thread,
            subject: f.subject.clone(),
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
            t.subject = f.subject.clone();
        }
        if !f.sender.is_empty() && !t.senders.contains(&f.sender) {
            t.senders.push(f.sender.clone());
        }
        t.unread += u32::from(f.unread);
        t.has_attachment |= f.has_attachment;
    }
    let mut out: Vec<ThreadSummary> = by_thread.into_values().collect();
    out.sort_by(|a, b| b.latest_date.cmp(&a.latest_date).then(a.id.cmp(&b.id)));
    out
}
