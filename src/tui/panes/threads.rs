//! The thread list, or the search results that replace it until they are cleared.

use super::folders::{Chosen, FolderPicker};
use super::reader::tag_marks;
use crate::config::View;
use crate::engine::handle::{sort_threads, RequestId};
use crate::engine::{SearchHit, SearchOrder};
use crate::mail::model::{MessageKey, ThreadId};
use crate::store::ThreadSummary;
use crate::terminal_text::one_line_for_terminal;
use crate::tui::theme::Theme;
use crate::tui::wrap::fit;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// Search results shown in place of the thread list.
#[derive(Debug, Clone, Default)]
pub struct SearchResults {
    pub query: String,
    pub req: RequestId,
    pub hits: Vec<SearchHit>,
    pub pending: bool,
    pub error: Option<String>,
    /// How many hits were asked for: a list this long may go on.
    pub limit: usize,
    /// The request for the next page, while it runs.
    pub more: Option<RequestId>,
    /// The order asked for (a saved view's sort), kept for the next page.
    pub order: SearchOrder,
    /// The saved view these results are, by name.
    pub view: Option<String>,
}

impl SearchResults {
    /// More hits may match than are listed.
    pub fn may_go_on(&self) -> bool {
        self.limit > 0 && self.hits.len() >= self.limit
    }
}

#[derive(Debug, Clone, Default)]
pub struct ThreadsState {
    /// The threads listed: every thread, or those with mail in `folder`.
    pub threads: Vec<ThreadSummary>,
    /// The folder the list shows (None: all mail).
    pub folder: Option<String>,
    /// Every thread while a folder filters `threads`.
    all: Vec<ThreadSummary>,
    /// The folder list, shown in place of the threads while open.
    pub picker: Option<FolderPicker>,
    /// The whole list has arrived.
    pub complete: bool,
    pub search: Option<SearchResults>,
    pub selected: usize,
    pub offset: usize,
    /// Rows visible at the last draw, for paging.
    pub height: usize,
    /// The tags on each thread's mail (threads without tags are absent).
    pub tags: std::collections::HashMap<ThreadId, Vec<String>>,
}

