//! Flags written back to Maildir files: read and flagged rename the file with the
//! right `:2,` letters (out of `new/` into `cur/`), on every copy of the email; the
//! store, the thread list and a later ingest agree with the files, also when another
//! program (or a crash between a rename and its record) renamed a file first.

#[path = "../common/mod.rs"]
mod common;

mod maildir_files;
mod muted_threads;
mod queries;

use quoth::engine::Engine;
use quoth::mail::model::MessageKey;
use std::path::{Path, PathBuf};

fn maildir(root: &Path, folder: &str) -> PathBuf {
    let dir = root.join(folder);
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(dir.join(sub)).expect("maildir");
    }
    dir
}

fn mail(id: &str, subject: &str, body: &str, extra: &str) -> String {
    format!(
        "From: Lena Vos <lena@example.net>\r\nTo: Omar Haddad <omar@example.net>\r\n\
         Subject: {subject}\r\nMessage-ID: <{id}>\r\nDate: Thu, 8 Feb 2024 10:00:00 +0000\r\n\
         {extra}\r\n{body}\r\n"
    )
}

fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["cur", "new"] {
        for e in std::fs::read_dir(dir.join(sub)).expect("read dir") {
            let name = e.expect("entry").file_name().to_string_lossy().into_owned();
            out.push(format!("{sub}/{name}"));
        }
    }
    out.sort();
    out
}

fn key_of(engine: &Engine, id: &str) -> MessageKey {
    engine
        .store()
        .messages()
        .filter_map(Result::ok)
        .find(|m| m.message_id.as_deref() == Some(id))
        .map(|m| m.key)
        .expect("stored")
}
