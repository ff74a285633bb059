//! One email, one entry: copies of a message in several folders are shown once, as
//! the copy the user asked for (or the oldest one stored), with the other copies'
//! folders listed. See [`crate::mail::copies`] for what makes two messages copies.

use crate::mail::copies::{Copies, Placement};
use crate::mail::model::MessageKey;
use crate::store::StoredMessage;
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
