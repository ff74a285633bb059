use super::*;
use crate::mail::parse::parse_message;

fn mb(name: Option<&str>, address: &str) -> Mailbox {
    Mailbox {
        name: name.map(str::to_string),
        address: address.to_string(),
    }
}

fn original() -> Original {
    Original {
        message_id: Some("m2@hill.example".into()),
        references: vec!["m1@hill.example".into()],
        in_reply_to: vec!["m1@hill.example".into()],
        date: Some(1_700_000_000),
        from: vec![mb(Some("Greta Holm"), "greta@hill.example")],
        reply_to: Vec::new(),
        to: vec![
            mb(Some("Me Myself"), "me@home.example"),
            mb(None, "ivo@hill.example"),
        ],
        cc: vec![
            mb(Some("Greta Holm"), "greta@hill.example"),
            mb(None, "ola@dale.example"),
        ],
        subject: "Orchard fence".into(),
        body: "The posts arrive Friday.\n\n> earlier words\nBring gloves.\n".into(),
    }
}

const ME: &str = "Me Myself <me@home.example>";

#[test]
fn a_reply_goes_to_the_sender_with_threading_and_the_quoted_text() {
    let d = Draft::reply(&original(), ME, &["me@home.example".into()], false);
    assert_eq!(d.to, "Greta Holm <greta@hill.example>");
    assert_eq!(d.cc, "");
    assert_eq!(d.subject, "Re: Orchard fence");
    assert_eq!(d.in_reply_to, "<m2@hill.example>");
    assert_eq!(d.references, "<m1@hill.example> <m2@hill.example>");
    assert!(d.body.contains("Greta Holm wrote:"), "{}", d.body);
    assert!(d
        .body
        .contains("> The posts arrive Friday.\n>\n>> earlier words\n> Bring gloves.\n"));
}

#[test]
fn reply_to_wins_over_the_sender_and_re_is_not_doubled() {
    let mut o = original();
    o.reply_to = vec![mb(None, "list@hill.example")];
    o.subject = "RE: Orchard fence".into();
    let d = Draft::reply(&o, ME, &[], false);
    assert_eq!(d.to, "list@hill.example");
    assert_eq!(d.subject, "RE: Orchard fence");
}

#[test]
fn reply_all_copies_everyone_once_but_the_user() {
    let d = Draft::reply(&original(), ME, &["me@home.example".into()], true);
    assert_eq!(d.to, "Greta Holm <greta@hill.example>");
    assert_eq!(d.cc, "ivo@hill.example, ola@dale.example");
}

#[test]
fn a_reply_to_ones_own_message_goes_to_its_recipients() {
    let mut o = original();
    o.from = vec![mb(None, "me@home.example")];
    o.to = vec![mb(None, "ivo@hill.example")];
    let d = Draft::reply(&o, ME, &["me@home.example".into()], false);
    assert_eq!(d.to, "ivo@hill.example");
}

#[test]
fn a_forward_carries_the_original_headers_and_text() {
    let d = Draft::forward(&original(), ME);
    assert_eq!(d.subject, "Fwd: Orchard fence");
    assert_eq!(d.to, "");
    assert!(d.body.contains("---------- Forwarded message ----------"));
    assert!(d.body.contains("From: Greta Holm <greta@hill.example>"));
    assert!(d.body.contains("Subject: Orchard fence"));
    assert!(d.body.contains("Bring gloves."));
    assert_eq!(d.in_reply_to, "");
}

#[test]
fn the_text_reads_back_as_the_same_draft() {
    let d = Draft::reply(&original(), ME, &[], true);
    let back = Draft::from_text(&d.to_text()).expect("reads back");
    assert_eq!(back, d);
}

#[test]
fn edited_text_with_continuations_and_other_headers_is_read() {
    let text = "from: A <a@x.example>\nTo: b@y.example,\n  c@z.example\nX-Mood: calm\nSubject: hi\n\nline one\n\nline three\n";
    let d = Draft::from_text(text).expect("reads");
    assert_eq!(d.from, "A <a@x.example>");
    assert_eq!(d.to, "b@y.example, c@z.example");
    assert_eq!(d.extra, vec![("X-Mood".to_string(), "calm".to_string())]);
    assert_eq!(d.body, "line one\n\nline three\n");
    assert_eq!(d.recipients().expect("addresses").len(), 2);
}

