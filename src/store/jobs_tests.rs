//! Tests of the parent module, kept apart so the module reads in one sitting.

use super::*;
use std::collections::HashMap;

const K: &str = "embed";

fn open(dir: &std::path::Path, cfg: QueueConfig) -> (sled::Db, JobQueue) {
    // sled's background flusher may hold the file lock briefly after drop.
    let mut tries = 0;
    let db = loop {
        match sled::open(dir) {
            Ok(db) => break db,
            Err(_) if tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => panic!("open sled: {e}"),
        }
    };
    let q = JobQueue::open(&db, cfg).expect("open queue");
    (db, q)
}

fn c(pending: u64, running: u64, done: u64, failed: u64) -> JobCounts {
    JobCounts {
        pending,
        running,
        done,
        failed,
    }
}

fn lost<T>(r: Result<T, JobError>) -> bool {
    matches!(r, Err(JobError::LeaseLost))
}

fn missing<T>(r: Result<T, JobError>) -> bool {
    matches!(r, Err(JobError::NotFound))
}

/// Counts and index agree with a full scan of the jobs tree.
fn check(q: &JobQueue, kind: &str, want: JobCounts) {
    let mut scan = JobCounts::default();
    let mut n = 0;
    for kv in q.jobs.iter() {
        let job = decode_job(&kv.unwrap().1).unwrap();
        n += 1;
        let v = q.idx.get(index_key(&job)).unwrap().expect("index entry");
        assert_eq!(parse_index_value(&v).unwrap(), (job.id, job.not_before_ms));
        if job.kind == kind {
            match job.state {
                JobState::Pending => scan.pending += 1,
                JobState::Running => scan.running += 1,
                JobState::Done => scan.done += 1,
                JobState::Failed => scan.failed += 1,
            }
        }
    }
    assert_eq!(q.idx.len(), n, "index has stray entries");
    assert_eq!(scan, want, "scan");
    assert_eq!(q.counts(kind).unwrap(), want, "counters");
}

#[test]
fn enqueue_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, q) = open(
        dir.path(),
        QueueConfig {
            max_attempts: 1,
            ..Default::default()
        },
    );
    assert!(q.enqueue(K, b"a", 0).unwrap());
    assert!(!q.enqueue(K, b"a", 1).unwrap());
    assert!(q.enqueue("pdf", b"a", 1).unwrap(), "kind is part of the id");
    check(&q, K, c(1, 0, 0, 0));
    check(&q, "pdf", c(1, 0, 0, 0));
    let j = q.claim(K, 10, 5).unwrap().remove(0);
    assert!(!q.enqueue(K, b"a", 6).unwrap());
    q.complete(j.id, j.lease_token, 7).unwrap();
    assert!(!q.enqueue(K, b"a", 8).unwrap());
    check(&q, K, c(0, 0, 1, 0));
    let done = q.get(j.id).unwrap().unwrap();
    assert_eq!(
        (done.state, done.finished_ms, done.payload.len()),
        (JobState::Done, Some(7), 0)
    );

    assert!(q.enqueue(K, b"b", 10).unwrap());
    let j = q.claim(K, 10, 10).unwrap().remove(0);
    assert_eq!(
        q.fail(j.id, j.lease_token, "boom", 11).unwrap(),
        JobState::Failed
    );
    assert!(!q.enqueue(K, b"b", 12).unwrap());
    check(&q, K, c(0, 0, 1, 1));
    assert_eq!(q.retry_failed(K, 13).unwrap(), 1);
    assert_eq!(q.retry_failed(K, 13).unwrap(), 0);
    check(&q, K, c(1, 0, 1, 0));
    let j = q.claim(K, 10, 13).unwrap().remove(0);
    assert_eq!((j.attempts, j.payload.as_slice()), (1, &b"b"[..]));
    check(&q, K, c(0, 1, 1, 0));
}

