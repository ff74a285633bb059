//! Tests of the parent module, kept apart so the module reads in one sitting.

use super::*;

fn sp(start: usize, end: usize) -> ChunkSpan {
    ChunkSpan { start, end }
}

fn cfg(max: usize, overlap: usize) -> ChunkConfig {
    ChunkConfig {
        max_tokens: max,
        overlap_tokens: overlap,
        min_tokens: 8,
    }
}

fn whole(body: &str) -> Vec<ChunkSpan> {
    vec![sp(0, body.len())]
}

/// Checks the invariants every result must satisfy.
fn check(body: &str, regions: &[ChunkSpan], cfg: &ChunkConfig, chunks: &[ChunkSpan]) {
    let mut prev = 0;
    for c in chunks {
        assert!(c.start < c.end && c.end <= body.len(), "{c:?}");
        assert!(body.is_char_boundary(c.start) && body.is_char_boundary(c.end));
        let t = &body[c.start..c.end];
        assert_eq!(t, t.trim(), "untrimmed {c:?}");
        assert!(
            regions.iter().any(|r| r.start <= c.start && c.end <= r.end),
            "outside regions {c:?}"
        );
        assert!(c.start >= prev, "out of order");
        prev = c.start;
        let n = estimate_tokens(t);
        let single_word = !t.contains(char::is_whitespace);
        assert!(
            n * 4 <= cfg.max_tokens * 5 || single_word,
            "chunk too big: {n} {t:?}"
        );
    }
}

fn texts<'a>(body: &'a str, chunks: &[ChunkSpan]) -> Vec<&'a str> {
    chunks.iter().map(|c| &body[c.start..c.end]).collect()
}

#[test]
fn token_estimate() {
    assert_eq!(estimate_tokens(""), 0);
    assert_eq!(estimate_tokens("  \n\t"), 0);
    assert_eq!(estimate_tokens("Hello, world!"), 4);
    assert_eq!(estimate_tokens("internationalization"), 4);
    assert_eq!(estimate_tokens("1234567"), 3);
    assert_eq!(estimate_tokens("v2.0"), 4);
    assert_eq!(estimate_tokens("日本語"), 3);
    assert_eq!(estimate_tokens("Привет"), 2);
    let s = "Alpha beta, gamma 12345 δέλτα 中文! x";
    let sum: usize = s.split_whitespace().map(estimate_tokens).sum();
    assert_eq!(estimate_tokens(s), sum);
}

#[test]
fn short_region_one_chunk() {
    let body = "header\n\n   Hello there, Bob.\n  \nmore";
    let r = [sp(7, 32)];
    let c = chunk_regions(body, &r, &ChunkConfig::default());
    assert_eq!(texts(body, &c), vec!["Hello there, Bob."]);
    assert!(chunk_regions(
        body,
        &[sp(6, 10), sp(0, 0), sp(30, 2)],
        &ChunkConfig::default()
    )
    .is_empty());
}

#[test]
fn packs_paragraphs() {
    let para = "This is a short paragraph with ten words in it.";
    let body = vec![para; 20].join("\n\n");
    let cfg = cfg(40, 0);
    let c = chunk_regions(&body, &whole(&body), &cfg);
    check(&body, &whole(&body), &cfg, &c);
    let expected = format!("{para}\n\n{para}\n\n{para}");
    assert!(texts(&body, &c)
        .iter()
        .all(|t| *t == expected.as_str() || t.ends_with(para)));
    assert_eq!(c.len(), 7);
}

#[test]
fn giant_paragraph_splits_at_sentences() {
    let body: String = (0..60)
        .map(|i| format!("Sentence number {i} is here!\n"))
        .collect();
    let cfg = cfg(30, 0);
    let c = chunk_regions(&body, &whole(&body), &cfg);
    check(&body, &whole(&body), &cfg, &c);
    assert!(c.len() > 5);
    for t in texts(&body, &c) {
        assert!(t.starts_with("Sentence") && t.ends_with("here!"), "{t:?}");
    }
}

#[test]
fn giant_sentence_splits_at_words() {
    let body = "word ".repeat(1000);
    let cfg = cfg(50, 10);
    let c = chunk_regions(&body, &whole(&body), &cfg);
    check(&body, &whole(&body), &cfg, &c);
    assert!(c.len() >= 20);
    assert_eq!(c.last().map(|s| s.end), Some(body.trim_end().len()));
}

#[test]
fn overlap_present_and_bounded() {
    let body: String = (0..200)
        .map(|i| format!("Line {i} says something. "))
        .collect();
    let cfg = cfg(60, 12);
    let c = chunk_regions(&body, &whole(&body), &cfg);
    check(&body, &whole(&body), &cfg, &c);
    for w in c.windows(2) {
        assert!(w[1].start < w[0].end, "no overlap {w:?}");
        let shared = estimate_tokens(&body[w[1].start..w[0].end]);
        assert!(shared > 0 && shared <= 12, "overlap {shared}");
        assert!(
            body[w[1].start..].starts_with("Line"),
            "overlap starts at a sentence"
        );
    }
    let none = chunk_regions(
        &body,
        &whole(&body),
        &ChunkConfig {
            overlap_tokens: 0,
            ..cfg
        },
    );
    assert!(none.windows(2).all(|w| w[1].start > w[0].end));
}

