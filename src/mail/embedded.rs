//! Messages inside a message: the originals a forward or a reply carries below its
//! own text (Lotus Notes "---- Forwarded by ... ----" and "Name on DATE / To: /
//! Subject:" blocks, Outlook "-----Original Message----- / From: / Sent:", Gmail
//! "---------- Forwarded message ---------"). Each one's text is what its own author
//! wrote: citable as theirs, with the author and date its header gives, when the
//! original message itself is not in the store.
//!
//! Only text under a header that names its author is taken; `>`-quoted lines are
//! left out (a reply quotes mail the store usually holds).

use super::clean::{
    ends_with_datetime, header_field, is_blank, is_datetime_line, is_forward_marker,
    is_lotus_header, is_original_message, is_outlook_block, is_quote_line, split_lines, Line,
    Segment, SegmentKind,
};
use serde::{Deserialize, Serialize};

/// How the outer message carries the original.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Carried {
    Forwarded,
    Quoted,
}

impl Carried {
    pub fn label(self) -> &'static str {
        match self {
            Carried::Forwarded => "forwarded",
            Carried::Quoted => "quoted",
        }
    }
}

/// One original found in a body: its author, date and subject as its header gives
/// them, and the byte span of its text in the body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedMessage {
    pub author: String,
    /// The date as written in the header.
    pub date: Option<String>,
    /// The date as unix seconds, when it could be read.
    pub timestamp: Option<i64>,
    pub subject: Option<String>,
    pub carried: Carried,
    pub start: usize,
    pub end: usize,
}

/// The originals carried in the quoted and forwarded tail of a body.
pub fn embedded_messages(body: &str, segments: &[Segment]) -> Vec<EmbeddedMessage> {
    let Some(tail) = segments
        .iter()
        .find(|s| matches!(s.kind, SegmentKind::Quoted | SegmentKind::Forwarded))
    else {
        return Vec::new();
    };
    let lines = split_lines(body);
    let first = lines
        .iter()
        .position(|l| l.start >= tail.start)
        .unwrap_or(lines.len());
    let mut out = Vec::new();
    let mut carried = Carried::Quoted;
    let mut i = first;
    while i < lines.len() {
        if !is_header_start(&lines, i) {
            i += 1;
            continue;
        }
        if is_forward_marker(lines[i].text) {
            carried = Carried::Forwarded;
        }
        let Some(header) = read_header(&lines, i) else {
            i += 1;
            continue;
        };
        let body_end = (header.end..lines.len())
            .find(|&j| is_header_start(&lines, j))
            .unwrap_or(lines.len());
        if let (Some(author), Some((start, end))) =
            (header.author, text_span(&lines[header.end..body_end]))
        {
            let words = body[start..end].split_whitespace().count();
            if words >= 3 {
                out.push(EmbeddedMessage {
                    author,
                    timestamp: header.date.as_deref().and_then(parse_date),
                    date: header.date,
                    subject: header.subject,
                    carried,
                    start,
                    end,
                });
            }
        }
        i = body_end.max(i + 1);
    }
    out
}

fn is_header_start(lines: &[Line], i: usize) -> bool {
    let t = lines[i].text;
    is_forward_marker(t)
        || is_original_message(t)
        || is_outlook_block(lines, i, true)
        || is_lotus_header(lines, i)
        || (header_field(t, "from:") && ends_with_datetime(t))
}

struct Header {
    /// The first line after the header.
    end: usize,
    author: Option<String>,
    date: Option<String>,
    subject: Option<String>,
}

