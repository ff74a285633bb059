//! The front ends one handle serves: the one that started it, and any attached
//! later (the UI of another terminal, through the socket server). Each has its own
//! event stream and its own request ids: an attached front end's ids are tagged with
//! its number in their high bits on the way in, and its results are routed back to
//! it by that tag, untagged. Events that answer no request (progress, new mail, a
//! new thread list) go to every front end, and so do changes to the mailbox (a move,
//! a flag, an expunge): to the front end that asked with its id, to the others with
//! [`NO_REQUEST`].

use super::{EngineEvent, EngineRequest, Progress, RequestId};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use tokio::sync::mpsc;

/// Bits of a request id that are the front end's own; the bits above number the
/// front end (0 for the one that started the handle).
const OWN_BITS: u32 = 40;
const OWN_MASK: u64 = (1 << OWN_BITS) - 1;

/// Identifies a front end of a handle.
pub type FrontEndId = u64;

/// The front end that started the handle.
pub const OWNER: FrontEndId = 0;

struct Sink {
    id: FrontEndId,
    events: mpsc::Sender<EngineEvent>,
    /// Its newest search request: its older ones not yet started are skipped.
    latest_search: RequestId,
}

pub(super) struct FrontEnds {
    sinks: Mutex<Vec<Sink>>,
    next: AtomicU64,
    /// Progress reports made, whether or not any front end took them: background
    /// work that moves.
    progress_made: AtomicU64,
}

impl FrontEnds {
    pub(super) fn new(owner: mpsc::Sender<EngineEvent>) -> Self {
        Self {
            sinks: Mutex::new(vec![Sink {
                id: OWNER,
                events: owner,
                latest_search: 0,
            }]),
            next: AtomicU64::new(OWNER + 1),
            progress_made: AtomicU64::new(0),
        }
    }

    fn sinks(&self) -> std::sync::MutexGuard<'_, Vec<Sink>> {
        self.sinks.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new front end and the stream of its events.
    pub(super) fn add(&self, capacity: usize) -> (FrontEndId, mpsc::Receiver<EngineEvent>) {
        let (tx, rx) = mpsc::channel(capacity);
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        self.sinks().push(Sink {
            id,
            events: tx,
            latest_search: 0,
        });
        (id, rx)
    }

    pub(super) fn remove(&self, id: FrontEndId) {
        if id != OWNER {
            self.sinks().retain(|s| s.id != id);
        }
    }

    /// How many progress reports background work has made.
    pub(super) fn progress_made(&self) -> u64 {
        self.progress_made.load(Ordering::SeqCst)
    }

    /// How many front ends there are besides the owner.
    pub(super) fn attached(&self) -> usize {
        self.sinks().iter().filter(|s| s.id != OWNER).count()
    }

    /// Notes a search request as its front end's newest.
    pub(super) fn note_search(&self, req: RequestId) {
        let (fe, own) = split(req);
        if let Some(s) = self.sinks().iter_mut().find(|s| s.id == fe) {
            s.latest_search = s.latest_search.max(own);
        }
    }

    /// Whether the front end of search `req` has asked for a newer one since.
    pub(super) fn newer_search_than(&self, req: RequestId) -> bool {
        let (fe, own) = split(req);
        self.sinks()
            .iter()
            .find(|s| s.id == fe)
            .is_some_and(|s| s.latest_search > own)
    }

    /// Where `event` goes, with its request id made its front end's own again.
    fn route(
        &self,
        mut event: EngineEvent,
    ) -> Vec<(FrontEndId, mpsc::Sender<EngineEvent>, EngineEvent)> {
        let target = event_req(&mut event).map(|req| {
            let (fe, own) = split(*req);
            *req = own;
            fe
        });
        let sinks = self.sinks();
        match target {
            // A change to the mailbox (a move, a flag, an expunge) is news to every
            // front end: the others get it with the id no request has.
            Some(fe) if changes_mailbox(&event) => sinks
                .iter()
                .map(|s| {
                    let mut copy = event.clone();
                    if s.id != fe {
                        if let Some(req) = event_req(&mut copy) {
                            *req = NO_REQUEST;
                        }
                    }
                    (s.id, s.events.clone(), copy)
                })
                .collect(),
            Some(fe) => sinks
                .iter()
                .find(|s| s.id == fe)
                .map(|s| vec![(s.id, s.events.clone(), event)])
                .unwrap_or_default(),
            None => sinks
                .iter()
                .map(|s| (s.id, s.events.clone(), event.clone()))
                .collect(),
        }
    }

