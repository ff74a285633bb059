//! Parser for the notmuch/mu-style search language.
//!
//! Grammar (precedence NOT > AND > OR, juxtaposition = AND):
//! ```text
//! or    := and ("OR" and)*
//! and   := unary (["AND"] unary)*
//! unary := ("NOT" | "-") unary | "(" or ")" | "\"phrase\"" | word
//! ```
//! A word `name:value` is a field term when `name` is `[a-z]+` (except the URL
//! schemes `http`, `https`, `mailto`); anything else with a colon is a plain word.
//! All positions in errors are char (not byte) indexes into the input.

use super::date_spec::parse_date_range;

#[derive(Debug, Clone, PartialEq)]
pub enum TextField {
    From,
    To,
    Cc,
    Subject,
    Body,
    Folder,
    Thread,
    Id,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Query {
    /// Free word, matched against any text field.
    Term(String),
    /// Free quoted phrase.
    Phrase(String),
    /// `field:value`; a quoted value keeps its inner spaces.
    Field(TextField, String),
    /// Half-open range `[start, end)` of unix seconds; `None` is unbounded.
    Date {
        start: Option<i64>,
        end: Option<i64>,
    },
    HasAttachment,
    And(Vec<Query>),
    Or(Vec<Query>),
    Not(Box<Query>),
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message} at position {position}")]
pub struct QueryError {
    /// Char index into the input where the problem is.
    pub position: usize,
    pub message: String,
}

impl QueryError {
    /// The input on one line (whitespace/control chars shown as spaces) and a
    /// `^` under the error position on the next line.
    pub fn caret(&self, input: &str) -> String {
        let line: String = input
            .chars()
            .map(|c| {
                if c.is_whitespace() || c.is_control() {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        format!("{line}\n{}^", " ".repeat(self.position))
    }
}

fn qerr(position: usize, message: impl Into<String>) -> QueryError {
    let message = message.into();
    QueryError { position, message }
}

/// Guard against stack exhaustion on inputs like `((((...` or `NOT NOT ...`.
const MAX_DEPTH: usize = 128;

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    LParen,
    RParen,
    And,
    Or,
    Not,
    Minus,
    Phrase(String),
    /// A bare word; `quoted` holds a `field:"value"` value and the value's char position.
    Word {
        text: String,
        quoted: Option<(String, usize)>,
    },
}

struct Token {
    tok: Tok,
    pos: usize,
}

fn is_field_prefix(p: &str) -> bool {
    !p.is_empty()
        && p.bytes().all(|b| b.is_ascii_lowercase())
        && !matches!(p, "http" | "https" | "mailto")
}

fn is_break(c: char) -> bool {
    c.is_whitespace() || matches!(c, '(' | ')' | '"')
}

/// `chars[open]` is `"`; returns the contents and the index after the closing quote.
fn read_quoted(chars: &[char], open: usize) -> Result<(String, usize), QueryError> {
    let body = chars.get(open + 1..).unwrap_or(&[]);
    match body.iter().position(|&c| c == '"') {
        Some(len) => Ok((body[..len].iter().collect(), open + len + 2)),
        None => Err(qerr(open, "unterminated quote")),
    }
}

fn lex(chars: &[char]) -> Result<Vec<Token>, QueryError> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let pos = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let tok = match c {
            '(' => {
                i += 1;
                Tok::LParen
            }
            ')' => {
                i += 1;
                Tok::RParen
            }
            '"' => {
                let (s, next) = read_quoted(chars, i)?;
                i = next;
                Tok::Phrase(s)
            }
            '-' if chars
                .get(i + 1)
                .is_some_and(|&n| !n.is_whitespace() && n != ')') =>
            {
                i += 1;
                Tok::Minus
            }
            _ => {
                while chars.get(i).is_some_and(|&c| !is_break(c)) {
                    i += 1;
                }
                let text: String = chars[pos..i].iter().collect();
                let mut quoted = None;
                if chars.get(i) == Some(&'"') && text.strip_suffix(':').is_some_and(is_field_prefix)
                {
                    let (s, next) = read_quoted(chars, i)?;
                    quoted = Some((s, i + 1));
                    i = next;
                }
                match (text.as_str(), &quoted) {
                    ("AND", None) => Tok::And,
                    ("OR", None) => Tok::Or,
                    ("NOT", None) => Tok::Not,
                    _ => Tok::Word { text, quoted },
                }
            }
        };
        out.push(Token { tok, pos });
    }
    Ok(out)
}

/// Parse `input` into a [`Query`]. `now` (unix seconds) anchors relative dates.
pub fn parse_query(input: &str, now: i64) -> Result<Query, QueryError> {
    let chars: Vec<char> = input.chars().collect();
    let toks = lex(&chars)?;
    if toks.is_empty() {
        return Err(qerr(0, "empty query"));
    }
    let mut p = Parser {
        toks: &toks,
        i: 0,
        now,
        end: chars.len(),
        depth: 0,
    };
    let q = p.parse_or()?;
    match p.toks.get(p.i) {
        None => Ok(q),
        Some(t) => Err(qerr(t.pos, format!("unexpected {}", describe(&t.tok)))),
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::LParen => "'('".into(),
        Tok::RParen => "')'".into(),
        Tok::And => "'AND'".into(),
        Tok::Or => "'OR'".into(),
        Tok::Not => "'NOT'".into(),
        Tok::Minus => "'-'".into(),
        Tok::Phrase(_) => "phrase".into(),
        Tok::Word { text, .. } => format!("'{text}'"),
    }
}

/// Flatten nested same-kind nodes and collapse a single child.
fn combine(items: Vec<Query>, and: bool) -> Query {
    let mut out = Vec::with_capacity(items.len());
    for q in items {
        match q {
            Query::And(v) if and => out.extend(v),
            Query::Or(v) if !and => out.extend(v),
            q => out.push(q),
        }
    }
    match (out.len(), and) {
        (1, _) => out.pop().unwrap_or(Query::And(Vec::new())),
        (_, true) => Query::And(out),
        (_, false) => Query::Or(out),
    }
}

struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    now: i64,
    end: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn starts_term(&self) -> bool {
        matches!(
            self.peek(),
            Some(Tok::LParen | Tok::Not | Tok::Minus | Tok::Phrase(_) | Tok::Word { .. })
        )
    }

