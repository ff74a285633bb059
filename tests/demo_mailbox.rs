//! The demo mailbox end to end through the engine and the binary: ingest, threading
//! (headers and the subject fallback), cleaning, the query language, show, reindex,
//! idempotence and stable chunk ids.

mod common;

use common::{demo_mailbox, ingest, open};
use quoth::engine::{Engine, EngineError};
use quoth::mail::clean::SegmentKind;
use std::collections::HashSet;
use std::process::Command;

const STRIKE: &str = "20240206203012.378cf7a473@northwind.example";
const ALEX_ROOF_REPLY: &str = "20240304140210.6190f77c58@northwind.example";
const LAWYER_FINAL: &str = "38fba0a82995.a3b98282@mail.brightwater-legal.example";
const HTML_NOTICE: &str = "20240312150000.b72d010ba6@northwind.example";
const ZOE: &str = "864800ecfacc.6a71a78a@mail.helix-partners.example";
const BUDGET_DRAFT: &str = "20240311200218.18a1a48eb1@northwind.example";
/// The messages whose facts are only in their PDF attachments.
const PDF_MESSAGES: &[&str] = &[
    "20240314134000.5d1e0a9c42@northwind.example",
    "5b2e8c1d7f40.9e3a1c52@mail.harbor-properties.example",
    "20240325130000.c4a7e19b03@northwind.example",
];
/// The demo messages whose facts are only in a spreadsheet and an invitation.
const OFFICE_MESSAGES: [&str; 2] = [
    "20240326101500.7f3a2c9e41@northwind.example",
    "20240327090000.2b6d8e1f07@northwind.example",
];
const LOTUS: &[&str] = &[
    "OFC287F118.778007B5-ON85258A4A.003E0F92@meridian-telecom.example",
    "20240221141527.fab08df774@northwind.example",
    "OF3DDA5333.F1EA82E0-ON85258A16.00F1CF11@meridian-telecom.example",
    "20240228133109.ae9c62a422@northwind.example",
    "OFEDA1D8E2.B0F8714C-ON85258A56.001BC7AA@meridian-telecom.example",
];

fn demo_engine() -> (tempfile::TempDir, Engine) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = open(&tmp.path().join("data"));
    let report = ingest(&mut engine, &[demo_mailbox()]);
    assert_eq!(report.added, 46, "{report:?}");
    (tmp, engine)
}

fn ids(engine: &Engine, query: &str) -> Vec<String> {
    engine
        .search(query, 100, 0)
        .expect("query runs")
        .into_iter()
        .map(|h| h.message_id.unwrap_or_default())
        .collect()
}

#[test]
fn ingest_counts_and_threads() {
    let (_tmp, engine) = demo_engine();
    let stats = engine.stats().expect("stats");
    assert_eq!(stats.messages, 46);
    assert_eq!(stats.quarantined, 0);
    assert_eq!(stats.lost, 0);
    // 9 conversations and 10 standalone messages (3 of them carry PDFs, one a
    // spreadsheet, one an invitation).
    assert_eq!(stats.threads, 19);
    // The Lotus Notes style thread has no References: the fallback joins all five.
    let threads: HashSet<_> = LOTUS
        .iter()
        .map(|id| {
            let m = engine.find_message(id).expect("found");
            engine.thread_of(&m.key).expect("thread").expect("assigned")
        })
        .collect();
    assert_eq!(threads.len(), 1, "Lotus thread split: {threads:?}");
    let t = threads.into_iter().next().expect("one");
    let summary = engine.store().thread(&t).expect("read").expect("exists");
    assert_eq!(summary.messages.len(), 5);
    assert_eq!(
        ids(&engine, &format!("thread:{t}")).len(),
        5,
        "thread: finds the whole thread"
    );
}

