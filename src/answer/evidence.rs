//! The evidence pack: the numbered passages an answer may cite. Each item is a chunk's
//! `cite_text` (authored text only) with the facts a reader needs to trust it: message
//! id, sender, date, subject, and the attachment name and page when it comes from one.

use serde::{Deserialize, Serialize};

/// One citable passage, numbered from 1 in the pack.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct EvidenceItem {
    pub n: usize,
    /// The stored message's key (hex).
    pub key: String,
    pub message_id: Option<String>,
    pub thread_id: String,
    /// Unix seconds.
    pub date: Option<i64>,
    pub from: String,
    /// The message's recipients (To and Cc), as displayed.
    #[serde(default)]
    pub recipients: String,
    pub subject: String,
    /// What the message replies to or forwards (its quoted history), shortened:
    /// it tells what the message is about, and is never quoted.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub context: String,
    /// The exact authored text, and where it lies in the decoded body (or page text).
    pub cite_text: String,
    pub start: u32,
    pub end: u32,
    pub attachment: Option<String>,
    pub page: Option<u32>,
    /// Where in the attachment: "page 3", "Sheet1, row 14", "paragraph 2", "event".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<String>,
    /// The message holding a later version of the event this passage quotes (an
    /// update or a cancellation): the answer quotes that one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub later_version: Option<String>,
    /// The passage is a record of named fields (a spreadsheet row), not prose.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fields: bool,
    /// Retrieval score of the message it came from (higher is better).
    pub score: f32,
    /// Retrieval rank of the message it came from (1 = best).
    pub rank: usize,
    /// Cosine of the question with this passage's stored vector, when it has one.
    #[serde(default)]
    pub dense: Option<f32>,
    /// The message's sender and recipients, for answers about the message itself
    /// ("who sent it", "what is Dana's address").
    #[serde(default)]
    pub participants: Vec<Participant>,
    /// The file names of the message's attachments.
    #[serde(default)]
    pub attachments: Vec<String>,
    /// Who wrote the passage, when it is not the message's sender (a forwarded or
    /// quoted message whose original is not in the store).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Attribution>,
}

/// Who wrote a forwarded or quoted passage, as its forward or reply header says.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Attribution {
    pub author: String,
    /// As the header gives it ("03/02/2001 10:14 AM").
    pub date: Option<String>,
    /// Unix seconds, when the header's date could be read.
    pub timestamp: Option<i64>,
    /// The message that forwarded or quoted it was written by its sender: "forwarded"
    /// or "quoted".
    pub how: String,
}

/// A sender or recipient of a message.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Participant {
    pub role: Role,
    pub name: Option<String>,
    pub address: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    From,
    To,
    Cc,
}

impl Role {
    pub fn label(self) -> &'static str {
        match self {
            Role::From => "From",
            Role::To => "To",
            Role::Cc => "Cc",
        }
    }
}

impl Participant {
    /// As a header shows it: `Name <address>`, or the address alone.
    pub fn display(&self) -> String {
        match &self.name {
            Some(n) if !self.address.is_empty() => format!("{n} <{}>", self.address),
            Some(n) => n.clone(),
            None => self.address.clone(),
        }
    }
}

impl EvidenceItem {
    /// A rough token count: about four characters a token in English mail.
    pub fn tokens(&self) -> usize {
        (self.cite_text.len() + self.subject.len() + self.from.len() + 40) / 4
    }

    /// The message's headers as a reader sees them, one field a line: the exact
    /// text a header citation quotes from.
    pub fn header_text(&self) -> String {
        header_text(
            &self.participants,
            self.date,
            &self.subject,
            &self.attachments,
        )
    }
}

/// Headers as a reader sees them, one field a line: the participants, the date (as
/// [`date_line`]), the subject and the attachment names.
pub fn header_text(
    participants: &[Participant],
    date: Option<i64>,
    subject: &str,
    attachments: &[String],
) -> String {
    let mut out = String::new();
    for p in participants {
        out.push_str(&format!("{}: {}\n", p.role.label(), p.display()));
    }
    if let Some(line) = date.and_then(date_line) {
        out.push_str(&format!("Date: {line}\n"));
    }
    out.push_str(&format!("Subject: {subject}\n"));
    for a in attachments {
        out.push_str(&format!("Attachment: {a}\n"));
    }
    out
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct EvidencePack {
    pub items: Vec<EvidenceItem>,
    pub tokens: usize,
    pub budget: usize,
}

impl EvidencePack {
    /// Takes items in the order given until the token budget is spent (the first item
    /// always fits), numbering them 1..n. Identical passages (the same text copied into
    /// several folders) are kept once.
    pub fn build(candidates: Vec<EvidenceItem>, budget: usize) -> Self {
        let mut pack = EvidencePack {
            items: Vec::new(),
            tokens: 0,
            budget,
        };
        for mut item in candidates {
            if pack
                .items
                .iter()
                .any(|i| i.cite_text.trim() == item.cite_text.trim())
            {
                continue;
            }
            let t = item.tokens();
            if !pack.items.is_empty() && pack.tokens + t > budget {
                continue;
            }
            item.n = pack.items.len() + 1;
            pack.tokens += t;
            pack.items.push(item);
        }
        pack
    }

    pub fn get(&self, n: usize) -> Option<&EvidenceItem> {
        n.checked_sub(1).and_then(|i| self.items.get(i))
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

/// A message's date as its header line gives it ("2001-05-10 14:00 UTC").
pub fn date_line(timestamp: i64) -> Option<String> {
    chrono::DateTime::from_timestamp(timestamp, 0)
        .map(|d| d.format("%Y-%m-%d %H:%M UTC").to_string())
}

#[cfg(test)]
pub(crate) fn item(text: &str, from: &str) -> EvidenceItem {
    EvidenceItem {
        n: 0,
        key: format!("{:032x}", text.len()),
        message_id: Some(format!("<{}@test>", text.len())),
        thread_id: "0".repeat(16),
        date: Some(988_675_200),
        from: from.to_string(),
        recipients: String::new(),
        subject: "Test".to_string(),
        context: String::new(),
        cite_text: text.to_string(),
        start: 0,
        end: text.len() as u32,
        attachment: None,
        page: None,
        place: None,
        later_version: None,
        fields: false,
        score: 1.0,
        rank: 1,
        dense: None,
        participants: Vec::new(),
        attachments: Vec::new(),
        origin: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_items_and_respects_the_budget() {
        let long = "word ".repeat(400);
        let pack = EvidencePack::build(
            vec![
                item("first passage", "A"),
                item(&long, "B"),
                item("third passage here", "C"),
            ],
            100,
        );
        assert_eq!(pack.items.len(), 2);
        assert_eq!(pack.items[0].n, 1);
        assert_eq!(pack.items[1].cite_text, "third passage here");
        assert_eq!(pack.items[1].n, 2);
        assert!(pack.tokens <= 100);
        assert_eq!(pack.get(2).map(|i| i.from.as_str()), Some("C"));
        assert!(pack.get(0).is_none());
    }

    #[test]
    fn keeps_copies_of_the_same_passage_once() {
        let pack = EvidencePack::build(vec![item("same", "A"), item(" same ", "B")], 1000);
        assert_eq!(pack.items.len(), 1);
    }
}
