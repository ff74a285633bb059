//! A data directory remembers which embedding model made its vectors (`vectors/origin`).
//! Opened with the same model it keeps them; when the record names another model, or
//! none while vectors are there (a directory from before the record), the vectors are
//! removed, the open says so, and their texts are embedded again: a query is never
//! compared with vectors of another model.

mod common;

use common::{embed_all, engine_on, open, semantic_keys, team_mail};
use quoth::engine::Engine;
use std::path::Path;

fn mail() -> Vec<String> {
    team_mail(
        "origin",
        &[
            (
                "Ferry timetable",
                "Ines Varga <ines@example.org>",
                "The morning ferry to the island leaves the harbour at half past nine.",
            ),
            (
                "Budget for the garden",
                "Olek Brandt <olek@example.org>",
                "We can spend four hundred on new plants and a rain barrel this spring.",
            ),
            (
                "Choir rehearsal",
                "Mira Soto <mira@example.org>",
                "Rehearsal moves to the church hall on Thursday evening; bring your folder.",
            ),
        ],
    )
}

fn top_hit(engine: &Engine, query: &str) -> String {
    semantic_keys(engine, query, 3)
        .into_iter()
        .next()
        .expect("a hit")
}

fn model_notes(engine: &Engine) -> Vec<&String> {
    engine
        .open_notes()
        .iter()
        .filter(|n| n.contains("embedding model changed"))
        .collect()
}

/// Overwrites the record with `text`.
fn set_origin(data: &Path, text: Option<&str>) {
    let origin = data.join("vectors/origin");
    match text {
        Some(text) => std::fs::write(&origin, text).expect("write origin"),
        None => std::fs::remove_file(&origin).expect("remove origin"),
    }
}

#[test]
fn vectors_of_another_model_are_embedded_again_and_those_of_this_one_are_kept() {
    let Some((tmp, engine)) = engine_on(&mail()) else {
        return;
    };
    let data = tmp.path().join("data");
    let count = engine.vectors().len();
    assert!(count >= 3, "every email has a vector ({count})");
    let query = "when does the boat to the island depart";
    let ferry = top_hit(&engine, query);
    let recorded = std::fs::read_to_string(data.join("vectors/origin")).expect("origin kept");
    let identity = recorded.split(' ').next().expect("identity").to_string();
    assert_eq!(identity.len(), 64, "{recorded}");
    drop(engine);

    // The same model: nothing to do.
    let engine = open(&data);
    assert!(model_notes(&engine).is_empty(), "{:?}", engine.open_notes());
    assert_eq!(engine.vectors().len(), count);
    drop(engine);

    let another = format!("{} 128 1 1\n", "0".repeat(64));
    for (what, origin) in [
        ("another model", Some(another.as_str())),
        ("no record", None),
    ] {
        set_origin(&data, origin);
        let mut engine = open(&data);
        assert_eq!(
            model_notes(&engine).len(),
            1,
            "{what}: {:?}",
            engine.open_notes()
        );
        assert_eq!(
            engine.vectors().len(),
            0,
            "{what}: the old vectors are gone"
        );
        let again = std::fs::read_to_string(data.join("vectors/origin")).expect("recorded");
        assert!(again.starts_with(&identity), "{what}: {again}");
        embed_all(&mut engine);
        assert_eq!(
            engine.vectors().len(),
            count,
            "{what}: every text embedded again"
        );
        assert_eq!(top_hit(&engine, query), ferry, "{what}");
        drop(engine);
        let engine = open(&data);
        assert!(
            model_notes(&engine).is_empty(),
            "{what}: {:?}",
            engine.open_notes()
        );
        assert_eq!(engine.vectors().len(), count, "{what}");
    }
}
