//! Tests of the parent module, kept apart so the module reads in one sitting.

use super::*;
use Query::*;

const NOW: i64 = 1_000_000_000; // 2001-09-09T01:46:40Z

fn p(s: &str) -> Query {
    parse_query(s, NOW).unwrap_or_else(|e| panic!("{s:?}: {e}"))
}
fn err(s: &str) -> (usize, String) {
    let e = parse_query(s, NOW).expect_err(s);
    (e.position, e.message)
}
fn t(s: &str) -> Query {
    Term(s.into())
}
fn f(fld: TextField, s: &str) -> Query {
    Field(fld, s.into())
}
fn d(start: Option<i64>, end: Option<i64>) -> Query {
    Date { start, end }
}
fn not(q: Query) -> Query {
    Not(Box::new(q))
}
fn ts(y: i32, m: u32, dd: u32) -> i64 {
    super::super::date_spec::midnight_utc(y, m, dd).expect("valid test date")
}

#[test]
fn terms_and_phrases() {
    assert_eq!(p("strike"), t("strike"));
    assert_eq!(p("  strike   price "), And(vec![t("strike"), t("price")]));
    assert_eq!(p("\"gas deal\""), Phrase("gas deal".into()));
    assert_eq!(
        p("a \"b c\" d"),
        And(vec![t("a"), Phrase("b c".into()), t("d")])
    );
    assert_eq!(p("and or not"), And(vec![t("and"), t("or"), t("not")]));
    assert_eq!(p("foo\"bar\""), And(vec![t("foo"), Phrase("bar".into())]));
}

#[test]
fn fields() {
    use TextField::*;
    assert_eq!(p("from:jeff@enron.com"), f(From, "jeff@enron.com"));
    assert_eq!(p("to:a.b-c_d@x.org"), f(To, "a.b-c_d@x.org"));
    assert_eq!(p("cc:kay"), f(Cc, "kay"));
    assert_eq!(p("subject:\"gas deal\""), f(Subject, "gas deal"));
    assert_eq!(p("body:price"), f(Body, "price"));
    assert_eq!(p("folder:inbox/sent_items"), f(Folder, "inbox/sent_items"));
    assert_eq!(p("thread:abc:def"), f(Thread, "abc:def"));
    assert_eq!(p("id:<x.1@host>"), f(Id, "x.1@host"));
    assert_eq!(p("id:x.1@host"), f(Id, "x.1@host"));
    assert_eq!(p("has:attachment"), HasAttachment);
    assert_eq!(
        p("from:\"Kay Mann\" deal"),
        And(vec![f(From, "Kay Mann"), t("deal")])
    );
}

#[test]
fn mail_states_with_is_and_mus_flag() {
    use crate::mail::state::MailState;
    assert_eq!(p("is:unread"), Is(MailState::Unread));
    assert_eq!(p("flag:seen"), Is(MailState::Read));
    assert_eq!(
        p("is:flagged -is:replied from:ana"),
        And(vec![
            Is(MailState::Flagged),
            Not(Box::new(Is(MailState::Replied))),
            Field(TextField::From, "ana".into()),
        ])
    );
    assert_eq!(
        p("tag:to-do -tag:\"later\""),
        And(vec![
            Tag("to-do".into()),
            Not(Box::new(Tag("later".into())))
        ])
    );
    assert_eq!(p(&Tag("to-do".into()).to_string()), Tag("to-do".into()));
    for s in MailState::ALL {
        let q = Is(s);
        assert_eq!(p(&q.to_string()), q, "written back and read again");
    }
}

#[test]
fn colon_words_that_are_not_fields() {
    assert_eq!(p("http://x.com/a"), t("http://x.com/a"));
    assert_eq!(p("https://x"), t("https://x"));
    assert_eq!(p("mailto:a@b"), t("mailto:a@b"));
    assert_eq!(p("10:30"), t("10:30"));
    assert_eq!(p("Re:"), t("Re:"));
    assert_eq!(p(":x"), t(":x"));
    assert_eq!(p("From:x"), t("From:x"));
    assert_eq!(p("http:\"x\""), And(vec![t("http:"), Phrase("x".into())]));
}

