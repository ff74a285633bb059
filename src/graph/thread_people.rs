//! Who is on a thread, from its headers exactly: each participant with their roles,
//! the email where they first appear (looped in, and by whom), and the email after
//! which no later one names them (dropped off). Copies of one email in several
//! folders count once.

use crate::mail::model::Mailbox;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// How a participant is on an email.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartRole {
    From,
    ReplyTo,
    To,
    Cc,
    Bcc,
}

impl PartRole {
    /// The header that gives the role.
    pub fn header(self) -> &'static str {
        match self {
            PartRole::From => "From",
            PartRole::ReplyTo => "Reply-To",
            PartRole::To => "To",
            PartRole::Cc => "Cc",
            PartRole::Bcc => "Bcc",
        }
    }

    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<Self> {
        [Self::From, Self::ReplyTo, Self::To, Self::Cc, Self::Bcc]
            .get(code as usize)
            .copied()
    }
}

/// One stored message's headers, as the graph reads them.
#[derive(Debug, Clone, Default)]
pub struct HeaderMessage {
    /// The stored message's key (hex).
    pub key: String,
    pub date: Option<i64>,
    pub from: Vec<Mailbox>,
    pub reply_to: Vec<Mailbox>,
    pub to: Vec<Mailbox>,
    pub cc: Vec<Mailbox>,
    pub bcc: Vec<Mailbox>,
}

impl HeaderMessage {
    /// Every (role, mailbox) of the headers, in header order.
    pub fn roles(&self) -> impl Iterator<Item = (PartRole, &Mailbox)> {
        [
            (PartRole::From, &self.from),
            (PartRole::ReplyTo, &self.reply_to),
            (PartRole::To, &self.to),
            (PartRole::Cc, &self.cc),
            (PartRole::Bcc, &self.bcc),
        ]
        .into_iter()
        .flat_map(|(role, list)| list.iter().map(move |m| (role, m)))
    }

    fn sender_address(&self) -> &str {
        self.from.first().map_or("", |m| m.address.as_str())
    }
}

/// One email of the thread (its copies together), in date order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreadEmail {
    /// The stored messages that are this email (hex keys), the first one cited.
    pub keys: Vec<String>,
    pub date: Option<i64>,
    pub from: String,
}

/// A participant of the thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreadParticipant {
    pub name: String,
    /// The address the headers give (the first seen, for a person with several).
    pub address: String,
    pub addresses: Vec<String>,
    /// Every role they have on any email, in `PartRole` order.
    pub roles: Vec<PartRole>,
    /// How many of the thread's emails name them.
    pub emails: usize,
    /// The email (index into the thread's emails) where they first appear.
    pub first: usize,
    pub joined_as: PartRole,
    /// Who looped them in: the sender of `first`, when they joined as a recipient
    /// after the thread's first email.
    pub added_by: Option<String>,
    /// The last email that names them.
    pub last: usize,
    /// The first email after `last`, when later emails leave them off.
    pub dropped_at: Option<usize>,
    /// Every (email, role) that names them, in order.
    pub appearances: Vec<(usize, PartRole)>,
}

impl ThreadParticipant {
    /// Their role on email `i`, the first in header order; `None` when not on it.
    pub fn role_on(&self, i: usize) -> Option<PartRole> {
        self.appearances
            .iter()
            .find(|(e, _)| *e == i)
            .map(|(_, r)| *r)
    }
}

/// The thread's emails and participants.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ThreadPeople {
    pub emails: Vec<ThreadEmail>,
    pub participants: Vec<ThreadParticipant>,
}

