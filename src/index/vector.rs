//! On-disk vector index for chunk embeddings: a durable append-only file of
//! raw vectors plus an HNSW graph (hnsw_rs) derived from it.
//!
//! Files in the index directory:
//! - `vectors.bin`: header (magic `QVEC`, version, dim, epoch) then fixed-size
//!   little-endian records `u64 id + dim × f32` (already L2-normalised). The
//!   last record for an id wins. A torn last record is truncated away on open.
//! - `tombstones.bin`: removed *record numbers* for the current epoch, so a
//!   re-insert after a removal (a later record) is never hidden by the stone.
//! - `graph.hnsw.graph` / `graph.hnsw.data`: hnsw_rs dump; `graph.meta` says
//!   which epoch and how many records the dump covers and the two file sizes.
//!   It is written (tmp + rename) after the dump and removed before a new one,
//!   so a crash mid-dump only costs a rebuild.
//!
//! Graph data ids are record numbers, not external ids, so a superseded or
//! removed record is simply filtered out of searches. `compact()` rewrites
//! `vectors.bin` under a new epoch, which invalidates old tombstones and dumps.
//!
//! hnsw_rs and stdout: its `println!`s sit in `modify_level_scale` (never
//! called), `Hnsw::new` with more than 256 connections (we use 16), the dump
//! description check (only if max_layer != 16; we use 16), `HnswIo::init` when
//! a dump file is missing (we check both files exist with the sizes recorded
//! in `graph.meta` first), `DumpInit::new` when it cannot create a dump file
//! (the directory has just been written to by `save`, so practically
//! unreachable) and description reload with names > 256 bytes (only a corrupt
//! dump, excluded by the size check). Its logger init is never run. hnsw_rs
//! panics (caught and turned into `VectorError::Backend`) still go through the
//! process panic hook, which prints to stderr unless the application sets one.
//! Each dump reload leaks one small `HnswIo` (a path and a name) because the
//! reloaded `Hnsw` borrows it for its lifetime.

mod graph;

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use hnsw_rs::prelude::FilterT;

use super::vector_file::{
    encode, header, open_log, read_tombstones, read_vectors, remove_derived, write_atomic,
    ReadVectors,
};
use graph::{guarded, Graph};

const VECTORS: &str = "vectors.bin";
pub(super) const TOMBSTONES: &str = "tombstones.bin";
pub(super) const GRAPH_META: &str = "graph.meta";
pub(super) const VERSION: u32 = 1;
pub(super) const HEADER_LEN: u64 = 24;

