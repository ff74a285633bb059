//! Drawing the whole screen: the panes in their layout, the prompt row, the status
//! bar and the overlays (status popup, item picker, help).

use super::App;
use crate::engine::Citation;
use crate::tui::command::{Command, Pane};
use crate::tui::help::HelpOverlay;
use crate::tui::panes::chat::{self, ChatView};
use crate::tui::panes::{evidence, reader, threads};
use crate::tui::status::{self, StatusBar};
use ratatui::backend::Backend;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use ratatui::{Frame, Terminal};

impl App {
    /// Draws the whole screen.
    pub fn draw<B: Backend>(&mut self, terminal: &mut Terminal<B>) -> std::io::Result<()> {
        terminal.draw(|f| self.render(f))?;
        self.dirty = false;
        Ok(())
    }

    pub(super) fn render(&mut self, f: &mut Frame) {
        let area = f.area();
        let prompt_h = u16::from(self.search_input.is_some() || self.line_prompt.is_some());
        let [panes, prompt, bar] = Layout::vertical([
            Constraint::Min(0),
            Constraint::Length(prompt_h),
            Constraint::Length(1),
        ])
        .areas(area);
        let mode = self.mode();
        let hint = HelpOverlay::ask_hint(&self.keymap, mode);
        let scope_label = self.scope_thread().map(|(_, s)| s).unwrap_or_default();
        for (pane, rect) in self.layout.areas(panes) {
            let focused = pane == self.layout.focus && prompt_h == 0;
            match pane {
                Pane::Threads => match self.reader.as_mut() {
                    Some(r) => {
                        let tags = self.threads.tags.get(&r.thread).map_or(&[][..], |t| &t[..]);
                        reader::render(f, rect, r, tags, &self.theme, focused)
                    }
                    None => threads::render(f, rect, &mut self.threads, &self.theme, focused),
                },
                Pane::Chat => {
                    let view = ChatView {
                        theme: &self.theme,
                        focused,
                        hint: &hint,
                        scope_label: &scope_label,
                    };
                    chat::render(f, rect, &mut self.chat, &view)
                }
                Pane::Evidence => {
                    let citations: Vec<Citation> = self.citations().to_vec();
                    let closest = self.closest().cloned();
                    evidence::render(
                        f,
                        rect,
                        &citations,
                        closest.as_ref(),
                        &mut self.evidence,
                        &self.theme,
                        focused,
                    )
                }
            }
        }
        if let Some(p) = self.line_prompt.as_ref() {
            let text = format!(" {}: ", p.label);
            let [label, field] = Layout::horizontal([
                Constraint::Length(crate::tui::wrap::text_width(&text) as u16),
                Constraint::Min(0),
            ])
            .areas(prompt);
            f.render_widget(Paragraph::new(Span::styled(text, self.theme.key)), label);
            f.render_widget(&p.input, field);
        } else if let Some(input) = self.search_input.as_ref() {
            let [label, field] =
                Layout::horizontal([Constraint::Length(8), Constraint::Min(0)]).areas(prompt);
            f.render_widget(
                Paragraph::new(Span::styled(" Search ", self.theme.key)),
                label,
            );
            f.render_widget(input, field);
        }
        let pending: Vec<String> = self
            .sequencer
            .pending()
            .iter()
            .map(|k| k.to_string())
            .collect();
        let help_key = self
            .keymap
            .mode(mode)
            .keys_for(&Command::Help)
            .next()
            .map(|k| k.to_string())
            .unwrap_or_else(|| "?".into());
        status::render_bar(
            f,
            bar,
            &self.status,
            &StatusBar {
                mode: mode.name(),
                pending_keys: &pending.join(" "),
                help_key: &help_key,
            },
            &self.theme,
        );
        if self.status.popup {
            status::render_popup(
                f,
                panes,
                &self.status,
                self.threads.threads.len(),
                &self.theme,
            );
        }
        if let Some(picker) = self.item_picker.as_ref() {
            crate::tui::panes::picker::render(f, panes, picker, &self.theme);
        }
        if let Some(state) = self.help.as_mut() {
            f.render_stateful_widget(
                HelpOverlay::new(&self.keymap, mode, self.theme),
                area,
                state,
            );
        }
    }
}
