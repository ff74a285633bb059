//! Text vectors kept by content hash in one file, so that a store built again (or
//! another store of the same mail) embeds no text it has embedded before: the
//! retraining scripts build and rebuild several stores of one mailbox set.
//!
//! The file starts with a header (magic, vector dimension, the model's identity) and
//! then holds records of a 16-byte key (BLAKE3 of the model's identity and the text)
//! and the vector's `f32`s, little-endian. Records are only appended, each in one
//! write; a record cut short by a crash is dropped at the next open. A file of
//! another model or dimension is not used (it is never overwritten).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, RwLock};

const MAGIC: &[u8; 8] = b"QEMBC\x00\x00\x01";
const HEADER: usize = 8 + 4 + 32;
const KEY: usize = 16;

#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("embedding cache {path}: {source}")]
    Io { path: PathBuf, source: io::Error },
    #[error("embedding cache {path} belongs to {what}; it is left as it is")]
    Other { path: PathBuf, what: &'static str },
}

pub struct EmbedCache {
    path: PathBuf,
    file: Mutex<File>,
    vectors: RwLock<HashMap<[u8; KEY], Vec<f32>>>,
    model: [u8; 32],
    dim: usize,
    hits: AtomicU64,
    misses: AtomicU64,
}

impl EmbedCache {
    /// Opens (or creates) the cache at `path` for vectors of `dim` floats from the
    /// model identified by `model` (a hash of its file and settings).
    pub fn open(path: &Path, model: [u8; 32], dim: usize) -> Result<Self, CacheError> {
        let io_err = |source| CacheError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io_err)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io_err)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io_err)?;
        let header = header(model, dim);
        if bytes.is_empty() {
            file.write_all(&header).map_err(io_err)?;
            bytes.extend_from_slice(&header);
        } else if bytes.len() < HEADER || bytes[..8] != MAGIC[..] {
            return Err(CacheError::Other {
                path: path.to_path_buf(),
                what: "something else than an embedding cache",
            });
        } else if bytes[..HEADER] != header[..] {
            return Err(CacheError::Other {
                path: path.to_path_buf(),
                what: "another model or dimension",
            });
        }
        let record = KEY + 4 * dim;
        let whole = (bytes.len() - HEADER) / record;
        let mut vectors = HashMap::with_capacity(whole);
        for r in bytes[HEADER..HEADER + whole * record].chunks_exact(record) {
            let mut key = [0u8; KEY];
            key.copy_from_slice(&r[..KEY]);
            let v = r[KEY..]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            vectors.insert(key, v);
        }
        let end = (HEADER + whole * record) as u64;
        if end < bytes.len() as u64 {
            // A record cut short: drop it, so the next one starts on a boundary.
            file.set_len(end).map_err(io_err)?;
            file.seek(SeekFrom::End(0)).map_err(io_err)?;
        }
        Ok(Self {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            vectors: RwLock::new(vectors),
            model,
            dim,
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn len(&self) -> usize {
        self.vectors.read().map_or(0, |v| v.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn key(&self, text: &str) -> [u8; KEY] {
        let mut h = blake3::Hasher::new();
        h.update(&self.model);
        h.update(text.as_bytes());
        let mut key = [0u8; KEY];
        key.copy_from_slice(&h.finalize().as_bytes()[..KEY]);
        key
    }

    /// The vector of `text`, when it was kept.
    pub fn get(&self, text: &str) -> Option<Vec<f32>> {
        let found = self
            .vectors
            .read()
            .ok()
            .and_then(|v| v.get(&self.key(text)).cloned());
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found
    }

    /// Keeps the vector of `text`: appended to the file in one write. A vector of
    /// the wrong length or with a non-finite value is not kept.
    pub fn put(&self, text: &str, vector: &[f32]) -> Result<(), CacheError> {
        if vector.len() != self.dim || !vector.iter().all(|x| x.is_finite()) {
            return Ok(());
        }
        let key = self.key(text);
        if self.vectors.read().is_ok_and(|v| v.contains_key(&key)) {
            return Ok(());
        }
        let mut record = Vec::with_capacity(KEY + 4 * self.dim);
        record.extend_from_slice(&key);
        for x in vector {
            record.extend_from_slice(&x.to_le_bytes());
        }
        let mut file = self.file.lock().map_err(|_| CacheError::Io {
            path: self.path.clone(),
            source: io::Error::other("the cache file's lock was poisoned"),
        })?;
        file.write_all(&record).map_err(|source| CacheError::Io {
            path: self.path.clone(),
            source,
        })?;
        if let Ok(mut v) = self.vectors.write() {
            v.insert(key, vector.to_vec());
        }
        Ok(())
    }

    /// Lookups that found a vector, and lookups that did not.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
        )
    }
}

fn header(model: [u8; 32], dim: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&(dim as u32).to_le_bytes());
    h.extend_from_slice(&model);
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(n: u8) -> [u8; 32] {
        [n; 32]
    }

    #[test]
    fn vectors_read_back_after_reopening_and_only_for_their_model() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache.bin");
        let c = EmbedCache::open(&path, model(1), 3).expect("opens");
        assert_eq!(c.get("the crane arrives Monday"), None);
        c.put("the crane arrives Monday", &[0.5, -1.0, 2.25])
            .expect("keeps");
        c.put("lunch at noon", &[1.0, 0.0, 0.0]).expect("keeps");
        c.put("lunch at noon", &[9.0, 9.0, 9.0])
            .expect("a repeat is ignored");
        c.put("wrong length", &[1.0]).expect("ignored");
        c.put("not finite", &[f32::NAN, 0.0, 0.0]).expect("ignored");
        assert_eq!(c.counts(), (0, 1));
        drop(c);

        let c = EmbedCache::open(&path, model(1), 3).expect("reopens");
        assert_eq!(c.len(), 2);
        assert_eq!(
            c.get("the crane arrives Monday"),
            Some(vec![0.5, -1.0, 2.25])
        );
        assert_eq!(c.get("lunch at noon"), Some(vec![1.0, 0.0, 0.0]));
        assert_eq!(c.get("wrong length"), None);
        assert_eq!(c.counts(), (2, 1));
        drop(c);

        assert!(matches!(
            EmbedCache::open(&path, model(2), 3),
            Err(CacheError::Other { .. })
        ));
        assert!(matches!(
            EmbedCache::open(&path, model(1), 4),
            Err(CacheError::Other { .. })
        ));
        let len = std::fs::metadata(&path).expect("meta").len();
        assert_eq!(
            len,
            (HEADER + 2 * (KEY + 12)) as u64,
            "a refused file is left as it is"
        );
    }

    #[test]
    fn a_record_cut_short_is_dropped_and_the_next_one_reads() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache.bin");
        let c = EmbedCache::open(&path, model(1), 2).expect("opens");
        c.put("kept", &[1.0, 2.0]).expect("keeps");
        drop(c);
        // A crash in the middle of the next record's write.
        let mut f = OpenOptions::new().append(true).open(&path).expect("file");
        f.write_all(&[7u8; KEY + 3]).expect("torn write");
        drop(f);
        let c = EmbedCache::open(&path, model(1), 2).expect("reopens");
        assert_eq!(c.len(), 1);
        c.put("after", &[3.0, 4.0]).expect("keeps");
        drop(c);
        let c = EmbedCache::open(&path, model(1), 2).expect("reopens");
        assert_eq!(c.get("kept"), Some(vec![1.0, 2.0]));
        assert_eq!(c.get("after"), Some(vec![3.0, 4.0]));
    }

    #[test]
    fn a_file_that_is_not_a_cache_is_refused_and_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "my notes, not vectors").expect("write");
        assert!(EmbedCache::open(&path, model(1), 2).is_err());
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "my notes, not vectors"
        );
    }
}