/// Reads a thread's messages. `person` gives the key of the person an address is
/// (every address of one person the same key); a header entry without an address is
/// keyed by its name.
pub fn thread_people(messages: &[HeaderMessage], person: &dyn Fn(&str) -> String) -> ThreadPeople {
    let mut ordered: Vec<&HeaderMessage> = messages.iter().collect();
    ordered.sort_by(|a, b| a.date.cmp(&b.date).then_with(|| a.key.cmp(&b.key)));
    // Copies: the same sender at the same second.
    let mut emails: Vec<(ThreadEmail, &HeaderMessage)> = Vec::new();
    for m in ordered {
        let same = emails.iter_mut().find(|(e, first)| {
            e.date.is_some() && e.date == m.date && first.sender_address() == m.sender_address()
        });
        match same {
            Some((e, _)) => e.keys.push(m.key.clone()),
            None => emails.push((
                ThreadEmail {
                    keys: vec![m.key.clone()],
                    date: m.date,
                    from: m
                        .from
                        .first()
                        .map(|f| f.short().to_string())
                        .unwrap_or_default(),
                },
                m,
            )),
        }
    }
    let mut participants: Vec<ThreadParticipant> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (i, (email, m)) in emails.iter().enumerate() {
        for (role, mb) in m.roles() {
            let key = if mb.address.is_empty() {
                format!("name:{}", mb.short().to_lowercase())
            } else {
                person(&mb.address)
            };
            let at = *index.entry(key).or_insert_with(|| {
                participants.push(ThreadParticipant {
                    name: mb.short().to_string(),
                    address: mb.address.clone(),
                    addresses: Vec::new(),
                    roles: Vec::new(),
                    emails: 0,
                    first: i,
                    joined_as: role,
                    added_by: (i > 0 && role != PartRole::From && !email.from.is_empty())
                        .then(|| email.from.clone()),
                    last: i,
                    dropped_at: None,
                    appearances: Vec::new(),
                });
                participants.len() - 1
            });
            let p = &mut participants[at];
            if !mb.address.is_empty() && !p.addresses.contains(&mb.address) {
                p.addresses.push(mb.address.clone());
            }
            if p.name.contains('@') && mb.name.is_some() {
                p.name = mb.short().to_string();
            }
            if !p.appearances.contains(&(i, role)) {
                p.appearances.push((i, role));
            }
            if !p.roles.contains(&role) {
                p.roles.push(role);
                p.roles.sort();
            }
            if p.last != i || p.emails == 0 {
                p.emails += 1;
            }
            p.last = i;
        }
    }
    for p in &mut participants {
        if p.last + 1 < emails.len() {
            p.dropped_at = Some(p.last + 1);
        }
    }
    ThreadPeople {
        emails: emails.into_iter().map(|(e, _)| e).collect(),
        participants,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mb(name: &str, address: &str) -> Mailbox {
        Mailbox {
            name: (!name.is_empty()).then(|| name.to_string()),
            address: address.to_string(),
        }
    }

    fn msg(
        key: &str,
        date: i64,
        from: Mailbox,
        to: Vec<Mailbox>,
        cc: Vec<Mailbox>,
    ) -> HeaderMessage {
        HeaderMessage {
            key: key.into(),
            date: Some(date),
            from: vec![from],
            to,
            cc,
            ..HeaderMessage::default()
        }
    }

    fn same_address(a: &str) -> String {
        a.to_string()
    }

    #[test]
    fn looped_in_and_dropped_off_follow_the_dates() {
        let ines = mb("Ines Abara", "ines@quill.example");
        let tomas = mb("Tomas Reyes", "tomas@quill.example");
        let wen = mb("Wen Li", "wen@larch.example");
        let oda = mb("Oda Berg", "oda@quill.example");
        // Given out of order, with one email copied into two folders.
        let messages = vec![
            msg(
                "c",
                300,
                tomas.clone(),
                vec![ines.clone()],
                vec![wen.clone()],
            ),
            msg(
                "a",
                100,
                ines.clone(),
                vec![tomas.clone()],
                vec![oda.clone()],
            ),
            msg(
                "b",
                200,
                tomas.clone(),
                vec![ines.clone(), oda.clone()],
                vec![wen.clone()],
            ),
            msg(
                "b2",
                200,
                tomas.clone(),
                vec![ines.clone(), oda.clone()],
                vec![wen.clone()],
            ),
        ];
        let t = thread_people(&messages, &same_address);
        assert_eq!(t.emails.len(), 3);
        assert_eq!(t.emails[1].keys, vec!["b".to_string(), "b2".to_string()]);
        let find = |a: &str| t.participants.iter().find(|p| p.address == a).unwrap();
        let w = find("wen@larch.example");
        assert_eq!((w.first, w.joined_as), (1, PartRole::Cc));
        assert_eq!(w.added_by.as_deref(), Some("Tomas Reyes"));
        assert_eq!(w.emails, 2);
        assert_eq!(w.dropped_at, None);
        let o = find("oda@quill.example");
        assert_eq!((o.first, o.last, o.dropped_at), (0, 1, Some(2)));
        assert_eq!(o.roles, vec![PartRole::To, PartRole::Cc]);
        assert_eq!(o.added_by, None, "on the first email: no one added them");
        let i = find("ines@quill.example");
        assert_eq!(i.roles, vec![PartRole::From, PartRole::To]);
        assert_eq!(i.emails, 3);
    }

    #[test]
    fn one_person_at_two_addresses_is_one_participant() {
        let messages = vec![
            msg(
                "a",
                1,
                mb("Ines Abara", "ines@quill.example"),
                vec![mb("", "t@x.example")],
                vec![],
            ),
            msg(
                "b",
                2,
                mb("", "t@x.example"),
                vec![mb("Abara, Ines", "iabara@home.example")],
                vec![],
            ),
        ];
        let person = |a: &str| {
            if a.contains("abara") || a.starts_with("ines") {
                "ines".to_string()
            } else {
                a.to_string()
            }
        };
        let t = thread_people(&messages, &person);
        assert_eq!(t.participants.len(), 2);
        let ines = &t.participants[0];
        assert_eq!(
            ines.addresses,
            vec!["ines@quill.example", "iabara@home.example"]
        );
        assert_eq!(ines.emails, 2);
    }
}
