//! Push: one IDLE connection per account tells the engine when a folder changed,
//! and the engine syncs that folder and reports new mail.
//!
//! The IDLE tasks only signal: they never touch the store, so the engine stays the
//! single writer and syncs one thing at a time on its own connection. An IDLE task
//! reconnects with exponential backoff after any failure and re-IDLEs every 29
//! minutes (RFC 2177: servers may drop a client idle for 30). A full sync of every
//! folder also runs now and then, since IDLE watches one folder per connection.

use super::sync::SyncOptions;
use super::{Engine, Result};
use crate::source::imap::{connect, AccountConfig, IdleOutcome, ImapError};
use serde::Serialize;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

#[derive(Debug, Clone)]
pub struct WatchOptions {
    pub sync: SyncOptions,
    /// IDLE is ended and restarted this often.
    pub reidle: Duration,
    /// The longest wait between reconnection attempts.
    pub max_backoff: Duration,
    /// Every folder is synced this often (IDLE sees only one).
    pub full_sync_every: Duration,
}

impl Default for WatchOptions {
    fn default() -> Self {
        Self {
            sync: SyncOptions::default(),
            reidle: Duration::from_secs(29 * 60),
            max_backoff: Duration::from_secs(300),
            full_sync_every: Duration::from_secs(15 * 60),
        }
    }
}

/// What the watch loop reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SyncEvent {
    /// New messages were synced from a folder (and are searchable).
    NewMail {
        account: String,
        folder: String,
        count: usize,
    },
    /// The IDLE connection is up and waiting on this folder.
    Idling { account: String, folder: String },
    /// A sync of the account finished (the first one, and each full sync).
    Synced {
        account: String,
        added: usize,
        seconds: f64,
    },
    /// Something failed; the loop goes on (and retries).
    Error {
        account: String,
        message: String,
        retry_in_seconds: Option<f64>,
    },
}

/// What an IDLE task tells the engine.
enum Wake {
    Changed { account: String, folder: String },
    Event(SyncEvent),
}

impl Engine {
    /// Runs the watch loop (blocking) until `stop` turns true or its sender is dropped.
    pub fn watch(
        &mut self,
        accounts: &[AccountConfig],
        opts: &WatchOptions,
        stop: watch::Receiver<bool>,
        on_event: &mut dyn FnMut(&SyncEvent),
    ) -> Result<()> {
        let rt = super::sync::runtime()?;
        rt.block_on(self.watch_async(accounts, opts, stop, on_event))
    }