#[test]
fn claim_is_fifo_and_respects_max_and_not_before() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, q) = open(dir.path(), QueueConfig::default());
    for i in 0..10u8 {
        q.enqueue(K, &[i], 1000).unwrap();
    }
    assert!(
        q.claim(K, 5, 999).unwrap().is_empty(),
        "not_before = enqueue time"
    );
    assert!(q.claim("pdf", 5, 1000).unwrap().is_empty());
    let first = q.claim(K, 3, 1000).unwrap();
    assert_eq!(
        first.iter().map(|j| j.payload[0]).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    assert!(first.windows(2).all(|w| w[0].seq < w[1].seq));
    check(&q, K, c(7, 3, 0, 0));
    // job 0 fails: back to pending at 1000 + 1000, keeps its FIFO place
    assert_eq!(
        q.fail(first[0].id, first[0].lease_token, "x", 1000)
            .unwrap(),
        JobState::Pending
    );
    check(&q, K, c(8, 2, 0, 0));
    let next = q.claim(K, 2, 1500).unwrap();
    assert_eq!(
        next.iter().map(|j| j.payload[0]).collect::<Vec<_>>(),
        vec![3, 4]
    );
    let next = q.claim(K, 100, 2000).unwrap();
    assert_eq!(
        next.iter().map(|j| j.payload[0]).collect::<Vec<_>>(),
        vec![0, 5, 6, 7, 8, 9]
    );
    assert_eq!(next[0].attempts, 2);
    check(&q, K, c(0, 10, 0, 0));
    assert!(q.claim(K, 0, 9999).unwrap().is_empty());
}

#[test]
fn expired_lease_is_reclaimed_and_old_token_loses() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, q) = open(dir.path(), QueueConfig::default());
    q.enqueue(K, b"x", 0).unwrap();
    let a = q.claim(K, 1, 0).unwrap().remove(0);
    assert_eq!((a.lease_until_ms, a.attempts), (60_000, 1));
    assert!(q.claim(K, 1, 59_999).unwrap().is_empty());
    check(&q, K, c(0, 1, 0, 0));
    let b = q.claim(K, 1, 60_000).unwrap().remove(0);
    assert_eq!((b.id, b.attempts, b.lease_until_ms), (a.id, 2, 120_000));
    assert_ne!(a.lease_token, b.lease_token);
    check(&q, K, c(0, 1, 0, 0));
    assert!(lost(q.complete(a.id, a.lease_token, 60_001)));
    assert!(lost(q.heartbeat(a.id, a.lease_token, 60_001)));
    assert!(lost(q.fail(a.id, a.lease_token, "x", 60_001)));
    assert!(lost(q.complete_many(&[(a.id, a.lease_token)], 60_001)));
    check(&q, K, c(0, 1, 0, 0));
    q.complete(b.id, b.lease_token, 60_002).unwrap();
    assert!(lost(q.complete(b.id, b.lease_token, 60_003)));
    let nope = JobQueue::job_id(K, b"nope");
    assert!(missing(q.complete(nope, 1, 0)));
    assert!(q.get(nope).unwrap().is_none());
    check(&q, K, c(0, 0, 1, 0));
}

#[test]
fn an_orphan_claim_leases_from_now_so_a_second_crash_strands_nothing() {
    const DAY: i64 = 24 * 3600 * 1000;
    let dir = tempfile::tempdir().unwrap();
    let (_db, q) = open(dir.path(), QueueConfig::default());
    q.enqueue(K, b"x", 0).unwrap();
    // A worker claims the job and dies with it.
    let a = q.claim(K, 1, 0).unwrap().remove(0);
    assert!(
        q.claim(K, 1, 1_000).unwrap().is_empty(),
        "its lease still runs"
    );
    // The next process holds the store alone and takes it at once...
    let b = q.claim_orphans(K, 1, 1_000, DAY).unwrap().remove(0);
    assert_eq!(b.id, a.id);
    assert_eq!(
        b.lease_until_ms, 61_000,
        "leased from now, not from a day on"
    );
    // ...and dies too: the one after it takes the job again.
    let c2 = q.claim_orphans(K, 1, 2_000, DAY).unwrap().remove(0);
    assert_eq!((c2.id, c2.attempts), (a.id, 3));
    check(&q, K, c(0, 1, 0, 0));
    q.complete(c2.id, c2.lease_token, 3_000).unwrap();
    // A job due later than the window is not taken early.
    q.enqueue(K, b"later", 2 * DAY).unwrap();
    assert!(q.claim_orphans(K, 5, 2_000, DAY).unwrap().is_empty());
}

#[test]
fn heartbeat_extends_lease() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, q) = open(dir.path(), QueueConfig::default());
    q.enqueue(K, b"x", 0).unwrap();
    let a = q.claim(K, 1, 0).unwrap().remove(0);
    q.heartbeat(a.id, a.lease_token, 50_000).unwrap();
    assert_eq!(q.get(a.id).unwrap().unwrap().lease_until_ms, 110_000);
    assert!(q.claim(K, 1, 100_000).unwrap().is_empty());
    check(&q, K, c(0, 1, 0, 0));
    assert!(missing(q.heartbeat(JobQueue::job_id(K, b"?"), 1, 0)));
    let b = q.claim(K, 1, 110_000).unwrap().remove(0);
    assert_ne!(b.lease_token, a.lease_token);
    check(&q, K, c(0, 1, 0, 0));
}

