//! The folder view: every folder of the mailbox with its unread and total counts,
//! shown in place of the thread list. Choosing one filters the thread list to the
//! threads with mail there; "All mail", the unified view, comes first and is the
//! default. The saved views (searches kept as folders) follow it, with the counts
//! the engine gives for their queries.

use crate::config::View;
use crate::engine::handle::RequestId;
use crate::store::{FolderCount, ThreadSummary};
use crate::terminal_text::one_line_for_terminal;
use crate::tui::theme::Theme;
use crate::tui::wrap::fit;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// A saved view in the folder list, with its counts once the engine gave them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ViewRow {
    pub view: View,
    pub total: Option<u64>,
    pub unread: Option<u64>,
    /// Why its query cannot be counted (a bad query in config.toml).
    pub error: Option<String>,
}

/// What the folder list's selection stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Chosen {
    /// A folder, or all mail (`None`).
    Folder(Option<String>),
    View(View),
}

/// The folder list while it is open: all mail, the saved views, then the folders.
#[derive(Debug, Clone, Default)]
pub struct FolderPicker {
    /// "All mail" (an empty name) first, then the folders by name.
    pub rows: Vec<FolderCount>,
    /// The saved views, listed after all mail.
    pub views: Vec<ViewRow>,
    /// The count request in flight for the views.
    pub counting: Option<RequestId>,
    /// The views' counts are out of date: ask again when the request in flight ends.
    pub recount: bool,
    pub selected: usize,
    pub offset: usize,
    pub height: usize,
}

impl FolderPicker {
    /// The folders of `threads` and the saved `views`, with the row of `current`
    /// (None: all mail) selected.
    pub fn new(threads: &[ThreadSummary], views: &[View], current: Option<&str>) -> Self {
        let rows = folder_rows(threads);
        let views: Vec<ViewRow> = views
            .iter()
            .map(|v| ViewRow {
                view: v.clone(),
                total: None,
                unread: None,
                error: None,
            })
            .collect();
        let selected = current
            .and_then(|c| rows.iter().position(|r| r.name == c))
            .map_or(0, |i| i + views.len());
        Self {
            rows,
            views,
            counting: None,
            recount: false,
            selected,
            offset: 0,
            height: 0,
        }
    }

    fn len(&self) -> usize {
        self.rows.len() + self.views.len()
    }

    pub fn move_by(&mut self, delta: isize) {
        let last = self.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize)
            .saturating_add(delta)
            .clamp(0, last.max(0)) as usize;
    }

    /// The row chosen.
    pub fn chosen(&self) -> Chosen {
        let views = self.views.len();
        match self.selected {
            0 => Chosen::Folder(None),
            i if i <= views => Chosen::View(self.views[i - 1].view.clone()),
            i => Chosen::Folder(
                self.rows
                    .get(i - views)
                    .map(|r| r.name.clone())
                    .filter(|n| !n.is_empty()),
            ),
        }
    }

    /// The queries whose counts the views show: each view's query, then its
    /// unread mail's, for every view in order.
    pub fn count_queries(&self) -> Vec<String> {
        self.views
            .iter()
            .flat_map(|v| [v.view.query.clone(), v.view.unread_query()])
            .collect()
    }

    /// The engine's answer to [`FolderPicker::count_queries`].
    pub fn set_counts(&mut self, counts: &[Result<u64, String>]) {
        for (row, pair) in self.views.iter_mut().zip(counts.chunks(2)) {
            row.error = pair.iter().find_map(|c| c.as_ref().err()).cloned();
            row.total = pair.first().and_then(|c| c.as_ref().ok()).copied();
            row.unread = pair.get(1).and_then(|c| c.as_ref().ok()).copied();
        }
    }

    /// The text and unread flag of display row `i`.
    fn row(&self, i: usize) -> Option<(String, String, bool)> {
        let views = self.views.len();
        let counts = |unread: u32, emails: u32| {
            if unread > 0 {
                format!("{unread} unread / {emails}")
            } else {
                format!("{emails}")
            }
        };
        if i > 0 && i <= views {
            let v = &self.views[i - 1];
            let name = format!("◇ {}", one_line_for_terminal(&v.view.name));
            let counts = match (&v.error, v.total, v.unread) {
                (Some(_), _, _) => "bad query".to_string(),
                (None, Some(t), Some(u)) if u > 0 => format!("{u} unread / {t}"),
                (None, Some(t), _) => format!("{t}"),
                (None, None, _) => "…".to_string(),
            };
            return Some((name, counts, v.unread.is_some_and(|u| u > 0)));
        }
        let r = self.rows.get(if i == 0 { 0 } else { i - views })?;
        let name = if r.name.is_empty() {
            "All mail".to_string()
        } else {
            one_line_for_terminal(&r.name).into_owned()
        };
        Some((name, counts(r.unread, r.emails), r.unread > 0))
    }
}

/// Every folder with the emails there and how many are unread, by name, after a
/// first row for all mail (an empty name).
pub fn folder_rows(threads: &[ThreadSummary]) -> Vec<FolderCount> {
    let mut all = FolderCount::default();
    let mut by_name: std::collections::BTreeMap<&str, FolderCount> = Default::default();
    for t in threads {
        all.emails += t.email_count() as u32;
        all.unread += t.unread;
        for c in &t.folders {
            let row = by_name
                .entry(c.name.as_str())
                .or_insert_with(|| FolderCount {
                    name: c.name.clone(),
                    ..FolderCount::default()
                });
            row.emails += c.emails;
            row.unread += c.unread;
        }
    }
    std::iter::once(all).chain(by_name.into_values()).collect()
}

pub fn render(f: &mut Frame, area: Rect, picker: &mut FolderPicker, theme: &Theme, focused: bool) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused { theme.focus } else { theme.border })
        .title(Span::styled(
            " Folders (Enter opens, Esc closes) ",
            theme.title,
        ));
    let inner = block.inner(area);
    f.render_widget(block, area);
    picker.height = usize::from(inner.height).max(1);
    if picker.selected < picker.offset {
        picker.offset = picker.selected;
    } else if picker.selected >= picker.offset + picker.height {
        picker.offset = picker.selected + 1 - picker.height;
    }
    let width = usize::from(inner.width);
    let lines: Vec<Line> = (picker.offset..picker.len())
        .take(picker.height)
        .filter_map(|i| {
            let (name, counts, unread) = picker.row(i)?;
            let name_w = width.saturating_sub(counts.chars().count() + 1);
            let text = format!("{:<name_w$} {counts}", fit(&name, name_w));
            let style = match (i == picker.selected, unread) {
                (true, _) if focused => theme.selected,
                (true, _) => theme.dim.patch(theme.selected),
                (false, true) => theme.unread,
                (false, false) => theme.text,
            };
            Some(Line::from(Span::styled(text, style)))
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
