//! Message threading.
//!
//! Phase 1 (header threading, JWZ containers): every Message-ID and every id
//! named in `References`/`In-Reply-To` gets a container; referenced-but-absent
//! ids become dummy containers. A message is joined to the container of *every*
//! id it references (not only its direct parent). This is what notmuch does
//! (`_notmuch_database_link_message_to_parents` merges the threads of all
//! references), so the resulting partition matches `notmuch search
//! --output=threads`; JWZ's parent re-assignment ("own last reference wins")
//! only changes the tree shape, which this module does not expose. Because
//! linking is a union-find merge, reference loops cannot hang or create cycles.
//! Duplicate Message-IDs share one container (same thread). Messages without a
//! Message-ID get a container of their own (a unique synthetic id). There is no
//! subject merging of header-threaded roots.
//!
//! Phase 2 (subject fallback): a message with neither `References` nor
//! `In-Reply-To` (e.g. the Enron corpus) is joined with another message `c` when
//! the normalised subjects are equal and non-empty, they share a participant,
//! their dates are within 14 days (ignored if either is undated), and either the
//! message has a reply/forward prefix, or `c` has one and `c` is itself a
//! header-less message. (A prefixed `c` that *has* references is evidence it is
//! not a reply to our message, otherwise it would reference it; this keeps a
//! new "[PATCH] foo" root out of the older "Re: [PATCH] foo" thread.) Every
//! matching pair is merged, so the partition does not depend on input order.
//! Messages are processed in date order per (subject, participant) bucket,
//! which lets each bucket drop entries that later queries can no longer need:
//! near-linear time.

use std::collections::HashMap;

pub struct ThreadInput<'a> {
    /// Without angle brackets, e.g. "abc@host".
    pub message_id: Option<&'a str>,
    /// Ids without angle brackets.
    pub in_reply_to: &'a [String],
    /// Oldest first.
    pub references: &'a [String],
    /// Raw subject.
    pub subject: &'a str,
    /// The lowercased email addresses of from/to/cc, each as a number that stands
    /// for one address (the caller interns them; a large mailbox repeats few).
    pub participants: &'a [u32],
    /// Unix seconds.
    pub date: Option<i64>,
}

const WINDOW_SECS: i64 = 14 * 24 * 3600;
use crate::lexicon::REPLY_PREFIXES as PREFIXES;

struct Dsu {
    parent: Vec<usize>,
    size: Vec<u32>,
}

impl Dsu {
    fn new(n: usize) -> Self {
        Dsu {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }
    fn add(&mut self) -> usize {
        self.parent.push(self.parent.len());
        self.size.push(1);
        self.parent.len() - 1
    }
    fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }
    fn union(&mut self, a: usize, b: usize) {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
    }
}

/// Candidates of one (subject, participant) bucket, sorted by date.
#[derive(Default)]
struct Pool {
    dated: Vec<(i64, usize)>,
    /// Entries before `live` are out of reach of all further dated queries.
    live: usize,
    undated: Vec<usize>,
}

impl Pool {
    fn clear(&mut self) {
        self.dated.clear();
        self.undated.clear();
        self.live = 0;
    }

    fn push(&mut self, date: Option<i64>, i: usize) {
        match date {
            Some(d) => self.dated.push((d, i)),
            None => self.undated.push(i),
        }
    }

    /// Merges `m` with every entry within the window of `date` (every entry if
    /// undated). Queries arrive with non-decreasing dates, undated ones last,
    /// so entries below a window are dead for later dated queries, and of the
    /// hits only the latest can still matter: any later window reaching an
    /// earlier hit also reaches it. Skipping the rest keeps this amortised O(1).
    fn join(&mut self, date: Option<i64>, m: usize, dsu: &mut Dsu) {
        match date {
            Some(d) => {
                let (lo, hi) = (d.saturating_sub(WINDOW_SECS), d.saturating_add(WINDOW_SECS));
                while self.dated.get(self.live).is_some_and(|e| e.0 < lo) {
                    self.live += 1;
                }
                let mut last = None;
                for (k, &(dc, c)) in self.dated.iter().enumerate().skip(self.live) {
                    if dc > hi {
                        break;
                    }
                    dsu.union(m, c);
                    last = Some(k);
                }
                self.live = last.unwrap_or(self.live);
            }
            None => {
                for &(_, c) in &self.dated {
                    dsu.union(m, c);
                }
                self.dated.truncate(1);
                self.live = 0;
            }
        }
        for &c in &self.undated {
            dsu.union(m, c);
        }
        self.undated.truncate(1);
    }
}

fn own_id<'a>(m: &ThreadInput<'a>) -> Option<&'a str> {
    m.message_id.map(str::trim).filter(|s| !s.is_empty())
}

