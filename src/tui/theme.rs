//! Colours of the TUI, with a plain variant for `NO_COLOR`.
//!
//! Widgets take a [`Theme`] instead of building styles themselves, so honouring
//! `NO_COLOR` (<https://no-color.org>) is decided once, here, and tests can render
//! either variant without touching the environment.

use ratatui::style::{Color, Modifier, Style};

/// The styles widgets draw with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Whether colours are used at all.
    pub colored: bool,
    /// Popup and pane borders.
    pub border: Style,
    /// Titles in borders.
    pub title: Style,
    /// Key names in the help overlay.
    pub key: Style,
    /// Descriptions next to keys.
    pub text: Style,
    /// Hints such as the "how to ask" line.
    pub hint: Style,
    /// The border of the focused pane.
    pub focus: Style,
    /// The selected row of a list.
    pub selected: Style,
    /// A cited quote inside a message, and `[n]` markers in answers.
    pub cited: Style,
    /// Quiet text: the standalone rewrite, quoted history, signatures, dates.
    pub dim: Style,
    /// Unread threads.
    pub unread: Style,
    /// Errors in the status bar and the chat.
    pub error: Style,
}

impl Theme {
    /// Colours unless `NO_COLOR` is set to a non-empty value, as no-color.org asks.
    pub fn from_env() -> Theme {
        Theme::for_no_color(std::env::var_os("NO_COLOR").as_deref())
    }

    /// The theme for a given value of `NO_COLOR` (`None` when unset); separate from
    /// [`Theme::from_env`] so it can be tested without changing the process
    /// environment, which other tests share.
    pub fn for_no_color(no_color: Option<&std::ffi::OsStr>) -> Theme {
        match no_color {
            Some(v) if !v.is_empty() => Theme::plain(),
            _ => Theme::colored(),
        }
    }

    /// No colours at all; emphasis only through bold, italic and reverse video,
    /// which `NO_COLOR` allows.
    pub fn plain() -> Theme {
        Theme {
            colored: false,
            border: Style::new(),
            title: Style::new().add_modifier(Modifier::BOLD),
            key: Style::new().add_modifier(Modifier::BOLD),
            text: Style::new(),
            hint: Style::new().add_modifier(Modifier::ITALIC),
            focus: Style::new().add_modifier(Modifier::BOLD),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            cited: Style::new().add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
            dim: Style::new().add_modifier(Modifier::DIM),
            unread: Style::new().add_modifier(Modifier::BOLD),
            error: Style::new().add_modifier(Modifier::BOLD),
        }
    }

    /// The default coloured theme, using the 16 ANSI colours so that it follows the
    /// terminal's palette.
    pub fn colored() -> Theme {
        Theme {
            colored: true,
            border: Style::new().fg(Color::Blue),
            title: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            key: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            text: Style::new().fg(Color::Reset),
            hint: Style::new().fg(Color::Green).add_modifier(Modifier::ITALIC),
            focus: Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            cited: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            dim: Style::new().fg(Color::DarkGray),
            unread: Style::new().add_modifier(Modifier::BOLD),
            error: Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        }
    }
}

impl Default for Theme {
    fn default() -> Theme {
        Theme::colored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsStr;

    #[test]
    fn no_color_selects_the_plain_theme() {
        assert_eq!(Theme::for_no_color(Some(OsStr::new("1"))), Theme::plain());
        assert_eq!(Theme::for_no_color(Some(OsStr::new(""))), Theme::colored());
        assert_eq!(Theme::for_no_color(None), Theme::colored());
    }

    #[test]
    fn plain_theme_has_no_colours() {
        let t = Theme::plain();
        for s in [
            t.border, t.title, t.key, t.text, t.hint, t.focus, t.selected, t.cited, t.dim,
            t.unread, t.error,
        ] {
            assert_eq!((s.fg, s.bg), (None, None));
        }
    }
}
