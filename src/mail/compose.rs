//! Drafts of mail the user writes: replies, replies to all, forwards and new
//! messages. A draft is the text the user edits (header lines, a blank line, the
//! body), read back after the editor exits and built into an RFC 5322 message.
//!
//! The header block of the text holds every header the message gets from the user,
//! threading included (In-Reply-To, References), so a draft file alone is enough to
//! send or postpone it, whatever happened to the program that made it.

use super::model::Mailbox;
use mail_builder::headers::address::Address;
use mail_builder::headers::message_id::MessageId;
use mail_builder::headers::raw::Raw;
use mail_builder::MessageBuilder;

/// What a draft answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DraftKind {
    /// To the sender (or its Reply-To).
    Reply,
    /// To the sender and everyone else on the message, except the user.
    ReplyAll,
    /// The message, quoted whole, to someone new.
    Forward,
    /// A new message.
    New,
    /// The user's answer to the invitation the message carries (an iTIP reply to
    /// its organiser).
    Answer(crate::attach::itip::InviteAnswer),
}

impl DraftKind {
    /// The Maildir flag the original gets once the draft is sent (`R` replied,
    /// `P` passed on).
    pub fn flag_on_original(self) -> Option<char> {
        match self {
            DraftKind::Reply | DraftKind::ReplyAll | DraftKind::Answer(_) => Some('R'),
            DraftKind::Forward => Some('P'),
            DraftKind::New => None,
        }
    }
}

/// The message a reply or forward is made from.
#[derive(Debug, Clone, Default)]
pub struct Original {
    pub message_id: Option<String>,
    pub references: Vec<String>,
    pub in_reply_to: Vec<String>,
    /// Unix seconds.
    pub date: Option<i64>,
    pub from: Vec<Mailbox>,
    pub reply_to: Vec<Mailbox>,
    pub to: Vec<Mailbox>,
    pub cc: Vec<Mailbox>,
    pub subject: String,
    pub body: String,
}

/// A draft as header texts and a body: what the user sees and edits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Draft {
    pub from: String,
    pub to: String,
    pub cc: String,
    pub bcc: String,
    pub subject: String,
    /// Message-IDs in angle brackets, space separated.
    pub in_reply_to: String,
    pub references: String,
    /// Files to attach (`Attach:` lines, one path each, as mutt writes them).
    pub attach: Vec<String>,
    /// Other headers the user wrote, in order.
    pub extra: Vec<(String, String)>,
    pub body: String,
}

/// A file attached to a message: its name, content type and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// Why a draft cannot be read or sent.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ComposeError {
    #[error("the draft has no header lines (From:, To:, Subject: ... then a blank line)")]
    NoHeaders,
    #[error("line {line} of the draft's headers is not a header (Name: value): {text:?}")]
    BadHeaderLine { line: usize, text: String },
    #[error("the draft has no From address: set [compose] from in config.toml")]
    NoFrom,
    #[error("the draft's From must be one address, not {0:?}")]
    BadFrom(String),
    #[error("the draft has no recipient (To, Cc or Bcc)")]
    NoRecipient,
    #[error("{header} holds {text:?}, which is not an address")]
    BadAddress { header: &'static str, text: String },
    #[error("the message could not be built: {0}")]
    Build(String),
}

/// The headers a draft's text shows, in order, with the field each fills.
const FIELDS: &[&str] = &[
    "From",
    "To",
    "Cc",
    "Bcc",
    "Subject",
    "In-Reply-To",
    "References",
];

impl Draft {
    /// A new message from `from`.
    pub fn new_message(from: &str) -> Draft {
        Draft {
            from: from.to_string(),
            body: "\n".to_string(),
            ..Draft::default()
        }
    }