#[test]
fn text_without_headers_or_with_a_broken_header_line_is_refused() {
    assert_eq!(Draft::from_text("\n\nbody"), Err(ComposeError::NoHeaders));
    let err = Draft::from_text("To: a@x.example\nthis is not a header\n\nbody").unwrap_err();
    assert!(
        matches!(err, ComposeError::BadHeaderLine { line: 2, .. }),
        "{err}"
    );
}

#[test]
fn the_built_message_parses_back_with_every_header_and_character() {
    let mut d = Draft::reply(&original(), "Åsa Öberg <asa@home.example>", &[], true);
    d.subject = "Re: Orchard fence — naïve über plan".into();
    let long = "word ".repeat(60);
    d.body = format!("Grüße, see you at 7.\n{long}\n\n{}", d.body);
    let raw = d
        .build(1_700_000_100, "new1@home.example", true, &[])
        .expect("builds");
    let m = parse_message(&raw).expect("parses");
    assert_eq!(m.from, vec![mb(Some("Åsa Öberg"), "asa@home.example")]);
    assert_eq!(m.to, vec![mb(Some("Greta Holm"), "greta@hill.example")]);
    assert_eq!(m.cc.len(), 3);
    assert_eq!(m.subject, "Re: Orchard fence — naïve über plan");
    assert_eq!(m.message_id.as_deref(), Some("new1@home.example"));
    assert_eq!(m.in_reply_to, vec!["m2@hill.example"]);
    assert_eq!(m.references, vec!["m1@hill.example", "m2@hill.example"]);
    assert_eq!(m.date, Some(1_700_000_100));
    assert_eq!(m.body.replace("\r\n", "\n").trim_end(), d.body.trim_end());
    // No line of the message is longer than RFC 5322 allows.
    let text = String::from_utf8_lossy(&raw);
    assert!(text.lines().all(|l| l.len() <= 998));
}

#[test]
fn a_message_to_send_needs_a_sender_and_a_recipient() {
    let mut d = Draft::new_message(ME);
    assert_eq!(d.build(1, "i@x", true, &[]), Err(ComposeError::NoRecipient));
    assert!(
        d.build(1, "i@x", false, &[]).is_ok(),
        "a draft may have no recipient yet"
    );
    d.to = "not an address".into();
    assert!(matches!(
        d.build(1, "i@x", true, &[]),
        Err(ComposeError::BadAddress { header: "To", .. })
    ));
    d.to = "b@y.example".into();
    d.from = String::new();
    assert_eq!(d.build(1, "i@x", true, &[]), Err(ComposeError::NoFrom));
    d.from = "a@x.example, c@z.example".into();
    assert!(matches!(
        d.build(1, "i@x", true, &[]),
        Err(ComposeError::BadFrom(_))
    ));
}

#[test]
fn attach_lines_round_trip_and_become_attachments() {
    let mut d = Draft::new_message("Ann <ann@home.example>");
    d.to = "greta@hill.example".into();
    d.subject = "Fence plan".into();
    d.attach = vec!["~/plans/fence plan.pdf".into(), "/tmp/notes.txt".into()];
    d.body = "The plan and my notes.\n".into();
    let text = d.to_text();
    assert!(
        text.contains("Attach: ~/plans/fence plan.pdf\nAttach: /tmp/notes.txt\n"),
        "{text}"
    );
    assert_eq!(Draft::from_text(&text).expect("reads back"), d);

    let pdf = b"%PDF-1.4 not really\x00\xff".to_vec();
    let files = [
        Attachment {
            name: "fence plan.pdf".into(),
            content_type: "application/pdf".into(),
            bytes: pdf.clone(),
        },
        Attachment {
            name: "notes.txt".into(),
            content_type: "text/plain".into(),
            bytes: b"posts every 2 m\n".to_vec(),
        },
    ];
    let raw = d
        .build(1_700_000_200, "att1@home.example", true, &files)
        .expect("builds");
    let m = parse_message(&raw).expect("parses");
    assert_eq!(
        m.body.replace("\r\n", "\n").trim_end(),
        "The plan and my notes."
    );
    let names: Vec<Option<String>> = m.attachments.iter().map(|a| a.name.clone()).collect();
    assert_eq!(
        names,
        [Some("fence plan.pdf".into()), Some("notes.txt".into())]
    );
    assert_eq!(m.attachment_bytes[0], pdf, "binary bytes arrive unchanged");
    // Attach lines are Quoth's own: they never reach the message's headers.
    let head = String::from_utf8_lossy(&raw);
    assert!(!head.to_ascii_lowercase().contains("attach: "), "{head}");
}
