//! Retrieval in three modes. Lexical: BM25 over tantivy. Semantic: cosine over chunk
//! embeddings. Hybrid: both, fused by Reciprocal Rank Fusion, adjusted by date and
//! people heuristics and thread expansion, optionally reranked, then gated by a
//! calibrated confidence. Query filters apply in every mode.

use crate::engine::mailbox::copies::ranked_emails;
use crate::engine::retrieval::search::{first_words, SearchHit, COPY_WINDOW};
use crate::engine::{Engine, Result};
use crate::index::lexical_query::compile;
use crate::mail::model::{display_list, MessageKey};
use crate::query::split::{split_query, SplitQuery};
use crate::query::syntax::{parse_query, Query};
use crate::retrieve::fuse::reciprocal_rank_fusion;
use crate::retrieve::gate::{content_terms, term_coverage, GateSignals};
use crate::retrieve::heuristics::{date_boost, people_boost};
use crate::retrieve::rerank::max_sim;
use crate::store::{embed_id, StoredChunk, StoredMessage};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// Candidates taken from each retriever before fusion.
pub(in crate::engine) const DEPTH: usize = 100;
/// Candidates reranked.
const RERANK_DEPTH: usize = 20;

pub use super::options::{FusionWeights, RetrieveHints, RetrieveOptions, SearchMode};
pub use super::retrieved::{ChunkRef, Retrieval, RetrievedHit, StageScores};

struct Candidate {
    key: MessageKey,
    score: f32,
    stages: StageScores,
    best_chunk: Option<(StoredChunk, f32)>,
}

impl Engine {
    pub fn retrieve(&self, query: &str, opts: RetrieveOptions) -> Result<Retrieval> {
        self.retrieve_with(query, opts, &RetrieveHints::default())
    }

    /// Retrieval of a query in the query syntax, with hints.
    pub fn retrieve_with(
        &self,
        query: &str,
        opts: RetrieveOptions,
        hints: &RetrieveHints,
    ) -> Result<Retrieval> {
        let parsed = parse_query(query, opts.now)?;
        self.retrieve_query(&parsed, opts, hints)
    }

    /// Retrieval of a query already built (a question's search), with the hints of
    /// the question.
    pub fn retrieve_query(
        &self,
        parsed: &Query,
        opts: RetrieveOptions,
        hints: &RetrieveHints,
    ) -> Result<Retrieval> {
        let mut timings = HashMap::new();
        let mut notes = Vec::new();
        let t0 = Instant::now();
        let mut split = split_query(parsed);
        split.people.extend(hints.people.iter().cloned());
        if split.date.is_none() {
            split.date = hints.date;
        }
        let allowed = match &split.filters {
            Some(f) => Some(self.retrieval.lexical.matching_keys(
                compile(f, &self.retrieval.lexical, &self.mail_states(f)?).as_ref(),
            )?),
            None => None,
        };
        timings.insert("filters", ms(t0));

        let want_dense = opts.mode != SearchMode::Lexical && !split.text.is_empty();
        let query_vec = if want_dense {
            match self
                .embedder()
                .and_then(|e| Ok(e.embed(&[split.text.as_str()])?))
            {
                Ok(mut v) => v.pop(),
                Err(e) => {
                    notes.push(format!("semantic search unavailable: {e}"));
                    None
                }
            }
        } else {
            None
        };
        if want_dense && query_vec.is_some() {
            let p = self.embed_progress()?;
            if p.done < p.total {
                notes.push(format!(
                    "meaning is still arriving: {} of {} texts embedded",
                    p.done, p.total
                ));
            }
        }

        let t = Instant::now();
        let (lexical, every_word) =
            if opts.mode != SearchMode::Semantic || split.text.trim().is_empty() {
                self.lexical_ranked(parsed, &split, DEPTH.max(opts.limit))?
            } else {
                (Vec::new(), false)
            };
        timings.insert("lexical", ms(t));

        let t = Instant::now();
        let dense = match &query_vec {
            Some(q) => self.dense_messages(q, allowed.as_ref())?,
            None => Vec::new(),
        };
        timings.insert("dense", ms(t));

        let t = Instant::now();
        // Filters alone have no meaning to search for: they list, in every mode.
        let fuse_mode = if split.text.trim().is_empty() {
            SearchMode::Lexical
        } else {
            opts.mode
        };
        let weights = self.config.fusion.lists(every_word);
        let mut candidates = self.fuse(&lexical, &dense, fuse_mode, weights);
        if !hints.avoid.is_empty() {
            candidates.retain(|c| !hints.avoid.contains(&c.key));
        }
        if opts.mode == SearchMode::Hybrid {
            self.apply_heuristics(&mut candidates, &split, allowed.as_ref())?;
        }
        if split.text.trim().is_empty() {
            // Filters alone (a date range, a folder, `*`): nothing to rank by
            // relevance, so the newest mail comes first, as in notmuch.
            let mut dated = Vec::with_capacity(candidates.len());
            for c in candidates {
                let date = self.store.message(&c.key)?.and_then(|m| m.date);
                dated.push((date, c));
            }
            dated.sort_by_key(|d| std::cmp::Reverse(d.0));
            candidates = dated.into_iter().map(|(_, c)| c).collect();
        }
        timings.insert("fusion", ms(t));

        if let Some(q) = &query_vec {
            for c in candidates.iter_mut().take(RERANK_DEPTH.max(opts.limit)) {
                if c.best_chunk.is_none() {
                    c.best_chunk = self.best_chunk(&c.key, q)?;
                }
            }
        }
        if opts.rerank && opts.mode == SearchMode::Hybrid && query_vec.is_some() {
            let t = Instant::now();
            self.rerank(&split.text, &mut candidates)?;
            timings.insert("rerank", ms(t));
        }

        let t = Instant::now();
        let (confidence, evidence, gate_signals) =
            self.gate(&split, &candidates, query_vec.as_deref(), &lexical)?;
        let hits = self.decorate(candidates, parsed, opts.limit)?;
        timings.insert("gate_and_decorate", ms(t));
        timings.insert("total", ms(t0));
        Ok(Retrieval {
            mode: opts.mode,
            hits,
            confidence,
            evidence,
            gate_signals,
            fusion_weights: (fuse_mode == SearchMode::Hybrid).then_some(weights),
            notes,
            timings_ms: timings,
        })
    }

