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
        for s in [t.border, t.title, t.key, t.text, t.hint] {
            assert_eq!((s.fg, s.bg), (None, None));
        }
    }
}
