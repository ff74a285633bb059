//! The citations of the current answer: loading one into the evidence pane, stepping
//! through them, and opening the cited message or attachment.

use super::opening::ReaderPlace;
use super::spawn_detached;
use crate::engine::handle::EngineRequest;
use crate::mail::model::{MessageKey, ThreadId};
use crate::tui::app::App;
use crate::tui::command::Pane;
use crate::tui::keymap::Mode;
use crate::tui::panes::evidence::quote_span;
use crate::tui::panes::reader::Highlight;

impl App {
    /// Selects citation `i` in the evidence pane and loads its message.
    pub(in crate::tui) fn load_citation(&mut self, i: usize) {
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
    pub(in crate::tui) fn load_closest(&mut self) {
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

    pub(super) fn jump_to_citation(&mut self, i: usize) {
        self.jumps.push(self.place());
        self.load_citation(i);
        self.focus(Pane::Evidence);
    }

    pub(super) fn step_citation(&mut self, delta: isize) {
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
    pub(super) fn open_cited_message(&mut self) {
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

    pub(super) fn open_pdf(&mut self) {
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
    pub(in crate::tui) fn open_pdf_file(&mut self, path: &std::path::Path, page: Option<u32>) {
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
}
