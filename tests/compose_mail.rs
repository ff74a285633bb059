//! Writing mail: a reply, a reply to all and a forward are drafted from stored mail,
//! sent through a sendmail command (a script that keeps what it receives on its
//! stdin), kept in the Maildir's Sent folder and read back into the store; a
//! sendmail that fails keeps the draft; a postponed draft goes to Drafts.

mod common;

use quoth::config::ComposeConfig;
use quoth::engine::mailbox::compose::{
    discard_draft, postpone_draft, send_draft, start_draft, unfinished_drafts, ComposeSettings,
};
use quoth::engine::Engine;
use quoth::mail::compose::DraftKind;
use quoth::mail::model::MessageKey;
use quoth::mail::parse::parse_message;
use std::path::{Path, PathBuf};

const ORIGINAL: &str = "From: Lena Vos <lena@example.net>\r\nTo: Omar Haddad <omar@example.net>, \
    Pia Berg <pia@example.net>\r\nCc: Jun Park <jun@example.net>\r\nReply-To: Lena at home \
    <lena.home@example.org>\r\nSubject: Pump quote\r\nMessage-ID: <pump2@example.net>\r\n\
    In-Reply-To: <pump1@example.net>\r\nReferences: <pump1@example.net>\r\n\
    Date: Thu, 8 Feb 2024 10:00:00 +0000\r\n\r\nThe pump costs 840 euros.\r\nIt comes on Monday.\r\n";

struct Setup {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    engine: Engine,
    settings: ComposeSettings,
    /// What the sendmail script received, one file per call.
    outbox: PathBuf,
    key: MessageKey,
}

fn setup(sendmail_exit: i32) -> Setup {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    let inbox = root.join("inbox");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(inbox.join(sub)).expect("maildir");
    }
    std::fs::write(inbox.join("cur/1707386400.a1.host:2,S"), ORIGINAL).expect("write");
    let outbox = tmp.path().join("outbox");
    std::fs::create_dir_all(&outbox).expect("outbox");
    let script = tmp.path().join("sendmail");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\ncat > \"{}/$(date +%s%N).eml\"\necho 'relay said no' >&2\nexit {sendmail_exit}\n",
            outbox.display()
        ),
    )
    .expect("script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let mut engine = common::open(&tmp.path().join("data"));
    common::ingest(&mut engine, std::slice::from_ref(&root));
    let key = engine
        .store()
        .messages()
        .filter_map(Result::ok)
        .find(|m| m.message_id.as_deref() == Some("pump2@example.net"))
        .map(|m| m.key)
        .expect("stored");
    let settings = ComposeSettings::new(
        ComposeConfig {
            from: Some("Omar Haddad <omar@example.net>".into()),
            sendmail: Some(format!("{} -t", script.display())),
            ..ComposeConfig::default()
        },
        &[],
    );
    Setup {
        _tmp: tmp,
        root,
        engine,
        settings,
        outbox,
        key,
    }
}

fn received(outbox: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(outbox)
        .expect("outbox")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    files
        .iter()
        .map(|f| std::fs::read(f).expect("read"))
        .collect()
}

fn folder_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir.join("cur"))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// The user's editor: writes `text` above the draft's body.
fn write_above_body(path: &Path, text: &str) {
    let draft = std::fs::read_to_string(path).expect("draft");
    let (head, body) = draft.split_once("\n\n").expect("headers and body");
    std::fs::write(path, format!("{head}\n\n{text}\n{body}")).expect("edit");
}

