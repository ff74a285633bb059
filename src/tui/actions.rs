//! What each command does to the UI state. Commands that need the engine queue a
//! request and return at once; the result arrives later as an engine event.

use super::app::App;
use super::command::{Command, FocusTarget, Pane};
use super::help::HelpState;
use super::jumps::Place;
use super::keymap::Mode;
use super::panes::chat::{ChatTurn, Scope};
use super::panes::evidence::quote_span;
use super::panes::reader::{Highlight, ReaderState};
use crate::attach::itip::InviteAnswer;
use crate::engine::handle::EngineRequest;
use crate::engine::mailbox::moves::MoveTarget;
use crate::mail::compose::DraftKind;
use crate::mail::model::{MessageKey, ThreadId};
use tui_textarea::TextArea;

impl App {
    pub(super) fn run(&mut self, cmd: Command) {
        let mode = self.mode();
        match cmd {
            Command::Up => self.move_by(mode, -1),
            Command::Down => self.move_by(mode, 1),
            Command::ScrollUp => self.scroll_by(mode, -1),
            Command::ScrollDown => self.scroll_by(mode, 1),
            Command::PageUp => self.page(mode, -1),
            Command::PageDown => self.page(mode, 1),
            Command::Top => self.page(mode, -isize::MAX / 4),
            Command::Bottom => self.page(mode, isize::MAX / 4),
            Command::Open => match mode {
                Mode::Evidence => self.open_cited_message(),
                _ => self.open_selected_thread(),
            },
            Command::Back => match mode {
                Mode::Reader => self.reader = None,
                _ => self.layout.focus_on(Pane::Threads),
            },
            Command::Search => {
                let mut input = TextArea::default();
                input.set_cursor_line_style(Default::default());
                input.set_placeholder_text("from:dana \"roof\" date:2024-03  (Enter searches)");
                input.set_placeholder_style(self.theme.dim);
                self.search_input = Some(input);
            }
            Command::ClearSearch => {
                self.search_input = None;
                if self.threads.picker.is_some() {
                    self.threads.picker = None;
                } else if self.threads.search.is_some() {
                    self.threads.set_search(None);
                } else if self.threads.folder.is_some() {
                    self.threads.set_folder(None);
                }
            }
            Command::Focus(t) => {
                let to = match t {
                    FocusTarget::Pane(p) => p,
                    FocusTarget::Next => self.layout.neighbour(self.layout.focus, 1),
                    FocusTarget::Prev => self.layout.neighbour(self.layout.focus, -1),
                };
                self.focus(to);
            }
            Command::GrowPane => self.layout.grow(),
            Command::ShrinkPane => self.layout.shrink(),
            Command::TogglePane(p) => self.layout.toggle(p),
            c @ (Command::Ask
            | Command::FollowUp
            | Command::NewConversation
            | Command::ToggleScope
            | Command::JumpCitation(_)
            | Command::NextCitation
            | Command::PrevCitation) => self.run_conversation(c),
            Command::OpenMessage => self.open_cited_message(),
            Command::OpenPdf => self.open_pdf(),
            Command::JumpBack => {
                let here = self.place();
                match self.jumps.back(here) {
                    Some(p) => self.go_to(p),
                    None => self.status.note("no older jump"),
                }
            }
            Command::JumpForward => {
                let here = self.place();
                match self.jumps.forward(here) {
                    Some(p) => self.go_to(p),
                    None => self.status.note("no newer jump"),
                }
            }
            Command::ToggleRead => self.toggle_read(mode),
            Command::ToggleFlag => self.toggle_flag(mode),
            Command::Archive => self.move_to(mode, MoveTarget::Archive),
            Command::Delete => self.move_to(mode, MoveTarget::Trash),
            Command::Undo => self.undo_last(),
            Command::Expunge => self.expunge(),
            Command::Reply => self.start_draft(mode, DraftKind::Reply),
            Command::ReplyAll => self.start_draft(mode, DraftKind::ReplyAll),
            Command::Accept => self.start_draft(mode, DraftKind::Answer(InviteAnswer::Accepted)),
            Command::Tentative => {
                self.start_draft(mode, DraftKind::Answer(InviteAnswer::Tentative))
            }
            Command::Decline => self.start_draft(mode, DraftKind::Answer(InviteAnswer::Declined)),
            Command::Forward => self.start_draft(mode, DraftKind::Forward),
            Command::Compose => self.start_draft(mode, DraftKind::New),
            Command::Move => self.choose_folder(mode),
            Command::ViewRaw => self.view_raw(),
            Command::Pipe => self.pipe(mode),
            Command::SaveAttachment => self.attachment(true),
            Command::OpenAttachment => self.attachment(false),
            Command::OpenUrl => self.open_url(),
            Command::People => self.people_of_thread(mode),
            Command::Folders => {
                self.reader = None;
                self.threads.set_search(None);
                self.layout.focus_on(Pane::Threads);
                self.open_folders();
            }
            Command::SaveView => self.save_view(),
            Command::Tag => self.tag(mode),
            Command::Mute => self.mute(mode),
            Command::ToggleQuoted => {
                if let Some(r) = self.reader.as_mut() {
                    r.fold = !r.fold;
                    r.follow = true;
                }
            }
            Command::Status => self.status.popup = !self.status.popup,
            Command::Sync => {
                let note = if self.status.busy {
                    "the sync starts when the background work ends"
                } else {
                    "syncing the mailbox"
                };
                self.start_background(EngineRequest::Sync);
                self.status.note(note);
            }
            Command::Help => self.help = Some(HelpState::default()),
            Command::Quit => self.ask_to_quit(),
            Command::Submit => self.submit(mode),
            Command::Cancel => match mode {
                Mode::Search if self.line_prompt.is_some() => self.line_prompt = None,
                Mode::Search => self.search_input = None,
                _ => self.leave_chat(),
            },
            Command::Newline => self.chat.input.insert_newline(),
            Command::Noop => {}
        }
    }

