//! The status bar (mode, keys typed so far, the last message, a gauge for background
//! work) and the status popup that `S` opens.

use crate::engine::handle::Progress;
use crate::engine::IngestPhase;
use crate::terminal_text::one_line_for_terminal;
use crate::tui::theme::Theme;
use crate::tui::wrap::{fit, text_width};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;
use std::collections::BTreeMap;

/// What the status bar and popup know of background work.
#[derive(Debug, Default, Clone)]
pub struct StatusState {
    /// The last progress report while work runs.
    pub progress: Option<Progress>,
    /// Ingest or embedding runs.
    pub busy: bool,
    /// What the last background run did.
    pub last_summary: Option<String>,
    /// A one-off message (an error, a note), until the next key.
    pub message: Option<(String, bool)>,
    pub errors: Vec<String>,
    pub popup: bool,
    /// IMAP accounts by name.
    pub accounts: BTreeMap<String, AccountStatus>,
}

/// What the status popup says of an IMAP account.
#[derive(Debug, Default, Clone)]
pub struct AccountStatus {
    /// The folder its IDLE connection waits on, once it is up.
    pub watching: Option<String>,
    /// What its last sync of every folder did.
    pub last_sync: Option<String>,
    /// The last new mail found (the status bar's note of it gives way to the next).
    pub new_mail: Option<String>,
}

impl AccountStatus {
    fn line(&self) -> String {
        let mut parts = Vec::new();
        if let Some(f) = &self.watching {
            parts.push(format!("watching {f}"));
        }
        if let Some(s) = &self.last_sync {
            parts.push(s.clone());
        }
        if let Some(s) = &self.new_mail {
            parts.push(s.clone());
        }
        parts.join(" · ")
    }
}

impl StatusState {
    pub fn note(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), false));
    }

    pub fn error(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.errors.push(text.clone());
        if self.errors.len() > 20 {
            self.errors.remove(0);
        }
        self.message = Some((text, true));
    }

    /// The gauge label and its fill (0..=1), when work runs.
    pub fn gauge(&self) -> Option<(String, f64)> {
        if !self.busy {
            return None;
        }
        Some(match &self.progress {
            Some(Progress::Ingest { phase, done, total }) => {
                let name = match phase {
                    IngestPhase::Scanning => "scanning",
                    IngestPhase::Reading => "reading mail",
                    IngestPhase::Threading => "threading",
                    IngestPhase::Indexing => "indexing",
                    IngestPhase::Done => "ingested",
                };
                (name.to_string(), ratio(*done as f64, *total as f64))
            }
            Some(Progress::Embed { done, total }) => {
                ("embedding".to_string(), ratio(*done as f64, *total as f64))
            }
            _ => ("working".to_string(), 0.0),
        })
    }
}

fn ratio(done: f64, total: f64) -> f64 {
    if total > 0.0 {
        (done / total).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// A text gauge: `embedding ███████░░░ 70%`.
pub fn gauge_text(label: &str, fill: f64, bar: usize) -> String {
    let full = (fill * bar as f64).round() as usize;
    format!(
        "{label} {}{} {:>3}%",
        "█".repeat(full),
        "░".repeat(bar - full.min(bar)),
        (fill * 100.0).round() as u32
    )
}

pub struct StatusBar<'a> {
    pub mode: &'a str,
    pub pending_keys: &'a str,
    pub help_key: &'a str,
}

pub fn render_bar(f: &mut Frame, area: Rect, state: &StatusState, bar: &StatusBar, theme: &Theme) {
    let width = usize::from(area.width);
    let right = state
        .gauge()
        .map(|(label, fill)| gauge_text(&label, fill, 12))
        .unwrap_or_default();
    let mut left = vec![Span::styled(format!(" {} ", bar.mode), theme.selected)];
    if !bar.pending_keys.is_empty() {
        left.push(Span::styled(format!(" {} ", bar.pending_keys), theme.key));
    }
    let used: usize = left.iter().map(|s| text_width(&s.content)).sum();
    let room = width.saturating_sub(used + text_width(&right) + 1);
    let (msg, style) = match &state.message {
        Some((m, true)) => (m.clone(), theme.error),
        Some((m, false)) => (m.clone(), theme.text),
        None => (format!("{} help", bar.help_key), theme.dim),
    };
    left.push(Span::styled(
        format!(" {}", fit(&msg, room.saturating_sub(1))),
        style,
    ));
    left.push(Span::styled(right, theme.hint));
    f.render_widget(Paragraph::new(Line::from(left)), area);
}

/// The popup with what background work did and any errors.
pub fn render_popup(f: &mut Frame, area: Rect, state: &StatusState, threads: usize, theme: &Theme) {
    let mut lines = vec![Line::from(format!("Threads listed: {threads}"))];
    match state.gauge() {
        Some((label, fill)) => lines.push(Line::from(gauge_text(&label, fill, 20))),
        None => lines.push(Line::from("No background work running.")),
    }
    if let Some(s) = &state.last_summary {
        lines.push(Line::from(format!(
            "Last run: {}",
            one_line_for_terminal(s)
        )));
    }
    for (account, status) in &state.accounts {
        lines.push(Line::from(
            one_line_for_terminal(&format!("IMAP {account}: {}", status.line())).into_owned(),
        ));
    }
    if !state.errors.is_empty() {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled("Errors:", theme.error)));
        for e in state.errors.iter().rev().take(8) {
            lines.push(Line::from(format!("  {}", one_line_for_terminal(e))));
        }
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "R syncs now · any key closes",
        theme.dim,
    )));
    let w = area.width.saturating_sub(4).min(90);
    let h = (lines.len() as u16 + 2).min(area.height);
    let popup = Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    };
    f.render_widget(Clear, popup);
    f.render_widget(
        Paragraph::new(lines).block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border)
                .title(Span::styled(" Status ", theme.title)),
        ),
        popup,
    );
}
