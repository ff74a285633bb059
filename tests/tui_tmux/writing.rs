//! Mail leaving the UI: a reply written in the editor and sent through sendmail,
//! a message piped to a command.

use super::*;

fn executable(path: &Path, script: &str) {
    std::fs::write(path, script).expect("script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// `reply` (the user's F-key), an editor that writes a line, then `y`: the
/// sendmail command gets a reply from the configured From to the sender, with
/// `Re:`, In-Reply-To, References, the editor's text and the quoted original; a
/// copy is kept in Sent and the original's file is marked replied.
#[test]
fn a_reply_written_in_the_editor_is_sent_through_sendmail() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mail = tmp.path().join("mail");
    let config = tmp.path().join("config");
    std::fs::create_dir_all(config.join("quoth")).expect("config dir");
    std::fs::write(
        config.join("quoth/keymap.toml"),
        "[reader]\nkeymap = [\n  { on = [\"<F7>\"], run = \"reply\" },\n]\n",
    )
    .expect("keymap");
    let outbox = tmp.path().join("outbox.eml");
    let sendmail = tmp.path().join("sendmail-stub");
    executable(
        &sendmail,
        &format!(
            "#!/bin/sh\ncat > '{}.part' && mv '{0}.part' '{0}'\n",
            outbox.display()
        ),
    );
    // The editor writes its line below the header block, above the quote.
    let editor = tmp.path().join("editor");
    executable(
        &editor,
        "#!/bin/sh\nf=\"$1\"\nt=\"$f.edit\"\nawk 'BEGIN{d=0} {print} /^$/ && !d {print \"Thursday at ten suits me.\"; d=1}' \"$f\" > \"$t\" && cat \"$t\" > \"$f\" && rm \"$t\"\n",
    );
    let tmux = ui_on_demo_copy_with(
        tmp.path(),
        &format!(
            "-u VISUAL EDITOR='{}' XDG_CONFIG_HOME='{}'",
            editor.display(),
            config.display()
        ),
        &format!(
            "[compose]\nfrom = \"Robin Demo <robin@demo.example>\"\nsendmail = \"'{}' -t\"\n",
            sendmail.display()
        ),
    );
    tmux.wait_for("the thread list", 90, |s| {
        // The list as ingested: an empty list shows before the ingest starts.
        s.contains("Threads (") && !s.contains("Threads (0") && !s.contains("loading")
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("the reader", 20, |s| s.contains("Folder: "));
    tmux.send(&["F7"]);
    tmux.wait_for("the send prompt", 20, |s| {
        s.contains("y send · e edit again")
    });
    tmux.send(&["y"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !outbox.is_file() {
        assert!(
            Instant::now() < deadline,
            "sendmail got nothing:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    tmux.wait_for("the note", 20, |s| s.contains("sent to "));
    let sent = quoth::mail::parse::parse_message(&std::fs::read(&outbox).expect("outbox"))
        .expect("the message parses");
    assert_eq!(sent.from[0].address, "robin@demo.example");
    let replied_to = sent.in_reply_to.first().expect("In-Reply-To").clone();
    assert_eq!(sent.references.last(), Some(&replied_to));
    // The original, found by its Message-ID among the demo files.
    let mut original = None;
    for folder in ["inbox", "sent"] {
        for e in std::fs::read_dir(mail.join(folder).join("cur")).expect("cur") {
            let path = e.expect("entry").path();
            let raw = std::fs::read(&path).expect("read");
            let m = quoth::mail::parse::parse_message(&raw).expect("parses");
            if m.message_id.as_deref() == Some(replied_to.as_str()) {
                original = Some((path, raw, m));
            }
        }
    }
    let (path, raw, original) = original.expect("the original is a demo file");
    let reply_to = quoth::mail::parse::reply_to(&raw);
    let expected_to = reply_to.first().unwrap_or(&original.from[0]);
    assert_eq!(sent.to[0].address, expected_to.address);
    let subject = original.subject.trim();
    if subject.to_lowercase().starts_with("re:") {
        assert_eq!(sent.subject, subject);
    } else {
        assert_eq!(sent.subject, format!("Re: {subject}"));
    }
    let body = sent.body.replace("\r\n", "\n");
    assert!(body.contains("Thursday at ten suits me."), "{body}");
    let first_line = original
        .body
        .lines()
        .map(str::trim_end)
        .find(|l| !l.trim().is_empty())
        .expect("the original has text");
    assert!(body.contains(&format!("> {first_line}")), "{body}");
    assert!(body.contains(" wrote:"), "{body}");
    // Marked replied in its file name; a copy kept in Sent.
    let name = path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let stem = name.split(":2,").next().expect("stem").to_string();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let replied = std::fs::read_dir(path.parent().expect("cur"))
            .expect("cur")
            .flatten()
            .any(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.starts_with(&stem) && n.split(":2,").nth(1).is_some_and(|f| f.contains('R'))
            });
        if replied {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the original is not marked replied"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let kept: Vec<String> = std::fs::read_dir(mail.join("sent/cur"))
        .expect("sent")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".quoth:2,S"))
        .collect();
    assert_eq!(kept.len(), 1, "one copy kept in Sent: {kept:?}");
    // No draft is left behind.
    let drafts = tmp.path().join("data/drafts");
    let left = std::fs::read_dir(&drafts).map(|d| d.count()).unwrap_or(0);
    assert_eq!(left, 0, "the sent draft's file is removed");
    // The reply joins the thread list once the Sent folder is read again.
    tmux.send(&["Escape"]);
    tmux.wait_for("the reply in the thread list", 60, |s| {
        s.contains("Robin Demo")
    });
    quit(&tmux);
}

/// `|` asks for a command and hands it the message as its file holds it, with the
/// terminal given over to the command and taken back after Enter.
#[test]
fn a_message_is_piped_to_a_command_and_the_ui_comes_back() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mail = tmp.path().join("mail");
    let out = tmp.path().join("piped.eml");
    let tmux = ui_on_demo_copy(tmp.path(), "");
    tmux.wait_for("the thread list", 90, |s| {
        // The list as ingested: an empty list shows before the ingest starts.
        s.contains("Threads (") && !s.contains("Threads (0") && !s.contains("loading")
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("the reader", 20, |s| s.contains("Folder: "));
    tmux.send(&["|"]);
    tmux.wait_for("the prompt", 10, |s| s.contains("Pipe to:"));
    tmux.type_text(&format!("cat > '{}'; echo piped-ok", out.display()));
    tmux.send(&["Enter"]);
    tmux.wait_for("the command's output", 20, |s| {
        s.contains("piped-ok") && s.contains("press Enter to go back")
    });
    tmux.send(&["Enter"]);
    // A note may give way at once to the end of background work: the reader is
    // what must come back.
    tmux.wait_for("the UI again", 20, |s| {
        s.contains("Folder: ") && !s.contains("press Enter")
    });
    let piped = std::fs::read(&out).expect("the command wrote its input");
    let mut found = false;
    for folder in ["inbox", "sent"] {
        for e in std::fs::read_dir(mail.join(folder).join("cur")).expect("cur") {
            found |= std::fs::read(e.expect("entry").path()).expect("read") == piped;
        }
    }
    assert!(found, "the command got a demo file's bytes exactly");
    tmux.send(&["Escape"]);
    quit(&tmux);
}
