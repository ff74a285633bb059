//! Tests of key sequences, patching and error positions.

use super::*;
use crate::tui::command::{FocusTarget, Pane};
use crossterm::event::{KeyCode as CtKeyCode, KeyEventState, KeyModifiers};

fn keys(s: &str) -> KeySeq {
    KeySeq(
        s.split_whitespace()
            .map(|k| k.parse().expect("test key"))
            .collect(),
    )
}

fn lookup(map: &Keymap, mode: Mode, seq: &str) -> Lookup {
    map.mode(mode).lookup(keys(seq).keys())
}

fn err_of(src: &str) -> KeymapError {
    match Keymap::from_toml(src, "test.toml") {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => e,
    }
}

const SMALL: &str = r#"
[threads]
keymap = [
  { on = ["g", "g"], run = "top", desc = "Go to top" },
  { on = ["j"], run = "down", desc = "Move down" },
  { on = "k", run = "up" },
  { on = ["<C-d>"], run = "page_down", desc = "Page down" },
]
"#;

#[test]
fn parses_a_small_file() {
    let map = Keymap::from_toml(SMALL, "small.toml").expect("valid");
    let b = map.mode(Mode::Threads).bindings();
    assert_eq!(b.len(), 4);
    assert_eq!(b[0].keys.to_string(), "g g");
    assert_eq!(
        b[2].desc, "Move up",
        "missing desc falls back to the default"
    );
    assert_eq!(
        lookup(&map, Mode::Threads, "<C-d>"),
        Lookup::Exact(Command::PageDown)
    );
    assert_eq!(lookup(&map, Mode::Threads, "g"), Lookup::Prefix);
    assert_eq!(lookup(&map, Mode::Threads, "x"), Lookup::None);
    assert!(map.mode(Mode::Reader).bindings().is_empty());
}

#[test]
fn accepts_array_of_tables_syntax() {
    let src = "[[reader.keymap]]\non = [\"z\"]\nrun = \"toggle_quoted\"\n";
    let map = Keymap::from_toml(src, "t").expect("valid");
    assert_eq!(
        lookup(&map, Mode::Reader, "z"),
        Lookup::Exact(Command::ToggleQuoted)
    );
}

#[test]
fn patch_replaces_unbinds_and_adds() {
    let mut map = Keymap::from_toml(SMALL, "small.toml").expect("valid");
    let user = r#"
[threads]
keymap = [
  { on = ["j"], run = "scroll_down", desc = "Scroll" },
  { on = ["<C-d>"], run = "noop" },
  { on = ["x"], run = "focus chat" },
]
[reader]
keymap = [ { on = ["q"], run = "back" } ]
"#;
    map.patch_toml(user, "user.toml").expect("valid");
    let t = map.mode(Mode::Threads);
    assert_eq!(
        lookup(&map, Mode::Threads, "j"),
        Lookup::Exact(Command::ScrollDown)
    );
    assert_eq!(t.bindings()[1].desc, "Scroll", "replaced in place");
    assert_eq!(lookup(&map, Mode::Threads, "<C-d>"), Lookup::None);
    assert_eq!(
        lookup(&map, Mode::Threads, "x"),
        Lookup::Exact(Command::Focus(FocusTarget::Pane(Pane::Chat)))
    );
    assert_eq!(
        t.bindings().last().map(|b| b.keys.to_string()),
        Some("x".into())
    );
    assert_eq!(
        lookup(&map, Mode::Threads, "g g"),
        Lookup::Exact(Command::Top),
        "untouched defaults stay"
    );
    assert_eq!(
        lookup(&map, Mode::Reader, "q"),
        Lookup::Exact(Command::Back)
    );
}