#[test]
fn never_crosses_regions() {
    let body = "aaa bbb ccc. ddd eee fff. ggg hhh iii. jjj kkk lll.";
    let regions = [sp(0, 12), sp(13, 38), sp(39, body.len())];
    let cfg = cfg(3, 1);
    let c = chunk_regions(body, &regions, &cfg);
    check(body, &regions, &cfg, &c);
    assert_eq!(
        texts(
            body,
            &chunk_regions(body, &regions, &ChunkConfig::default())
        ),
        vec!["aaa bbb ccc.", "ddd eee fff. ggg hhh iii.", "jjj kkk lll."]
    );
}

#[test]
fn crlf_text() {
    let body = "First para line one\r\nline two.\r\n\r\nSecond para.\r\n\r\n\r\nThird.\r\n";
    let cfg = cfg(4, 0);
    let c = chunk_regions(body, &whole(body), &cfg);
    check(body, &whole(body), &cfg, &c);
    assert_eq!(
        texts(body, &c),
        vec![
            "First para line one",
            "line two.",
            "Second para.\r\n\r\n\r\nThird."
        ]
    );
    let c = chunk_regions(body, &whole(body), &ChunkConfig::default());
    assert_eq!(texts(body, &c), vec![body.trim_end()]);
}

#[test]
fn unicode_no_panic() {
    let body =
        "Grüße aus Köln! 日本語のテキストです。とても長い文章。 😀😀😀 Ünïcödé wörds here.\n\n"
            .repeat(30);
    for max in [1, 2, 5, 17, 64] {
        let cfg = cfg(max, max / 3);
        let regions = [sp(1, 700), sp(701, body.len() + 50)];
        let c = chunk_regions(&body, &regions, &cfg);
        let clean = clean_regions(&body, &regions);
        check(&body, &clean, &cfg, &c);
        assert!(!c.is_empty());
    }
}

#[test]
fn long_word_emitted_once() {
    let long = "x".repeat(5000);
    let body = format!("short start {long} tail words here");
    let cfg = cfg(10, 4);
    let c = chunk_regions(&body, &whole(&body), &cfg);
    check(&body, &whole(&body), &cfg, &c);
    assert_eq!(
        texts(&body, &c)
            .iter()
            .filter(|t| t.contains(&long))
            .count(),
        1
    );
    assert!(texts(&body, &c).contains(&long.as_str()));
}

#[test]
fn tiny_tail_merges() {
    let body = format!("{} end.", "alpha beta gamma delta. ".repeat(4).trim_end());
    let cfg = ChunkConfig {
        max_tokens: 16,
        overlap_tokens: 0,
        min_tokens: 8,
    };
    let c = chunk_regions(&body, &whole(&body), &cfg);
    check(&body, &whole(&body), &cfg, &c);
    assert_eq!(c.len(), 2);
    assert!(texts(&body, &c)[1].ends_with("delta. end."));
}

#[test]
fn merge_adjacent_regions() {
    let body = "aa  bb\n\ncc x dd";
    let m = merge_adjacent(
        &[sp(8, 10), sp(0, 2), sp(4, 6), sp(13, 15), sp(14, 99)],
        body,
    );
    assert_eq!(m, vec![sp(0, 10), sp(13, 15)]);
    assert_eq!(merge_adjacent(&[], body), vec![]);
}

#[test]
fn fuzz_random_inputs() {
    let pieces = [
        "a",
        "bb",
        "word",
        " ",
        "  ",
        "\n",
        "\r\n",
        "\n\n",
        ".",
        "!",
        "? ",
        "é",
        "中",
        "。",
        "😀",
        "\t",
        "supercalifragilistic",
        "12345",
        "\"",
        "-",
        "ab.",
        "Ж",
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    for _ in 0..400 {
        let len = rnd(400);
        let body: String = (0..len).map(|_| pieces[rnd(pieces.len())]).collect();
        let nreg = rnd(4);
        let regions: Vec<ChunkSpan> = (0..nreg)
            .map(|_| sp(rnd(body.len() + 5), rnd(body.len() + 5)))
            .collect();
        let cfg = ChunkConfig {
            max_tokens: rnd(40),
            overlap_tokens: rnd(20),
            min_tokens: rnd(10),
        };
        let c = chunk_regions(&body, &regions, &cfg);
        check(&body, &clean_regions(&body, &regions), &cfg, &c);
        let merged = merge_adjacent(&regions, &body);
        assert!(merged.windows(2).all(|w| w[0].end < w[1].start));
    }
}

#[test]
fn big_body_is_fast() {
    let body =
        "Some words in a sentence. Another one follows here!\nAnd a line.\n\n".repeat(20_000);
    let t = std::time::Instant::now();
    let c = chunk_regions(&body, &whole(&body), &ChunkConfig::default());
    check(&body, &whole(&body), &ChunkConfig::default(), &c);
    assert!(t.elapsed().as_secs() < 10);
}
