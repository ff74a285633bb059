use super::*;
use std::collections::HashSet;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self, dim: usize) -> Vec<f32> {
        let v: Vec<f32> = (0..dim)
            .map(|_| (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0)
            .collect();
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / n).collect()
    }
}

fn cfg(dim: usize, exact_threshold: usize) -> VectorConfig {
    VectorConfig {
        dim,
        exact_threshold,
        ef_search: 64,
    }
}

fn items(rng: &mut Rng, n: u64, dim: usize) -> Vec<(u64, Vec<f32>)> {
    (0..n).map(|id| (id, rng.unit(dim))).collect()
}

fn ids(hits: &[VectorHit]) -> Vec<u64> {
    hits.iter().map(|h| h.id).collect()
}

/// Brute force over the index's stored copies of `data`'s ids.
fn brute(idx: &VectorIndex, data: &[(u64, Vec<f32>)], q: &[f32], k: usize) -> Vec<u64> {
    let q = idx.normalize(q).unwrap();
    let mut all: Vec<(f32, u64)> = data
        .iter()
        .map(|(id, _)| (dot(&q, idx.get(*id).unwrap()), *id))
        .collect();
    all.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    all.into_iter().take(k).map(|(_, id)| id).collect()
}

#[test]
fn hnsw_recall_at_10() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x9e3779b97f4a7c15);
    let data = items(&mut rng, 20_000, 64);
    let mut idx = VectorIndex::open(dir.path(), cfg(64, 5_000)).unwrap();
    idx.insert_batch(&data).unwrap();
    assert!(idx.graph.is_some());
    let (mut found, queries) = (0, 100);
    for _ in 0..queries {
        let q = rng.unit(64);
        let hits = idx.search(&q, 10, None).unwrap();
        let truth: HashSet<u64> = idx.exact(&q, 10, &|_| true).iter().map(|h| h.id).collect();
        assert_eq!(hits.len(), 10);
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
        found += hits.iter().filter(|h| truth.contains(&h.id)).count();
    }
    let recall = found as f64 / (queries * 10) as f64;
    eprintln!("recall@10 = {recall:.3}");
    assert!(recall >= 0.9, "recall {recall}");
}

#[test]
fn persistence_reloads_dump() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(7);
    let data = items(&mut rng, 3_000, 32);
    let queries: Vec<Vec<f32>> = (0..20).map(|_| rng.unit(32)).collect();
    let before: Vec<Vec<VectorHit>>;
    {
        let mut idx = VectorIndex::open(dir.path(), cfg(32, 1_000)).unwrap();
        assert!(!idx.loaded_from_dump());
        idx.insert_batch(&data).unwrap();
        idx.save().unwrap();
        before = queries
            .iter()
            .map(|q| idx.search(q, 10, None).unwrap())
            .collect();
        assert!(idx.size_on_disk() > 3_000 * (8 + 4 * 32));
    }
    let mut idx = VectorIndex::open(dir.path(), cfg(32, 1_000)).unwrap();
    assert!(idx.loaded_from_dump());
    assert_eq!(idx.len(), 3_000);
    for (q, b) in queries.iter().zip(&before) {
        assert_eq!(&idx.search(q, 10, None).unwrap(), b);
    }
    // Records appended after the dump are inserted into the reloaded graph.
    let extra = rng.unit(32);
    idx.insert(99_999, &extra).unwrap();
    idx.sync().unwrap();
    drop(idx);
    let idx = VectorIndex::open(dir.path(), cfg(32, 1_000)).unwrap();
    assert!(idx.loaded_from_dump());
    assert_eq!(idx.search(&extra, 1, None).unwrap()[0].id, 99_999);
    // A broken sidecar means a rebuild, not an error.
    drop(idx);
    fs::write(dir.path().join(GRAPH_META), b"junk").unwrap();
    let idx = VectorIndex::open(dir.path(), cfg(32, 1_000)).unwrap();
    assert!(!idx.loaded_from_dump());
    assert_eq!(idx.search(&extra, 1, None).unwrap()[0].id, 99_999);
}

