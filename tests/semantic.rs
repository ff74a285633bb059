//! Meaning-based retrieval with the real ONNX model: the embedder itself, background
//! embedding jobs, semantic and hybrid search over the demo mailbox, filters in every
//! mode, and the confidence gate.

mod common;

use common::{demo_mailbox, embed_all, ingest, models, open};
use quoth::engine::{Engine, RetrieveOptions, SearchMode, EMBED_JOB};
use quoth::index::embed::{EmbedConfig, Embedder, ModelPaths};

const DANA_WATER_DAMAGE: &str = "e77443e5dd18.0af4658c@mail.harbor-properties.example";
const STRIKE: &str = "20240206203012.378cf7a473@northwind.example";

fn cos(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn embedder_gives_normalised_vectors_that_follow_meaning() {
    let Some(dir) = models() else { return };
    let e = Embedder::load(&ModelPaths::in_dir(&dir), EmbedConfig::default()).expect("loads");
    assert_eq!(e.dim(), 384);
    let texts = [
        "The roof is leaking into the server room.",
        "Storm water damaged the ceiling above our racks.",
        "The quarterly budget total was revised down.",
        "",
    ];
    let v = e.embed(&texts).expect("embeds");
    assert_eq!(v.len(), 4);
    for x in &v[..3] {
        assert_eq!(x.len(), 384);
        let norm: f32 = x.iter().map(|a| a * a).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-3, "norm {norm}");
    }
    assert!(cos(&v[0], &v[1]) > cos(&v[0], &v[2]) + 0.1);
    // Batching by length gives the same vectors as one at a time.
    let single = e.embed(&texts[1..2]).expect("embeds");
    assert!(cos(&single[0], &v[1]) > 0.999);
    // Long input is truncated, not an error.
    let long = "word ".repeat(5_000);
    assert_eq!(e.embed(&[long.as_str()]).expect("embeds")[0].len(), 384);
    let tokens = e.token_vectors("strike price").expect("tokens");
    assert_eq!(tokens.len(), 2);
}

#[test]
fn background_embedding_gives_the_vectors_of_foreground_embedding_in_order() {
    let Some(dir) = models() else { return };
    let e = Embedder::load(&ModelPaths::in_dir(&dir), EmbedConfig::default()).expect("loads");
    let texts: Vec<String> = (0..37)
        .map(|i| format!("Invoice {i} for the roof repair is due in {} days.", i * 3))
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let nice_before = quoth::index::priority::this_thread_nice();
    let foreground = e.embed(&texts).expect("embeds");
    let background = e
        .embed_in_background(&texts)
        .expect("embeds in the background");
    assert_eq!(background.len(), texts.len());
    for (i, (f, b)) in foreground.iter().zip(&background).enumerate() {
        assert!(cos(f, b) > 0.999, "text {i}: {}", cos(f, b));
    }
    // One text, and none.
    let one = e.embed_in_background(&texts[5..6]).expect("one");
    assert!(cos(&one[0], &foreground[5]) > 0.999);
    assert!(e.embed_in_background(&[]).expect("none").is_empty());
    // The caller's priority is left as it was.
    assert_eq!(quoth::index::priority::this_thread_nice(), nice_before);
}

fn demo_with_vectors() -> Option<(tempfile::TempDir, Engine)> {
    models()?;
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = open(&tmp.path().join("data"));
    ingest(&mut engine, &[demo_mailbox()]);
    let report = embed_all(&mut engine);
    assert!(report.embedded > 0);
    Some((tmp, engine))
}

fn retrieve(engine: &Engine, q: &str, mode: SearchMode) -> quoth::engine::Retrieval {
    engine
        .retrieve(
            q,
            RetrieveOptions {
                mode,
                limit: 10,
                rerank: true,
                now: 0,
            },
        )
        .expect("retrieves")
}

fn ids(r: &quoth::engine::Retrieval) -> Vec<String> {
    r.hits
        .iter()
        .map(|h| h.hit.message_id.clone().unwrap_or_default())
        .collect()
}

#[test]
fn semantic_and_hybrid_find_what_words_miss() {
    let Some((_tmp, mut engine)) = demo_with_vectors() else {
        return;
    };
    let p = engine.embed_progress().expect("progress");
    assert_eq!(p.done, p.total);
    assert_eq!(engine.vectors().len() as u64, p.total);
    // Nothing left to do: a second run embeds nothing.
    assert_eq!(embed_all(&mut engine).embedded, 0);

    // Dana never says "leak"; her email is about water damage.
    let q = "who is fixing the roof leak over the server room";
    let semantic = retrieve(&engine, q, SearchMode::Semantic);
    assert!(
        ids(&semantic)[..3].contains(&DANA_WATER_DAMAGE.to_string()),
        "{:?}",
        ids(&semantic)
    );
    // Hybrid ranks the whole water-damage thread first: a message from Dana (who
    // names the roofer) in the top 3, her first report in the top 5.
    let hybrid = retrieve(&engine, q, SearchMode::Hybrid);
    assert!(hybrid.hits[..3].iter().any(|h| h.hit.from.contains("Dana")));
    assert!(ids(&hybrid)[..5].contains(&DANA_WATER_DAMAGE.to_string()));
    assert!(hybrid.evidence, "confidence {}", hybrid.confidence);
    let top = &hybrid.hits[0];
    let chunk = top.chunk.as_ref().expect("a best chunk");
    let msg = engine.find_message(&top.hit.key).expect("found");
    assert_eq!(
        &msg.body[chunk.start as usize..chunk.end as usize],
        chunk.cite_text
    );

    // Stages are reported for --explain.
    assert!(hybrid.hits.iter().any(|h| h.stages.lexical_rank.is_some()));
    assert!(hybrid.hits.iter().any(|h| h.stages.dense_rank.is_some()));

    let strike = retrieve(&engine, "option strike price", SearchMode::Hybrid);
    assert_eq!(ids(&strike)[0], STRIKE);
}

