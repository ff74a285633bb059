//! One email, one entry: copies of a message in several folders are shown once, as
//! the copy the user asked for (or the oldest one stored), with the other copies'
//! folders listed. See [`crate::mail::copies`] for what makes two messages copies.

use crate::mail::copies::{Copies, Placement};
use crate::mail::model::{MessageKey, ThreadId};
use crate::store::{Store, StoreError, StoredMessage};
use std::collections::HashMap;

/// The folders of each shown message's other copies, by the shown message's key.
pub type AlsoIn = HashMap<MessageKey, Vec<String>>;

/// Keeps one copy of each email of `messages` (given in the order to show them):
/// `prefer` where it is among the copies, else the first. Returns the kept
/// messages in their order and the folders of the copies each stands for.
pub fn one_per_email(
    messages: Vec<StoredMessage>,
    prefer: Option<&MessageKey>,
) -> (Vec<StoredMessage>, AlsoIn) {
    let mut copies = Copies::new();
    // Placing the preferred copy first makes it its email's first copy.
    let preferred = prefer.and_then(|k| messages.iter().position(|m| m.key == *k));
    let mut order: Vec<usize> = preferred.into_iter().collect();
    order.extend((0..messages.len()).filter(|&i| Some(i) != preferred));
    let mut email_of = vec![0usize; messages.len()];
    let mut first_of: Vec<usize> = Vec::new();
    for &i in &order {
        let m = &messages[i];
        email_of[i] = match copies.place(m.message_id.as_deref(), m.content_id()) {
            Placement::First(n) => {
                first_of.push(i);
                n
            }
            Placement::CopyOf(n) => n,
        };
    }
    let mut folders: Vec<Vec<String>> = vec![Vec::new(); first_of.len()];
    for (i, m) in messages.iter().enumerate() {
        let n = email_of[i];
        let shown = &messages[first_of[n]];
        if i != first_of[n] && m.folder != shown.folder && !folders[n].contains(&m.folder) {
            folders[n].push(m.folder.clone());
        }
    }
    let keep: Vec<bool> = (0..messages.len())
        .map(|i| first_of[email_of[i]] == i)
        .collect();
    let mut also_in = AlsoIn::new();
    let mut kept = Vec::with_capacity(first_of.len());
    for (i, m) in messages.into_iter().enumerate() {
        if keep[i] {
            let f = std::mem::take(&mut folders[email_of[i]]);
            if !f.is_empty() {
                also_in.insert(m.key, f);
            }
            kept.push(m);
        }
    }
    (kept, also_in)
}

/// One email among ranked results: the copy shown and the other copies' folders.
pub struct RankedEmail<T> {
    /// The copy shown: of the copies ranked, the one with the smallest key, so a
    /// rebuilt index (which breaks ties its own way) lists the same one.
    pub shown: T,
    pub message: StoredMessage,
    /// The folders of the email's other copies.
    pub also_in: Vec<String>,
    /// The Message-IDs of its other copies.
    pub copy_ids: Vec<String>,
    /// The files of its other copies.
    pub copy_files: Vec<String>,
}

/// The first `limit` emails of `ranked` (best first), reading at most `window`
/// items to find their copies: copies of one text rank side by side. `ready` tells
/// the items that carry all a caller needs (a located passage); a copy shown is one
/// of those when any is.
pub fn ranked_emails<T>(
    store: &Store,
    ranked: impl IntoIterator<Item = T>,
    key_of: impl Fn(&T) -> MessageKey,
    ready: impl Fn(&T) -> bool,
    limit: usize,
    window: usize,
) -> Result<Vec<RankedEmail<T>>, StoreError> {
    let mut copies = Copies::new();
    let mut emails: Vec<Vec<(T, StoredMessage)>> = Vec::new();
    for item in ranked.into_iter().take(window) {
        let Some(msg) = store.message(&key_of(&item))? else {
            continue;
        };
        match copies.place(msg.message_id.as_deref(), msg.content_id()) {
            Placement::CopyOf(n) => {
                if let Some(e) = emails.get_mut(n) {
                    e.push((item, msg));
                }
            }
            Placement::First(n) if n < limit => emails.push(vec![(item, msg)]),
            Placement::First(_) => {}
        }
    }
    Ok(emails
        .into_iter()
        .filter_map(|mut members| {
            // The same text everywhere: any copy can be shown, so the smallest key
            // is; copies that share only a Message-ID show the best-ranked one.
            let (first, first_msg) = members.first()?;
            let (content, first_ready) = (first_msg.content_id(), ready(first));
            let pick = members
                .iter()
                .enumerate()
                .filter(|(_, (item, m))| m.content_id() == content && (ready(item) || !first_ready))
                .min_by_key(|(_, (_, m))| m.key)
                .map_or(0, |(i, _)| i);
            let (shown, message) = members.swap_remove(pick);
            let mut also_in: Vec<String> = Vec::new();
            let mut copy_ids: Vec<String> = Vec::new();
            let mut copy_files: Vec<String> = Vec::new();
            for (_, m) in members {
                copy_files.extend(crate::engine::retrieval::search::file_of(&m.location));
                if m.folder != message.folder && !also_in.contains(&m.folder) {
                    also_in.push(m.folder);
                }
                copy_ids.extend(
                    m.message_id
                        .filter(|id| Some(id) != message.message_id.as_ref()),
                );
            }
            Some(RankedEmail {
                shown,
                message,
                also_in,
                copy_ids,
                copy_files,
            })
        })
        .collect())
}

/// The copies of `msg`'s email in its thread (where copies are joined), `msg` first.
pub fn copies_in_thread(
    store: &Store,
    msg: StoredMessage,
    thread: Option<&ThreadId>,
) -> Result<Vec<StoredMessage>, StoreError> {
    let mut copies = Copies::new();
    copies.place(msg.message_id.as_deref(), msg.content_id());
    let members = match thread {
        Some(id) => store.thread(id)?.map(|t| t.messages).unwrap_or_default(),
        None => Vec::new(),
    };
    let first = msg.key;
    let mut out = vec![msg];
    for key in members.iter().filter(|k| **k != first) {
        if let Some(m) = store.message(key)? {
            if copies.place(m.message_id.as_deref(), m.content_id()) == Placement::CopyOf(0) {
                out.push(m);
            }
        }
    }
    Ok(out)
}