#[derive(Debug, thiserror::Error)]
pub enum VectorError {
    #[error("vector index I/O: {0}")]
    Io(#[from] std::io::Error),
    #[error("vector has dimension {got}, index needs {want}")]
    Dimension { got: usize, want: usize },
    #[error("vector has a non-finite or zero value")]
    Invalid,
    #[error("vector index file {0} is corrupt: {1}")]
    Corrupt(String, String),
    #[error("vector index backend failed: {0}")]
    Backend(String),
}

#[derive(Debug, Clone)]
pub struct VectorConfig {
    pub dim: usize,
    /// Below this many live vectors search is brute force and no graph is built.
    pub exact_threshold: usize,
    pub ef_search: usize,
}

impl Default for VectorConfig {
    fn default() -> Self {
        VectorConfig {
            dim: 384,
            exact_threshold: 5_000,
            ef_search: 64,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VectorHit {
    pub id: u64,
    /// Cosine similarity with the query.
    pub score: f32,
}

pub struct VectorIndex {
    dir: PathBuf,
    cfg: VectorConfig,
    epoch: u64,
    /// External id of each record of vectors.bin, in file order.
    ids: Vec<u64>,
    /// Record vectors, `dim` floats each.
    data: Vec<f32>,
    /// Live id -> its current record.
    latest: HashMap<u64, usize>,
    /// Records removed by `remove` (persisted in tombstones.bin).
    tombs: HashSet<usize>,
    log: BufWriter<File>,
    /// When present, covers every record (dead ones are just not inserted).
    graph: Option<Graph>,
    /// Record count covered by the dump on disk, if it matches `graph`.
    dumped: Option<usize>,
    from_dump: bool,
    damaged: usize,
}

const _: fn() = || {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<VectorIndex>();
};

impl VectorIndex {
    pub fn open(dir: &Path, cfg: VectorConfig) -> Result<Self, VectorError> {
        if cfg.dim == 0 || cfg.dim > u32::MAX as usize {
            let msg = "vector dimension must be between 1 and 2^32-1";
            return Err(io::Error::new(io::ErrorKind::InvalidInput, msg).into());
        }
        fs::create_dir_all(dir)?;
        let path = dir.join(VECTORS);
        if !path.exists() {
            // Sidecars left from an older vectors.bin would describe other records.
            remove_derived(dir, true);
            write_atomic(&path, |w| w.write_all(&header(cfg.dim, 1)))?;
        }
        let ReadVectors {
            epoch,
            ids,
            data,
            damaged,
        } = read_vectors(&path, cfg.dim)?;
        let tombs = read_tombstones(&dir.join(TOMBSTONES), epoch, ids.len())?;
        let mut latest: HashMap<u64, usize> =
            ids.iter().enumerate().map(|(r, &id)| (id, r)).collect();
        for &r in &tombs {
            if latest.get(&ids[r]) == Some(&r) {
                latest.remove(&ids[r]);
            }
        }
        let log = open_log(&path)?;
        let mut index = VectorIndex {
            dir: dir.to_path_buf(),
            cfg,
            epoch,
            ids,
            data,
            latest,
            tombs,
            log,
            graph: None,
            dumped: None,
            from_dump: false,
            damaged,
        };
        if damaged > 0 {
            // Record numbers changed: rewrite the file without the damaged records
            // (under a new epoch, so no old dump or tombstone applies to it).
            index.compact()?;
        } else if let Some((graph, covered)) = index.load_dump() {
            index.graph = Some(graph);
            index.dumped = Some(covered);
            index.from_dump = true;
            if index.extend_graph(covered).is_err() {
                index.from_dump = false;
            }
        }
        index.ensure_graph()?;
        if index.graph.is_some() && index.dumped.is_none() && !index.from_dump {
            // Built anew (the dump was missing or damaged): save it, or every open
            // would build it again.
            let covered = index.ids.len();
            index.dump_graph(covered)?;
        }
        Ok(index)
    }

    /// Records of vectors.bin that `open` found damaged and left out: their texts
    /// need embedding again.
    pub fn damaged_records(&self) -> usize {
        self.damaged
    }

    /// Whether `open` reloaded the graph from its dump instead of rebuilding it.
    pub fn loaded_from_dump(&self) -> bool {
        self.from_dump
    }

    pub fn insert(&mut self, id: u64, vector: &[f32]) -> Result<(), VectorError> {
        let v = self.normalize(vector)?;
        let first = self.ids.len();
        self.append(id, &v)?;
        self.extend_graph(first)?;
        self.ensure_graph()
    }

    /// Validates every vector before storing any of them.
    pub fn insert_batch(&mut self, items: &[(u64, Vec<f32>)]) -> Result<(), VectorError> {
        let valid = items
            .iter()
            .map(|(id, v)| Ok((*id, self.normalize(v)?)))
            .collect::<Result<Vec<_>, VectorError>>()?;
        let first = self.ids.len();
        for (id, v) in &valid {
            self.append(*id, v)?;
        }
        self.extend_graph(first)?;
        self.ensure_graph()
    }

    /// Tombstones `id` (durable at the next `save`); unknown ids are ignored.
    pub fn remove(&mut self, id: u64) {
        if let Some(r) = self.latest.remove(&id) {
            self.tombs.insert(r);
        }
    }

    /// The ids that have a live vector.
    pub fn ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.latest.keys().copied()
    }

    pub fn contains(&self, id: u64) -> bool {
        self.latest.contains_key(&id)
    }

    /// The stored (L2-normalised) vector of a live id.
    pub fn get(&self, id: u64) -> Option<&[f32]> {
        self.latest.get(&id).map(|&r| self.record(r))
    }

    pub fn len(&self) -> usize {
        self.latest.len()
    }

    pub fn is_empty(&self) -> bool {
        self.latest.is_empty()
    }

    pub fn search(
        &self,
        query: &[f32],
        k: usize,
        filter: Option<&dyn Fn(u64) -> bool>,
    ) -> Result<Vec<VectorHit>, VectorError> {
        let q = self.normalize(query)?;
        if k == 0 || self.latest.is_empty() {
            return Ok(Vec::new());
        }
        let accept = |id: u64| filter.is_none_or(|f| f(id));
        let graph = match &self.graph {
            Some(g) if self.latest.len() >= self.cfg.exact_threshold && k < self.latest.len() => g,
            _ => return Ok(self.exact(&q, k, &accept)),
        };
        let ef = self
            .cfg
            .ef_search
            .max(k.saturating_mul(4))
            .min(self.ids.len());
        let keep = |r: &usize| self.is_live(*r) && accept(self.ids[*r]);
        let found = guarded("search", || {
            graph.search_filter(&q, ef, ef, Some(&keep as &dyn FilterT))
        })?;
        let mut hits: Vec<VectorHit> = found
            .iter()
            .map(|n| n.d_id)
            .filter(&keep)
            .map(|r| VectorHit {
                id: self.ids[r],
                score: dot(&q, self.record(r)),
            })
            .collect();
        if hits.len() < k {
            // Too selective a filter for the graph walk: scan what it accepts.
            return Ok(self.exact(&q, k, &accept));
        }
        hits.sort_unstable_by(cmp_hits);
        hits.truncate(k);
        Ok(hits)
    }

    /// Flushes and fsyncs vectors.bin: every insert so far survives a crash.
    pub fn sync(&mut self) -> Result<(), VectorError> {
        self.log.flush()?;
        self.log.get_ref().sync_all()?;
        Ok(())
    }

    /// `sync`, then writes tombstones and (if changed) dumps the graph.
    pub fn save(&mut self) -> Result<(), VectorError> {
        self.sync()?;
        let mut buf = Vec::with_capacity(24 + 8 * self.tombs.len());
        buf.extend_from_slice(b"QTMB");
        buf.extend_from_slice(&VERSION.to_le_bytes());
        buf.extend_from_slice(&self.epoch.to_le_bytes());
        buf.extend_from_slice(&(self.tombs.len() as u64).to_le_bytes());
        let mut tombs: Vec<usize> = self.tombs.iter().copied().collect();
        tombs.sort_unstable();
        for r in tombs {
            buf.extend_from_slice(&(r as u64).to_le_bytes());
        }
        write_atomic(&self.dir.join(TOMBSTONES), |w| w.write_all(&buf))?;
        let covered = self.ids.len();
        match &self.graph {
            Some(g) if self.dumped != Some(covered) && g.get_nb_point() > 0 => {
                self.dump_graph(covered)
            }
            _ => Ok(()),
        }
    }

    /// Rewrites vectors.bin with only the live records and rebuilds the graph.
    pub fn compact(&mut self) -> Result<(), VectorError> {
        self.log.flush()?;
        let live: Vec<usize> = (0..self.ids.len()).filter(|&r| self.is_live(r)).collect();
        let epoch = self.epoch + 1;
        let path = self.dir.join(VECTORS);
        write_atomic(&path, |w| {
            w.write_all(&header(self.cfg.dim, epoch))?;
            live.iter()
                .try_for_each(|&r| w.write_all(&encode(self.ids[r], self.record(r))))
        })?;
        let log = open_log(&path)?;
        let dim = self.cfg.dim;
        let mut data = Vec::with_capacity(live.len() * dim);
        for &r in &live {
            data.extend_from_slice(self.record(r));
        }
        self.ids = live.iter().map(|&r| self.ids[r]).collect();
        self.data = data;
        self.latest = self
            .ids
            .iter()
            .enumerate()
            .map(|(r, &id)| (id, r))
            .collect();
        self.tombs.clear();
        self.epoch = epoch;
        self.log = log;
        self.graph = None;
        self.dumped = None;
        self.from_dump = false;
        remove_derived(&self.dir, false);
        self.ensure_graph()?;
        self.save()
    }

    pub fn size_on_disk(&self) -> u64 {
        let files = [
            VECTORS,
            TOMBSTONES,
            GRAPH_META,
            "graph.hnsw.graph",
            "graph.hnsw.data",
        ];
        let on_disk: u64 = files
            .iter()
            .filter_map(|f| fs::metadata(self.dir.join(f)).ok())
            .map(|m| m.len())
            .sum();
        on_disk + self.log.buffer().len() as u64
    }

    fn normalize(&self, v: &[f32]) -> Result<Vec<f32>, VectorError> {
        if v.len() != self.cfg.dim {
            return Err(VectorError::Dimension {
                got: v.len(),
                want: self.cfg.dim,
            });
        }
        if !v.iter().all(|x| x.is_finite()) {
            return Err(VectorError::Invalid);
        }
        let norm = v
            .iter()
            .map(|&x| f64::from(x) * f64::from(x))
            .sum::<f64>()
            .sqrt();
        if norm == 0.0 || !norm.is_finite() {
            return Err(VectorError::Invalid);
        }
        let out: Vec<f32> = v.iter().map(|&x| (f64::from(x) / norm) as f32).collect();
        if out.iter().all(|&x| x == 0.0) {
            return Err(VectorError::Invalid);
        }
        Ok(out)
    }

    fn record(&self, r: usize) -> &[f32] {
        &self.data[r * self.cfg.dim..(r + 1) * self.cfg.dim]
    }

    fn is_live(&self, r: usize) -> bool {
        self.ids
            .get(r)
            .is_some_and(|id| self.latest.get(id) == Some(&r))
    }

    fn append(&mut self, id: u64, v: &[f32]) -> Result<(), VectorError> {
        self.log.write_all(&encode(id, v))?;
        let r = self.ids.len();
        self.ids.push(id);
        self.data.extend_from_slice(v);
        self.latest.insert(id, r);
        Ok(())
    }

    fn exact(&self, q: &[f32], k: usize, accept: &dyn Fn(u64) -> bool) -> Vec<VectorHit> {
        let mut hits: Vec<VectorHit> = self
            .latest
            .iter()
            .filter(|(id, _)| accept(**id))
            .map(|(&id, &r)| VectorHit {
                id,
                score: dot(q, self.record(r)),
            })
            .collect();
        if hits.len() > k {
            hits.select_nth_unstable_by(k - 1, cmp_hits);
            hits.truncate(k);
        }
        hits.sort_unstable_by(cmp_hits);
        hits
    }
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn cmp_hits(a: &VectorHit, b: &VectorHit) -> std::cmp::Ordering {
    b.score.total_cmp(&a.score).then(a.id.cmp(&b.id))
}

#[cfg(test)]
#[path = "vector_tests.rs"]
mod tests;
