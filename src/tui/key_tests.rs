//! Tests of key parsing, normalisation of terminal events and round trips.

use super::*;
use crossterm::event::{KeyCode as CtKeyCode, KeyEvent, KeyModifiers};

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
    assert!(Key::from_event(&KeyEvent::new(CtKeyCode::Char('j'), KeyModifiers::SUPER)).is_err());
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
