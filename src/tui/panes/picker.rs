//! A numbered list over the panes to choose one thing from: a link of the message
//! to open, an attachment to save or open, a folder to move mail to. `j`/`k` or
//! the arrows move, a digit or Enter chooses, Esc closes.

use crate::terminal_text::one_line_for_terminal;
use crate::tui::theme::Theme;
use crate::tui::wrap::fit;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

/// What the picker was opened for, and what its rows stand for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PickFor {
    /// Open a link with the system opener.
    Link(Vec<String>),
    /// Save (else open) one of a message's attachments, by index.
    Attachment {
        key: crate::mail::model::MessageKey,
        indexes: Vec<u32>,
        names: Vec<String>,
        save: bool,
    },
    /// Jump to where a person or fact of a thread comes from: a message, with the
    /// quote's span when the row is a fact (None for a row that leads nowhere).
    Graph {
        thread: crate::mail::model::ThreadId,
        subject: String,
        targets: Vec<GraphTarget>,
    },
    /// Move these messages to a folder.
    Folder {
        keys: Vec<crate::mail::model::MessageKey>,
        folders: Vec<String>,
    },
}

/// Where a row of the people-and-facts view leads: a message, with the span of the
/// quote to highlight when there is one.
pub type GraphTarget = Option<(crate::mail::model::MessageKey, Option<(usize, usize)>)>;

#[derive(Debug, Clone)]
pub struct ItemPicker {
    pub title: String,
    pub rows: Vec<String>,
    pub selected: usize,
    pub purpose: PickFor,
}

/// What a key did to the picker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PickerStep {
    Stay,
    Chosen(usize),
    Closed,
}

impl ItemPicker {
    pub fn new(title: impl Into<String>, rows: Vec<String>, purpose: PickFor) -> Self {
        Self {
            title: title.into(),
            rows,
            selected: 0,
            purpose,
        }
    }

    pub fn key(&mut self, key: &KeyEvent) -> PickerStep {
        let last = self.rows.len().saturating_sub(1);
        match key.code {
            KeyCode::Char('j') | KeyCode::Down => self.selected = (self.selected + 1).min(last),
            KeyCode::Char('k') | KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Enter => return PickerStep::Chosen(self.selected),
            KeyCode::Char(c @ '1'..='9') => {
                let n = c as usize - '1' as usize;
                if n < self.rows.len() {
                    return PickerStep::Chosen(n);
                }
            }
            KeyCode::Esc | KeyCode::Char('q') => return PickerStep::Closed,
            _ => {}
        }
        PickerStep::Stay
    }
}

pub fn render(f: &mut Frame, area: Rect, picker: &ItemPicker, theme: &Theme) {
    let w = area.width.saturating_sub(4).clamp(10, 90);
    let inner_w = usize::from(w.saturating_sub(2));
    let visible = usize::from(area.height.saturating_sub(5)).max(1);
    let start = picker.selected.saturating_sub(visible.saturating_sub(1));
    let mut lines: Vec<Line> = picker
        .rows
        .iter()
        .enumerate()
        .skip(start)
        .take(visible)
        .map(|(i, row)| {
            let text = fit(
                &format!("{:>2} {}", i + 1, one_line_for_terminal(row)),
                inner_w,
            );
            if i == picker.selected {
                Line::from(Span::styled(text, theme.selected))
            } else {
                Line::from(text)
            }
        })
        .collect();
    lines.push(Line::from(Span::styled(
        fit("Enter or a digit chooses · Esc closes", inner_w),
        theme.dim,
    )));
    let h = (lines.len() as u16 + 2).min(area.height);
    let popup = Rect {
        x: area.x + (area.width.saturating_sub(w)) / 2,
        y: area.y + (area.height.saturating_sub(h)) / 2,
        width: w.min(area.width),
        height: h,
    };
    f.render_widget(Clear, popup);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border)
                .title(Span::styled(
                    format!(" {} ", one_line_for_terminal(&picker.title)),
                    theme.title,
                )),
        ),
        popup,
    );
}
