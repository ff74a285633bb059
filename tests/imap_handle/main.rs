//! IMAP through the engine handle the terminal UI opens, against a real Dovecot on
//! loopback: the first sync at start, new mail pushed by IDLE as a `NewMail` event and
//! then found by a search through the handle, the sync request reaching every
//! account, a refused login reported as an error event while local mail stays
//! searchable, searches answered while a large first sync runs, and a sync asked for
//! during an ingest run after it rather than refused. Times (APPEND to
//! searchable, search latency during a sync) are printed, never asserted.

#[path = "../common/mod.rs"]
mod common;
#[path = "../imap/mod.rs"]
mod imap;

mod server_actions;
mod syncing;

use imap::{append_all, Dovecot};
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::engine::handle::{EngineEvent, EngineHandle, EngineRequest, HandleOptions, RequestId};
use quoth::engine::{Engine, SearchHit};
use quoth::source::imap::load_accounts;
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const ACCOUNT: &str = "test";

/// The handle as `quoth` (no subcommand) opens it: a two-worker runtime, the engine
/// on the data dir, the accounts of the config file.
struct Ui {
    rt: tokio::runtime::Runtime,
    handle: Option<EngineHandle>,
    events: mpsc::Receiver<EngineEvent>,
    next_req: RequestId,
    /// Every event seen, for failure messages.
    seen: Vec<String>,
}

impl Ui {
    fn open(data: &Path, config: &Path) -> Ui {
        let accounts = load_accounts(config).expect("the config file loads");
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let engine = Engine::open(data).expect("engine opens");
        let (handle, events) = EngineHandle::start_with(
            engine,
            Box::new(ExtractiveAnswerer),
            rt.handle(),
            HandleOptions {
                accounts,
                ..HandleOptions::default()
            },
        );
        Ui {
            rt,
            handle: Some(handle),
            events,
            next_req: 1,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, request: EngineRequest) {
        let sent = self.handle.as_ref().is_some_and(|h| h.send(request));
        assert!(sent, "the engine takes requests");
    }

    /// The next event that `pick` accepts, within `secs`; other events are kept in
    /// `seen` only.
    fn wait<T>(
        &mut self,
        what: &str,
        secs: u64,
        mut pick: impl FnMut(&EngineEvent) -> Option<T>,
    ) -> T {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let next = self
                .rt
                .block_on(async { tokio::time::timeout(left, self.events.recv()).await });
            let event = match next {
                Ok(Some(e)) => e,
                Ok(None) => panic!("the engine stopped while waiting for {what}"),
                Err(_) => panic!("no {what} in {secs} s; events: {:#?}", self.seen),
            };
            self.seen.push(summary(&event));
            if let Some(t) = pick(&event) {
                return t;
            }
        }
    }

    fn search(&mut self, query: &str) -> Vec<SearchHit> {
        let req = self.next_req;
        self.next_req += 1;
        self.send(EngineRequest::Search {
            req,
            query: query.into(),
            limit: quoth::engine::handle::SEARCH_LIMIT,
            order: Default::default(),
        });
        self.wait(&format!("results of '{query}'"), 30, |e| match e {
            EngineEvent::SearchResults { req: r, hits, .. } if *r == req => Some(hits.clone()),
            EngineEvent::Error {
                req: Some(r),
                message,
            } if *r == req => {
                panic!("search '{query}' failed: {message}")
            }
            _ => None,
        })
    }

    fn thread_subjects(&mut self) -> Vec<String> {
        self.send(EngineRequest::Threads);
        let mut subjects = Vec::new();
        self.wait("the thread list", 30, |e| match e {
            EngineEvent::ThreadList {
                threads, complete, ..
            } => {
                subjects.extend(threads.iter().map(|t| t.subject.clone()));
                complete.then_some(())
            }
            _ => None,
        });
        subjects
    }

    /// Every error message seen so far.
    fn errors(&self) -> Vec<&String> {
        self.seen
            .iter()
            .filter(|s| s.starts_with("error"))
            .collect()
    }
}

impl Drop for Ui {
    fn drop(&mut self) {
        // Dropping the handle ends the watch loop; blocking work still running is not
        // waited for.
        self.handle.take();
        let rt = std::mem::replace(
            &mut self.rt,
            tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("runtime"),
        );
        rt.shutdown_timeout(Duration::from_secs(2));
    }
}

/// One line per event: enough to see what happened, without whole hit lists.
fn summary(e: &EngineEvent) -> String {
    match e {
        EngineEvent::Error { req, message } => format!("error {req:?}: {message}"),
        EngineEvent::SearchResults { req, hits, .. } => {
            format!("results {req}: {} hits", hits.len())
        }
        EngineEvent::ThreadList { threads, .. } => format!("thread list: {}", threads.len()),
        other => format!("{other:?}"),
    }
}

fn message(i: usize, word: &str, date: &str) -> Vec<u8> {
    format!(
        "From: Tess Ter <tess@example.com>\r\nTo: alice@example.com\r\n\
         Subject: {word} sighting {i}\r\nMessage-ID: <{word}-{i}@example.com>\r\n\
         Date: {date}\r\n\r\n\
         A {word} was seen near pen {i} this morning.\r\n"
    )
    .into_bytes()
}

fn append(server: &Dovecot, folder: &str, msgs: &[Vec<u8>]) -> Instant {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut s = server.session().await;
        append_all(&mut s, folder, msgs).await;
        let appended = Instant::now();
        s.logout().await;
        appended
    })
}
