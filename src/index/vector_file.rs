//! The files of the vector index: `vectors.bin` (header, then fixed-size records of an
//! id and its vector) and `tombstones.bin`, read and written little-endian, with
//! atomic replacement for the files that are rewritten whole.

use super::vector::{VectorError, GRAPH_META, HEADER_LEN, TOMBSTONES, VERSION};
use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read};
use std::path::Path;

pub(super) fn le_u32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b[..4].try_into().expect("4 bytes"))
}

pub(super) fn le_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
}

pub(super) fn header(dim: usize, epoch: u64) -> [u8; HEADER_LEN as usize] {
    let mut h = [0u8; HEADER_LEN as usize];
    h[..4].copy_from_slice(b"QVEC");
    h[4..8].copy_from_slice(&VERSION.to_le_bytes());
    h[8..12].copy_from_slice(&(dim as u32).to_le_bytes());
    h[16..24].copy_from_slice(&epoch.to_le_bytes());
    h
}

pub(super) fn encode(id: u64, v: &[f32]) -> Vec<u8> {
    let mut rec = Vec::with_capacity(8 + 4 * v.len());
    rec.extend_from_slice(&id.to_le_bytes());
    for x in v {
        rec.extend_from_slice(&x.to_le_bytes());
    }
    rec
}

/// What was read from vectors.bin.
pub(super) struct ReadVectors {
    pub epoch: u64,
    pub ids: Vec<u64>,
    pub data: Vec<f32>,
    /// Records left out because they were damaged: a vector that is not finite or
    /// not of unit length (every stored vector is L2-normalised), or a torn tail.
    pub damaged: usize,
}

/// How far from 1 a stored vector's length may be before it counts as damaged.
const UNIT_TOLERANCE: f64 = 1e-3;

/// Reads vectors.bin, truncating a torn last record and leaving out damaged ones
/// (counted in `damaged`, for the caller to rewrite the file without them). A bad
/// header is an error: nothing in the file can be trusted then.
pub(super) fn read_vectors(path: &Path, dim: usize) -> Result<ReadVectors, VectorError> {
    let corrupt = |why: String| VectorError::Corrupt(path.display().to_string(), why);
    let file = OpenOptions::new().read(true).write(true).open(path)?;
    let len = file.metadata()?.len();
    if len < HEADER_LEN {
        return Err(corrupt("shorter than its header".into()));
    }
    let mut reader = BufReader::with_capacity(1 << 20, &file);
    let mut h = [0u8; HEADER_LEN as usize];
    reader.read_exact(&mut h)?;
    if &h[..4] != b"QVEC" || le_u32(&h[4..]) != VERSION {
        return Err(corrupt("bad magic or version".into()));
    }
    if le_u32(&h[8..]) as usize != dim {
        return Err(corrupt(format!(
            "dimension {} but the index wants {dim}",
            le_u32(&h[8..])
        )));
    }
    let rec_len = 8 + 4 * dim as u64;
    let n = (len - HEADER_LEN) / rec_len;
    let mut damaged = 0;
    if !(len - HEADER_LEN).is_multiple_of(rec_len) {
        file.set_len(HEADER_LEN + n * rec_len)?;
        file.sync_all()?;
        damaged += 1;
    }
    let (mut ids, mut data) = (
        Vec::with_capacity(n as usize),
        Vec::with_capacity(n as usize * dim),
    );
    let mut rec = vec![0u8; rec_len as usize];
    for _ in 0..n {
        reader.read_exact(&mut rec)?;
        let start = data.len();
        data.extend(
            rec[8..]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes"))),
        );
        let norm: f64 = data[start..]
            .iter()
            .map(|&x| f64::from(x) * f64::from(x))
            .sum::<f64>()
            .sqrt();
        if !norm.is_finite() || (norm - 1.0).abs() > UNIT_TOLERANCE {
            data.truncate(start);
            damaged += 1;
            continue;
        }
        ids.push(le_u64(&rec));
    }
    Ok(ReadVectors {
        epoch: le_u64(&h[16..]),
        ids,
        data,
        damaged,
    })
}

/// Reads tombstoned record numbers; a file from another epoch is stale (ignored).
pub(super) fn read_tombstones(
    path: &Path,
    epoch: u64,
    records: usize,
) -> Result<HashSet<usize>, VectorError> {
    let buf = match fs::read(path) {
        Ok(buf) => buf,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(HashSet::new()),
        Err(e) => return Err(e.into()),
    };
    let corrupt = |why: &str| VectorError::Corrupt(path.display().to_string(), why.to_string());
    if buf.len() < 24 || &buf[..4] != b"QTMB" || le_u32(&buf[4..]) != VERSION {
        return Err(corrupt("bad header"));
    }
    if le_u64(&buf[8..]) != epoch {
        return Ok(HashSet::new());
    }
    let count = le_u64(&buf[16..]);
    if (buf.len() as u64 - 24) / 8 != count || buf.len() % 8 != 0 {
        return Err(corrupt("length does not match its count"));
    }
    Ok(buf[24..]
        .chunks_exact(8)
        .map(|c| le_u64(c) as usize)
        .filter(|&r| r < records)
        .collect())
}

pub(super) fn open_log(path: &Path) -> io::Result<BufWriter<File>> {
    Ok(BufWriter::with_capacity(
        1 << 16,
        OpenOptions::new().append(true).open(path)?,
    ))
}

/// Best-effort removal of the graph dump (and tombstones) derived from vectors.bin.
pub(super) fn remove_derived(dir: &Path, tombstones: bool) {
    let files = [
        GRAPH_META,
        "graph.hnsw.graph",
        "graph.hnsw.data",
        TOMBSTONES,
    ];
    for f in &files[..if tombstones { 4 } else { 3 }] {
        let _ = fs::remove_file(dir.join(f));
    }
}

/// Writes `path` via a fsynced temporary file and a rename.
pub(super) fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut BufWriter<File>) -> io::Result<()>,
) -> io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let mut w = BufWriter::new(File::create(&tmp)?);
    fill(&mut w)?;
    w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    fs::rename(&tmp, path)?;
    if let Some(dir) = path.parent().and_then(|d| File::open(d).ok()) {
        let _ = dir.sync_all(); // best effort: not every platform syncs directories
    }
    Ok(())
}
