//! Push: one IDLE connection per account tells the loop when a folder changed, and
//! the loop syncs that folder and reports new mail. The CLI (`quoth sync --watch`)
//! runs the loop over an engine it owns; the engine handle runs the same loop over
//! the engine it shares with the UI (see [`EngineAccess`]).
//!
//! The IDLE tasks only signal: they never touch the store or the engine, so the loop
//! stays the single writer and syncs one thing at a time on its own connection. An IDLE task
//! reconnects with exponential backoff after any failure and re-IDLEs every 29
//! minutes (RFC 2177: servers may drop a client idle for 30). A full sync of every
//! folder also runs now and then, since IDLE watches one folder per connection.

use crate::engine::sync::access::EngineAccess;
use crate::engine::sync::{sync_account, AccountReport, SyncOptions};
use crate::source::imap::{connect, AccountConfig, IdleOutcome, ImapError};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// What a front end asks of a running watch loop.
#[derive(Debug)]
pub enum WatchCommand {
    /// Sync every account now; `done` gets each account's outcome when all are done.
    SyncAll {
        done: Option<oneshot::Sender<Vec<AccountOutcome>>>,
    },
    /// Send the account's changes made in Quoth (flags, moves) to its server and
    /// sync the folders they touched.
    Push { account: String },
}

/// How one account's sync ended: messages added, or the error (also reported as a
/// [`SyncEvent::Error`]).
#[derive(Debug, Clone, PartialEq)]
pub struct AccountOutcome {
    pub account: String,
    pub added: std::result::Result<usize, String>,
}

/// What an IDLE task tells the loop.
enum Wake {
    Changed { account: String, folder: String },
    Event(SyncEvent),
}

/// The watch loop, on the caller's runtime, until the sender of `commands` is
/// dropped: a first sync of every account, then a sync of a folder whenever its IDLE
/// connection reports a change or comes (back) up, every account now and then, and
/// every account whenever [`WatchCommand::SyncAll`] asks. One sync runs at a time;
/// `access` lends the engine for the steps that store mail.
pub async fn watch_accounts<A: EngineAccess>(
    access: &mut A,
    accounts: &[AccountConfig],
    opts: &WatchOptions,
    mut commands: mpsc::UnboundedReceiver<WatchCommand>,
    on_event: &mut (dyn FnMut(&SyncEvent) + Send),
) {
    let (tx, mut rx) = mpsc::channel::<Wake>(64);
    let tasks: Vec<_> = accounts
        .iter()
        .map(|a| tokio::spawn(idle_loop(a.clone(), opts.clone(), tx.clone())))
        .collect();
    drop(tx);
    let mut syncer = Syncer {
        access,
        opts,
        on_event,
    };
    syncer.sync_all(accounts).await;
    let mut full = tokio::time::interval(opts.full_sync_every);
    full.tick().await;
    loop {
        tokio::select! {
            wake = rx.recv() => {
                let Some(wake) = wake else { break };
                let burst = matches!(wake, Wake::Changed { .. });
                let mut due = Vec::new();
                syncer.take(wake, &mut due);
                if burst {
                    // Changes come in bursts (EXISTS, RECENT, FETCH): let the burst
                    // end, then sync once.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    while let Ok(w) = rx.try_recv() {
                        syncer.take(w, &mut due);
                    }
                }
                for (account, folder) in due {
                    if let Some(a) = accounts.iter().find(|a| a.name == account) {
                        syncer.folder_sync(a, &folder).await;
                    }
                }
            }
            command = commands.recv() => {
                let Some(first) = command else { break };
                // Commands that queued up meanwhile are served together, none
                // dropped: each account's changes pushed once, then one full sync
                // for every request of one.
                let (mut pushes, mut waiting, mut sync_all) = (Vec::new(), Vec::new(), false);
                let mut next = Some(first);
                while let Some(command) = next {
                    match command {
                        WatchCommand::SyncAll { done } => {
                            sync_all = true;
                            waiting.extend(done);
                        }
                        WatchCommand::Push { account } => {
                            if !pushes.contains(&account) {
                                pushes.push(account);
                            }
                        }
                    }
                    next = commands.try_recv().ok();
                }
                for name in pushes {
                    if let Some(a) = accounts.iter().find(|a| a.name == name) {
                        syncer.push(a).await;
                    }
                }
                if sync_all {
                    let outcomes = syncer.sync_all(accounts).await;
                    full.reset();
                    for w in waiting {
                        let _ = w.send(outcomes.clone());
                    }
                }
            }
            _ = full.tick() => {
                syncer.sync_all(accounts).await;
            }
        }
    }
    for t in tasks {
        t.abort();
    }
}