#[test]
fn a_reply_is_sent_threaded_kept_in_sent_and_the_original_marked_replied() {
    let mut s = setup(0);
    let data = s.engine.data_dir().to_path_buf();
    let draft = start_draft(
        s.engine.store(),
        &data,
        &s.settings,
        DraftKind::Reply,
        Some(&s.key),
    )
    .expect("draft");
    assert!(draft.path.starts_with(data.join("drafts")));
    write_above_body(&draft.path, "Monday suits me; I will be in from eight.");
    let sent = send_draft(
        s.engine.store(),
        &data,
        &s.settings,
        &draft.path,
        Some((&s.key, DraftKind::Reply)),
    )
    .expect("sent");
    assert_eq!(sent.warning, None);
    assert_eq!(sent.recipients, vec!["lena.home@example.org"]);
    assert!(!draft.path.exists(), "a sent draft's file is removed");

    let got = received(&s.outbox);
    assert_eq!(got.len(), 1, "sendmail ran once");
    let m = parse_message(&got[0]).expect("parses");
    let body = m.body.replace("\r\n", "\n");
    assert_eq!(m.from[0].address, "omar@example.net");
    assert_eq!(m.to[0].address, "lena.home@example.org");
    assert_eq!(m.subject, "Re: Pump quote");
    assert_eq!(m.in_reply_to, vec!["pump2@example.net"]);
    assert_eq!(m.references, vec!["pump1@example.net", "pump2@example.net"]);
    assert!(body.contains("Monday suits me; I will be in from eight."));
    assert!(body.contains("Lena Vos wrote:"));
    assert!(
        body.contains("> The pump costs 840 euros.\n> It comes on Monday."),
        "{body}"
    );

    // The copy in Sent is the message sendmail got, marked seen.
    let sent_dir = s.root.join("sent");
    let kept = folder_files(&sent_dir);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert!(kept[0].ends_with(":2,S"), "{kept:?}");
    assert_eq!(
        std::fs::read(sent_dir.join("cur").join(&kept[0])).expect("kept"),
        got[0]
    );
    assert_eq!(sent.kept_in.as_deref(), Some("mail/sent"));

    // The original is marked replied, in its file name too.
    let original = s
        .engine
        .store()
        .message(&s.key)
        .expect("read")
        .expect("stored");
    assert!(original.flags.contains('R'), "{}", original.flags);
    assert!(folder_files(&s.root.join("inbox"))[0].ends_with(":2,RS"));

    // Read again, the reply joins the original's thread.
    common::ingest(&mut s.engine, std::slice::from_ref(&s.root));
    let threads = s.engine.store().threads().expect("threads");
    let thread = threads
        .iter()
        .find(|t| t.messages.contains(&s.key))
        .expect("thread");
    assert_eq!(
        thread.messages.len(),
        2,
        "the reply is in the original's thread"
    );
}

#[test]
fn reply_all_and_forward_address_everyone_right() {
    let s = setup(0);
    let data = s.engine.data_dir().to_path_buf();
    let all = start_draft(
        s.engine.store(),
        &data,
        &s.settings,
        DraftKind::ReplyAll,
        Some(&s.key),
    )
    .expect("draft");
    send_draft(
        s.engine.store(),
        &data,
        &s.settings,
        &all.path,
        Some((&s.key, DraftKind::ReplyAll)),
    )
    .expect("sent");
    let fwd = start_draft(
        s.engine.store(),
        &data,
        &s.settings,
        DraftKind::Forward,
        Some(&s.key),
    )
    .expect("draft");
    // A forward has no recipient until the user writes one.
    let text = std::fs::read_to_string(&fwd.path).expect("draft");
    std::fs::write(
        &fwd.path,
        text.replacen("To: \n", "To: Ines <ines@example.org>\n", 1),
    )
    .expect("edit");
    send_draft(
        s.engine.store(),
        &data,
        &s.settings,
        &fwd.path,
        Some((&s.key, DraftKind::Forward)),
    )
    .expect("sent");

    let got = received(&s.outbox);
    assert_eq!(got.len(), 2);
    let reply_all = parse_message(&got[0]).expect("parses");
    let to: Vec<&str> = reply_all.to.iter().map(|m| m.address.as_str()).collect();
    let cc: Vec<&str> = reply_all.cc.iter().map(|m| m.address.as_str()).collect();
    assert_eq!(to, vec!["lena.home@example.org"]);
    // Everyone else on the message, but not the user (omar).
    assert_eq!(cc, vec!["pia@example.net", "jun@example.net"]);
    let forward = parse_message(&got[1]).expect("parses");
    assert_eq!(forward.subject, "Fwd: Pump quote");
    assert_eq!(forward.to[0].address, "ines@example.org");
    assert!(forward.in_reply_to.is_empty());
    assert!(forward.body.contains("From: Lena Vos <lena@example.net>"));
    assert!(forward.body.contains("The pump costs 840 euros."));
    let original = s
        .engine
        .store()
        .message(&s.key)
        .expect("read")
        .expect("stored");
    assert!(
        original.flags.contains('P') && original.flags.contains('R'),
        "{}",
        original.flags
    );
}

