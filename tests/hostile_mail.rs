//! Mail whose subject, sender name, body, attachment name and RFC 2047 header hold
//! terminal escapes (window title, clipboard write, clear screen, colours), C1
//! controls and bidi overrides (tests/fixtures/hostile-mail): ingested, then shown
//! by `search`, `show` and `ask`. No raw control character reaches the terminal;
//! placeholders show where they were; `--json` keeps the exact text.

use std::path::Path;
use std::process::Command;

fn hostile_mail() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-mail")
}

fn quoth(data: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .env("QUOTH_INLINE", "1")
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("quoth runs");
    assert!(
        out.status.success(),
        "quoth {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// The first character a terminal would obey rather than show, if any.
fn first_control(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        let u = c as u32;
        (u < 0x20 && c != '\n') || u == 0x7f || (0x80..=0x9f).contains(&u) || {
            matches!(u, 0x202A..=0x202E | 0x2066..=0x2069)
        }
    })
}

#[test]
fn no_control_character_of_hostile_mail_reaches_the_terminal() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let data = tmp.path().join("data");
    let mail = hostile_mail();
    let mail = mail.to_str().expect("path");
    let (out, err) = quoth(&data, &["ingest", "--no-embed", mail]);
    assert!(out.contains("2 added"), "{out}{err}");

    let commands: [&[&str]; 5] = [
        &["search", "--mode", "lexical", "audit"],
        &["search", "--mode", "lexical", "--explain", "invoice"],
        &["show", "<hostile-1@quoth.test>"],
        &["show", "<hostile-2@quoth.test>"],
        &["ask", "When is the quarterly audit?"],
    ];
    for args in commands {
        let (out, err) = quoth(&data, args);
        for (stream, text) in [("stdout", &out), ("stderr", &err)] {
            assert_eq!(
                first_control(text),
                None,
                "quoth {args:?} wrote a control character to {stream}:\n{text:?}"
            );
        }
        // Where an escape was, a placeholder shows it.
        assert!(out.contains('␛'), "quoth {args:?}:\n{out}");
    }
    let (show, _) = quoth(&data, &["show", "<hostile-1@quoth.test>"]);
    for visible in ["PWNED-TITLE", "Encoded subject", "notes␛]0;ATTACH␇.txt"] {
        assert!(show.contains(visible), "{visible}: {show}");
    }
    // Tabs expand to their columns: nothing of the figures is lost.
    assert!(show.contains("Tab     aligned figures $1,250.00"), "{show}");
    let (ask, _) = quoth(&data, &["ask", "When is the quarterly audit?"]);
    assert!(ask.contains("May 8"), "{ask}");

    // JSON is data: the exact text, escaped by JSON itself.
    let (json, _) = quoth(&data, &["--json", "show", "<hostile-1@quoth.test>"]);
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let subject = value["subject"].as_str().expect("subject");
    assert!(subject.contains("\u{1b}]0;PWNED-TITLE\u{7}"), "{subject:?}");
    let (json, _) = quoth(&data, &["--json", "ask", "When is the quarterly audit?"]);
    let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let quote = value["citations"][0]["quote"].as_str().expect("a quote");
    assert!(
        quote.contains('\u{1b}'),
        "the citation keeps the exact text: {quote:?}"
    );
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let data = tmp.path().join("data");
    let mail = hostile_mail();
    quoth(
        &data,
        &["ingest", "--no-embed", mail.to_str().expect("path")],
    );
    for args in [
        "ask 'When is the quarterly audit?'",
        "search --mode lexical audit",
        "show '<hostile-1@quoth.test>'",
        "stats",
        "status",
        "quarantine",
        "--json ask 'When is the quarterly audit?'",
    ] {
        let script = format!(
            "QUOTH_INLINE=1 '{}' --data-dir '{}' {args} | head -c 10 >/dev/null; echo \"${{PIPESTATUS[0]}}\"",
            env!("CARGO_BIN_EXE_quoth"),
            data.display()
        );
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .output()
            .expect("bash runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args}: {stderr}");
        let code = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert!(
            code == "0" || code == "141",
            "{args}: exit {code}, {stderr}"
        );
    }
}