/// Runs the loop's syncs and reports what they did.
struct Syncer<'a, A> {
    access: &'a mut A,
    opts: &'a WatchOptions,
    on_event: &'a mut (dyn FnMut(&SyncEvent) + Send),
}

impl<A: EngineAccess> Syncer<'_, A> {
    /// Reports what an IDLE task said, and notes the folder it wants synced.
    fn take(&mut self, wake: Wake, due: &mut Vec<(String, String)>) {
        let folder = match wake {
            Wake::Changed { account, folder } => (account, folder),
            Wake::Event(e) => {
                (self.on_event)(&e);
                // A change while the connection was down (or before the first IDLE)
                // shows no wake: look once the watch is up.
                let SyncEvent::Idling { account, folder } = e else {
                    return;
                };
                (account, folder)
            }
        };
        if !due.contains(&folder) {
            due.push(folder);
        }
    }

    async fn sync_all(&mut self, accounts: &[AccountConfig]) -> Vec<AccountOutcome> {
        let mut outcomes = Vec::with_capacity(accounts.len());
        for a in accounts {
            outcomes.push(self.full_sync(a).await);
        }
        outcomes
    }

    async fn full_sync(&mut self, account: &AccountConfig) -> AccountOutcome {
        let result = sync_account(self.access, account, &self.opts.sync).await;
        let added = match result {
            Ok(report) => {
                self.report_new_mail(account, &report);
                (self.on_event)(&SyncEvent::Synced {
                    account: account.name.clone(),
                    added: report.added(),
                    seconds: report.seconds,
                });
                Ok(report.added())
            }
            Err(e) => {
                let message = e.to_string();
                (self.on_event)(&SyncEvent::Error {
                    account: account.name.clone(),
                    message: message.clone(),
                    retry_in_seconds: None,
                });
                Err(message)
            }
        };
        AccountOutcome {
            account: account.name.clone(),
            added,
        }
    }

    async fn folder_sync(&mut self, account: &AccountConfig, folder: &str) {
        let sync = SyncOptions {
            only_folder: Some(folder.to_string()),
            ..self.opts.sync.clone()
        };
        match sync_account(self.access, account, &sync).await {
            Ok(report) => self.report_new_mail(account, &report),
            Err(e) => (self.on_event)(&SyncEvent::Error {
                account: account.name.clone(),
                message: e.to_string(),
                retry_in_seconds: None,
            }),
        }
    }

    async fn push(&mut self, account: &AccountConfig) {
        let sync = SyncOptions {
            changes_only: true,
            ..self.opts.sync.clone()
        };
        match sync_account(self.access, account, &sync).await {
            Ok(report) => {
                for (folder, why) in &report.changes_refused {
                    (self.on_event)(&SyncEvent::Error {
                        account: account.name.clone(),
                        message: format!("{}/{folder} refused a change: {why}", account.name),
                        retry_in_seconds: None,
                    });
                }
            }
            Err(e) => (self.on_event)(&SyncEvent::Error {
                account: account.name.clone(),
                message: format!("{} (the change is sent at the next sync)", e),
                retry_in_seconds: None,
            }),
        }
    }

    fn report_new_mail(&mut self, account: &AccountConfig, report: &AccountReport) {
        for f in report.folders.iter().filter(|f| f.fetched > 0) {
            (self.on_event)(&SyncEvent::NewMail {
                account: account.name.clone(),
                folder: f.folder.clone(),
                count: f.fetched,
            });
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