    /// BM25 ranking: messages matching every word first (notmuch semantics), then, when
    /// those are few, messages matching any of the content words, so a question asked
    /// in plain words still finds the message that shares most of them. Also says
    /// whether some message held every one of two or more words.
    fn lexical_ranked(
        &self,
        parsed: &Query,
        split: &SplitQuery,
        depth: usize,
    ) -> Result<(Vec<(MessageKey, f32)>, bool)> {
        let compiled = compile(parsed, &self.retrieval.lexical, &self.mail_states(parsed)?);
        if split.text.trim().is_empty() {
            let newest = self
                .retrieval
                .lexical
                .newest(compiled.as_ref(), depth)?
                .into_iter()
                .map(|h| (h.key, h.score))
                .collect();
            return Ok((newest, false));
        }
        let mut ranked: Vec<(MessageKey, f32)> = self
            .retrieval
            .lexical
            .search(compiled.as_ref(), depth)?
            .into_iter()
            .map(|h| (h.key, h.score))
            .collect();
        let terms = content_terms(&split.text);
        let every_word = !ranked.is_empty() && terms.len() > 1;
        if ranked.len() < depth && terms.len() > 1 {
            let any_word = Query::Or(terms.into_iter().map(Query::Term).collect());
            let relaxed = match &split.filters {
                Some(f) => Query::And(vec![f.clone(), any_word]),
                None => any_word,
            };
            let seen: HashSet<MessageKey> = ranked.iter().map(|h| h.0).collect();
            let more = self.retrieval.lexical.search(
                compile(
                    &relaxed,
                    &self.retrieval.lexical,
                    &self.mail_states(&relaxed)?,
                )
                .as_ref(),
                depth,
            )?;
            ranked.extend(
                more.into_iter()
                    .filter(|h| !seen.contains(&h.key))
                    .map(|h| (h.key, h.score))
                    .take(depth - ranked.len()),
            );
        }
        Ok((ranked, every_word))
    }

    fn fuse(
        &self,
        lexical: &[(MessageKey, f32)],
        dense: &[(MessageKey, f32, StoredChunk)],
        mode: SearchMode,
        (lexical_weight, semantic_weight): (f32, f32),
    ) -> Vec<Candidate> {
        let lex_keys: Vec<MessageKey> = lexical.iter().map(|h| h.0).collect();
        let dense_keys: Vec<MessageKey> = dense.iter().map(|h| h.0).collect();
        let lists = match mode {
            SearchMode::Lexical => vec![lex_keys, Vec::new()],
            SearchMode::Semantic => vec![Vec::new(), dense_keys],
            SearchMode::Hybrid => vec![lex_keys, dense_keys],
        };
        let lex_score: HashMap<MessageKey, f32> = lexical.iter().copied().collect();
        let mut dense_by: HashMap<MessageKey, (f32, StoredChunk)> = dense
            .iter()
            .map(|(k, s, c)| (*k, (*s, c.clone())))
            .collect();
        reciprocal_rank_fusion(&lists, &[lexical_weight, semantic_weight])
            .into_iter()
            .enumerate()
            .map(|(i, f)| {
                let dense = dense_by.remove(&f.item);
                Candidate {
                    key: f.item,
                    score: f.score,
                    stages: StageScores {
                        lexical_rank: f.ranks[0],
                        lexical_score: lex_score.get(&f.item).copied(),
                        dense_rank: f.ranks[1],
                        dense_score: dense.as_ref().map(|d| d.0),
                        fused_rank: Some(i + 1),
                        fused_score: Some(f.score),
                        boost: 1.0,
                        ..StageScores::default()
                    },
                    best_chunk: dense.map(|(s, c)| (c, s)),
                }
            })
            .collect()
    }

