//! The candidates an answer may quote: every sentence of the evidence pack's
//! passages, and the facts of each message's headers (its sender, each recipient, its
//! subject, its attachments' names), for questions about the message itself ("who
//! sent it?", "what is Dana's address?"). The evidence selector scores each one.

use super::evidence::{EvidencePack, Role};
use super::injection::is_injection;
use super::sentences::sentences;
use std::collections::HashSet;

/// What a candidate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CandidateKind {
    /// A sentence of a passage's text.
    Sentence,
    /// A participant of the message: its sender, or recipient number `rank` (from 0)
    /// of the To or Cc list.
    Participant {
        role: Role,
        rank: usize,
    },
    Subject,
    Attachment,
}

impl CandidateKind {
    pub fn is_header(self) -> bool {
        !matches!(self, CandidateKind::Sentence)
    }
}

/// One thing the answer may quote, with where it is.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub kind: CandidateKind,
    /// Index of the pack item it belongs to.
    pub item: usize,
    /// The exact text to quote: a sentence as written, or a header value.
    pub text: String,
    /// The sentence with the ones before and after it (the text alone for headers).
    pub window: String,
    /// The sentence's place in its passage (0 = first) and the passage's sentence
    /// count.
    pub position: usize,
    pub of: usize,
    /// Byte range of `text` in the passage (sentences only).
    pub span: Option<(usize, usize)>,
    /// Byte range of `window` in the passage (sentences only).
    pub around: Option<(usize, usize)>,
}

/// Sentences longer than this are cut into clauses at semicolons: a quote should be
/// readable, and the selector should score what it would quote.
const LONG_SENTENCE: usize = 400;

/// Every candidate of the pack, in pack order: each passage's sentences, then the
/// header facts of each message once (at its first passage).
pub fn candidates(pack: &EvidencePack) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut headers_done: HashSet<&str> = HashSet::new();
    for (idx, item) in pack.items.iter().enumerate() {
        let spans: Vec<(usize, usize)> = sentences(&item.cite_text)
            .into_iter()
            .flat_map(|s| clauses(&item.cite_text, s.start, s.end))
            .filter(|(a, b)| {
                let t = &item.cite_text[*a..*b];
                t.chars().filter(|c| c.is_alphanumeric()).count() >= 2
                    && !is_injection(t)
                    && !(item.fields && t.starts_with(crate::attach::sheet::COLUMNS))
            })
            .collect();
        let of = spans.len();
        for (i, &(a, b)) in spans.iter().enumerate() {
            let from = spans[i.saturating_sub(1)].0;
            let to = spans[(i + 1).min(of - 1)].1;
            out.push(Candidate {
                kind: CandidateKind::Sentence,
                item: idx,
                text: item.cite_text[a..b].to_string(),
                window: item.cite_text[from..to].to_string(),
                position: i,
                of,
                span: Some((a, b)),
                around: Some((from, to)),
            });
        }
        if !headers_done.insert(item.key.as_str()) {
            continue;
        }
        let mut rank = [0usize; 3];
        for p in &item.participants {
            let slot = match p.role {
                Role::From => 0,
                Role::To => 1,
                Role::Cc => 2,
            };
            let text = p.display();
            out.push(header(
                idx,
                CandidateKind::Participant {
                    role: p.role,
                    rank: rank[slot],
                },
                text,
            ));
            rank[slot] += 1;
        }
        if !item.subject.trim().is_empty() {
            out.push(header(
                idx,
                CandidateKind::Subject,
                item.subject.trim().to_string(),
            ));
        }
        for a in &item.attachments {
            out.push(header(idx, CandidateKind::Attachment, a.clone()));
        }
    }
    out
}

fn header(item: usize, kind: CandidateKind, text: String) -> Candidate {
    Candidate {
        kind,
        item,
        window: text.clone(),
        text,
        position: 0,
        of: 1,
        span: None,
        around: None,
    }
}

/// A sentence's span, cut at semicolons when it is long.
fn clauses(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    if end - start <= LONG_SENTENCE {
        return vec![(start, end)];
    }
    let mut out = Vec::new();
    let mut from = start;
    for (i, c) in text[start..end].char_indices() {
        let at = start + i;
        if c == ';' && at + 1 - from > 40 {
            out.push((from, at + 1));
            from = at + 1;
            while from < end && text.as_bytes()[from].is_ascii_whitespace() {
                from += 1;
            }
        }
    }
    if from < end {
        out.push((from, end));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::evidence::{item, Participant};

    #[test]
    fn sentences_and_header_facts() {
        let mut first = item("The audit is on May 8. Bring the binder.", "Dana");
        first.participants = vec![
            Participant {
                role: Role::From,
                name: Some("Dana Reyes".into()),
                address: "dana@example.com".into(),
            },
            Participant {
                role: Role::To,
                name: None,
                address: "lee@example.com".into(),
            },
        ];
        first.attachments = vec!["plan.pdf".into()];
        let mut second = first.clone();
        second.cite_text = "A second passage of the same message.".into();
        let pack = EvidencePack::build(vec![first, second], 1000);
        let c = candidates(&pack);
        let texts: Vec<&str> = c.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "The audit is on May 8.",
                "Bring the binder.",
                "Dana Reyes <dana@example.com>",
                "lee@example.com",
                "Test",
                "plan.pdf",
                "A second passage of the same message.",
            ],
            "the headers of a message come once, at its first passage"
        );
        assert_eq!(c[1].window, "The audit is on May 8. Bring the binder.");
        assert!(matches!(
            c[3].kind,
            CandidateKind::Participant {
                role: Role::To,
                rank: 0
            }
        ));
    }

    #[test]
    fn a_sheets_header_row_is_no_candidate() {
        let mut header = item("Columns: Course; Fee; Seats", "Noor");
        header.fields = true;
        let mut row = item("Course: Weaving; Fee: 120; Seats: 8", "Noor");
        row.fields = true;
        let pack = EvidencePack::build(vec![header, row], 1000);
        let texts: Vec<String> = candidates(&pack)
            .into_iter()
            .filter(|c| c.kind == CandidateKind::Sentence)
            .map(|c| c.text)
            .collect();
        assert_eq!(texts, vec!["Course: Weaving; Fee: 120; Seats: 8"]);
    }
}
