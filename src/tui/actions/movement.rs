//! Moving the cursor and scrolling in the pane that has the focus; at the end of a
//! search list that may go on, the next page of hits is asked for.

use crate::engine::handle::EngineRequest;
use crate::tui::app::App;
use crate::tui::keymap::Mode;

impl App {
    pub(super) fn move_by(&mut self, mode: Mode, delta: isize) {
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
    pub(super) fn read_on_at_the_end(&mut self) {
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

    pub(super) fn scroll_by(&mut self, mode: Mode, delta: isize) {
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

    pub(super) fn page(&mut self, mode: Mode, pages: isize) {
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
}