    /// Sends `event` where it goes, waiting for room (results are never dropped). A
    /// front end whose stream is gone is forgotten.
    pub(super) fn emit(&self, event: EngineEvent) {
        for (id, tx, event) in self.route(event) {
            if tx.blocking_send(event).is_err() {
                self.remove(id);
            }
        }
    }

    /// [`Self::emit`] from a task; false once the owner's stream is gone.
    pub(super) async fn emit_async(&self, event: EngineEvent) -> bool {
        let mut owner_open = true;
        for (id, tx, event) in self.route(event) {
            if tx.send(event).await.is_err() {
                owner_open &= id != OWNER;
                self.remove(id);
            }
        }
        owner_open
    }

    /// A progress report to every front end, dropped where its stream is full (a
    /// newer one follows).
    pub(super) fn progress(&self, p: Progress) {
        self.progress_made.fetch_add(1, Ordering::SeqCst);
        let sinks: Vec<mpsc::Sender<EngineEvent>> =
            self.sinks().iter().map(|s| s.events.clone()).collect();
        for tx in sinks {
            let _ = tx.try_send(EngineEvent::Progress(p.clone()));
        }
    }
}

/// The request id of a mailbox change another front end made: front ends number
/// their requests from 1.
pub const NO_REQUEST: RequestId = 0;

/// Whether `event` reports a change to the mailbox that every front end shows.
fn changes_mailbox(event: &EngineEvent) -> bool {
    match event {
        EngineEvent::Moved { .. } | EngineEvent::Flagged { .. } => true,
        EngineEvent::Expunged { report, .. } => report.done,
        _ => false,
    }
}

fn split(req: RequestId) -> (FrontEndId, RequestId) {
    (req >> OWN_BITS, req & OWN_MASK)
}

/// `request` as front end `fe` sent it: its id tagged with `fe`.
pub(super) fn tag_request(mut request: EngineRequest, fe: FrontEndId) -> EngineRequest {
    if let Some(req) = request_req(&mut request) {
        *req = (fe << OWN_BITS) | (*req & OWN_MASK);
    }
    request
}

fn request_req(request: &mut EngineRequest) -> Option<&mut RequestId> {
    use EngineRequest as R;
    match request {
        R::Page { req, .. }
        | R::Thread { req, .. }
        | R::Search { req, .. }
        | R::Count { req, .. }
        | R::Tag { req, .. }
        | R::Tags { req }
        | R::Ask { req, .. }
        | R::Open { req, .. }
        | R::SaveAttachment { req, .. }
        | R::Raw { req, .. }
        | R::ThreadGraph { req, .. }
        | R::SaveAttachmentAs { req, .. }
        | R::SetFlag { req, .. }
        | R::Move { req, .. }
        | R::Expunge { req, .. }
        | R::StartDraft { req, .. }
        | R::SendDraft { req, .. }
        | R::PostponeDraft { req, .. }
        | R::DiscardDraft { req, .. } => Some(req),
        R::Threads | R::Reveal { .. } | R::Ingest { .. } | R::Sync | R::Embed => None,
    }
}