#[test]
fn query_language_over_the_demo_mailbox() {
    let (_tmp, engine) = demo_engine();
    assert_eq!(ids(&engine, "strike price")[0], STRIKE);
    let from_dana = engine.search("from:dana", 100, 0).expect("runs");
    assert!(!from_dana.is_empty());
    assert!(
        from_dana.iter().all(|h| h.from.contains("Dana")),
        "{from_dana:?}"
    );
    let march = engine
        .search("date:2024-03-01..2024-03-31", 100, 0)
        .expect("runs");
    let (start, end) = (1_709_251_200, 1_711_929_600); // 2024-03-01, 2024-04-01 UTC
    assert!(!march.is_empty());
    assert!(march
        .iter()
        .all(|h| h.date.is_some_and(|d| (start..end).contains(&d))));
    let mut with_attachments = ids(&engine, "has:attachment");
    with_attachments.sort();
    let mut expected = vec![BUDGET_DRAFT.to_string()];
    expected.extend(PDF_MESSAGES.iter().map(|id| id.to_string()));
    expected.extend(OFFICE_MESSAGES.iter().map(|id| id.to_string()));
    expected.sort();
    assert_eq!(with_attachments, expected);
    let not_sent = engine
        .search("budget AND NOT folder:sent", 100, 0)
        .expect("runs");
    assert!(!not_sent.is_empty());
    assert!(not_sent.iter().all(|h| !h.folder.ends_with("sent")));
    let with_sent = engine.search("budget", 100, 0).expect("runs");
    assert!(with_sent.len() > not_sent.len());
    let either = ids(&engine, "Kessler OR Lindenhof");
    assert!(either.contains(&ZOE.to_string()));
    assert!(either.len() >= 2);
    let grouped = ids(&engine, "(Kessler OR Lindenhof) from:zoë");
    assert_eq!(grouped, vec![ZOE]);
    assert_eq!(ids(&engine, &format!("id:<{STRIKE}>")), vec![STRIKE]);
    assert_eq!(
        ids(&engine, "\"board meeting\" date:2024-03-06..2024-03-06").len(),
        1
    );
    assert!(ids(&engine, "-budget").len() < 46);
    // Stemming: "repairs" finds "repair".
    assert!(!ids(&engine, "repairs").is_empty());
    // Snippets mark the match.
    let hit = &engine.search("Kessler", 1, 0).expect("runs")[0];
    let (s, e) = hit.highlights[0];
    assert_eq!(hit.snippet[s..e].to_lowercase(), "kessler");
}

#[test]
fn malformed_queries_report_the_position() {
    let (_tmp, engine) = demo_engine();
    match engine.search("budget AND (travel", 10, 0) {
        Err(EngineError::Query(e)) => assert_eq!(e.position, 11, "{e}"),
        other => panic!("expected a query error, got {other:?}"),
    }
    for bad in [
        "from:",
        "\"unterminated",
        "date:2024-13-01",
        "a AND",
        "nosuch:field",
    ] {
        assert!(
            matches!(engine.search(bad, 10, 0), Err(EngineError::Query(_))),
            "{bad} should be an error"
        );
    }
}

#[test]
fn cleaning_keeps_quotes_disclaimers_and_html_right() {
    let (_tmp, engine) = demo_engine();
    let store = engine.store();
    // Alex's reply quotes Dana: her words are in a quoted segment, never in a chunk.
    let reply = engine.find_message(ALEX_ROOF_REPLY).expect("found");
    assert!(reply
        .segments
        .iter()
        .any(|s| s.kind == SegmentKind::Quoted && reply.segment_text(s).contains("ceiling tiles")));
    for c in store.chunks_of(&reply.key).expect("chunks") {
        assert!(!c.cite_text.contains("ceiling tiles"), "{}", c.cite_text);
        assert!(c.embed_text.contains("Water damage"));
    }
    // The lawyer's disclaimer is recognised and never cited.
    let lawyer = engine.find_message(LAWYER_FINAL).expect("found");
    assert!(lawyer
        .segments
        .iter()
        .any(|s| s.kind == SegmentKind::Disclaimer));
    let chunks = store.chunks_of(&lawyer.key).expect("chunks");
    assert!(!chunks.is_empty());
    assert!(chunks
        .iter()
        .all(|c| !c.cite_text.contains("intended recipient")));
    // HTML-only mail becomes text that keeps its links.
    let html = engine.find_message(HTML_NOTICE).expect("found");
    assert!(html.body.contains("https://"), "{}", html.body);
    assert!(!html.body.contains("<ul>"));
    // Charsets and RFC 2047 names are decoded.
    let zoe = engine.find_message(ZOE).expect("found");
    assert!(zoe.from[0].short().contains("Zoë"));
    assert!(zoe.body.contains("€1,200"));
    // Attachment bytes are kept for later processing.
    let budget = engine.find_message(BUDGET_DRAFT).expect("found");
    assert_eq!(budget.attachments[0].name.as_deref(), Some("q2-budget.csv"));
    let bytes = store
        .attachment_bytes(&budget.key, 0)
        .expect("read")
        .expect("stored");
    assert!(String::from_utf8_lossy(&bytes).contains(','));
    assert_eq!(bytes.len() as u64, budget.attachments[0].size);
}

