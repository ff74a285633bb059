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
use std::sync::{Arc, MutexGuard};
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
            watchers(&shared)
                .listeners
                .retain(|l| l.send(report.clone()).is_ok());
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

/// Who hears the watch loop's reports, and the leases on a loop leases started.
#[derive(Default)]
pub(super) struct Watchers {
    listeners: Vec<mpsc::UnboundedSender<SyncEvent>>,
    /// Leases held on a loop that a lease started: it ends with the last of them.
    leases: usize,
}

fn watchers(shared: &Shared) -> MutexGuard<'_, Watchers> {
    shared.watchers.lock().unwrap_or_else(|p| p.into_inner())
}

/// A client's hold on the watch loop: its reports as they come, until dropped.
/// A loop a lease started ends with its last lease; a loop the front end of the
/// handle started (its own accounts) runs on.
pub struct WatchLease {
    /// The loop's reports from the moment the lease was taken.
    pub reports: mpsc::UnboundedReceiver<SyncEvent>,
    /// Whether this lease started the loop (false: it was watching already).
    pub started: bool,
    shared: Arc<Shared>,
    holds_loop: bool,
}

impl Drop for WatchLease {
    fn drop(&mut self) {
        if !self.holds_loop {
            return;
        }
        let mut w = watchers(&self.shared);
        w.leases = w.leases.saturating_sub(1);
        if w.leases == 0 {
            drop(w);
            self.shared.imap_commands_close();
        }
    }
}

/// Watches `accounts` for a client until its lease is dropped; joins the loop that
/// runs already (whose accounts are then the ones it watches).
pub(super) fn lease(
    shared: &Arc<Shared>,
    runtime: &tokio::runtime::Handle,
    accounts: Vec<AccountConfig>,
    opts: WatchOptions,
) -> WatchLease {
    let (tx, reports) = mpsc::unbounded_channel();
    // Under the lock: two leases taken at once start one loop.
    let mut w = watchers(shared);
    let running = shared.imap_commands().is_some();
    w.listeners.push(tx);
    // A loop that runs with no lease on it is the front end's own.
    let holds_loop = !running || w.leases > 0;
    if holds_loop {
        w.leases += 1;
    }
    if !running {
        start(shared, runtime, accounts, opts);
    }
    drop(w);
    WatchLease {
        reports,
        started: !running,
        shared: shared.clone(),
        holds_loop,
    }
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
