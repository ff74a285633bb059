//! Keys in keymap syntax: parsing a key string (`j`, `<C-d>`, `<S-Tab>`) and
//! writing a key back the same way.

use super::{Key, KeyCode, KeyParseError, Mods};
use std::fmt;
use std::str::FromStr;

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
