//! MIME parsing with mail-parser, turned into Quoth's [`ParsedMessage`].
//!
//! The parser is third-party code fed with hostile input, so it runs under
//! `catch_unwind`: a panic becomes a [`ParseError`] and the message is quarantined.

use super::html::html_to_text;
use super::model::{AttachmentInfo, BodyFormat, Mailbox, ParsedMessage};
use mail_parser::{Address, HeaderValue, Message, MessageParser, MimeHeaders, PartType};
use std::panic::{catch_unwind, AssertUnwindSafe};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("empty message")]
    Empty,
    #[error("not an email: no header fields found")]
    NoHeaders,
    #[error("the MIME parser could not read the message")]
    Unparseable,
    #[error("the MIME parser crashed on this message: {0}")]
    ParserPanic(String),
}

/// Parses one raw RFC 5322 message.
pub fn parse_message(raw: &[u8]) -> Result<ParsedMessage, ParseError> {
    if raw.iter().all(u8::is_ascii_whitespace) {
        return Err(ParseError::Empty);
    }
    match catch_unwind(AssertUnwindSafe(|| parse_unguarded(raw))) {
        Ok(result) => result,
        Err(payload) => {
            let why = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(ParseError::ParserPanic(why))
        }
    }
}

fn parse_unguarded(raw: &[u8]) -> Result<ParsedMessage, ParseError> {
    let msg = MessageParser::default()
        .parse(raw)
        .ok_or(ParseError::Unparseable)?;
    if msg.headers().is_empty() {
        return Err(ParseError::NoHeaders);
    }
    let mut from = addresses(msg.from());
    apply_x_from_name(&msg, &mut from);
    let mut to = addresses(msg.to());
    apply_x_names(&msg, "X-To", &mut to);
    if to.is_empty() {
        to = x_recipients(&msg, "X-To");
    }
    let mut cc = addresses(msg.cc());
    apply_x_names(&msg, "X-cc", &mut cc);
    if cc.is_empty() {
        cc = x_recipients(&msg, "X-cc");
    }
    let (body, body_format) = body_text(&msg);
    let mut parsed = ParsedMessage {
        message_id: msg.message_id().map(clean_id).filter(|s| !s.is_empty()),
        in_reply_to: id_list(msg.in_reply_to()),
        references: id_list(msg.references()),
        date: msg.date().map(|d| d.to_timestamp()),
        from,
        to,
        cc,
        bcc: addresses(msg.bcc()),
        reply_to: addresses(msg.reply_to()),
        subject: msg.subject().unwrap_or("").trim().to_string(),
        body,
        body_format,
        ..ParsedMessage::default()
    };
    collect_attachments(&msg, &mut parsed);
    Ok(parsed)
}

fn clean_id(s: &str) -> String {
    s.trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim()
        .to_string()
}

fn id_list(value: &HeaderValue) -> Vec<String> {
    let mut ids: Vec<String> = match value {
        HeaderValue::Text(t) => split_ids(t),
        HeaderValue::TextList(list) => list.iter().flat_map(|t| split_ids(t)).collect(),
        _ => Vec::new(),
    };
    ids.dedup();
    ids
}

fn split_ids(s: &str) -> Vec<String> {
    s.split(|c: char| c.is_whitespace() || c == ',')
        .map(clean_id)
        .filter(|s| !s.is_empty())
        .collect()
}

/// The addresses of one address header's value ("Ann <a@x>, b@y"), as a message's
/// header would be read.
pub fn address_header(value: &str) -> Vec<Mailbox> {
    let raw = format!("To: {value}\r\n\r\n");
    MessageParser::default()
        .parse(raw.as_bytes())
        .map(|m| addresses(m.to()))
        .unwrap_or_default()
}

/// The Reply-To addresses of a raw message.
pub fn reply_to(raw: &[u8]) -> Vec<Mailbox> {
    MessageParser::default()
        .parse(raw)
        .map(|m| addresses(m.reply_to()))
        .unwrap_or_default()
}