    /// The commands of the conversation: asking, its scope, its citations.
    fn run_conversation(&mut self, cmd: Command) {
        match cmd {
            Command::Ask => {
                self.chat.take_input(&self.theme);
                self.focus(Pane::Chat);
            }
            Command::FollowUp => {
                self.focus(Pane::Chat);
                if self.chat.turns.is_empty() {
                    self.status
                        .note("no answer yet to follow up: this starts the conversation");
                } else {
                    self.status
                        .note("follow-up: the question may lean on the last answer");
                }
            }
            Command::NewConversation => {
                self.chat = super::panes::chat::ChatState {
                    scope: self.chat.scope,
                    ..super::panes::chat::ChatState::new(&self.theme)
                };
                self.evidence.reset();
                self.status.note("new conversation");
            }
            Command::ToggleScope => {
                self.chat.scope = match self.chat.scope {
                    Scope::Mailbox if self.scope_thread().is_some() => Scope::Thread,
                    Scope::Mailbox => {
                        self.status
                            .note("no thread selected: the scope stays the mailbox");
                        Scope::Mailbox
                    }
                    Scope::Thread => Scope::Mailbox,
                };
            }
            Command::JumpCitation(n) => {
                match self.citations().iter().position(|c| c.n == usize::from(n)) {
                    Some(i) => self.jump_to_citation(i),
                    None => self
                        .status
                        .note(format!("the answer has no citation [{n}]")),
                }
            }
            Command::NextCitation => self.step_citation(1),
            Command::PrevCitation => self.step_citation(-1),
            _ => {}
        }
    }

    /// Quits, unless background work runs: then the next `quit` does, and the
    /// status bar says what would stop.
    fn ask_to_quit(&mut self) {
        if (!self.status.busy && self.draft.is_none()) || self.quit_confirm {
            self.quit = true;
            return;
        }
        self.quit_confirm = true;
        let why = if self.draft.is_some() {
            "a draft is open (its file stays in the data dir's drafts/)"
        } else {
            "background work is running (it resumes at the next start)"
        };
        self.status.note(format!("{why}: quit again to quit"));
    }

    /// Leaves typing mode for the pane the chat was entered from.
    pub(super) fn leave_chat(&mut self) {
        self.focus(self.before_chat);
    }

    fn focus(&mut self, to: Pane) {
        if to == Pane::Chat && self.layout.focus != Pane::Chat {
            self.before_chat = self.layout.focus;
        }
        self.layout.focus_on(to);
    }

    fn move_by(&mut self, mode: Mode, delta: isize) {
        match mode {
            Mode::Reader => {
                if let Some(r) = self.reader.as_mut() {
                    r.go_to_message(delta);
                }
                self.mark_shown_read();
            }
            Mode::Evidence => self.step_citation(delta),
            _ => {
                self.threads.move_by(delta);
                self.read_on_at_the_end();
            }
        }
    }

