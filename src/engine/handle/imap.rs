//! IMAP accounts while a front end is open: the watch loop of `quoth sync --watch`
//! runs on the handle's runtime over the shared engine, and what it reports becomes
//! engine events.
//!
//! The loop's IDLE tasks only signal. A sync waits on the server holding nothing,
//! parses fetched mail holding nothing, and takes the engine's write lock only to
//! store a parsed batch and commit the search index, after the reads that wait.

use super::work::embed_new_mail;
use super::{EngineEvent, Shared};
use crate::engine::{watch_accounts, Engine, EngineAccess, SyncEvent, WatchOptions};
use crate::source::imap::AccountConfig;
use crate::store::Store;
use std::sync::Arc;
use tokio::runtime::RuntimeFlavor;
use tokio::sync::mpsc;

/// The engine as the handle's sync borrows it.
struct SharedEngine(Arc<Shared>);

impl EngineAccess for SharedEngine {
    fn store(&self) -> &Store {
        &self.0.store
    }

    fn compute<T>(&mut self, f: impl FnOnce(&Store) -> T) -> T {
        let store = &self.0.store;
        blocking(|| f(store))
    }

    fn write<T>(&mut self, f: impl FnOnce(&mut Engine) -> T) -> T {
        let shared = &self.0;
        blocking(|| f(&mut shared.write_after_reads()))
    }
}

/// Blocking work inside a task: on a multi-thread runtime the worker first hands its
/// other tasks to another thread; a current-thread runtime has no other thread.
fn blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(h) if h.runtime_flavor() == RuntimeFlavor::MultiThread => tokio::task::block_in_place(f),
        _ => f(),
    }
}

/// Starts the watch loop over `accounts` and the task that turns its reports into
/// engine events.
pub(super) fn start(
    shared: &Arc<Shared>,
    runtime: &tokio::runtime::Handle,
    accounts: Vec<AccountConfig>,
    opts: WatchOptions,
) {
    let (commands, command_rx) = mpsc::unbounded_channel();
    *shared.imap.lock().unwrap_or_else(|p| p.into_inner()) = Some(commands);
    let (reports, mut report_rx) = mpsc::unbounded_channel::<SyncEvent>();
    let mut access = SharedEngine(shared.clone());
    runtime.spawn(async move {
        let mut on_event = move |e: &SyncEvent| {
            let _ = reports.send(e.clone());
        };
        watch_accounts(&mut access, &accounts, &opts, command_rx, &mut on_event).await;
    });
    let shared = shared.clone();
    runtime.spawn(async move {
        while let Some(report) = report_rx.recv().await {
            let new_mail = matches!(report, SyncEvent::NewMail { .. });
            if !shared.front_ends.emit_async(engine_event(report)).await {
                return;
            }
            if new_mail {
                let shared = shared.clone();
                tokio::task::spawn_blocking(move || embed_new_mail(&shared));
            }
        }
    });
}

fn engine_event(report: SyncEvent) -> EngineEvent {
    match report {
        SyncEvent::NewMail {
            account,
            folder,
            count,
        } => EngineEvent::NewMail {
            account,
            folder,
            count,
        },
        SyncEvent::Idling { account, folder } => EngineEvent::Watching { account, folder },
        SyncEvent::Synced {
            account,
            added,
            seconds,
        } => EngineEvent::Synced {
            account,
            added,
            seconds,
        },
        // The message names the account already.
        SyncEvent::Error {
            message,
            retry_in_seconds,
            ..
        } => EngineEvent::Error {
            req: None,
            message: match retry_in_seconds {
                Some(s) => format!("{message} (retrying in {s:.0} s)"),
                None => message,
            },
        },
    }
}
