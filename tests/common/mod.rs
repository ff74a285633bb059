//! Helpers shared by the integration tests.
#![allow(dead_code)]

use quoth::answer::conversation::Conversation;
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::engine::{AskOptions, AskOutcome, Engine, IngestReport};
use std::path::{Path, PathBuf};

/// The shared data folder beside the checkout, if present. When it is absent the test
/// skips with a message, unless QUOTH_REQUIRE_SHARED is set (as CI does): then it fails.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let root = std::env::var_os("QUOTH_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = root.join(rel);
    if path.exists() {
        return Some(path);
    }
    if std::env::var_os("QUOTH_REQUIRE_SHARED").is_some() {
        panic!(
            "{} is required (QUOTH_REQUIRE_SHARED is set) but absent",
            path.display()
        );
    }
    eprintln!(
        "SKIP: {} is absent; this test needs the shared data",
        path.display()
    );
    None
}

/// A program the test needs; same skip-or-fail rule as [`shared`].
pub fn program(name: &str) -> bool {
    let found = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        if std::env::var_os("QUOTH_REQUIRE_SHARED").is_some() {
            panic!(
                "the program {name} is required (QUOTH_REQUIRE_SHARED is set) but not installed"
            );
        }
        eprintln!("SKIP: {name} is not installed");
    }
    found
}

/// The model files, when fetched (`models/fetch`). Same skip-or-fail rule: CI fetches
/// them, so there a missing model is a failure.
pub fn models() -> Option<PathBuf> {
    let dir = std::env::var_os("QUOTH_MODELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("models"));
    let paths = quoth::index::embed::ModelPaths::in_dir(&dir);
    if paths.runtime.is_file() && paths.model.is_file() && paths.tokenizer.is_file() {
        return Some(dir);
    }
    if std::env::var_os("QUOTH_REQUIRE_SHARED").is_some() {
        panic!("the embedding model is required (QUOTH_REQUIRE_SHARED is set): run models/fetch");
    }
    eprintln!("SKIP: the embedding model is not fetched; run models/fetch");
    None
}

/// Runs every pending embedding job.
pub fn embed_all(engine: &mut Engine) -> quoth::engine::EmbedReport {
    let stop = std::sync::atomic::AtomicBool::new(false);
    engine
        .embed_pending(&stop, &mut |_| {})
        .expect("embedding runs")
}

/// Copies a folder tree (a fixture mailbox, which reading mail must not change).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

pub fn demo_mailbox() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/demo-mailbox")
}

pub fn ingest(engine: &mut Engine, paths: &[PathBuf]) -> IngestReport {
    engine.ingest(paths, &mut |_| {}).expect("ingest runs")
}

pub fn open(dir: &Path) -> Engine {
    Engine::open(dir).expect("engine opens")
}

/// The Enron maildir (8,971 messages) plus the prompt-injection test mail, ingested
/// and embedded once and reused by the test binaries that read it (retrieval quality,
/// answer quality). The copy lives under target/ and is keyed by a hash of the source
/// tree, Cargo.lock, the fixtures and the embedding model, so any change to the code
/// or the model builds it afresh.
/// Returns the data directory and, when it was built now, the embedding report.
/// None (after a SKIP message) when the shared data or the model is absent.
pub fn enron_store() -> Option<(PathBuf, Option<quoth::engine::EmbedReport>)> {
    let maildir = shared("data/enron/maildir")?;
    let models = models()?;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let injections = root.join("tests/fixtures/injection-maildir");
    let mut hasher = blake3::Hasher::new();
    let mut files = Vec::new();
    collect_files(&root.join("src"), &mut files);
    collect_files(&injections, &mut files);
    files.push(root.join("Cargo.lock"));
    // The vectors are the embedding model's.
    files.push(quoth::index::embed::ModelPaths::in_dir(&models).model);
    files.sort();
    for f in &files {
        hasher.update(f.to_string_lossy().as_bytes());
        hasher.update(&std::fs::read(f).unwrap_or_default());
    }
    let key = hasher.finalize().to_hex().to_string();
    let cache = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("quoth-test-cache");
    std::fs::create_dir_all(&cache).expect("cache dir");
    let dir = cache.join(format!("enron-{}", &key[..16]));
    let lock = std::fs::File::create(cache.join("enron.lock")).expect("lock file");
    // Only one test process builds it; the others wait, then reuse it.
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor this function owns for its whole duration.
    unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) };
    let done = dir.join("complete");
    if done.exists() {
        return Some((dir, None));
    }
    // Older copies are stale.
    if let Ok(entries) = std::fs::read_dir(&cache) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("enron-") {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
    let mut engine = open(&dir);
    let report = ingest(&mut engine, &[maildir, injections]);
    assert_eq!(report.quarantined, 0, "{report:?}");
    let embedded = embed_all(&mut engine);
    drop(engine);
    std::fs::write(&done, b"").expect("mark complete");
    Some((dir, Some(embedded)))
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// A new Maildir at `dir` holding one message, `raw`, in `cur/`.
pub fn maildir_with_one(dir: &Path, raw: &str) {
    maildir_with(dir, &[raw.to_string()]);
}

/// A new Maildir at `dir` holding `raws`, one message each, in `cur/`.
pub fn maildir_with(dir: &Path, raws: &[String]) {
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).expect("maildir");
    }
    for (i, raw) in raws.iter().enumerate() {
        std::fs::write(dir.join(format!("cur/{}.test:2,S", i + 1)), raw).expect("write mail");
    }
}

