//! Writing mail from the UI: reply, reply to all, forward and compose.
//!
//! The engine writes a draft file; the UI hands it to the user's editor (the
//! event loop's caller suspends the terminal for it, see [`App::take_external`]);
//! when the editor exits, the status bar asks what to do with it, as mutt does:
//! `y` send, `e` edit again, `p` postpone to Drafts, `a` abort. Nothing the user
//! wrote is lost on the way: the draft file stays until it is sent, kept in
//! Drafts or aborted, and a failed send comes back to the prompt.

use super::app::App;
use super::keymap::Mode;
use crate::engine::handle::{EngineRequest, RequestId};
use crate::engine::mailbox::compose::{DraftStarted, SentMail};
use crate::mail::compose::DraftKind;
use crate::mail::model::MessageKey;
use crossterm::event::{KeyCode, KeyEvent};
use std::path::PathBuf;

/// Something the UI needs done outside it, with the terminal handed over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExternalJob {
    /// Run the user's editor on a draft file.
    Edit { path: PathBuf },
    /// Run a shell command with a raw message on its stdin.
    Pipe { command: String, input: Vec<u8> },
}

/// The draft being written.
#[derive(Debug, Clone)]
pub struct DraftState {
    pub kind: DraftKind,
    pub original: Option<MessageKey>,
    pub path: Option<PathBuf>,
    pub stage: DraftStage,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DraftStage {
    /// The engine is writing the draft file.
    Starting(RequestId),
    /// The editor has it.
    Editing,
    /// Waiting for y, e, p or a.
    Prompt,
    /// Sent to the engine to send, postpone or discard.
    Finishing(RequestId),
}

const PROMPT: &str = "y send · e edit again · p postpone to Drafts · a abort";

impl App {
    /// `reply`, `reply_all`, `forward`, `compose`.
    pub(super) fn start_draft(&mut self, mode: Mode, kind: DraftKind) {
        if self.draft.is_some() {
            return self.status.note(format!("a draft is open: {PROMPT}"));
        }
        let of = match kind {
            DraftKind::New => None,
            _ => match self.message_in_view(mode) {
                Some(key) => Some(key),
                None => return self.status.note("no message here to answer"),
            },
        };
        let req = self.request(|req| EngineRequest::StartDraft { req, kind, of });
        self.draft = Some(DraftState {
            kind,
            original: of,
            path: None,
            stage: DraftStage::Starting(req),
        });
    }

    /// The message a reply or forward is written to: the one shown, the search hit
    /// selected, or the latest message of the thread selected.
    fn message_in_view(&self, mode: Mode) -> Option<MessageKey> {
        match mode {
            Mode::Reader => {
                let r = self.reader.as_ref().filter(|r| !r.loading)?;
                r.messages.get(r.current).map(|m| m.key)
            }
            Mode::Threads => self.selected_message(),
            _ => None,
        }
    }

    /// A draft is open (being written, edited, or waiting for the prompt).
    pub fn has_draft(&self) -> bool {
        self.draft.is_some()
    }

    /// The job the UI waits on outside it, taken by the event loop's caller.
    pub fn take_external(&mut self) -> Option<ExternalJob> {
        self.external.take()
    }

    pub fn wants_external(&self) -> bool {
        self.external.is_some()
    }

    /// The engine wrote the draft file: the editor gets it.
    pub(super) fn draft_ready(&mut self, req: RequestId, started: DraftStarted) {
        let Some(d) = self
            .draft
            .as_mut()
            .filter(|d| d.stage == DraftStage::Starting(req))
        else {
            return;
        };
        d.path = Some(started.path.clone());
        d.kind = started.kind;
        d.original = started.original;
        if let DraftKind::Answer(answer) = started.kind {
            // The answer is written already: the prompt first, the editor on `e`.
            d.stage = DraftStage::Prompt;
            self.dirty = true;
            return self
                .status
                .note(format!("{} the invitation? {PROMPT}", answer.imperative()));
        }
        d.stage = DraftStage::Editing;
        self.external = Some(ExternalJob::Edit { path: started.path });
    }

