//! Keyboard input: a key event through the overlays and the key sequencer to a
//! command, or typed into the text input that has the focus.

use super::App;
use crate::tui::command::Command;
use crate::tui::keymap::Step;
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind};

impl App {
    pub(super) fn on_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if self.draft_prompt_key(&key) || self.item_picker_key(&key) || self.tag_prompt_key(&key) {
            return;
        }
        if self.help.is_some() {
            return self.help_key(key);
        }
        if self.status.popup {
            self.status.popup = false;
            return;
        }
        self.status.message = None;
        let mode = self.mode();
        if self.sequencer.mode() != mode {
            self.sequencer = self.keymap.sequencer(mode);
        }
        let step = self.sequencer.feed(&key);
        if !matches!(step, Step::Matched(Command::Quit) | Step::Pending) {
            self.quit_confirm = false;
        }
        if !matches!(step, Step::Matched(Command::Expunge) | Step::Pending) {
            self.expunge_armed = false;
        }
        match step {
            Step::Matched(cmd) => self.run(cmd),
            Step::NoMatch(keys) if mode.is_text_input() => {
                if let Some(input) = self.text_input() {
                    for k in keys {
                        input.input(k.to_event());
                    }
                }
            }
            Step::NoMatch(keys) => {
                let typed: Vec<String> = keys.iter().map(ToString::to_string).collect();
                self.status.note(format!(
                    "{} does nothing here ({} lists the keys)",
                    typed.join(" "),
                    self.help_key_name()
                ));
            }
            Step::Pending | Step::Ignored => {}
        }
    }

    /// The key that opens help in the current mode, for hints.
    pub(super) fn help_key_name(&self) -> String {
        self.keymap
            .mode(self.mode())
            .keys_for(&Command::Help)
            .next()
            .map(ToString::to_string)
            .unwrap_or_else(|| "?".into())
    }

    pub(super) fn help_key(&mut self, key: KeyEvent) {
        let Some(help) = self.help.as_mut() else {
            return;
        };
        match key.code {
            KeyCode::Char('j') | KeyCode::Down => help.scroll_by(1),
            KeyCode::Char('k') | KeyCode::Up => help.scroll_by(-1),
            KeyCode::PageDown | KeyCode::Char(' ') => help.scroll_by(10),
            KeyCode::PageUp => help.scroll_by(-10),
            _ => self.help = None,
        }
    }
}
