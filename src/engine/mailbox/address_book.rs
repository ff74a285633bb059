//! The mailbox's address book and its "now" (the newest message's date), derived from
//! the stored headers and kept in sled, stamped with the message count it was built
//! from, so a question does not pay for reading every header each time.

use crate::engine::{Engine, Result};
use crate::query::people::AddressBook;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::sync::Arc;

const TREE: &str = "derived";
const KEY: &[u8] = b"address_book";

#[derive(Serialize, Deserialize)]
struct Saved {
    message_count: u64,
    newest: i64,
    book: AddressBook,
}

/// What questions are read against.
#[derive(Debug, Clone)]
pub struct MailboxContext {
    pub book: Arc<AddressBook>,
    /// Unix seconds of the newest message: "last week" is measured from here.
    pub newest: i64,
    /// Lowercased first and last names of the people in the headers: a capitalised
    /// word that is one of them names a person.
    pub known_people: Arc<HashSet<String>>,
}

fn name_parts(book: &AddressBook) -> HashSet<String> {
    book.people
        .iter()
        .flat_map(|p| {
            p.name
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| w.len() > 1)
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
        })
        .filter(|w| !crate::lexicon::is_stop_word(w))
        .collect()
}

/// One address of the book, for completion (`quoth address`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressEntry {
    pub name: String,
    pub address: String,
    /// Messages the address is on.
    pub messages: u32,
}

impl AddressEntry {
    /// "Name <address>", as a header writes it.
    pub fn mailbox(&self) -> String {
        if self.name.is_empty() {
            self.address.clone()
        } else if self.name.chars().any(|c| "()<>[]:;@\\,.\"".contains(c)) {
            format!("\"{}\" <{}>", self.name.replace('"', "'"), self.address)
        } else {
            format!("{} <{}>", self.name, self.address)
        }
    }
}

impl Engine {
    /// The addresses whose name or address starts with `prefix`, those on the most
    /// mail first.
    pub fn addresses(&self, prefix: &str, limit: usize) -> Result<Vec<AddressEntry>> {
        let ctx = self.mailbox_context()?;
        Ok(ctx
            .book
            .complete(prefix, limit)
            .into_iter()
            .flat_map(|p| {
                p.addresses.iter().map(|a| {
                    // A name the book made from the address is no name.
                    let made = a.split('@').next().unwrap_or("").replace('.', " ");
                    AddressEntry {
                        name: if p.name == made {
                            String::new()
                        } else {
                            p.name.clone()
                        },
                        address: a.clone(),
                        messages: p.messages,
                    }
                })
            })
            .take(limit)
            .collect())
    }

    /// The address book and newest date, rebuilt when the mailbox changed.
    pub fn mailbox_context(&self) -> Result<MailboxContext> {
        // Cached by the store's generation in memory; the saved copy by the count.
        let generation = self.store.generation();
        if let Ok(Some(ctx)) = self.mailbox.context.lock().map(|c| c.clone()) {
            if ctx.0 == generation {
                return Ok(ctx.1);
            }
        }
        let count = self.store.message_count()? as u64;
        let tree = self
            .store
            .db()
            .open_tree(TREE)
            .map_err(crate::store::StoreError::from)?;
        let saved: Option<Saved> = tree
            .get(KEY)
            .map_err(crate::store::StoreError::from)?
            .and_then(|b| bincode::deserialize(&b).ok())
            .filter(|s: &Saved| s.message_count == count);
        let saved = match saved {
            Some(s) => s,
            None => {
                let mut pairs: Vec<(String, String)> = Vec::new();
                let mut newest = 0i64;
                for m in self.store.messages() {
                    let m = m?;
                    if let Some(d) = m.date {
                        newest = newest.max(d);
                    }
                    for mb in m.from.iter().chain(&m.to).chain(&m.cc) {
                        pairs.push((mb.name.clone().unwrap_or_default(), mb.address.clone()));
                    }
                }
                let book = AddressBook::build(pairs.iter().map(|(n, a)| (n.as_str(), a.as_str())));
                let saved = Saved {
                    message_count: count,
                    newest,
                    book,
                };
                if let Ok(bytes) = bincode::serialize(&saved) {
                    tree.insert(KEY, bytes)
                        .map_err(crate::store::StoreError::from)?;
                }
                saved
            }
        };
        let book = saved.book.restore();
        let ctx = MailboxContext {
            known_people: Arc::new(name_parts(&book)),
            book: Arc::new(book),
            newest: saved.newest,
        };
        if let Ok(mut c) = self.mailbox.context.lock() {
            *c = Some((generation, ctx.clone()));
        }
        Ok(ctx)
    }
}