impl ThreadsState {
    pub fn len(&self) -> usize {
        match &self.search {
            Some(s) => s.hits.len(),
            None => self.threads.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every thread, whatever the folder shown.
    pub fn every_thread(&self) -> &[ThreadSummary] {
        match self.folder {
            Some(_) => &self.all,
            None => &self.threads,
        }
    }

    /// A batch of the thread list; the selection stays on the same thread.
    pub fn add_batch(&mut self, batch: Vec<ThreadSummary>, first: bool, complete: bool) {
        let keep = self.selected_thread();
        let every = match self.folder {
            Some(_) => &mut self.all,
            None => &mut self.threads,
        };
        if first {
            every.clear();
        }
        every.extend(batch);
        if !first {
            sort_threads(every);
        }
        self.refilter();
        self.complete = complete;
        if self.search.is_none() {
            if let Some(id) = keep {
                if let Some(i) = self.threads.iter().position(|t| t.id == id) {
                    self.selected = i;
                }
            }
            self.clamp();
        }
    }

    pub fn selected_thread(&self) -> Option<ThreadId> {
        match &self.search {
            Some(s) => s
                .hits
                .get(self.selected)
                .and_then(|h| ThreadId::from_hex(&h.thread_id)),
            None => self.threads.get(self.selected).map(|t| t.id),
        }
    }

    /// The message of the selected search hit, when search results are listed.
    pub fn selected_hit_key(&self) -> Option<MessageKey> {
        let s = self.search.as_ref()?;
        MessageKey::from_hex(&s.hits.get(self.selected)?.key)
    }

    /// The subject of the selected row.
    pub fn selected_subject(&self) -> String {
        match &self.search {
            Some(s) => s.hits.get(self.selected).map(|h| h.subject.clone()),
            None => self.threads.get(self.selected).map(|t| t.subject.clone()),
        }
        .unwrap_or_default()
    }

    pub fn move_by(&mut self, delta: isize) {
        if let Some(p) = self.picker.as_mut() {
            return p.move_by(delta);
        }
        let last = self.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize)
            .saturating_add(delta)
            .clamp(0, last.max(0)) as usize;
        self.clamp();
    }

    pub fn page(&self) -> isize {
        self.height.max(2) as isize - 1
    }

    /// Scrolls the view; the selection follows only when it would leave the screen.
    pub fn scroll_by(&mut self, delta: isize) {
        let max = self.len().saturating_sub(self.height.max(1)) as isize;
        self.offset = (self.offset as isize)
            .saturating_add(delta)
            .clamp(0, max.max(0)) as usize;
        let h = self.height.max(1);
        if self.selected < self.offset {
            self.selected = self.offset;
        } else if self.selected >= self.offset + h {
            self.selected = self.offset + h - 1;
        }
    }

    pub fn select(&mut self, i: usize) {
        self.selected = i;
        self.clamp();
    }

    fn clamp(&mut self) {
        self.selected = self.selected.min(self.len().saturating_sub(1));
        let h = self.height.max(1);
        if self.selected < self.offset {
            self.offset = self.selected;
        } else if self.selected >= self.offset + h {
            self.offset = self.selected + 1 - h;
        }
    }

    /// A thread's summary changed (a flag, a move): the list shows it, or leaves it
    /// out when it no longer has mail in the folder shown.
    pub fn update_thread(&mut self, summary: ThreadSummary) {
        let keep = self.selected_thread();
        for list in [&mut self.threads, &mut self.all] {
            if let Some(t) = list.iter_mut().find(|t| t.id == summary.id) {
                *t = summary.clone();
            }
        }
        self.refilter();
        if let Some(i) = keep.and_then(|id| self.threads.iter().position(|t| t.id == id)) {
            self.selected = i;
        }
        self.clamp();
    }

    /// Shows the threads of one folder, or (None) all mail.
    pub fn set_folder(&mut self, folder: Option<String>) {
        if self.folder.is_some() {
            self.threads = std::mem::take(&mut self.all);
        }
        if folder.is_some() {
            self.all = std::mem::take(&mut self.threads);
        }
        self.folder = folder;
        self.refilter();
        self.selected = 0;
        self.offset = 0;
    }

    fn refilter(&mut self) {
        if let Some(folder) = &self.folder {
            self.threads = self
                .all
                .iter()
                .filter(|t| t.folders.iter().any(|c| c.name == *folder))
                .cloned()
                .collect();
        }
    }

    pub fn open_folders(&mut self, views: &[View]) {
        self.picker = Some(FolderPicker::new(
            self.every_thread(),
            views,
            self.folder.as_deref(),
        ));
    }

    /// The row selected in the folder list is chosen: a folder becomes the one
    /// shown; a saved view is returned, for its search to be run.
    pub fn choose_folder(&mut self) -> Option<View> {
        match self.picker.take()?.chosen() {
            Chosen::Folder(folder) => {
                self.set_folder(folder);
                None
            }
            Chosen::View(view) => Some(view),
        }
    }

    pub fn set_search(&mut self, search: Option<SearchResults>) {
        if search.is_some() {
            self.picker = None;
        }
        self.search = search;
        self.selected = 0;
        self.offset = 0;
    }
}

/// `2024-03-04`, or blanks when the date is unknown.
pub fn day(ts: Option<i64>) -> String {
    ts.and_then(|t| chrono::DateTime::from_timestamp(t, 0))
        .map(|d| d.format("%Y-%m-%d").to_string())
        .unwrap_or_else(|| " ".repeat(10))
}

pub fn render(f: &mut Frame, area: Rect, state: &mut ThreadsState, theme: &Theme, focused: bool) {
    if let Some(picker) = state.picker.as_mut() {
        return super::folders::render(f, area, picker, theme, focused);
    }
    let folder = state
        .folder
        .as_deref()
        .map(|f| format!("{} · ", one_line_for_terminal(f)))
        .unwrap_or_default();
    let what = |s: &SearchResults| match &s.view {
        Some(name) => format!("View {}: {}", one_line_for_terminal(name), s.query),
        None => format!("Search: {}", s.query),
    };
    let title = match &state.search {
        Some(s) if s.pending => format!(" {} (searching…) ", what(s)),
        Some(s) if s.more.is_some() => format!(
            " {} (first {} shown, reading more…) ",
            what(s),
            s.hits.len()
        ),
        Some(s) if s.may_go_on() => format!(
            " {} (first {} shown, more match: the end of the list reads on; Esc clears) ",
            what(s),
            s.hits.len()
        ),
        Some(s) => format!(" {} ({} found, Esc clears) ", what(s), s.hits.len()),
        None if !state.complete => {
            format!(" {folder}Threads ({}, loading…) ", state.threads.len())
        }
        None => format!(" {folder}Threads ({}) ", state.threads.len()),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused { theme.focus } else { theme.border })
        .title(Span::styled(title, theme.title));
    let inner = block.inner(area);
    f.render_widget(block, area);
    state.height = usize::from(inner.height);
    state.clamp();
    let width = usize::from(inner.width);
    let mut lines = Vec::new();
    if let Some(err) = state.search.as_ref().and_then(|s| s.error.clone()) {
        lines.push(Line::from(Span::styled(
            one_line_for_terminal(&err).into_owned(),
            theme.error,
        )));
    } else if state.is_empty() {
        let text = match &state.search {
            Some(s) if s.pending => "Searching…",
            Some(_) => "No messages match.",
            None if !state.complete => "Loading threads…",
            None if state.folder.is_some() => "No threads here (Esc shows all mail).",
            None => "No mail yet.",
        };
        lines.push(Line::from(Span::styled(text, theme.dim)));
    }
    let rows = state.len().saturating_sub(state.offset).min(state.height);
    for i in state.offset..state.offset + rows {
        let mut line = match &state.search {
            Some(s) => hit_row(&s.hits[i], width, theme),
            None => {
                let t = &state.threads[i];
                let tags = state.tags.get(&t.id).map_or(&[][..], |v| &v[..]);
                thread_row(t, tags, width, theme)
            }
        };
        if i == state.selected {
            line = line.patch_style(if focused {
                theme.selected
            } else {
                theme.dim.patch(theme.selected)
            });
        }
        lines.push(line);
    }
    f.render_widget(Paragraph::new(lines), inner);
}

/// `2024-03-04 •@ Dana Whitfield  Roof leak over … (3)`
fn thread_row(t: &ThreadSummary, tags: &[String], width: usize, theme: &Theme) -> Line<'static> {
    let marks = format!(
        "{}{}",
        if t.unread > 0 { '•' } else { ' ' },
        if t.has_attachment { '@' } else { ' ' }
    );
    let sender = t.senders.last().cloned().unwrap_or_default();
    let count = if t.email_count() > 1 {
        format!("{} ({})", tag_marks(tags), t.email_count())
    } else {
        tag_marks(tags)
    };
    let style = if t.unread > 0 {
        theme.unread
    } else {
        theme.text
    };
    row(
        &day(t.latest_date),
        &marks,
        &sender,
        &t.subject,
        &count,
        width,
        style,
        theme,
    )
}