fn chunk_ids(engine: &Engine, key: &quoth::mail::model::MessageKey) -> Vec<quoth::store::ChunkId> {
    engine
        .store()
        .chunks_of(key)
        .expect("chunks")
        .into_iter()
        .map(|c| c.id)
        .collect()
}

#[test]
fn reingest_is_idempotent_and_chunk_ids_are_stable() {
    let (tmp, mut engine) = demo_engine();
    let again = ingest(&mut engine, &[demo_mailbox()]);
    assert_eq!(again.added, 0);
    assert_eq!(again.files_read, 0);
    let key = engine.find_message(STRIKE).expect("found").key;
    let first_ids = chunk_ids(&engine, &key);
    drop(engine);
    let mut fresh = open(&tmp.path().join("other"));
    ingest(&mut fresh, &[demo_mailbox()]);
    let second_ids = chunk_ids(&fresh, &key);
    assert!(!first_ids.is_empty());
    assert_eq!(first_ids, second_ids);
}

#[test]
fn reindex_rebuilds_the_same_index() {
    let (_tmp, mut engine) = demo_engine();
    // The same messages match (the order of near-ties may change: BM25 statistics
    // count replaced documents until segments merge, a rebuilt index has none).
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let before = sorted(ids(&engine, "budget OR roof OR offsite"));
    let fibre_before = ids(&engine, "subject:fibre").len();
    assert_eq!(fibre_before, 5);
    let n = engine.reindex(&mut |_, _| {}).expect("reindex");
    assert_eq!(n, 46);
    assert_eq!(engine.stats().expect("stats").lexical_docs, 46);
    assert_eq!(sorted(ids(&engine, "budget OR roof OR offsite")), before);
    assert_eq!(ids(&engine, "subject:fibre").len(), fibre_before);
}