    /// Date and people multipliers, then thread siblings of the strongest hits.
    fn apply_heuristics(
        &self,
        candidates: &mut Vec<Candidate>,
        split: &SplitQuery,
        allowed: Option<&HashSet<MessageKey>>,
    ) -> Result<()> {
        if split.date.is_some() || !split.people.is_empty() {
            for c in candidates.iter_mut() {
                let Some(msg) = self.store.message(&c.key)? else {
                    continue;
                };
                let mut boost = 1.0;
                if let Some(range) = split.date {
                    boost *= date_boost(msg.date, range, 0.3);
                }
                if !split.people.is_empty() {
                    boost *= people_boost(&split.people, &people_of(&msg), 0.2);
                }
                c.score *= boost;
                c.stages.boost = boost;
            }
        }
        let present: HashSet<MessageKey> = candidates.iter().map(|c| c.key).collect();
        let mut added = Vec::new();
        for strong in candidates.iter().take(3) {
            let Some(thread) = self.store.thread_of(&strong.key)? else {
                continue;
            };
            let Some(summary) = self.store.thread(&thread)? else {
                continue;
            };
            if summary.messages.len() > 50 {
                continue;
            }
            for sibling in summary.messages {
                if present.contains(&sibling)
                    || added.iter().any(|c: &Candidate| c.key == sibling)
                    || allowed.is_some_and(|s| !s.contains(&sibling))
                {
                    continue;
                }
                added.push(Candidate {
                    key: sibling,
                    score: strong.score * self.config.fusion.thread_sibling,
                    stages: StageScores {
                        boost: 1.0,
                        thread_expansion: true,
                        ..StageScores::default()
                    },
                    best_chunk: None,
                });
            }
        }
        candidates.extend(added);
        candidates.sort_by(|a, b| b.score.total_cmp(&a.score));
        Ok(())
    }

    /// The chunk of a message closest in meaning to the query, from stored vectors.
    fn best_chunk(&self, key: &MessageKey, q: &[f32]) -> Result<Option<(StoredChunk, f32)>> {
        let mut best: Option<(StoredChunk, f32)> = None;
        for chunk in self.store.chunks_of(key)? {
            let Some(v) = self.retrieval.vectors.get(embed_id(&chunk.embed_text)) else {
                continue;
            };
            let score: f32 = v.iter().zip(q).map(|(a, b)| a * b).sum();
            if best.as_ref().is_none_or(|(_, s)| score > *s) {
                best = Some((chunk, score));
            }
        }
        Ok(best)
    }

    /// MaxSim over token vectors of the question and of each candidate's best chunk,
    /// fused by rank with the order so far.
    fn rerank(&self, question: &str, candidates: &mut [Candidate]) -> Result<()> {
        let embedder = self.embedder()?;
        let q_tokens = embedder.token_vectors(question)?;
        let n = candidates.len().min(RERANK_DEPTH);
        let mut scored: Vec<(usize, f32)> = Vec::with_capacity(n);
        for (i, c) in candidates.iter_mut().take(n).enumerate() {
            let Some((chunk, _)) = &c.best_chunk else {
                scored.push((i, 0.0));
                continue;
            };
            let s = max_sim(&q_tokens, &embedder.token_vectors(&chunk.embed_text)?);
            c.stages.rerank_score = Some(s);
            scored.push((i, s));
        }
        scored.sort_by(|a, b| b.1.total_cmp(&a.1));
        let current: Vec<usize> = (0..n).collect();
        let reranked: Vec<usize> = scored.iter().map(|s| s.0).collect();
        let fused = reciprocal_rank_fusion(&[current, reranked], &[1.0, 1.0]);
        let order: Vec<usize> = fused.iter().map(|f| f.item).collect();
        let head: Vec<Candidate> = candidates[..n]
            .iter_mut()
            .map(|c| Candidate {
                key: c.key,
                score: c.score,
                stages: std::mem::take(&mut c.stages),
                best_chunk: c.best_chunk.take(),
            })
            .collect();
        let mut head: Vec<Option<Candidate>> = head.into_iter().map(Some).collect();
        for (slot, i) in order.into_iter().enumerate() {
            if let Some(c) = head[i].take() {
                candidates[slot] = c;
            }
        }
        Ok(())
    }

