//! What a reader does with the message in front of them beyond reading it: the raw
//! message, piping it to a command, saving or opening an attachment, opening a
//! link, moving it to a folder chosen from a list.

use super::app::App;
use super::compose_flow::ExternalJob;
use super::keymap::Mode;
use super::panes::folders::folder_rows;
use super::panes::picker::{ItemPicker, PickFor, PickerStep};
use crate::engine::handle::{EngineRequest, RequestId};
use crate::engine::mailbox::moves::MoveTarget;
use crate::mail::model::MessageKey;
use crate::store::StoredMessage;
use crossterm::event::KeyEvent;
use std::path::PathBuf;
use tui_textarea::TextArea;

/// A one-line question in the prompt row.
#[derive(Debug, Clone)]
pub struct LinePrompt {
    pub label: String,
    pub input: TextArea<'static>,
    pub purpose: PromptFor,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptFor {
    /// The command to pipe the message to.
    Pipe(MessageKey),
    /// Where to save an attachment.
    SavePath { key: MessageKey, index: u32 },
    /// The name of a saved view of this query.
    ViewName(String),
    /// Tags to add and remove.
    Tag(crate::engine::mailbox::tagging::TagTarget),
}

/// Why the raw message was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawFor {
    View,
    Pipe(String),
}

impl App {
    /// The message the reader shows.
    fn shown_message(&self) -> Option<&StoredMessage> {
        let r = self.reader.as_ref().filter(|r| !r.loading)?;
        r.messages.get(r.current)
    }

    pub(super) fn ask_line(&mut self, label: &str, text: &str, purpose: PromptFor) {
        let mut input = TextArea::from([text.to_string()]);
        input.set_cursor_line_style(Default::default());
        input.move_cursor(tui_textarea::CursorMove::End);
        self.line_prompt = Some(LinePrompt {
            label: label.to_string(),
            input,
            purpose,
        });
    }

    /// `view_raw`: the message as its source holds it, or back to the message.
    pub(super) fn view_raw(&mut self) {
        let Some(key) = self.shown_message().map(|m| m.key) else {
            return self.status.note("open a message to see it raw");
        };
        if let Some(r) = self.reader.as_mut() {
            if r.raw.as_ref().is_some_and(|(k, _)| *k == key) {
                r.raw = None;
                r.follow = true;
                return;
            }
        }
        self.ask_raw(key, RawFor::View);
    }

    fn ask_raw(&mut self, key: MessageKey, why: RawFor) {
        let req = self.request(|req| EngineRequest::Raw { req, key });
        self.raw_requests.insert(req, why);
    }

    /// The raw message arrived.
    pub(super) fn raw_arrived(&mut self, req: RequestId, key: MessageKey, raw: Vec<u8>) {
        match self.raw_requests.remove(&req) {
            Some(RawFor::View) => {
                if let Some(r) = self.reader.as_mut() {
                    r.raw = Some((key, String::from_utf8_lossy(&raw).into_owned()));
                    r.follow = true;
                }
            }
            Some(RawFor::Pipe(command)) => {
                self.external = Some(ExternalJob::Pipe {
                    command,
                    input: raw,
                });
            }
            None => {}
        }
    }

    /// `pipe`: asks for a command, then hands it the raw message on its stdin.
    pub(super) fn pipe(&mut self, mode: Mode) {
        let key = match mode {
            Mode::Reader => self.shown_message().map(|m| m.key),
            _ => self.selected_message(),
        };
        let Some(key) = key else {
            return self.status.note("no message here to pipe");
        };
        self.ask_line("Pipe to", "", PromptFor::Pipe(key));
    }

    /// The search hit selected, or the latest message of the thread selected.
    pub(super) fn selected_message(&self) -> Option<MessageKey> {
        if self.threads.picker.is_some() {
            return None;
        }
        match &self.threads.search {
            Some(s) => MessageKey::from_hex(&s.hits.get(self.threads.selected)?.key),
            None => self
                .threads
                .threads
                .get(self.threads.selected)?
                .messages
                .last()
                .copied(),
        }
    }

    /// The prompt row was answered.
    pub(super) fn line_answered(&mut self, purpose: PromptFor, text: String) {
        let text = text.trim().to_string();
        if text.is_empty() {
            return;
        }
        match purpose {
            PromptFor::Pipe(key) => self.ask_raw(key, RawFor::Pipe(text)),
            PromptFor::SavePath { key, index } => {
                let path = PathBuf::from(text);
                self.request(|req| EngineRequest::SaveAttachmentAs {
                    req,
                    key,
                    index,
                    path,
                });
            }
            PromptFor::ViewName(query) => self.view_named(query, text),
            PromptFor::Tag(target) => self.tag_answered(target, text),
        }
    }

    /// The command the message was piped to ended.
    pub fn pipe_done(&mut self, result: Result<String, String>) {
        self.dirty = true;
        match result {
            Ok(how) => self.status.note(how),
            Err(e) => self.status.error(e),
        }
    }

