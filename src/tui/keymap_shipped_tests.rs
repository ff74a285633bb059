//! Checks of the shipped presets: these files are user-facing defaults, so a typo or
//! a conflict in them must fail the build's tests rather than reach users.

use super::*;
use crate::tui::command::{FocusTarget, Pane};

const PRESETS: [Preset; 2] = [Preset::Vim, Preset::Emacs];

fn load(preset: Preset) -> Keymap {
    Keymap::builtin(preset).unwrap_or_else(|e| panic!("{e}"))
}

fn keys(s: &str) -> KeySeq {
    KeySeq(
        s.split_whitespace()
            .map(|k| k.parse().expect("test key"))
            .collect(),
    )
}

/// The commands each mode must offer. Everything else is optional per mode, but
/// the union over modes must be every command (checked below).
fn required(mode: Mode) -> Vec<Command> {
    use Command::*;
    let citations = (1..=9).map(JumpCitation);
    let all_focus = FocusTarget::ALL.into_iter().map(Focus);
    let panes = Pane::ALL.into_iter().map(TogglePane);
    let nav = [
        Up, Down, ScrollUp, ScrollDown, PageUp, PageDown, Top, Bottom,
    ];
    let asking = [Ask, FollowUp, NewConversation, ToggleScope];
    let global = [Search, JumpBack, JumpForward, Status, Sync, Help, Quit];
    let mail = [
        ToggleRead, ToggleFlag, Archive, Delete, Undo, Folders, Reply, ReplyAll, Forward, Compose,
        Move, Pipe, Expunge, Tag, Mute,
    ];
    let mut v: Vec<Command> = match mode {
        Mode::Threads => [Open, ClearSearch, GrowPane, ShrinkPane, SaveView, People]
            .into_iter()
            .chain([NextCitation, PrevCitation, OpenMessage, OpenPdf])
            .chain(citations)
            .chain(all_focus)
            .chain(panes)
            .chain(nav)
            .chain(asking)
            .chain(global)
            .chain(mail)
            .collect(),
        Mode::Reader => [Back, ToggleQuoted, NextCitation, PrevCitation, OpenPdf]
            .into_iter()
            .chain([GrowPane, ShrinkPane])
            .chain([ViewRaw, SaveAttachment, OpenAttachment, OpenUrl, People])
            .chain([Accept, Tentative, Decline])
            .chain([Focus(FocusTarget::Next), Focus(FocusTarget::Prev)])
            .chain(nav)
            .chain(asking)
            .chain(global)
            .chain(mail)
            .collect(),
        Mode::Evidence => [Open, Back, GrowPane, ShrinkPane]
            .into_iter()
            .chain([NextCitation, PrevCitation, OpenMessage, OpenPdf])
            .chain(citations)
            .chain(all_focus)
            .chain(panes)
            .chain(nav)
            .chain(asking)
            .chain(global)
            .collect(),
        Mode::Chat => [Submit, Newline, Cancel, ScrollUp, ScrollDown, Help]
            .into_iter()
            .chain([NewConversation, ToggleScope])
            .chain([Focus(FocusTarget::Next), Focus(FocusTarget::Prev)])
            .chain(citations)
            .collect(),
        Mode::Search => vec![Submit, Cancel, ClearSearch, Up, Down, Help],
    };
    v.sort();
    v
}

#[test]
fn every_shipped_key_parses_and_runs_its_command() {
    for preset in PRESETS {
        let map = load(preset);
        for mode in Mode::ALL {
            let table = map.mode(mode);
            assert!(!table.bindings().is_empty(), "{preset:?} {mode}");
            assert!(
                table.unreachable().is_empty(),
                "{preset:?} {mode}: shadowed {:?}",
                table.unreachable()
            );
            for b in table.bindings() {
                assert!(!b.desc.trim().is_empty(), "{preset:?} {mode} {}", b.keys);
                // Through the terminal-event path, key by key.
                let mut seq = map.sequencer(mode);
                let (last, init) = b.keys.keys().split_last().expect("non-empty");
                for k in init {
                    assert_eq!(
                        seq.feed(&k.to_event()),
                        Step::Pending,
                        "{preset:?} {mode} {}",
                        b.keys
                    );
                }
                assert_eq!(
                    seq.feed(&last.to_event()),
                    Step::Matched(b.command),
                    "{preset:?} {mode} {}",
                    b.keys
                );
                for k in b.keys.keys() {
                    assert_eq!(k.to_string().parse::<Key>(), Ok(*k));
                    assert_eq!(Key::from_event(&k.to_event()), Ok(*k));
                }
            }
        }
    }
}