#[test]
fn boolean_operators() {
    assert_eq!(p("a AND b"), And(vec![t("a"), t("b")]));
    assert_eq!(p("a OR b"), Or(vec![t("a"), t("b")]));
    assert_eq!(p("NOT a"), not(t("a")));
    assert_eq!(p("-a"), not(t("a")));
    assert_eq!(
        p("-from:bob x"),
        And(vec![not(f(TextField::From, "bob")), t("x")])
    );
    assert_eq!(p("-\"a b\""), not(Phrase("a b".into())));
    assert_eq!(p("-(a b)"), not(And(vec![t("a"), t("b")])));
    assert_eq!(p("NOT NOT a"), not(not(t("a"))));
    assert_eq!(p("--a"), not(not(t("a"))));
    assert_eq!(p("a - b"), And(vec![t("a"), t("-"), t("b")]));
    assert_eq!(p("e-mail"), t("e-mail"));
}

#[test]
fn precedence() {
    assert_eq!(p("a OR b c"), Or(vec![t("a"), And(vec![t("b"), t("c")])]));
    assert_eq!(p("a b OR c"), Or(vec![And(vec![t("a"), t("b")]), t("c")]));
    assert_eq!(p("NOT a b"), And(vec![not(t("a")), t("b")]));
    assert_eq!(
        p("a OR NOT b AND c"),
        Or(vec![t("a"), And(vec![not(t("b")), t("c")])])
    );
    assert_eq!(
        p("a AND b OR c AND d"),
        Or(vec![And(vec![t("a"), t("b")]), And(vec![t("c"), t("d")])])
    );
}

#[test]
fn nesting_and_collapse() {
    assert_eq!(p("(a OR b) c"), And(vec![Or(vec![t("a"), t("b")]), t("c")]));
    assert_eq!(p("a (b c)"), And(vec![t("a"), t("b"), t("c")]));
    assert_eq!(p("(a OR b) OR c"), Or(vec![t("a"), t("b"), t("c")]));
    assert_eq!(p("((a))"), t("a"));
    assert_eq!(
        p("NOT (a OR (b c))"),
        not(Or(vec![t("a"), And(vec![t("b"), t("c")])]))
    );
    assert_eq!(
        p("(from:x)(to:y)"),
        And(vec![f(TextField::From, "x"), f(TextField::To, "y")])
    );
}

#[test]
fn unicode() {
    assert_eq!(
        p("über \"naïve café\""),
        And(vec![t("über"), Phrase("naïve café".into())])
    );
    assert_eq!(p("subject:日本語"), f(TextField::Subject, "日本語"));
    assert_eq!(err("ünïcödé (abc"), (8, "unclosed '('".into()));
    assert_eq!(err("日本 \"x"), (3, "unterminated quote".into()));
    assert_eq!(err("é date:2001-13"), (7, "invalid date '2001-13'".into()));
}