#[test]
fn torn_tail_is_truncated_and_bad_header_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(11);
    let data = items(&mut rng, 10, 8);
    {
        let mut idx = VectorIndex::open(dir.path(), cfg(8, 5_000)).unwrap();
        idx.insert_batch(&data).unwrap();
        idx.sync().unwrap();
    }
    let path = dir.path().join(VECTORS);
    let full = fs::metadata(&path).unwrap().len();
    let rec = 8 + 4 * 8;
    File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(full - 5)
        .unwrap();
    let mut idx = VectorIndex::open(dir.path(), cfg(8, 5_000)).unwrap();
    assert_eq!(idx.len(), 9);
    assert!(idx.contains(8) && !idx.contains(9));
    assert_eq!(fs::metadata(&path).unwrap().len(), full - rec);
    idx.insert(9, &data[9].1).unwrap();
    idx.sync().unwrap();
    drop(idx);
    assert_eq!(
        VectorIndex::open(dir.path(), cfg(8, 5_000)).unwrap().len(),
        10
    );
    assert!(matches!(
        VectorIndex::open(dir.path(), cfg(16, 5_000)),
        Err(VectorError::Corrupt(..))
    ));
    let mut bytes = fs::read(&path).unwrap();
    bytes[0] = b'X';
    fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        VectorIndex::open(dir.path(), cfg(8, 5_000)),
        Err(VectorError::Corrupt(..))
    ));
}

#[test]
fn tombstones_filter_persist_and_compact() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(23);
    let data = items(&mut rng, 600, 16);
    let removed = [0u64, 5, 77, 300, 599];
    let mut idx = VectorIndex::open(dir.path(), cfg(16, 100)).unwrap();
    idx.insert_batch(&data).unwrap();
    for id in removed {
        idx.remove(id);
    }
    idx.remove(12_345); // unknown: ignored
    assert_eq!(idx.len(), 595);
    let check = |idx: &VectorIndex| {
        for id in removed {
            assert!(!idx.contains(id) && idx.get(id).is_none());
            let hits = idx.search(&data[id as usize].1, 20, None).unwrap();
            assert_eq!(hits.len(), 20);
            assert!(hits.iter().all(|h| !removed.contains(&h.id)));
        }
    };
    check(&idx);
    idx.save().unwrap();
    drop(idx);
    let mut idx = VectorIndex::open(dir.path(), cfg(16, 100)).unwrap();
    assert!(idx.loaded_from_dump());
    assert_eq!(idx.len(), 595);
    check(&idx);
    let before = idx.size_on_disk();
    idx.compact().unwrap();
    assert!(idx.size_on_disk() < before);
    assert_eq!(idx.ids.len(), 595);
    check(&idx);
    drop(idx);
    let idx = VectorIndex::open(dir.path(), cfg(16, 100)).unwrap();
    assert!(idx.loaded_from_dump());
    assert_eq!(idx.len(), 595);
    check(&idx);
    drop(idx);
    // A fresh vectors.bin never picks up a stale dump or stale tombstones.
    fs::remove_file(dir.path().join(VECTORS)).unwrap();
    let mut idx = VectorIndex::open(dir.path(), cfg(16, 100)).unwrap();
    assert!(idx.is_empty() && !dir.path().join(GRAPH_META).exists());
    assert!(!dir.path().join(TOMBSTONES).exists());
    idx.insert_batch(&data).unwrap();
    idx.save().unwrap();
    drop(idx);
    let idx = VectorIndex::open(dir.path(), cfg(16, 100)).unwrap();
    assert!(idx.loaded_from_dump() && idx.len() == 600);
    assert_eq!(idx.search(&data[5].1, 1, None).unwrap()[0].id, 5);
}

#[test]
fn reinsert_after_remove() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(5);
    let data = items(&mut rng, 300, 16);
    let mut idx = VectorIndex::open(dir.path(), cfg(16, 50)).unwrap();
    idx.insert_batch(&data).unwrap();
    idx.remove(42);
    idx.save().unwrap();
    let fresh = rng.unit(16);
    idx.insert(42, &fresh).unwrap();
    assert!(idx.contains(42));
    assert_eq!(idx.len(), 300);
    let hit = idx.search(&fresh, 1, None).unwrap()[0];
    assert_eq!(hit.id, 42);
    assert!((hit.score - 1.0).abs() < 1e-5);
    // Superseded vector is gone from results.
    assert!(idx
        .search(&data[42].1, 3, None)
        .unwrap()
        .iter()
        .all(|h| h.id != 42 || h.score < 0.999));
    idx.sync().unwrap(); // insert durable, old tombstone file still on disk
    drop(idx);
    let idx = VectorIndex::open(dir.path(), cfg(16, 50)).unwrap();
    assert!(idx.contains(42));
    let stored = idx.get(42).unwrap();
    assert!(fresh.iter().zip(stored).all(|(a, b)| (a - b).abs() < 1e-6));
}

