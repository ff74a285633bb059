//! Kill -9 while `quoth move` renames Maildir files into another folder, then open
//! the store again: every email is stored once, at a file that exists, in the folder
//! its file is in; the search index agrees with the files; finishing the move and
//! ingesting the Maildir again add nothing.

mod common;

use common::open;
use quoth::source::SourceLocation;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Emails in the mailbox: enough that a move takes a while in a test build.
const EMAILS: usize = 600;

fn write_mailbox(root: &Path) -> PathBuf {
    let mail = root.join("mail");
    for folder in ["inbox", "archive"] {
        for sub in ["cur", "new", "tmp"] {
            std::fs::create_dir_all(mail.join(folder).join(sub)).expect("maildir");
        }
    }
    for i in 0..EMAILS {
        // Threads of three: a message and two replies.
        let refs = match i % 3 {
            0 => String::new(),
            _ => format!("In-Reply-To: <m{}@example.org>\r\n", i - i % 3),
        };
        let raw = format!(
            "From: Rosa Imbert <rosa@example.org>\r\nTo: Teo Varga <teo@example.org>\r\n\
             Subject: Shipment {} of the orchard order\r\nMessage-ID: <m{i}@example.org>\r\n\
             {refs}Date: Mon, {} Mar 2025 09:{:02}:00 +0000\r\n\r\n\
             Crate {i} of pears leaves the depot on pallet {}.\r\n",
            i / 3,
            1 + i % 28,
            i % 60,
            i * 7
        );
        let sub = if i % 2 == 0 { "cur" } else { "new" };
        let name = match sub {
            "cur" => format!("1700000000.M{i}P1.host:2,S"),
            _ => format!("1700000000.M{i}P1.host"),
        };
        std::fs::write(mail.join("inbox").join(sub).join(name), raw).expect("write mail");
    }
    mail
}

fn files_in(folder: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for sub in ["cur", "new"] {
        for e in std::fs::read_dir(folder.join(sub)).expect("read dir") {
            out.insert(e.expect("entry").path().to_string_lossy().into_owned());
        }
    }
    out
}

fn quoth(data: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quoth"));
    c.env("QUOTH_INLINE", "1");
    c.arg("--data-dir").arg(data);
    c.env("XDG_RUNTIME_DIR", data);
    c
}

/// `quoth ingest --no-embed` of the mailbox, which must succeed.
fn ingest(data: &Path, mail: &Path) {
    let status = quoth(data)
        .args(["ingest", "--no-embed"])
        .arg(mail)
        .stdout(Stdio::null())
        .status()
        .expect("ingest runs");
    assert!(status.success(), "ingest");
}

/// The store, the index and the files agree: each email once, at an existing file,
/// in its file's folder.
fn assert_consistent(data: &Path, mail: &Path, when: &str) {
    let engine = open(data);
    let mut paths = BTreeSet::new();
    let mut in_archive = 0;
    for m in engine.store().messages() {
        let m = m.expect("read stored message");
        let SourceLocation::File { path } = &m.location else {
            panic!("{when}: not a file: {:?}", m.location);
        };
        assert!(Path::new(path).exists(), "{when}: {path} is gone");
        let dir = Path::new(path)
            .parent()
            .and_then(Path::parent)
            .expect("folder of the file");
        let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        assert_eq!(
            m.folder,
            format!("mail/{folder}"),
            "{when}: folder of {path}"
        );
        if folder == "archive" {
            in_archive += 1;
        }
        assert!(paths.insert(path.clone()), "{when}: {path} stored twice");
    }
    let on_disk: BTreeSet<String> = files_in(&mail.join("inbox"))
        .union(&files_in(&mail.join("archive")))
        .cloned()
        .collect();
    assert_eq!(on_disk.len(), EMAILS, "{when}: no file is lost or doubled");
    assert_eq!(paths, on_disk, "{when}: the store names every file once");
    let stats = engine.stats().expect("stats");
    assert_eq!(stats.messages, EMAILS, "{when}: stored emails");
    assert_eq!(
        stats.lexical_docs, EMAILS as u64,
        "{when}: search documents"
    );
    let archived = engine
        .search("folder:mail/archive", EMAILS * 2, 0)
        .expect("search the archive");
    assert_eq!(archived.len(), in_archive, "{when}: the index's folders");
    assert_eq!(
        files_in(&mail.join("archive")).len(),
        in_archive,
        "{when}: the archive's files"
    );
}

