//! Private by default: after an ingest, a question kept in a session and a PDF view,
//! nothing in the data directory, nor the attachment copy made for the viewer, is
//! readable by anyone but its owner, even when Quoth starts under umask 022.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every path under `dir` (itself included) with its permission bits.
fn modes(dir: &Path) -> Vec<(PathBuf, u32)> {
    let mut out = Vec::new();
    let meta = std::fs::symlink_metadata(dir).expect("meta");
    out.push((dir.to_path_buf(), meta.permissions().mode() & 0o777));
    if meta.is_dir() {
        for e in std::fs::read_dir(dir).expect("read dir").flatten() {
            out.extend(modes(&e.path()));
        }
    }
    out
}

fn open_to_others(listing: &[(PathBuf, u32)]) -> Vec<String> {
    listing
        .iter()
        .filter(|(_, m)| m & 0o077 != 0)
        .map(|(p, m)| format!("{:o} {}", m, p.display()))
        .collect()
}

#[test]
fn the_data_dir_and_viewer_copies_are_private() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let data = tmp.path().join("data");
    let demo = common::demo_mailbox();
    let quoth = |args: &str| {
        let script = format!(
            "umask 022; QUOTH_INLINE=1 '{}' --data-dir '{}' {args}",
            env!("CARGO_BIN_EXE_quoth"),
            data.display()
        );
        let out = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .env("QUOTH_CONFIG", tmp.path().join("none.toml"))
            .output()
            .expect("quoth runs");
        assert!(
            out.status.success(),
            "{args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    quoth(&format!("ingest '{}'", demo.display()));
    quoth("ask --session mine 'what is the strike price of the stock option grant?'");
    let listing = modes(&data);
    assert!(
        listing
            .iter()
            .any(|(p, _)| p.ends_with("sessions/mine.json")),
        "the session is kept"
    );
    assert_eq!(open_to_others(&listing), Vec::<String>::new());
    let dirs: Vec<_> = listing
        .iter()
        .filter(|(p, _)| p.is_dir())
        .filter(|(_, m)| *m != 0o700)
        .collect();
    assert!(dirs.is_empty(), "directories not 0700: {dirs:?}");

    // A data dir made readable by others is closed again when it is opened.
    std::fs::set_permissions(&data, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::set_permissions(
        data.join("sessions/mine.json"),
        std::fs::Permissions::from_mode(0o644),
    )
    .expect("chmod");
    quoth("stats");
    assert_eq!(open_to_others(&modes(&data)), Vec::<String>::new());

    // A PDF view: the copy for the viewer is private, and goes away.
    let runtime = tmp.path().join("runtime");
    std::fs::create_dir_all(&runtime).expect("runtime dir");
    std::env::set_var("XDG_RUNTIME_DIR", &runtime);
    let engine = common::open(&data);
    let (key, index) = engine
        .store()
        .messages()
        .filter_map(Result::ok)
        .find_map(|m| {
            m.attachments
                .iter()
                .find(|a| a.mime_type == "application/pdf")
                .map(|a| (m.key, a.index))
        })
        .expect("the demo mailbox has a PDF");
    let copy = engine
        .open_attachment(&key, index, Some(1), "true")
        .expect("the viewer starts");
    assert!(
        copy.starts_with(runtime.join("quoth")),
        "{}",
        copy.display()
    );
    let viewer_listing = modes(&runtime.join("quoth"));
    assert_eq!(open_to_others(&viewer_listing), Vec::<String>::new());
    assert_eq!(
        std::fs::metadata(&copy).expect("copy").permissions().mode() & 0o777,
        0o600
    );
    quoth::engine::mailbox::privacy::remove_viewer_copies();
    assert!(!copy.exists(), "the copy is removed when Quoth ends");

    // Copies left by a process that died are removed at the next start.
    let stale = runtime.join("quoth").join("open-999999999");
    std::fs::create_dir_all(&stale).expect("stale dir");
    std::fs::write(stale.join("left.pdf"), b"%PDF").expect("stale copy");
    drop(engine);
    let _engine = common::open(&data);
    assert!(!stale.exists(), "stale copies are removed at start");
}

/// A second Quoth process on a data directory in use is told so, in plain words.
#[test]
fn a_data_dir_in_use_is_reported_as_such() {
    if !common::program("flock") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let data = tmp.path().join("data");
    drop(common::open(&data));
    // Hold the store's lock the way a running Quoth does.
    let mut holder = Command::new("flock")
        .arg("-x")
        .arg(data.join("store/db"))
        .args(["sleep", "30"])
        .spawn()
        .expect("flock runs");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let out = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .env("QUOTH_INLINE", "1")
        .arg("--data-dir")
        .arg(&data)
        .arg("stats")
        .output()
        .expect("quoth runs");
    let _ = holder.kill();
    let _ = holder.wait();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("another Quoth process has the data directory open"),
        "{stderr}"
    );
    assert_eq!(stderr.matches("error").count(), 1, "said once: {stderr}");
}
