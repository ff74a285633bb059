//! Tags the user puts on messages: `quoth tag` through a running server (and in its
//! own process), `tag:NAME` in queries, tags on search hits, and tags kept through
//! `quoth rebuild`, which makes the store anew. Real processes on invented mail.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn quoth(data: &Path, inline: bool, args: &[&str]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quoth"));
    c.env_remove("XDG_RUNTIME_DIR")
        .env("QUOTH_SERVER_IDLE_EXIT", "5")
        .arg("--data-dir")
        .arg(data)
        .args(args);
    if inline {
        c.env("QUOTH_INLINE", "1");
    } else {
        c.env_remove("QUOTH_INLINE");
    }
    c.output().expect("quoth runs")
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json(out: Output) -> Value {
    serde_json::from_str(&ok(out)).expect("JSON")
}

fn pottery_mail(root: &Path) {
    let cur = root.join("inbox/cur");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(root.join("inbox").join(sub)).expect("maildir");
    }
    for (i, subject) in [
        "Kiln firing schedule",
        "Glaze order arrived",
        "Studio rent invoice",
    ]
    .iter()
    .enumerate()
    {
        std::fs::write(
            cur.join(format!("17000000{i:02}.t{i}.host:2,S")),
            format!(
                "From: Lena Vos <lena@example.net>\r\nTo: Omar Haddad <omar@example.net>\r\n\
                 Subject: {subject}\r\nMessage-ID: <tag-{i}@example.net>\r\n\
                 Date: Thu, 8 Feb 2024 1{i}:00:00 +0000\r\n\r\nAbout the {}.\r\n",
                subject.to_lowercase()
            ),
        )
        .expect("write");
    }
}

#[test]
fn tags_are_added_found_and_kept_through_a_rebuild() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mail = tmp.path().join("mail");
    pottery_mail(&mail);
    let data = tmp.path().join("data");
    let mail = mail.to_string_lossy().into_owned();
    ok(quoth(&data, true, &["ingest", "--no-embed", &mail]));

    // Through the background server the command starts.
    let said = ok(quoth(&data, false, &["tag", "+kiln-work", "subject:kiln"]));
    assert_eq!(said.trim(), "1 message matched, 1 changed");
    let hits = json(quoth(
        &data,
        false,
        &["--json", "search", "--mode", "lexical", "tag:kiln-work"],
    ));
    let hits = hits["hits"].as_array().expect("hits");
    assert_eq!(hits.len(), 1, "{hits:?}");
    assert_eq!(hits[0]["subject"], "Kiln firing schedule");
    assert_eq!(hits[0]["tags"], serde_json::json!(["kiln-work"]));

    // A query over tags and other terms; removing and adding at once.
    let report = json(quoth(
        &data,
        false,
        &[
            "--json",
            "tag",
            "+later",
            "tag:kiln-work",
            "OR",
            "subject:glaze",
        ],
    ));
    assert_eq!(report["matched"], 2);
    assert_eq!(
        json(quoth(&data, false, &["--json", "count", "tag:later"]))["count"],
        2
    );
    ok(quoth(
        &data,
        true,
        &[
            "tag",
            "-later",
            "+paid",
            "--",
            "subject:rent",
            "OR",
            "subject:glaze",
        ],
    ));
    assert_eq!(
        json(quoth(&data, true, &["--json", "count", "tag:later"]))["count"],
        1
    );
    assert_eq!(
        json(quoth(&data, false, &["--json", "count", "tag:paid"]))["count"],
        2
    );
    assert_eq!(
        json(quoth(
            &data,
            false,
            &["--json", "count", "tag:later -tag:kiln-work"]
        ))["count"],
        0
    );

    let listed = ok(quoth(
        &data,
        false,
        &["search", "--output", "tags", "tag:paid OR tag:later"],
    ));
    assert_eq!(listed, "kiln-work\nlater\npaid\n");

    // A name that is no tag is refused, and nothing changes.
    let bad = quoth(&data, false, &["tag", "+to:do", "*"]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("'to:do' is not a tag"),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );

    // A rebuild makes the store anew from the mail; the tags are the user's, kept.
    ok(quoth(&data, false, &["rebuild"]));
    assert_eq!(
        json(quoth(&data, false, &["--json", "count", "tag:paid"]))["count"],
        2
    );
    assert_eq!(
        json(quoth(&data, false, &["--json", "count", "tag:kiln-work"]))["count"],
        1
    );
}

#[test]
fn a_damaged_tag_database_is_set_aside_and_the_mail_stays_usable() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mail = tmp.path().join("mail");
    pottery_mail(&mail);
    let data = tmp.path().join("data");
    let mail = mail.to_string_lossy().into_owned();
    ok(quoth(&data, true, &["ingest", "--no-embed", &mail]));
    ok(quoth(&data, true, &["tag", "+paid", "subject:rent"]));
    // Garble the start of the tag database's log.
    let db = data.join("tags/db");
    let len = std::fs::metadata(&db).expect("tag db").len().min(4096) as usize;
    std::fs::OpenOptions::new()
        .write(true)
        .open(&db)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &vec![0xA5; len]))
        .expect("garble");

    let out = quoth(&data, true, &["--json", "count", "subject:kiln"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let v: Value = serde_json::from_str(&ok(out)).expect("JSON");
    assert_eq!(v["count"], 1, "the mail is searchable");
    assert!(
        stderr.contains("note: the tag database was damaged") && stderr.contains("set aside at"),
        "{stderr}"
    );
    let aside: Vec<_> = std::fs::read_dir(&data)
        .expect("data dir")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("tags.damaged-"))
        .collect();
    assert_eq!(aside.len(), 1, "the damaged copy is kept");
    // Tagging works again on the new database.
    ok(quoth(&data, true, &["tag", "+paid", "subject:rent"]));
    assert_eq!(
        json(quoth(&data, true, &["--json", "count", "tag:paid"]))["count"],
        1
    );
}
