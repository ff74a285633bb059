//! The HNSW graph over the records of vectors.bin: building it, extending it with
//! new records, and dumping it to disk and reloading it (checked against
//! `graph.meta`), with every hnsw_rs call guarded against panics.

use std::any::Any;
use std::fs::{self, File};
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use hnsw_rs::prelude::{AnnT, Distance, Hnsw, HnswIo};

use super::{dot, VectorError, VectorIndex, GRAPH_META, VERSION};
use crate::index::vector_file::{le_u32, le_u64, write_atomic};

const GRAPH_BASE: &str = "graph";
const GRAPH_TMP_BASE: &str = "graph-tmp";
const GRAPH_EXTS: [&str; 2] = ["hnsw.graph", "hnsw.data"];
/// Magic, version, epoch, dim, covered, the two dump files' sizes, then their
/// blake3 hashes: a dump that does not match them byte for byte is rebuilt.
const META_LEN: usize = 48 + 2 * 32;
const MAX_NB_CONNECTION: usize = 16;
const EF_CONSTRUCTION: usize = 200;
const MAX_LAYER: usize = 16; // hnsw_rs only dumps graphs built with 16 layers

/// `1 - dot` for unit vectors, clamped at 0: anndists' `DistDot` asserts
/// when rounding pushes the dot of near-identical vectors above 1.
#[derive(Default, Clone, Copy)]
pub(super) struct UnitDot;

impl Distance<f32> for UnitDot {
    fn eval(&self, va: &[f32], vb: &[f32]) -> f32 {
        (1.0 - dot(va, vb)).max(0.0)
    }
}

pub(super) type Graph = Hnsw<'static, f32, UnitDot>;

impl VectorIndex {
    /// Builds the graph once the live count reaches the exact-search threshold.
    pub(super) fn ensure_graph(&mut self) -> Result<(), VectorError> {
        if self.graph.is_some()
            || self.latest.is_empty()
            || self.latest.len() < self.cfg.exact_threshold
        {
            return Ok(());
        }
        let capacity = self.latest.len().max(1024);
        let graph = guarded("build", || {
            Hnsw::new(
                MAX_NB_CONNECTION,
                capacity,
                MAX_LAYER,
                EF_CONSTRUCTION,
                UnitDot,
            )
        })?;
        self.graph = Some(graph);
        self.dumped = None;
        self.extend_graph(0)
    }

    /// Adds the live records from `first` on to the graph, if there is one.
    /// On a backend panic the graph is dropped (rebuilt later from vectors.bin).
    pub(super) fn extend_graph(&mut self, first: usize) -> Result<(), VectorError> {
        let Some(graph) = &self.graph else {
            return Ok(());
        };
        let items: Vec<(&[f32], usize)> = (first..self.ids.len())
            .filter(|&r| self.is_live(r))
            .map(|r| (self.record(r), r))
            .collect();
        let res = guarded("insert", || match items.len() {
            0 => {}
            1 => graph.insert_slice(items[0]),
            _ => graph.parallel_insert_slice(&items),
        });
        if res.is_err() {
            self.graph = None;
            self.dumped = None;
        }
        res
    }

    pub(super) fn load_dump(&self) -> Option<(Graph, usize)> {
        let meta = fs::read(self.dir.join(GRAPH_META)).ok()?;
        if meta.len() != META_LEN || &meta[..4] != b"QGRM" || le_u32(&meta[4..]) != VERSION {
            return None;
        }
        let (epoch, dim, covered) = (
            le_u64(&meta[8..]),
            le_u64(&meta[16..]),
            le_u64(&meta[24..]) as usize,
        );
        if epoch != self.epoch || dim != self.cfg.dim as u64 || covered > self.ids.len() {
            return None;
        }
        for (i, ext) in GRAPH_EXTS.iter().enumerate() {
            let path = self.dir.join(format!("{GRAPH_BASE}.{ext}"));
            let len = fs::metadata(&path).ok()?.len();
            if len != le_u64(&meta[32 + 8 * i..]) {
                return None;
            }
            if hash_file(&path).ok()? != meta[48 + 32 * i..48 + 32 * (i + 1)] {
                return None;
            }
        }
        let dir = self.dir.clone();
        let graph = guarded("reload", move || {
            let io: &'static mut HnswIo = Box::leak(Box::new(HnswIo::new(&dir, GRAPH_BASE)));
            io.load_hnsw::<f32, UnitDot>().ok()
        })
        .ok()??;
        let points = graph.get_nb_point();
        let dim_ok =
            points == 0 || graph.get_point_indexation().get_data_dimension() == self.cfg.dim;
        (points > 0 && points <= covered && dim_ok).then_some((graph, covered))
    }

    pub(super) fn dump_graph(&mut self, covered: usize) -> Result<(), VectorError> {
        let Some(graph) = &self.graph else {
            return Ok(());
        };
        let dir = &self.dir;
        // Invalidate the old dump first: a crash from here on means a rebuild.
        match fs::remove_file(dir.join(GRAPH_META)) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e.into()),
            _ => {}
        }
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(GRAPH_TMP_BASE)
            {
                fs::remove_file(entry.path())?;
            }
        }
        let name = guarded("dump", || graph.file_dump(dir, GRAPH_TMP_BASE))?
            .map_err(|e| VectorError::Backend(format!("dump: {e}")))?;
        let mut meta = Vec::with_capacity(META_LEN);
        meta.extend_from_slice(b"QGRM");
        meta.extend_from_slice(&VERSION.to_le_bytes());
        meta.extend_from_slice(&self.epoch.to_le_bytes());
        meta.extend_from_slice(&(self.cfg.dim as u64).to_le_bytes());
        meta.extend_from_slice(&(covered as u64).to_le_bytes());
        let mut hashes = Vec::with_capacity(64);
        for ext in GRAPH_EXTS {
            let tmp = dir.join(format!("{name}.{ext}"));
            let file = File::open(&tmp)?;
            file.sync_all()?;
            meta.extend_from_slice(&file.metadata()?.len().to_le_bytes());
            hashes.extend_from_slice(&hash_file(&tmp)?);
            fs::rename(&tmp, dir.join(format!("{GRAPH_BASE}.{ext}")))?;
        }
        meta.extend_from_slice(&hashes);
        write_atomic(&dir.join(GRAPH_META), |w| w.write_all(&meta))?;
        self.dumped = Some(covered);
        Ok(())
    }
}

/// The blake3 hash of a file's bytes.
fn hash_file(path: &Path) -> io::Result<[u8; 32]> {
    let mut hasher = blake3::Hasher::new();
    hasher.update_reader(File::open(path)?)?;
    Ok(*hasher.finalize().as_bytes())
}

/// Runs a hnsw_rs call, turning a panic into `VectorError::Backend`.
pub(super) fn guarded<R>(what: &str, f: impl FnOnce() -> R) -> Result<R, VectorError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p: Box<dyn Any + Send>| {
        let msg = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".to_string());
        VectorError::Backend(format!("hnsw {what}: {msg}"))
    })
}