#[test]
fn every_mode_binds_its_core_commands() {
    for preset in PRESETS {
        let map = load(preset);
        for mode in Mode::ALL {
            let table = map.mode(mode);
            for cmd in required(mode) {
                assert!(
                    table.keys_for(&cmd).next().is_some(),
                    "{preset:?}: [{mode}] does not bind `{cmd}`"
                );
            }
        }
    }
}

#[test]
fn every_command_is_bound_somewhere() {
    let mut union: Vec<Command> = Mode::ALL.into_iter().flat_map(required).collect();
    union.sort();
    union.dedup();
    assert_eq!(
        union,
        Command::all(),
        "the required sets cover every command"
    );
    for preset in PRESETS {
        let map = load(preset);
        for cmd in Command::all() {
            assert!(
                Mode::ALL
                    .into_iter()
                    .any(|m| map.mode(m).keys_for(&cmd).next().is_some()),
                "{preset:?} never binds `{cmd}`"
            );
        }
    }
}

#[test]
fn text_input_modes_leave_typing_keys_to_the_text_area() {
    for preset in PRESETS {
        let map = load(preset);
        for mode in Mode::ALL.into_iter().filter(|m| m.is_text_input()) {
            for b in map.mode(mode).bindings() {
                let first = b.keys.keys()[0];
                let typed = matches!(first.code(), crate::tui::key::KeyCode::Char(_))
                    && !first.mods().ctrl
                    && !first.mods().alt;
                assert!(!typed, "{preset:?} [{mode}] binds typing key {}", b.keys);
            }
        }
    }
}

#[test]
fn vim_preset_has_the_documented_keys() {
    let map = load(Preset::Vim);
    let expect = |mode: Mode, seq: &str, run: &str| {
        let cmd: Command = run.parse().expect("command");
        assert_eq!(
            map.mode(mode).lookup(keys(seq).keys()),
            Lookup::Exact(cmd),
            "[{mode}] {seq}"
        );
    };
    use Mode::*;
    for (seq, run) in [
        ("j", "down"),
        ("k", "up"),
        ("<C-d>", "page_down"),
        ("<C-u>", "page_up"),
        ("g g", "top"),
        ("G", "bottom"),
        ("<Enter>", "open"),
        ("/", "search"),
        ("i", "ask"),
        ("a", "follow_up"),
        ("n", "new_conversation"),
        ("s", "toggle_scope"),
        ("3", "jump_citation 3"),
        ("] c", "next_citation"),
        ("[ c", "prev_citation"),
        ("o", "open_message"),
        ("p", "open_pdf"),
        ("<C-o>", "jump_back"),
        ("<C-n>", "jump_forward"),
        ("<Tab>", "focus next"),
        ("<S-Tab>", "focus prev"),
        ("<C-w> h", "focus prev"),
        ("<C-w> l", "focus next"),
        ("<", "shrink_pane"),
        (">", "grow_pane"),
        ("?", "help"),
        ("q", "quit"),
    ] {
        expect(Threads, seq, run);
    }
    expect(Reader, "z", "toggle_quoted");
    expect(Reader, "q", "back");
    expect(Reader, "<Esc>", "back");
    expect(Evidence, "<Esc>", "back");
    expect(Chat, "<Enter>", "submit");
    expect(Chat, "<Esc>", "cancel");
    expect(Chat, "<C-c>", "cancel");
    expect(Search, "<Enter>", "submit");
    expect(Search, "<Esc>", "cancel");
}

#[test]
fn emacs_preset_has_the_documented_keys() {
    let map = load(Preset::Emacs);
    for (seq, run) in [
        ("<C-n>", "down"),
        ("<C-p>", "up"),
        ("<C-v>", "page_down"),
        ("<M-v>", "page_up"),
        ("<M-<>", "top"),
        ("<M->>", "bottom"),
        ("<C-s>", "search"),
        ("<C-x> o", "focus next"),
        ("<C-x> <C-c>", "quit"),
    ] {
        let cmd: Command = run.parse().expect("command");
        assert_eq!(
            map.mode(Mode::Threads).lookup(keys(seq).keys()),
            Lookup::Exact(cmd),
            "{seq}"
        );
    }
}

#[test]
fn shipped_files_on_disk_match_the_embedded_presets() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("keymaps");
    for (preset, file) in [(Preset::Vim, "default.toml"), (Preset::Emacs, "emacs.toml")] {
        let src = std::fs::read_to_string(dir.join(file)).expect("shipped file");
        assert_eq!(src, preset.source());
        Keymap::from_toml(&src, file).unwrap_or_else(|e| panic!("{e}"));
    }
}
