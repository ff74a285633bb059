//! IMAP sync: brings each folder of an account into the store through the ingest
//! pipeline, and keeps it matching the server.
//!
//! Per folder: SELECT (with CONDSTORE when offered) gives UIDVALIDITY and
//! HIGHESTMODSEQ; UID SEARCH ALL gives the server's UIDs. Local UIDs the server no
//! longer has were expunged; flags of known UIDs are fetched (only those changed
//! since the stored mod-sequence under CONDSTORE); UIDs above the cursor are fetched
//! in batches with BODY.PEEK[] (reading never marks mail \Seen) and stored.
//!
//! Crash safety rests on one order: a batch is stored, flushed and committed to the
//! search index, then its UIDs are mapped, then the cursor advances. A kill anywhere
//! replays at most one batch, which dedups by content key. Removal goes the other
//! way round: messages first, UID entries last, so an interrupted removal is redone.
//! A UIDVALIDITY change releases every UID of the folder before the cursor restarts.

mod batch;
mod folder;
mod release;

use crate::engine::jobs::ingest::{rethread_and_index, AddedDocuments};
use crate::engine::sync::access::EngineAccess;
use crate::engine::sync::server_changes::{send_appends, send_changes};
use crate::engine::{Engine, EngineError, Result};
use crate::source::imap::{connect, AccountConfig, ImapError};
use crate::store::sync_state::SyncState;
use folder::sync_folder;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct SyncOptions {
    /// Messages fetched and stored per step (and per cursor advance).
    pub batch: usize,
    /// Longest wait for any one server answer.
    pub timeout: Duration,
    /// Extra attempts after a transient error (network, timeout), with backoff.
    pub retries: u32,
    /// Sync only this folder (IDLE reported a change there).
    pub only_folder: Option<String>,
    /// Send the changes made in Quoth and sync only the folders they touched.
    pub changes_only: bool,
}