fn addresses(addr: Option<&Address>) -> Vec<Mailbox> {
    let Some(addr) = addr else { return Vec::new() };
    addr.iter()
        .filter_map(|a| {
            let address = a.address.as_deref().unwrap_or("").trim().to_lowercase();
            let name = a
                .name
                .as_deref()
                .map(|n| n.trim().trim_matches('"').trim().to_string())
                .filter(|n| !n.is_empty() && *n != address);
            (!address.is_empty() || name.is_some()).then_some(Mailbox { name, address })
        })
        .collect()
}

/// Enron mail carries the sender's display name only in the X-From header.
fn apply_x_from_name(msg: &Message, from: &mut [Mailbox]) {
    let [only] = from else { return };
    if only.name.is_some() {
        return;
    }
    let Some(x_from) = msg.header_raw("X-From") else {
        return;
    };
    let name = x_from
        .split('<')
        .next()
        .unwrap_or("")
        .trim()
        .trim_matches('"')
        .trim();
    if !name.is_empty() && !name.contains('@') && name.len() < 80 {
        only.name = Some(name.to_string());
    }
}

/// Enron mail gives recipients' display names only in X-To and X-cc, in the order
/// of the To and Cc addresses ("Odile Ferrante", "Thistlewood, Jory T
/// </O=ENRON/...>"). A name is taken for an address that has none (or one that is
/// not its, like "e-mail") only when the lists line up and the name is plausibly
/// that address's (a part of it is in the address).
fn apply_x_names(msg: &Message, header: &str, list: &mut [Mailbox]) {
    let unnamed = |m: &Mailbox| {
        m.name
            .as_deref()
            .is_none_or(|n| !plausible_name(n, &m.address))
    };
    if !list.iter().any(unnamed) {
        return;
    }
    let Some(raw) = msg.header_raw(header) else {
        return;
    };
    let n = list.len();
    let Some(names) = x_names(raw, n).or_else(|| {
        x_entries(raw)
            .map(|es| es.iter().map(|e| x_name(e)).collect::<Vec<_>>())
            .filter(|names| names.len() == n)
    }) else {
        return;
    };
    for (mb, name) in list.iter_mut().zip(names) {
        if unnamed(mb) && plausible_name(&name, &mb.address) {
            mb.name = Some(name);
        }
    }
}

/// The recipients an X-To or X-cc header names when the message has no To or Cc
/// header of its own (Lotus Notes exports: "Sally Vance@RIDGE", "All Staff@RIDGE
/// <...>"): each entry's name, with its address when the entry gives a real one.
/// A group without members ("undisclosed-recipients:") names no one.
fn x_recipients(msg: &Message, header: &str) -> Vec<Mailbox> {
    let Some(entries) = msg.header_raw(header).and_then(x_entries) else {
        return Vec::new();
    };
    entries
        .iter()
        .filter_map(|entry| {
            let address = entry_address(entry).unwrap_or_default();
            let name = Some(x_name(entry)).filter(|n| {
                !n.is_empty() && !n.ends_with(':') && !n.eq_ignore_ascii_case(&address)
            });
            let name = name.filter(|n| address.is_empty() || !address.starts_with(n.as_str()));
            (name.is_some() || !address.is_empty()).then_some(Mailbox { name, address })
        })
        .collect()
}

