//! The UI state and its one entry point, [`App::handle`]: a terminal event or an
//! engine event in, state changed and engine requests queued out. Nothing here waits
//! on the engine, and nothing needs a terminal: tests drive an `App` with events and
//! draw it on ratatui's `TestBackend`.

use super::command::Pane;
use super::help::HelpState;
use super::jumps::JumpList;
use super::keymap::{KeySequencer, Keymap, Mode};
use super::layout::PaneLayout;
use super::panes::chat::ChatState;
use super::panes::evidence::EvidenceState;
use super::panes::reader::ReaderState;
use super::panes::threads::ThreadsState;
use super::status::StatusState;
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest, Progress, RequestId};
use crate::engine::Citation;
use crossterm::event::Event;
use std::collections::HashSet;
use tui_textarea::TextArea;

mod engine_events;
mod keys;
mod render;

/// Settings of the UI that do not come from the keymap.
#[derive(Debug, Clone)]
pub struct AppOptions {
    /// The program that opens a cited PDF page: `{file}` and `{page}` are replaced,
    /// and a command without `{file}` gets the file as its last argument.
    pub pdf_command: String,
    /// Showing a message in the reader marks it read.
    pub mark_read: bool,
    /// The program that opens attachments and links (the file or link is its last
    /// argument).
    pub open_command: String,
    /// The saved views listed with the folders.
    pub views: Vec<crate::config::View>,
    /// The config file a view saved from the UI is written to.
    pub config_file: Option<std::path::PathBuf>,
}

impl Default for AppOptions {
    fn default() -> Self {
        Self {
            pdf_command: std::env::var("QUOTH_PDF_VIEWER").unwrap_or_else(|_| "xdg-open".into()),
            mark_read: true,
            open_command: std::env::var("QUOTH_OPENER").unwrap_or_else(|_| "xdg-open".into()),
            views: crate::config::Config::default().views(),
            config_file: None,
        }
    }
}

/// Something that happened: a terminal event or an engine event.
#[derive(Debug, Clone)]
pub enum AppEvent {
    Term(Event),
    Engine(EngineEvent),
}

/// Cloning an `App` copies the whole UI state (tests branch from a prepared state).
#[derive(Clone)]
pub struct App {
    pub(super) keymap: Keymap,
    sequencer: KeySequencer,
    pub(super) theme: Theme,
    pub(super) options: AppOptions,
    pub layout: PaneLayout,
    pub threads: ThreadsState,
    pub reader: Option<ReaderState>,
    pub chat: ChatState,
    pub evidence: EvidenceState,
    pub status: StatusState,
    pub(super) search_input: Option<TextArea<'static>>,
    pub(super) help: Option<HelpState>,
    pub(super) jumps: JumpList,
    next_req: RequestId,
    outbox: Vec<EngineRequest>,
    pub(super) in_flight: HashSet<RequestId>,
    threads_loading: bool,
    pub(super) quit: bool,
    pub(super) dirty: bool,
    /// Where the focus goes back to when the chat input is left.
    pub(super) before_chat: Pane,
    /// How to take back the last action on mail.
    pub(super) undo: super::mail_actions::UndoLog,
    /// `quit` was pressed while background work ran: the next one quits.
    pub(super) quit_confirm: bool,
    /// The trash's contents were shown: `expunge` now empties it.
    pub(super) expunge_armed: bool,
    /// The draft being written, if any.
    pub(super) draft: Option<super::compose_flow::DraftState>,
    /// What the UI waits on outside it (the editor).
    pub(super) external: Option<super::compose_flow::ExternalJob>,
    /// A one-line question in the prompt row (a command to pipe to, a path).
    pub(super) line_prompt: Option<super::reader_actions::LinePrompt>,
    /// A numbered list to choose from (links, attachments, folders).
    pub(super) item_picker: Option<super::panes::picker::ItemPicker>,
    /// The tag names in use, to complete a tag being typed.
    pub(super) known_tags: Vec<String>,
    /// Raw messages asked for, and why.
    pub(super) raw_requests: std::collections::HashMap<RequestId, super::reader_actions::RawFor>,
}

impl App {
    /// A new UI; its first request (the thread list) is queued.
    pub fn new(keymap: Keymap, theme: Theme, options: AppOptions) -> App {
        let sequencer = keymap.sequencer(Mode::Threads);
        App {
            sequencer,
            keymap,
            chat: ChatState::new(&theme),
            theme,
            options,
            layout: PaneLayout::default(),
            threads: ThreadsState::default(),
            reader: None,
            evidence: EvidenceState::default(),
            status: StatusState::default(),
            search_input: None,
            help: None,
            jumps: JumpList::default(),
            next_req: 1,
            outbox: vec![EngineRequest::Threads],
            undo: Default::default(),
            quit_confirm: false,
            expunge_armed: false,
            draft: None,
            external: None,
            known_tags: Vec::new(),
            line_prompt: None,
            item_picker: None,
            raw_requests: Default::default(),
            in_flight: HashSet::new(),
            threads_loading: true,
            quit: false,
            dirty: true,
            before_chat: Pane::Threads,
        }
    }

