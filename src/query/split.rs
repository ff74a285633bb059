//! Splits a parsed query into what it says in words (for meaning-based search) and the
//! filters that restrict where to look (from:, date:, folder:, has:attachment ...), so
//! the same filters apply in lexical, semantic and hybrid modes.

use super::syntax::{Query, TextField};

/// The two halves of a query.
#[derive(Debug, Clone, PartialEq)]
pub struct SplitQuery {
    /// Free words and phrases, in order, joined by spaces (empty when there are none).
    pub text: String,
    /// Everything else, as one query (None when there are no filters).
    pub filters: Option<Query>,
    /// The date range asked for, if any (for the date heuristic).
    pub date: Option<(Option<i64>, Option<i64>)>,
    /// People named in from:/to:/cc: (for the sender heuristic).
    pub people: Vec<String>,
}

pub fn split_query(q: &Query) -> SplitQuery {
    let mut words = Vec::new();
    let mut filters = Vec::new();
    match q {
        Query::And(children) => {
            for c in children {
                collect(c, &mut words, &mut filters);
            }
        }
        other => collect(other, &mut words, &mut filters),
    }
    let filters = match filters.len() {
        0 => None,
        1 => filters.pop(),
        _ => Some(Query::And(filters)),
    };
    let mut date = None;
    let mut people = Vec::new();
    if let Some(f) = &filters {
        visit(f, &mut |node| match node {
            Query::Date { start, end } => date = Some((*start, *end)),
            Query::Field(TextField::From | TextField::To | TextField::Cc, v) => {
                people.push(v.to_lowercase())
            }
            _ => {}
        });
    }
    SplitQuery {
        text: words.join(" "),
        filters,
        date,
        people,
    }
}

/// Top-level words and phrases are text; an OR of only words is text too (all its
/// words describe the topic); anything else is a filter.
fn collect(q: &Query, words: &mut Vec<String>, filters: &mut Vec<Query>) {
    match q {
        // `*` (every message) says nothing about the topic.
        Query::Term(w) if w == "*" => {}
        Query::Term(w) | Query::Phrase(w) => words.push(w.clone()),
        Query::Or(children) if children.iter().all(is_text) => {
            for c in children {
                collect(c, words, filters);
            }
        }
        other => filters.push(other.clone()),
    }
}

fn is_text(q: &Query) -> bool {
    matches!(q, Query::Term(_) | Query::Phrase(_))
}

fn visit(q: &Query, f: &mut dyn FnMut(&Query)) {
    f(q);
    match q {
        Query::And(c) | Query::Or(c) => c.iter().for_each(|x| visit(x, f)),
        Query::Not(_) => {} // a negated field is not a person or a date asked for
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::syntax::parse_query;

    #[test]
    fn splits_words_from_filters() {
        let q =
            parse_query("roof damage from:dana date:2024-03 NOT folder:sent", 0).expect("parses");
        let s = split_query(&q);
        assert_eq!(s.text, "roof damage");
        assert_eq!(s.people, vec!["dana"]);
        assert!(s.date.is_some());
        match s.filters {
            Some(Query::And(f)) => assert_eq!(f.len(), 3),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn text_only_and_filter_only() {
        let s = split_query(&parse_query("\"board meeting\" moved", 0).expect("parses"));
        assert_eq!(s.text, "board meeting moved");
        assert_eq!(s.filters, None);
        let s = split_query(&parse_query("has:attachment", 0).expect("parses"));
        assert_eq!(s.text, "");
        assert_eq!(s.filters, Some(Query::HasAttachment));
    }
}
