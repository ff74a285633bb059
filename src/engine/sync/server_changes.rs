//! Changes made in Quoth sent to an IMAP server at the start of a sync: flags,
//! keywords and moves (`imap_pending`), expunges of an emptied trash, and messages to
//! append (sent copies and drafts, `imap_appends`). The folders they touch are
//! synced next, move targets first, so a message is never dropped on the way.

use crate::engine::Result;
use crate::source::imap::{ImapError, ImapSession};
use crate::store::imap_appends::{AppendTo, ImapAppends};
use crate::store::imap_changes::{ImapChanges, PendingChange};
use crate::store::sync_state::{ImapRef, SyncState};
use std::collections::{BTreeMap, BTreeSet};

use crate::engine::sync::AccountReport;

/// The folders that changes sent to the server touched.
#[derive(Debug, Default)]
pub(in crate::engine) struct Touched {
    /// Folders mail was moved to.
    pub(in crate::engine) targets: BTreeSet<String>,
    /// Folders changes were sent for.
    pub(in crate::engine) sources: BTreeSet<String>,
}

impl Touched {
    /// The folders to sync: move targets, then `also`, then the sources.
    pub(in crate::engine) fn in_order(&self, also: Option<&String>) -> Vec<String> {
        let mut out: Vec<String> = self.targets.iter().cloned().collect();
        for f in also.into_iter().chain(&self.sources) {
            if !out.contains(f) {
                out.push(f.clone());
            }
        }
        out
    }
}

/// Sends the changes made in Quoth (flags, moves) to the server, folder by folder,
/// clearing each once the server has it. A change the server refuses is dropped
/// and reported; a network failure leaves the rest for the next sync.
pub(in crate::engine) async fn send_changes(
    store: &crate::store::Store,
    session: &mut ImapSession,
    state: &SyncState,
    acct: &str,
    report: &mut AccountReport,
) -> Result<Touched> {
    let changes = ImapChanges::open(store.db())?;
    let mut by_folder: BTreeMap<String, Vec<(ImapRef, PendingChange)>> = BTreeMap::new();
    for (at, change) in changes.of_account(acct)? {
        by_folder
            .entry(at.folder.clone())
            .or_default()
            .push((at, change));
    }
    let mut touched = Touched::default();
    let mut made: BTreeSet<String> = BTreeSet::new();
    for (folder, items) in by_folder {
        let refuse = |report: &mut AccountReport, why: String| {
            report.changes_refused.push((folder.clone(), why));
        };
        let status = match session.select(&folder).await {
            Ok(s) => Some(s),
            Err(ImapError::Protocol {
                reason,
                transient: false,
                ..
            }) => {
                refuse(report, reason);
                None
            }
            Err(e) => return Err(e.into()),
        };
        // UIDs of another UIDVALIDITY name other messages: their changes are void.
        let valid = status.is_some_and(|st| {
            state
                .cursor(acct, &folder)
                .ok()
                .flatten()
                .is_some_and(|c| c.uidvalidity == st.uidvalidity)
        });
        if !valid {
            for (at, change) in &items {
                changes.sent(at, change)?;
            }
            if status.is_some() {
                refuse(report, "its UIDVALIDITY changed".into());
            }
            continue;
        }
        touched.sources.insert(folder.clone());
        let keywords_kept = status.is_some_and(|st| st.keywords);
        if !keywords_kept && items.iter().any(|(_, c)| has_keywords(c)) {
            refuse(
                report,
                "the folder keeps no keywords of a client's own: its tags stay in Quoth".into(),
            );
        }
        // Mail to be removed for good (an emptied trash): marked `\Deleted` with
        // the other changes, then expunged together.
        let mut expunge = Vec::new();
        for (at, change) in items {
            if change.add.contains(DELETED) {
                expunge.push(at.uid);
            }
            let sent = send_change(session, &at, &change, keywords_kept, &mut made).await;
            let done = match sent {
                Ok(()) => {
                    report.changes_sent += 1;
                    true
                }
                Err(ImapError::Protocol {
                    reason,
                    transient: false,
                    ..
                }) => {
                    refuse(report, format!("UID {}: {reason}", at.uid));
                    false
                }
                Err(e) => return Err(e.into()),
            };
            if let Some(to) = &change.move_to {
                touched.targets.insert(to.clone());
            }
            let moved_again = changes.sent(&at, &change)?;
            // Moved again in Quoth while this move was on its way: the UID is gone,
            // so the next move waits for the sync that finds the message.
            // A refused move left it here: the later move goes by this UID still.
            match (done, moved_again) {
                (true, Some(again)) => {
                    if let Some(entry) = state.entry(acct, &folder, at.uid)? {
                        changes.owe_move(&entry.key, acct, &again)?;
                    }
                }
                (false, Some(again)) => changes.queue_move(&at, Some(&again))?,
                (_, None) => {}
            }
            store.flush()?;
        }
        let whole_folder = crate::engine::mailbox::expunge::is_trash(&folder);
        match session.expunge_uids(&expunge, whole_folder).await {
            Ok(()) => {}
            Err(ImapError::Protocol {
                reason,
                transient: false,
                ..
            }) => refuse(report, format!("expunge: {reason}")),
            Err(e) => return Err(e.into()),
        }
    }
    Ok(touched)
}