    /// At the last hit of a search list that may go on, the next page is asked for.
    fn read_on_at_the_end(&mut self) {
        let Some(s) = self.threads.search.as_ref() else {
            return;
        };
        let at_end = self.threads.selected + 1 >= s.hits.len();
        if !at_end || !s.may_go_on() || s.more.is_some() || s.pending {
            return;
        }
        let query = s.query.clone();
        let limit = s.limit + crate::engine::handle::SEARCH_LIMIT;
        let order = s.order;
        let req = self.request(|req| EngineRequest::Search {
            req,
            query,
            limit,
            order,
        });
        if let Some(s) = self.threads.search.as_mut() {
            s.more = Some(req);
            s.limit = limit;
        }
    }

    fn scroll_by(&mut self, mode: Mode, delta: isize) {
        match mode {
            Mode::Reader => {
                if let Some(r) = self.reader.as_mut() {
                    r.scroll_by(delta)
                }
            }
            Mode::Evidence => self.evidence.scroll_by(delta),
            Mode::Chat => self
                .chat
                .scroll_by(delta * self.chat.height.max(2) as isize / 2),
            _ => self.threads.scroll_by(delta),
        }
    }

    fn page(&mut self, mode: Mode, pages: isize) {
        match mode {
            Mode::Reader => {
                if let Some(r) = self.reader.as_mut() {
                    let step = r.page();
                    r.scroll_by(pages.saturating_mul(step));
                }
            }
            Mode::Evidence => {
                let step = self.evidence.page();
                self.evidence.scroll_by(pages.saturating_mul(step));
            }
            _ => {
                let step = self.threads.page();
                self.threads.move_by(pages.saturating_mul(step));
                self.read_on_at_the_end();
            }
        }
    }

    fn submit(&mut self, mode: Mode) {
        if mode == Mode::Search {
            if let Some(p) = self.line_prompt.take() {
                let text = p.input.lines().join(" ");
                return self.line_answered(p.purpose, text);
            }
            let Some(input) = self.search_input.take() else {
                return;
            };
            let query = input.lines().join(" ").trim().to_string();
            if query.is_empty() {
                return;
            }
            return self.start_search(query, Default::default(), None);
        }
        let question = self.chat.take_input(&self.theme).trim().to_string();
        if question.is_empty() {
            return;
        }
        let thread = match self.chat.scope {
            Scope::Thread => self.scope_thread().map(|(id, _)| id.to_hex()),
            Scope::Mailbox => None,
        };
        let conversation = self.chat.conversation.clone();
        let req = self.request(|req| EngineRequest::Ask {
            req,
            question: question.clone(),
            conversation,
            thread,
        });
        self.chat.turns.push(ChatTurn {
            req,
            question,
            rewrite: None,
            draft: String::new(),
            outcome: None,
            error: None,
        });
        self.chat.scroll_back = 0;
    }

    /// The thread a scoped question is about: the one in the reader, else the one
    /// selected in the list; with its subject.
    pub(super) fn scope_thread(&self) -> Option<(ThreadId, String)> {
        match &self.reader {
            Some(r) => Some((r.thread, r.subject.clone())),
            None => self
                .threads
                .selected_thread()
                .map(|id| (id, self.threads.selected_subject())),
        }
    }

    fn open_selected_thread(&mut self) {
        if self.threads.picker.is_some() {
            if let Some(view) = self.threads.choose_folder() {
                self.open_view(view);
            }
            return;
        }
        let Some(id) = self.threads.selected_thread() else {
            return;
        };
        let subject = self.threads.selected_subject();
        let show = self.threads.selected_hit_key();
        self.jumps.push(self.place());
        let at = show.map_or(ReaderPlace::Start, ReaderPlace::Message);
        self.open_thread(id, subject, None, at);
    }

    /// Shows a message another program asked for (`quoth open`), as opening it
    /// from the list would; back returns to where the user was.
    pub(super) fn reveal(&mut self, key: MessageKey, thread: ThreadId, subject: String) {
        self.jumps.push(self.place());
        self.open_thread(thread, subject, None, ReaderPlace::Message(key));
    }

