//! Invitations (`text/calendar` parts, `.ics` files) as one part per event, written
//! the way a person reads an invitation card:
//!
//! ```text
//! Event: Design review
//! When: Tuesday 12 March 2024, 15:00 to 16:00 UTC
//! Where: Room 4B
//! Organizer: Dana Whitfield <dana@example.org>
//! Attendees: Sam Ortiz (accepted); Priya Nair (not answered)
//! ```
//!
//! Each event also carries its version (`UID`, `SEQUENCE`, `DTSTAMP`, and whether
//! `METHOD:CANCEL` or `STATUS:CANCELLED` withdrew it), so that a later update or
//! cancellation of the same event supersedes the earlier invitation.

use crate::attach::located::{LocatedPart, LocatedText, OfficeLimits};
use crate::attach::pdf::PdfStatus;
use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};
use icalendar::{CalendarDateTime, Component, DatePerhapsTime, EventLike, Property};
use serde::{Deserialize, Serialize};

/// Where one version of an event stands among the others with its `UID`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventVersion {
    pub uid: String,
    pub sequence: u32,
    /// `DTSTAMP` (seconds since 1970): orders versions of one sequence.
    pub stamp: i64,
    /// The iTIP method of the calendar: "REQUEST", "REPLY", "CANCEL"...
    pub method: String,
    /// Cancelled by `METHOD:CANCEL` or `STATUS:CANCELLED`.
    pub cancelled: bool,
}

impl EventVersion {
    /// Orders versions: the greater is the later.
    pub fn order(&self) -> (u32, i64) {
        (self.sequence, self.stamp)
    }
}

/// An event as read from an invitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventCard {
    pub version: EventVersion,
    pub summary: String,
    /// The card's text, as stored and cited.
    pub text: String,
    /// The organiser's address, without `mailto:`.
    pub organizer: Option<String>,
    pub start: Option<String>,
}

/// The events of a calendar file, with their cards and versions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalendarText {
    pub text: LocatedText,
    pub events: Vec<EventCard>,
}

/// Reads every `VEVENT` of a calendar.
pub fn extract_calendar(bytes: &[u8], limits: &OfficeLimits) -> CalendarText {
    let failed = |status| CalendarText {
        text: LocatedText::failed(status),
        events: Vec::new(),
    };
    if bytes.len() > limits.max_bytes {
        return failed(PdfStatus::TooLarge {
            bytes: bytes.len(),
            limit: limits.max_bytes,
        });
    }
    let source = String::from_utf8_lossy(bytes);
    let calendar: icalendar::Calendar = match source.parse() {
        Ok(c) => c,
        Err(e) => {
            let first = e.to_string();
            let first = first.lines().next().unwrap_or("").trim().to_string();
            return failed(PdfStatus::Corrupt(format!(
                "not a readable calendar: {first}"
            )));
        }
    };
    let method = calendar
        .property_value("METHOD")
        .unwrap_or("PUBLISH")
        .trim()
        .to_ascii_uppercase();
    let events: Vec<EventCard> = calendar
        .events()
        .take(limits.max_parts)
        .map(|e| card(e, &method))
        .collect();
    if events.is_empty() {
        return failed(PdfStatus::Corrupt("the calendar holds no event".into()));
    }
    let several = events.len() > 1;
    let parts = events
        .iter()
        .enumerate()
        .map(|(i, e)| LocatedPart {
            place: if several {
                format!("event {}", i + 1)
            } else {
                "event".to_string()
            },
            text: e.text.clone(),
        })
        .collect();
    CalendarText {
        text: LocatedText {
            parts,
            units: events.len() as u32,
            status: PdfStatus::Ok,
        },
        events,
    }
}

fn card(event: &icalendar::Event, method: &str) -> EventCard {
    let summary = one_line(event.get_summary().unwrap_or("(no title)"));
    let cancelled = method == "CANCEL"
        || event
            .property_value("STATUS")
            .is_some_and(|s| s.trim().eq_ignore_ascii_case("CANCELLED"));
    let mut lines = vec![format!("Event: {summary}")];
    let start = event.get_start();
    if let Some(when) = start.as_ref().map(|s| when(s, event.get_end().as_ref())) {
        // A quote of the time alone must not read as if the event still takes place.
        let mark = if cancelled { " (cancelled)" } else { "" };
        lines.push(format!("When: {when}{mark}"));
    }
    if let Some(rule) = event.property_value("RRULE") {
        lines.push(format!("Repeats: {}", repeats(rule)));
    }
    if let Some(place) = event.get_location().map(one_line).filter(|l| !l.is_empty()) {
        lines.push(format!("Where: {place}"));
    }
    let organizer = event.properties().get("ORGANIZER");
    if let Some(o) = organizer {
        lines.push(format!("Organizer: {}", person(o)));
    }
    let attendees: Vec<String> = event
        .multi_properties()
        .get("ATTENDEE")
        .map(|list| list.iter().map(attendee).collect())
        .unwrap_or_default();
    if !attendees.is_empty() {
        lines.push(format!("Attendees: {}", attendees.join("; ")));
    }
    if cancelled {
        lines.push("Status: cancelled".to_string());
    } else if method == "REPLY" {
        lines.push("Status: a reply to the invitation".to_string());
    }
    if let Some(notes) = event
        .get_description()
        .map(one_line)
        .filter(|d| !d.is_empty())
    {
        lines.push(format!("Notes: {notes}"));
    }
    let stamp = event
        .get_timestamp()
        .or_else(|| event.get_last_modified())
        .map_or(0, |t| t.timestamp());
    EventCard {
        version: EventVersion {
            uid: event.get_uid().unwrap_or("").trim().to_string(),
            sequence: event.get_sequence().unwrap_or(0),
            stamp,
            method: method.to_string(),
            cancelled,
        },
        summary,
        text: lines.join("\n"),
        organizer: organizer.map(|o| address(o.value())),
        start: start.map(|s| when(&s, None)),
    }
}

