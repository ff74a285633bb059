//! What engine events do to the UI state: results matched to the requests that
//! asked for them, background progress, new mail and errors.

use super::App;
use crate::engine::handle::{EngineEvent, Progress, RequestId};

impl App {
    pub(super) fn on_engine(&mut self, ev: EngineEvent) {
        match ev {
            EngineEvent::ThreadList {
                threads,
                first,
                complete,
            } => {
                self.threads.add_batch(threads, first, complete);
                self.threads_loading = !complete;
            }
            EngineEvent::ThreadMessages {
                req,
                messages,
                attachments,
                also_in,
                ..
            } => {
                self.in_flight.remove(&req);
                if let Some(r) = self.reader.as_mut().filter(|r| r.req == req) {
                    r.loaded(messages, attachments, also_in);
                    self.mark_shown_read();
                }
            }
            EngineEvent::Moved { req, outcome } => {
                self.in_flight.remove(&req);
                self.moved(req, *outcome);
            }
            EngineEvent::Reveal {
                key,
                thread,
                subject,
            } => self.reveal(key, thread, subject),
            // Another front end's expunge or flag shows without a word here.
            EngineEvent::Expunged { req, report } => {
                if self.in_flight.remove(&req) {
                    self.expunged(report);
                }
            }
            EngineEvent::Flagged { req, outcome } => {
                let ours = self.in_flight.remove(&req);
                self.flagged(*outcome, ours);
            }
            EngineEvent::DraftReady { req, draft } => {
                self.in_flight.remove(&req);
                self.draft_ready(req, *draft);
            }
            EngineEvent::DraftSent { req, sent } => {
                self.in_flight.remove(&req);
                self.draft_sent(req, *sent);
            }
            EngineEvent::DraftPostponed { req, postponed } => {
                self.in_flight.remove(&req);
                self.draft_postponed(req, postponed.kept_in);
            }
            EngineEvent::DraftDiscarded { req } => {
                self.in_flight.remove(&req);
                self.draft_discarded(req);
            }
            ev @ (EngineEvent::Counts { .. }
            | EngineEvent::Tagged { .. }
            | EngineEvent::ThreadTags { .. }
            | EngineEvent::TagList { .. }) => self.on_state_event(ev),
            EngineEvent::SearchResults { req, query, hits } => {
                self.search_results(req, query, hits)
            }
            ev @ (EngineEvent::AnswerRewrite { .. }
            | EngineEvent::AnswerDelta { .. }
            | EngineEvent::Answer { .. }) => self.on_answer_event(ev),
            ev @ (EngineEvent::Page { .. }
            | EngineEvent::Message { .. }
            | EngineEvent::AttachmentSaved { .. }
            | EngineEvent::Raw { .. }
            | EngineEvent::AttachmentSavedAs { .. }) => self.on_evidence_event(ev),
            EngineEvent::ThreadGraph { req, graph } => {
                self.in_flight.remove(&req);
                self.show_people(*graph);
            }
            ev @ (EngineEvent::Progress(_)
            | EngineEvent::NewMail { .. }
            | EngineEvent::Synced { .. }
            | EngineEvent::Watching { .. }) => self.on_background_event(ev),
            EngineEvent::Error { req, message } => self.on_error(req, message),
        }
    }

    /// A page, a message or an attachment the evidence pane or an opener asked for.
    pub(super) fn on_evidence_event(&mut self, ev: EngineEvent) {
        match ev {
            EngineEvent::Page { req, page } => {
                self.in_flight.remove(&req);
                if self.evidence.pending == Some(req) {
                    self.evidence.pending = None;
                    self.evidence.page = page.map(|p| *p);
                    self.evidence.follow = true;
                }
            }
            EngineEvent::Message {
                req,
                message,
                attachments,
            } => {
                self.in_flight.remove(&req);
                if self.evidence.pending == Some(req) {
                    self.evidence.pending = None;
                    self.evidence.message = Some(*message);
                    self.evidence.attachments = attachments;
                    self.evidence.follow = true;
                }
            }
            EngineEvent::AttachmentSaved { req, path, page } => {
                self.in_flight.remove(&req);
                let pdf = path
                    .extension()
                    .is_some_and(|x| x.eq_ignore_ascii_case("pdf"));
                if page.is_some() || pdf {
                    self.open_pdf_file(&path, page);
                } else {
                    self.open_with_opener(&path.to_string_lossy());
                }
            }
            EngineEvent::Raw { req, key, raw } => {
                self.in_flight.remove(&req);
                self.raw_arrived(req, key, raw);
            }
            EngineEvent::AttachmentSavedAs { req, path } => {
                self.in_flight.remove(&req);
                self.status.note(format!(
                    "saved {}",
                    crate::terminal_text::one_line_for_terminal(&path.to_string_lossy())
                ));
            }
            _ => {}
        }
    }

    /// Background work, new mail and the accounts' sync, for the status bar.
    pub(super) fn on_background_event(&mut self, ev: EngineEvent) {
        match ev {
            EngineEvent::Progress(Progress::Idle { summary }) => {
                self.status.busy = false;
                self.status.progress = None;
                self.refresh_reader_attachments();
                if !summary.is_empty() {
                    self.status.note(summary.clone());
                    self.status.last_summary = Some(summary);
                }
            }
            EngineEvent::Progress(p) => {
                self.status.progress = Some(p);
            }
            EngineEvent::NewMail {
                account,
                folder,
                count,
            } => {
                let s = if count == 1 { "" } else { "s" };
                self.status.note(format!(
                    "new mail: {count} message{s} in {account}/{folder}"
                ));
                let at = chrono::Local::now().format("%H:%M");
                self.status.accounts.entry(account).or_default().new_mail =
                    Some(format!("new mail: {count} in {folder} at {at}"));
                // The new threads come in with the list; the selection stays put.
                self.refresh_threads();
                // The engine embeds the new mail now and says when it is done.
                self.status.busy = true;
            }
            EngineEvent::Synced {
                account,
                added,
                seconds,
            } => {
                self.status.accounts.entry(account).or_default().last_sync =
                    Some(format!("synced {added} new in {seconds:.1} s"));
            }
            EngineEvent::Watching { account, folder } => {
                self.status.accounts.entry(account).or_default().watching = Some(folder);
            }
            _ => {}
        }
    }

    pub(super) fn on_error(&mut self, req: Option<RequestId>, message: String) {
        let Some(req) = req else {
            return self.status.error(message);
        };
        self.in_flight.remove(&req);
        if self.draft_failed(req, &message) {
            return;
        }
        if self.raw_requests.remove(&req).is_some() {
            return self.status.error(message);
        }
        if let Some(t) = self.chat.turns.last_mut().filter(|t| t.req == req) {
            t.error = Some(message);
        } else if let Some(s) = self.threads.search.as_mut().filter(|s| s.more == Some(req)) {
            s.more = None;
            s.limit = s.hits.len();
            self.status.error(message);
        } else if let Some(s) = self.threads.search.as_mut().filter(|s| s.req == req) {
            s.pending = false;
            s.error = Some(message);
        } else if let Some(r) = self.reader.as_mut().filter(|r| r.req == req) {
            r.loading = false;
            self.status.error(message);
        } else if self.evidence.pending == Some(req) {
            self.evidence.pending = None;
            self.status.error(message);
        }
        // Anything else answers a request the user has moved on from: dropped.
    }
}
