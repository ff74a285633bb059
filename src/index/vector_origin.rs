//! Which embedding model made the vectors of a vector directory. Vectors of two
//! models do not compare (a query embedded by one finds nothing sure among texts
//! embedded by the other), so a data directory whose model changed embeds its texts
//! again. The file `origin` in the vector directory names the model by its identity
//! ([`model_identity`]: the model file's bytes and the token limit), and the length
//! and modification time the model file had when the identity was taken, so that an
//! unchanged file is recognised without reading it.

use std::path::Path;
use std::time::UNIX_EPOCH;

use super::embed::{model_identity, EmbedError};

const FILE: &str = "origin";

/// What the vector directory says of the model at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Its vectors were made by this model.
    Same,
    /// It names no model (a directory older than the file, or a new one).
    Unrecorded,
    /// It names another model, or a file that cannot be read as a record.
    Other,
}

#[derive(Debug, thiserror::Error)]
pub enum OriginError {
    #[error("the vector directory's model record {0}: {1}")]
    Io(String, std::io::Error),
    #[error(transparent)]
    Model(#[from] EmbedError),
}

/// The model file's length and modification time (nanoseconds since the epoch).
fn stamp(model: &Path) -> Result<(u64, u128), OriginError> {
    let meta =
        std::fs::metadata(model).map_err(|e| OriginError::Io(model.display().to_string(), e))?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Ok((meta.len(), modified))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A record: the identity (hex), the token limit, and the model file's length and
/// modification time.
struct Record {
    identity: String,
    max_tokens: usize,
    len: u64,
    modified: u128,
}

/// None when the text does not hold the four fields.
fn parse(text: &str) -> Option<Record> {
    let mut fields = text.split_whitespace();
    let identity = fields.next()?.to_string();
    let record = Record {
        max_tokens: fields.next()?.parse().ok()?,
        len: fields.next()?.parse().ok()?,
        modified: fields.next()?.parse().ok()?,
        identity,
    };
    (record.identity.len() == 64 && fields.next().is_none()).then_some(record)
}

/// Compares the record in `dir` with the model file `model` read `max_tokens` tokens
/// at a time. A record whose stamp differs but whose identity holds (the same model
/// copied or fetched again) is brought up to date.
pub fn check(dir: &Path, model: &Path, max_tokens: usize) -> Result<Verdict, OriginError> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Verdict::Unrecorded),
        Err(e) => return Err(OriginError::Io(path.display().to_string(), e)),
    };
    let Some(recorded) = parse(&text) else {
        return Ok(Verdict::Other);
    };
    if recorded.max_tokens != max_tokens {
        return Ok(Verdict::Other);
    }
    if (recorded.len, recorded.modified) == stamp(model)? {
        return Ok(Verdict::Same);
    }
    if recorded.identity != hex(&model_identity(model, max_tokens)?) {
        return Ok(Verdict::Other);
    }
    record(dir, model, max_tokens)?;
    Ok(Verdict::Same)
}

/// Records `model`, read `max_tokens` tokens at a time, as the maker of the vectors
/// in `dir` (written whole: a temporary file renamed into place).
pub fn record(dir: &Path, model: &Path, max_tokens: usize) -> Result<(), OriginError> {
    let identity = model_identity(model, max_tokens)?;
    let (len, modified) = stamp(model)?;
    let path = dir.join(FILE);
    let tmp = dir.join(format!("{FILE}.tmp"));
    let io = |e| OriginError::Io(path.display().to_string(), e);
    std::fs::create_dir_all(dir).map_err(io)?;
    let text = format!("{} {max_tokens} {len} {modified}\n", hex(&identity));
    std::fs::write(&tmp, text).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(dir: &Path, bytes: &[u8]) -> std::path::PathBuf {
        let path = dir.join("model.onnx");
        std::fs::write(&path, bytes).expect("write model");
        path
    }

    #[test]
    fn a_directory_names_no_model_until_one_is_recorded() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let m = model(tmp.path(), b"weights of one model");
        let vectors = tmp.path().join("vectors");
        assert_eq!(
            check(&vectors, &m, 128).expect("check"),
            Verdict::Unrecorded
        );
        record(&vectors, &m, 128).expect("record");
        assert_eq!(check(&vectors, &m, 128).expect("check"), Verdict::Same);
    }

    #[test]
    fn other_weights_or_another_token_limit_is_another_model() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let m = model(tmp.path(), b"weights of one model");
        let vectors = tmp.path().join("vectors");
        record(&vectors, &m, 128).expect("record");
        assert_eq!(check(&vectors, &m, 256).expect("check"), Verdict::Other);
        // The same length, so only the bytes tell the two apart.
        std::thread::sleep(std::time::Duration::from_millis(20));
        model(tmp.path(), b"weights of two model");
        assert_eq!(check(&vectors, &m, 128).expect("check"), Verdict::Other);
    }

    #[test]
    fn the_same_model_written_again_is_the_same_and_its_new_stamp_is_kept() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let m = model(tmp.path(), b"weights of one model");
        let vectors = tmp.path().join("vectors");
        record(&vectors, &m, 128).expect("record");
        let before = std::fs::read_to_string(vectors.join(FILE)).expect("read");
        std::thread::sleep(std::time::Duration::from_millis(20));
        model(tmp.path(), b"weights of one model");
        assert_eq!(check(&vectors, &m, 128).expect("check"), Verdict::Same);
        let after = std::fs::read_to_string(vectors.join(FILE)).expect("read");
        assert_ne!(before, after, "the new modification time is recorded");
        assert_eq!(before.split(' ').next(), after.split(' ').next());
    }

    #[test]
    fn a_record_that_cannot_be_read_names_another_model() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let m = model(tmp.path(), b"weights of one model");
        let vectors = tmp.path().join("vectors");
        std::fs::create_dir_all(&vectors).expect("mkdir");
        for text in [
            "",
            "not a record",
            "abc 12 34",
            &format!("{} 128 1 2 3", "0".repeat(64)),
        ] {
            std::fs::write(vectors.join(FILE), text).expect("write");
            assert_eq!(
                check(&vectors, &m, 128).expect("check"),
                Verdict::Other,
                "{text:?}"
            );
        }
    }
}