#[test]
fn fail_backs_off_exponentially_then_fails() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, q) = open(
        dir.path(),
        QueueConfig {
            max_attempts: 11,
            ..Default::default()
        },
    );
    q.enqueue(K, b"x", 0).unwrap();
    let want = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300];
    let mut now = 0;
    for (i, secs) in want.iter().enumerate() {
        let j = q.claim(K, 1, now).unwrap().remove(0);
        assert_eq!(j.attempts as usize, i + 1);
        check(&q, K, c(0, 1, 0, 0));
        assert_eq!(
            q.fail(j.id, j.lease_token, &format!("err {i}"), now)
                .unwrap(),
            JobState::Pending
        );
        check(&q, K, c(1, 0, 0, 0));
        let stored = q.get(j.id).unwrap().unwrap();
        assert_eq!(stored.not_before_ms - now, secs * 1000);
        assert!(q.claim(K, 1, stored.not_before_ms - 1).unwrap().is_empty());
        now = stored.not_before_ms;
    }
    let j = q.claim(K, 1, now).unwrap().remove(0);
    assert_eq!(
        q.fail(j.id, j.lease_token, "final", now).unwrap(),
        JobState::Failed
    );
    let stored = q.get(j.id).unwrap().unwrap();
    assert_eq!((stored.state, stored.attempts), (JobState::Failed, 11));
    assert_eq!(stored.last_error.as_deref(), Some("final"));
    assert_eq!(stored.payload, b"x");
    assert!(q.claim(K, 1, i64::MAX / 2).unwrap().is_empty());
    check(&q, K, c(0, 0, 0, 1));
}

#[test]
fn complete_many_is_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, q) = open(dir.path(), QueueConfig::default());
    for i in 0..6u8 {
        q.enqueue(K, &[i], 0).unwrap();
    }
    let js = q.claim(K, 6, 0).unwrap();
    let mut batch: Vec<_> = js[..3].iter().map(|j| (j.id, j.lease_token)).collect();
    q.complete_many(&batch, 1).unwrap();
    check(&q, K, c(0, 3, 3, 0));
    batch = js[3..].iter().map(|j| (j.id, j.lease_token)).collect();
    batch.push((js[0].id, js[0].lease_token)); // already done
    assert!(lost(q.complete_many(&batch, 2)));
    check(&q, K, c(0, 3, 3, 0));
    batch.pop();
    q.complete_many(&batch, 2).unwrap();
    q.complete_many(&[], 2).unwrap();
    check(&q, K, c(0, 0, 6, 0));
}

#[test]
fn reopen_keeps_everything_and_crashed_claims_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let (ids, tokens, seq) = {
        let (db, q) = open(dir.path(), QueueConfig::default());
        for i in 0..5u8 {
            q.enqueue(K, &[i], 0).unwrap();
        }
        let js = q.claim(K, 4, 0).unwrap();
        q.complete(js[0].id, js[0].lease_token, 1).unwrap();
        check(&q, K, c(1, 3, 1, 0));
        q.flush().unwrap();
        // "kill -9": drop without completing the three claimed jobs
        drop(q);
        drop(db);
        let held: Vec<_> = js[1..].iter().map(|j| j.id).collect();
        let tokens: Vec<_> = js[1..].iter().map(|j| j.lease_token).collect();
        (held, tokens, js[3].seq)
    };
    let (_db, q) = open(dir.path(), QueueConfig::default());
    check(&q, K, c(1, 3, 1, 0));
    assert!(!q.enqueue(K, &[0], 2).unwrap());
    assert!(q.enqueue(K, b"new", 2).unwrap());
    assert!(q.get(JobQueue::job_id(K, b"new")).unwrap().unwrap().seq > seq);
    let now = q.claim(K, 10, 10).unwrap();
    assert_eq!(
        now.len(),
        2,
        "only the pending ones before the lease expires"
    );
    check(&q, K, c(0, 5, 1, 0));
    let again = q.claim(K, 10, 60_000).unwrap();
    assert_eq!(again.iter().map(|j| j.id).collect::<Vec<_>>(), ids);
    assert!(again
        .iter()
        .all(|j| j.attempts == 2 && !tokens.contains(&j.lease_token)));
    for j in now.iter().chain(&again) {
        q.complete(j.id, j.lease_token, 60_001).unwrap();
    }
    check(&q, K, c(0, 0, 6, 0));
}