/// Groups messages into threads. Returns, for each input (same order), the index of the
/// representative message of its thread: the earliest-dated message in the thread (ties: lowest index;
/// undated messages count as later than any dated one).
/// Deterministic, and the partition does not depend on the input order.
pub fn thread_messages(msgs: &[ThreadInput]) -> Vec<usize> {
    let n = msgs.len();
    let mut dsu = Dsu::new(n);
    let mut ids: HashMap<&str, usize> = HashMap::with_capacity(n * 2);
    for (i, m) in msgs.iter().enumerate() {
        if let Some(id) = own_id(m) {
            let c = *ids.entry(id).or_insert(i);
            dsu.union(i, c);
        }
    }
    let mut has_refs = vec![false; n];
    for (i, m) in msgs.iter().enumerate() {
        let me = own_id(m);
        for r in m.references.iter().chain(m.in_reply_to.iter()) {
            let r = r.trim();
            if r.is_empty() || Some(r) == me {
                continue;
            }
            has_refs[i] = true;
            let c = match ids.get(r) {
                Some(&c) => c,
                None => {
                    let c = dsu.add();
                    ids.insert(r, c);
                    c
                }
            };
            dsu.union(i, c);
        }
    }

    // Subject fallback, one (subject, participant) bucket at a time; within a
    // bucket, header-threaded candidates sort first, then header-less messages
    // in (undated last, date, index) order, the order `Pool::join` needs.
    let keys: Vec<(String, bool)> = msgs.iter().map(|m| subject_key(m.subject)).collect();
    let mut subj_ids: HashMap<&str, u32> = HashMap::new();
    for i in (0..n).filter(|&i| !has_refs[i] && !keys[i].0.is_empty()) {
        let next = subj_ids.len() as u32;
        subj_ids.entry(keys[i].0.as_str()).or_insert(next);
    }
    // One subject at a time, so only that subject's (participant, message) entries
    // are held: a mailbox where a message has hundreds of recipients has millions.
    let mut by_subject: Vec<(u32, usize)> = (0..n)
        .filter_map(|i| subj_ids.get(keys[i].0.as_str()).map(|&s| (s, i)))
        .collect();
    by_subject.sort_unstable();
    let mut entries: Vec<(u32, bool, bool, i64, usize)> = Vec::new();
    let (mut headers, mut plain, mut prefixed) =
        (Pool::default(), Pool::default(), Pool::default());
    for group in by_subject.chunk_by(|a, b| a.0 == b.0) {
        entries.clear();
        for &(_, i) in group {
            let m = &msgs[i];
            for &p in m.participants {
                entries.push((p, !has_refs[i], m.date.is_none(), m.date.unwrap_or(0), i));
            }
        }
        entries.sort_unstable();
        entries.dedup();
        for bucket in entries.chunk_by(|a, b| a.0 == b.0) {
            let split = bucket.partition_point(|e| !e.1);
            if split == bucket.len() {
                continue;
            }
            for pool in [&mut headers, &mut plain, &mut prefixed] {
                pool.clear();
            }
            for e in &bucket[..split] {
                headers.push((!e.2).then_some(e.3), e.4);
            }
            for e in &bucket[split..] {
                let (date, i) = ((!e.2).then_some(e.3), e.4);
                if keys[i].1 {
                    headers.join(date, i, &mut dsu);
                    plain.join(date, i, &mut dsu);
                    // Only prunes: prefixed entries are also in `plain`.
                    prefixed.join(date, i, &mut dsu);
                    prefixed.push(date, i);
                } else {
                    prefixed.join(date, i, &mut dsu);
                }
                plain.push(date, i);
            }
        }
    }

    // Representative: earliest date, then lowest index.
    let mut best: Vec<Option<(bool, i64, usize)>> = vec![None; dsu.parent.len()];
    let roots: Vec<usize> = (0..n).map(|i| dsu.find(i)).collect();
    for (i, &r) in roots.iter().enumerate() {
        let cand = (msgs[i].date.is_none(), msgs[i].date.unwrap_or(0), i);
        if best[r].is_none_or(|b| cand < b) {
            best[r] = Some(cand);
        }
    }
    roots
        .iter()
        .enumerate()
        .map(|(i, &r)| best[r].map_or(i, |b| b.2))
        .collect()
}

/// "Re: Fw: FWD: [list] Subject  " → "subject".
///
/// Lowercases, then repeatedly strips leading reply/forward prefixes
/// (Re/Fw/Fwd/Aw/Sv/Antw/Wg/Odp, case-insensitive, optional `[n]`/`(n)` count,
/// optional spaces before `:` or a fullwidth `：`) and leading `[tag]` list
/// prefixes in any interleaving. List tags are always stripped (not only when
/// followed by a prefix) because list software places them inconsistently
/// ("[list] Re: x" vs "Re: [list] x"), but only if text remains after them,
/// so a subject that is just "[tag]" keeps it. A trailing "(fwd)" is stripped
/// too. Whitespace is collapsed to single spaces.
pub fn normalize_subject(s: &str) -> String {
    subject_key(s).0
}

/// Normalised subject and whether a reply/forward prefix was stripped.
fn subject_key(s: &str) -> (String, bool) {
    let lower = s.to_lowercase();
    let mut rest = lower.trim();
    let mut had_prefix = false;
    loop {
        rest = rest.trim_start();
        if let Some(r) = strip_reply_prefix(rest) {
            rest = r;
            had_prefix = true;
        } else if let Some(r) = strip_tag(rest) {
            rest = r;
        } else {
            break;
        }
    }
    let mut rest = rest.trim_end();
    while let Some(r) = rest.strip_suffix("(fwd)") {
        rest = r.trim_end();
        had_prefix = true;
    }
    let mut out = String::with_capacity(rest.len());
    for word in rest.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    (out, had_prefix)
}

fn strip_reply_prefix(s: &str) -> Option<&str> {
    let word_len = s
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(s.len());
    if !PREFIXES.contains(&&s[..word_len]) {
        return None;
    }
    let mut r = s[word_len..].trim_start();
    for (open, close) in [('[', ']'), ('(', ')')] {
        if let Some(inner) = r.strip_prefix(open) {
            let end = inner.find(close)?;
            let count = inner[..end].trim();
            if count.is_empty() || !count.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            r = inner[end + 1..].trim_start();
            break;
        }
    }
    r.strip_prefix(':').or_else(|| r.strip_prefix('：'))
}

fn strip_tag(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('[')?;
    let end = inner.find(']')?;
    let rest = inner[end + 1..].trim_start();
    (end <= 64 && !rest.is_empty()).then_some(rest)
}

#[cfg(test)]
#[path = "thread_tests.rs"]
mod tests;
