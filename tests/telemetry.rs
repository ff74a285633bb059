//! Nothing leaves the machine, and nothing is written outside the data, config and
//! models directories: ONNX Runtime's telemetry (a device id and an event queue under
//! ~/.cache/Microsoft, events for a Microsoft endpoint) stays off. Both the binary and
//! a program using Quoth as a library embed with HOME set to an empty directory, and
//! find it still empty.

mod common;

use std::path::Path;
use std::process::Command;

fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        out.push(p.display().to_string());
        if p.is_dir() {
            out.extend(files_under(&p));
        }
    }
    out
}

#[test]
fn embedding_writes_nothing_under_home() {
    let Some(models) = common::models() else {
        return;
    };
    let tmp = tempfile::tempdir().expect("temp dir");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    let data = tmp.path().join("data");
    let quoth = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_quoth"))
            .env("QUOTH_INLINE", "1")
            .arg("--data-dir")
            .arg(&data)
            .args(args)
            .env("HOME", &home)
            .env("QUOTH_MODELS_DIR", &models)
            .env("QUOTH_CONFIG", tmp.path().join("none.toml"))
            .env_remove("ORT_DISABLE_TELEMETRY")
            .env_remove("XDG_CACHE_HOME")
            .env_remove("XDG_DATA_HOME")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_RUNTIME_DIR")
            .output()
            .expect("quoth runs");
        assert!(
            out.status.success(),
            "quoth {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let demo = common::demo_mailbox();
    let out = quoth(&["ingest", demo.to_str().expect("path")]);
    let embedded = out
        .lines()
        .find_map(|l| l.strip_prefix("embedding: "))
        .and_then(|l| l.split_once(" texts done"))
        .and_then(|(counts, _)| counts.split_once(" of "))
        .map(|(done, total)| (done.to_string(), total.to_string()));
    assert!(
        embedded.as_ref().is_some_and(|(d, t)| d == t && d != "0"),
        "the texts were embedded: {out}"
    );
    quoth(&["search", "--mode", "semantic", "who is fixing the roof"]);
    quoth(&["ask", "What is the strike price of the stock option grant?"]);
    assert_eq!(
        files_under(&home),
        Vec::<String>::new(),
        "written under HOME"
    );

    // The same through the library, in this process, with HOME moved.
    let lib_home = tmp.path().join("lib-home");
    std::fs::create_dir_all(&lib_home).expect("home");
    std::env::set_var("HOME", &lib_home);
    std::env::remove_var("ORT_DISABLE_TELEMETRY");
    std::env::remove_var("XDG_CACHE_HOME");
    let paths = quoth::index::embed::ModelPaths::in_dir(&models);
    let embedder =
        quoth::index::embed::Embedder::load(&paths, Default::default()).expect("the model loads");
    let vectors = embedder
        .embed(&["the roof leaks over the kitchen"])
        .expect("embeds");
    assert_eq!(vectors[0].len(), 384);
    assert_eq!(
        files_under(&lib_home),
        Vec::<String>::new(),
        "written under HOME"
    );
}