    /// A reply from `from` (whose own addresses are `mine`) to `original`: to its
    /// Reply-To or sender and, with `all`, everyone else on it but the user.
    pub fn reply(original: &Original, from: &str, mine: &[String], all: bool) -> Draft {
        let authors = if original.reply_to.is_empty() {
            &original.from
        } else {
            &original.reply_to
        };
        let is_mine = |m: &Mailbox| mine.iter().any(|a| a.eq_ignore_ascii_case(&m.address));
        let mut to: Vec<&Mailbox> = authors.iter().collect();
        if to.iter().all(|m| is_mine(m)) && !original.to.is_empty() {
            // A reply to one's own message goes to its recipients again.
            to = original.to.iter().collect();
        }
        let mut cc: Vec<&Mailbox> = Vec::new();
        if all {
            for m in original.to.iter().chain(&original.cc) {
                let taken = to.iter().chain(&cc).any(|t| same(t, m));
                if !taken && !is_mine(m) && !m.address.is_empty() {
                    cc.push(m);
                }
            }
        }
        let mut references: Vec<String> = if original.references.is_empty() {
            original.in_reply_to.clone()
        } else {
            original.references.clone()
        };
        references.extend(original.message_id.clone());
        references.dedup();
        Draft {
            from: from.to_string(),
            to: address_line(&to),
            cc: address_line(&cc),
            subject: prefixed("Re:", &original.subject, &["re", "aw", "sv", "antw"]),
            in_reply_to: original
                .message_id
                .as_deref()
                .map(bracketed)
                .unwrap_or_default(),
            references: references
                .iter()
                .map(|r| bracketed(r))
                .collect::<Vec<_>>()
                .join(" "),
            body: format!("\n{}\n{}", attribution(original), quoted(&original.body)),
            ..Draft::default()
        }
    }

    /// `original` forwarded inline from `from`, its headers above its text.
    pub fn forward(original: &Original, from: &str) -> Draft {
        let people = |list: &[Mailbox]| address_line(&list.iter().collect::<Vec<_>>());
        let mut head = vec![
            "---------- Forwarded message ----------".to_string(),
            format!("From: {}", people(&original.from)),
        ];
        if let Some(date) = original.date.and_then(local_date) {
            head.push(format!("Date: {date}"));
        }
        head.push(format!("Subject: {}", original.subject));
        if !original.to.is_empty() {
            head.push(format!("To: {}", people(&original.to)));
        }
        if !original.cc.is_empty() {
            head.push(format!("Cc: {}", people(&original.cc)));
        }
        Draft {
            from: from.to_string(),
            subject: prefixed("Fwd:", &original.subject, &["fwd", "fw"]),
            body: format!("\n\n{}\n\n{}\n", head.join("\n"), original.body.trim_end()),
            ..Draft::default()
        }
    }

    /// The text the user edits: header lines, a blank line, the body.
    pub fn to_text(&self) -> String {
        let values = [
            &self.from,
            &self.to,
            &self.cc,
            &self.bcc,
            &self.subject,
            &self.in_reply_to,
            &self.references,
        ];
        let mut out = String::new();
        for (name, value) in FIELDS.iter().zip(values) {
            // Empty threading headers are left out; the others stay as places to write.
            if value.is_empty() && matches!(*name, "In-Reply-To" | "References") {
                continue;
            }
            out.push_str(&format!("{name}: {}\n", one_line(value)));
        }
        for path in &self.attach {
            out.push_str(&format!("Attach: {}\n", one_line(path)));
        }
        for (name, value) in &self.extra {
            out.push_str(&format!("{name}: {}\n", one_line(value)));
        }
        out.push('\n');
        out.push_str(&self.body);
        out
    }

