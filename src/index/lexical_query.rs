//! Turns a parsed [`Query`](crate::query::syntax::Query) into a tantivy query over the
//! lexical index. Free words search subject, body and the people fields; a field term
//! searches its field; dates and `has:attachment` become range and term filters;
//! `is:` becomes the set of messages in that state, which the caller reads from the
//! store ([`StateSets`]), so it is exact however recently a flag changed.

use super::lexical::{Fields, LexicalIndex};
use crate::mail::state::MailState;
use crate::query::syntax::{Query, TextField};
use crate::store::live_sets::KeySet;
use std::collections::HashMap;
use std::ops::Bound;
use std::sync::Arc;
use tantivy::query::{
    AllQuery, BooleanQuery, BoostQuery, EmptyQuery, Occur, PhraseQuery, Query as TQuery,
    RangeQuery, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::Term;

/// Compiles a parsed query. Words that tokenize to nothing (pure punctuation) are
/// ignored inside AND and OR; a query of nothing but such words matches nothing.
/// The query word that matches every message.
pub const MATCH_ALL: &str = "*";

pub fn compile(query: &Query, index: &LexicalIndex, states: &StateSets) -> Box<dyn TQuery> {
    compile_opt(query, index, states).unwrap_or_else(|| Box::new(EmptyQuery))
}

/// The messages in each state a query asks for with `is:`, and with each tag it
/// asks for with `tag:`, as the store holds them now. Read mail is kept as the
/// unread, left out.
#[derive(Debug, Default)]
pub struct StateSets {
    states: HashMap<MailState, Arc<KeySet>>,
    tags: HashMap<String, Arc<KeySet>>,
}

impl StateSets {
    /// The sets `query` needs, from `keys_in` (the store's [`state_set`]) and
    /// `tagged` (the tags' [`tag_set`]).
    ///
    /// [`state_set`]: crate::store::Store::state_set
    /// [`tag_set`]: crate::store::tags::Tags::tag_set
    pub fn of<E>(
        query: &Query,
        mut keys_in: impl FnMut(MailState) -> Result<Arc<KeySet>, E>,
        mut tagged: impl FnMut(&str) -> Result<Arc<KeySet>, E>,
    ) -> Result<Self, E> {
        let mut sets = Self::default();
        let mut wanted = Vec::new();
        sets_in(query, &mut wanted);
        for want in wanted {
            match want {
                Query::Is(state) => {
                    let kept = state.complement().unwrap_or(*state);
                    if let std::collections::hash_map::Entry::Vacant(slot) = sets.states.entry(kept)
                    {
                        slot.insert(keys_in(kept)?);
                    }
                }
                Query::Tag(name) if !sets.tags.contains_key(name) => {
                    let keys = tagged(name)?;
                    sets.tags.insert(name.clone(), keys);
                }
                _ => {}
            }
        }
        Ok(sets)
    }
}

fn sets_in<'q>(query: &'q Query, out: &mut Vec<&'q Query>) {
    match query {
        Query::Is(_) | Query::Tag(_) => out.push(query),
        Query::And(c) | Query::Or(c) => c.iter().for_each(|q| sets_in(q, out)),
        Query::Not(q) => sets_in(q, out),
        _ => {}
    }
}

/// A set of messages, as a query over their keys (no set: no messages).
fn key_set(set: Option<&Arc<KeySet>>) -> Box<dyn TQuery> {
    match set {
        Some(set) => super::key_set::key_set_query(set.clone()),
        None => Box::new(EmptyQuery),
    }
}

/// The messages in `state`.
fn in_state(state: MailState, sets: &StateSets) -> Box<dyn TQuery> {
    let kept = state.complement().unwrap_or(state);
    let set = key_set(sets.states.get(&kept));
    match state.complement() {
        Some(_) => negate(set),
        None => set,
    }
}