#[test]
fn kill_nine_during_a_move_leaves_store_index_and_files_agreeing() {
    let root = tempfile::tempdir().expect("temp dir");
    let mail = write_mailbox(root.path());
    let pristine = root.path().join("pristine");
    common::copy_dir(&mail, &pristine);
    let mut interrupted = 0;
    for delay_ms in [30, 60, 100, 150, 200, 250, 300, 400, 500, 700, 1000] {
        let data = tempfile::tempdir().expect("data dir");
        std::fs::remove_dir_all(&mail).expect("clear mail");
        common::copy_dir(&pristine, &mail);
        ingest(data.path(), &mail);

        let started = Instant::now();
        let mut child = quoth(data.path())
            .args(["move", "folder:mail/inbox", "--to", "archive"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start quoth move");
        std::thread::sleep(Duration::from_millis(delay_ms));
        let finished = child.try_wait().expect("poll move").is_some();
        child.kill().ok(); // SIGKILL on Unix
        child.wait().expect("reap move");
        let moved = files_in(&mail.join("archive")).len();
        eprintln!(
            "killed after {delay_ms} ms (finished: {finished}, {:?}): {moved} files in the archive",
            started.elapsed()
        );
        if !finished && moved > 0 && moved < EMAILS {
            interrupted += 1;
        }
        let when = format!("after a kill at {delay_ms} ms");
        assert_consistent(data.path(), &mail, &when);

        // The move finishes, and reading the Maildir again adds nothing.
        let out = quoth(data.path())
            .args(["move", "folder:mail/inbox", "--to", "archive"])
            .output()
            .expect("move again");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(files_in(&mail.join("archive")).len(), EMAILS, "{when}");
        assert!(files_in(&mail.join("inbox")).is_empty(), "{when}");
        ingest(data.path(), &mail);
        assert_consistent(data.path(), &mail, &format!("{when}, moved and read again"));
    }
    assert!(
        interrupted > 0,
        "no kill landed in the middle of a move: the delays need to follow the build's speed"
    );
}

#[test]
fn a_move_through_the_cli_reports_what_it_did() {
    let root = tempfile::tempdir().expect("temp dir");
    let mail = write_mailbox(root.path());
    let data = tempfile::tempdir().expect("data dir");
    ingest(data.path(), &mail);
    let out = quoth(data.path())
        .args([
            "--json",
            "move",
            "id:m1@example.org OR id:m2@example.org",
            "--to",
            "trash",
        ])
        .output()
        .expect("move");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json report");
    assert_eq!(report["matched"], 2, "{report}");
    assert_eq!(report["moved"], 2, "{report}");
    assert_eq!(report["to_folders"], serde_json::json!(["mail/trash"]));
    // The trash folder was made beside the others, and holds the two files.
    assert_eq!(files_in(&mail.join("trash")).len(), 2);
    assert_eq!(files_in(&mail.join("inbox")).len(), EMAILS - 2);

    // A bad query is an error with its place, and moves nothing.
    let out = quoth(data.path())
        .args(["move", "from:(rosa", "--to", "archive"])
        .output()
        .expect("bad move");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid query"));
    assert_eq!(files_in(&mail.join("archive")).len(), 0);
}

#[test]
fn moves_and_expunges_go_through_a_running_server() {
    use std::io::BufRead;
    let root = tempfile::tempdir().expect("temp dir");
    let mail = write_mailbox(root.path());
    let data = tempfile::tempdir().expect("data dir");
    ingest(data.path(), &mail);
    let mut server = quoth(data.path())
        .args(["serve", "--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve");
    let mut line = String::new();
    std::io::BufReader::new(server.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("serve prints its address");
    let json = |args: &[&str]| -> serde_json::Value {
        let out = quoth(data.path())
            .arg("--json")
            .args(args)
            .output()
            .expect("quoth runs");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("json")
    };
    // The server holds the data directory: these only work through it.
    let moved = json(&["move", "subject:\"shipment 3 of\"", "--to", "trash"]);
    assert_eq!(moved["moved"], 3, "{moved}");
    assert_eq!(files_in(&mail.join("trash")).len(), 3);
    let preview = json(&["expunge"]);
    assert_eq!(preview["done"], false);
    assert_eq!(preview["removed"], 3);
    assert_eq!(
        files_in(&mail.join("trash")).len(),
        3,
        "asking deletes nothing"
    );
    let done = json(&["expunge", "--yes"]);
    assert_eq!(done["done"], true);
    assert_eq!(done["removed"], 3);
    assert!(files_in(&mail.join("trash")).is_empty());
    let stats = json(&["stats"]);
    assert_eq!(stats["messages"], EMAILS - 3, "{stats}");
    server.kill().ok();
    server.wait().ok();
}