/// The entries of an X-To/X-cc value, one a recipient: the pieces between commas
/// are joined until one holds an address part ("<...>" or "@"), so "Okonkwo, Della
/// </O=...>" is one entry. None when a piece without one is left over: names alone
/// do not say where one ends ("Beck, Sally" or two people?).
fn x_entries(raw: &str) -> Option<Vec<String>> {
    let raw = raw.replace(['\r', '\n', '\t'], " ");
    let mut pieces = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in raw.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(&raw[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    pieces.push(&raw[start..]);
    let mut entries = Vec::new();
    let mut pending: Vec<&str> = Vec::new();
    for piece in pieces.into_iter().filter(|p| !p.trim().is_empty()) {
        pending.push(piece.trim());
        if piece.contains('<') || piece.contains('@') {
            entries.push(pending.join(", "));
            pending.clear();
        }
    }
    (pending.is_empty() && !entries.is_empty()).then_some(entries)
}

/// The display name of one X-To/X-cc entry: without its <...> parts, "@host"
/// tail, "(E-mail)" notes and quotes.
fn x_name(entry: &str) -> String {
    let cleaned = without_angles(entry);
    let p = cleaned.split('@').next().unwrap_or("");
    let p = match (p.find('('), p.rfind(')')) {
        (Some(a), Some(b)) if a < b => format!("{}{}", &p[..a], &p[b + 1..]),
        _ => p.to_string(),
    };
    p.trim().trim_matches(['"', '\'']).trim().to_string()
}

/// The text outside <...> parts.
fn without_angles(text: &str) -> String {
    let mut cleaned = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => cleaned.push(c),
            _ => {}
        }
    }
    cleaned
}

/// The address an entry gives, when it is a real one ("<ana@quay.example>" or the
/// entry itself): not a Notes name ("Sally Vance@RIDGE") or an X.500 path.
fn entry_address(entry: &str) -> Option<String> {
    let inner = match (entry.find('<'), entry.find('>')) {
        (Some(a), Some(b)) if a < b => &entry[a + 1..b],
        _ => entry,
    };
    let candidate = inner.trim().trim_matches('"').to_lowercase();
    let (local, domain) = candidate.split_once('@')?;
    let real = !local.is_empty()
        && domain.contains('.')
        && !candidate.contains(char::is_whitespace)
        && candidate.matches('@').count() == 1;
    real.then_some(candidate)
}

/// The `n` display names of an X-To/X-cc value, when it holds exactly `n`.
fn x_names(raw: &str, n: usize) -> Option<Vec<String>> {
    let raw = raw.replace(['\r', '\n', '\t'], " ");
    // Without <...> parts (X.500 paths, addresses); each name loses its "@SMTP@host".
    let pieces: Vec<String> = without_angles(&raw)
        .split(',')
        .map(x_name)
        .filter(|p| !p.is_empty())
        .collect();
    if pieces.len() == n {
        Some(pieces)
    } else if pieces.len() == 2 * n {
        // "Last, First" names.
        Some(
            pieces
                .chunks(2)
                .map(|p| format!("{}, {}", p[0], p[1]))
                .collect(),
        )
    } else {
        None
    }
}

/// Whether a display name may be that of an address: one of its words (two letters
/// or more) is in the address's local part.
fn plausible_name(name: &str, address: &str) -> bool {
    if name.contains('@') || name.len() > 80 {
        return false;
    }
    let local = address.split('@').next().unwrap_or("").to_lowercase();
    name.split(|c: char| !c.is_alphabetic())
        .filter(|w| w.len() >= 2)
        .any(|w| local.contains(&w.to_lowercase()))
}

/// text/plain preferred; HTML turned into text that keeps link targets.
fn body_text(msg: &Message) -> (String, BodyFormat) {
    let mut plain = Vec::new();
    let mut html = Vec::new();
    for &id in &msg.text_body {
        match msg.part(id).map(|p| &p.body) {
            Some(PartType::Text(t)) => plain.push(t.to_string()),
            Some(PartType::Html(h)) => html.push(html_to_text(h)),
            _ => {}
        }
    }
    if plain.iter().all(|t| t.trim().is_empty()) {
        for &id in &msg.html_body {
            if let Some(PartType::Html(h)) = msg.part(id).map(|p| &p.body) {
                html.push(html_to_text(h));
            }
        }
        if html.iter().any(|t| !t.trim().is_empty()) {
            return (html.join("\n\n"), BodyFormat::Html);
        }
    }
    if plain.is_empty() {
        return (String::new(), BodyFormat::Empty);
    }
    (plain.join("\n\n"), BodyFormat::Plain)
}

