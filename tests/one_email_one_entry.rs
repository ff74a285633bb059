//! One email, one entry: copies of a message in several folders (the same
//! Message-ID, or the same content under a new Message-ID) count once in the thread
//! list, show once in search results and in the reader, with their folders named;
//! the reader opens at the copy it was asked for.

mod common;

use quoth::answer::extract::ExtractiveAnswerer;
use quoth::engine::handle::{EngineEvent, EngineHandle, EngineRequest};
use quoth::engine::{RetrieveOptions, SearchMode};
use quoth::mail::model::MessageKey;
use std::path::Path;
use std::time::Duration;

fn write(root: &Path, folder: &str, file: &str, mail: &str) {
    let dir = root.join(folder);
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).expect("maildir");
    }
    std::fs::write(dir.join("cur").join(file), mail).expect("write");
}

fn mail(id: &str, subject: &str, date: &str, extra: &str, body: &str) -> String {
    format!(
        "From: Rosa Quill <rosa@example.org>\r\nTo: Ivo Brandt <ivo@example.org>\r\n\
         Subject: {subject}\r\nMessage-ID: <{id}>\r\nDate: {date}\r\n{extra}\r\n{body}\r\n"
    )
}

const HEATER: &str = "The greenhouse heater arrives on Friday morning.";
const SEEDS: &str = "I placed the seed order with the nursery for forty trays.";
const SEEDS_CANCELLED: &str = "The seed order with the nursery is cancelled for now.";
const SEED_DATE: &str = "Tue, 6 Feb 2024 09:15:00 +0000";

/// A Maildir with: one email in inbox and archive under one Message-ID; one email
/// in sent and archive under two Message-IDs (an export that renumbered them); and a
/// different email with the same sender, subject and second.
fn mailbox(root: &Path) {
    // A mail client that moved the second copy added a status header to it.
    let heater = |extra: &str| {
        mail(
            "heater-1@example.org",
            "Greenhouse heater",
            "Mon, 5 Feb 2024 08:00:00 +0000",
            extra,
            HEATER,
        )
    };
    write(root, "inbox", "1.host:2,", &heater(""));
    write(root, "archive", "2.host:2,S", &heater("Status: RO\r\n"));
    let seeds = |id: &str, folder: &str| {
        mail(
            id,
            "Seed order",
            SEED_DATE,
            &format!("X-Folder: {folder}\r\n"),
            SEEDS,
        )
    };
    write(
        root,
        "sent",
        "3.host:2,S",
        &seeds("seed-a@example.org", "sent"),
    );
    write(
        root,
        "archive",
        "4.host:2,S",
        &seeds("seed-b@example.org", "archive"),
    );
    write(
        root,
        "sent",
        "5.host:2,S",
        &mail(
            "seed-c@example.org",
            "Seed order",
            SEED_DATE,
            "",
            SEEDS_CANCELLED,
        ),
    );
}

fn options(limit: usize) -> RetrieveOptions {
    RetrieveOptions {
        mode: SearchMode::Lexical,
        limit,
        rerank: false,
        now: 1_800_000_000,
    }
}

