//! One folder's sync: expunged UIDs released, changed flags and keywords read, new
//! UIDs fetched in batches, and the folder's mod-sequence advanced last.

use super::batch::{fetch_batch, Folder};
use super::{FolderReport, SyncOptions};
use crate::engine::sync::access::EngineAccess;
use crate::engine::sync::keyword_sync::ServerKeywords;
use crate::engine::{Engine, Result};
use crate::mail::model::MessageKey;
use crate::source::imap::{AccountConfig, FlagsOf, ImapSession};
use crate::store::sync_state::{FolderCursor, SyncState, UidEntry};
use std::collections::BTreeMap;

pub(super) async fn sync_folder<A: EngineAccess>(
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
    pub(super) fn apply_flags(
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
}