impl Default for SyncOptions {
    fn default() -> Self {
        Self {
            batch: 200,
            timeout: Duration::from_secs(60),
            retries: 3,
            only_folder: None,
            changes_only: false,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct FolderReport {
    pub folder: String,
    pub uidvalidity: u32,
    /// New UIDs fetched.
    pub fetched: usize,
    pub added: usize,
    /// Fetched but already stored (another folder, local mail, or a replay).
    pub known: usize,
    pub quarantined: usize,
    pub flags_changed: usize,
    /// Messages whose tags changed as keywords were added or removed on the server.
    pub tags_changed: usize,
    pub expunged: usize,
    /// Messages removed from the store (no folder or local file holds them now).
    pub removed: usize,
    /// The folder's UIDVALIDITY changed: its old state was dropped and it was read again.
    pub resynced: bool,
    /// Found here after Quoth had emptied them from the trash: expunged.
    pub expunge_owed: usize,
    /// Found here after Quoth had moved them on again: moved.
    #[serde(default)]
    pub moves_owed: usize,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AccountReport {
    pub account: String,
    pub folders: Vec<FolderReport>,
    /// Folders gone from the server since the last sync.
    pub folders_deleted: Vec<String>,
    /// Folders listed but not selectable this time, with the server's reason.
    pub folders_skipped: Vec<(String, String)>,
    pub attempts: u32,
    pub seconds: f64,
    /// Changes made in Quoth (flags, moves) that the server now has.
    pub changes_sent: usize,
    /// Changes the server refused (the UID is gone, a folder cannot be made), with
    /// its reason: they are dropped, and the next sync shows the server's state.
    pub changes_refused: Vec<(String, String)>,
}

impl AccountReport {
    pub fn added(&self) -> usize {
        self.folders.iter().map(|f| f.added).sum()
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SyncReport {
    pub accounts: Vec<AccountReport>,
    pub seconds: f64,
}

/// A runtime for the blocking entry points (the CLI): one thread, as the engine is
/// a single writer and the work between awaits is CPU-bound ingest.
pub(in crate::engine) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(EngineError::Runtime)
}

impl Engine {
    /// Syncs every given account, one after the other (blocking).
    pub fn sync(&mut self, accounts: &[AccountConfig], opts: &SyncOptions) -> Result<SyncReport> {
        let started = Instant::now();
        let rt = runtime()?;
        let mut report = SyncReport::default();
        for account in accounts {
            report
                .accounts
                .push(rt.block_on(sync_account(self, account, opts))?);
        }
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// Syncs one account into this engine, owned by the caller; see [`sync_account`].
    pub async fn sync_account(
        &mut self,
        account: &AccountConfig,
        opts: &SyncOptions,
    ) -> Result<AccountReport> {
        sync_account(self, account, opts).await
    }
}

/// Syncs one account, retrying transient failures with exponential backoff.
/// Whatever a failed attempt stored stays stored; the next one resumes from it.
/// The engine is borrowed for writing only while fetched mail is stored.
pub async fn sync_account<A: EngineAccess>(
    access: &mut A,
    account: &AccountConfig,
    opts: &SyncOptions,
) -> Result<AccountReport> {
    let started = Instant::now();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut report = AccountReport {
            account: account.name.clone(),
            attempts: attempt,
            ..AccountReport::default()
        };
        match sync_account_once(access, account, opts, &mut report).await {
            Ok(()) => {
                report.seconds = started.elapsed().as_secs_f64();
                return Ok(report);
            }
            Err(EngineError::Imap(e)) if e.is_transient() && attempt <= opts.retries => {
                let wait = Duration::from_secs(1 << (attempt - 1).min(5));
                tokio::time::sleep(wait).await;
            }
            Err(e) => return Err(e),
        }
    }
}

async fn sync_account_once<A: EngineAccess>(
    access: &mut A,
    account: &AccountConfig,
    opts: &SyncOptions,
    report: &mut AccountReport,
) -> Result<()> {
    let state = SyncState::open(access.store().db())?;
    let mut session = connect(account, opts.timeout).await?;
    let acct = account.name.as_str();
    let mut touched = send_changes(access.store(), &mut session, &state, acct, report).await?;
    send_appends(access.store(), &mut session, acct, report, &mut touched).await?;
    // Folders that got mail first: the message is found there before its old UID
    // is let go, so it stays in the store throughout.
    let folders = match &opts.only_folder {
        _ if opts.changes_only => touched.in_order(None),
        Some(f) => touched.in_order(Some(f)),
        None => {
            let listed = session.folders().await?;
            for gone in state.folders(acct)? {
                if !listed.contains(&gone) {
                    access.write(|e| -> Result<()> {
                        let local = state.folder_uids(acct, &gone)?;
                        let uids: Vec<u32> = local.keys().copied().collect();
                        e.release(&state, acct, &gone, &uids, &local)?;
                        state.drop_folder(acct, &gone)?;
                        e.store.flush()?;
                        Ok(())
                    })?;
                    report.folders_deleted.push(gone);
                }
            }
            let mut ordered: Vec<String> = listed
                .iter()
                .filter(|f| touched.targets.contains(*f))
                .cloned()
                .collect();
            ordered.extend(listed.into_iter().filter(|f| !touched.targets.contains(f)));
            ordered
        }
    };
    // Keys stored by this run, indexed as their own threads already: rethreading
    // re-indexes them only if they joined a thread.
    let mut added = Vec::new();
    for folder in &folders {
        let synced = sync_folder(
            access,
            &mut session,
            &state,
            account,
            folder,
            opts,
            &mut added,
        );
        match synced.await {
            Ok(r) => report.folders.push(r),
            // A folder that cannot be selected (deleted since LIST, or not ours to
            // read) is left as it is locally and tried again next time.
            Err(EngineError::Imap(ImapError::Protocol {
                step,
                reason,
                transient: false,
                ..
            })) if step.starts_with("SELECT") => {
                report.folders_skipped.push((folder.clone(), reason));
            }
            Err(e) => return Err(e),
        }
    }
    if !added.is_empty() || access.store().derived_work_owed()? {
        access.write(|e| e.reconcile_derived_work())?;
    }
    // Mail found in the trash after Quoth emptied it is expunged, and mail found in
    // a folder Quoth has moved it on from is moved, now rather than at the next sync.
    if report
        .folders
        .iter()
        .any(|f| f.expunge_owed > 0 || f.moves_owed > 0)
    {
        let gone = send_changes(access.store(), &mut session, &state, acct, report).await?;
        for folder in gone.in_order(None) {
            let synced = sync_folder(
                access,
                &mut session,
                &state,
                account,
                &folder,
                opts,
                &mut added,
            );
            report.folders.push(synced.await?);
        }
    }
    if state.rethread_owed()? {
        access.write(|e| -> Result<()> {
            rethread_and_index(e, &added, AddedDocuments::Indexed, &mut |_| {})?;
            e.store.flush()?;
            state.set_rethread_owed(false)?;
            e.store.flush()?;
            Ok(())
        })?;
    }
    // New mail of muted threads arrives read and archived; the server hears of it at
    // the next sync.
    if !added.is_empty() {
        access.write(|e| e.quiet_muted(&added))?;
    }
    session.logout().await;
    Ok(())
}
