//! Answering an invitation: `accept` drafts an iTIP reply (RFC 5546) to the
//! organiser, sent through a sendmail command (a script that keeps what it
//! receives); the reply names the event by UID and SEQUENCE and carries the user as
//! the one attendee with the answer; the invitation's card shows the answer after.
//! A cancelled invitation cannot be answered.

mod common;

use quoth::attach::itip::InviteAnswer;
use quoth::attach::PdfLimits;
use quoth::config::ComposeConfig;
use quoth::engine::mailbox::compose::{send_draft, start_draft, ComposeSettings};
use quoth::mail::compose::DraftKind;
use quoth::mail::model::MessageKey;
use std::path::Path;
use std::sync::atomic::AtomicBool;

fn invitation(id: &str, method: &str) -> String {
    format!(
        "From: Noor Haddad <noor@clayworks.example>\r\nTo: Ines Prado <ines@clayworks.example>\r\n\
         Subject: Invitation: Kiln safety briefing\r\nDate: Mon, 3 Mar 2025 08:00:00 +0000\r\n\
         Message-ID: <{id}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/alternative; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain\r\n\r\nYou are invited.\r\n\
         --b\r\nContent-Type: text/calendar; method={method}\r\n\r\n\
         BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Clayworks//EN\r\nMETHOD:{method}\r\n\
         BEGIN:VEVENT\r\nUID:briefing-{id}\r\nSEQUENCE:2\r\nDTSTAMP:20250303T080000Z\r\n\
         DTSTART:20250310T090000Z\r\nDTEND:20250310T093000Z\r\nSUMMARY:Kiln safety briefing\r\n\
         ORGANIZER;CN=Noor Haddad:mailto:noor@clayworks.example\r\n\
         ATTENDEE;CN=Ines Prado;PARTSTAT=NEEDS-ACTION:mailto:ines@clayworks.example\r\n\
         END:VEVENT\r\nEND:VCALENDAR\r\n--b--\r\n"
    )
}

fn key_of(engine: &quoth::engine::Engine, id: &str) -> MessageKey {
    engine
        .store()
        .messages()
        .filter_map(Result::ok)
        .find(|m| m.message_id.as_deref() == Some(id))
        .map(|m| m.key)
        .expect("stored")
}

fn sendmail_script(dir: &Path, outbox: &Path) -> String {
    let script = dir.join("sendmail");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > \"{}/$(date +%s%N).eml\"\n",
            outbox.display()
        ),
    )
    .expect("script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    format!("{} -t", script.display())
}

#[test]
fn an_accepted_invitation_sends_an_itip_reply_and_the_card_shows_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let inbox = tmp.path().join("mail/inbox");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).expect("maildir");
    }
    std::fs::write(
        inbox.join("cur/1.a:2,S"),
        invitation("brief-1@clayworks.example", "REQUEST"),
    )
    .expect("write");
    std::fs::write(
        inbox.join("cur/2.a:2,S"),
        invitation("brief-2@clayworks.example", "CANCEL"),
    )
    .expect("write");
    let outbox = tmp.path().join("outbox");
    std::fs::create_dir_all(&outbox).expect("outbox");
    let sendmail = sendmail_script(tmp.path(), &outbox);
    let data = tmp.path().join("data");
    let mut engine = common::open(&data);
    common::ingest(&mut engine, &[tmp.path().join("mail")]);
    engine
        .extract_attachments(&PdfLimits::default(), &AtomicBool::new(false), &mut |_| {})
        .expect("attachment jobs run");
    let settings = ComposeSettings::new(
        ComposeConfig {
            from: Some("Ines Prado <ines@clayworks.example>".into()),
            sendmail: Some(sendmail),
            ..ComposeConfig::default()
        },
        &[],
    );
    let key = key_of(&engine, "brief-1@clayworks.example");
    let kind = DraftKind::Answer(InviteAnswer::Accepted);
    let draft = start_draft(engine.store(), &data, &settings, kind, Some(&key)).expect("draft");
    send_draft(
        engine.store(),
        &data,
        &settings,
        &draft.path,
        Some((&key, kind)),
    )
    .expect("sent");

    let sent: Vec<Vec<u8>> = std::fs::read_dir(&outbox)
        .expect("outbox")
        .map(|e| std::fs::read(e.expect("entry").path()).expect("read"))
        .collect();
    assert_eq!(sent.len(), 1);
    let raw = String::from_utf8_lossy(&sent[0]).into_owned();
    let mail = quoth::mail::parse::parse_message(&sent[0]).expect("the reply parses");
    assert_eq!(mail.subject, "Accepted: Kiln safety briefing");
    assert_eq!(
        mail.to[0].address, "noor@clayworks.example",
        "to the organiser"
    );
    assert_eq!(
        mail.in_reply_to,
        vec!["brief-1@clayworks.example".to_string()]
    );
    // iMIP (RFC 6047): the calendar part names its method.
    assert!(
        raw.to_ascii_lowercase()
            .contains("content-type: text/calendar; method=reply"),
        "{raw}"
    );
    let ics = mail
        .attachments
        .iter()
        .position(|a| a.mime_type == "text/calendar")
        .map(|i| String::from_utf8_lossy(&mail.attachment_bytes[i]).into_owned())
        .expect("a calendar part");
    // RFC 5546 3.2.3: METHOD:REPLY; the event's UID, SEQUENCE and DTSTAMP; the
    // organiser; one ATTENDEE, the replying user, with PARTSTAT.
    use icalendar::Component;
    let calendar: icalendar::Calendar = ics.parse().expect("the reply's calendar parses");
    assert_eq!(calendar.property_value("METHOD"), Some("REPLY"));
    let event = calendar.events().next().expect("an event");
    assert_eq!(event.get_uid(), Some("briefing-brief-1@clayworks.example"));
    assert_eq!(event.get_sequence(), Some(2));
    assert!(event.get_timestamp().is_some());
    assert_eq!(
        event.properties()["ORGANIZER"].value(),
        "mailto:noor@clayworks.example"
    );
    let attendees = &event.multi_properties()["ATTENDEE"];
    assert_eq!(attendees.len(), 1);
    assert_eq!(attendees[0].value(), "mailto:ines@clayworks.example");
    assert_eq!(attendees[0].params()["PARTSTAT"].value(), "ACCEPTED");

    // The invitation's card shows the answer; the original is marked replied.
    let msg = engine
        .store()
        .message(&key)
        .expect("store")
        .expect("message");
    let states = engine.attachment_states(&msg).expect("states");
    let card = states.iter().find_map(|s| s.card.clone()).expect("a card");
    assert!(card.contains("Event: Kiln safety briefing"), "{card}");
    assert!(card.contains("You accepted on "), "{card}");
    assert!(msg.flags.contains('R'), "{:?}", msg.flags);

    // A cancellation cannot be answered, and nothing is sent.
    let cancelled = key_of(&engine, "brief-2@clayworks.example");
    let err = start_draft(
        engine.store(),
        &data,
        &settings,
        DraftKind::Answer(InviteAnswer::Declined),
        Some(&cancelled),
    )
    .expect_err("refused");
    assert!(err.to_string().contains("cancelled"), "{err}");
    assert_eq!(std::fs::read_dir(&outbox).expect("outbox").count(), 1);
}
