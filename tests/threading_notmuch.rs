//! Thread grouping on notmuch's real test corpora (LKML threads with References and
//! In-Reply-To), compared message by message with what `notmuch` itself computes.

mod common;

use common::{ingest, open, program, shared};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::process::Command;

#[test]
fn threads_agree_with_notmuch() {
    let Some(corpora) = shared("data/fixtures/notmuch-corpora/test/corpora") else {
        return;
    };
    if !program("notmuch") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let theirs = notmuch_threads(tmp.path(), &corpora);
    let mut engine = open(&tmp.path().join("quoth"));
    ingest(&mut engine, &[corpora]);

    // Message-ID → our thread id.
    let mut ours: HashMap<String, String> = HashMap::new();
    for msg in engine.store().messages() {
        let msg = msg.expect("decodes");
        if let (Some(id), Some(t)) = (
            msg.message_id.clone(),
            engine.thread_of(&msg.key).expect("thread"),
        ) {
            ours.insert(id, t.to_hex());
        }
    }
    let mut our_groups: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for (id, t) in &ours {
        our_groups
            .entry(t.as_str())
            .or_default()
            .insert(id.as_str());
    }
    let mut their_groups: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for (id, t) in &theirs {
        if ours.contains_key(id) {
            their_groups
                .entry(t.as_str())
                .or_default()
                .insert(id.as_str());
        }
    }
    let mut compared = 0;
    let mut agree = 0;
    for (id, their_thread) in &theirs {
        let Some(our_thread) = ours.get(id) else {
            continue;
        };
        compared += 1;
        let a = &our_groups[our_thread.as_str()];
        let b = &their_groups[their_thread.as_str()];
        if a == b {
            agree += 1;
        } else {
            eprintln!("differs: {id}\n  quoth:   {a:?}\n  notmuch: {b:?}");
        }
    }
    let share = agree as f64 / compared.max(1) as f64;
    eprintln!(
        "thread agreement with notmuch: {agree}/{compared} messages ({:.1}%), {} quoth threads, {} notmuch threads",
        share * 100.0,
        our_groups.len(),
        their_groups.len()
    );
    assert!(compared >= 250, "compared only {compared} messages");
    assert!(share >= 0.98, "agreement {share:.3} is under 98%");
}

/// Runs `notmuch new` over the corpora and returns Message-ID → notmuch thread id.
fn notmuch_threads(tmp: &Path, corpora: &Path) -> HashMap<String, String> {
    let db = tmp.join("notmuch-db");
    std::fs::create_dir_all(&db).expect("mkdir");
    let config = tmp.join("notmuch-config");
    std::fs::write(
        &config,
        format!(
            "[database]\npath={}\nmail_root={}\n[new]\ntags=inbox;\n",
            db.display(),
            corpora.display()
        ),
    )
    .expect("write config");
    let run = |args: &[&str]| {
        let out = Command::new("notmuch")
            .env("NOTMUCH_CONFIG", &config)
            .args(args)
            .output()
            .expect("notmuch runs");
        assert!(
            out.status.success(),
            "notmuch {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run(&["new", "--quiet"]);
    let mut map = HashMap::new();
    for thread in run(&["search", "--output=threads", "*"]).lines() {
        for id in run(&["search", "--output=messages", thread]).lines() {
            let id = id.trim_start_matches("id:").trim_matches('"').to_string();
            map.insert(id, thread.to_string());
        }
    }
    map
}