    /// Consume an operator at `pos` and demand that a term follows it.
    fn after_op(&mut self, op: &str, pos: usize) -> Result<(), QueryError> {
        self.i += 1;
        if self.starts_term() {
            Ok(())
        } else {
            Err(qerr(pos, format!("expected a term after '{op}'")))
        }
    }

    fn parse_or(&mut self) -> Result<Query, QueryError> {
        let mut items = vec![self.parse_and()?];
        while let Some(Token { tok: Tok::Or, pos }) = self.toks.get(self.i) {
            self.after_op("OR", *pos)?;
            items.push(self.parse_and()?);
        }
        Ok(combine(items, false))
    }

    fn parse_and(&mut self) -> Result<Query, QueryError> {
        let mut items = vec![self.parse_unary()?];
        loop {
            if let Some(Token { tok: Tok::And, pos }) = self.toks.get(self.i) {
                self.after_op("AND", *pos)?;
            } else if !self.starts_term() {
                break;
            }
            items.push(self.parse_unary()?);
        }
        Ok(combine(items, true))
    }

    fn parse_unary(&mut self) -> Result<Query, QueryError> {
        self.depth += 1;
        let r = if self.depth > MAX_DEPTH {
            let pos = self.toks.get(self.i).map_or(self.end, |t| t.pos);
            Err(qerr(pos, "query is nested too deeply"))
        } else {
            self.parse_unary_inner()
        };
        self.depth -= 1;
        r
    }

    fn parse_unary_inner(&mut self) -> Result<Query, QueryError> {
        let Some(Token { tok, pos }) = self.toks.get(self.i) else {
            return Err(qerr(self.end, "expected a term"));
        };
        let pos = *pos;
        match tok {
            Tok::Not | Tok::Minus => {
                self.after_op(if *tok == Tok::Not { "NOT" } else { "-" }, pos)?;
                Ok(Query::Not(Box::new(self.parse_unary()?)))
            }
            Tok::LParen => {
                self.i += 1;
                match self.peek() {
                    None => return Err(qerr(pos, "unclosed '('")),
                    Some(Tok::RParen) => return Err(qerr(pos, "empty parentheses")),
                    _ => {}
                }
                let inner = self.parse_or()?;
                match self.peek() {
                    Some(Tok::RParen) => {
                        self.i += 1;
                        Ok(inner)
                    }
                    _ => Err(qerr(pos, "unclosed '('")),
                }
            }
            Tok::Phrase(s) => {
                self.i += 1;
                if s.trim().is_empty() {
                    return Err(qerr(pos, "empty quoted phrase"));
                }
                Ok(Query::Phrase(s.clone()))
            }
            Tok::Word { text, quoted } => {
                self.i += 1;
                word(text, quoted.as_ref(), pos, self.now)
            }
            Tok::RParen | Tok::And | Tok::Or => {
                Err(qerr(pos, format!("unexpected {}", describe(tok))))
            }
        }
    }
}

fn word(
    text: &str,
    quoted: Option<&(String, usize)>,
    pos: usize,
    now: i64,
) -> Result<Query, QueryError> {
    let Some((name, rest)) = text.split_once(':').filter(|(p, _)| is_field_prefix(p)) else {
        return Ok(Query::Term(text.to_string()));
    };
    let (value, vpos) = match quoted {
        Some((v, qpos)) => (v.as_str(), *qpos),
        None => (rest, pos + name.chars().count() + 1),
    };
    let field = match name {
        "from" => Some(TextField::From),
        "to" => Some(TextField::To),
        "cc" => Some(TextField::Cc),
        "subject" => Some(TextField::Subject),
        "body" => Some(TextField::Body),
        "folder" => Some(TextField::Folder),
        "thread" => Some(TextField::Thread),
        "id" => Some(TextField::Id),
        "date" | "has" => None,
        _ => return Err(qerr(pos, format!("unknown field '{name}'"))),
    };
    if value.trim().is_empty() {
        return Err(qerr(pos, format!("missing value after '{name}:'")));
    }
    match (field, name) {
        (Some(TextField::Id), _) => {
            let v = value
                .strip_prefix('<')
                .and_then(|v| v.strip_suffix('>'))
                .unwrap_or(value);
            Ok(Query::Field(TextField::Id, v.to_string()))
        }
        (Some(f), _) => Ok(Query::Field(f, value.to_string())),
        (None, "has") if matches!(value, "attachment" | "attachments") => Ok(Query::HasAttachment),
        (None, "has") => Err(qerr(vpos, format!("unknown value '{value}' for 'has:'"))),
        (None, _) => parse_date_range(value, now)
            .map(|(start, end)| Query::Date { start, end })
            .map_err(|e| qerr(vpos + e.offset, e.message)),
    }
}

#[cfg(test)]
mod tests {
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
            "a", "b", "(", ")", "\"", ":", "-", ".", "AND", "OR", "NOT", "date:", "from:", " ",
            "é", "1",
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
}