#[test]
fn enqueue_many_100k() {
    let dir = tempfile::tempdir().unwrap();
    let (_db, q) = open(dir.path(), QueueConfig::default());
    let mut payloads: Vec<Vec<u8>> = (0..100_000u32).map(|i| i.to_le_bytes().to_vec()).collect();
    let t = std::time::Instant::now();
    assert_eq!(q.enqueue_many(K, &payloads, 0).unwrap(), 100_000);
    eprintln!("enqueue_many(100k): {:?}", t.elapsed());
    payloads.truncate(10);
    payloads.push(b"fresh".to_vec());
    payloads.push(b"fresh".to_vec());
    assert_eq!(q.enqueue_many(K, &payloads, 1).unwrap(), 1);
    assert_eq!(q.counts(K).unwrap(), c(100_001, 0, 0, 0));
    let t = std::time::Instant::now();
    let js = q.claim(K, 1000, 1).unwrap();
    eprintln!("claim(1000): {:?}", t.elapsed());
    assert!(js
        .iter()
        .enumerate()
        .all(|(i, j)| j.payload == (i as u32).to_le_bytes()));
    let t = std::time::Instant::now();
    q.complete_many(
        &js.iter().map(|j| (j.id, j.lease_token)).collect::<Vec<_>>(),
        2,
    )
    .unwrap();
    eprintln!("complete_many(1000): {:?}", t.elapsed());
    assert_eq!(q.counts(K).unwrap(), c(99_001, 0, 1000, 0));
}

#[test]
fn random_workers_never_lose_or_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = QueueConfig {
        lease_ms: 100,
        max_attempts: 3,
        backoff_base_ms: 10,
        backoff_cap_ms: 50,
    };
    let (mut db, mut q) = open(dir.path(), cfg);
    let n = 300u32;
    let payloads: Vec<Vec<u8>> = (0..n).map(|i| i.to_be_bytes().to_vec()).collect();
    assert_eq!(q.enqueue_many(K, &payloads, 0).unwrap(), n as usize);
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = move |m: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % m
    };
    let mut held: HashMap<JobId, Job> = HashMap::new();
    let mut completed: HashMap<JobId, u32> = HashMap::new();
    let mut now = 0i64;
    for step in 0..3000 {
        now += rand(20) as i64;
        match rand(10) {
            0..=3 => {
                for j in q.claim(K, rand(8) as usize, now).unwrap() {
                    if let Some(prev) = held.get(&j.id) {
                        assert!(
                            prev.lease_until_ms <= now,
                            "claimed a job with a live lease"
                        );
                    }
                    assert!(!completed.contains_key(&j.id), "claimed a done job");
                    held.insert(j.id, j);
                }
            }
            4..=8 => {
                let Some(id) = held
                    .keys()
                    .nth(rand(held.len().max(1) as u64) as usize)
                    .copied()
                else {
                    continue;
                };
                let j = held.remove(&id).unwrap();
                let r = match rand(4) {
                    0 => q.fail(id, j.lease_token, "oops", now).map(|_| ()),
                    1 => q.heartbeat(id, j.lease_token, now).map(|_| {
                        held.insert(
                            id,
                            Job {
                                lease_until_ms: now + cfg.lease_ms,
                                ..j.clone()
                            },
                        );
                    }),
                    _ => q.complete(id, j.lease_token, now).map(|_| {
                        *completed.entry(id).or_default() += 1;
                    }),
                };
                match r {
                    Ok(()) => {}
                    Err(JobError::LeaseLost) => {
                        assert!(j.lease_until_ms <= now, "live lease lost")
                    }
                    Err(e) => panic!("{e}"),
                }
            }
            _ => {
                if rand(3) == 0 {
                    held.clear(); // crash: forget all leases
                    if rand(2) == 0 {
                        drop(q);
                        drop(db);
                        (db, q) = open(dir.path(), cfg);
                    }
                }
                if rand(5) == 0 {
                    q.retry_failed(K, now).unwrap();
                }
            }
        }
        if step % 500 == 0 {
            let cs = q.counts(K).unwrap();
            assert_eq!(cs.pending + cs.running + cs.done + cs.failed, n as u64);
            check(&q, K, cs);
        }
    }
    // drain: everything eventually completes exactly once
    for _ in 0..100 {
        now += 1000;
        q.retry_failed(K, now).unwrap();
        let js = q.claim(K, 1000, now).unwrap();
        if js.is_empty() {
            break;
        }
        for j in &js {
            *completed.entry(j.id).or_default() += 1;
        }
        q.complete_many(
            &js.iter().map(|j| (j.id, j.lease_token)).collect::<Vec<_>>(),
            now,
        )
        .unwrap();
    }
    check(&q, K, c(0, 0, n as u64, 0));
    assert_eq!(completed.len(), n as usize);
    assert!(
        completed.values().all(|&k| k == 1),
        "a job was completed twice"
    );
}