    /// Reads a draft's text back: header lines (continuations indented) up to the
    /// first blank line, then the body.
    pub fn from_text(text: &str) -> Result<Draft, ComposeError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let (head, body) = match text.find("\n\n") {
            Some(i) => (&text[..i], &text[i + 2..]),
            None => match text.find("\r\n\r\n") {
                Some(i) => (&text[..i], &text[i + 4..]),
                None => (text, ""),
            },
        };
        let mut headers: Vec<(String, String)> = Vec::new();
        for (n, line) in head.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.starts_with([' ', '\t']) {
                let Some(last) = headers.last_mut() else {
                    return Err(bad_line(n, line));
                };
                last.1.push(' ');
                last.1.push_str(line.trim());
                continue;
            }
            let Some((name, value)) = line.split_once(':') else {
                return Err(bad_line(n, line));
            };
            let name = name.trim();
            if name.is_empty() || name.contains(char::is_whitespace) {
                return Err(bad_line(n, line));
            }
            headers.push((name.to_string(), value.trim().to_string()));
        }
        if headers.is_empty() {
            return Err(ComposeError::NoHeaders);
        }
        let mut draft = Draft {
            body: body.replace("\r\n", "\n"),
            ..Draft::default()
        };
        for (name, value) in headers {
            let field = match name.to_ascii_lowercase().as_str() {
                "from" => &mut draft.from,
                "to" => &mut draft.to,
                "cc" => &mut draft.cc,
                "bcc" => &mut draft.bcc,
                "subject" => &mut draft.subject,
                "in-reply-to" => &mut draft.in_reply_to,
                "references" => &mut draft.references,
                "attach" => {
                    if !value.is_empty() {
                        draft.attach.push(value);
                    }
                    continue;
                }
                _ => {
                    draft.extra.push((name, value));
                    continue;
                }
            };
            if field.is_empty() {
                *field = value;
            } else if !value.is_empty() {
                field.push_str(", ");
                field.push_str(&value);
            }
        }
        Ok(draft)
    }

    /// Everyone the message goes to (To, Cc, Bcc), as addresses.
    pub fn recipients(&self) -> Result<Vec<Mailbox>, ComposeError> {
        let mut all = parse_addresses("To", &self.to)?;
        all.extend(parse_addresses("Cc", &self.cc)?);
        all.extend(parse_addresses("Bcc", &self.bcc)?);
        Ok(all)
    }

    /// The sender's address.
    pub fn sender(&self) -> Result<Mailbox, ComposeError> {
        let from = parse_addresses("From", &self.from)?;
        match from.as_slice() {
            [] => Err(ComposeError::NoFrom),
            [one] if !one.address.is_empty() => Ok(one.clone()),
            _ => Err(ComposeError::BadFrom(self.from.clone())),
        }
    }

    /// The message to send (`to_send`: at least one recipient) or to keep as a
    /// draft, dated `date` (Unix seconds) with the id `message_id` (no brackets),
    /// with `attachments` (the files of its `Attach:` lines, read by the caller).
    pub fn build(
        &self,
        date: i64,
        message_id: &str,
        to_send: bool,
        attachments: &[Attachment],
    ) -> Result<Vec<u8>, ComposeError> {
        let from = self.sender()?;
        let to = parse_addresses("To", &self.to)?;
        let cc = parse_addresses("Cc", &self.cc)?;
        let bcc = parse_addresses("Bcc", &self.bcc)?;
        if to_send && to.is_empty() && cc.is_empty() && bcc.is_empty() {
            return Err(ComposeError::NoRecipient);
        }
        let mut builder = MessageBuilder::new()
            .from(address(&from))
            .subject(self.subject.as_str())
            .date(date)
            .message_id(message_id.to_string());
        if !to.is_empty() {
            builder = builder.to(address_list(&to));
        }
        if !cc.is_empty() {
            builder = builder.cc(address_list(&cc));
        }
        if !bcc.is_empty() {
            builder = builder.bcc(address_list(&bcc));
        }
        let in_reply_to = message_ids(&self.in_reply_to);
        if !in_reply_to.is_empty() {
            builder = builder.in_reply_to(MessageId::new_list(in_reply_to.into_iter()));
        }
        let references = message_ids(&self.references);
        if !references.is_empty() {
            builder = builder.references(MessageId::new_list(references.into_iter()));
        }
        for (name, value) in &self.extra {
            builder = builder.header(name.clone(), Raw::new(one_line(value)));
        }
        builder = builder.text_body(self.body.clone());
        for a in attachments {
            builder = builder.attachment(a.content_type.clone(), a.name.clone(), a.bytes.clone());
        }
        builder
            .write_to_vec()
            .map_err(|e| ComposeError::Build(e.to_string()))
    }
}

