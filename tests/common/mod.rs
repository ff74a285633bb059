//! Helpers shared by the integration tests.
#![allow(dead_code)]

use quoth::engine::{Engine, IngestReport};
use std::path::{Path, PathBuf};

/// The shared data folder beside the checkout, if present. When it is absent the test
/// skips with a message, unless QUOTH_REQUIRE_SHARED is set (as CI does): then it fails.
pub fn shared(rel: &str) -> Option<PathBuf> {
    let root = std::env::var_os("QUOTH_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let path = root.join(rel);
    if path.exists() {
        return Some(path);
    }
    if std::env::var_os("QUOTH_REQUIRE_SHARED").is_some() {
        panic!(
            "{} is required (QUOTH_REQUIRE_SHARED is set) but absent",
            path.display()
        );
    }
    eprintln!(
        "SKIP: {} is absent; this test needs the shared data",
        path.display()
    );
    None
}

/// A program the test needs; same skip-or-fail rule as [`shared`].
pub fn program(name: &str) -> bool {
    let found = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("command -v {name}"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        if std::env::var_os("QUOTH_REQUIRE_SHARED").is_some() {
            panic!(
                "the program {name} is required (QUOTH_REQUIRE_SHARED is set) but not installed"
            );
        }
        eprintln!("SKIP: {name} is not installed");
    }
    found
}

/// The model files, when fetched (`models/fetch`). Same skip-or-fail rule: CI fetches
/// them, so there a missing model is a failure.
pub fn models() -> Option<PathBuf> {
    let dir = std::env::var_os("QUOTH_MODELS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("models"));
    if quoth::index::embed::ModelPaths::locate(&dir).is_ok()
        && dir.join("all-MiniLM-L6-v2.onnx").exists()
    {
        return Some(dir);
    }
    if std::env::var_os("QUOTH_REQUIRE_SHARED").is_some() {
        panic!("the embedding model is required (QUOTH_REQUIRE_SHARED is set): run models/fetch");
    }
    eprintln!("SKIP: the embedding model is not fetched; run models/fetch");
    None
}

/// Runs every pending embedding job.
pub fn embed_all(engine: &mut Engine) -> quoth::engine::EmbedReport {
    let stop = std::sync::atomic::AtomicBool::new(false);
    engine
        .embed_pending(&stop, &mut |_| {})
        .expect("embedding runs")
}

pub fn demo_mailbox() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/demo-mailbox")
}

pub fn ingest(engine: &mut Engine, paths: &[PathBuf]) -> IngestReport {
    engine.ingest(paths, &mut |_| {}).expect("ingest runs")
}

pub fn open(dir: &Path) -> Engine {
    Engine::open(dir).expect("engine opens")
}
