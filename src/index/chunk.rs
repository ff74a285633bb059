//! Chunks of authored text for retrieval.
//!
//! A region is first cut into words (whitespace-separated runs; every CJK
//! character is a word of its own). Each word remembers the strength of the
//! boundary before it (paragraph, sentence, line, plain space). Regions are
//! split hierarchically into units no larger than `max_tokens` (paragraphs,
//! else sentences, else lines, else words) and units are packed greedily into
//! chunks, each one starting with an overlap taken from the previous chunk.
//! Token estimates are additive across word boundaries, so chunk sizes are
//! sums of word estimates and the whole pass is linear.

/// A byte span `[start, end)` of a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkSpan {
    pub start: usize,
    pub end: usize,
}

/// Chunk sizing, in estimated tokens.
#[derive(Debug, Clone, Copy)]
pub struct ChunkConfig {
    /// Target upper bound of a chunk (default 256).
    pub max_tokens: usize,
    /// About how much consecutive chunks of one region share (default 32).
    pub overlap_tokens: usize,
    /// Trailing pieces smaller than this merge into the previous chunk when
    /// that keeps it within `max_tokens * 1.25` (default 8).
    pub min_tokens: usize,
}

impl Default for ChunkConfig {
    fn default() -> Self {
        ChunkConfig {
            max_tokens: 256,
            overlap_tokens: 32,
            min_tokens: 8,
        }
    }
}

/// CJK and fullwidth characters: one token each, and a word boundary on
/// both sides (such text has no spaces).
fn is_wide(c: char) -> bool {
    matches!(c, '\u{2e80}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{f900}'..='\u{faff}'
        | '\u{ff00}'..='\u{ffef}' | '\u{20000}'..='\u{3ffff}')
}

/// Estimated model tokens of a text (word-piece estimate: count words and
/// punctuation; long words count more, ceil(chars/6) per word, ceil(chars/4)
/// for non-ASCII words; digit runs count ceil(digits/3); CJK one per char).
/// Cheap, no allocation.
pub fn estimate_tokens(text: &str) -> usize {
    fn run_cost(alpha: usize, non_ascii: bool, digits: usize) -> usize {
        alpha.div_ceil(if non_ascii { 4 } else { 6 }) + digits.div_ceil(3)
    }
    let (mut total, mut alpha, mut digits, mut non_ascii) = (0, 0, 0, false);
    for c in text.chars() {
        let is_alpha = c.is_alphabetic() && !is_wide(c);
        let is_digit = c.is_ascii_digit();
        if (alpha > 0 && !is_alpha) || (digits > 0 && !is_digit) {
            total += run_cost(alpha, non_ascii, digits);
            (alpha, digits, non_ascii) = (0, 0, false);
        }
        if is_alpha {
            alpha += 1;
            non_ascii |= !c.is_ascii();
        } else if is_digit {
            digits += 1;
        } else if !c.is_whitespace() {
            total += 1;
        }
    }
    total + run_cost(alpha, non_ascii, digits)
}

const PARA: u8 = 3;
const SENTENCE: u8 = 2;
const LINE: u8 = 1;

#[derive(Debug, Clone, Copy)]
struct Word {
    start: usize,
    end: usize,
    tokens: usize,
    /// Strength of the boundary before this word.
    brk: u8,
}

#[derive(Debug, Clone, Copy)]
struct Unit {
    first: usize,
    last: usize,
    tokens: usize,
    /// First unit of a group that was too large and had to be split.
    hard: bool,
}

fn ends_sentence(word: &str) -> bool {
    let w = word.trim_end_matches(['"', '\'', ')', ']', '}', '’', '”', '»', '*', '_']);
    w.ends_with(['.', '!', '?', '。', '！', '？'])
}

/// Cuts `body[start..end]` into words with absolute offsets.
fn words_of(body: &str, start: usize, end: usize) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    let mut newlines = 0;
    let mut push = |s: usize, e: usize, newlines: &mut usize| {
        let text = &body[s..e];
        let brk = match words.last() {
            None => PARA,
            Some(_) if *newlines >= 2 => PARA,
            Some(p) if ends_sentence(&body[p.start..p.end]) => SENTENCE,
            Some(_) if *newlines == 1 => LINE,
            Some(_) => 0,
        };
        words.push(Word {
            start: s,
            end: e,
            tokens: estimate_tokens(text),
            brk,
        });
        *newlines = 0;
    };
    let mut cur: Option<usize> = None;
    for (i, c) in body[start..end].char_indices() {
        let i = i + start;
        if c.is_whitespace() {
            if let Some(s) = cur.take() {
                push(s, i, &mut newlines);
            }
            if c == '\n' {
                newlines += 1;
            }
        } else if is_wide(c) {
            if let Some(s) = cur.take() {
                push(s, i, &mut newlines);
            }
            push(i, i + c.len_utf8(), &mut newlines);
        } else if cur.is_none() {
            cur = Some(i);
        }
    }
    if let Some(s) = cur {
        push(s, end, &mut newlines);
    }
    words
}