#[test]
fn the_binary_speaks_json_and_points_at_query_errors() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let bin = env!("CARGO_BIN_EXE_quoth");
    let run = |args: &[&str]| {
        Command::new(bin)
            .env("QUOTH_INLINE", "1")
            .arg("--data-dir")
            .arg(tmp.path())
            .args(args)
            .output()
            .expect("binary runs")
    };
    let out = run(&[
        "ingest",
        demo_mailbox().to_str().expect("utf-8 path"),
        "--json",
    ]);
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(report["added"], 46);

    let out = run(&[
        "search",
        "strike price",
        "--mode",
        "lexical",
        "--json",
        "--limit",
        "2",
    ]);
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(result["mode"], "lexical");
    assert_eq!(result["evidence"], true);
    let hits = &result["hits"];
    assert_eq!(hits.as_array().map(Vec::len), Some(2));
    assert_eq!(hits[0]["message_id"], STRIKE);
    for field in [
        "key",
        "thread_id",
        "date",
        "from",
        "subject",
        "snippet",
        "highlights",
    ] {
        assert!(!hits[0][field].is_null(), "{field} missing");
    }

    // A reader that goes away (`| head`) ends the output, not with a panic.
    let mut child = Command::new(bin)
        .env("QUOTH_INLINE", "1")
        .arg("--data-dir")
        .arg(tmp.path())
        .args(["search", "budget OR roof OR offsite", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("binary ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");

    let out = run(&["stats", "--json"]);
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(stats["messages"], 46);

    let out = run(&["show", STRIKE, "--json"]);
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(shown["segments"].as_array().is_some_and(|s| !s.is_empty()));

    let out = run(&["search", "budget AND (travel"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("position 11"), "{err}");
    assert!(err.contains("           ^"), "{err}");
}

#[test]
fn a_broken_index_and_an_old_schema_are_rebuilt() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("data");
    {
        let mut engine = open(&dir);
        ingest(&mut engine, &[demo_mailbox()]);
    }
    // The tantivy index is derived: damaged, it is rebuilt from sled on open.
    std::fs::write(dir.join("lexical/meta.json"), b"{ not json").expect("damage");
    {
        let engine = open(&dir);
        assert_eq!(engine.stats().expect("stats").lexical_docs, 46);
        assert_eq!(ids(&engine, "strike price")[0], STRIKE);
    }
    // A store from another schema version is refused with a way out...
    {
        let db = sled::open(dir.join("store")).expect("sled");
        let meta = db.open_tree("meta").expect("tree");
        meta.insert("schema_version", &99u32.to_be_bytes())
            .expect("write");
        db.flush().expect("flush");
    }
    match Engine::open(&dir) {
        Err(EngineError::Store(e)) => assert!(e.to_string().contains("quoth rebuild"), "{e}"),
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("an old schema must not open"),
    }
    // ...and `rebuild` re-reads the recorded sources into a new store.
    let report = Engine::rebuild(&dir, &mut |_| {}).expect("rebuild");
    assert_eq!(report.added, 46);
    let engine = open(&dir);
    assert_eq!(engine.stats().expect("stats").messages, 46);
    assert_eq!(ids(&engine, "strike price")[0], STRIKE);
}

/// The demo reads its own copy of the demo mailbox, so reading it (which marks mail
/// read in its files) leaves the shipped files alone; a demo data dir made before
/// that, whose mail points at the shipped files, is moved aside and made afresh.
#[test]
fn the_demo_reads_its_own_copy_of_the_mailbox() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let bin = env!("CARGO_BIN_EXE_quoth");
    let run = |data: &std::path::Path, args: &[&str]| {
        let out = Command::new(bin)
            .env("QUOTH_INLINE", "1")
            .arg("--data-dir")
            .arg(data)
            .args(args)
            .env_remove("XDG_RUNTIME_DIR")
            .output()
            .expect("binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let files = |data: &std::path::Path| -> Vec<String> {
        let out = run(
            data,
            &["search", "--output", "files", "--limit", "100", "*"],
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    };
    let fresh = tmp.path().join("fresh");
    run(&fresh, &["demo"]);
    let copy = fresh.join("demo-mailbox");
    let listed = files(&fresh);
    assert_eq!(listed.len(), 46, "{listed:?}");
    assert!(
        listed
            .iter()
            .all(|f| f.starts_with(&*copy.to_string_lossy())),
        "{listed:?}"
    );

    // A data dir whose mail points at the shipped mailbox, as the demo made them.
    let old = tmp.path().join("old");
    run(
        &old,
        &[
            "ingest",
            "--no-embed",
            demo_mailbox().to_str().expect("utf-8 path"),
        ],
    );
    assert!(files(&old)[0].starts_with(&*demo_mailbox().to_string_lossy()));
    let out = run(&old, &["demo"]);
    let note = String::from_utf8_lossy(&out.stderr);
    assert!(note.contains("the earlier demo data is kept at"), "{note}");
    let aside: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("read dir")
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("old.before-own-copy-")
        })
        .collect();
    assert_eq!(aside.len(), 1, "the old data dir is kept beside");
    let copy = old.join("demo-mailbox");
    assert!(files(&old)
        .iter()
        .all(|f| f.starts_with(&*copy.to_string_lossy())));
}
