//! The mail model: what Quoth knows about one message once it is parsed.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Identity of a message inside Quoth: the first 16 bytes of the BLAKE3 hash of its
/// normalised raw bytes. The same mail read from a Maildir file and from an mbox gets
/// the same key, which is what makes ingest idempotent across sources.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MessageKey(pub [u8; 16]);

impl MessageKey {
    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    pub fn from_hex(s: &str) -> Option<Self> {
        let bytes = unhex(s)?;
        let arr: [u8; 16] = bytes.try_into().ok()?;
        Some(Self(arr))
    }
}

impl fmt::Debug for MessageKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MessageKey({})", self.to_hex())
    }
}

impl fmt::Display for MessageKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// A thread is named after its representative (earliest) message: the first 8 bytes of
/// that message's key, written as 16 hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ThreadId(pub [u8; 8]);

impl ThreadId {
    pub fn of_root(root: &MessageKey) -> Self {
        let mut b = [0u8; 8];
        b.copy_from_slice(&root.0[..8]);
        Self(b)
    }

    pub fn to_hex(&self) -> String {
        hex(&self.0)
    }

    pub fn from_hex(s: &str) -> Option<Self> {
        let bytes = unhex(s)?;
        let arr: [u8; 8] = bytes.try_into().ok()?;
        Some(Self(arr))
    }
}

impl fmt::Debug for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ThreadId({})", self.to_hex())
    }
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

/// One address of a From/To/Cc/Bcc header.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mailbox {
    pub name: Option<String>,
    /// Lowercased address; empty when the header only had a display name.
    pub address: String,
}

impl Mailbox {
    /// "Name <addr>" or whichever part exists.
    pub fn display(&self) -> String {
        match (&self.name, self.address.is_empty()) {
            (Some(n), false) => format!("{n} <{}>", self.address),
            (Some(n), true) => n.clone(),
            (None, _) => self.address.clone(),
        }
    }

    /// The short form shown in lists: the name if any, else the address.
    pub fn short(&self) -> &str {
        match &self.name {
            Some(n) if !n.is_empty() => n,
            _ => &self.address,
        }
    }
}

pub fn display_list(list: &[Mailbox]) -> String {
    list.iter()
        .map(Mailbox::display)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Which part of the MIME tree the body text came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum BodyFormat {
    Plain,
    Html,
    #[default]
    Empty,
}

/// An attachment as recorded at ingest. Its bytes are stored apart from the message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttachmentInfo {
    /// Position among the message's attachments, starting at 0.
    pub index: u32,
    pub name: Option<String>,
    pub mime_type: String,
    pub size: u64,
}

/// A message after MIME parsing, before it is cleaned, threaded or stored.
#[derive(Debug, Clone, Default)]
pub struct ParsedMessage {
    /// Message-ID without angle brackets.
    pub message_id: Option<String>,
    pub in_reply_to: Vec<String>,
    pub references: Vec<String>,
    /// Unix seconds, UTC.
    pub date: Option<i64>,
    pub from: Vec<Mailbox>,
    pub to: Vec<Mailbox>,
    pub cc: Vec<Mailbox>,
    pub bcc: Vec<Mailbox>,
    /// Where replies go, when the sender asked for somewhere else.
    pub reply_to: Vec<Mailbox>,
    pub subject: String,
    /// Decoded body text (text/plain preferred; HTML turned into text).
    pub body: String,
    pub body_format: BodyFormat,
    pub attachments: Vec<AttachmentInfo>,
    /// Bytes of each attachment, same order as `attachments`.
    pub attachment_bytes: Vec<Vec<u8>>,
}

impl ParsedMessage {
    /// Lowercased addresses of everyone on the message (from, to, cc, bcc).
    pub fn participants(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .from
            .iter()
            .chain(&self.to)
            .chain(&self.cc)
            .chain(&self.bcc)
            .filter(|m| !m.address.is_empty())
            .map(|m| m.address.clone())
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_through_hex() {
        let k = MessageKey([7u8; 16]);
        assert_eq!(MessageKey::from_hex(&k.to_hex()), Some(k));
        assert_eq!(MessageKey::from_hex("zz"), None);
        let t = ThreadId::of_root(&k);
        assert_eq!(ThreadId::from_hex(&t.to_hex()), Some(t));
        assert_eq!(t.to_hex().len(), 16);
    }

    #[test]
    fn mailbox_display_forms() {
        let m = Mailbox {
            name: Some("Priya Ashford".into()),
            address: "priya.ashford@example.com".into(),
        };
        assert_eq!(m.display(), "Priya Ashford <priya.ashford@example.com>");
        assert_eq!(m.short(), "Priya Ashford");
    }
}
