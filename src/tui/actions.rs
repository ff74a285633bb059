//! What each command does to the UI state. Commands that need the engine queue a
//! request and return at once; the result arrives later as an engine event.

use super::app::App;
use super::command::{Command, FocusTarget, Pane};
use super::help::HelpState;
use super::keymap::Mode;
use super::panes::chat::{ChatTurn, Scope};
use crate::attach::itip::InviteAnswer;
use crate::engine::handle::EngineRequest;
use crate::engine::mailbox::moves::MoveTarget;
use crate::mail::compose::DraftKind;
use crate::mail::model::ThreadId;
use tui_textarea::TextArea;

mod citations;
mod movement;
mod opening;

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