/// Reads the header block that starts at line `i` (a marker line, then the fields).
fn read_header(lines: &[Line], i: usize) -> Option<Header> {
    let mut j = i;
    // The marker, wrapped over two lines ("... on 12/12/2000 \n12:01 PM ------").
    if is_forward_marker(lines[j].text) || is_original_message(lines[j].text) {
        j += 1;
        if lines
            .get(j)
            .is_some_and(|l| l.text.trim_end().ends_with("---") && l.text.len() < 60)
        {
            j += 1;
        }
    }
    let (mut author, mut date, mut subject) = (None, None, None);
    let mut fields = 0;
    let mut last_field = "";
    let limit = (j + 24).min(lines.len());
    while j < limit {
        let t = lines[j].text.trim();
        if t.is_empty() {
            if fields > 0 && (subject.is_some() || last_field != "to") {
                j += 1;
                break;
            }
            j += 1;
            continue;
        }
        if let Some(v) = field_value(t, "from:") {
            let (name, when) = split_on_date(v);
            author = clean_author(name);
            if when.is_some() {
                date = when;
            }
            fields += 1;
            last_field = "from";
        } else if let Some(v) = field_value(t, "sent:").or_else(|| field_value(t, "date:")) {
            date = Some(v.to_string());
            fields += 1;
            last_field = "date";
        } else if let Some(v) = field_value(t, "subject:") {
            subject = Some(v.to_string()).filter(|s| !s.is_empty());
            fields += 1;
            last_field = "subject";
        } else if ["to:", "cc:", "bcc:", "sent by:"]
            .iter()
            .any(|f| header_field(t, f))
        {
            fields += 1;
            last_field = "to";
        } else if fields == 0 && author.is_none() {
            // A Lotus name line: "Name <addr> on DATE", or "Name" then a date line.
            if ends_with_datetime(t) {
                let (name, when) = split_on_date(t);
                author = clean_author(name);
                date = when;
            } else if lines.get(j + 1).is_some_and(|n| is_datetime_line(n.text)) {
                author = clean_author(t);
                date = Some(lines[j + 1].text.trim().to_string());
                j += 1;
            } else {
                return None;
            }
        } else if fields > 0 && last_field == "to" || last_field == "subject" {
            // A wrapped recipient list or subject line.
        } else {
            break;
        }
        j += 1;
    }
    (fields > 0).then_some(Header {
        end: j.min(lines.len()),
        author,
        date,
        subject,
    })
}

fn field_value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let s = line.trim_start().trim_start_matches('*');
    let head = s.get(..name.len())?;
    head.eq_ignore_ascii_case(name)
        .then(|| s[name.len()..].trim().trim_start_matches('*').trim())
}

/// "Jeff Smith <j@x.com> on 03/01/2001 05:12 PM" → ("Jeff Smith <j@x.com>", date);
/// "Mara Quint @ ACME   04/09/2003 10:40 AM" likewise.
fn split_on_date(text: &str) -> (&str, Option<String>) {
    let t = text.trim();
    if let Some(at) = t.rfind(" on ") {
        let when = t[at + 4..].trim();
        if when.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return (&t[..at], Some(when.to_string()));
        }
    }
    if ends_with_datetime(t) {
        // The date after a wide gap.
        if let Some(gap) = t.find("  ") {
            return (&t[..gap], Some(t[gap..].trim().to_string()));
        }
    }
    (t, None)
}

/// The name in an author field: without the address, the mailto, the quotes and
/// the Lotus Notes routing ("Tomas R Brandt/NYC/ACME@ACME" → "Tomas R Brandt").
pub fn clean_author(raw: &str) -> Option<String> {
    let mut s = raw.trim().to_string();
    for open in ['<', '['] {
        if let Some(i) = s.find(open) {
            let before = s[..i].trim();
            if !before.is_empty() {
                s = before.to_string();
            }
        }
    }
    let s = s.split(" @ ").next().unwrap_or("");
    let s = match s.find('/') {
        Some(i) if !s[..i].contains('@') => &s[..i],
        _ => s,
    };
    let s = match s.find('@') {
        // A bare address is an author too; a Lotus "Name@ORG" is its name.
        Some(i) if s[..i].contains(' ') => &s[..i],
        _ => s,
    };
    let s = s.trim().trim_matches(['"', '\'']).trim();
    (!s.is_empty() && s.len() <= 80 && s.chars().any(char::is_alphabetic)).then(|| s.to_string())
}

/// The span of the non-blank, unquoted text of an original's lines.
fn text_span(lines: &[Line]) -> Option<(usize, usize)> {
    let kept: Vec<&Line> = lines
        .iter()
        .take_while(|l| !is_quote_line(l.text))
        .filter(|l| !is_blank(l.text))
        .collect();
    let first = kept.first()?;
    let last = kept.last()?;
    let end = last.start + last.text.trim_end().len();
    let start = first.start + (first.text.len() - first.text.trim_start().len());
    (end > start).then_some((start, end))
}

