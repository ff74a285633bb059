//! Tests of the parent module, kept apart so the module reads in one sitting.

use super::*;

#[derive(Clone, Default)]
struct M {
    id: Option<String>,
    irt: Vec<String>,
    refs: Vec<String>,
    subject: String,
    parts: Vec<u32>,
    date: Option<i64>,
}

fn m(id: &str, refs: &[&str], subject: &str, parts: &[&str], date: Option<i64>) -> M {
    M {
        id: (!id.is_empty()).then(|| id.to_string()),
        refs: refs.iter().map(|s| s.to_string()).collect(),
        subject: subject.into(),
        parts: parts.iter().map(|s| participant(s)).collect(),
        date,
        ..M::default()
    }
}

/// The number standing for an address, as the caller of `thread_messages` interns it.
fn participant(address: &str) -> u32 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    address.trim().hash(&mut h);
    h.finish() as u32
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
                .map(|_| participant(&format!("u{}@x", lcg(&mut s) % 6)))
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
                    "from" | "to" | "cc" => {
                        x.parts.extend(addresses(&v).iter().map(|a| participant(a)))
                    }
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