    /// Opens a thread at a quote of one of its messages, highlighted.
    pub(super) fn open_at_quote(
        &mut self,
        thread: ThreadId,
        subject: String,
        key: MessageKey,
        (start, end): (usize, usize),
    ) {
        self.jumps.push(self.place());
        let highlight = Highlight { key, start, end };
        self.open_thread(thread, subject, Some(highlight), ReaderPlace::Start);
    }

    /// Opens a thread at a place in it: a highlighted quote, else the message
    /// `show` (one of its copies), else message number `message`.
    fn open_thread(
        &mut self,
        id: ThreadId,
        subject: String,
        highlight: Option<Highlight>,
        at: ReaderPlace,
    ) {
        let show = highlight.map(|h| h.key).or(match at {
            ReaderPlace::Message(key) => Some(key),
            _ => None,
        });
        let same = self
            .reader
            .as_ref()
            .is_some_and(|r| r.thread == id && !r.loading);
        let shown_here = show.is_none_or(|k| {
            self.reader
                .as_ref()
                .is_some_and(|r| r.messages.iter().any(|m| m.key == k))
        });
        if same && shown_here {
            if let Some(r) = self.reader.as_mut() {
                r.highlight = highlight;
                r.current = match (show, at) {
                    (Some(k), _) => r.messages.iter().position(|m| m.key == k).unwrap_or(0),
                    (None, ReaderPlace::Number(n)) => n,
                    (None, _) => r.current,
                };
                r.follow = true;
            }
        } else {
            let req = self.request(|req| EngineRequest::Thread { req, id, show });
            let mut r = ReaderState::new(id, subject, req);
            r.highlight = highlight;
            r.show = show;
            self.reader = Some(r);
        }
        self.layout.focus_on(Pane::Threads);
        self.mark_shown_read();
    }

    /// Background work has finished: read the open thread again if it showed
    /// attachments still waiting to be read, so their status is current.
    pub(super) fn refresh_reader_attachments(&mut self) {
        let Some(id) = self
            .reader
            .as_ref()
            .filter(|r| !r.loading && r.awaits_attachments())
            .map(|r| r.thread)
        else {
            return;
        };
        let show = self
            .reader
            .as_ref()
            .and_then(|r| r.messages.get(r.current))
            .map(|m| m.key);
        let req = self.request(|req| EngineRequest::Thread { req, id, show });
        if let Some(r) = self.reader.as_mut() {
            r.req = req;
        }
    }

    /// Selects citation `i` in the evidence pane and loads its message.
    pub(super) fn load_citation(&mut self, i: usize) {
        let Some(c) = self.citations().get(i).cloned() else {
            return;
        };
        self.evidence.selected = i;
        self.evidence.follow = true;
        self.evidence.scroll = 0;
        if c.page.is_some() {
            self.evidence.page = None;
            let citation = Box::new(c);
            let req = self.request(|req| EngineRequest::Page { req, citation });
            self.evidence.pending = Some(req);
            return;
        }
        if self.evidence.message.as_ref().map(|m| m.key.to_hex()) == Some(c.key.clone()) {
            return;
        }
        self.evidence.message = None;
        match MessageKey::from_hex(&c.key) {
            Some(key) => {
                let req = self.request(|req| EngineRequest::Open { req, key });
                self.evidence.pending = Some(req);
            }
            None => self.status.error(format!("bad message key {}", c.key)),
        }
    }

    /// Opens, in the evidence pane, the message that came closest to a question the
    /// mail does not answer.
    pub(super) fn load_closest(&mut self) {
        let Some(key) = self.closest().map(|c| c.key.clone()) else {
            return;
        };
        match MessageKey::from_hex(&key) {
            Some(key) => {
                let req = self.request(|req| EngineRequest::Open { req, key });
                self.evidence.pending = Some(req);
            }
            None => self.status.error(format!("bad message key {key}")),
        }
    }

    fn jump_to_citation(&mut self, i: usize) {
        self.jumps.push(self.place());
        self.load_citation(i);
        self.focus(Pane::Evidence);
    }

    fn step_citation(&mut self, delta: isize) {
        let n = self.citations().len();
        if n == 0 {
            return self.status.note("the answer cites nothing yet");
        }
        let i = (self.evidence.selected as isize + delta).clamp(0, n as isize - 1) as usize;
        self.load_citation(i);
        if self.mode() != Mode::Evidence {
            self.focus(Pane::Evidence);
        }
    }