    fn gate(
        &self,
        split: &SplitQuery,
        candidates: &[Candidate],
        query_vec: Option<&[f32]>,
        lexical: &[(MessageKey, f32)],
    ) -> Result<(f32, bool, Option<GateSignals>)> {
        if candidates.is_empty() {
            return Ok((0.0, false, None));
        }
        if split.text.is_empty() {
            // A pure filter query: whatever matches the filters is the answer.
            return Ok((1.0, true, None));
        }
        let terms = content_terms(&split.text);
        let mut best = 0.0f32;
        let mut best_signals = None;
        for c in candidates.iter().take(3) {
            let Some(msg) = self.store.message(&c.key)? else {
                continue;
            };
            let mut text = format!("{} {}", msg.subject, msg.body);
            // Evidence on an attachment page counts as the message's words.
            if let Some((chunk, _)) = c
                .best_chunk
                .as_ref()
                .filter(|(ch, _)| ch.attachment.is_some())
            {
                text.push(' ');
                text.push_str(&chunk.cite_text);
            }
            // A candidate without vectors (not embedded yet) is judged on its words.
            let cosine = match (query_vec, &c.best_chunk) {
                (Some(_), Some((_, s))) => Some(*s),
                _ => None,
            };
            let signals = GateSignals {
                cosine,
                term_coverage: term_coverage(&terms, &text),
                lexical_hit: lexical.iter().any(|(k, _)| *k == c.key),
            };
            let confidence = self.retrieval.gate.confidence(signals);
            if best_signals.is_none() || confidence > best {
                best = confidence;
                best_signals = Some(signals);
            }
        }
        Ok((best, best >= self.retrieval.gate.threshold, best_signals))
    }

    /// The first `limit` candidates as hits, one per email: a copy of an email
    /// listed adds its folder to that hit ([`crate::engine::mailbox::copies::ranked_emails`]).
    fn decorate(
        &self,
        candidates: Vec<Candidate>,
        parsed: &Query,
        limit: usize,
    ) -> Result<Vec<RetrievedHit>> {
        let compiled = compile(parsed, &self.retrieval.lexical, &self.mail_states(parsed)?);
        let emails = ranked_emails(
            &self.store,
            candidates,
            |c| c.key,
            |c| c.best_chunk.is_some(),
            limit,
            limit.saturating_mul(COPY_WINDOW),
        )?;
        let mut out: Vec<RetrievedHit> = Vec::with_capacity(emails.len());
        for email in emails {
            let (mut c, msg) = (email.shown, email.message);
            c.stages.final_rank = out.len() + 1;
            let (snippet, highlights) = match &c.best_chunk {
                Some((chunk, _)) => (chunk.cite_text.chars().take(200).collect(), Vec::new()),
                None => {
                    let (s, r) =
                        self.retrieval
                            .lexical
                            .snippet(compiled.as_ref(), &msg.body, 160)?;
                    if s.trim().is_empty() {
                        (first_words(&msg.body, 160), Vec::new())
                    } else {
                        (s, r.into_iter().map(|r| (r.start, r.end)).collect())
                    }
                }
            };
            let mut hit =
                SearchHit::of(&msg, self.thread_id(&c.key)?, c.score, snippet, highlights);
            hit.also_in = email.also_in;
            hit.files.extend(email.copy_files);
            hit.tags = self.mailbox.tags.of(&msg.key)?;
            let copy_ids = email.copy_ids;
            out.push(RetrievedHit {
                hit,
                chunk: c.best_chunk.map(|(ch, _)| ChunkRef {
                    ordinal: ch.ordinal,
                    start: ch.start,
                    end: ch.end,
                    page: ch.attachment.as_ref().and_then(|a| a.page),
                    place: ch.attachment.as_ref().and_then(|a| a.where_()),
                    attachment: ch.attachment.map(|a| a.name),
                    cite_text: ch.cite_text,
                }),
                stages: c.stages,
                copy_ids,
            });
        }
        Ok(out)
    }
}

fn people_of(msg: &StoredMessage) -> String {
    format!(
        "{} {} {}",
        display_list(&msg.from),
        display_list(&msg.to),
        display_list(&msg.cc)
    )
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}