    /// `save_attachment` and `open_attachment`: one attachment at once, or a list.
    pub(super) fn attachment(&mut self, save: bool) {
        let Some(msg) = self.shown_message() else {
            return self.status.note("open a message to reach its attachments");
        };
        let key = msg.key;
        let listed: Vec<(u32, String)> = msg
            .attachments
            .iter()
            .map(|a| {
                (
                    a.index,
                    a.name
                        .clone()
                        .unwrap_or_else(|| format!("attachment {}", a.index + 1)),
                )
            })
            .collect();
        match listed.as_slice() {
            [] => self.status.note("the message has no attachments"),
            [(index, name)] => self.attachment_chosen(key, *index, name.clone(), save),
            _ => {
                let (indexes, names): (Vec<u32>, Vec<String>) = listed.into_iter().unzip();
                let title = if save {
                    "Save which attachment?"
                } else {
                    "Open which attachment?"
                };
                self.item_picker = Some(ItemPicker::new(
                    title,
                    names.clone(),
                    PickFor::Attachment {
                        key,
                        indexes,
                        names,
                        save,
                    },
                ));
            }
        }
    }

    fn attachment_chosen(&mut self, key: MessageKey, index: u32, name: String, save: bool) {
        if save {
            let file = std::path::Path::new(&name)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| format!("attachment-{index}"));
            let dir = dirs::download_dir()
                .filter(|d| d.is_dir())
                .or_else(dirs::home_dir)
                .unwrap_or_else(|| PathBuf::from("."));
            let suggested = dir.join(file).display().to_string();
            self.ask_line("Save to", &suggested, PromptFor::SavePath { key, index });
        } else {
            self.request(|req| EngineRequest::SaveAttachment {
                req,
                key,
                name,
                page: None,
            });
        }
    }

    /// `open_url`: the links of the message, to open one.
    pub(super) fn open_url(&mut self) {
        let Some(msg) = self.shown_message() else {
            return self.status.note("open a message to reach its links");
        };
        let links = crate::engine::mailbox::message_files::links(&msg.body);
        match links.as_slice() {
            [] => self.status.note("the message has no links"),
            [one] => {
                let one = one.clone();
                self.open_with_opener(&one);
            }
            _ => {
                self.item_picker = Some(ItemPicker::new(
                    "Open which link?",
                    links.clone(),
                    PickFor::Link(links),
                ))
            }
        }
    }

    /// `move`: the folders of the mailbox, to move the message or thread to one.
    pub(super) fn choose_folder(&mut self, mode: Mode) {
        let keys = match mode {
            Mode::Reader => self.shown_message().map(|m| vec![m.key]),
            _ => match &self.threads.search {
                Some(_) => self.selected_message().map(|k| vec![k]),
                None => self
                    .threads
                    .threads
                    .get(self.threads.selected)
                    .map(|t| t.messages.clone()),
            },
        };
        let Some(keys) = keys.filter(|k| !k.is_empty()) else {
            return self.status.note("no message here to move");
        };
        let folders: Vec<String> = folder_rows(self.threads.every_thread())
            .into_iter()
            .map(|r| r.name)
            .filter(|n| !n.is_empty())
            .collect();
        if folders.is_empty() {
            return self.status.note("no folders yet");
        }
        self.item_picker = Some(ItemPicker::new(
            "Move to which folder?",
            folders.clone(),
            PickFor::Folder { keys, folders },
        ));
    }

    /// A key while the list is open. True when it was the list's.
    pub(super) fn item_picker_key(&mut self, key: &KeyEvent) -> bool {
        let Some(picker) = self.item_picker.as_mut() else {
            return false;
        };
        match picker.key(key) {
            PickerStep::Stay => {}
            PickerStep::Closed => self.item_picker = None,
            PickerStep::Chosen(i) => {
                if let Some(p) = self.item_picker.take() {
                    self.picked(p.purpose, i);
                }
            }
        }
        true
    }

    fn picked(&mut self, purpose: PickFor, i: usize) {
        match purpose {
            PickFor::Link(links) => {
                if let Some(url) = links.get(i) {
                    self.open_with_opener(&url.clone());
                }
            }
            PickFor::Attachment {
                key,
                indexes,
                names,
                save,
            } => {
                if let (Some(index), Some(name)) = (indexes.get(i), names.get(i)) {
                    self.attachment_chosen(key, *index, name.clone(), save);
                }
            }
            PickFor::Graph {
                thread,
                subject,
                targets,
            } => match targets.get(i).copied().flatten() {
                Some((key, Some(span))) => self.open_at_quote(thread, subject, key, span),
                Some((key, None)) => self.reveal(key, thread, subject),
                None => {}
            },
            PickFor::Folder { keys, folders } => {
                let Some(folder) = folders.get(i) else {
                    return;
                };
                // The store names folders under their root ("mail/work"); the
                // move takes the path below it.
                let below = folder.split_once('/').map(|(_, rest)| rest.to_string());
                let target = MoveTarget::Folder(below.unwrap_or_else(|| folder.clone()));
                self.move_keys(keys, target);
            }
        }
    }

    /// Runs the system opener on a file or link, without waiting for it.
    pub(super) fn open_with_opener(&mut self, what: &str) {
        let opener = self.options.open_command.clone();
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg(format!("{opener} \"$1\""))
            .arg("quoth-open")
            .arg(what);
        match super::actions::spawn_detached(command) {
            Ok(()) => {
                self.status.note(format!(
                    "opened {}",
                    crate::terminal_text::one_line_for_terminal(what)
                ));
            }
            Err(e) => self.status.error(format!("cannot run {opener}: {e}")),
        }
    }
}
