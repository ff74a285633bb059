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

use crate::engine::jobs::ingest::{rethread_and_index, AddedDocuments};
use crate::engine::jobs::ingest_batch::{commit_mails, prepare_mails, MailOutcome};
use crate::engine::sync::access::EngineAccess;
use crate::engine::sync::keyword_sync::ServerKeywords;
use crate::engine::sync::server_changes::{send_appends, send_changes};
use crate::engine::{Engine, EngineError, Result};
use crate::mail::identity::content_key;
use crate::mail::model::MessageKey;
use crate::source::imap::{connect, AccountConfig, FlagsOf, ImapError, ImapSession};
use crate::source::{RawMail, SourceLocation};
use crate::store::imap_changes::ImapChanges;
use crate::store::sync_state::{FolderCursor, ImapRef, SyncState, UidEntry};
use crate::store::QuarantineItem;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashSet};
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

async fn sync_folder<A: EngineAccess>(
    access: &mut A,
    session: &mut ImapSession,
    state: &SyncState,
    account: &AccountConfig,
    folder: &str,
    opts: &SyncOptions,
    added: &mut Vec<MessageKey>,
) -> Result<FolderReport> {
    let acct = account.name.as_str();
    let status = session.select(folder).await?;
    let uidvalidity = status.uidvalidity;
    let mut rep = FolderReport {
        folder: folder.to_string(),
        uidvalidity,
        ..FolderReport::default()
    };
    let cursor = match state.cursor(acct, folder)? {
        Some(c) if c.uidvalidity == uidvalidity => c,
        stale => {
            if stale.is_some() {
                // Every UID of the old UIDVALIDITY is meaningless now.
                let local = state.folder_uids(acct, folder)?;
                let uids: Vec<u32> = local.keys().copied().collect();
                rep.removed += access.write(|e| e.release(state, acct, folder, &uids, &local))?;
                rep.resynced = true;
            }
            state.reset(acct, folder, uidvalidity)?;
            access.store().flush()?;
            FolderCursor {
                uidvalidity,
                last_uid: 0,
                highest_modseq: None,
            }
        }
    };
    let mut local = state.folder_uids(acct, folder)?;
    let server = session.all_uids(folder).await?;

    let gone: Vec<u32> = local
        .keys()
        .filter(|u| !server.contains(u))
        .copied()
        .collect();
    if !gone.is_empty() {
        rep.expunged = gone.len();
        rep.removed += access.write(|e| e.release(state, acct, folder, &gone, &local))?;
        for u in &gone {
            local.remove(u);
        }
    }

    let unchanged = session.condstore()
        && cursor.highest_modseq.is_some()
        && cursor.highest_modseq == status.highest_modseq;
    if cursor.last_uid > 0 && !unchanged {
        let since = cursor.highest_modseq.filter(|_| session.condstore());
        let changes = session.flags(folder, cursor.last_uid, since).await?;
        let updates = flag_updates(&local, &changes);
        if !updates.is_empty() {
            rep.flags_changed = updates.len();
            access.write(|e| e.apply_flags(state, acct, folder, &updates))?;
        }
        let keywords: Vec<ServerKeywords> = changes
            .into_iter()
            .filter_map(|c| {
                Some(ServerKeywords {
                    key: local.get(&c.uid)?.key,
                    uid: c.uid,
                    keywords: c.keywords,
                })
            })
            .collect();
        rep.tags_changed += access.write(|e| e.read_server_keywords(acct, folder, &keywords))?;
    }

    // New UIDs, and any below the cursor that the map lacks (a server that
    // skipped them in an earlier FETCH): fetched in UID order.
    let mut todo: Vec<u32> = server
        .iter()
        .filter(|u| **u > cursor.last_uid || !local.contains_key(u))
        .copied()
        .collect();
    todo.sort_unstable();
    let target = Folder {
        acct,
        name: folder,
        uidvalidity,
    };
    for batch in todo.chunks(opts.batch.max(1)) {
        fetch_batch(access, session, state, &target, batch, &mut rep, added).await?;
    }

    // The mod-sequence moves last: flags and new messages up to it are stored.
    if let Some(m) = status.highest_modseq {
        state.advance(acct, folder, uidvalidity, 0, Some(m))?;
        access.store().flush()?;
    }
    Ok(rep)
}

/// The folder a batch comes from.
struct Folder<'a> {
    acct: &'a str,
    name: &'a str,
    uidvalidity: u32,
}