fn hit_row(h: &SearchHit, width: usize, theme: &Theme) -> Line<'static> {
    row(
        &day(h.date),
        "  ",
        &h.from,
        &h.subject,
        &tag_marks(&h.tags),
        width,
        theme.text,
        theme,
    )
}

#[allow(clippy::too_many_arguments)]
fn row(
    date: &str,
    marks: &str,
    sender: &str,
    subject: &str,
    count: &str,
    width: usize,
    style: ratatui::style::Style,
    theme: &Theme,
) -> Line<'static> {
    // Narrow panes drop the year, then the sender.
    let date = if width < 40 {
        &date[date.len().min(5)..]
    } else {
        date
    };
    let sender_w = if width < 36 {
        0
    } else {
        (width / 4).clamp(8, 18)
    };
    let fixed = date.chars().count() + 1 + 2 + sender_w + usize::from(sender_w > 0);
    // Tags and the count take at most a third of the row: the subject comes first.
    let tail_w = count.chars().count().min(width / 3);
    let count = fit(count, tail_w);
    let count = count.as_str();
    let subject_w = width.saturating_sub(fixed + tail_w);
    let mut spans = vec![
        Span::styled(format!("{date} "), theme.dim),
        Span::styled(marks.to_string(), theme.key),
    ];
    if sender_w > 0 {
        spans.push(Span::styled(format!("{} ", fit(sender, sender_w)), style));
    }
    let subject = if subject.trim().is_empty() {
        "(no subject)"
    } else {
        subject
    };
    spans.push(Span::styled(fit(subject, subject_w), style));
    spans.push(Span::styled(count.to_string(), theme.dim));
    Line::from(spans)
}