#[test]
fn errors_with_positions() {
    let cases: &[(&str, usize, &str)] = &[
        ("", 0, "empty query"),
        ("   ", 0, "empty query"),
        ("a (b", 2, "unclosed '('"),
        ("(", 0, "unclosed '('"),
        ("((a) b", 0, "unclosed '('"),
        ("a b)", 3, "unexpected ')'"),
        (")", 0, "unexpected ')'"),
        ("()", 0, "empty parentheses"),
        ("a \"b c", 2, "unterminated quote"),
        ("subject:\"gas", 8, "unterminated quote"),
        ("a AND", 2, "expected a term after 'AND'"),
        ("a AND )", 2, "expected a term after 'AND'"),
        ("a OR", 2, "expected a term after 'OR'"),
        ("a OR OR b", 2, "expected a term after 'OR'"),
        ("x NOT", 2, "expected a term after 'NOT'"),
        ("(a NOT)", 3, "expected a term after 'NOT'"),
        ("AND a", 0, "unexpected 'AND'"),
        ("(OR a)", 1, "unexpected 'OR'"),
        ("a from:", 2, "missing value after 'from:'"),
        ("subject:\"  \"", 0, "missing value after 'subject:'"),
        ("date:", 0, "missing value after 'date:'"),
        ("foo:bar", 0, "unknown field 'foo'"),
        ("x foo:", 2, "unknown field 'foo'"),
        ("has:pdf", 4, "unknown value 'pdf' for 'has:'"),
        (
            "x is:important",
            5,
            "unknown value 'important' for 'is:' (one of unread, read, flagged, replied, passed, draft, trashed)",
        ),
        ("\"\"", 0, "empty quoted phrase"),
        ("date:2001-13-01", 5, "invalid date '2001-13-01'"),
        (
            "date:2001-01-01..2001-02-30",
            17,
            "invalid date '2001-02-30'",
        ),
        ("date:\"2001-02-30\"", 6, "invalid date '2001-02-30'"),
        ("date:1d..2d", 5, "date range start is after its end"),
        ("date:..", 5, "date range needs a start or an end"),
    ];
    for (input, pos, msg) in cases {
        assert_eq!(err(input), (*pos, msg.to_string()), "input {input:?}");
    }
}

#[test]
fn display_and_caret() {
    let e = parse_query("from:x (a OR b", NOW).expect_err("unclosed");
    assert_eq!(e.to_string(), "unclosed '(' at position 7");
    assert_eq!(e.caret("from:x (a OR b"), "from:x (a OR b\n       ^");
    let e = parse_query("é\tfoo:x", NOW).expect_err("unknown");
    assert_eq!(e.caret("é\tfoo:x"), "é foo:x\n  ^");
    let e = parse_query("a AND", NOW).expect_err("dangling");
    assert_eq!(e.caret("a AND"), "a AND\n  ^");
}

#[test]
fn dates_via_parser() {
    let day = 86_400;
    assert_eq!(
        p("date:2001-03-05"),
        d(Some(983_750_400), Some(983_750_400 + day))
    );
    assert_eq!(
        p("date:\"2001..2001\""),
        d(Some(ts(2001, 1, 1)), Some(ts(2002, 1, 1)))
    );
    assert_eq!(p("date:30d.."), d(Some(NOW - 30 * day), None));
    assert_eq!(p("date:..2001-03-31"), d(None, Some(ts(2001, 4, 1))));
    assert_eq!(
        p("date:today"),
        d(Some(999_993_600), Some(999_993_600 + day))
    );
}

#[test]
fn dates_combine_with_other_terms() {
    assert_eq!(
        p("from:kay date:2001 -has:attachment"),
        And(vec![
            f(TextField::From, "kay"),
            d(Some(ts(2001, 1, 1)), Some(ts(2002, 1, 1))),
            not(HasAttachment)
        ])
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = "(".repeat(10_000) + "a" + &")".repeat(10_000);
    assert_eq!(err(&deep).1, "query is nested too deeply");
    assert_eq!(err(&"NOT ".repeat(10_000)).1, "query is nested too deeply");
    assert_eq!(p(&("(".repeat(50) + "a" + &")".repeat(50))), t("a"));
}

#[test]
fn fuzz_never_panics() {
    const ALPHA: &[&str] = &[
        "a", "b", "(", ")", "\"", ":", "-", ".", "AND", "OR", "NOT", "date:", "from:", " ", "é",
        "1",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    for _ in 0..5000 {
        let len = next() % 16;
        let s: String = (0..len).map(|_| ALPHA[next() % ALPHA.len()]).collect();
        if let Err(e) = parse_query(&s, NOW) {
            assert!(e.position <= s.chars().count(), "{s:?}: {e}");
            assert_eq!(e.caret(&s).lines().count(), 2, "{s:?}");
        }
    }
}
