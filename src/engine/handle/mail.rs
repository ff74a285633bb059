//! Actions on mail through the handle: flags, moves, emptying the trash, the
//! raw message (from its server for IMAP mail), saving an attachment, and showing
//! a message another program asked for.

use super::work::send_threads;
use super::{EngineEvent, EngineRequest, Shared};

/// How long reading one message from its IMAP server may take.
const RAW_FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

pub(super) fn serve(shared: &Shared, request: EngineRequest) {
    match request {
        EngineRequest::SetFlag { req, key, flag, on } => {
            // The store alone: an ingest holding the engine does not delay it.
            match crate::engine::mailbox::flags::set_flag(&shared.store, &key, flag, on) {
                Ok(outcome) => {
                    for account in &outcome.to_servers {
                        shared.push_to_server(account);
                    }
                    shared.emit(EngineEvent::Flagged {
                        req,
                        outcome: Box::new(outcome),
                    })
                }
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::Reveal { key } => {
            let found = shared
                .store
                .message(&key)
                .and_then(|m| Ok((m, shared.store.thread_of(&key)?)));
            match found {
                Ok((Some(m), Some(thread))) => shared.emit(EngineEvent::Reveal {
                    key,
                    thread,
                    subject: m.subject,
                }),
                Ok(_) => shared.error(
                    None,
                    crate::engine::EngineError::NoSuchMessage(key.to_hex()),
                ),
                Err(e) => shared.error(None, e),
            }
        }
        EngineRequest::Expunge { req, confirm } => {
            let result = if confirm {
                shared.write().expunge_trash()
            } else {
                shared.read(|e| e.expunge_preview())
            };
            match result {
                Ok(report) => {
                    for account in &report.to_servers {
                        shared.push_to_server(account);
                    }
                    let removed = report.done && report.removed > 0;
                    shared.emit(EngineEvent::Expunged { req, report });
                    if removed {
                        send_threads(shared);
                    }
                }
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::Move { req, key, target } => {
            let result = shared.write().move_message(&key, &target);
            match result {
                Ok(outcome) => {
                    if let Some(account) = &outcome.to_server {
                        shared.push_to_server(account);
                    }
                    shared.emit(EngineEvent::Moved {
                        req,
                        outcome: Box::new(outcome),
                    })
                }
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::Raw { req, key } => {
            // IMAP mail is fetched from its server (this runs on a blocking thread
            // of the handle's runtime, so it may wait there).
            let raw = tokio::runtime::Handle::current().block_on(
                crate::engine::mailbox::message_files::raw_message_anywhere(
                    &shared.store,
                    &shared.accounts,
                    &key,
                    RAW_FETCH_TIMEOUT,
                ),
            );
            match raw {
                Ok(raw) => shared.emit(EngineEvent::Raw { req, key, raw }),
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::SaveAttachmentAs {
            req,
            key,
            index,
            path,
        } => match crate::engine::mailbox::message_files::save_attachment_as(
            &shared.store,
            &key,
            index,
            &path,
        ) {
            Ok(path) => shared.emit(EngineEvent::AttachmentSavedAs { req, path }),
            Err(e) => shared.error(Some(req), e),
        },
        _ => {}
    }
}
