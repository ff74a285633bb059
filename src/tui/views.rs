//! Searches and saved views in the UI: a search run and its hits (each page of them)
//! listed; views listed in the folder view with counts the engine gives for their
//! queries (asked again while the list is open and mail changes), opened as a search
//! in the view's order, and made from the search listed (`save_view`), kept in
//! config.toml.

use super::app::App;
use super::command::Pane;
use super::panes::threads::SearchResults;
use super::reader_actions::PromptFor;
use crate::config::{View, ViewSort};
use crate::engine::handle::{EngineRequest, RequestId};
use crate::engine::{SearchHit, SearchOrder};

impl App {
    /// Opens the folder view and asks for the saved views' counts.
    pub(super) fn open_folders(&mut self) {
        self.threads.open_folders(&self.options.views);
        self.count_views();
    }

    /// Asks for the views' counts, or, while a count runs, for one more after it.
    fn count_views(&mut self) {
        let Some(picker) = self.threads.picker.as_mut() else {
            return;
        };
        if picker.views.is_empty() {
            return;
        }
        if picker.counting.is_some() {
            picker.recount = true;
            return;
        }
        let queries = picker.count_queries();
        let req = self.request(|req| EngineRequest::Count { req, queries });
        if let Some(p) = self.threads.picker.as_mut() {
            p.counting = Some(req);
        }
    }

    /// Mail arrived, moved or changed state: open views' counts are asked again.
    pub(super) fn mail_changed(&mut self) {
        self.count_views();
    }

    /// The engine's counts for the views.
    pub(super) fn counts_arrived(&mut self, req: RequestId, counts: Vec<Result<u64, String>>) {
        self.in_flight.remove(&req);
        let Some(picker) = self.threads.picker.as_mut() else {
            return;
        };
        if picker.counting != Some(req) {
            return;
        }
        picker.set_counts(&counts);
        picker.counting = None;
        if std::mem::take(&mut picker.recount) {
            self.count_views();
        }
    }

    /// Lists the mail of a saved view, in its order.
    pub(super) fn open_view(&mut self, view: View) {
        let order = match view.sort {
            ViewSort::Newest => SearchOrder::Newest,
            ViewSort::Oldest => SearchOrder::Oldest,
        };
        self.start_search(view.query, order, Some(view.name));
    }

    /// Runs a search and lists its hits in place of the threads.
    pub(super) fn start_search(&mut self, query: String, order: SearchOrder, view: Option<String>) {
        let limit = crate::engine::handle::SEARCH_LIMIT;
        let req = self.request(|req| EngineRequest::Search {
            req,
            query: query.clone(),
            limit,
            order,
        });
        self.threads.set_search(Some(SearchResults {
            query,
            req,
            pending: true,
            limit,
            order,
            view,
            ..SearchResults::default()
        }));
        self.reader = None;
        self.layout.focus_on(Pane::Threads);
    }

    /// A search's hits arrived: the first page, or the next one of the list shown.
    pub(super) fn search_results(&mut self, req: RequestId, query: String, hits: Vec<SearchHit>) {
        self.in_flight.remove(&req);
        if let Some(s) = self.threads.search.as_mut().filter(|s| s.req == req) {
            s.query = query;
            s.hits = hits;
            s.pending = false;
            self.threads.select(0);
        } else if let Some(s) = self.threads.search.as_mut().filter(|s| s.more == Some(req)) {
            // The next page: the selection stays on the hit it was on.
            let on = s.hits.get(self.threads.selected).map(|h| h.key.clone());
            s.hits = hits;
            s.more = None;
            let at = on
                .and_then(|k| s.hits.iter().position(|h| h.key == k))
                .unwrap_or(0);
            self.threads.select(at);
        }
    }

    /// `save_view`: asks for a name for the search listed.
    pub(super) fn save_view(&mut self) {
        let Some(s) = self.threads.search.as_ref().filter(|s| s.view.is_none()) else {
            return self
                .status
                .note("search first (/), then save the search as a view");
        };
        let query = s.query.clone();
        self.ask_line("Save view as", "", PromptFor::ViewName(query));
    }

    /// The name of a view to save was given.
    pub(super) fn view_named(&mut self, query: String, name: String) {
        let Some(path) = self.options.config_file.clone() else {
            return self.status.error("no config file to keep the view in");
        };
        let view = View {
            name: name.clone(),
            query,
            sort: ViewSort::Newest,
        };
        match crate::config::save_view(&path, &view) {
            Ok(views) => {
                self.options.views = views;
                if let Some(s) = self.threads.search.as_mut() {
                    s.view = Some(name.clone());
                }
                self.status
                    .note(format!("saved the view '{name}' in {}", path.display()));
            }
            Err(e) => self.status.error(e.to_string()),
        }
    }
}
