//! Where mail comes from: the cursor of each source file, the paths given to
//! `quoth ingest`, and the items quarantined as unreadable.

use super::{count, decode, encode, Result, Store};
use crate::store::records::{QuarantineItem, SourceCursor};

impl Store {
    pub fn source_cursor(&self, path: &str) -> Result<Option<SourceCursor>> {
        self.sources
            .get(path)?
            .map(|v| decode("sources", &v))
            .transpose()
    }

    pub fn set_source_cursor(&self, path: &str, cursor: &SourceCursor) -> Result<()> {
        self.sources.insert(path, encode(cursor))?;
        Ok(())
    }

    pub fn source_cursors(&self) -> impl Iterator<Item = Result<(String, SourceCursor)>> + '_ {
        self.sources.iter().map(|item| {
            let (k, v) = item?;
            Ok((
                String::from_utf8_lossy(&k).into_owned(),
                decode("sources", &v)?,
            ))
        })
    }

    /// Remembers a path given to `quoth ingest`, so a rebuild can read it again.
    pub fn add_root(&self, path: &str) -> Result<()> {
        self.roots.insert(path, &[])?;
        Ok(())
    }

    pub fn roots(&self) -> Result<Vec<String>> {
        self.roots
            .iter()
            .keys()
            .map(|k| Ok(String::from_utf8_lossy(&k?).into_owned()))
            .collect()
    }

    // ---- quarantine ----

    pub fn quarantine(&self, item: &QuarantineItem) -> Result<()> {
        let id = blake3::hash(item.location.describe().as_bytes());
        self.quarantine.insert(&id.as_bytes()[..16], encode(item))?;
        Ok(())
    }

    pub fn quarantined(&self) -> Result<Vec<QuarantineItem>> {
        self.quarantine
            .iter()
            .values()
            .map(|v| decode("quarantine", &v?))
            .collect()
    }

    pub fn quarantine_count(&self) -> Result<usize> {
        count(&self.quarantine)
    }
}