#[test]
fn filters_return_only_accepted_ids() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(99);
    let data = items(&mut rng, 3_000, 16);
    let mut idx = VectorIndex::open(dir.path(), cfg(16, 500)).unwrap();
    idx.insert_batch(&data).unwrap();
    let q = rng.unit(16);
    let even = |id: u64| id.is_multiple_of(2);
    let hits = idx.search(&q, 10, Some(&even)).unwrap();
    assert_eq!(hits.len(), 10);
    assert!(hits.iter().all(|h| h.id % 2 == 0));
    let rare = |id: u64| id.is_multiple_of(997); // 0, 997, 1994, 2991
    let hits = idx.search(&q, 10, Some(&rare)).unwrap();
    assert_eq!(
        ids(&hits).iter().copied().collect::<HashSet<_>>(),
        HashSet::from([0, 997, 1994, 2991])
    );
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    let fifteen = |id: u64| id.is_multiple_of(200);
    let accepted: Vec<(u64, Vec<f32>)> = data
        .iter()
        .filter(|(id, _)| fifteen(*id))
        .cloned()
        .collect();
    let hits = idx.search(&q, 10, Some(&fifteen)).unwrap();
    let truth: HashSet<u64> = brute(&idx, &accepted, &q, 10).into_iter().collect();
    assert_eq!(hits.len(), 10);
    assert!(hits.iter().all(|h| fifteen(h.id)));
    assert!(hits.iter().filter(|h| truth.contains(&h.id)).count() >= 8);
    assert!(idx.search(&q, 10, Some(&|_| false)).unwrap().is_empty());
}

#[test]
fn invalid_inputs_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut idx = VectorIndex::open(dir.path(), cfg(4, 2)).unwrap();
    assert!(idx
        .search(&[1.0, 0.0, 0.0, 0.0], 5, None)
        .unwrap()
        .is_empty());
    let bad: [&[f32]; 4] = [
        &[f32::NAN, 0.0, 0.0, 1.0],
        &[f32::INFINITY, 0.0, 0.0, 1.0],
        &[0.0; 4],
        &[1.0; 3],
    ];
    for v in bad {
        assert!(matches!(
            idx.insert(1, v),
            Err(VectorError::Invalid | VectorError::Dimension { .. })
        ));
        assert!(idx.search(v, 3, None).is_err());
    }
    assert!(matches!(
        idx.insert(1, &[1.0; 5]),
        Err(VectorError::Dimension { got: 5, want: 4 })
    ));
    let batch = vec![
        (1, vec![1.0, 2.0, 3.0, 4.0]),
        (2, vec![f32::NEG_INFINITY, 0.0, 0.0, 0.0]),
    ];
    assert!(idx.insert_batch(&batch).is_err());
    assert!(idx.is_empty());
    // Huge but finite values normalise fine; the graph (threshold 2) never panics.
    idx.insert(1, &[f32::MAX, f32::MAX, 0.0, 0.0]).unwrap();
    idx.insert(2, &[1.0, 2.0, 3.0, 4.0]).unwrap();
    idx.insert(3, &[1.0, 2.0, 3.0, 4.0]).unwrap();
    assert!(idx.graph.is_some());
    let hits = idx.search(&[1.0, 2.0, 3.0, 4.0], 2, None).unwrap();
    assert_eq!(ids(&hits), vec![2, 3]);
    assert!(idx
        .search(&[1.0, 1.0, 0.0, 0.0], 0, None)
        .unwrap()
        .is_empty());
    idx.save().unwrap();
}

#[test]
fn exact_mode_matches_brute_force() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(1234);
    let data = items(&mut rng, 1_000, 16);
    let mut idx = VectorIndex::open(dir.path(), cfg(16, 5_000)).unwrap();
    idx.insert_batch(&data).unwrap();
    assert!(idx.graph.is_none());
    for _ in 0..20 {
        let q = rng.unit(16);
        let hits = idx.search(&q, 25, None).unwrap();
        assert_eq!(ids(&hits), brute(&idx, &data, &q, 25));
    }
    assert_eq!(idx.search(&data[3].1, 2_000, None).unwrap().len(), 1_000);
}