    /// The watch loop, for a caller that has its own runtime.
    pub async fn watch_async(
        &mut self,
        accounts: &[AccountConfig],
        opts: &WatchOptions,
        mut stop: watch::Receiver<bool>,
        on_event: &mut dyn FnMut(&SyncEvent),
    ) -> Result<()> {
        let (tx, mut rx) = mpsc::channel::<Wake>(64);
        let tasks: Vec<_> = accounts
            .iter()
            .map(|a| tokio::spawn(idle_loop(a.clone(), opts.clone(), tx.clone())))
            .collect();
        drop(tx);
        for a in accounts {
            self.full_sync(a, opts, on_event).await;
        }
        let mut full = tokio::time::interval(opts.full_sync_every);
        full.tick().await;
        loop {
            if *stop.borrow() {
                break;
            }
            tokio::select! {
                wake = rx.recv() => match wake {
                    Some(Wake::Event(e)) => on_event(&e),
                    Some(Wake::Changed { account, folder }) => {
                        // Changes come in bursts (EXISTS, RECENT, FETCH): let the
                        // burst end, then sync once.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        while let Ok(w) = rx.try_recv() {
                            if let Wake::Event(e) = w {
                                on_event(&e);
                            }
                        }
                        if let Some(a) = accounts.iter().find(|a| a.name == account) {
                            self.folder_sync(a, &folder, opts, on_event).await;
                        }
                    }
                    None => break,
                },
                _ = full.tick() => {
                    for a in accounts {
                        self.full_sync(a, opts, on_event).await;
                    }
                }
                changed = stop.changed() => {
                    if changed.is_err() {
                        break;
                    }
                }
            }
        }
        for t in tasks {
            t.abort();
        }
        Ok(())
    }

    async fn full_sync(
        &mut self,
        account: &AccountConfig,
        opts: &WatchOptions,
        on_event: &mut dyn FnMut(&SyncEvent),
    ) {
        match self.sync_account(account, &opts.sync).await {
            Ok(report) => {
                for f in report.folders.iter().filter(|f| f.fetched > 0) {
                    on_event(&SyncEvent::NewMail {
                        account: account.name.clone(),
                        folder: f.folder.clone(),
                        count: f.fetched,
                    });
                }
                on_event(&SyncEvent::Synced {
                    account: account.name.clone(),
                    added: report.added(),
                    seconds: report.seconds,
                });
            }
            Err(e) => on_event(&SyncEvent::Error {
                account: account.name.clone(),
                message: e.to_string(),
                retry_in_seconds: None,
            }),
        }
    }

    async fn folder_sync(
        &mut self,
        account: &AccountConfig,
        folder: &str,
        opts: &WatchOptions,
        on_event: &mut dyn FnMut(&SyncEvent),
    ) {
        let sync = SyncOptions {
            only_folder: Some(folder.to_string()),
            ..opts.sync.clone()
        };
        match self.sync_account(account, &sync).await {
            Ok(report) => {
                for f in report.folders.iter().filter(|f| f.fetched > 0) {
                    on_event(&SyncEvent::NewMail {
                        account: account.name.clone(),
                        folder: f.folder.clone(),
                        count: f.fetched,
                    });
                }
            }
            Err(e) => on_event(&SyncEvent::Error {
                account: account.name.clone(),
                message: e.to_string(),
                retry_in_seconds: None,
            }),
        }
    }
}

/// Keeps one IDLE connection up for an account, forever (the task is aborted).
async fn idle_loop(account: AccountConfig, opts: WatchOptions, tx: mpsc::Sender<Wake>) {
    let mut backoff = Duration::from_secs(1);
    loop {
        let err = idle_session(&account, &opts, &tx, &mut backoff).await;
        let event = SyncEvent::Error {
            account: account.name.clone(),
            message: err.to_string(),
            retry_in_seconds: Some(backoff.as_secs_f64()),
        };
        if tx.send(Wake::Event(event)).await.is_err() {
            return;
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(opts.max_backoff);
    }
}

/// One connection's life: connect, select, IDLE until something fails.
async fn idle_session(
    account: &AccountConfig,
    opts: &WatchOptions,
    tx: &mpsc::Sender<Wake>,
    backoff: &mut Duration,
) -> ImapError {
    let folder = account.idle_folder.clone();
    let mut session = match connect(account, opts.sync.timeout).await {
        Ok(s) => s,
        Err(e) => return e,
    };
    if let Err(e) = session.select(&folder).await {
        return e;
    }
    *backoff = Duration::from_secs(1);
    let idling = SyncEvent::Idling {
        account: account.name.clone(),
        folder: folder.clone(),
    };
    if tx.send(Wake::Event(idling)).await.is_err() {
        return closed(account);
    }
    loop {
        let outcome;
        (session, outcome) = match session.idle(opts.reidle).await {
            Ok(r) => r,
            Err(e) => return e,
        };
        if outcome == IdleOutcome::Changed {
            let wake = Wake::Changed {
                account: account.name.clone(),
                folder: folder.clone(),
            };
            if tx.send(wake).await.is_err() {
                return closed(account);
            }
        }
    }
}

fn closed(account: &AccountConfig) -> ImapError {
    ImapError::Account {
        account: account.name.clone(),
        reason: "the watch loop ended".into(),
    }
}
