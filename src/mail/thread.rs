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
    /// Lowercased email addresses of from/to/cc.
    pub participants: &'a [String],
    /// Unix seconds.
    pub date: Option<i64>,
}

const WINDOW_SECS: i64 = 14 * 24 * 3600;
const PREFIXES: &[&str] = &["re", "fw", "fwd", "aw", "sv", "antw", "wg", "odp"];

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
    let mut part_ids: HashMap<&str, u32> = HashMap::new();
    let mut entries: Vec<(u32, u32, bool, bool, i64, usize)> = Vec::new();
    for (i, m) in msgs.iter().enumerate() {
        let Some(&s) = subj_ids.get(keys[i].0.as_str()) else {
            continue;
        };
        for p in m
            .participants
            .iter()
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
        {
            let next = part_ids.len() as u32;
            let p = *part_ids.entry(p).or_insert(next);
            entries.push((s, p, !has_refs[i], m.date.is_none(), m.date.unwrap_or(0), i));
        }
    }
    entries.sort_unstable();
    entries.dedup();
    let (mut headers, mut plain, mut prefixed) =
        (Pool::default(), Pool::default(), Pool::default());
    for bucket in entries.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        let split = bucket.partition_point(|e| !e.2);
        if split == bucket.len() {
            continue;
        }
        for pool in [&mut headers, &mut plain, &mut prefixed] {
            pool.clear();
        }
        for e in &bucket[..split] {
            headers.push((!e.3).then_some(e.4), e.5);
        }
        for e in &bucket[split..] {
            let (date, i) = ((!e.3).then_some(e.4), e.5);
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
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct M {
        id: Option<String>,
        irt: Vec<String>,
        refs: Vec<String>,
        subject: String,
        parts: Vec<String>,
        date: Option<i64>,
    }

    fn m(id: &str, refs: &[&str], subject: &str, parts: &[&str], date: Option<i64>) -> M {
        M {
            id: (!id.is_empty()).then(|| id.to_string()),
            refs: refs.iter().map(|s| s.to_string()).collect(),
            subject: subject.into(),
            parts: parts.iter().map(|s| s.to_string()).collect(),
            date,
            ..M::default()
        }
    }

    fn inputs(ms: &[M]) -> Vec<ThreadInput<'_>> {
        ms.iter()
            .map(|x| ThreadInput {
                message_id: x.id.as_deref(),
                in_reply_to: &x.irt,
                references: &x.refs,
                subject: &x.subject,
                participants: &x.parts,
                date: x.date,
            })
            .collect()
    }

    fn run(ms: &[M]) -> Vec<usize> {
        thread_messages(&inputs(ms))
    }

    const DAY: i64 = 86_400;

    #[test]
    fn simple_reply_chain() {
        let mut b = m("b", &[], "Re: hi", &[], Some(2));
        b.irt = vec!["a".into()];
        let ms = [
            m("a", &[], "hi", &[], Some(1)),
            b,
            m("c", &["a", "b"], "Re: hi", &[], Some(3)),
            m("z", &[], "x", &[], Some(0)),
        ];
        assert_eq!(run(&ms), vec![0, 0, 0, 3]);
    }

    #[test]
    fn missing_middle_and_shared_missing_ancestor() {
        let ms = [
            m("a", &[], "s", &[], Some(5)),
            m("c", &["a", "b"], "s", &[], Some(7)),
            m("d", &["x"], "d", &[], Some(9)),
            m("e", &["x", "y"], "e", &[], Some(8)),
            m("f", &["y"], "f", &[], None),
        ];
        assert_eq!(run(&ms), vec![0, 0, 3, 3, 3]);
    }

    #[test]
    fn in_reply_to_only() {
        let mut b = m("b", &[], "whatever", &[], Some(1));
        b.irt = vec![" a ".into()];
        let ms = [
            b,
            m("a", &[], "topic", &[], Some(2)),
            m("q", &[], "other", &[], None),
        ];
        assert_eq!(run(&ms), vec![0, 0, 2]);
    }

    #[test]
    fn reference_loops_terminate() {
        let ms = [
            m("a", &["b"], "x", &[], Some(2)),
            m("b", &["a"], "y", &[], Some(1)),
            m("c", &["c", "c"], "z", &[], None),
            m("d", &["e", "d", "e"], "w", &[], None),
        ];
        assert_eq!(run(&ms), vec![1, 1, 2, 3]);
    }

    #[test]
    fn duplicate_message_ids() {
        let ms = [
            m("a", &[], "x", &[], Some(3)),
            m("a", &[], "x", &[], Some(2)),
            m("r", &["a"], "Re: x", &[], Some(4)),
        ];
        assert_eq!(run(&ms), vec![1, 1, 1]);
    }

    #[test]
    fn missing_message_ids() {
        let ms = [
            m("", &[], "x", &["a@x"], Some(1)),
            m("", &[], "x", &["a@x"], Some(2)),
            m("", &["p"], "y", &[], Some(3)),
            m("p", &[], "y", &[], None),
        ];
        assert_eq!(run(&ms), vec![0, 1, 2, 2]);
    }

    #[test]
    fn representative_is_earliest_then_lowest_index() {
        let ms = [
            m("a", &[], "", &[], None),
            m("b", &["a"], "", &[], Some(5)),
            m("c", &["a"], "", &[], Some(5)),
            m("d", &["a"], "", &[], None),
        ];
        assert_eq!(run(&ms), vec![1; 4]);
        assert_eq!(
            run(&[m("a", &[], "", &[], None), m("b", &["a"], "", &[], None)]),
            vec![0, 0]
        );
    }

    #[test]
    fn subject_normalisation() {
        let cases = [
            ("Re: Fw: FWD: [list] Subject  ", "subject"),
            ("RE: hello", "hello"),
            ("Fw: hello", "hello"),
            ("FW:hello", "hello"),
            ("Fwd: hello", "hello"),
            ("Re[2]: hello", "hello"),
            ("Re(3) : hello", "hello"),
            ("RE : hello", "hello"),
            ("Re: Re: Fw: hello   world", "hello world"),
            ("AW: SV: Antw: WG: hello", "hello"),
            ("[list] Re: hello", "hello"),
            ("Re: [list] hello", "hello"),
            ("[PATCH v2] foo", "foo"),
            ("[tag]", "[tag]"),
            ("Re：Ünïcode  STRASSE", "ünïcode strasse"),
            ("Réunion", "réunion"),
            ("Reply: hello", "reply: hello"),
            ("Re hello", "re hello"),
            ("Re[x]: hello", "re[x]: hello"),
            ("meeting (fwd)", "meeting"),
            ("Re[", "re["),
            ("Re(2: x", "re(2: x"),
            ("[unclosed x", "[unclosed x"),
            ("İ ǅ", "i̇ ǆ"),
            ("Re: ", ""),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(normalize_subject(input), want, "input {input:?}");
        }
        assert!(subject_key("Sv: x").1 && !subject_key("[l] x").1);
    }

    #[test]
    fn enron_fallback() {
        let t = 1_000_000_000;
        let (ab, bc) = (&["a@e.com", "b@e.com"][..], &["b@e.com", "c@e.com"][..]);
        let ms = [
            m("1", &[], "Meeting", ab, Some(t)),
            m("2", &[], "RE: meeting", bc, Some(t + DAY)),
            m("3", &[], "RE: Meeting", ab, Some(t + 40 * DAY)), // outside window
            m("4", &[], "RE: Meeting", &["x@e.com"], Some(t + DAY)), // no shared participant
            m("5", &[], "Meeting", ab, Some(t + 2 * DAY)), // joins via message 2 (prefixed, shares b)
            m("6", &[], "Other", ab, Some(t)),
            m("7", &[], "Other", ab, Some(t + DAY)), // both unprefixed
            m("8", &[], "Re: Meeting", &["c@e.com"], None), // undated: window ignored
        ];
        assert_eq!(run(&ms), vec![0, 0, 2, 3, 0, 5, 6, 0]);
    }

    #[test]
    fn fallback_and_header_threads() {
        let t = 1_000_000_000;
        let p = &["l@list.org"][..];
        let ms = [
            m("root", &[], "[PATCH] foo", p, Some(t)),
            m("r1", &["root"], "Re: [PATCH] foo", p, Some(t + DAY)),
            m("v2", &[], "[PATCH] foo", p, Some(t + 15 * DAY)), // new root: stays separate
            m("broken", &[], "Re: foo", p, Some(t + DAY / 2)),  // reply without headers: joins
        ];
        assert_eq!(run(&ms), vec![0, 0, 2, 0]);
    }

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    fn random_msgs(n: usize, seed: u64) -> Vec<M> {
        let mut s = seed;
        (0..n)
            .map(|i| {
                let refs: Vec<String> = match lcg(&mut s) % 3 {
                    0 => (0..lcg(&mut s) % 3)
                        .map(|_| format!("id{}", lcg(&mut s) % (n as u64 + 5)))
                        .collect(),
                    _ => Vec::new(),
                };
                let pre = ["", "Re: ", "FW: "][(lcg(&mut s) % 3) as usize];
                let subject = format!("{pre}subject {}", lcg(&mut s) % (n as u64 / 8 + 1));
                let parts = (0..1 + lcg(&mut s) % 2)
                    .map(|_| format!("u{}@x", lcg(&mut s) % 6))
                    .collect();
                let date =
                    (!lcg(&mut s).is_multiple_of(10)).then(|| (lcg(&mut s) % 120) as i64 * DAY / 2);
                let id = (!lcg(&mut s).is_multiple_of(10)).then(|| format!("id{i}"));
                M {
                    id,
                    irt: Vec::new(),
                    refs,
                    subject,
                    parts,
                    date,
                }
            })
            .collect()
    }

    /// Partition as a canonical label per message: lowest index in its group.
    fn canon(groups: &[usize]) -> Vec<usize> {
        let mut first: HashMap<usize, usize> = HashMap::new();
        groups
            .iter()
            .enumerate()
            .map(|(i, g)| *first.entry(*g).or_insert(i))
            .collect()
    }

    /// Quadratic reference implementation of the pairwise fallback rule.
    fn naive(ms: &[M]) -> Vec<usize> {
        let ins = inputs(ms);
        let base = thread_messages(
            &ins.iter()
                .map(|x| ThreadInput { subject: "", ..*x })
                .collect::<Vec<_>>(),
        );
        let mut dsu = Dsu::new(ms.len());
        for (i, &r) in base.iter().enumerate() {
            dsu.union(i, r);
        }
        let fb = |x: &M| {
            x.refs
                .iter()
                .chain(&x.irt)
                .all(|r| Some(r) == x.id.as_ref())
        };
        for (i, a) in ms.iter().enumerate().filter(|(_, a)| fb(a)) {
            for (j, b) in ms.iter().enumerate() {
                let (ka, kb) = (subject_key(&a.subject), subject_key(&b.subject));
                let pre = ka.1 || (kb.1 && fb(b));
                let near = match (a.date, b.date) {
                    (Some(x), Some(y)) => (x - y).abs() <= WINDOW_SECS,
                    _ => true,
                };
                if i != j
                    && !ka.0.is_empty()
                    && ka.0 == kb.0
                    && pre
                    && near
                    && a.parts.iter().any(|p| b.parts.contains(p))
                {
                    dsu.union(i, j);
                }
            }
        }
        canon(&(0..ms.len()).map(|i| dsu.find(i)).collect::<Vec<_>>())
    }

    #[test]
    fn matches_naive_and_is_order_independent() {
        let mut fallback_merges = 0;
        for seed in 0..40 {
            let ms = random_msgs(60 + seed as usize * 3, seed);
            let got = run(&ms);
            assert_eq!(got, run(&ms), "deterministic");
            assert_eq!(canon(&got), naive(&ms), "seed {seed}");
            // Reverse the input: same partition.
            let rev: Vec<M> = ms.iter().rev().cloned().collect();
            let mut back = run(&rev);
            back.reverse();
            let back: Vec<usize> = back.iter().map(|&g| ms.len() - 1 - g).collect();
            assert_eq!(canon(&back), canon(&got), "seed {seed}");
            let plain: Vec<M> = ms
                .iter()
                .map(|x| M {
                    subject: String::new(),
                    ..x.clone()
                })
                .collect();
            fallback_merges += usize::from(canon(&run(&plain)) != canon(&got));
        }
        assert!(fallback_merges > 20, "the fallback should be exercised");
    }

    #[test]
    fn hundred_thousand_messages_run() {
        let ms = random_msgs(100_000, 7);
        let start = std::time::Instant::now();
        let r = run(&ms);
        let threads = r.iter().enumerate().filter(|(i, g)| i == *g).count();
        println!(
            "100k messages -> {threads} threads in {:?}",
            start.elapsed()
        );
        assert_eq!(r.len(), ms.len());
    }

    // ---- real corpus ----

    fn unfolded_headers(text: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for line in text.lines() {
            let line = line.trim_end_matches('\r');
            if line.is_empty() {
                break;
            }
            if line.starts_with([' ', '\t']) {
                if let Some(last) = out.last_mut() {
                    last.1.push(' ');
                    last.1.push_str(line.trim());
                }
            } else if let Some((k, v)) = line.split_once(':') {
                out.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        out
    }

    fn bracketed(v: &str) -> Vec<String> {
        v.split('<')
            .skip(1)
            .filter_map(|p| p.split_once('>'))
            .map(|(id, _)| id.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    }

    fn addresses(v: &str) -> Vec<String> {
        v.split([',', ';', ' ', '<', '>', '"', '(', ')'])
            .filter(|t| t.contains('@'))
            .map(|t| t.to_lowercase())
            .collect()
    }

    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            match e.file_type() {
                Ok(ft) if ft.is_dir() => walk(&e.path(), out),
                Ok(ft) if ft.is_file() => out.push(e.path()),
                _ => {}
            }
        }
    }

    #[test]
    fn notmuch_corpus() {
        let root = std::path::Path::new("/work/shared/data/fixtures/notmuch-corpora/");
        if !root.is_dir() {
            println!("skipping: {} not found", root.display());
            return;
        }
        let mut files = Vec::new();
        walk(root, &mut files);
        files.sort();
        let ms: Vec<(String, M)> = files
            .iter()
            .filter_map(|f| Some((f, std::fs::read(f).ok()?)))
            .map(|(f, bytes)| {
                let rel = f
                    .strip_prefix(root)
                    .unwrap_or(f)
                    .to_string_lossy()
                    .into_owned();
                let corpus = rel.split('/').take(3).collect::<Vec<_>>().join("/");
                let mut x = M::default();
                for (k, v) in unfolded_headers(&String::from_utf8_lossy(&bytes)) {
                    match k.as_str() {
                        "message-id" => {
                            x.id = bracketed(&v)
                                .into_iter()
                                .next()
                                .or_else(|| (!v.is_empty()).then_some(v))
                        }
                        "in-reply-to" => x.irt = bracketed(&v),
                        "references" => x.refs = bracketed(&v),
                        "subject" => x.subject = v,
                        "from" | "to" | "cc" => x.parts.extend(addresses(&v)),
                        _ => {}
                    }
                }
                (corpus, x)
            })
            .collect();
        // notmuch tests index one corpus at a time.
        let mut names: Vec<&str> = ms.iter().map(|(c, _)| c.as_str()).collect();
        names.dedup();
        for name in names {
            let part: Vec<M> = ms
                .iter()
                .filter(|(c, _)| c == name)
                .map(|(_, x)| x.clone())
                .collect();
            let t = run(&part)
                .iter()
                .enumerate()
                .filter(|(i, r)| i == *r)
                .count();
            println!("  {name}: {} messages, {t} threads", part.len());
        }
        let ms: Vec<M> = ms.into_iter().map(|(_, x)| x).collect();
        let count = |g: &[usize]| g.iter().enumerate().filter(|(i, r)| i == *r).count();
        let full = run(&ms);
        let headers_only: Vec<M> = ms
            .iter()
            .map(|x| M {
                subject: String::new(),
                ..x.clone()
            })
            .collect();
        let jwz = run(&headers_only);
        let differ = (0..ms.len())
            .filter(|&i| canon(&full)[i] != canon(&jwz)[i])
            .count();
        println!(
            "notmuch corpus: {} messages, {} threads ({} with header threading only; {} messages placed differently by the subject fallback)",
            ms.len(),
            count(&full),
            count(&jwz),
            differ
        );
        assert_eq!(full.len(), ms.len());
    }
}