/// The Maildir letter of IMAP's `\Deleted`.
const DELETED: char = 'T';

/// Appends the messages written in Quoth for the server's folders (sent copies,
/// postponed drafts), each cleared once the server has it; the folders they went
/// to are synced next, which reads them into the store.
pub(in crate::engine) async fn send_appends(
    store: &crate::store::Store,
    session: &mut ImapSession,
    acct: &str,
    report: &mut AccountReport,
    touched: &mut Touched,
) -> Result<()> {
    let appends = ImapAppends::open(store.db())?;
    let waiting = appends.of_account(acct)?;
    if waiting.is_empty() {
        return Ok(());
    }
    let listed = session.folders().await?;
    for (key, append) in waiting {
        let (names, made) = match append.to {
            AppendTo::Sent => (crate::engine::mailbox::compose::SENT_NAMES, "Sent"),
            AppendTo::Drafts => (crate::engine::mailbox::compose::DRAFT_NAMES, "Drafts"),
        };
        let folder = crate::engine::mailbox::moves::server_folder(&listed, names, made);
        let sent = async {
            if !listed.contains(&folder) {
                session.create_folder(&folder).await?;
            }
            session
                .append(&folder, Some(&append.flags), &append.raw)
                .await
        }
        .await;
        match sent {
            Ok(()) => report.changes_sent += 1,
            Err(ImapError::Protocol {
                reason,
                transient: false,
                ..
            }) => report
                .changes_refused
                .push((folder.clone(), format!("APPEND: {reason}"))),
            Err(e) => return Err(e.into()),
        }
        appends.done(&key)?;
        store.flush()?;
        touched.targets.insert(folder);
    }
    Ok(())
}

fn has_keywords(change: &PendingChange) -> bool {
    !change.keywords_add.is_empty() || !change.keywords_remove.is_empty()
}

/// Sends one UID's change: flags, keywords (where the folder keeps them), then
/// the move.
async fn send_change(
    session: &mut ImapSession,
    at: &ImapRef,
    change: &PendingChange,
    keywords_kept: bool,
    made: &mut BTreeSet<String>,
) -> std::result::Result<(), ImapError> {
    session
        .store_flags(at.uid, &change.add, &change.remove)
        .await?;
    if keywords_kept {
        session
            .store_keywords(at.uid, &change.keywords_add, &change.keywords_remove)
            .await?;
    }
    if let Some(to) = &change.move_to {
        if !made.contains(to) {
            session.create_folder(to).await?;
            made.insert(to.clone());
        }
        session.move_uid(at.uid, to).await?;
    }
    Ok(())
}
