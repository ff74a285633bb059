//! Sentence embeddings with all-MiniLM-L6-v2 on ONNX Runtime: the model (int8,
//! models/embedder/) is kept in the repository, the runtime and the tokenizer are put
//! in place by `models/fetch`. Nothing leaves the machine.
//!
//! Texts are tokenized without padding, sorted by length and run in batches of similar
//! length (padding costs compute), mean-pooled over the attention mask and L2-normalised.

use super::embed_cache::EmbedCache;
use ort::session::Session;
use ort::value::Tensor;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use tokenizers::{Tokenizer, TruncationParams};

/// The command that fetches the model files.
pub const FETCH_COMMAND: &str = "models/fetch";

const RUNTIME_FILE: &str = "libonnxruntime.so";
/// The model, kept in the repository (models/embedder/README.md says how it was made).
const MODEL_FILE: &str = "embedder/all-MiniLM-L6-v2.int8.onnx";
const TOKENIZER_FILE: &str = "all-MiniLM-L6-v2.tokenizer.json";

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("the embedding model is not installed (looked in {searched}); run `{FETCH_COMMAND}` to fetch it; lexical search works without it")]
    Missing { searched: String },
    #[error("could not load ONNX Runtime from {path}: {reason}")]
    Runtime { path: String, reason: String },
    #[error("could not load the embedding model: {0}")]
    Model(String),
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error("embedding failed: {0}")]
    Inference(String),
}

pub type Result<T> = std::result::Result<T, EmbedError>;

/// Where the three model files are.
#[derive(Debug, Clone)]
pub struct ModelPaths {
    pub runtime: PathBuf,
    pub model: PathBuf,
    pub tokenizer: PathBuf,
}