#[test]
fn filters_apply_in_every_mode() {
    let Some((_tmp, engine)) = demo_with_vectors() else {
        return;
    };
    for mode in [
        SearchMode::Lexical,
        SearchMode::Semantic,
        SearchMode::Hybrid,
    ] {
        let r = retrieve(&engine, "repair estimate from:dana", mode);
        assert!(!r.hits.is_empty(), "{mode:?}");
        assert!(
            r.hits.iter().all(|h| h.hit.from.contains("Dana")),
            "{mode:?}: {:?}",
            r.hits.iter().map(|h| &h.hit.from).collect::<Vec<_>>()
        );
        let r = retrieve(&engine, "budget date:2024-03-12..2024-03-12", mode);
        assert!(r.hits.iter().all(|h| h
            .hit
            .date
            .is_some_and(|d| (1_710_201_600..1_710_288_000).contains(&d))));
        // Six demo messages carry attachments; the budget draft is the one about
        // the budget, and nothing without an attachment comes back.
        let r = retrieve(&engine, "budget has:attachment", mode);
        let with_attachments = engine.search("has:attachment", 100, 0).expect("runs");
        assert_eq!(with_attachments.len(), 6);
        assert!(!r.hits.is_empty(), "{mode:?}");
        assert_eq!(
            r.hits[0].hit.message_id.as_deref(),
            Some("20240311200218.18a1a48eb1@northwind.example"),
            "{mode:?}"
        );
        assert!(
            r.hits
                .iter()
                .all(|h| with_attachments.iter().any(|w| w.key == h.hit.key)),
            "{mode:?}"
        );
    }
}

#[test]
fn the_gate_reports_no_evidence_for_off_topic_questions() {
    let Some((_tmp, engine)) = demo_with_vectors() else {
        return;
    };
    for q in [
        "what is the population of Mongolia",
        "recipe for sourdough bread starter",
    ] {
        let r = retrieve(&engine, q, SearchMode::Hybrid);
        assert!(!r.evidence, "{q}: confidence {}", r.confidence);
    }
    for q in ["when is the board meeting", "what is the Q2 budget total"] {
        let r = retrieve(&engine, q, SearchMode::Hybrid);
        assert!(r.evidence, "{q}: confidence {}", r.confidence);
    }
    let jobs = engine.embed_progress().expect("progress");
    assert_eq!(jobs.failed, 0);
    assert_eq!(EMBED_JOB, "embed");
}

#[test]
fn a_cached_vector_is_the_vector_and_another_store_embeds_it_from_the_cache() {
    let Some(dir) = models() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let cache = tmp.path().join("work").join("embed-cache.bin");
    let paths = ModelPaths::in_dir(&dir);
    let plain = Embedder::load(&paths, EmbedConfig::default()).expect("loads");
    let texts = [
        "The crane is delivered to the north dock on Thursday.",
        "Lunch moved to noon.",
        "The crane is delivered to the north dock on Thursday.",
    ];
    let want = plain.embed(&texts).expect("embeds");

    let first = Embedder::load(&paths, EmbedConfig::default())
        .expect("loads")
        .with_cache(&cache)
        .expect("the cache opens");
    let stored = first.embed(&texts).expect("embeds");
    for (s, w) in stored.iter().zip(&want) {
        assert!(cos(s, w) > 0.999, "the model's vector: {}", cos(s, w));
    }
    assert_eq!(first.cache_counts(), Some((0, 3)), "nothing was kept yet");
    assert_eq!(
        first.embed_in_background(&texts[..2]).expect("embeds"),
        stored[..2].to_vec(),
        "the kept vectors, as they were"
    );
    assert_eq!(first.cache_counts(), Some((2, 3)));
    drop(first);

    // Another process, another store: the same texts come from the file.
    let second = Embedder::load(&paths, EmbedConfig::default())
        .expect("loads")
        .with_cache(&cache)
        .expect("the cache reopens");
    let got = second
        .embed(&[texts[1], "A text never seen before."])
        .expect("embeds");
    assert_eq!(got[0], stored[1], "bit for bit the vector kept");
    let fresh = plain.embed(&["A text never seen before."]).expect("embeds");
    assert!(cos(&got[1], &fresh[0]) > 0.999);
    assert_eq!(second.cache_counts(), Some((1, 1)));
}
