//! Opening a thread in the reader (from the list, a quote or another program), and
//! the places the jump list goes back and forth between.

use crate::engine::handle::EngineRequest;
use crate::mail::model::{MessageKey, ThreadId};
use crate::tui::app::App;
use crate::tui::command::Pane;
use crate::tui::jumps::Place;
use crate::tui::panes::reader::{Highlight, ReaderState};

impl App {
    pub(super) fn open_selected_thread(&mut self) {
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
    pub(in crate::tui) fn reveal(&mut self, key: MessageKey, thread: ThreadId, subject: String) {
        self.jumps.push(self.place());
        self.open_thread(thread, subject, None, ReaderPlace::Message(key));
    }

    /// Opens a thread at a quote of one of its messages, highlighted.
    pub(in crate::tui) fn open_at_quote(
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
    pub(super) fn open_thread(
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
    pub(in crate::tui) fn refresh_reader_attachments(&mut self) {
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

    pub(super) fn place(&self) -> Place {
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

    pub(super) fn go_to(&mut self, place: Place) {
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
pub(super) enum ReaderPlace {
    /// The first unread message, else the first.
    Start,
    /// This message (or the copy of it that is shown).
    Message(MessageKey),
    /// The message at this position, as the user left it.
    Number(usize),
}