    /// The editor exited: `Ok(changed)`, or why it failed.
    pub fn editor_done(&mut self, result: Result<bool, String>) {
        self.dirty = true;
        let Some(d) = self.draft.as_mut() else {
            return;
        };
        d.stage = DraftStage::Prompt;
        match result {
            Ok(true) => self.status.note(PROMPT),
            Ok(false) => self
                .status
                .note(format!("the draft is unchanged: {PROMPT}")),
            Err(e) => self.status.error(format!(
                "the editor failed ({e}); the draft is kept: {PROMPT}"
            )),
        }
    }

    /// A key while the prompt waits: y, e, p or a. True when it was taken.
    pub(super) fn draft_prompt_key(&mut self, key: &KeyEvent) -> bool {
        let Some(d) = self
            .draft
            .as_ref()
            .filter(|d| d.stage == DraftStage::Prompt)
        else {
            return false;
        };
        let (Some(path), kind, original) = (d.path.clone(), d.kind, d.original) else {
            return false;
        };
        let KeyCode::Char(c) = key.code else {
            self.status.note(PROMPT);
            return true;
        };
        let stage = match c {
            'y' => {
                let original = original.map(|k| (k, kind));
                let req = self.request(|req| EngineRequest::SendDraft {
                    req,
                    path,
                    original,
                });
                self.status.note("sending…");
                DraftStage::Finishing(req)
            }
            'e' => {
                self.external = Some(ExternalJob::Edit { path });
                DraftStage::Editing
            }
            'p' => {
                let req = self.request(|req| EngineRequest::PostponeDraft {
                    req,
                    path,
                    original,
                });
                DraftStage::Finishing(req)
            }
            'a' => {
                let req = self.request(|req| EngineRequest::DiscardDraft { req, path });
                DraftStage::Finishing(req)
            }
            _ => {
                self.status.note(PROMPT);
                DraftStage::Prompt
            }
        };
        if let Some(d) = self.draft.as_mut() {
            d.stage = stage;
        }
        true
    }

    fn finishing(&self, req: RequestId) -> bool {
        self.draft
            .as_ref()
            .is_some_and(|d| d.stage == DraftStage::Finishing(req))
    }

    pub(super) fn draft_sent(&mut self, req: RequestId, sent: SentMail) {
        if !self.finishing(req) {
            return;
        }
        self.draft = None;
        let to = sent.recipients.join(", ");
        let kept = sent
            .kept_in
            .as_ref()
            .map(|f| format!(" · kept in {f}"))
            .unwrap_or_default();
        match sent.warning {
            Some(w) => self.status.error(format!("sent to {to}; {w}")),
            None => self.status.note(format!("sent to {to}{kept}")),
        }
        if sent.root.is_some() {
            // The engine reads the Sent folder again: the gauge shows it.
            self.status.busy = true;
        }
    }

    pub(super) fn draft_postponed(&mut self, req: RequestId, kept_in: String) {
        if !self.finishing(req) {
            return;
        }
        self.draft = None;
        self.status.note(format!("draft kept in {kept_in}"));
        self.status.busy = true;
    }

    pub(super) fn draft_discarded(&mut self, req: RequestId) {
        if self.finishing(req) {
            self.draft = None;
            self.status.note("draft discarded");
        }
    }

    /// A draft request failed: starting drops the draft; sending, postponing or
    /// discarding comes back to the prompt with the file kept. True when `req` was
    /// the draft's.
    pub(super) fn draft_failed(&mut self, req: RequestId, message: &str) -> bool {
        let Some(d) = self.draft.as_mut() else {
            return false;
        };
        match d.stage {
            DraftStage::Starting(r) if r == req => {
                self.draft = None;
                self.status.error(message.to_string());
                true
            }
            DraftStage::Finishing(r) if r == req => {
                d.stage = DraftStage::Prompt;
                let at = d
                    .path
                    .as_ref()
                    .map(|p| format!(" ({})", p.display()))
                    .unwrap_or_default();
                self.status.error(format!("{message}{at}: {PROMPT}"));
                true
            }
            _ => false,
        }
    }
}
