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
use crate::mail::state::MailState;

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
    /// `is:unread`, `is:flagged`... (mu's `flag:` too): the message's state now.
    Is(MailState),
    /// `tag:NAME`: messages the user tagged so.
    Tag(String),
    And(Vec<Query>),
    Or(Vec<Query>),
    Not(Box<Query>),
}

/// The query written back in the syntax it is read from (for showing what was
/// searched; searches use the query itself, never this text).
impl std::fmt::Display for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        fn value(v: &str) -> String {
            if !v.is_empty() && v.chars().all(|c| c.is_alphanumeric() || "@._-".contains(c)) {
                v.to_string()
            } else {
                format!("\"{}\"", v.replace('"', ""))
            }
        }
        fn day(t: i64) -> String {
            chrono::DateTime::from_timestamp(t, 0)
                .map(|d| d.format("%Y-%m-%d").to_string())
                .unwrap_or_default()
        }
        match self {
            Query::Term(w) => write!(f, "{}", value(w)),
            Query::Phrase(p) => write!(f, "\"{}\"", p.replace('"', "")),
            Query::Field(field, v) => write!(f, "{}:{}", field.name(), value(v)),
            Query::Date { start, end } => write!(
                f,
                "date:{}..{}",
                start.map(day).unwrap_or_default(),
                end.map(|e| day(e - 1)).unwrap_or_default()
            ),
            Query::HasAttachment => write!(f, "has:attachment"),
            Query::Is(state) => write!(f, "is:{}", state.name()),
            Query::Tag(name) => write!(f, "tag:{}", value(name)),
            Query::And(parts) => {
                let shown: Vec<String> = parts
                    .iter()
                    .map(|p| match p {
                        Query::Or(_) => format!("({p})"),
                        _ => p.to_string(),
                    })
                    .collect();
                write!(f, "{}", shown.join(" "))
            }
            Query::Or(parts) => {
                let shown: Vec<String> = parts.iter().map(|p| p.to_string()).collect();
                write!(f, "{}", shown.join(" OR "))
            }
            Query::Not(q) => write!(f, "NOT {q}"),
        }
    }
}

impl TextField {
    /// The field's name in the query syntax.
    pub fn name(&self) -> &'static str {
        match self {
            TextField::From => "from",
            TextField::To => "to",
            TextField::Cc => "cc",
            TextField::Subject => "subject",
            TextField::Body => "body",
            TextField::Folder => "folder",
            TextField::Thread => "thread",
            TextField::Id => "id",
        }
    }
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
        "date" | "has" | "is" | "flag" | "tag" => None,
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
        (None, "tag") => Ok(Query::Tag(value.to_string())),
        (None, "is" | "flag") => MailState::named(value).map(Query::Is).ok_or_else(|| {
            let known: Vec<&str> = MailState::ALL.iter().map(|s| s.name()).collect();
            qerr(
                vpos,
                format!(
                    "unknown value '{value}' for '{name}:' (one of {})",
                    known.join(", ")
                ),
            )
        }),
        (None, _) => parse_date_range(value, now)
            .map(|(start, end)| Query::Date { start, end })
            .map_err(|e| qerr(vpos + e.offset, e.message)),
    }
}

#[cfg(test)]
#[path = "syntax_tests.rs"]
mod tests;
