//! The folder view: every folder of the mailbox with its unread and total counts,
//! shown in place of the thread list. Choosing one filters the thread list to the
//! threads with mail there; "All mail", the unified view, comes first and is the
//! default.

use crate::store::{FolderCount, ThreadSummary};
use crate::terminal_text::one_line_for_terminal;
use crate::tui::theme::Theme;
use crate::tui::wrap::fit;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// The folder list while it is open.
#[derive(Debug, Clone, Default)]
pub struct FolderPicker {
    /// "All mail" (an empty name) first, then the folders by name.
    pub rows: Vec<FolderCount>,
    pub selected: usize,
    pub offset: usize,
    pub height: usize,
}

impl FolderPicker {
    /// The folders of `threads`, with the row of `current` (None: all mail) selected.
    pub fn new(threads: &[ThreadSummary], current: Option<&str>) -> Self {
        let rows = folder_rows(threads);
        let selected = current
            .and_then(|c| rows.iter().position(|r| r.name == c))
            .unwrap_or(0);
        Self {
            rows,
            selected,
            offset: 0,
            height: 0,
        }
    }

    pub fn move_by(&mut self, delta: isize) {
        let last = self.rows.len().saturating_sub(1) as isize;
        self.selected = (self.selected as isize)
            .saturating_add(delta)
            .clamp(0, last.max(0)) as usize;
    }

    /// The folder chosen: `None` for all mail.
    pub fn chosen(&self) -> Option<String> {
        self.rows
            .get(self.selected)
            .map(|r| r.name.clone())
            .filter(|n| !n.is_empty())
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
    let lines: Vec<Line> = picker
        .rows
        .iter()
        .enumerate()
        .skip(picker.offset)
        .take(picker.height)
        .map(|(i, r)| {
            let counts = if r.unread > 0 {
                format!("{} unread / {}", r.unread, r.emails)
            } else {
                format!("{}", r.emails)
            };
            let name = if r.name.is_empty() {
                "All mail".to_string()
            } else {
                one_line_for_terminal(&r.name).into_owned()
            };
            let name_w = width.saturating_sub(counts.chars().count() + 1);
            let text = format!("{:<name_w$} {counts}", fit(&name, name_w));
            let style = match (i == picker.selected, r.unread > 0) {
                (true, _) if focused => theme.selected,
                (true, _) => theme.dim.patch(theme.selected),
                (false, true) => theme.unread,
                (false, false) => theme.text,
            };
            Line::from(Span::styled(text, style))
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
