//! The UI state and its one entry point, [`App::handle`]: a terminal event or an
//! engine event in, state changed and engine requests queued out. Nothing here waits
//! on the engine, and nothing needs a terminal: tests drive an `App` with events and
//! draw it on ratatui's `TestBackend`.

use super::command::{Command, Pane};
use super::help::{HelpOverlay, HelpState};
use super::jumps::JumpList;
use super::keymap::{KeySequencer, Keymap, Mode, Step};
use super::layout::PaneLayout;
use super::panes::chat::{self, ChatState, ChatView};
use super::panes::evidence::{self, EvidenceState};
use super::panes::reader::{self, ReaderState};
use super::panes::threads::{self, ThreadsState};
use super::status::{self, StatusBar, StatusState};
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest, Progress, RequestId};
use crate::engine::Citation;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::backend::Backend;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use ratatui::{Frame, Terminal};
use std::collections::HashSet;
use tui_textarea::TextArea;

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

    fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if self.draft_prompt_key(&key) || self.item_picker_key(&key) || self.tag_prompt_key(&key) {
            return;
        }
        if self.help.is_some() {
            return self.help_key(key);
        }
        if self.status.popup {
            self.status.popup = false;
            return;
        }
        self.status.message = None;
        let mode = self.mode();
        if self.sequencer.mode() != mode {
            self.sequencer = self.keymap.sequencer(mode);
        }
        let step = self.sequencer.feed(&key);
        if !matches!(step, Step::Matched(Command::Quit) | Step::Pending) {
            self.quit_confirm = false;
        }
        if !matches!(step, Step::Matched(Command::Expunge) | Step::Pending) {
            self.expunge_armed = false;
        }
        match step {
            Step::Matched(cmd) => self.run(cmd),
            Step::NoMatch(keys) if mode.is_text_input() => {
                if let Some(input) = self.text_input() {
                    for k in keys {
                        input.input(k.to_event());
                    }
                }
            }
            Step::NoMatch(keys) => {
                let typed: Vec<String> = keys.iter().map(ToString::to_string).collect();
                self.status.note(format!(
                    "{} does nothing here ({} lists the keys)",
                    typed.join(" "),
                    self.help_key_name()
                ));
            }
            Step::Pending | Step::Ignored => {}
        }
    }

    /// The key that opens help in the current mode, for hints.
    fn help_key_name(&self) -> String {
        self.keymap
            .mode(self.mode())
            .keys_for(&Command::Help)
            .next()
            .map(ToString::to_string)
            .unwrap_or_else(|| "?".into())
    }

    fn help_key(&mut self, key: KeyEvent) {
        let Some(help) = self.help.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Char('j') | KeyCode::Down => help.scroll_by(1),
            KeyCode::Char('k') | KeyCode::Up => help.scroll_by(-1),
            KeyCode::PageDown | KeyCode::Char(' ') => help.scroll_by(10),
            KeyCode::PageUp => help.scroll_by(-10),
            _ => self.help = None,
        }
    }

    fn on_engine(&mut self, ev: EngineEvent) {
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
    fn on_evidence_event(&mut self, ev: EngineEvent) {
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
    fn on_background_event(&mut self, ev: EngineEvent) {
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

    fn on_error(&mut self, req: Option<RequestId>, message: String) {
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

    /// Draws the whole screen.
    pub fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> std::io::Result<()> {
        terminal.draw(|f| self.render(f))?;
        self.dirty = false;
        Ok(())
    }

    fn render(&mut self, f: &mut Frame) {
        let area = f.area();
        let prompt_h = u16::from(self.search_input.is_some() || self.line_prompt.is_some());
        let [panes, prompt, bar] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(prompt_h),
            Constraint::Length(1),
        ])
        .areas(area);
        let mode = self.mode();
        let hint = HelpOverlay::ask_hint(&self.keymap, mode);
        let scope_label = self.scope_thread().map(|(_, s)| s).unwrap_or_default();
        for (pane, rect) in self.layout.areas(panes) {
            let focused = pane == self.layout.focus && prompt_h == 0;
            match pane {
                Pane::Threads => match self.reader.as_mut() {
                    Some(r) => {
                        let tags = self.threads.tags.get(&r.thread).map_or(&[][..], |t| &t[..]);
                        reader::render(f, rect, r, tags, &self.theme, focused)
                    }
                    None => threads::render(f, rect, &mut self.threads, &self.theme, focused),
                },
                Pane::Chat => {
                    let view = ChatView {
                        theme: &self.theme,
                        focused,
                        hint: &hint,
                        scope_label: &scope_label,
                    };
                    chat::render(f, rect, &mut self.chat, &view)
                }
                Pane::Evidence => {
                    let citations: Vec<Citation> = self.citations().to_vec();
                    let closest = self.closest().cloned();
                    evidence::render(
                        f,
                        rect,
                        &citations,
                        closest.as_ref(),
                        &mut self.evidence,
                        &self.theme,
                        focused,
                    )
                }
            }
        }
        if let Some(p) = self.line_prompt.as_ref() {
            let text = format!(" {}: ", p.label);
            let [label, field] = Layout::horizontal([
                Constraint::Length(crate::tui::wrap::text_width(&text) as u16),
                Constraint::Min(0),
            ])
            .areas(prompt);
            f.render_widget(Paragraph::new(Span::styled(text, self.theme.key)), label);
            f.render_widget(&p.input, field);
        } else if let Some(input) = self.search_input.as_ref() {
            let [label, field] =
                Layout::horizontal([Constraint::Length(8), Constraint::Min(0)]).areas(prompt);
            f.render_widget(
                Paragraph::new(Span::styled(" Search ", self.theme.key)),
                label,
            );
            f.render_widget(input, field);
        }
        let pending: Vec<String> = self
            .sequencer
            .pending()
            .iter()
            .map(|k| k.to_string())
            .collect();
        let help_key = self
            .keymap
            .mode(mode)
            .keys_for(&Command::Help)
            .next()
            .map(|k| k.to_string())
            .unwrap_or_else(|| "?".into());
        status::render_bar(
            f,
            bar,
            &self.status,
            &StatusBar {
                mode: mode.name(),
                pending_keys: &pending.join(" "),
                help_key: &help_key,
            },
            &self.theme,
        );
        if self.status.popup {
            status::render_popup(
                f,
                panes,
                &self.status,
                self.threads.threads.len(),
                &self.theme,
            );
        }
        if let Some(picker) = self.item_picker.as_ref() {
            super::panes::picker::render(f, panes, picker, &self.theme);
        }
        if let Some(state) = self.help.as_mut() {
            f.render_stateful_widget(
                HelpOverlay::new(&self.keymap, mode, self.theme),
                area,
                state,
            );
        }
    }
}
