//! The one place where text from mail becomes text for a terminal.
//!
//! Mail is written by strangers. A subject, a display name, a body or an attachment
//! name may hold bytes that a terminal obeys rather than shows: `ESC ] 0 ; … BEL` sets
//! the window title, `ESC ] 52 ; c ; …` writes the clipboard, `ESC [ 2 J` clears the
//! screen, C1 controls (U+009B is a one-character CSI) do the same on some terminals,
//! and bidi overrides (U+202E) make text read backwards. Every front end that prints
//! mail text to a terminal (the CLI's text output, the TUI's panes) passes it through
//! [`for_terminal`] first, so such characters are shown as visible placeholders and
//! never emitted. Stored text, citations and JSON keep the exact text: they are data,
//! and their consumer escapes them.
//!
//! Placeholders:
//! - C0 controls other than tab and newline become the matching Unicode control
//!   picture (`ESC` → `␛`, `BEL` → `␇`, a lone `CR` → `␍`), DEL becomes `␡`. With
//!   the escape character shown as `␛`, the rest of a sequence is plain text.
//! - C1 controls (U+0080–U+009F) and bidi controls (U+202A–U+202E, U+2066–U+2069)
//!   become U+FFFD `�`.
//! - A tab becomes spaces up to the next multiple of [`TAB_WIDTH`] columns of its
//!   line, so tab-aligned figures keep their columns and no character is lost.
//! - `CR LF` becomes `LF`.

use std::borrow::Cow;
use unicode_width::UnicodeWidthChar;

/// Columns between tab stops.
pub const TAB_WIDTH: usize = 8;

/// What stands for a C1 or bidi control.
pub const REPLACEMENT: char = '\u{FFFD}';

/// Whether a character must never reach a terminal as it is.
pub fn is_unsafe(c: char) -> bool {
    let u = c as u32;
    (u < 0x20 && c != '\n') || u == 0x7f || (0x80..=0x9f).contains(&u) || is_bidi_control(c)
}

/// Unicode's explicit directional embeddings, overrides and isolates.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c as u32, 0x202A..=0x202E | 0x2066..=0x2069)
}

/// The visible stand-in for an unsafe character (not for tab, which expands).
pub fn placeholder(c: char) -> char {
    let u = c as u32;
    if u < 0x20 {
        char::from_u32(0x2400 + u).unwrap_or(REPLACEMENT)
    } else if u == 0x7f {
        '\u{2421}'
    } else {
        REPLACEMENT
    }
}

/// Text safe to write to a terminal: see the module documentation. Newlines stay.
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut col = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                out.push('\n');
                col = 0;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\t' => {
                let spaces = TAB_WIDTH - col % TAB_WIDTH;
                out.extend(std::iter::repeat_n(' ', spaces));
                col += spaces;
            }
            c if is_unsafe(c) => {
                out.push(placeholder(c));
                col += 1;
            }
            c => {
                out.push(c);
                col += c.width().unwrap_or(0);
            }
        }
    }
    Cow::Owned(out)
}

/// Like [`for_terminal`], for a field shown on one line (a subject, a name): line
/// breaks become spaces.
pub fn one_line_for_terminal(text: &str) -> Cow<'_, str> {
    if !text.contains(['\n', '\r']) {
        return for_terminal(text);
    }
    let joined: String = text
        .split(['\n', '\r'])
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    Cow::Owned(for_terminal(&joined).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every escape class a hostile message may carry.
    const HOSTILE: &str = "a\x1b]0;owned\x07b\x1b]52;c;ZXZpbA==\x07c\x1b[2Jd\x1b[31me\u{9b}31mf\u{9d}0;t\u{9c}g\u{202e}h\u{2066}i\x00j\x7fk";

    #[test]
    fn no_control_character_survives() {
        let safe = for_terminal(HOSTILE);
        assert!(
            !safe.chars().any(|c| c.is_control() && c != '\n'),
            "{safe:?}"
        );
        assert!(!safe.chars().any(is_bidi_control));
        // Everything printable is still there, in order.
        let printable: String = HOSTILE.chars().filter(|c| !is_unsafe(*c)).collect();
        let kept: String = safe.chars().filter(|c| !is_placeholder(*c)).collect();
        assert_eq!(kept, printable);
    }

    fn is_placeholder(c: char) -> bool {
        c == REPLACEMENT || ('\u{2400}'..='\u{2421}').contains(&c)
    }

    #[test]
    fn placeholders_are_visible_and_say_what_they_stand_for() {
        assert_eq!(for_terminal("x\x1b[2Jy"), "x␛[2Jy");
        assert_eq!(for_terminal("bell\x07"), "bell␇");
        assert_eq!(for_terminal("del\x7f"), "del␡");
        assert_eq!(for_terminal("csi\u{9b}"), "csi�");
        assert_eq!(for_terminal("rtl\u{202e}"), "rtl�");
    }

    #[test]
    fn tabs_expand_to_the_next_stop_of_their_line() {
        assert_eq!(for_terminal("a\tb"), "a       b");
        assert_eq!(for_terminal("abcdefgh\tb"), "abcdefgh        b");
        assert_eq!(for_terminal("x\n\ty"), "x\n        y");
        // A wide character counts two columns.
        assert_eq!(for_terminal("日\tz"), "日      z");
    }

    #[test]
    fn line_endings_and_plain_text() {
        assert_eq!(for_terminal("one\r\ntwo"), "one\ntwo");
        assert_eq!(for_terminal("lone\rcr"), "lone␍cr");
        assert!(matches!(for_terminal("plain text"), Cow::Borrowed(_)));
        assert_eq!(one_line_for_terminal("Re: a\r\n b\x1b"), "Re: a  b␛");
    }
}