    /// Queues background work (ingest, sync, embedding); the gauge shows it.
    pub fn start_background(&mut self, request: EngineRequest) {
        self.status.busy = true;
        self.status.progress = None;
        self.outbox.push(request);
        self.dirty = true;
    }

    /// Asks for the thread list again (new mail arrived).
    pub fn refresh_threads(&mut self) {
        self.threads_loading = true;
        self.outbox.push(EngineRequest::Threads);
        self.dirty = true;
    }

    /// The requests queued since the last call, for the engine handle.
    pub fn take_requests(&mut self) -> Vec<EngineRequest> {
        std::mem::take(&mut self.outbox)
    }

    /// No request is awaited and no background work runs.
    pub fn is_idle(&self) -> bool {
        self.outbox.is_empty()
            && self.in_flight.is_empty()
            && !self.threads_loading
            && !self.status.busy
    }

    /// Ingest or embedding runs in the background.
    pub fn is_busy(&self) -> bool {
        self.status.busy
    }

    /// Some thread (or search hit) is listed.
    pub fn has_threads(&self) -> bool {
        !self.threads.is_empty()
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// The keymap table in effect: decided by the focus and by what is open.
    pub fn mode(&self) -> Mode {
        if self.search_input.is_some() || self.line_prompt.is_some() {
            return Mode::Search;
        }
        match self.layout.focus {
            Pane::Chat => Mode::Chat,
            Pane::Evidence => Mode::Evidence,
            Pane::Threads if self.reader.is_some() => Mode::Reader,
            Pane::Threads => Mode::Threads,
        }
    }

    pub(super) fn request(&mut self, make: impl FnOnce(RequestId) -> EngineRequest) -> RequestId {
        let req = self.next_req;
        self.next_req += 1;
        self.in_flight.insert(req);
        self.outbox.push(make(req));
        req
    }

    /// When the current answer is "I don't know" and the search found mail about
    /// the question, the message that came closest.
    pub fn closest(&self) -> Option<&crate::engine::ClosestMail> {
        self.chat
            .current_answer()
            .and_then(|o| o.abstention.as_ref())
            .and_then(|a| a.closest.as_ref())
    }

    /// The citations of the current answer.
    pub fn citations(&self) -> &[Citation] {
        self.chat
            .current_answer()
            .map(|o| o.citations.as_slice())
            .unwrap_or(&[])
    }

    pub fn handle(&mut self, event: AppEvent) {
        self.dirty = true;
        match event {
            AppEvent::Term(Event::Key(key)) => self.on_key(key),
            AppEvent::Term(Event::Paste(text)) => {
                if let Some(input) = self.text_input() {
                    input.insert_str(text);
                }
            }
            AppEvent::Term(_) => {}
            AppEvent::Engine(ev) => {
                // Mail that arrives, moves or changes state changes the views' counts.
                let changes_mail = matches!(
                    ev,
                    EngineEvent::ThreadList { complete: true, .. }
                        | EngineEvent::Flagged { .. }
                        | EngineEvent::Moved { .. }
                        | EngineEvent::Expunged { .. }
                        | EngineEvent::NewMail { .. }
                        | EngineEvent::Progress(Progress::Idle { .. })
                );
                self.on_engine(ev);
                if changes_mail {
                    self.mail_changed();
                }
            }
        }
    }

    fn text_input(&mut self) -> Option<&mut TextArea<'static>> {
        match self.mode() {
            Mode::Search => match self.line_prompt.as_mut() {
                Some(p) => Some(&mut p.input),
                None => self.search_input.as_mut(),
            },
            Mode::Chat => Some(&mut self.chat.input),
            _ => None,
        }
    }

    /// A one-line summary of the state a command may change, beside the screen: what
    /// a key did is observable even where the screen does not show it (a jump list).
    pub fn state_summary(&self) -> String {
        format!(
            "mode={:?} layout={:?} sel={} off={} search={:?} reader={:?} help={:?} popup={} \
             msg={:?} busy={} turns={} scope={:?} input={:?} back={} evidence=({},{}) \
             quit={} jumps={:?} requests={} prompt={:?} pending={:?} draft={:?} external={}",
            self.mode(),
            self.layout,
            self.threads.selected,
            self.threads.offset,
            self.threads.search.as_ref().map(|s| &s.query),
            self.reader.as_ref().map(|r| (r.current, r.scroll, r.fold)),
            self.help.as_ref().map(|h| h.scroll()),
            self.status.popup,
            self.status.message,
            self.status.busy,
            self.chat.turns.len(),
            self.chat.scope,
            self.chat.input.lines(),
            self.chat.scroll_back,
            self.evidence.selected,
            self.evidence.scroll,
            self.quit,
            self.jumps,
            self.in_flight.len() + self.outbox.len(),
            self.search_input.as_ref().map(|i| i.lines().to_vec()),
            self.sequencer.pending(),
            self.draft.as_ref().map(|d| d.stage),
            self.external.is_some(),
        )
    }
}
