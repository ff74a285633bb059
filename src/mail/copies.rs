//! Copies of one email: the same message kept in several folders (sent mail and an
//! archive, an IMAP copy), or exported again under a new Message-ID. A reader shows
//! such copies once, with their folders listed.
//!
//! Two messages are copies when they carry the same Message-ID, or when their content
//! is the same: the sender's address, the date to the second, the subject, the body
//! text and the attachments' names and sizes. Undated mail, and mail with neither
//! text nor attachments (an encrypted body Quoth cannot read), is matched by
//! Message-ID only: nothing of its own tells two such messages apart.

use super::model::AttachmentInfo;
use std::collections::HashMap;

/// A digest of what makes a message's content the same as another's.
pub type ContentId = [u8; 16];

/// The content identity of a message; `None` when it has too little content.
pub fn content_id(
    sender: &str,
    date: Option<i64>,
    subject: &str,
    body: &str,
    attachments: &[AttachmentInfo],
) -> Option<ContentId> {
    let date = date?;
    if body.trim().is_empty() && attachments.is_empty() {
        return None;
    }
    let mut h = blake3::Hasher::new();
    h.update(sender.trim().to_lowercase().as_bytes());
    h.update(b"\0");
    h.update(&date.to_be_bytes());
    h.update(subject.trim().as_bytes());
    h.update(b"\0");
    // Line ends and trailing blanks are how a mailbox stored the text, not the text.
    let mut lines: Vec<&str> = body.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for line in lines {
        h.update(line.as_bytes());
        h.update(b"\n");
    }
    for a in attachments {
        h.update(b"\0");
        h.update(a.name.as_deref().unwrap_or("").as_bytes());
        h.update(&a.size.to_be_bytes());
    }
    let mut id = [0u8; 16];
    id.copy_from_slice(&h.finalize().as_bytes()[..16]);
    Some(id)
}

/// Where a message falls among those placed before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The first copy of an email: the `n`th distinct email so far (from 0).
    First(usize),
    /// Another copy of the `n`th email.
    CopyOf(usize),
}

/// Sorts messages, in the order given, into distinct emails.
#[derive(Debug, Default)]
pub struct Copies {
    ids: HashMap<String, usize>,
    contents: HashMap<ContentId, usize>,
    emails: usize,
}

impl Copies {
    pub fn new() -> Self {
        Self::default()
    }

    /// Places the next message: a copy when its Message-ID or its content was seen.
    pub fn place(&mut self, message_id: Option<&str>, content: Option<ContentId>) -> Placement {
        let message_id = message_id.map(str::trim).filter(|m| !m.is_empty());
        let seen = message_id
            .and_then(|m| self.ids.get(m).copied())
            .or_else(|| content.and_then(|c| self.contents.get(&c).copied()));
        let email = seen.unwrap_or(self.emails);
        // A copy's own Message-ID and content lead to the same email from now on.
        if let Some(m) = message_id {
            self.ids.entry(m.to_string()).or_insert(email);
        }
        if let Some(c) = content {
            self.contents.entry(c).or_insert(email);
        }
        match seen {
            Some(n) => Placement::CopyOf(n),
            None => {
                self.emails += 1;
                Placement::First(email)
            }
        }
    }

    /// Distinct emails placed so far.
    pub fn emails(&self) -> usize {
        self.emails
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 986_000_000;

    #[test]
    fn the_same_text_under_a_new_message_id_is_a_copy() {
        let a = content_id(
            "Ann@Example.org",
            Some(DAY),
            "Gate codes",
            "Use 4411.\r\n\r\n",
            &[],
        );
        let b = content_id(
            "ann@example.org",
            Some(DAY),
            "Gate codes",
            "Use 4411.\n",
            &[],
        );
        assert_eq!(a, b);
        let mut c = Copies::new();
        assert_eq!(c.place(Some("<1@x>"), a), Placement::First(0));
        assert_eq!(c.place(Some("<2@x>"), b), Placement::CopyOf(0));
        assert_eq!(c.emails(), 1);
    }

    #[test]
    fn a_shared_message_id_is_a_copy_whatever_the_text() {
        let mut c = Copies::new();
        let a = content_id("a@x", Some(DAY), "s", "one", &[]);
        let b = content_id("a@x", Some(DAY), "s", "one, edited by the server", &[]);
        assert_ne!(a, b);
        assert_eq!(c.place(Some("<m@x>"), a), Placement::First(0));
        assert_eq!(c.place(Some(" <m@x> "), b), Placement::CopyOf(0));
        // The second copy's text now leads to the same email too.
        assert_eq!(c.place(None, b), Placement::CopyOf(0));
    }

    #[test]
    fn different_mail_stays_apart() {
        let mut c = Copies::new();
        let base = content_id("a@x", Some(DAY), "Alert: disk full", "host one", &[]);
        let other_body = content_id("a@x", Some(DAY), "Alert: disk full", "host two", &[]);
        let other_second = content_id("a@x", Some(DAY + 1), "Alert: disk full", "host one", &[]);
        let other_sender = content_id("b@x", Some(DAY), "Alert: disk full", "host one", &[]);
        assert_eq!(c.place(None, base), Placement::First(0));
        assert_eq!(c.place(None, other_body), Placement::First(1));
        assert_eq!(c.place(None, other_second), Placement::First(2));
        assert_eq!(c.place(None, other_sender), Placement::First(3));
        // Undated mail has no content identity: two identical undated notes stay two.
        assert_eq!(content_id("a@x", None, "s", "b", &[]), None);
        // Nor has mail without text or attachments (an encrypted body).
        assert_eq!(content_id("a@x", Some(DAY), "s", " \n", &[]), None);
        let sealed = |size| AttachmentInfo {
            index: 0,
            name: Some("encrypted.asc".into()),
            mime_type: "application/octet-stream".into(),
            size,
        };
        assert_ne!(
            content_id("a@x", Some(DAY), "s", "", &[sealed(900)]),
            content_id("a@x", Some(DAY), "s", "", &[sealed(901)]),
        );
        assert_eq!(c.place(None, None), Placement::First(4));
        assert_eq!(c.place(None, None), Placement::First(5));
        assert_eq!(c.emails(), 6);
    }
}
