//! Keys as written in keymap files and as received from the terminal.
//!
//! Terminals report the same keystroke in several ways (a shifted letter may come as
//! `'G'` with or without the SHIFT flag, Shift+Tab as `BackTab` with SHIFT, Ctrl+I as
//! Tab), so both directions go through one normal form: a [`Key`] built from a keymap
//! string and a [`Key`] built from a [`KeyEvent`] compare equal whenever the terminal
//! could have sent that event for that string.
//!
//! Syntax: a single character stands for itself (`"j"`, `"G"`, `"?"`, `"<"`); anything
//! else is written in angle brackets with optional modifier prefixes, `C-` (Ctrl),
//! `A-` or `M-` (Alt/Meta) and `S-` (Shift): `<Enter>`, `<C-d>`, `<A-v>`, `<S-Tab>`,
//! `<M-<>`. Named keys are case-insensitive: Enter (CR, Return), Esc (Escape), Tab,
//! BackTab, Backspace (BS), Space, Up, Down, Left, Right, PageUp (PgUp), PageDown
//! (PgDn), Home, End, Delete (Del), Insert (Ins) and F1 to F24.

use std::fmt;
use std::str::FromStr;

use crossterm::event::{KeyCode as CtKeyCode, KeyEvent, KeyModifiers};
use thiserror::Error;

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

    /// Converts a terminal event into a key. The event kind (press, repeat, release)
    /// is not looked at; callers decide which kinds they want.
    pub fn from_event(event: &KeyEvent) -> Result<Key, UnsupportedKey> {
        let m = event.modifiers;
        if m.intersects(KeyModifiers::SUPER | KeyModifiers::HYPER | KeyModifiers::META) {
            return Err(UnsupportedKey(format!("{:?}", event)));
        }
        let mods = Mods {
            ctrl: m.contains(KeyModifiers::CONTROL),
            alt: m.contains(KeyModifiers::ALT),
            shift: m.contains(KeyModifiers::SHIFT),
        };
        let code = match event.code {
            CtKeyCode::Char(c) => KeyCode::Char(c),
            CtKeyCode::Enter => KeyCode::Enter,
            CtKeyCode::Esc => KeyCode::Esc,
            CtKeyCode::Tab => KeyCode::Tab,
            CtKeyCode::BackTab => KeyCode::BackTab,
            CtKeyCode::Backspace => KeyCode::Backspace,
            CtKeyCode::Up => KeyCode::Up,
            CtKeyCode::Down => KeyCode::Down,
            CtKeyCode::Left => KeyCode::Left,
            CtKeyCode::Right => KeyCode::Right,
            CtKeyCode::PageUp => KeyCode::PageUp,
            CtKeyCode::PageDown => KeyCode::PageDown,
            CtKeyCode::Home => KeyCode::Home,
            CtKeyCode::End => KeyCode::End,
            CtKeyCode::Delete => KeyCode::Delete,
            CtKeyCode::Insert => KeyCode::Insert,
            CtKeyCode::F(n) if (1..=24).contains(&n) => KeyCode::F(n),
            other => return Err(UnsupportedKey(format!("{other:?}"))),
        };
        Ok(Key::new(code, mods))
    }

    /// The event a typical terminal sends for this key (uppercase letters and BackTab
    /// carry SHIFT, as crossterm reports them). Used to hand keys that matched no
    /// binding back to a text area, and `Key::from_event(&k.to_event()) == Ok(k)`.
    pub fn to_event(&self) -> KeyEvent {
        let mut m = KeyModifiers::NONE;
        if self.mods.ctrl {
            m |= KeyModifiers::CONTROL;
        }
        if self.mods.alt {
            m |= KeyModifiers::ALT;
        }
        if self.mods.shift {
            m |= KeyModifiers::SHIFT;
        }
        let code = match self.code {
            KeyCode::Char(c) => {
                if c.is_uppercase() {
                    m |= KeyModifiers::SHIFT;
                }
                CtKeyCode::Char(c)
            }
            KeyCode::Enter => CtKeyCode::Enter,
            KeyCode::Esc => CtKeyCode::Esc,
            KeyCode::Tab => CtKeyCode::Tab,
            KeyCode::BackTab => {
                m |= KeyModifiers::SHIFT;
                CtKeyCode::BackTab
            }
            KeyCode::Backspace => CtKeyCode::Backspace,
            KeyCode::Up => CtKeyCode::Up,
            KeyCode::Down => CtKeyCode::Down,
            KeyCode::Left => CtKeyCode::Left,
            KeyCode::Right => CtKeyCode::Right,
            KeyCode::PageUp => CtKeyCode::PageUp,
            KeyCode::PageDown => CtKeyCode::PageDown,
            KeyCode::Home => CtKeyCode::Home,
            KeyCode::End => CtKeyCode::End,
            KeyCode::Delete => CtKeyCode::Delete,
            KeyCode::Insert => CtKeyCode::Insert,
            KeyCode::F(n) => CtKeyCode::F(n),
        };
        KeyEvent::new(code, m)
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

const NAMES: &[(&str, KeyCode)] = &[
    ("enter", KeyCode::Enter),
    ("cr", KeyCode::Enter),
    ("return", KeyCode::Enter),
    ("esc", KeyCode::Esc),
    ("escape", KeyCode::Esc),
    ("tab", KeyCode::Tab),
    ("backtab", KeyCode::BackTab),
    ("backspace", KeyCode::Backspace),
    ("bs", KeyCode::Backspace),
    ("space", KeyCode::Char(' ')),
    ("up", KeyCode::Up),
    ("down", KeyCode::Down),
    ("left", KeyCode::Left),
    ("right", KeyCode::Right),
    ("pageup", KeyCode::PageUp),
    ("pgup", KeyCode::PageUp),
    ("pagedown", KeyCode::PageDown),
    ("pgdn", KeyCode::PageDown),
    ("home", KeyCode::Home),
    ("end", KeyCode::End),
    ("delete", KeyCode::Delete),
    ("del", KeyCode::Delete),
    ("insert", KeyCode::Insert),
    ("ins", KeyCode::Insert),
];

fn named(name: &str) -> Option<KeyCode> {
    let lower = name.to_ascii_lowercase();
    if let Some((_, code)) = NAMES.iter().find(|(n, _)| *n == lower) {
        return Some(*code);
    }
    let n: u8 = lower.strip_prefix('f')?.parse().ok()?;
    (1..=24).contains(&n).then_some(KeyCode::F(n))
}

impl FromStr for Key {
    type Err = KeyParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (None, _) => return Err(KeyParseError::Empty),
            (Some(c), None) => return Ok(Key::char(c)),
            _ => {}
        }
        if !s.starts_with('<') {
            return Err(KeyParseError::SeveralKeys(s.to_string()));
        }
        let inner = s
            .strip_prefix('<')
            .and_then(|rest| rest.strip_suffix('>'))
            .ok_or_else(|| KeyParseError::Unclosed(s.to_string()))?;
        let mut mods = Mods::NONE;
        let mut rest = inner;
        // A modifier is one letter and a dash with something after it, so that `<C-->`
        // is Ctrl+'-' and `<M-<>` is Alt+'<'.
        loop {
            let mut it = rest.chars();
            let (Some(m), Some('-'), Some(_)) = (it.next(), it.next(), it.next()) else {
                break;
            };
            match m.to_ascii_uppercase() {
                'C' => mods.ctrl = true,
                'A' | 'M' => mods.alt = true,
                'S' => mods.shift = true,
                _ => break,
            }
            rest = &rest[2..];
        }
        let dangling_modifier = {
            let mut it = rest.chars();
            matches!(
                (
                    it.next().map(|c| c.to_ascii_uppercase()),
                    it.next(),
                    it.next()
                ),
                (Some('C' | 'A' | 'M' | 'S'), Some('-'), None)
            )
        };
        if rest.is_empty() || dangling_modifier {
            return Err(KeyParseError::MissingKey(s.to_string()));
        }
        let mut it = rest.chars();
        let code = match (it.next(), it.next()) {
            (Some(c), None) => KeyCode::Char(c),
            _ => named(rest).ok_or_else(|| KeyParseError::UnknownName {
                key: s.to_string(),
                name: rest.to_string(),
            })?,
        };
        Ok(Key::new(code, mods))
    }
}