fn collect_attachments(msg: &Message, parsed: &mut ParsedMessage) {
    for (index, part) in msg.attachments().enumerate() {
        let mime_type = part
            .content_type()
            .map(|ct| match ct.subtype() {
                Some(sub) => format!("{}/{}", ct.ctype(), sub),
                None => ct.ctype().to_string(),
            })
            .unwrap_or_else(|| "application/octet-stream".to_string())
            .to_lowercase();
        let bytes = part.contents().to_vec();
        // Calendar programs send an invitation as an unnamed part; it is cited and
        // saved under the name other mail clients give it.
        let name = part
            .attachment_name()
            .map(|n| n.trim().to_string())
            .or_else(|| (mime_type == "text/calendar").then(|| "invite.ics".to_string()));
        parsed.attachments.push(AttachmentInfo {
            index: index as u32,
            name,
            mime_type,
            size: bytes.len() as u64,
        });
        parsed.attachment_bytes.push(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipient_names_come_from_x_to_and_x_cc_when_they_line_up() {
        let raw = b"Message-ID: <2@t>\nFrom: a@ridge.example\nTo: iris.fairweather@ridge.example, della.okonkwo@ridge.example\nCc: hbrevik@county.example, ines.rookwood@ridge.example\nSubject: s\nX-To: Fairweather, Iris </O=RIDGE/OU=NA/CN=RECIPIENTS/CN=Ifairweather>, Okonkwo, Della </O=RIDGE/CN=Dokonkwo>\nX-cc: \"Hal Brevik (E-mail)\" <hbrevik@county.example>@SMTP@ridgeXgate, Ines Rookwood\n\nHi\n";
        let p = parse_message(raw).expect("parses");
        let names: Vec<Option<String>> = p.to.iter().chain(&p.cc).map(|m| m.name.clone()).collect();
        assert_eq!(
            names,
            vec![
                Some("Fairweather, Iris".to_string()),
                Some("Okonkwo, Della".to_string()),
                Some("Hal Brevik".to_string()),
                Some("Ines Rookwood".to_string()),
            ]
        );
        // Lists that do not line up give no names.
        let raw = b"Message-ID: <3@t>\nFrom: a@ridge.example\nTo: x@ridge.example, y@ridge.example\nX-To: Only One\n\nHi\n";
        let p = parse_message(raw).expect("parses");
        assert!(p.to.iter().all(|m| m.name.is_none()));
    }

    #[test]
    fn a_name_that_is_not_the_address_s_gives_way_to_the_x_to_name() {
        let raw = b"Message-ID: <4@t>\nFrom: a@ridge.example\nTo: ada.quill@ridge.example, \n\tnote <.bram@ridge.example>\nX-To: Quill, Ada </O=RIDGE/CN=Aquill>, Bram Osei (E-mail) <bosei@else.example>\n\nHi\n";
        let p = parse_message(raw).expect("parses");
        let names: Vec<Option<&str>> = p.to.iter().map(|m| m.name.as_deref()).collect();
        assert_eq!(names, vec![Some("Quill, Ada"), Some("Bram Osei")]);
    }

    #[test]
    fn recipients_named_only_in_x_to_become_the_recipients() {
        let raw = b"Message-ID: <5@t>\nFrom: a@ridge.example\nSubject: s\nX-To: Sally Vance@RIDGE, Staff Notices@RIDGE <??SStaff Notices@RIDGE>\nX-cc: Bo Lund <bo.lund@else.example>\n\nHi\n";
        let p = parse_message(raw).expect("parses");
        let to: Vec<(Option<&str>, &str)> =
            p.to.iter()
                .map(|m| (m.name.as_deref(), m.address.as_str()))
                .collect();
        assert_eq!(
            to,
            vec![(Some("Sally Vance"), ""), (Some("Staff Notices"), "")]
        );
        assert_eq!(p.cc.len(), 1);
        assert_eq!(p.cc[0].address, "bo.lund@else.example");
        assert_eq!(p.cc[0].name.as_deref(), Some("Bo Lund"));
        // A group without members names no one, nor do bare names that may be
        // "Last, First" or two people.
        for x_to in ["undisclosed-recipients:, ", "Vance, Sally"] {
            let raw = format!("Message-ID: <6@t>\nFrom: a@ridge.example\nX-To: {x_to}\n\nHi\n");
            let p = parse_message(raw.as_bytes()).expect("parses");
            assert!(p.to.is_empty(), "{x_to}: {:?}", p.to);
        }
        // A To header of its own wins.
        let raw = b"Message-ID: <7@t>\nFrom: a@ridge.example\nTo: c@ridge.example\nX-To: Sally Vance@RIDGE\n\nHi\n";
        let p = parse_message(raw).expect("parses");
        assert_eq!(p.to.len(), 1);
        assert_eq!(p.to[0].address, "c@ridge.example");
    }

    #[test]
    fn reads_enron_headers_and_x_from_name() {
        let raw = b"Message-ID: <1.2.JavaMail@thyme>\nDate: Thu, 19 Oct 2000 08:33:00 -0700 (PDT)\nFrom: gordon.quennell@ridge.example\nTo: a@ridge.example, B <b@ridge.example>\nSubject: Re: gas\nX-From: Gordon R Quennell\n\nHello there\n";
        let m = parse_message(raw).expect("parses");
        assert_eq!(m.message_id.as_deref(), Some("1.2.JavaMail@thyme"));
        assert_eq!(m.from[0].address, "gordon.quennell@ridge.example");
        assert_eq!(m.from[0].name.as_deref(), Some("Gordon R Quennell"));
        assert_eq!(m.to.len(), 2);
        assert_eq!(m.subject, "Re: gas");
        assert_eq!(m.date, Some(971_969_580));
        assert_eq!(m.body.trim(), "Hello there");
        assert_eq!(m.body_format, BodyFormat::Plain);
    }

    #[test]
    fn reads_references_and_reply_to() {
        let raw =
            b"Message-ID: <c@x>\nIn-Reply-To: <b@x>\nReferences: <a@x> <b@x>\nSubject: s\n\nbody";
        let m = parse_message(raw).expect("parses");
        assert_eq!(m.in_reply_to, vec!["b@x"]);
        assert_eq!(m.references, vec!["a@x", "b@x"]);
    }

    #[test]
    fn html_only_mail_becomes_text_with_links() {
        let raw = b"Subject: h\nContent-Type: text/html; charset=utf-8\n\n<p>See <a href=\"https://example.org/x\">the report</a></p>";
        let m = parse_message(raw).expect("parses");
        assert_eq!(m.body_format, BodyFormat::Html);
        assert!(m.body.contains("the report"), "{}", m.body);
        assert!(m.body.contains("https://example.org/x"), "{}", m.body);
    }

    #[test]
    fn records_attachments_with_bytes() {
        let raw = b"Subject: a\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/plain\n\nsee attached\n--XX\nContent-Type: application/pdf; name=\"budget.pdf\"\nContent-Disposition: attachment; filename=\"budget.pdf\"\nContent-Transfer-Encoding: base64\n\nJVBERi0xLjQK\n--XX--\n";
        let m = parse_message(raw).expect("parses");
        assert_eq!(m.attachments.len(), 1);
        assert_eq!(m.attachments[0].name.as_deref(), Some("budget.pdf"));
        assert_eq!(m.attachments[0].mime_type, "application/pdf");
        assert_eq!(m.attachment_bytes[0], b"%PDF-1.4\n");
        assert!(m.body.contains("see attached"));
    }

    #[test]
    fn decodes_charsets() {
        let raw = b"Subject: =?iso-8859-1?q?caf=E9?=\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nd=E9j=E0 vu\n";
        let m = parse_message(raw).expect("parses");
        assert_eq!(m.subject, "caf\u{e9}");
        assert!(m.body.contains("d\u{e9}j\u{e0} vu"));
    }

    #[test]
    fn empty_input_is_an_error() {
        assert_eq!(parse_message(b"  \n\n").err(), Some(ParseError::Empty));
    }
}