impl ModelPaths {
    /// Looks in `QUOTH_MODELS_DIR`, then `./models`, then the models folder beside the
    /// executable's source tree, then `DATA_DIR/models`.
    pub fn locate(data_dir: &Path) -> Result<Self> {
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(d) = std::env::var_os("QUOTH_MODELS_DIR") {
            dirs.push(PathBuf::from(d));
        }
        dirs.push(PathBuf::from("models"));
        dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("models"));
        dirs.push(data_dir.join("models"));
        for dir in &dirs {
            let paths = Self::in_dir(dir);
            if paths.runtime.is_file() && paths.model.is_file() && paths.tokenizer.is_file() {
                return Ok(paths);
            }
        }
        Err(EmbedError::Missing {
            searched: dirs
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
    }

    pub fn in_dir(dir: &Path) -> Self {
        Self {
            runtime: dir.join(RUNTIME_FILE),
            model: dir.join(MODEL_FILE),
            tokenizer: dir.join(TOKENIZER_FILE),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct EmbedConfig {
    /// Tokens per text, [CLS] and [SEP] included; longer texts are truncated.
    pub max_tokens: usize,
    /// Texts per model run.
    pub batch_size: usize,
    /// ONNX Runtime intra-op threads.
    pub threads: usize,
}

impl Default for EmbedConfig {
    fn default() -> Self {
        Self {
            // all-MiniLM-L6-v2 was trained on 128-token inputs; longer ones cost more
            // and add little (chunks are cut at ~256 estimated tokens, most are shorter).
            max_tokens: 128,
            // The int8 model quantises each activation over the whole run, padding
            // included, so a text run beside others would get a vector that depends
            // on them (cosine 0.998 on average, 0.989 at worst, to its own): one text
            // a run keeps a text's vector its own, the same as a query's, at the same
            // speed on 2 threads.
            batch_size: 1,
            threads: 2,
        }
    }
}

/// ONNX Runtime allows one environment per process; the first load makes it.
static ENVIRONMENT: OnceLock<std::result::Result<ort::environment::Environment, String>> =
    OnceLock::new();

/// The variable ONNX Runtime reads, when its environment is created, to keep its
/// telemetry system off. `with_telemetry(false)` alone comes too late: the bundled
/// runtime writes a device id and an event queue under ~/.cache/Microsoft as it
/// creates the environment, before the API call that disables the events.
pub const ORT_TELEMETRY_SWITCH: &str = "ORT_DISABLE_TELEMETRY";

/// Sets [`ORT_TELEMETRY_SWITCH`] for this process. The binary calls it first thing,
/// while it has one thread; [`Embedder::load`] calls it again before the runtime is
/// loaded, for programs that embed Quoth as a library.
pub fn disable_runtime_telemetry() {
    if std::env::var_os(ORT_TELEMETRY_SWITCH).is_none() {
        std::env::set_var(ORT_TELEMETRY_SWITCH, "1");
    }
}

/// A session of `model` on the runtime at `runtime`, with `threads` threads.
pub(crate) fn model_session(runtime: &Path, model: &Path, threads: usize) -> Result<Session> {
    let env = environment(runtime)?;
    Session::builder(&env)
        .and_then(|b| b.with_intra_threads(threads.max(1)).map_err(Into::into))
        .and_then(|b| b.with_inter_threads(1).map_err(Into::into))
        // Batch shapes vary; a per-shape memory plan only grows the arena.
        .and_then(|b| b.with_memory_pattern(false).map_err(Into::into))
        .and_then(|mut b| b.commit_from_file(model))
        .map_err(|e| EmbedError::Model(e.to_string()))
}

fn environment(runtime: &Path) -> Result<ort::environment::Environment> {
    ENVIRONMENT
        .get_or_init(|| {
            disable_runtime_telemetry();
            // And off through ONNX Runtime's own API, before any session exists.
            ort::init_from(runtime)
                .map_err(|e| e.to_string())?
                .with_name("quoth")
                .with_telemetry(false)
                .build()
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|reason| EmbedError::Runtime {
            path: runtime.display().to_string(),
            reason,
        })
}

/// The environment variable naming an embedding cache file ([`EmbedCache`]): vectors
/// kept by content hash across stores, for scripts that build stores again.
pub const CACHE_ENV: &str = "QUOTH_EMBED_CACHE";

/// What makes a vector: the model file's bytes and the token limit.
pub fn model_identity(model: &Path, max_tokens: usize) -> Result<[u8; 32]> {
    let bytes =
        std::fs::read(model).map_err(|e| EmbedError::Model(format!("{}: {e}", model.display())))?;
    let mut h = blake3::Hasher::new();
    h.update(&bytes);
    h.update(&(max_tokens as u64).to_le_bytes());
    Ok(*h.finalize().as_bytes())
}

pub struct Embedder {
    session: Mutex<Session>,
    /// A second session, made when a text is embedded while the first runs a batch
    /// (a search's query while the background embeds mail): one thread, so the
    /// query waits for no batch.
    spare: OnceLock<std::result::Result<Mutex<Session>, String>>,
    /// The sessions of background embedding ([`Embedder::embed_in_background`]):
    /// one thread each, one per configured thread, made on first use.
    background: Vec<OnceLock<std::result::Result<Mutex<Session>, String>>>,
    paths: ModelPaths,
    tokenizer: Tokenizer,
    cfg: EmbedConfig,
    dim: usize,
    /// Vectors kept by content hash ([`CACHE_ENV`]), when asked for.
    cache: Option<EmbedCache>,
}

/// One tokenized text.
struct Tokens {
    ids: Vec<i64>,
    /// Positions of real word pieces (not [CLS]/[SEP]).
    content: std::ops::Range<usize>,
}

impl Embedder {
    fn session(paths: &ModelPaths, threads: usize) -> Result<Session> {
        model_session(&paths.runtime, &paths.model, threads)
    }

    pub fn load(paths: &ModelPaths, cfg: EmbedConfig) -> Result<Self> {
        let session = Self::session(paths, cfg.threads)?;
        let mut tokenizer = Tokenizer::from_file(&paths.tokenizer)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        // The shipped tokenizer.json has padding Fixed(128) and truncation 128 baked in.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: cfg.max_tokens,
                ..Default::default()
            }))
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        let embedder = Self {
            session: Mutex::new(session),
            spare: OnceLock::new(),
            background: (0..cfg.threads.max(1)).map(|_| OnceLock::new()).collect(),
            paths: paths.clone(),
            tokenizer,
            cfg,
            dim: 0,
            cache: None,
        };
        let probe = embedder.run_batch(&[embedder.tokenize("dimension probe")?], None)?;
        let dim = probe
            .first()
            .map(|(_, hidden)| hidden.len() / probe[0].0.max(1))
            .unwrap_or(0);
        if dim == 0 {
            return Err(EmbedError::Model("the model returned no vectors".into()));
        }
        let embedder = Self { dim, ..embedder };
        match std::env::var_os(CACHE_ENV) {
            Some(path) if !path.is_empty() => embedder.with_cache(Path::new(&path)),
            _ => Ok(embedder),
        }
    }

    /// Keeps vectors by content hash in the file at `path` ([`EmbedCache`]), and
    /// takes the ones it holds from there.
    pub fn with_cache(self, path: &Path) -> Result<Self> {
        let model = model_identity(&self.paths.model, self.cfg.max_tokens)?;
        let cache = EmbedCache::open(path, model, self.dim)
            .map_err(|e| EmbedError::Model(e.to_string()))?;
        Ok(Self {
            cache: Some(cache),
            ..self
        })
    }

    /// The cache's lookups that found a vector and those that did not; None without
    /// a cache.
    pub fn cache_counts(&self) -> Option<(u64, u64)> {
        self.cache.as_ref().map(EmbedCache::counts)
    }

    pub fn dim(&self) -> usize {
        self.dim
    }

    fn tokenize(&self, text: &str) -> Result<Tokens> {
        let enc = self
            .tokenizer
            .encode(text, true)
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        let ids: Vec<i64> = enc.get_ids().iter().map(|&i| i64::from(i)).collect();
        let n = ids.len();
        Ok(Tokens {
            ids,
            content: 1.min(n)..n.saturating_sub(1).max(1.min(n)),
        })
    }

    /// Runs one batch on `on` (or on the first free of the main and spare sessions);
    /// returns per text (token count, row-major token vectors).
    fn run_batch(
        &self,
        batch: &[Tokens],
        on: Option<&Mutex<Session>>,
    ) -> Result<Vec<(usize, Vec<f32>)>> {
        let len = batch.iter().map(|t| t.ids.len()).max().unwrap_or(0).max(1);
        let rows = batch.len();
        let mut ids = vec![0i64; rows * len];
        let mut mask = vec![0i64; rows * len];
        for (r, t) in batch.iter().enumerate() {
            ids[r * len..r * len + t.ids.len()].copy_from_slice(&t.ids);
            mask[r * len..r * len + t.ids.len()].fill(1);
        }
        let types = vec![0i64; rows * len];
        let shape = [rows as i64, len as i64];
        let tensor = |data: Vec<i64>| {
            Tensor::from_array((shape, data)).map_err(|e| EmbedError::Inference(e.to_string()))
        };
        let inputs = ort::inputs![
            "input_ids" => tensor(ids)?,
            "attention_mask" => tensor(mask)?,
            "token_type_ids" => tensor(types)?,
        ];
        let poisoned = || EmbedError::Inference("the model session was poisoned".into());
        let mut session = match on {
            Some(session) => session.lock().map_err(|_| poisoned())?,
            None => self.free_session()?,
        };
        let outputs = session
            .run(inputs)
            .map_err(|e| EmbedError::Inference(e.to_string()))?;
        let (out_shape, data) = outputs[0]
            .try_extract_tensor::<f32>()
            .map_err(|e| EmbedError::Inference(e.to_string()))?;
        let dims: Vec<i64> = out_shape.iter().copied().collect();
        if dims.len() != 3 || dims[0] as usize != rows || dims[1] as usize != len {
            return Err(EmbedError::Inference(format!(
                "unexpected output shape {dims:?}"
            )));
        }
        let hidden = dims[2] as usize;
        Ok(batch
            .iter()
            .enumerate()
            .map(|(r, t)| {
                let start = r * len * hidden;
                (
                    t.ids.len(),
                    data[start..start + t.ids.len() * hidden].to_vec(),
                )
            })
            .collect())
    }

    /// The main session when it is free, else the spare one (made on first need),
    /// else the main one once it is free.
    fn free_session(&self) -> Result<std::sync::MutexGuard<'_, Session>> {
        let poisoned = || EmbedError::Inference("the model session was poisoned".into());
        match self.session.try_lock() {
            Ok(s) => Ok(s),
            Err(std::sync::TryLockError::Poisoned(_)) => Err(poisoned()),
            Err(std::sync::TryLockError::WouldBlock) => {
                let spare = self.spare.get_or_init(|| {
                    Self::session(&self.paths, 1)
                        .map(Mutex::new)
                        .map_err(|e| e.to_string())
                });
                match spare {
                    Ok(spare) => match spare.try_lock() {
                        Ok(s) => Ok(s),
                        Err(_) => self.session.lock().map_err(|_| poisoned()),
                    },
                    Err(_) => self.session.lock().map_err(|_| poisoned()),
                }
            }
        }
    }

    /// Background session `i`, made on first use.
    fn background_session(&self, i: usize) -> Result<&Mutex<Session>> {
        let slot = self
            .background
            .get(i)
            .ok_or_else(|| EmbedError::Inference(format!("no background session {i}")))?;
        slot.get_or_init(|| {
            Self::session(&self.paths, 1)
                .map(Mutex::new)
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| EmbedError::Model(e.clone()))
    }

    /// [`Embedder::embed`] for background work (embedding mail while the user
    /// searches and asks): the texts are split among single-threaded sessions, one
    /// per configured thread, each run by a thread of the lowest scheduling
    /// priority. With nothing else to do they use every core; a search or a
    /// question, at normal priority, gets the cores first.
    pub fn embed_in_background(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let parts = self.background.len().clamp(1, texts.len());
        let per_part = texts.len().div_ceil(parts);
        std::thread::scope(|scope| {
            let runs: Vec<_> = texts
                .chunks(per_part)
                .enumerate()
                .map(|(i, part)| {
                    scope.spawn(move || {
                        crate::index::priority::lower_this_thread();
                        self.embed_on(part, Some(self.background_session(i)?))
                    })
                })
                .collect();
            let mut out = Vec::with_capacity(texts.len());
            for run in runs {
                let vectors = run.join().map_err(|_| {
                    EmbedError::Inference("a background embedding thread panicked".into())
                })??;
                out.extend(vectors);
            }
            Ok(out)
        })
    }

    /// One normalised sentence vector per text, in input order.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>> {
        self.embed_on(texts, None)
    }

    /// [`Embedder::embed`] on one session (or the first free one): the texts the
    /// cache holds from it, the others through the model (and into the cache).
    fn embed_on(&self, texts: &[&str], on: Option<&Mutex<Session>>) -> Result<Vec<Vec<f32>>> {
        let Some(cache) = &self.cache else {
            return self.run_texts(texts, on);
        };
        let mut out: Vec<Option<Vec<f32>>> = texts.iter().map(|t| cache.get(t)).collect();
        let missing: Vec<usize> = (0..texts.len()).filter(|&i| out[i].is_none()).collect();
        let todo: Vec<&str> = missing.iter().map(|&i| texts[i]).collect();
        for (&i, v) in missing.iter().zip(self.run_texts(&todo, on)?) {
            // The cache only saves work: a failed write costs a later embedding.
            let _ = cache.put(texts[i], &v);
            out[i] = Some(v);
        }
        Ok(out.into_iter().map(Option::unwrap_or_default).collect())
    }

    /// Runs the model on every text, shortest first in batches.
    fn run_texts(&self, texts: &[&str], on: Option<&Mutex<Session>>) -> Result<Vec<Vec<f32>>> {
        let tokens: Vec<Tokens> = texts
            .iter()
            .map(|t| self.tokenize(t))
            .collect::<Result<_>>()?;
        let mut order: Vec<usize> = (0..tokens.len()).collect();
        order.sort_by_key(|&i| tokens[i].ids.len());
        let mut out = vec![Vec::new(); texts.len()];
        let lens: Vec<usize> = order.iter().map(|&i| tokens[i].ids.len()).collect();
        let mut tokens: Vec<Option<Tokens>> = tokens.into_iter().map(Some).collect();
        for range in length_batches(&lens, self.cfg.batch_size) {
            let group = &order[range];
            let batch: Vec<Tokens> = group.iter().filter_map(|&i| tokens[i].take()).collect();
            let results = self.run_batch(&batch, on)?;
            for (&i, (n, hidden)) in group.iter().zip(results) {
                out[i] = mean_pool(&hidden, n, self.dim_of(&hidden, n));
            }
        }
        Ok(out)
    }

    /// Normalised vectors of each word piece of a text ([CLS]/[SEP] left out), for
    /// late-interaction (MaxSim) scoring.
    pub fn token_vectors(&self, text: &str) -> Result<Vec<Vec<f32>>> {
        let tokens = self.tokenize(text)?;
        let content = tokens.content.clone();
        let mut results = self.run_batch(&[tokens], None)?;
        let (n, hidden) = results.pop().unwrap_or((0, Vec::new()));
        let dim = self.dim_of(&hidden, n);
        Ok(content
            .filter_map(|i| hidden.get(i * dim..(i + 1) * dim))
            .map(|v| normalised(v.to_vec()))
            .collect())
    }

    fn dim_of(&self, hidden: &[f32], n: usize) -> usize {
        if self.dim > 0 {
            self.dim
        } else {
            hidden.len() / n.max(1)
        }
    }
}

/// Most padding a batch may carry, as a share of its tokens: a batch runs at the
/// length of its longest text, and attention costs the square of it.
const PADDING_SHARE: f32 = 0.25;

/// Batches over texts sorted by length (`lens`, ascending), each at most `most` long:
/// a text joins the batch before it while the batch's padding stays under
/// [`PADDING_SHARE`], so a few long texts do not make many short ones run long.
fn length_batches(lens: &[usize], most: usize) -> Vec<std::ops::Range<usize>> {
    let most = most.max(1);
    let mut batches = Vec::new();
    let mut start = 0;
    let mut tokens = 0usize;
    for (i, &len) in lens.iter().enumerate() {
        let rows = i - start + 1;
        let padded = (rows * len) as f32;
        let joins =
            i > start && rows <= most && padded - (tokens + len) as f32 <= PADDING_SHARE * padded;
        if i > start && !joins {
            batches.push(start..i);
            start = i;
            tokens = 0;
        }
        tokens += len;
    }
    if start < lens.len() {
        batches.push(start..lens.len());
    }
    batches
}

fn mean_pool(hidden: &[f32], n: usize, dim: usize) -> Vec<f32> {
    let mut sum = vec![0f32; dim];
    for row in hidden.chunks_exact(dim).take(n) {
        for (s, v) in sum.iter_mut().zip(row) {
            *s += v;
        }
    }
    normalised(sum)
}

fn normalised(mut v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 && norm.is_finite() {
        v.iter_mut().for_each(|x| *x /= norm);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::length_batches;

    #[test]
    fn texts_of_like_length_share_a_batch_and_a_long_one_runs_apart() {
        let lens = [10, 11, 12, 12, 13, 120];
        assert_eq!(length_batches(&lens, 32), vec![0..5, 5..6]);
    }

    #[test]
    fn a_batch_holds_at_most_its_size_and_every_text_once() {
        let lens = [20; 7];
        assert_eq!(length_batches(&lens, 3), vec![0..3, 3..6, 6..7]);
        for lens in [vec![], vec![5], vec![3, 9, 9, 40, 41, 128, 128]] {
            let batches = length_batches(&lens, 4);
            let covered: Vec<usize> = batches.iter().flat_map(|r| r.clone()).collect();
            assert_eq!(covered, (0..lens.len()).collect::<Vec<_>>());
            assert!(batches.iter().all(|r| !r.is_empty() && r.len() <= 4));
        }
    }

    #[test]
    fn padding_stays_under_its_share() {
        let lens = [8, 9, 10, 14, 15, 16, 30, 31, 64, 100, 128];
        for r in length_batches(&lens, 32) {
            let longest = lens[r.end - 1];
            let padded = longest * r.len();
            let real: usize = lens[r].iter().sum();
            assert!(
                (padded - real) as f32 <= 0.25 * padded as f32,
                "{padded} {real}"
            );
        }
    }
}
