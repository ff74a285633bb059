//! Converting between [`Key`]s and the key events the terminal reports.

use super::{Key, KeyCode, Mods, UnsupportedKey};
use crossterm::event::{KeyCode as CtKeyCode, KeyEvent, KeyModifiers};

impl Key {
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