/// "Tuesday 12 March 2024, 15:00 to 16:00 UTC", or the dates of an all-day event.
fn when(start: &DatePerhapsTime, end: Option<&DatePerhapsTime>) -> String {
    match (start, end) {
        (DatePerhapsTime::Date(d), None) => day(*d),
        (DatePerhapsTime::Date(d), Some(DatePerhapsTime::Date(e))) => {
            // DTEND of an all-day event is the day after its last.
            let last = e.pred_opt().unwrap_or(*e);
            if last <= *d {
                day(*d)
            } else {
                format!("{} to {}", day(*d), day(last))
            }
        }
        (DatePerhapsTime::Date(d), Some(_)) => day(*d),
        (DatePerhapsTime::DateTime(s), end) => {
            let (start_local, zone) = local(s);
            let mut out = format!(
                "{}, {}",
                day(start_local.date()),
                start_local.format("%H:%M")
            );
            if let Some(DatePerhapsTime::DateTime(e)) = end {
                let (end_local, _) = local(e);
                if end_local.date() == start_local.date() {
                    out.push_str(&format!(" to {}", end_local.format("%H:%M")));
                } else {
                    out.push_str(&format!(
                        " to {}, {}",
                        day(end_local.date()),
                        end_local.format("%H:%M")
                    ));
                }
            }
            if let Some(zone) = zone {
                out.push(' ');
                out.push_str(&zone);
            }
            if let (CalendarDateTime::WithTimezone { .. }, Some(utc)) = (s, utc_of(s)) {
                out.push_str(&format!(" ({} UTC)", utc.format("%H:%M")));
            }
            out
        }
    }
}

/// The time as the invitation gives it, and its zone's name.
fn local(t: &CalendarDateTime) -> (NaiveDateTime, Option<String>) {
    match t {
        CalendarDateTime::Floating(n) => (*n, None),
        CalendarDateTime::Utc(u) => (u.naive_utc(), Some("UTC".into())),
        CalendarDateTime::WithTimezone { date_time, tzid } => {
            (*date_time, Some(one_line(tzid.trim_matches('"'))))
        }
    }
}

/// The UTC instant of a time in a named zone, when the zone is known.
fn utc_of(t: &CalendarDateTime) -> Option<DateTime<Utc>> {
    let CalendarDateTime::WithTimezone { date_time, tzid } = t else {
        return None;
    };
    let zone: chrono_tz::Tz = tzid.trim_matches('"').parse().ok()?;
    let local = zone.from_local_datetime(date_time).earliest()?;
    let utc = local.with_timezone(&Utc);
    (utc.naive_utc() != *date_time).then_some(utc)
}

fn day(d: NaiveDate) -> String {
    d.format("%A %-d %B %Y").to_string()
}

/// An `RRULE` in words: "weekly on TU, 10 times".
fn repeats(rule: &str) -> String {
    let mut freq = String::new();
    let mut extra = Vec::new();
    for field in rule.split(';') {
        let Some((k, v)) = field.split_once('=') else {
            continue;
        };
        match k.trim().to_ascii_uppercase().as_str() {
            "FREQ" => freq = v.trim().to_ascii_lowercase(),
            "INTERVAL" if v.trim() != "1" => extra.push(format!("every {}", v.trim())),
            "BYDAY" => extra.push(format!("on {}", v.trim())),
            "COUNT" => extra.push(format!("{} times", v.trim())),
            "UNTIL" => extra.push(format!("until {}", v.trim())),
            _ => {}
        }
    }
    let mut out = if freq.is_empty() {
        rule.to_string()
    } else {
        freq
    };
    for e in extra {
        out.push_str(", ");
        out.push_str(&e);
    }
    out
}

