//! Sending requests to a handle's engine: background work is counted as asked for
//! the moment its request is sent, so the handle reports itself busy with no gap
//! before the work is queued.

use super::front_ends::{tag_request, FrontEndId};
use super::{work, EngineEvent, EngineRequest, Shared, EVENT_CAPACITY};
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

    /// Another front end of the engine (the UI of another terminal): it sends
    /// requests with ids of its own and gets their results, and the news of the
    /// mailbox, on a stream of its own, until it is dropped.
    pub fn attach(&self) -> (AttachedFrontEnd, mpsc::Receiver<EngineEvent>) {
        let (id, events) = self.shared.front_ends.add(EVENT_CAPACITY);
        let front_end = AttachedFrontEnd {
            id,
            requests: self.requests.clone(),
            shared: self.shared.clone(),
        };
        (front_end, events)
    }

    /// Watches IMAP `accounts` (IDLE) for a client until the lease is dropped, on
    /// `runtime` (a multi-thread one); joins the watch that runs already.
    pub fn watch(
        &self,
        runtime: &tokio::runtime::Handle,
        accounts: Vec<crate::source::imap::AccountConfig>,
        opts: crate::engine::WatchOptions,
    ) -> super::WatchLease {
        super::imap::lease(&self.shared, runtime, accounts, opts)
    }

    /// Whether the IMAP watch loop runs.
    pub fn watching(&self) -> bool {
        self.shared.imap_commands().is_some()
    }

    /// How many progress reports background work has made: a count that stands
    /// still while work runs is work that does not move.
    pub fn progress_made(&self) -> u64 {
        self.shared.front_ends.progress_made()
    }

    /// How many front ends are attached besides the handle's own.
    pub fn attached(&self) -> usize {
        self.shared.front_ends.attached()
    }
}

/// A front end attached to a running handle ([`Requester::attach`]).
pub struct AttachedFrontEnd {
    id: FrontEndId,
    requests: mpsc::UnboundedSender<EngineRequest>,
    shared: Arc<Shared>,
}

impl AttachedFrontEnd {
    /// Queues a request; false when the engine has stopped.
    pub fn send(&self, request: EngineRequest) -> bool {
        send_request(&self.requests, &self.shared, tag_request(request, self.id))
    }
}

impl Drop for AttachedFrontEnd {
    fn drop(&mut self) {
        self.shared.front_ends.remove(self.id);
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