/// Fetches a batch of UIDs and stores it. The network and the parsing run without
/// the engine; only storing the parsed batch and committing the search index borrow
/// it for writing.
async fn fetch_batch<A: EngineAccess>(
    access: &mut A,
    session: &mut ImapSession,
    state: &SyncState,
    folder: &Folder<'_>,
    batch: &[u32],
    rep: &mut FolderReport,
    added: &mut Vec<MessageKey>,
) -> Result<()> {
    let Folder {
        acct,
        name,
        uidvalidity,
    } = *folder;
    let fetched = session.fetch_messages(name, batch).await?;
    rep.fetched += fetched.len();
    let shown_folder = format!("{acct}/{name}");
    let location = |uid| SourceLocation::Imap {
        account: acct.to_string(),
        folder: name.to_string(),
        uidvalidity,
        uid,
    };
    let mut mails = Vec::new();
    let mut meta = Vec::new();
    let mut entries = Vec::new();
    let changes = ImapChanges::open(access.store().db())?;
    for m in fetched {
        let owed = match &m.raw {
            Some(raw) => {
                let key = content_key(raw);
                changes.take_owed_expunge(&key, acct)?.then_some(key)
            }
            None => None,
        };
        match (m.raw, owed) {
            (Some(_), Some(key)) => {
                // Emptied from the trash in Quoth before any sync saw it here: it
                // is expunged, not read back in.
                let at = ImapRef {
                    account: acct.to_string(),
                    folder: name.to_string(),
                    uid: m.uid,
                };
                changes.queue_flag(&at, 'T', true)?;
                rep.expunge_owed += 1;
                entries.push((
                    m.uid,
                    UidEntry {
                        key,
                        flags: m.flags,
                    },
                ));
            }
            (Some(raw), None) => {
                meta.push((m.uid, m.flags.clone(), m.keywords));
                mails.push(RawMail {
                    raw,
                    location: location(m.uid),
                    folder: shown_folder.clone(),
                    flags: m.flags,
                });
            }
            (None, _) => {
                // A FETCH answer without the body: keep a trace, like a bad message.
                access.store().quarantine(&QuarantineItem {
                    location: location(m.uid),
                    folder: shown_folder.clone(),
                    reason: "the server sent no message body".into(),
                    raw: Vec::new(),
                    at: chrono::Utc::now().timestamp(),
                })?;
                rep.quarantined += 1;
                let key = content_key(&[]);
                entries.push((
                    m.uid,
                    UidEntry {
                        key,
                        flags: m.flags,
                    },
                ));
            }
        }
    }
    state.set_rethread_owed(true)?;
    let prepared = access.compute(|store| prepare_mails(store, mails));
    // Messages durable and searchable, then the UIDs that point at them, then the
    // cursor over them.
    let outcomes = access.write(|e| -> Result<Vec<MailOutcome>> {
        let outcomes = commit_mails(e, prepared)?;
        e.store.flush()?;
        e.retrieval.lexical.commit()?;
        Ok(outcomes)
    })?;
    let mut keywords = Vec::new();
    for ((uid, flags, found), outcome) in meta.into_iter().zip(&outcomes) {
        if !matches!(outcome, MailOutcome::Quarantined(_)) {
            keywords.push(ServerKeywords {
                uid,
                key: outcome.key(),
                keywords: found,
            });
        }
        match outcome {
            MailOutcome::Added(key) => {
                rep.added += 1;
                added.push(*key);
            }
            MailOutcome::Known(_) => rep.known += 1,
            MailOutcome::Quarantined(_) => rep.quarantined += 1,
        }
        entries.push((
            uid,
            UidEntry {
                key: outcome.key(),
                flags,
            },
        ));
    }
    state.map_uids(acct, name, &entries)?;
    // The trash emptied in Quoth while this batch was read (after the check above,
    // before its UIDs were mapped) found none of them to mark, and a move made in
    // Quoth before these UIDs were known had none to go by: their debts are taken here.
    for (uid, entry) in &entries {
        if changes.take_owed_expunge(&entry.key, acct)? {
            let at = ImapRef {
                account: acct.to_string(),
                folder: name.to_string(),
                uid: *uid,
            };
            changes.queue_flag(&at, 'T', true)?;
            rep.expunge_owed += 1;
        }
        if let Some(to) = changes.take_owed_move(&entry.key, acct)? {
            if to != name {
                let at = ImapRef {
                    account: acct.to_string(),
                    folder: name.to_string(),
                    uid: *uid,
                };
                changes.queue_move(&at, Some(&to))?;
                rep.moves_owed += 1;
            }
        }
    }
    rep.tags_changed += access.write(|e| e.read_server_keywords(acct, name, &keywords))?;
    access.store().flush()?;
    if let Some(&last) = batch.iter().max() {
        state.advance(acct, name, uidvalidity, last, None)?;
        access.store().flush()?;
    }
    Ok(())
}