fn event_req(event: &mut EngineEvent) -> Option<&mut RequestId> {
    use EngineEvent as E;
    match event {
        E::Page { req, .. }
        | E::ThreadMessages { req, .. }
        | E::SearchResults { req, .. }
        | E::Counts { req, .. }
        | E::Tagged { req, .. }
        | E::TagList { req, .. }
        | E::Moved { req, .. }
        | E::Expunged { req, .. }
        | E::Flagged { req, .. }
        | E::DraftReady { req, .. }
        | E::DraftSent { req, .. }
        | E::DraftPostponed { req, .. }
        | E::DraftDiscarded { req }
        | E::AnswerRewrite { req, .. }
        | E::AnswerDelta { req, .. }
        | E::Answer { req, .. }
        | E::Message { req, .. }
        | E::AttachmentSaved { req, .. }
        | E::Raw { req, .. }
        | E::ThreadGraph { req, .. }
        | E::AttachmentSavedAs { req, .. } => Some(req),
        E::Error { req, .. } => req.as_mut(),
        E::ThreadList { .. }
        | E::ThreadTags { .. }
        | E::Reveal { .. }
        | E::Progress(_)
        | E::NewMail { .. }
        | E::Synced { .. }
        | E::Watching { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(req: RequestId) -> EngineRequest {
        EngineRequest::Search {
            req,
            query: "budget".into(),
            limit: 5,
            order: Default::default(),
        }
    }

    fn results(req: RequestId) -> EngineEvent {
        EngineEvent::SearchResults {
            req,
            query: "budget".into(),
            hits: Vec::new(),
        }
    }

    fn req_of(event: &EngineEvent) -> Option<RequestId> {
        let mut event = event.clone();
        event_req(&mut event).map(|r| *r)
    }

    #[test]
    fn a_result_reaches_only_the_front_end_that_asked_with_its_own_id() {
        let (owner_tx, mut owner) = mpsc::channel(8);
        let fronts = FrontEnds::new(owner_tx);
        let (a, mut a_rx) = fronts.add(8);
        let (_b, mut b_rx) = fronts.add(8);
        let EngineRequest::Search { req, .. } = tag_request(search(7), a) else {
            unreachable!("a search stays a search")
        };
        assert_ne!(req, 7, "the id is tagged on the way in");
        fronts.emit(results(req));
        let got = a_rx
            .try_recv()
            .expect("the asking front end gets its result");
        assert_eq!(req_of(&got), Some(7));
        assert!(b_rx.try_recv().is_err(), "another front end gets nothing");
        assert!(owner.try_recv().is_err(), "nor does the owner");
        // The owner's own ids pass through untouched.
        fronts.emit(results(3));
        assert_eq!(owner.try_recv().ok().as_ref().and_then(req_of), Some(3));
    }

    #[test]
    fn news_of_the_mailbox_reaches_every_front_end() {
        let (owner_tx, mut owner) = mpsc::channel(8);
        let fronts = FrontEnds::new(owner_tx);
        let (_a, mut a_rx) = fronts.add(8);
        fronts.emit(EngineEvent::ThreadList {
            threads: Vec::new(),
            first: true,
            complete: true,
        });
        fronts.progress(Progress::Embed { done: 1, total: 2 });
        for rx in [&mut owner, &mut a_rx] {
            assert!(matches!(rx.try_recv(), Ok(EngineEvent::ThreadList { .. })));
            assert!(matches!(rx.try_recv(), Ok(EngineEvent::Progress(_))));
        }
    }

    #[test]
    fn a_newer_search_of_one_front_end_does_not_make_anothers_stale() {
        let (owner_tx, _owner) = mpsc::channel(8);
        let fronts = FrontEnds::new(owner_tx);
        let (a, _a_rx) = fronts.add(8);
        let tagged = |fe, own| match tag_request(search(own), fe) {
            EngineRequest::Search { req, .. } => req,
            _ => unreachable!("a search stays a search"),
        };
        fronts.note_search(tagged(a, 50));
        fronts.note_search(tagged(OWNER, 2));
        assert!(!fronts.newer_search_than(tagged(OWNER, 2)));
        assert!(fronts.newer_search_than(tagged(a, 49)));
        assert!(!fronts.newer_search_than(tagged(a, 50)));
    }

    #[test]
    fn a_front_end_that_left_is_forgotten() {
        let (owner_tx, _owner) = mpsc::channel(8);
        let fronts = FrontEnds::new(owner_tx);
        let (a, a_rx) = fronts.add(8);
        assert_eq!(fronts.attached(), 1);
        drop(a_rx);
        let EngineRequest::Search { req, .. } = tag_request(search(1), a) else {
            unreachable!("a search stays a search")
        };
        fronts.emit(results(req));
        assert_eq!(fronts.attached(), 0);
    }
}
