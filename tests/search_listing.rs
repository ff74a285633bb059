//! Searches like notmuch's: `*` matches every message, a query of filters alone
//! lists newest first, and `--limit` is honoured past the ranking depth.

mod common;

use quoth::engine::{RetrieveOptions, SearchMode};

fn options(mode: SearchMode, limit: usize) -> RetrieveOptions {
    RetrieveOptions {
        mode,
        limit,
        rerank: false,
        now: 1_800_000_000,
    }
}

#[test]
fn match_all_and_filters_list_newest_first_up_to_the_limit() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mail = tmp.path().join("mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(mail.join(sub)).expect("maildir");
    }
    // 150 messages, one a day through 2023, in shuffled file order.
    for i in 0..150u32 {
        let n = (i * 37) % 150;
        let day = 1_672_531_200 + i64::from(n) * 86_400;
        let date = chrono::DateTime::from_timestamp(day, 0)
            .expect("date")
            .to_rfc2822();
        let body = format!(
            "From: Sender {n} <s{n}@example.com>\r\nTo: you@example.com\r\nSubject: Note {n}\r\n\
             Message-ID: <note-{n}@example.com>\r\nDate: {date}\r\n\r\nNote number {n} about the garden.\r\n"
        );
        std::fs::write(mail.join(format!("cur/{i}.test:2,S")), body).expect("write");
    }
    let mut engine = common::open(&tmp.path().join("data"));
    let report = common::ingest(&mut engine, &[mail]);
    assert_eq!(report.added, 150);

    for mode in [
        SearchMode::Lexical,
        SearchMode::Hybrid,
        SearchMode::Semantic,
    ] {
        let all = engine.retrieve("*", options(mode, 500)).expect("search");
        assert_eq!(
            all.hits.len(),
            150,
            "{mode:?}: every message, past the depth of 100"
        );
        let dates: Vec<i64> = all
            .hits
            .iter()
            .map(|h| h.hit.date.expect("dated"))
            .collect();
        assert!(
            dates.windows(2).all(|w| w[0] >= w[1]),
            "{mode:?}: newest first"
        );
        assert_eq!(all.hits[0].hit.subject, "Note 149");
    }
    let limited = engine
        .retrieve("*", options(SearchMode::Hybrid, 120))
        .expect("search");
    assert_eq!(limited.hits.len(), 120);

    // A date range alone lists that range, newest first.
    let february = engine
        .retrieve("date:2023-02", options(SearchMode::Hybrid, 100))
        .expect("search");
    assert_eq!(february.hits.len(), 28);
    assert_eq!(february.hits[0].hit.subject, "Note 58");
    assert_eq!(february.hits[27].hit.subject, "Note 31");

    // Words still rank by relevance, and `--limit` above 100 is honoured for them too.
    let garden = engine
        .retrieve("garden", options(SearchMode::Lexical, 140))
        .expect("search");
    assert_eq!(garden.hits.len(), 140);
}