/// An invented email: `headers` (its From, To and Cc lines, one a line), a
/// subject, a day of May 2001, a Message-ID made of `id`, and its body, with CRLF
/// line ends.
pub fn invented_email(id: &str, headers: &str, subject: &str, day: u32, body: &str) -> String {
    format!(
        "{}\r\nSubject: {subject}\r\nDate: Mon, {day} May 2001 09:00:00 -0500\r\n\
         Message-ID: <{id}@example.org>\r\n\r\n{}",
        headers.trim_end().replace('\n', "\r\n"),
        body.replace('\n', "\r\n")
    )
}

/// Invented emails to team@example.org, one per (subject, sender, body), dated
/// 10, 11, ... May 2001, with Message-IDs `{prefix}-0`, `{prefix}-1`, ...
pub fn team_mail(prefix: &str, mail: &[(&str, &str, &str)]) -> Vec<String> {
    mail.iter()
        .enumerate()
        .map(|(i, (subject, from, body))| {
            invented_email(
                &format!("{prefix}-{i}"),
                &format!("From: {from}\nTo: team@example.org"),
                subject,
                10 + i as u32,
                body,
            )
        })
        .collect()
}

/// The engine on a new Maildir of `raws`, searchable and embedded (None without the
/// models); the temp dir lives as long as it.
pub fn engine_on(raws: &[String]) -> Option<(tempfile::TempDir, Engine)> {
    let models = models()?;
    std::env::set_var("QUOTH_MODELS_DIR", &models);
    let tmp = tempfile::tempdir().expect("tempdir");
    let mail = tmp.path().join("mail");
    maildir_with(&mail, raws);
    let mut engine = open(&tmp.path().join("data"));
    ingest(&mut engine, &[mail]);
    embed_all(&mut engine);
    Some((tmp, engine))
}

/// Asks `question` of the thread of the one email a search for `word` finds, from
/// that thread alone (as `quoth ask --thread`).
pub fn ask_of_thread(engine: &Engine, word: &str, question: &str) -> AskOutcome {
    let hits = engine.search(word, 5, 0).expect("search");
    assert_eq!(hits.len(), 1, "{word} finds one email");
    engine
        .ask(
            question,
            &mut Conversation::default(),
            &ExtractiveAnswerer,
            &AskOptions {
                thread: Some(hits[0].thread_id.clone()),
                widen: false,
                ..AskOptions::default()
            },
            &mut |_| {},
        )
        .expect("ask runs")
}

/// Asks one question, with no earlier turns, answered by the extractive answerer.
pub fn ask(engine: &Engine, question: &str) -> AskOutcome {
    engine
        .ask(
            question,
            &mut Conversation::default(),
            &ExtractiveAnswerer,
            &AskOptions::default(),
            &mut |_| {},
        )
        .expect("ask runs")
}

/// The keys of the best `limit` chunks a semantic search for `query` finds.
pub fn semantic_keys(engine: &Engine, query: &str, limit: usize) -> Vec<String> {
    engine
        .retrieve(
            query,
            quoth::engine::RetrieveOptions {
                mode: quoth::engine::SearchMode::Semantic,
                limit,
                rerank: false,
                now: 0,
            },
        )
        .expect("retrieves")
        .hits
        .into_iter()
        .map(|h| h.hit.key)
        .collect()
}
