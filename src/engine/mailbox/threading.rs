//! Recomputes threads over the whole store after new mail arrives, and rebuilds the
//! thread list. Threading reads only the compact per-message facts, held in a smaller
//! form still (addresses interned as numbers), so it stays light on a large mailbox.

use crate::mail::copies::{ContentId, Copies, Placement};
use crate::mail::model::{MessageKey, ThreadId};
use crate::mail::thread::{thread_messages, ThreadInput};
use crate::store::{FolderCount, Store, StoreError, ThreadFacts, ThreadSummary};
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
    content: Option<ContentId>,
    flagged: bool,
    folder: Box<str>,
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
            content: f.content,
            flagged: f.flagged,
            folder: f.folder.into_boxed_str(),
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
    let mut reps = thread_messages(&inputs);
    drop(inputs);
    join_copies(&facts, &mut reps);
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

/// Puts the copies of an email in one thread: threads that hold copies of one email
/// are joined under the oldest root among them. A copy exported under a new
/// Message-ID has nothing that links it to the others.
fn join_copies(facts: &[Facts], reps: &mut [usize]) {
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut parent: Vec<usize> = (0..facts.len()).collect();
    let mut copies = Copies::new();
    let mut first_rep: Vec<usize> = Vec::new();
    for (i, f) in facts.iter().enumerate() {
        match copies.place(f.message_id.as_deref(), f.content) {
            Placement::First(_) => first_rep.push(reps[i]),
            Placement::CopyOf(n) => {
                let (a, b) = (root(&mut parent, first_rep[n]), root(&mut parent, reps[i]));
                // Facts are in date order: the older root leads.
                let (keep, join) = if a <= b { (a, b) } else { (b, a) };
                parent[join] = keep;
            }
        }
    }
    for r in reps.iter_mut() {
        *r = root(&mut parent, *r);
    }
}

/// How many of the emails are in each folder, and unread there, by folder name.
fn folder_counts(folders: &[Vec<Box<str>>], unread: &[bool]) -> Vec<FolderCount> {
    let mut out: Vec<FolderCount> = Vec::new();
    for (names, &unread) in folders.iter().zip(unread) {
        for name in names.iter().filter(|n| !n.is_empty()) {
            let at = match out.iter().position(|c| *c.name == **name) {
                Some(i) => i,
                None => {
                    out.push(FolderCount {
                        name: name.to_string(),
                        ..FolderCount::default()
                    });
                    out.len() - 1
                }
            };
            out[at].emails += 1;
            out[at].unread += u32::from(unread);
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Summarises one thread again from its members' facts (a flag of one changed),
/// and stores the summary. Returns it, or `None` when there is no such thread.
pub fn resummarise(store: &Store, id: &ThreadId) -> Result<Option<ThreadSummary>, StoreError> {
    let Some(old) = store.thread(id)? else {
        return Ok(None);
    };
    let mut addresses = HashMap::new();
    let mut facts = Vec::with_capacity(old.messages.len());
    for key in &old.messages {
        if let Some(f) = store.facts_of(key)? {
            facts.push(Facts::new(*key, f, &mut addresses));
        }
    }
    facts.sort_by(|a, b| a.date.cmp(&b.date).then(a.key.cmp(&b.key)));
    let assignment: Vec<(MessageKey, ThreadId)> = facts.iter().map(|f| (f.key, *id)).collect();
    let Some(mut summary) = summarise(&facts, &assignment).pop() else {
        return Ok(None);
    };
    // Threading chose the subject from the root; keep it.
    summary.subject = old.subject;
    store.put_thread(&summary)?;
    Ok(Some(summary))
}

fn summarise(facts: &[Facts], assignment: &[(MessageKey, ThreadId)]) -> Vec<ThreadSummary> {
    struct Building {
        summary: ThreadSummary,
        copies: Copies,
        /// Per distinct email: whether every copy of it is unread so far.
        unread: Vec<bool>,
        /// Per distinct email: whether a copy of it is flagged.
        flagged: Vec<bool>,
        /// Per distinct email: the folders its copies are in.
        folders: Vec<Vec<Box<str>>>,
    }
    let mut by_thread: HashMap<ThreadId, Building> = HashMap::new();
    // `facts` is in date order, so members and senders come out oldest first.
    for (f, (key, thread)) in facts.iter().zip(assignment) {
        let b = by_thread.entry(*thread).or_insert_with(|| Building {
            summary: ThreadSummary {
                id: *thread,
                subject: f.subject.to_string(),
                first_date: f.date,
                latest_date: f.date,
                messages: Vec::new(),
                senders: Vec::new(),
                unread: 0,
                has_attachment: false,
                emails: 0,
                flagged: 0,
                folders: Vec::new(),
            },
            copies: Copies::new(),
            unread: Vec::new(),
            flagged: Vec::new(),
            folders: Vec::new(),
        });
        let t = &mut b.summary;
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
        t.has_attachment |= f.has_attachment;
        match b.copies.place(f.message_id.as_deref(), f.content) {
            Placement::First(_) => {
                b.unread.push(f.unread);
                b.flagged.push(f.flagged);
                b.folders.push(vec![f.folder.clone()]);
            }
            Placement::CopyOf(n) => {
                b.unread[n] &= f.unread;
                b.flagged[n] |= f.flagged;
                if !b.folders[n].contains(&f.folder) {
                    b.folders[n].push(f.folder.clone());
                }
            }
        }
    }
    let mut out: Vec<ThreadSummary> = by_thread
        .into_values()
        .map(|mut b| {
            b.summary.emails = b.copies.emails() as u32;
            b.summary.unread = b.unread.iter().filter(|&&u| u).count() as u32;
            b.summary.flagged = b.flagged.iter().filter(|&&f| f).count() as u32;
            b.summary.folders = folder_counts(&b.folders, &b.unread);
            b.summary
        })
        .collect();
    out.sort_by(|a, b| b.latest_date.cmp(&a.latest_date).then(a.id.cmp(&b.id)));
    out
}