#[test]
fn a_failing_sendmail_keeps_the_draft_and_nothing_is_kept_as_sent() {
    let s = setup(75);
    let data = s.engine.data_dir().to_path_buf();
    let draft = start_draft(
        s.engine.store(),
        &data,
        &s.settings,
        DraftKind::Reply,
        Some(&s.key),
    )
    .expect("draft");
    write_above_body(&draft.path, "Words the user must not lose.");
    let err = send_draft(
        s.engine.store(),
        &data,
        &s.settings,
        &draft.path,
        Some((&s.key, DraftKind::Reply)),
    )
    .expect_err("sendmail failed");
    let said = err.to_string();
    assert!(said.contains("relay said no"), "{said}");
    assert!(said.contains("the draft is kept"), "{said}");
    assert!(std::fs::read_to_string(&draft.path)
        .expect("kept")
        .contains("Words the user must not lose."));
    assert!(folder_files(&s.root.join("sent")).is_empty());
    let original = s
        .engine
        .store()
        .message(&s.key)
        .expect("read")
        .expect("stored");
    assert!(!original.flags.contains('R'));
    assert_eq!(unfinished_drafts(&data), vec![draft.path.clone()]);

    // Postponed, it is kept in Drafts (flag D) and its file goes.
    let postponed = postpone_draft(
        s.engine.store(),
        &data,
        &s.settings,
        &draft.path,
        Some(&s.key),
    )
    .expect("postponed");
    assert_eq!(postponed.kept_in, "mail/drafts");
    let kept = folder_files(&s.root.join("drafts"));
    assert_eq!(kept.len(), 1);
    assert!(kept[0].ends_with(":2,DS"), "{kept:?}");
    let raw = std::fs::read(s.root.join("drafts/cur").join(&kept[0])).expect("kept");
    let m = parse_message(&raw).expect("parses");
    assert!(m.body.contains("Words the user must not lose."));
    assert_eq!(m.in_reply_to, vec!["pump2@example.net"]);
    assert!(!draft.path.exists());
}

#[test]
fn only_this_data_dirs_drafts_are_sent_or_removed_and_bad_drafts_are_refused() {
    let s = setup(0);
    let data = s.engine.data_dir().to_path_buf();
    let elsewhere = s._tmp.path().join("not-a-draft.eml");
    std::fs::write(&elsewhere, "From: a@x.example\nTo: b@y.example\n\nhello\n").expect("write");
    let err =
        send_draft(s.engine.store(), &data, &s.settings, &elsewhere, None).expect_err("refused");
    assert!(err.to_string().contains("not a draft"), "{err}");
    assert!(discard_draft(&data, &elsewhere).is_err());
    assert!(elsewhere.exists());

    let draft =
        start_draft(s.engine.store(), &data, &s.settings, DraftKind::New, None).expect("draft");
    let text = std::fs::read_to_string(&draft.path).expect("draft");
    assert!(
        text.starts_with("From: Omar Haddad <omar@example.net>\n"),
        "{text}"
    );
    // No recipient yet: refused, kept.
    let err = send_draft(s.engine.store(), &data, &s.settings, &draft.path, None)
        .expect_err("no recipient");
    assert!(err.to_string().contains("no recipient"), "{err}");
    // A header block the user broke: refused with the line, kept.
    std::fs::write(
        &draft.path,
        "From: Omar <omar@example.net>\nTo b@y.example\n\nhi\n",
    )
    .expect("edit");
    let err = send_draft(s.engine.store(), &data, &s.settings, &draft.path, None)
        .expect_err("bad header");
    assert!(err.to_string().contains("line 2"), "{err}");
    assert!(draft.path.exists());
    assert!(received(&s.outbox).is_empty(), "nothing was sent");
    discard_draft(&data, &draft.path).expect("discarded");
    assert!(!draft.path.exists());
}

#[test]
fn quoth_address_completes_names_and_addresses_from_the_headers() {
    let s = setup(0);
    let data = s.engine.data_dir().to_path_buf();
    drop(s.engine);
    let run = |args: &[&str]| -> String {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_quoth"))
            .env("QUOTH_INLINE", "1")
            .env("QUOTH_DATA_DIR", &data)
            .env_remove("XDG_RUNTIME_DIR")
            .arg("address")
            .args(args)
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(run(&["pi"]), "Pia Berg <pia@example.net>\n");
    // A word of the name, or the start of the address.
    assert_eq!(run(&["berg"]), "Pia Berg <pia@example.net>\n");
    assert_eq!(run(&["jun@"]), "Jun Park <jun@example.net>\n");
    let json: serde_json::Value = serde_json::from_str(&run(&["--json", "lena"])).expect("json");
    let addresses: Vec<&str> = json
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|e| e["address"].as_str())
        .collect();
    assert_eq!(addresses, vec!["lena@example.net"], "{json}");
    assert_eq!(json[0]["name"], "Lena Vos");
}

