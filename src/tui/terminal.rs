//! Entering and leaving the terminal's raw mode and alternate screen. The terminal is
//! restored on every exit path: by the guard's `Drop` (normal exit, early return,
//! error) and by a panic hook (a panic prints its message on a usable terminal).

use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::Stdout;

/// Restores the terminal when dropped.
pub struct TerminalGuard {
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
}

impl TerminalGuard {
    /// Raw mode, alternate screen, and a panic hook that undoes both.
    pub fn enter() -> std::io::Result<TerminalGuard> {
        // ratatui's init installs the panic hook that restores the terminal first.
        let terminal = ratatui::try_init()?;
        Ok(TerminalGuard { terminal })
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = ratatui::try_restore();
    }
}
