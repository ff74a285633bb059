//! Mail the user writes, through the handle: drafts made for the editor, then sent,
//! postponed or discarded; the Maildir that gets a sent copy or a draft is read
//! again so the message shows.

use super::work::{background, Work};
use super::{EngineEvent, EngineRequest, Shared};
use std::path::PathBuf;

pub(super) fn serve(shared: &Shared, request: EngineRequest) {
    match request {
        EngineRequest::StartDraft { req, kind, of } => {
            match crate::engine::mailbox::compose::start_draft(
                &shared.store,
                &shared.data_dir,
                &shared.compose,
                kind,
                of.as_ref(),
            ) {
                Ok(draft) => shared.emit(EngineEvent::DraftReady {
                    req,
                    draft: Box::new(draft),
                }),
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::SendDraft {
            req,
            path,
            original,
        } => {
            let original = original.as_ref().map(|(k, kind)| (k, *kind));
            let result = crate::engine::mailbox::compose::send_draft(
                &shared.store,
                &shared.data_dir,
                &shared.compose,
                &path,
                original,
            );
            match result {
                Ok(sent) => {
                    let root = sent.root.clone();
                    if let Some(account) = &sent.to_server {
                        shared.push_to_server(account);
                    }
                    shared.emit(EngineEvent::DraftSent {
                        req,
                        sent: Box::new(sent),
                    });
                    read_again(shared, root);
                }
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::PostponeDraft {
            req,
            path,
            original,
        } => {
            let result = crate::engine::mailbox::compose::postpone_draft(
                &shared.store,
                &shared.data_dir,
                &shared.compose,
                &path,
                original.as_ref(),
            );
            match result {
                Ok(postponed) => {
                    let root = postponed.root.clone();
                    if let Some(account) = &postponed.to_server {
                        shared.push_to_server(account);
                    }
                    shared.emit(EngineEvent::DraftPostponed {
                        req,
                        postponed: Box::new(postponed),
                    });
                    read_again(shared, root);
                }
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::DiscardDraft { req, path } => {
            match crate::engine::mailbox::compose::discard_draft(&shared.data_dir, &path) {
                Ok(()) => shared.emit(EngineEvent::DraftDiscarded { req }),
                Err(e) => shared.error(Some(req), e),
            }
        }
        _ => {}
    }
}

/// Reads the Maildir that just got a message written by Quoth (sent mail, a
/// draft), so the message shows in the thread list and is searchable.
fn read_again(shared: &Shared, root: Option<PathBuf>) {
    if let Some(root) = root {
        background(
            shared,
            Work {
                paths: Some(vec![root]),
                imap: false,
                embed: true,
            },
        );
    }
}
