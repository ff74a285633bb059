//! The dispatcher: each request the handle receives, served against the engine.

use super::work::{background_asked, save_attachment, send_threads, thread_messages, Work};
use super::{
    drafts, mail, mail_state, EngineEvent, EngineRequest, RequestId, Shared, SEARCH_LIMIT_MAX,
};
use crate::answer::conversation::Conversation;
use crate::engine::{attachment_states, AskEvent, AskOptions};
use std::path::PathBuf;

pub(super) fn serve(shared: &Shared, request: EngineRequest) {
    match request {
        EngineRequest::Threads => send_threads(shared),
        EngineRequest::Thread { req, id, show } => {
            let result = thread_messages(&shared.store, &id, show.as_ref());
            match result {
                Ok(view) => shared.emit(EngineEvent::ThreadMessages {
                    req,
                    id,
                    messages: view.messages,
                    attachments: view.attachments,
                    also_in: view.also_in,
                }),
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::Page { req, citation } => match shared.read(|e| e.cited_page(&citation)) {
            Ok(page) => shared.emit(EngineEvent::Page {
                req,
                page: page.map(Box::new),
            }),
            Err(e) => shared.error(Some(req), e),
        },
        EngineRequest::Open { req, key } => match shared.store.message(&key) {
            Ok(Some(m)) => match attachment_states(&shared.store, &m) {
                Ok(attachments) => shared.emit(EngineEvent::Message {
                    req,
                    message: Box::new(m),
                    attachments,
                }),
                Err(e) => shared.error(Some(req), e),
            },
            Ok(None) => shared.error(Some(req), format!("no message {}", key.to_hex())),
            Err(e) => shared.error(Some(req), e),
        },
        EngineRequest::Tag {
            req,
            target,
            add,
            remove,
        } => mail_state::tag(shared, req, &target, &add, &remove),
        EngineRequest::Tags { req } => mail_state::tags(shared, req),
        EngineRequest::Count { req, queries } => mail_state::count(shared, req, &queries),
        EngineRequest::Search {
            req,
            query,
            limit,
            order,
        } => search(shared, req, query, limit, order),
        EngineRequest::Ask {
            req,
            question,
            conversation,
            thread,
        } => ask(shared, req, &question, conversation, thread),
        r @ (EngineRequest::SetFlag { .. }
        | EngineRequest::Reveal { .. }
        | EngineRequest::Expunge { .. }
        | EngineRequest::Move { .. }
        | EngineRequest::Raw { .. }
        | EngineRequest::SaveAttachmentAs { .. }) => mail::serve(shared, r),
        EngineRequest::ThreadGraph { req, thread } => {
            match shared.read(|e| e.thread_graph(&thread)) {
                Ok(Some(graph)) => shared.emit(EngineEvent::ThreadGraph {
                    req,
                    graph: Box::new(graph),
                }),
                Ok(None) => shared.error(Some(req), format!("no thread has the id {thread}")),
                Err(e) => shared.error(Some(req), e),
            }
        }
        EngineRequest::SaveAttachment {
            req,
            key,
            name,
            page,
        } => match save_attachment(shared, &key, &name) {
            Ok(path) => shared.emit(EngineEvent::AttachmentSaved { req, path, page }),
            Err(e) => shared.error(Some(req), e),
        },
        r @ (EngineRequest::StartDraft { .. }
        | EngineRequest::SendDraft { .. }
        | EngineRequest::PostponeDraft { .. }
        | EngineRequest::DiscardDraft { .. }) => drafts::serve(shared, r),
        EngineRequest::Ingest { paths, embed } => background_asked(
            shared,
            Work {
                paths: Some(paths),
                imap: false,
                embed,
            },
        ),
        EngineRequest::Sync => match shared.store.roots() {
            Ok(roots) => {
                let imap = shared.imap_commands().is_some();
                let roots: Vec<PathBuf> = roots.into_iter().map(PathBuf::from).collect();
                // A store of IMAP mail only has no local source to read again.
                let paths = (!roots.is_empty() || !imap).then_some(roots);
                background_asked(
                    shared,
                    Work {
                        paths,
                        imap,
                        embed: true,
                    },
                )
            }
            Err(e) => shared.error(None, e),
        },
        EngineRequest::Embed => background_asked(
            shared,
            Work {
                paths: None,
                imap: false,
                embed: true,
            },
        ),
    }
}

fn search(
    shared: &Shared,
    req: RequestId,
    query: String,
    limit: usize,
    order: crate::engine::SearchOrder,
) {
    if shared.front_ends.newer_search_than(req) {
        // A newer search was asked for before this one started: skip it. The
        // front end drops its result anyway, but it still wants an answer.
        shared.emit(EngineEvent::SearchResults {
            req,
            query,
            hits: Vec::new(),
        });
        return;
    }
    let now = chrono::Utc::now().timestamp();
    let limit = limit.clamp(1, SEARCH_LIMIT_MAX);
    let result = shared.read(|e| e.search_in_order(&query, limit, now, order));
    match result {
        Ok(hits) => shared.emit(EngineEvent::SearchResults { req, query, hits }),
        Err(e) => shared.error(Some(req), e),
    }
}

/// Answers a question, its rewrite and the answer's text streamed as they come.
fn ask(
    shared: &Shared,
    req: RequestId,
    question: &str,
    mut conversation: Conversation,
    thread: Option<String>,
) {
    let opts = AskOptions {
        thread,
        ..AskOptions::default()
    };
    let result = shared.read(|e| {
        e.ask(
            question,
            &mut conversation,
            shared.answerer.as_ref(),
            &opts,
            &mut |ev| match ev {
                AskEvent::Rewrite(text) => shared.emit(EngineEvent::AnswerRewrite { req, text }),
                AskEvent::Delta(text) => shared.emit(EngineEvent::AnswerDelta { req, text }),
                AskEvent::Note(_) => {}
            },
        )
    });
    match result {
        Ok(outcome) => shared.emit(EngineEvent::Answer {
            req,
            outcome: Box::new(outcome),
            conversation,
        }),
        Err(e) => shared.error(Some(req), e),
    }
}