fn bad_line(n: usize, line: &str) -> ComposeError {
    ComposeError::BadHeaderLine {
        line: n + 1,
        text: line.chars().take(80).collect(),
    }
}

fn same(a: &Mailbox, b: &Mailbox) -> bool {
    !a.address.is_empty() && a.address.eq_ignore_ascii_case(&b.address)
}

/// Header values stay on one line in the draft text.
fn one_line(s: &str) -> String {
    s.split(['\r', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn bracketed(id: &str) -> String {
    format!(
        "<{}>",
        id.trim().trim_start_matches('<').trim_end_matches('>')
    )
}

/// Message-IDs of a header text, without brackets.
fn message_ids(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .map(|s| s.trim_start_matches('<').trim_end_matches('>'))
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// "Name <addr>, addr" for a header.
fn address_line(list: &[&Mailbox]) -> String {
    list.iter()
        .filter(|m| !m.address.is_empty())
        .map(|m| match &m.name {
            Some(n) if needs_quotes(n) => format!("\"{}\" <{}>", n.replace('"', "'"), m.address),
            Some(n) => format!("{n} <{}>", m.address),
            None => m.address.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn needs_quotes(name: &str) -> bool {
    name.chars().any(|c| "()<>[]:;@\\,.\"".contains(c))
}

/// `subject` with `prefix` in front, unless it already starts with one of
/// `already` (without case, with a colon).
fn prefixed(prefix: &str, subject: &str, already: &[&str]) -> String {
    let s = subject.trim();
    let has = s.split_once(':').is_some_and(|(head, _)| {
        let head = head.trim().to_ascii_lowercase();
        already.contains(&head.as_str())
    });
    if has {
        s.to_string()
    } else if s.is_empty() {
        prefix.to_string()
    } else {
        format!("{prefix} {s}")
    }
}

/// "On <date>, <name> wrote:".
fn attribution(original: &Original) -> String {
    let who = original
        .from
        .first()
        .map(|m| m.name.clone().unwrap_or_else(|| m.address.clone()))
        .filter(|w| !w.is_empty())
        .unwrap_or_else(|| "someone".to_string());
    match original.date.and_then(local_date) {
        Some(date) => format!("On {date}, {who} wrote:"),
        None => format!("{who} wrote:"),
    }
}

fn local_date(secs: i64) -> Option<String> {
    let utc = chrono::DateTime::from_timestamp(secs, 0)?;
    Some(
        utc.with_timezone(&chrono::Local)
            .format("%a, %-d %b %Y at %H:%M")
            .to_string(),
    )
}

/// Each line of `body` behind "> " (">" alone on an empty line, and no space
/// between markers on a line quoted already).
fn quoted(body: &str) -> String {
    let mut out = String::new();
    for line in body.trim_end().lines() {
        let line = line.trim_end();
        if line.is_empty() {
            out.push_str(">\n");
        } else if line.starts_with('>') {
            out.push('>');
            out.push_str(line);
            out.push('\n');
        } else {
            out.push_str("> ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn address(m: &Mailbox) -> Address<'static> {
    Address::new_address(m.name.clone(), m.address.clone())
}

fn address_list(list: &[Mailbox]) -> Address<'static> {
    Address::new_list(list.iter().map(address).collect())
}

/// The addresses of a header's text, read as mail-parser reads a header.
pub fn parse_addresses(header: &'static str, text: &str) -> Result<Vec<Mailbox>, ComposeError> {
    let text = one_line(text);
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let list = super::parse::address_header(&text);
    if list.is_empty() || list.iter().any(|m| !m.address.contains('@')) {
        return Err(ComposeError::BadAddress { header, text });
    }
    Ok(list)
}

#[cfg(test)]
#[path = "compose_tests.rs"]
mod tests;