#[test]
fn copies_count_once_and_show_once_with_their_folders() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    mailbox(&root);
    let mut engine = common::open(&tmp.path().join("data"));
    let report = common::ingest(&mut engine, std::slice::from_ref(&root));
    assert_eq!(report.added, 5, "every file is stored: copies are not lost");

    // The thread list counts emails.
    let threads = engine.store().threads().expect("threads");
    let mut seed_threads: Vec<_> = threads
        .iter()
        .filter(|t| t.subject == "Seed order")
        .collect();
    seed_threads.sort_by_key(|t| t.messages.len());
    let counts: Vec<(usize, usize)> = seed_threads
        .iter()
        .map(|t| (t.messages.len(), t.email_count()))
        .collect();
    // Two emails that share a subject but not a reply: two threads. The copies of
    // one, linked by nothing but their content, are one thread of one email.
    assert_eq!(counts, [(1, 1), (2, 1)]);
    let seeds = seed_threads[1];
    let heater = threads
        .iter()
        .find(|t| t.subject == "Greenhouse heater")
        .expect("the heater thread");
    assert_eq!(heater.email_count(), 1);
    assert_eq!(
        heater.unread, 0,
        "an email read in one folder is read, though its inbox copy has no S"
    );

    // Search lists each email once, naming the other copies' folders.
    let r = engine
        .retrieve("seed order nursery", options(10))
        .expect("search");
    assert_eq!(
        r.hits.len(),
        2,
        "{:?}",
        r.hits.iter().map(|h| &h.hit.snippet).collect::<Vec<_>>()
    );
    let placed = r
        .hits
        .iter()
        .find(|h| h.hit.message_id.as_deref() != Some("seed-c@example.org"))
        .expect("the placed order");
    let mut folders = vec![placed.hit.folder.clone()];
    folders.extend(placed.hit.also_in.iter().cloned());
    folders.sort();
    assert_eq!(folders, ["mail/archive", "mail/sent"]);
    let cancelled = r
        .hits
        .iter()
        .find(|h| h.hit.message_id.as_deref() == Some("seed-c@example.org"))
        .expect("the different email with the same subject and second");
    assert!(cancelled.hit.also_in.is_empty());

    let hits = engine
        .search("greenhouse heater", 10, 1_800_000_000)
        .expect("search");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].also_in.len(), 1, "{:?}", hits[0]);
    assert_ne!(hits[0].also_in[0], hits[0].folder);

    // A limit counts emails too: the first hit and its copy fill one place.
    let one = engine
        .retrieve("seed order nursery", options(1))
        .expect("search");
    assert_eq!(one.hits.len(), 1);

    // The reader shows each email once, as the copy asked for.
    let archived: MessageKey = {
        let all = engine
            .retrieve("seed order nursery", options(10))
            .expect("search");
        let h = all
            .hits
            .iter()
            .find(|h| h.hit.message_id.as_deref() != Some("seed-c@example.org"))
            .expect("hit");
        // The other copy than the one search listed.
        let listed = h.hit.folder.clone();
        let other = if listed == "mail/sent" {
            "mail/archive"
        } else {
            "mail/sent"
        };
        let key = engine
            .store()
            .messages()
            .filter_map(Result::ok)
            .find(|m| m.folder == other && m.body.contains("forty trays"))
            .map(|m| m.key)
            .expect("the other copy");
        key
    };
    let thread = seeds.id;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (handle, mut events) =
        EngineHandle::start(engine, Box::new(ExtractiveAnswerer), rt.handle());
    assert!(handle.send(EngineRequest::Thread {
        req: 7,
        id: thread,
        show: Some(archived),
    }));
    let (messages, also_in) = rt.block_on(async {
        loop {
            let ev = tokio::time::timeout(Duration::from_secs(30), events.recv())
                .await
                .expect("the thread within 30 s")
                .expect("the handle runs");
            if let EngineEvent::ThreadMessages {
                req: 7,
                messages,
                also_in,
                ..
            } = ev
            {
                break (messages, also_in);
            }
        }
    });
    assert_eq!(messages.len(), 1, "one email in the thread");
    let shown = messages
        .iter()
        .find(|m| m.body.contains("forty trays"))
        .expect("the placed order");
    assert_eq!(shown.key, archived, "the copy asked for is the one shown");
    assert_eq!(also_in.get(&shown.key).map(Vec::len), Some(1));
    drop(handle);
}

/// `quoth search --output threads|messages|files`, as notmuch prints them: one per
/// line; files name every copy of each email listed.
#[test]
fn search_prints_threads_messages_or_every_copys_file() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("mail");
    mailbox(&root);
    let data = tmp.path().join("data");
    let quoth = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_quoth"))
            .env("QUOTH_INLINE", "1")
            .arg("--data-dir")
            .arg(&data)
            .args(args)
            .env_remove("XDG_RUNTIME_DIR")
            .output()
            .expect("quoth runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    quoth(&["ingest", "--no-embed", &root.to_string_lossy()]);
    let search = |output: &str| {
        quoth(&[
            "search",
            "--mode",
            "lexical",
            "--output",
            output,
            "seed order nursery",
        ])
    };
    let mut files = search("files");
    files.sort();
    assert_eq!(
        files.len(),
        3,
        "two copies of one email and one other: {files:?}"
    );
    assert!(files.iter().all(|f| Path::new(f).is_file()), "{files:?}");
    assert!(
        files.iter().any(|f| f.contains("/archive/")) && files.iter().any(|f| f.contains("/sent/"))
    );
    let messages = search("messages");
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("seed-c@example.org")));
    let threads = search("threads");
    assert_eq!(threads.len(), 2, "{threads:?}");
}
