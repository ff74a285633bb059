//! Answering an invitation (RFC 5546, iTIP): the `REPLY` an attendee sends the
//! organiser. It names the event by its `UID` and `SEQUENCE`, repeats its time and
//! summary, and carries one `ATTENDEE` (the user) with the answer as `PARTSTAT`.

use chrono::{DateTime, Utc};
use icalendar::{Calendar, Component, Property};
use serde::{Deserialize, Serialize};

/// The user's answer to an invitation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum InviteAnswer {
    Accepted,
    Tentative,
    Declined,
}

impl InviteAnswer {
    /// The `PARTSTAT` value.
    pub fn partstat(self) -> &'static str {
        match self {
            InviteAnswer::Accepted => "ACCEPTED",
            InviteAnswer::Tentative => "TENTATIVE",
            InviteAnswer::Declined => "DECLINED",
        }
    }

    /// "accepted", "tentatively accepted", "declined".
    pub fn verb(self) -> &'static str {
        match self {
            InviteAnswer::Accepted => "accepted",
            InviteAnswer::Tentative => "tentatively accepted",
            InviteAnswer::Declined => "declined",
        }
    }

    /// "Accept", "Tentatively accept", "Decline": what the user is asked to confirm.
    pub fn imperative(self) -> &'static str {
        match self {
            InviteAnswer::Accepted => "Accept",
            InviteAnswer::Tentative => "Tentatively accept",
            InviteAnswer::Declined => "Decline",
        }
    }

    /// The subject's prefix, as calendar programs write it.
    pub fn subject_prefix(self) -> &'static str {
        match self {
            InviteAnswer::Accepted => "Accepted",
            InviteAnswer::Tentative => "Tentative",
            InviteAnswer::Declined => "Declined",
        }
    }
}

/// Why an invitation cannot be answered.
#[derive(Debug, thiserror::Error)]
pub enum ItipError {
    #[error("the invitation could not be read: {0}")]
    Unreadable(String),
    #[error("the invitation holds no event")]
    NoEvent,
    #[error("the event has no UID, so a reply could not name it")]
    NoUid,
    #[error("the invitation was cancelled; there is nothing to answer")]
    Cancelled,
}

/// A reply, and what the mail carrying it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The `text/calendar` body, method `REPLY`.
    pub calendar: String,
    pub uid: String,
    pub summary: String,
    /// The organiser's address, to send the reply to.
    pub organizer: Option<String>,
}

/// The reply of `attendee` (address, and name when known) to the first event of
/// the invitation `request`.
pub fn reply(
    request: &[u8],
    attendee: (&str, Option<&str>),
    answer: InviteAnswer,
    now: DateTime<Utc>,
) -> Result<Reply, ItipError> {
    let source = String::from_utf8_lossy(request);
    let parsed: Calendar = source
        .parse()
        .map_err(|e: String| ItipError::Unreadable(e.lines().next().unwrap_or("").to_string()))?;
    if parsed
        .property_value("METHOD")
        .is_some_and(|m| m.trim().eq_ignore_ascii_case("CANCEL"))
    {
        return Err(ItipError::Cancelled);
    }
    let event = parsed.events().next().ok_or(ItipError::NoEvent)?;
    let uid = event
        .get_uid()
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .ok_or(ItipError::NoUid)?;
    let summary = event
        .get_summary()
        .unwrap_or("(no title)")
        .trim()
        .to_string();

    let mut out = icalendar::Event::with_uid(uid);
    out.sequence(event.get_sequence().unwrap_or(0))
        .timestamp(now)
        .summary(&summary);
    for key in ["DTSTART", "DTEND", "DURATION", "RECURRENCE-ID", "ORGANIZER"] {
        if let Some(p) = event.properties().get(key) {
            out.append_property(p.clone());
        }
    }
    let mut me = Property::new("ATTENDEE", format!("mailto:{}", attendee.0));
    me.append_parameter(("PARTSTAT", answer.partstat()));
    if let Some(name) = attendee.1.filter(|n| !n.trim().is_empty()) {
        me.append_parameter(("CN", name.trim()));
    }
    out.append_property(me);
    let mut calendar = Calendar::new();
    calendar.append_property(Property::new("METHOD", "REPLY"));
    calendar.push(out.done());
    let organizer = event
        .properties()
        .get("ORGANIZER")
        .map(|o| crate::attach::calendar::address(o.value()));
    Ok(Reply {
        calendar: calendar.to_string(),
        uid: uid.to_string(),
        summary,
        organizer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const REQUEST: &str =
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\nMETHOD:REQUEST\r\n\
BEGIN:VEVENT\r\nUID:tide-9@example.org\r\nSEQUENCE:3\r\nDTSTAMP:20250301T090000Z\r\n\
DTSTART;TZID=Europe/Oslo:20250610T080000\r\nDTEND;TZID=Europe/Oslo:20250610T090000\r\n\
SUMMARY:Tide survey\r\nORGANIZER;CN=Siv Lund:mailto:siv@example.org\r\n\
ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:kai@example.org\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";

    #[test]
    fn a_reply_names_the_event_and_carries_the_answer() {
        let now = DateTime::from_timestamp(1_750_000_000, 0).expect("time");
        let r = reply(
            REQUEST.as_bytes(),
            ("kai@example.org", Some("Kai Berg")),
            InviteAnswer::Tentative,
            now,
        )
        .expect("reply");
        assert_eq!(r.uid, "tide-9@example.org");
        assert_eq!(r.organizer.as_deref(), Some("siv@example.org"));
        let parsed: Calendar = r.calendar.parse().expect("the reply parses");
        assert_eq!(parsed.property_value("METHOD"), Some("REPLY"));
        let e = parsed.events().next().expect("an event");
        assert_eq!(e.get_uid(), Some("tide-9@example.org"));
        assert_eq!(e.get_sequence(), Some(3));
        assert_eq!(e.get_timestamp(), Some(now));
        assert_eq!(e.get_summary(), Some("Tide survey"));
        assert!(e.properties().contains_key("DTSTART"));
        let attendees = &e.multi_properties()["ATTENDEE"];
        assert_eq!(attendees.len(), 1, "only the answering attendee");
        assert_eq!(attendees[0].value(), "mailto:kai@example.org");
        assert_eq!(attendees[0].params()["PARTSTAT"].value(), "TENTATIVE");
    }

    #[test]
    fn a_cancellation_or_a_damaged_invitation_cannot_be_answered() {
        let now = Utc::now();
        let cancel = REQUEST.replace("METHOD:REQUEST", "METHOD:CANCEL");
        assert!(matches!(
            reply(
                cancel.as_bytes(),
                ("a@b", None),
                InviteAnswer::Accepted,
                now
            ),
            Err(ItipError::Cancelled)
        ));
        assert!(reply(
            b"BEGIN:VCALENDAR\r\n",
            ("a@b", None),
            InviteAnswer::Accepted,
            now
        )
        .is_err());
    }
}