#[test]
fn a_failed_patch_changes_nothing() {
    let mut map = Keymap::from_toml(SMALL, "small.toml").expect("valid");
    let before = map.clone();
    let user = "[threads]\nkeymap = [\n  { on = [\"j\"], run = \"noop\" },\n  { on = [\"k\"], run = \"nope\" },\n]\n";
    let e = map.patch_toml(user, "user.toml").expect_err("invalid");
    assert_eq!(e.line(), Some(4));
    assert_eq!(map, before);
}

#[test]
fn unknown_command_is_reported_at_its_line() {
    let src = "[threads]\nkeymap = [\n  { on = [\"j\"], run = \"down\" },\n  { on = [\"k\"], run = \"upp\" },\n]\n";
    let e = err_of(src);
    assert_eq!(e.line(), Some(4));
    assert_eq!(
        e.reason(),
        Some(&InvalidReason::Command(CommandParseError::Unknown(
            "upp".into()
        )))
    );
    let text = e.to_string();
    assert!(text.starts_with("test.toml:4:"), "{text}");
    assert!(text.contains("unknown command `upp`"), "{text}");
}

#[test]
fn bad_key_is_reported_at_its_line() {
    let src = "[chat]\nkeymap = [\n  { on = [\"<Enter>\"], run = \"submit\" },\n\n  { on = [\"<C-\"], run = \"cancel\" },\n]\n";
    let e = err_of(src);
    assert_eq!(e.line(), Some(5));
    assert_eq!(
        e.reason(),
        Some(&InvalidReason::Key(KeyParseError::Unclosed("<C-".into())))
    );
    // The column points at the key itself.
    assert!(e.to_string().starts_with("test.toml:5:11:"), "{e}");
}

#[test]
fn unknown_mode_is_reported_at_its_line() {
    let src = "[threads]\nkeymap = []\n\n[treads]\nkeymap = [ { on = [\"j\"], run = \"down\" } ]\n";
    let e = err_of(src);
    assert_eq!(e.line(), Some(4));
    assert_eq!(
        e.reason(),
        Some(&InvalidReason::UnknownMode("treads".into()))
    );
}

#[test]
fn duplicate_in_one_file_is_an_error_but_a_prefix_is_not() {
    let src = "[threads]\nkeymap = [\n  { on = [\"g\", \"g\"], run = \"top\" },\n  { on = [\"g\"], run = \"bottom\" },\n  { on = [\"g\", \"g\"], run = \"bottom\" },\n]\n";
    let e = err_of(src);
    assert_eq!(e.line(), Some(5));
    assert_eq!(
        e.reason(),
        Some(&InvalidReason::Duplicate {
            keys: "g g".into(),
            mode: Mode::Threads,
            first_line: 3
        })
    );
    // The same sequence in two modes is fine, and so is a prefix.
    let ok = "[threads]\nkeymap = [ { on = [\"g\"], run = \"top\" }, { on = [\"g\", \"g\"], run = \"top\" } ]\n[reader]\nkeymap = [ { on = [\"g\"], run = \"top\" } ]\n";
    let map = Keymap::from_toml(ok, "t").expect("valid");
    assert_eq!(map.mode(Mode::Threads).unreachable().len(), 1);
    // Spelling the same key two ways is still a duplicate.
    let e = err_of("[search]\nkeymap = [\n { on = \"<C-m>\", run = \"submit\" },\n { on = \"<Enter>\", run = \"submit\" },\n]\n");
    assert_eq!(e.line(), Some(4));
}

#[test]
fn shape_and_syntax_errors_have_lines() {
    // Missing `run`.
    let e = err_of("[threads]\nkeymap = [\n  { on = [\"j\"], desc = \"x\" },\n]\n");
    assert_eq!(e.line(), Some(3), "{e}");
    // Unknown field.
    let e = err_of("[threads]\nprepend_keymap = []\n");
    assert_eq!(e.line(), Some(2), "{e}");
    // TOML syntax.
    let e = err_of("[threads]\nkeymap = [\n  { on = [\"j\"], run = \"down\" \n]\n");
    assert!(matches!(e.reason(), Some(InvalidReason::Toml(_))), "{e}");
    assert!(matches!(e.line(), Some(3) | Some(4)), "{e}");
    // Bad command argument.
    let e = err_of("[evidence]\n\nkeymap = [ { on = [\"1\"], run = \"jump_citation one\" } ]\n");
    assert_eq!(e.line(), Some(3));
    // Empty `on`.
    let e = err_of("[evidence]\nkeymap = [ { on = [], run = \"open\" } ]\n");
    assert_eq!(e.reason(), Some(&InvalidReason::EmptySequence));
}