    /// `o`: the cited source. A message opens in the reader at the quote; a cited
    /// spreadsheet row, document paragraph or invitation, whose quote the message's
    /// text does not hold, opens as a file with the user's opener.
    fn open_cited_message(&mut self) {
        let Some(c) = self.citations().get(self.evidence.selected).cloned() else {
            return self.status.note("no citation selected");
        };
        if c.attachment.is_some() && c.place.is_some() && c.pdf_page().is_none() {
            return self.open_pdf();
        }
        let (Some(key), Some(thread)) = (
            MessageKey::from_hex(&c.key),
            ThreadId::from_hex(&c.thread_id),
        ) else {
            return self.status.error("the citation names no stored message");
        };
        let (start, end) = match self.evidence.message.as_ref().filter(|m| m.key == key) {
            Some(m) => quote_span(m, &c),
            None => (c.start as usize, c.end as usize),
        };
        self.jumps.push(self.place());
        let highlight = Highlight { key, start, end };
        self.open_thread(
            thread,
            c.subject.clone(),
            Some(highlight),
            ReaderPlace::Start,
        );
    }

    fn open_pdf(&mut self) {
        let cites = self.citations();
        let selected = cites
            .get(self.evidence.selected)
            .filter(|c| c.attachment.is_some())
            .or_else(|| cites.iter().find(|c| c.attachment.is_some()))
            .cloned();
        let Some(c) = selected else {
            return self.status.note("no attachment is cited in this answer");
        };
        let (Some(key), Some(name)) = (MessageKey::from_hex(&c.key), c.attachment.clone()) else {
            return self.status.error("the citation names no stored attachment");
        };
        let page = c.pdf_page();
        self.request(|req| EngineRequest::SaveAttachment {
            req,
            key,
            name,
            page,
        });
    }

    /// Runs the configured viewer on a saved attachment, without waiting for it.
    pub(super) fn open_pdf_file(&mut self, path: &std::path::Path, page: Option<u32>) {
        let file = path.display().to_string();
        let page = page.unwrap_or(1).to_string();
        let mut words: Vec<String> = self
            .options
            .pdf_command
            .split_whitespace()
            .map(|w| w.replace("{file}", &file).replace("{page}", &page))
            .collect();
        if !self.options.pdf_command.contains("{file}") {
            words.push(file.clone());
        }
        let Some((program, args)) = words.split_first() else {
            return self
                .status
                .error("no PDF viewer configured (QUOTH_PDF_VIEWER)");
        };
        let mut command = std::process::Command::new(program);
        command.args(args);
        match spawn_detached(command) {
            Ok(()) => self.status.note(format!("opened {file} (page {page})")),
            Err(e) => self.status.error(format!("cannot run {program}: {e}")),
        }
    }

    fn place(&self) -> Place {
        match (self.layout.focus, &self.reader) {
            (Pane::Evidence, _) => Place::Evidence {
                citation: self.evidence.selected,
            },
            (_, Some(r)) => Place::Reader {
                thread: r.thread,
                subject: r.subject.clone(),
                message: r.current,
                highlight: r.highlight,
            },
            _ => Place::Threads {
                selected: self.threads.selected,
            },
        }
    }

    fn go_to(&mut self, place: Place) {
        match place {
            Place::Threads { selected } => {
                self.reader = None;
                self.threads.select(selected);
                self.layout.focus_on(Pane::Threads);
            }
            Place::Reader {
                thread,
                subject,
                message,
                highlight,
            } => self.open_thread(thread, subject, highlight, ReaderPlace::Number(message)),
            Place::Evidence { citation } => {
                self.load_citation(citation);
                self.layout.focus_on(Pane::Evidence);
            }
        }
    }
}

/// Where in a thread the reader opens.
#[derive(Debug, Clone, Copy)]
enum ReaderPlace {
    /// The first unread message, else the first.
    Start,
    /// This message (or the copy of it that is shown).
    Message(MessageKey),
    /// The message at this position, as the user left it.
    Number(usize),
}

/// Starts a viewer or opener without waiting for it, its output kept off the UI's
/// terminal; it is reaped in the background so a closed viewer leaves no zombie.
pub(super) fn spawn_detached(mut command: std::process::Command) -> std::io::Result<()> {
    let mut child = command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    std::thread::spawn(move || child.wait());
    Ok(())
}
