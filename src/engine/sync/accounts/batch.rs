//! One batch of new UIDs fetched and stored: bodies parsed without the engine, then
//! stored and committed, then the UIDs mapped, then the cursor advanced.

use super::FolderReport;
use crate::engine::jobs::ingest_batch::{commit_mails, prepare_mails, MailOutcome};
use crate::engine::sync::access::EngineAccess;
use crate::engine::sync::keyword_sync::ServerKeywords;
use crate::engine::Result;
use crate::mail::identity::content_key;
use crate::mail::model::MessageKey;
use crate::source::imap::ImapSession;
use crate::source::{RawMail, SourceLocation};
use crate::store::imap_changes::ImapChanges;
use crate::store::sync_state::{ImapRef, SyncState, UidEntry};
use crate::store::QuarantineItem;

/// The folder a batch comes from.
pub(super) struct Folder<'a> {
    pub(super) acct: &'a str,
    pub(super) name: &'a str,
    pub(super) uidvalidity: u32,
}

/// Fetches a batch of UIDs and stores it. The network and the parsing run without
/// the engine; only storing the parsed batch and committing the search index borrow
/// it for writing.
pub(super) async fn fetch_batch<A: EngineAccess>(
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