#[test]
fn sequence_gg_matches_top_and_gx_resets() {
    let map = Keymap::from_toml(SMALL, "small.toml").expect("valid");
    let mut seq = map.sequencer(Mode::Threads);
    let g = Key::char('g');
    assert_eq!(seq.feed_key(g), Step::Pending);
    assert_eq!(seq.pending(), &[g]);
    assert_eq!(seq.feed_key(g), Step::Matched(Command::Top));
    assert!(seq.pending().is_empty());

    assert_eq!(seq.feed_key(g), Step::Pending);
    assert_eq!(
        seq.feed_key(Key::char('x')),
        Step::NoMatch(vec![g, Key::char('x')])
    );
    assert!(seq.pending().is_empty());
    assert_eq!(seq.feed_key(Key::char('j')), Step::Matched(Command::Down));

    assert_eq!(seq.feed_key(g), Step::Pending);
    seq.reset();
    assert_eq!(seq.feed_key(Key::char('j')), Step::Matched(Command::Down));
}

#[test]
fn sequencer_takes_crossterm_events() {
    let map = Keymap::from_toml(SMALL, "small.toml").expect("valid");
    let mut seq = map.sequencer(Mode::Threads);
    let ctrl_d = KeyEvent::new(CtKeyCode::Char('d'), KeyModifiers::CONTROL);
    assert_eq!(seq.feed(&ctrl_d), Step::Matched(Command::PageDown));
    let release = KeyEvent {
        kind: KeyEventKind::Release,
        state: KeyEventState::NONE,
        ..ctrl_d
    };
    assert_eq!(seq.feed(&release), Step::Ignored);
    let g = KeyEvent::new(CtKeyCode::Char('g'), KeyModifiers::NONE);
    assert_eq!(seq.feed(&g), Step::Pending);
    let caps = KeyEvent::new(CtKeyCode::CapsLock, KeyModifiers::NONE);
    assert_eq!(seq.feed(&caps), Step::NoMatch(vec![Key::char('g')]));
}

#[test]
fn load_without_user_file_is_the_preset() {
    let dir = std::env::temp_dir().join(format!("quoth-keymap-test-{}", std::process::id()));
    let missing = dir.join("does-not-exist.toml");
    let map = Keymap::load(Preset::Vim, Some(&missing)).expect("preset");
    assert_eq!(map, Keymap::builtin(Preset::Vim).expect("preset"));
}

#[test]
fn load_reads_and_reports_the_user_file() {
    let dir = std::env::temp_dir().join(format!("quoth-keymap-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(USER_FILE_NAME);
    std::fs::write(
        &path,
        "[threads]\nkeymap = [ { on = [\"x\"], run = \"quit\" } ]\n",
    )
    .expect("write");
    let map = Keymap::load(Preset::Vim, Some(&path)).expect("valid");
    assert_eq!(
        lookup(&map, Mode::Threads, "x"),
        Lookup::Exact(Command::Quit)
    );
    std::fs::write(
        &path,
        "[threads]\n\nkeymap = [ { on = [\"x\"], run = \"quitt\" } ]\n",
    )
    .expect("write");
    let e = Keymap::load(Preset::Vim, Some(&path)).expect_err("invalid");
    assert_eq!(e.line(), Some(3));
    assert!(e.to_string().contains(USER_FILE_NAME), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