/// "Name <address>" from a CAL-ADDRESS property and its `CN`.
fn person(p: &Property) -> String {
    let address = address(p.value());
    match p
        .params()
        .get("CN")
        .map(|c| one_line(c.value().trim_matches('"')))
    {
        Some(name) if !name.is_empty() && name != address => format!("{name} <{address}>"),
        _ => address,
    }
}

fn attendee(p: &Property) -> String {
    let status = match p
        .params()
        .get("PARTSTAT")
        .map(|s| s.value().to_ascii_uppercase())
        .as_deref()
    {
        Some("ACCEPTED") => "accepted",
        Some("DECLINED") => "declined",
        Some("TENTATIVE") => "tentative",
        Some("DELEGATED") => "delegated",
        _ => "not answered",
    };
    format!("{} ({status})", person(p))
}

/// A CAL-ADDRESS without its `mailto:` scheme.
pub(crate) fn address(value: &str) -> String {
    let v = value.trim();
    let v = v
        .get(..7)
        .filter(|p| p.eq_ignore_ascii_case("mailto:"))
        .map_or(v, |_| &v[7..]);
    v.trim().to_string()
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const INVITE: &str =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nMETHOD:REQUEST\r\n\
BEGIN:VEVENT\r\nUID:kiln-42@example.org\r\nSEQUENCE:1\r\nDTSTAMP:20250301T090000Z\r\n\
DTSTART;TZID=Europe/Lisbon:20250704T170000\r\nDTEND;TZID=Europe/Lisbon:20250704T183000\r\n\
SUMMARY:Kiln opening\\, summer batch\r\nLOCATION:Studio 2\r\n\
ORGANIZER;CN=Noor Haddad:mailto:noor@example.org\r\n\
ATTENDEE;CN=Ines Prado;PARTSTAT=ACCEPTED:mailto:ines@example.org\r\n\
ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:tom@example.org\r\n\
DESCRIPTION:Bring aprons.\\nGlazes are on the shelf.\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

    #[test]
    fn an_invitation_reads_as_a_card_with_its_version() {
        let out = extract_calendar(INVITE.as_bytes(), &OfficeLimits::default());
        assert_eq!(out.text.status, PdfStatus::Ok);
        assert_eq!(out.text.parts.len(), 1);
        assert_eq!(out.text.parts[0].place, "event");
        let text = &out.text.parts[0].text;
        assert!(
            text.starts_with("Event: Kiln opening, summer batch\n"),
            "{text}"
        );
        assert!(
            text.contains("When: Friday 4 July 2025, 17:00 to 18:30 Europe/Lisbon (16:00 UTC)"),
            "{text}"
        );
        assert!(text.contains("Where: Studio 2"));
        assert!(text.contains("Organizer: Noor Haddad <noor@example.org>"));
        assert!(text.contains(
            "Attendees: Ines Prado <ines@example.org> (accepted); tom@example.org (not answered)"
        ));
        assert!(text.contains("Notes: Bring aprons. Glazes are on the shelf."));
        let v = &out.events[0].version;
        assert_eq!((v.uid.as_str(), v.sequence), ("kiln-42@example.org", 1));
        assert_eq!(v.method, "REQUEST");
        assert!(!v.cancelled);
        assert_eq!(out.events[0].organizer.as_deref(), Some("noor@example.org"));
    }

    #[test]
    fn a_cancellation_says_so_and_all_day_events_give_their_days() {
        let cancel = INVITE
            .replace("METHOD:REQUEST", "METHOD:CANCEL")
            .replace("SEQUENCE:1", "SEQUENCE:2");
        let out = extract_calendar(cancel.as_bytes(), &OfficeLimits::default());
        assert!(out.events[0].version.cancelled);
        assert!(out.text.parts[0].text.contains("Status: cancelled"));
        assert!(out.text.parts[0].text.contains(
            "When: Friday 4 July 2025, 17:00 to 18:30 Europe/Lisbon (16:00 UTC) (cancelled)"
        ));
        let all_day = INVITE
            .replace(
                "DTSTART;TZID=Europe/Lisbon:20250704T170000",
                "DTSTART;VALUE=DATE:20250704",
            )
            .replace(
                "DTEND;TZID=Europe/Lisbon:20250704T183000",
                "DTEND;VALUE=DATE:20250706",
            );
        let out = extract_calendar(all_day.as_bytes(), &OfficeLimits::default());
        assert!(out.text.parts[0]
            .text
            .contains("When: Friday 4 July 2025 to Saturday 5 July 2025"));
    }

    #[test]
    fn a_damaged_calendar_is_refused_with_a_reason() {
        let out = extract_calendar(
            b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n",
            &OfficeLimits::default(),
        );
        assert!(
            matches!(out.text.status, PdfStatus::Corrupt(_)),
            "{:?}",
            out.text.status
        );
        let empty = extract_calendar(
            b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n",
            &OfficeLimits::default(),
        );
        assert!(matches!(empty.text.status, PdfStatus::Corrupt(_)));
    }
}