/// A message with a binary attachment, as a mail program sends one.
const WITH_ATTACHMENT: &str = "From: Lena Vos <lena@example.net>\r\nTo: Omar Haddad <omar@example.net>\r\n\
    Subject: Pump drawing\r\nMessage-ID: <drawing@example.net>\r\nDate: Fri, 9 Feb 2024 09:00:00 +0000\r\n\
    MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b1\"\r\n\r\n--b1\r\n\
    Content-Type: text/plain\r\n\r\nThe drawing of the pump is attached.\r\n--b1\r\n\
    Content-Type: application/octet-stream; name=\"pump.bin\"\r\n\
    Content-Disposition: attachment; filename=\"pump.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n\
    AAECAwT/\r\n--b1--\r\n";

#[test]
fn a_forward_carries_the_attachments_and_attach_lines_add_files() {
    let mut s = setup(0);
    let inbox = s.root.join("inbox");
    std::fs::write(inbox.join("cur/1707469200.a2.host:2,S"), WITH_ATTACHMENT).expect("write");
    common::ingest(&mut s.engine, std::slice::from_ref(&s.root));
    let key = s
        .engine
        .store()
        .messages()
        .filter_map(Result::ok)
        .find(|m| m.message_id.as_deref() == Some("drawing@example.net"))
        .map(|m| m.key)
        .expect("stored");
    let data = s.engine.data_dir().to_path_buf();
    let fwd = start_draft(
        s.engine.store(),
        &data,
        &s.settings,
        DraftKind::Forward,
        Some(&key),
    )
    .expect("draft");
    let text = std::fs::read_to_string(&fwd.path).expect("draft");
    let attach: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("Attach: "))
        .collect();
    assert_eq!(attach.len(), 1, "{text}");
    assert!(attach[0].ends_with("/pump.bin"), "{text}");
    assert_eq!(
        std::fs::read(attach[0]).expect("copied"),
        [0, 1, 2, 3, 4, 255]
    );

    // The user adds a file of their own, and one that is not there: refused, kept.
    let notes = s._tmp.path().join("notes.txt");
    std::fs::write(&notes, "Install on Monday.\n").expect("notes");
    let missing = s._tmp.path().join("gone.pdf");
    let edited = text.replacen(
        "To: \n",
        &format!(
            "To: ines@example.org\nAttach: {}\nAttach: {}\n",
            notes.display(),
            missing.display()
        ),
        1,
    );
    std::fs::write(&fwd.path, &edited).expect("edit");
    let refused = send_draft(
        s.engine.store(),
        &data,
        &s.settings,
        &fwd.path,
        Some((&key, DraftKind::Forward)),
    )
    .expect_err("a missing file stops the send");
    assert!(refused.to_string().contains("gone.pdf"), "{refused}");
    assert!(fwd.path.exists(), "the draft is kept");
    assert!(received(&s.outbox).is_empty(), "nothing was sent");

    std::fs::write(
        &fwd.path,
        edited.replacen(&format!("Attach: {}\n", missing.display()), "", 1),
    )
    .expect("edit");
    send_draft(
        s.engine.store(),
        &data,
        &s.settings,
        &fwd.path,
        Some((&key, DraftKind::Forward)),
    )
    .expect("sent");
    let got = received(&s.outbox);
    assert_eq!(got.len(), 1);
    let sent = parse_message(&got[0]).expect("parses");
    let names: Vec<String> = sent
        .attachments
        .iter()
        .filter_map(|a| a.name.clone())
        .collect();
    // In the order of the draft's Attach: lines (the user's were written above).
    assert_eq!(names, ["notes.txt", "pump.bin"]);
    assert_eq!(sent.attachments[0].mime_type, "text/plain");
    assert_eq!(sent.attachment_bytes[1], [0, 1, 2, 3, 4, 255]);
    assert!(sent.body.contains("The drawing of the pump is attached."));
    // The draft and its copies of the attachments are gone once it is sent.
    assert!(!fwd.path.exists());
    assert!(!fwd.path.with_extension("parts").exists());
    assert!(unfinished_drafts(&data).is_empty());
}
