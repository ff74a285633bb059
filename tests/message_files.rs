//! The message as its source holds it (raw view, pipe) and attachments saved where
//! the user says: a file or a folder, never over an existing file, never outside
//! the folder whatever name the mail gives.

mod common;

use quoth::engine::mailbox::message_files::{raw_message, save_attachment_as};

const RAW: &str = "From: Ines Moreau <ines@example.org>\r\nTo: team@example.org\r\n\
Subject: Site plan\r\nMessage-ID: <plan@example.org>\r\nX-Mailer: Quill 2.1\r\n\
Date: Mon, 4 Mar 2024 09:00:00 +0000\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\n\
Content-Type: text/plain; charset=utf-8\r\n\r\nThe plan is attached.\r\n--b1\r\n\
Content-Type: application/octet-stream; name=\"../../plan.bin\"\r\n\
Content-Disposition: attachment; filename=\"../../plan.bin\"\r\n\
Content-Transfer-Encoding: base64\r\n\r\nAAECAwQF\r\n--b1--\r\n";

#[test]
fn the_raw_message_and_its_attachment_come_back_byte_for_byte() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    common::maildir_with_one(&root, RAW);
    let mut engine = common::open(&tmp.path().join("data"));
    common::ingest(&mut engine, std::slice::from_ref(&root));
    let msg = engine
        .store()
        .messages()
        .filter_map(Result::ok)
        .next()
        .expect("stored");
    let raw = raw_message(engine.store(), &msg.key).expect("raw");
    assert_eq!(raw, RAW.as_bytes());
    assert!(String::from_utf8_lossy(&raw).contains("X-Mailer: Quill 2.1"));

    // Into a folder: under its own name, without the path the mail gave it.
    let out = tmp.path().join("downloads");
    std::fs::create_dir_all(&out).expect("dir");
    let saved = save_attachment_as(engine.store(), &msg.key, 0, &out).expect("saved");
    assert_eq!(saved, out.join("plan.bin"));
    assert_eq!(std::fs::read(&saved).expect("read"), [0u8, 1, 2, 3, 4, 5]);
    // Never over a file that exists.
    let err = save_attachment_as(engine.store(), &msg.key, 0, &out).expect_err("exists");
    assert!(err.to_string().contains("exists"), "{err}");
    assert_eq!(std::fs::read(&saved).expect("read"), [0u8, 1, 2, 3, 4, 5]);
    // To a file name of the user's choosing.
    let named = tmp.path().join("site-plan.bin");
    save_attachment_as(engine.store(), &msg.key, 0, &named).expect("saved");
    assert_eq!(std::fs::read(&named).expect("read").len(), 6);
    assert!(save_attachment_as(engine.store(), &msg.key, 5, &named).is_err());
}