/// Reads the usual header date forms: "03/01/2001 05:12:33 PM", "12/13/00 06:01 AM",
/// "Thursday, March 01, 2001 2:16 PM", "Mon, 5 Mar 2001 14:03:00 -0600".
fn parse_date(text: &str) -> Option<i64> {
    use chrono::NaiveDateTime;
    // A trailing time zone name ("CST") is dropped; AM and PM stay.
    let t = text.trim();
    let t = match t.rsplit_once(' ') {
        Some((rest, zone))
            if (3..=4).contains(&zone.len())
                && zone.chars().all(|c| c.is_ascii_uppercase())
                && zone != "AM"
                && zone != "PM" =>
        {
            rest.trim()
        }
        _ => t,
    };
    for f in [
        "%m/%d/%Y %I:%M:%S %p",
        "%m/%d/%Y %I:%M %p",
        "%m/%d/%y %I:%M:%S %p",
        "%m/%d/%y %I:%M %p",
        "%A, %B %d, %Y %I:%M %p",
        "%A, %B %d, %Y %I:%M:%S %p",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(t, f) {
            return Some(d.and_utc().timestamp());
        }
    }
    chrono::DateTime::parse_from_rfc2822(text.trim())
        .ok()
        .map(|d| d.timestamp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mail::clean::segment_body;

    fn originals(body: &str) -> Vec<(String, Option<String>, String, Carried)> {
        embedded_messages(body, &segment_body(body))
            .into_iter()
            .map(|e| {
                (
                    e.author,
                    e.date,
                    body[e.start..e.end].to_string(),
                    e.carried,
                )
            })
            .collect()
    }

    #[test]
    fn a_lotus_forward_names_its_author_and_date() {
        let body = "Ines,\n\nWorth a look.\n\nTom\n\n---------------------- Forwarded by Olav B Hart/NYC/ACME on 04/09/2003 \n10:52 AM ---------------------------\nFrom: Mara Quint@ACME on 04/09/2003 10:40 AM EST\nTo: Ines M Duval/NYC/ACME@ACME, Ravi Shah/Corp/Acme@ACME, Lena W \nOrtiz/NYC/ACME@ACME\ncc:  \nSubject: Launch outline\n\nHere is a first outline for the launch.\nTell me what to change.\n";
        let got = originals(body);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].0, "Mara Quint");
        assert_eq!(got[0].1.as_deref(), Some("04/09/2003 10:40 AM EST"));
        assert_eq!(
            got[0].2,
            "Here is a first outline for the launch.\nTell me what to change."
        );
        assert_eq!(got[0].3, Carried::Forwarded);
    }

    #[test]
    fn outlook_originals_in_a_chain_each_have_their_author() {
        let body = "Sounds good.\n\n-----Original Message-----\nFrom: Smith, Jeff [mailto:jsmith@example.com]\nSent: Thursday, March 01, 2001 2:16 PM\nTo: Lee, Pat\nSubject: RE: rent roll\n\nThe rent roll for March shows two vacancies.\n\n-----Original Message-----\nFrom: Lee, Pat\nSent: Wednesday, February 28, 2001 9:00 AM\nTo: Smith, Jeff\nSubject: rent roll\n\nCan you send the rent roll for March?\n";
        let got = originals(body);
        let authors: Vec<&str> = got.iter().map(|g| g.0.as_str()).collect();
        assert_eq!(authors, ["Smith, Jeff", "Lee, Pat"], "{got:?}");
        assert_eq!(got[0].2, "The rent roll for March shows two vacancies.");
        assert_eq!(got[0].3, Carried::Quoted);
        assert!(embedded_messages(body, &segment_body(body))[0]
            .timestamp
            .is_some());
    }

    #[test]
    fn authors_lose_their_routing() {
        assert_eq!(
            clean_author("Tomas R Brandt/NYC/ACME@ACME").as_deref(),
            Some("Tomas R Brandt")
        );
        assert_eq!(
            clean_author("\"Dana Mills\" <dana@x.com>").as_deref(),
            Some("Dana Mills")
        );
        assert_eq!(
            clean_author("Odette K Varga @ NORTHWIND").as_deref(),
            Some("Odette K Varga")
        );
        assert_eq!(
            clean_author("jsmith@example.com").as_deref(),
            Some("jsmith@example.com")
        );
    }

    #[test]
    fn a_body_without_a_tail_carries_nothing() {
        assert!(originals("Just a note.\nThanks").is_empty());
    }
}