impl fmt::Display for Key {
    /// Writes the key in keymap syntax, so that `key.to_string().parse() == Ok(key)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => {
                if self.mods == Mods::NONE {
                    return write!(f, "{c}");
                }
                c.to_string()
            }
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Backspace => "Backspace".into(),
            KeyCode::Up => "Up".into(),
            KeyCode::Down => "Down".into(),
            KeyCode::Left => "Left".into(),
            KeyCode::Right => "Right".into(),
            KeyCode::PageUp => "PageUp".into(),
            KeyCode::PageDown => "PageDown".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Delete => "Delete".into(),
            KeyCode::Insert => "Insert".into(),
            KeyCode::F(n) => format!("F{n}"),
        };
        f.write_str("<")?;
        if self.mods.ctrl {
            f.write_str("C-")?;
        }
        if self.mods.alt {
            f.write_str("A-")?;
        }
        if self.mods.shift {
            f.write_str("S-")?;
        }
        write!(f, "{name}>")
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
mod tests {
    use super::*;

    fn k(s: &str) -> Key {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn ev(code: CtKeyCode, m: KeyModifiers) -> Key {
        Key::from_event(&KeyEvent::new(code, m)).expect("supported")
    }

    #[test]
    fn parses_single_chars_and_named_keys() {
        assert_eq!(k("j"), Key::char('j'));
        assert_eq!(k("G"), Key::char('G'));
        assert_eq!(k("?"), Key::char('?'));
        assert_eq!(k("<"), Key::char('<'));
        assert_eq!(k("<Enter>"), Key::plain(KeyCode::Enter));
        assert_eq!(k("<cr>"), Key::plain(KeyCode::Enter));
        assert_eq!(k("<Space>"), Key::char(' '));
        assert_eq!(k("<PageDown>"), Key::plain(KeyCode::PageDown));
        assert_eq!(k("<F1>"), Key::plain(KeyCode::F(1)));
    }

    #[test]
    fn parses_modifiers() {
        assert_eq!(k("<C-d>"), Key::ctrl('d'));
        assert_eq!(k("<C-D>"), Key::ctrl('d'));
        assert_eq!(k("<A-v>"), Key::alt('v'));
        assert_eq!(k("<M-v>"), Key::alt('v'));
        assert_eq!(k("<M-<>"), Key::alt('<'));
        assert_eq!(k("<M->>"), Key::alt('>'));
        assert_eq!(k("<C-->"), Key::ctrl('-'));
        assert_eq!(k("<S-g>"), Key::char('G'));
        assert_eq!(k("<S-Tab>"), Key::plain(KeyCode::BackTab));
        assert_eq!(k("<BackTab>"), Key::plain(KeyCode::BackTab));
        assert_eq!(k("<C-i>"), Key::plain(KeyCode::Tab));
        assert_eq!(k("<C-m>"), Key::plain(KeyCode::Enter));
        assert!(k("<A-Enter>").mods().alt);
        let su = k("<S-Up>");
        assert_eq!((su.code(), su.mods().shift), (KeyCode::Up, true));
    }

    #[test]
    fn rejects_bad_keys() {
        assert_eq!("".parse::<Key>(), Err(KeyParseError::Empty));
        assert_eq!(
            "<C-".parse::<Key>(),
            Err(KeyParseError::Unclosed("<C-".into()))
        );
        assert_eq!(
            "gg".parse::<Key>(),
            Err(KeyParseError::SeveralKeys("gg".into()))
        );
        assert!(matches!(
            "<Foo>".parse::<Key>(),
            Err(KeyParseError::UnknownName { .. })
        ));
        assert!(matches!(
            "<X-a>".parse::<Key>(),
            Err(KeyParseError::UnknownName { .. })
        ));
        assert_eq!(
            "<C->".parse::<Key>(),
            Err(KeyParseError::MissingKey("<C->".into()))
        );
        assert_eq!(
            "<>".parse::<Key>(),
            Err(KeyParseError::MissingKey("<>".into()))
        );
        assert!(matches!(
            "<F25>".parse::<Key>(),
            Err(KeyParseError::UnknownName { .. })
        ));
    }

    #[test]
    fn normalises_terminal_events() {
        // Shifted letters arrive as uppercase with SHIFT (or without it on some terminals).
        assert_eq!(ev(CtKeyCode::Char('G'), KeyModifiers::SHIFT), k("G"));
        assert_eq!(ev(CtKeyCode::Char('G'), KeyModifiers::NONE), k("G"));
        assert_eq!(ev(CtKeyCode::Char('g'), KeyModifiers::SHIFT), k("G"));
        // Shifted punctuation may carry SHIFT too.
        assert_eq!(ev(CtKeyCode::Char('?'), KeyModifiers::SHIFT), k("?"));
        assert_eq!(ev(CtKeyCode::BackTab, KeyModifiers::SHIFT), k("<S-Tab>"));
        assert_eq!(ev(CtKeyCode::Tab, KeyModifiers::SHIFT), k("<S-Tab>"));
        assert_eq!(ev(CtKeyCode::Char('d'), KeyModifiers::CONTROL), k("<C-d>"));
        assert_eq!(
            ev(
                CtKeyCode::Char('D'),
                KeyModifiers::CONTROL | KeyModifiers::SHIFT
            ),
            k("<C-d>")
        );
        assert_eq!(ev(CtKeyCode::Char('i'), KeyModifiers::CONTROL), k("<Tab>"));
        assert_eq!(ev(CtKeyCode::Char('v'), KeyModifiers::ALT), k("<M-v>"));
        assert_eq!(ev(CtKeyCode::Char(' '), KeyModifiers::NONE), k("<Space>"));
        assert_eq!(ev(CtKeyCode::Enter, KeyModifiers::ALT), k("<A-Enter>"));
        assert!(Key::from_event(&KeyEvent::new(CtKeyCode::CapsLock, KeyModifiers::NONE)).is_err());
        assert!(
            Key::from_event(&KeyEvent::new(CtKeyCode::Char('j'), KeyModifiers::SUPER)).is_err()
        );
    }

    #[test]
    fn display_and_events_round_trip() {
        let samples = [
            "j",
            "G",
            "?",
            "<",
            ">",
            "-",
            "1",
            "<Space>",
            "<C-Space>",
            "<Enter>",
            "<A-Enter>",
            "<Esc>",
            "<Tab>",
            "<S-Tab>",
            "<Backspace>",
            "<Up>",
            "<S-Up>",
            "<Down>",
            "<Left>",
            "<Right>",
            "<PageUp>",
            "<PageDown>",
            "<Home>",
            "<End>",
            "<Delete>",
            "<Insert>",
            "<F1>",
            "<F12>",
            "<C-d>",
            "<A-v>",
            "<A-V>",
            "<M-<>",
            "<C-->",
            "<C-A-x>",
            "é",
        ];
        for s in samples {
            let key = k(s);
            assert_eq!(key.to_string().parse::<Key>(), Ok(key), "display of {s}");
            assert_eq!(Key::from_event(&key.to_event()), Ok(key), "event of {s}");
        }
        assert_eq!(k("<M-v>").to_string(), "<A-v>");
        assert_eq!(k("<BackTab>").to_string(), "<S-Tab>");
        assert_eq!(KeySeq(vec![k("g"), k("g")]).to_string(), "g g");
    }
}
