//! Sending requests to a handle's engine: background work is counted as asked for
//! the moment its request is sent, so the handle reports itself busy with no gap
//! before the work is queued.

use super::{work, EngineRequest, Shared};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::mpsc;

/// Sends requests to a handle's engine from elsewhere (another front end).
#[derive(Clone)]
pub struct Requester {
    pub(super) requests: mpsc::UnboundedSender<EngineRequest>,
    pub(super) shared: Arc<Shared>,
}

impl Requester {
    /// Queues a request; false when the engine has stopped.
    pub fn send(&self, request: EngineRequest) -> bool {
        send_request(&self.requests, &self.shared, request)
    }
}

/// Whether a request starts background work (see [`work::background_asked`]).
fn asks_for_work(request: &EngineRequest) -> bool {
    matches!(
        request,
        EngineRequest::Ingest { .. } | EngineRequest::Sync | EngineRequest::Embed
    )
}

pub(super) fn send_request(
    requests: &mpsc::UnboundedSender<EngineRequest>,
    shared: &Shared,
    request: EngineRequest,
) -> bool {
    let work = asks_for_work(&request);
    if work {
        shared.work_asked.fetch_add(1, Ordering::SeqCst);
    }
    let sent = requests.send(request).is_ok();
    if work && !sent {
        work::asked_work_queued(shared);
    }
    sent
}