/// Splits `words[a..b]` at boundaries of at least `level` into units of at
/// most `max` tokens, descending a level for groups that are too large.
fn split(words: &[Word], a: usize, b: usize, level: u8, max: usize, out: &mut Vec<Unit>) {
    let mut g = a;
    for k in a + 1..=b {
        if k < b && words[k].brk < level {
            continue;
        }
        let tokens: usize = words[g..k].iter().map(|w| w.tokens).sum();
        if tokens <= max || level == 0 {
            out.push(Unit {
                first: g,
                last: k,
                tokens,
                hard: false,
            });
        } else {
            let idx = out.len();
            split(words, g, k, level - 1, max, out);
            if let Some(u) = out.get_mut(idx) {
                u.hard = true;
            }
        }
        g = k;
    }
}

/// Start word and token count of an overlap of at most `budget` tokens taken
/// from the tail of the chunk `words[first..last]` (never the whole chunk).
fn overlap_start(
    words: &[Word],
    first: usize,
    last: usize,
    budget: usize,
) -> Option<(usize, usize)> {
    let (mut acc, mut best_word, mut best_sent) = (0, None, None);
    let mut k = last;
    while k > first + 1 {
        k -= 1;
        acc += words[k].tokens;
        if acc > budget {
            break;
        }
        best_word = Some((k, acc));
        if words[k].brk >= SENTENCE {
            best_sent = Some((k, acc));
        }
    }
    match (best_sent, best_word) {
        (Some(s), Some(w)) if s.1 * 2 >= w.1 => Some(s),
        (_, w) => w,
    }
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// Regions clamped to the body and to char boundaries, sorted, non-empty,
/// with overlapping ones united.
fn clean_regions(body: &str, regions: &[ChunkSpan]) -> Vec<ChunkSpan> {
    let mut sorted: Vec<ChunkSpan> = regions
        .iter()
        .map(|r| ChunkSpan {
            start: ceil_boundary(body, r.start),
            end: floor_boundary(body, r.end),
        })
        .filter(|r| r.start < r.end)
        .collect();
    sorted.sort_by_key(|r| (r.start, r.end));
    let mut out: Vec<ChunkSpan> = Vec::with_capacity(sorted.len());
    for r in sorted {
        match out.last_mut() {
            Some(p) if r.start < p.end => p.end = p.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Splits each region into chunk spans: pack whole paragraphs (blank-line
/// separated) up to max_tokens; a paragraph larger than max_tokens is split at
/// sentence ends (also line breaks as a weaker boundary), and a sentence
/// larger than max_tokens at word boundaries. Consecutive chunks inside one
/// region overlap by about overlap_tokens (starting at a sentence or word
/// boundary). Spans start and end on non-whitespace, lie on char boundaries
/// inside their region and come in order. Whitespace-only regions give none.
pub fn chunk_regions(body: &str, regions: &[ChunkSpan], cfg: &ChunkConfig) -> Vec<ChunkSpan> {
    let max = cfg.max_tokens;
    let mut out = Vec::new();
    let mut units = Vec::new();
    for r in clean_regions(body, regions) {
        let words = words_of(body, r.start, r.end);
        units.clear();
        split(&words, 0, words.len(), PARA, max, &mut units);
        // (first word, last word exclusive, tokens, tokens not in the overlap)
        let mut chunks: Vec<(usize, usize, usize, usize)> = Vec::new();
        let mut i = 0;
        while let Some(u) = units.get(i) {
            let (mut first, mut tokens) = (u.first, u.tokens);
            if let Some(&(pf, pl, pt, _)) = chunks.last() {
                let budget = cfg
                    .overlap_tokens
                    .min(max.saturating_sub(u.tokens))
                    .min(pt / 2);
                if let Some((k, a)) = overlap_start(&words, pf, pl, budget) {
                    first = k;
                    tokens += a;
                }
            }
            let (mut last, mut fresh) = (u.last, u.tokens);
            i += 1;
            while let Some(n) = units.get(i) {
                if (n.hard && fresh >= cfg.min_tokens) || tokens + n.tokens > max {
                    break;
                }
                tokens += n.tokens;
                fresh += n.tokens;
                last = n.last;
                i += 1;
            }
            chunks.push((first, last, tokens, fresh));
        }
        if let [.., p, l] = chunks.as_mut_slice() {
            if l.3 < cfg.min_tokens && p.2 + l.3 <= max + max / 4 {
                p.1 = l.1;
                p.2 += l.3;
                chunks.pop();
            }
        }
        out.extend(chunks.iter().map(|&(f, l, _, _)| ChunkSpan {
            start: words[f].start,
            end: words[l - 1].end,
        }));
    }
    out
}

/// Merges regions separated only by whitespace (or touching/overlapping); the
/// result is sorted, clamped to the body and on char boundaries.
pub fn merge_adjacent(regions: &[ChunkSpan], body: &str) -> Vec<ChunkSpan> {
    let mut out: Vec<ChunkSpan> = Vec::new();
    for r in clean_regions(body, regions) {
        match out.last_mut() {
            Some(p) if body[p.end..r.start].trim().is_empty() => p.end = p.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

#[cfg(test)]
#[path = "chunk_tests.rs"]
mod tests;
