//! Entering and leaving the terminal's raw mode and alternate screen, and the last
//! guard between mail text and the terminal. The terminal is restored on every exit
//! path: by the guard's `Drop` (normal exit, early return, error) and by a panic hook
//! (a panic prints its message on a usable terminal).
//!
//! The panes pass mail text through [`crate::terminal_text::for_terminal`] before
//! laying it out, so hostile characters show as placeholders. [`SafeBackend`] makes
//! sure of it at the last step: a cell whose symbol still holds a control character
//! (from any text a pane forgot) is written without it, so no escape sequence ever
//! reaches the terminal from the UI's content.

use crate::terminal_text::is_unsafe;
use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use ratatui::Terminal;
use std::io::{self, Stdout};

/// A backend that never writes a control character of a cell's content.
pub struct SafeBackend<B: Backend> {
    inner: B,
}

impl<B: Backend> SafeBackend<B> {
    pub fn new(inner: B) -> Self {
        Self { inner }
    }

    pub fn inner(&self) -> &B {
        &self.inner
    }
}

/// A cell's symbol without unsafe characters (a blank when nothing is left).
fn safe_cell(cell: &Cell) -> Option<Cell> {
    let symbol = cell.symbol();
    if !symbol.chars().any(is_unsafe) {
        return None;
    }
    let kept: String = symbol.chars().filter(|c| !is_unsafe(*c)).collect();
    let mut clean = cell.clone();
    clean.set_symbol(if kept.is_empty() { " " } else { &kept });
    Some(clean)
}

impl<B: Backend> Backend for SafeBackend<B> {
    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let cells: Vec<(u16, u16, &'a Cell)> = content.collect();
        if !cells
            .iter()
            .any(|(_, _, c)| c.symbol().chars().any(is_unsafe))
        {
            return self.inner.draw(cells.into_iter());
        }
        let cleaned: Vec<(u16, u16, Cell)> = cells
            .iter()
            .map(|(x, y, c)| (*x, *y, safe_cell(c).unwrap_or_else(|| (*c).clone())))
            .collect();
        self.inner.draw(cleaned.iter().map(|(x, y, c)| (*x, *y, c)))
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        self.inner.get_cursor_position()
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.inner.set_cursor_position(position)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        self.inner.size()
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        self.inner.window_size()
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The UI's terminal.
pub type UiTerminal = Terminal<SafeBackend<CrosstermBackend<Stdout>>>;

/// Restores the terminal when dropped.
pub struct TerminalGuard {
    pub terminal: UiTerminal,
}

impl TerminalGuard {
    /// Raw mode, alternate screen, and a panic hook that undoes both.
    pub fn enter() -> io::Result<TerminalGuard> {
        // ratatui's init installs the panic hook that restores the terminal first.
        let plain = ratatui::try_init()?;
        let backend = SafeBackend::new(CrosstermBackend::new(io::stdout()));
        drop(plain);
        let terminal = Terminal::new(backend)?;
        Ok(TerminalGuard { terminal })
    }
}

impl TerminalGuard {
    /// Hands the terminal to another program (the editor): cooked mode, main screen.
    pub fn suspend(&mut self) -> io::Result<()> {
        ratatui::try_restore()
    }

    /// Takes the terminal back after [`TerminalGuard::suspend`] and redraws all of it.
    pub fn resume(&mut self) -> io::Result<()> {
        crossterm::terminal::enable_raw_mode()?;
        crossterm::execute!(io::stdout(), crossterm::terminal::EnterAlternateScreen)?;
        self.terminal.clear()
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = ratatui::try_restore();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::backend::TestBackend;
    use ratatui::widgets::Paragraph;

    #[test]
    fn no_control_character_reaches_the_backend() {
        let mut terminal =
            Terminal::new(SafeBackend::new(TestBackend::new(30, 2))).expect("terminal");
        terminal
            .draw(|f| {
                f.render_widget(
                    Paragraph::new("a\x1b]0;owned\x07b\u{9b}2J\u{202e}c"),
                    f.area(),
                )
            })
            .expect("draw");
        let buffer = terminal.backend().inner().buffer();
        for cell in buffer.content() {
            assert!(!cell.symbol().chars().any(is_unsafe), "{:?}", cell.symbol());
        }
    }
}