fn compile_opt(query: &Query, idx: &LexicalIndex, states: &StateSets) -> Option<Box<dyn TQuery>> {
    let f = idx.fields;
    match query {
        // `*` matches every message, as in notmuch.
        Query::Term(text) if text == MATCH_ALL => Some(Box::new(tantivy::query::AllQuery)),
        Query::Term(text) | Query::Phrase(text) => free_text(text, idx),
        Query::Field(field, value) => field_query(field, value, idx, &f),
        Query::Date { start, end } => {
            let lower = start.map_or(Bound::Unbounded, |s| {
                Bound::Included(Term::from_field_i64(f.date, s))
            });
            let upper = end.map_or(Bound::Unbounded, |e| {
                Bound::Excluded(Term::from_field_i64(f.date, e))
            });
            Some(Box::new(RangeQuery::new(lower, upper)))
        }
        Query::HasAttachment => Some(Box::new(TermQuery::new(
            Term::from_field_u64(f.has_attachment, 1),
            IndexRecordOption::Basic,
        ))),
        Query::Is(state) => Some(in_state(*state, states)),
        Query::Tag(name) => Some(key_set(states.tags.get(name))),
        Query::Not(inner) => Some(negate(compile(inner, idx, states))),
        Query::And(children) => {
            let mut clauses: Vec<(Occur, Box<dyn TQuery>)> = Vec::new();
            for child in children {
                match child {
                    Query::Not(inner) => {
                        clauses.push((Occur::MustNot, compile(inner, idx, states)))
                    }
                    other => {
                        if let Some(q) = compile_opt(other, idx, states) {
                            clauses.push((Occur::Must, q));
                        }
                    }
                }
            }
            if clauses.is_empty() {
                return None;
            }
            if clauses.iter().all(|(o, _)| *o == Occur::MustNot) {
                clauses.push((Occur::Must, Box::new(AllQuery)));
            }
            Some(Box::new(BooleanQuery::new(clauses)))
        }
        Query::Or(children) => {
            let clauses: Vec<(Occur, Box<dyn TQuery>)> = children
                .iter()
                .filter_map(|c| compile_opt(c, idx, states))
                .map(|q| (Occur::Should, q))
                .collect();
            (!clauses.is_empty()).then(|| Box::new(BooleanQuery::new(clauses)) as Box<dyn TQuery>)
        }
    }
}

fn negate(q: Box<dyn TQuery>) -> Box<dyn TQuery> {
    Box::new(BooleanQuery::new(vec![
        (Occur::Must, Box::new(AllQuery)),
        (Occur::MustNot, q),
    ]))
}

/// Words anywhere: subject (boosted), body, and the people fields.
fn free_text(text: &str, idx: &LexicalIndex) -> Option<Box<dyn TQuery>> {
    let f = idx.fields;
    let mut clauses: Vec<(Occur, Box<dyn TQuery>)> = Vec::new();
    for (field, boost) in [
        (f.subject, 2.0),
        (f.body, 1.0),
        (f.from, 1.0),
        (f.to, 0.5),
        (f.cc, 0.5),
    ] {
        if let Some(q) = text_in_field(field, text, idx) {
            clauses.push((Occur::Should, Box::new(BoostQuery::new(q, boost))));
        }
    }
    (!clauses.is_empty()).then(|| Box::new(BooleanQuery::new(clauses)) as Box<dyn TQuery>)
}

fn field_query(
    field: &TextField,
    value: &str,
    idx: &LexicalIndex,
    f: &Fields,
) -> Option<Box<dyn TQuery>> {
    match field {
        TextField::From => text_in_field(f.from, value, idx),
        TextField::To => text_in_field(f.to, value, idx),
        TextField::Cc => text_in_field(f.cc, value, idx),
        TextField::Subject => text_in_field(f.subject, value, idx),
        TextField::Body => text_in_field(f.body, value, idx),
        TextField::Folder => text_in_field(f.folder, value, idx),
        TextField::Thread => Some(exact(f.thread, &value.trim().to_ascii_lowercase())),
        TextField::Id => {
            let id = value.trim().trim_start_matches('<').trim_end_matches('>');
            Some(Box::new(BooleanQuery::new(vec![
                (Occur::Should, exact(f.message_id, id)),
                (Occur::Should, exact(f.key, &id.to_ascii_lowercase())),
            ])))
        }
    }
}

fn exact(field: Field, value: &str) -> Box<dyn TQuery> {
    Box::new(TermQuery::new(
        Term::from_field_text(field, value),
        IndexRecordOption::Basic,
    ))
}

/// Tokenizes `text` the way the field was indexed: one token is a term query, more
/// are a phrase.
fn text_in_field(field: Field, text: &str, idx: &LexicalIndex) -> Option<Box<dyn TQuery>> {
    let mut analyzer = idx.index().tokenizer_for_field(field).ok()?;
    let mut stream = analyzer.token_stream(text);
    let mut terms = Vec::new();
    while stream.advance() {
        terms.push(Term::from_field_text(field, &stream.token().text));
    }
    match terms.len() {
        0 => None,
        1 => terms
            .pop()
            .map(|t| Box::new(TermQuery::new(t, IndexRecordOption::WithFreqs)) as Box<dyn TQuery>),
        _ => Some(Box::new(PhraseQuery::new(terms))),
    }
}
