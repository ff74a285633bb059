//! Keys as written in keymap files and as received from the terminal.
//!
//! Terminals report the same keystroke in several ways (a shifted letter may come as
//! `'G'` with or without the SHIFT flag, Shift+Tab as `BackTab` with SHIFT, Ctrl+I as
//! Tab), so both directions go through one normal form: a [`Key`] built from a keymap
//! string and a [`Key`] built from a
//! [`KeyEvent`](crossterm::event::KeyEvent) compare equal whenever the terminal
//! could have sent that event for that string.
//!
//! Syntax: a single character stands for itself (`"j"`, `"G"`, `"?"`, `"<"`); anything
//! else is written in angle brackets with optional modifier prefixes, `C-` (Ctrl),
//! `A-` or `M-` (Alt/Meta) and `S-` (Shift): `<Enter>`, `<C-d>`, `<A-v>`, `<S-Tab>`,
//! `<M-<>`. Named keys are case-insensitive: Enter (CR, Return), Esc (Escape), Tab,
//! BackTab, Backspace (BS), Space, Up, Down, Left, Right, PageUp (PgUp), PageDown
//! (PgDn), Home, End, Delete (Del), Insert (Ins) and F1 to F24.

use std::fmt;

use thiserror::Error;

mod syntax;
mod terminal;

/// A key without modifiers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCode {
    /// A printable character; shifted letters are stored in upper case.
    Char(char),
    /// Enter / Return (also Ctrl+M).
    Enter,
    /// Escape (also Ctrl+[).
    Esc,
    /// Tab (also Ctrl+I).
    Tab,
    /// Shift+Tab.
    BackTab,
    /// Backspace.
    Backspace,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Home.
    Home,
    /// End.
    End,
    /// Delete.
    Delete,
    /// Insert.
    Insert,
    /// Function key F1 to F24.
    F(u8),
}

/// Modifier flags of a [`Key`]. Shift is only kept for keys whose character does not
/// already say it was shifted (`<S-Up>`), see [`Key::new`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Mods {
    /// Ctrl.
    pub ctrl: bool,
    /// Alt, also called Meta.
    pub alt: bool,
    /// Shift.
    pub shift: bool,
}

impl Mods {
    /// No modifier.
    pub const NONE: Mods = Mods {
        ctrl: false,
        alt: false,
        shift: false,
    };
}

/// One keystroke in normal form. Build it with [`Key::new`], [`str::parse`] or
/// [`Key::from_event`]; the fields are read-only so the normal form cannot be broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    code: KeyCode,
    mods: Mods,
}

/// Why a key string from a keymap file is not a key.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum KeyParseError {
    /// The string was empty.
    #[error("empty key")]
    Empty,
    /// A `<` that is not closed by `>`, such as `"<C-"`.
    #[error("bad key `{0}`: `<` is not closed by `>`")]
    Unclosed(String),
    /// Several characters outside angle brackets, such as `"gg"`.
    #[error(
        "bad key `{0}`: write one key per string, e.g. [\"g\", \"g\"], or use <...> for named keys"
    )]
    SeveralKeys(String),
    /// Nothing after the modifiers, such as `"<C->"`.
    #[error("bad key `{0}`: no key after the modifiers")]
    MissingKey(String),
    /// An unknown name inside angle brackets, such as `"<Foo>"` or `"<X-a>"`.
    #[error("bad key `{key}`: unknown key name `{name}`")]
    UnknownName {
        /// The whole key string.
        key: String,
        /// The part that is not a key name.
        name: String,
    },
}

/// Why a terminal event has no [`Key`]: keys such as CapsLock or media keys can never
/// be bound, and Super/Hyper chords are left to the window manager.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("key event {0} cannot be bound")]
pub struct UnsupportedKey(pub String);

impl Key {
    /// Builds a key in normal form:
    /// - a shifted lowercase letter becomes the uppercase letter, and Shift is dropped
    ///   from every character key (the character already tells it);
    /// - Ctrl+letter is case-insensitive (stored lower case), as terminals cannot tell
    ///   Ctrl+D from Ctrl+Shift+D;
    /// - Ctrl+I, Ctrl+M and Ctrl+[ are Tab, Enter and Esc, since that is what a terminal
    ///   sends for them;
    /// - Shift+Tab is BackTab.
    pub fn new(code: KeyCode, mods: Mods) -> Key {
        let mut mods = mods;
        let code = match code {
            KeyCode::Char(c) => {
                let mut c = c;
                if mods.shift && c.is_lowercase() {
                    c = single_upper(c);
                }
                mods.shift = false;
                if mods.ctrl {
                    if c.is_ascii_alphabetic() {
                        c = c.to_ascii_lowercase();
                    }
                    match c {
                        'i' => {
                            mods.ctrl = false;
                            KeyCode::Tab
                        }
                        'm' => {
                            mods.ctrl = false;
                            KeyCode::Enter
                        }
                        '[' => {
                            mods.ctrl = false;
                            KeyCode::Esc
                        }
                        _ => KeyCode::Char(c),
                    }
                } else {
                    KeyCode::Char(c)
                }
            }
            KeyCode::Tab if mods.shift => {
                mods.shift = false;
                KeyCode::BackTab
            }
            KeyCode::BackTab => {
                mods.shift = false;
                KeyCode::BackTab
            }
            other => other,
        };
        Key { code, mods }
    }

    /// A character key without modifiers.
    pub fn char(c: char) -> Key {
        Key::new(KeyCode::Char(c), Mods::NONE)
    }

    /// Ctrl plus a character.
    pub fn ctrl(c: char) -> Key {
        Key::new(
            KeyCode::Char(c),
            Mods {
                ctrl: true,
                ..Mods::NONE
            },
        )
    }

    /// Alt plus a character.
    pub fn alt(c: char) -> Key {
        Key::new(
            KeyCode::Char(c),
            Mods {
                alt: true,
                ..Mods::NONE
            },
        )
    }

    /// A key without modifiers.
    pub fn plain(code: KeyCode) -> Key {
        Key::new(code, Mods::NONE)
    }

    /// The key code.
    pub fn code(&self) -> KeyCode {
        self.code
    }

    /// The modifiers.
    pub fn mods(&self) -> Mods {
        self.mods
    }
}

/// Uppercases a character when that gives exactly one character ('ß' stays as it is),
/// because a key is one character.
fn single_upper(c: char) -> char {
    let mut up = c.to_uppercase();
    match (up.next(), up.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

/// A sequence of keys bound to one command, such as `g g`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeySeq(pub Vec<Key>);

impl KeySeq {
    /// The keys in order.
    pub fn keys(&self) -> &[Key] {
        &self.0
    }

    /// Whether `self` is a strict prefix of `other`.
    pub fn is_prefix_of(&self, other: &KeySeq) -> bool {
        self.0.len() < other.0.len() && other.0.starts_with(&self.0)
    }
}

impl fmt::Display for KeySeq {
    /// Keys separated by spaces, as the help overlay shows them: `g g`, `<C-w> l`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, k) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "key_tests.rs"]
mod tests;
