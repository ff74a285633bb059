//! Requests about mail state beyond flags: tags on a thread or a message, the tags
//! in use, and how many messages queries match (the counts beside saved views).

use super::{EngineEvent, RequestId, Shared};
use crate::engine::mailbox::tagging::TagTarget;
use crate::engine::EngineError;

/// Tags a thread or a message; every front end hears the thread's tags.
pub(super) fn tag(
    shared: &Shared,
    req: RequestId,
    target: &TagTarget,
    add: &[String],
    remove: &[String],
) {
    let result = shared.read(|e| {
        let (report, thread) = e.tag_target(target, add, remove)?;
        Ok::<_, EngineError>((report, e.thread_tags(Some(&thread))?))
    });
    match result {
        Ok((report, tags)) => {
            shared.emit(EngineEvent::ThreadTags { tags, every: false });
            shared.emit(EngineEvent::Tagged { req, report });
        }
        Err(e) => shared.error(Some(req), e),
    }
}

/// Every tag in use, with how many messages carry it.
pub(super) fn tags(shared: &Shared, req: RequestId) {
    match shared.read(|e| e.all_tags()) {
        Ok(tags) => shared.emit(EngineEvent::TagList {
            req,
            tags: tags.into_iter().collect(),
        }),
        Err(e) => shared.error(Some(req), e),
    }
}

/// Each query's count, or why it cannot be read; another fault fails the request.
pub(super) fn count(shared: &Shared, req: RequestId, queries: &[String]) {
    let now = chrono::Utc::now().timestamp();
    let counts = shared.read(|e| {
        queries
            .iter()
            .map(|q| e.count(q, now).map(|n| n as u64))
            .collect::<Vec<_>>()
    });
    let mut out = Vec::with_capacity(counts.len());
    for c in counts {
        match c {
            Ok(n) => out.push(Ok(n)),
            Err(EngineError::Query(e)) => out.push(Err(format!("invalid query: {e}"))),
            Err(e) => return shared.error(Some(req), e),
        }
    }
    shared.emit(EngineEvent::Counts { req, counts: out });
}