/// The UID entries whose flags the server reports changed.
fn flag_updates(local: &BTreeMap<u32, UidEntry>, changes: &[FlagsOf]) -> Vec<(u32, UidEntry)> {
    changes
        .iter()
        .filter_map(|c| {
            let e = local.get(&c.uid)?;
            (e.flags != c.flags).then(|| {
                (
                    c.uid,
                    UidEntry {
                        key: e.key,
                        flags: c.flags.clone(),
                    },
                )
            })
        })
        .collect()
}

impl Engine {
    /// Records new flags of known UIDs, on the UID entries and on the messages.
    fn apply_flags(
        &mut self,
        state: &SyncState,
        acct: &str,
        folder: &str,
        updates: &[(u32, UidEntry)],
    ) -> Result<()> {
        state.set_rethread_owed(true)?;
        for (_, e) in updates {
            self.store.set_flags(&e.key, &e.flags)?;
        }
        state.map_uids(acct, folder, updates)?;
        self.store.flush()?;
        Ok(())
    }

    /// Lets go of UIDs of a folder: a message none of whose other sources (UIDs of
    /// other folders, local files) holds it is removed; one still held elsewhere is
    /// pointed at a remaining copy. Returns how many messages were removed.
    fn release(
        &mut self,
        state: &SyncState,
        acct: &str,
        folder: &str,
        uids: &[u32],
        local: &BTreeMap<u32, UidEntry>,
    ) -> Result<usize> {
        if uids.is_empty() {
            return Ok(0);
        }
        let releasing: HashSet<ImapRef> = uids
            .iter()
            .map(|&uid| ImapRef {
                account: acct.to_string(),
                folder: folder.to_string(),
                uid,
            })
            .collect();
        let candidates: BTreeSet<MessageKey> = uids
            .iter()
            .filter_map(|u| local.get(u))
            .map(|e| e.key)
            .collect();
        let held_locally = self.held_by_local_sources(&candidates)?;
        let mut remove = Vec::new();
        for key in &candidates {
            let others: Vec<ImapRef> = state
                .refs_of(key)?
                .into_iter()
                .filter(|r| !releasing.contains(r))
                .collect();
            if others.is_empty() && !held_locally.contains(key) {
                remove.push(*key);
            } else if let Some(other) = others.first() {
                self.move_location_if_released(state, key, acct, folder, &releasing, other)?;
            }
        }
        let removed = self.remove_messages(&remove)?.removed;
        state.unmap_uids(acct, folder, uids)?;
        self.store.flush()?;
        Ok(removed)
    }

    /// Keys among `candidates` that a local Maildir, mbox or .eml file holds.
    fn held_by_local_sources(
        &self,
        candidates: &BTreeSet<MessageKey>,
    ) -> Result<HashSet<MessageKey>> {
        let mut held = HashSet::new();
        if candidates.is_empty() {
            return Ok(held);
        }
        for item in self.store.source_cursors() {
            let (_, cursor) = item?;
            held.extend(cursor.messages.iter().filter(|k| candidates.contains(k)));
        }
        Ok(held)
    }

    fn move_location_if_released(
        &mut self,
        state: &SyncState,
        key: &MessageKey,
        acct: &str,
        folder: &str,
        releasing: &HashSet<ImapRef>,
        other: &ImapRef,
    ) -> Result<()> {
        let Some(msg) = self.store.message(key)? else {
            return Ok(());
        };
        let SourceLocation::Imap {
            account: a,
            folder: f,
            uid,
            ..
        } = &msg.location
        else {
            return Ok(());
        };
        let here = ImapRef {
            account: acct.to_string(),
            folder: folder.to_string(),
            uid: *uid,
        };
        if a != acct || f != folder || !releasing.contains(&here) {
            return Ok(());
        }
        let (Some(cursor), Some(entry)) = (
            state.cursor(&other.account, &other.folder)?,
            state.entry(&other.account, &other.folder, other.uid)?,
        ) else {
            return Ok(());
        };
        let location = SourceLocation::Imap {
            account: other.account.clone(),
            folder: other.folder.clone(),
            uidvalidity: cursor.uidvalidity,
            uid: other.uid,
        };
        let shown = format!("{}/{}", other.account, other.folder);
        self.store.relocate(key, location, &shown, &entry.flags)?;
        Ok(())
    }
}
