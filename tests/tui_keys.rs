//! Key-sequence tests of the TUI: the real event loop, with an injected input stream,
//! run until idle over a real engine on the demo mailbox (ingested into a temp dir,
//! embedded when the model is fetched, lexical-only otherwise), drawn on a TestBackend.

mod common;

use crossterm::event::Event;
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::engine::handle::EngineHandle;
use quoth::tui::{
    self, App, AppOptions, EngineLink, FocusTarget, Key, Keymap, LoopOptions, Mode, Pane, Preset,
    Theme,
};
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;
use std::str::FromStr;

/// The question whose answer is fact 1a of tests/fixtures/demo-mailbox/FACTS.md.
pub const QUESTION: &str = "What is the strike price of the stock option grant?";

pub struct Harness {
    pub rt: tokio::runtime::Runtime,
    pub link: EngineLink,
    pub app: App,
    pub term: Terminal<TestBackend>,
    _dir: tempfile::TempDir,
}

impl Harness {
    pub fn demo(theme: Theme, w: u16, h: u16) -> Harness {
        Self::with_mailbox(&common::demo_mailbox(), theme, w, h)
    }

    pub fn with_mailbox(mailbox: &std::path::Path, theme: Theme, w: u16, h: u16) -> Harness {
        let dir = tempfile::tempdir().expect("temp dir");
        // Reading marks mail read in its files: the UI gets a copy of the fixture.
        let mail = dir.path().join("mail");
        common::copy_dir(mailbox, &mail);
        let mut engine = common::open(&dir.path().join("data"));
        common::ingest(&mut engine, &[mail]);
        if common::models().is_some() {
            common::embed_all(&mut engine);
        } else {
            eprintln!("note: lexical-only retrieval without the model");
        }
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let (handle, events) =
            EngineHandle::start(engine, Box::new(ExtractiveAnswerer), rt.handle());
        let keymap = Keymap::builtin(Preset::Vim).expect("keymap");
        let mut h = Harness {
            rt,
            link: EngineLink::local(handle, events),
            app: App::new(keymap, theme, AppOptions::default()),
            term: Terminal::new(TestBackend::new(w, h)).expect("backend"),
            _dir: dir,
        };
        h.keys("");
        h
    }

    /// Types `keys` (`<Enter>`, `<C-w>` and other names as in keymap files), each
    /// after the previous one's effects have settled, then runs until idle.
    pub fn keys(&mut self, keys: &str) {
        let events: Vec<std::io::Result<Event>> = parse_keys(keys)
            .into_iter()
            .map(|k| Ok(Event::Key(k.to_event())))
            .collect();
        let stats = self
            .rt
            .block_on(tui::run(
                &mut self.app,
                &mut self.term,
                futures::stream::iter(events),
                &mut self.link,
                &LoopOptions::until_idle(),
            ))
            .expect("the loop runs");
        assert!(!stats.stalled, "the app did not become idle after {keys:?}");
    }

    pub fn screen(&self) -> String {
        let buf = self.term.backend().buffer();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Background colour of the first cell of `needle` at or below row `from`.
    pub fn bg_of(&self, needle: &str, from: u16) -> Option<Color> {
        let w = self.term.backend().buffer().area.width;
        self.bg_within(needle, from, 0, w)
    }

    /// Background colour of the first cell of `needle` at or below row `from` and
    /// between columns `x0` and `x1`.
    pub fn bg_within(&self, needle: &str, from: u16, x0: u16, x1: u16) -> Option<Color> {
        let buf = self.term.backend().buffer();
        for y in from..buf.area.height {
            let row: String = (x0..x1).map(|x| buf[(x, y)].symbol()).collect();
            if let Some(b) = row.find(needle) {
                let x = x0 + row[..b].chars().count() as u16;
                return Some(buf[(x, y)].bg);
            }
        }
        None
    }
}

/// `"ab<Enter><C-w>l"` → keys. Text outside `<...>` is one key per character.
pub fn parse_keys(s: &str) -> Vec<Key> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '<' {
            if let Some(end) = rest.find('>') {
                let name = &rest[..=end];
                if let Ok(k) = Key::from_str(name) {
                    out.push(k);
                    rest = &rest[end + 1..];
                    continue;
                }
            }
        }
        out.push(Key::from_str(&c.to_string()).unwrap_or_else(|_| Key::char(c)));
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[test]
fn ask_then_jump_to_the_citation_highlights_the_quote() {
    let mut h = Harness::demo(Theme::colored(), 120, 40);
    assert!(h.screen().contains("stock optio"), "{}", h.screen());
    h.keys(&format!("i{QUESTION}<Enter>"));
    let screen = h.screen();
    assert!(screen.contains("› What is the strike price"), "{screen}");
    assert!(
        screen.contains("14.50"),
        "the answer quotes the price: {screen}"
    );
    assert!(screen.contains("[1]"), "{screen}");
    h.keys("<Esc>1");
    assert_eq!(h.app.mode(), Mode::Evidence);
    let screen = h.screen();
    assert!(screen.contains("Evidence ("), "{screen}");
    // The quote is in the list, and highlighted in the message below it.
    let citation = &h.app.citations()[0];
    let words: String = citation
        .quote
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ");
    let list_row = screen
        .lines()
        .position(|l| l.contains("[1] "))
        .expect("the list names citation 1") as u16;
    // Below the list, in the evidence column (the right third at 120 columns).
    // The message below the list has the quote highlighted (the list's copy is not).
    let highlighted = (list_row..40).find_map(|y| {
        h.bg_within("14.50", y, 84, 120)
            .filter(|c| *c == Color::Yellow)
    });
    assert_eq!(
        highlighted,
        Some(Color::Yellow),
        "quote `{words}`:\n{screen}"
    );
}

#[test]
fn a_follow_up_stays_in_the_conversation_and_a_new_one_starts_empty() {
    let mut h = Harness::demo(Theme::plain(), 120, 40);
    h.keys(&format!("i{QUESTION}<Enter>"));
    h.keys("<Esc>awhen does the exercise window close?<Enter>");
    let screen = h.screen();
    assert_eq!(h.app.chat.turns.len(), 2, "{screen}");
    assert_eq!(h.app.chat.conversation.turns.len(), 2);
    h.keys("<Esc>n");
    assert!(h.app.chat.turns.is_empty());
    assert!(h.screen().contains("Press i to ask"), "{}", h.screen());
}

#[test]
fn search_replaces_the_list_and_escape_brings_it_back() {
    let mut h = Harness::demo(Theme::plain(), 120, 40);
    h.keys("/from:dana \"water damage\"<Enter>");
    let screen = h.screen();
    assert!(
        screen.contains("Search: from:dana \"water damage\""),
        "{screen}"
    );
    assert!(!screen.contains("Ops Weekly"), "{screen}");
    h.keys("<Enter>");
    assert!(h.app.reader.is_some(), "Enter opens the hit's thread");
    h.keys("q<Esc>");
    assert!(h.screen().contains("Threads ("), "{}", h.screen());
    // A malformed query reports its position.
    h.keys("/budget AND (travel<Enter>");
    assert!(h.screen().contains("unclosed"), "{}", h.screen());
}

#[test]
fn scoped_question_and_opening_the_cited_message_in_the_reader() {
    let mut h = Harness::demo(Theme::colored(), 120, 40);
    // Select the stock options thread, scope to it, ask.
    let row = h
        .app
        .threads
        .threads
        .iter()
        .position(|t| t.subject.to_lowercase().contains("stock option"))
        .expect("the thread is listed");
    h.keys(&format!("gg{}s", "j".repeat(row)));
    assert!(h.screen().contains("Chat · thread:"), "{}", h.screen());
    h.keys(&format!("i{QUESTION}<Enter><Esc>1o"));
    assert_eq!(h.app.mode(), Mode::Reader);
    let screen = h.screen();
    assert!(screen.contains("quotes folded"), "{screen}");
    // The cited line, "- Strike price: $14.50 per share ...", is marked in the
    // message (its words are also said in the prose above it, unmarked).
    let cited = screen
        .lines()
        .position(|l| {
            l.chars()
                .take(47)
                .collect::<String>()
                .contains("- Strike price:")
        })
        .expect("the cited line is shown in the reader") as u16;
    assert_eq!(
        h.bg_within("14.50", cited, 0, 47),
        Some(Color::Yellow),
        "{screen}"
    );
    // Back to the evidence, forward to the reader again.
    h.keys("<C-o>");
    assert_eq!(h.app.mode(), Mode::Evidence);
    h.keys("<C-n>");
    assert_eq!(h.app.mode(), Mode::Reader);
}

#[test]
fn at_80x24_the_app_works_with_two_panes() {
    let mut h = Harness::demo(Theme::plain(), 80, 24);
    h.keys(&format!("i{QUESTION}<Enter><Esc>1"));
    let screen = h.screen();
    assert!(screen.contains("Evidence ("), "{screen}");
    assert!(screen.contains("14.50"), "{screen}");
    assert!(!screen.contains("Threads ("), "{screen}");
    h.keys("p");
    assert!(
        h.screen().contains("no attachment is cited"),
        "{}",
        h.screen()
    );
    h.keys("q");
    assert!(h.app.should_quit());
}

/// Puts a copy of `base` into the state where every key of `mode` has something to do:
/// a list scrolled into its middle, a reader between two messages, several citations
/// with the middle one selected, text in the inputs.
fn prepare(h: &mut Harness, base: &App, mode: Mode) {
    h.app = base.clone();
    let app = &mut h.app;
    if let Some(turn) = app
        .chat
        .turns
        .iter_mut()
        .rev()
        .find(|t| t.outcome.is_some())
    {
        let outcome = turn.outcome.as_mut().expect("answered");
        let first = outcome.citations[0].clone();
        outcome.citations.truncate(1);
        for n in 2..=3 {
            outcome
                .citations
                .push(quoth::engine::Citation { n, ..first.clone() });
        }
        // A conversation longer than the pane, so it can scroll.
        let turn = turn.clone();
        app.chat.turns = vec![turn.clone(), turn.clone(), turn];
    }
    app.threads.height = 8;
    app.threads.select(5);
    app.threads.offset = 2;
    match mode {
        Mode::Threads => {
            app.reader = None;
            app.layout.focus_on(Pane::Threads);
        }
        Mode::Reader => {
            app.layout.focus_on(Pane::Threads);
            let r = app.reader.as_mut().expect("the base has a reader open");
            r.current = 1;
            r.scroll = 3;
            r.follow = false;
        }
        Mode::Evidence => {
            app.layout.focus_on(Pane::Evidence);
            app.evidence.selected = 1;
            app.evidence.scroll = 1;
            app.evidence.follow = false;
        }
        Mode::Chat => {
            app.layout.focus_on(Pane::Chat);
            app.chat.input.insert_str("abc");
            app.chat.scroll_back = 1;
        }
        Mode::Search => {
            app.reader = None;
            app.layout.focus_on(Pane::Threads);
        }
    }
    if mode == Mode::Search {
        h.keys("/rf");
    }
    h.app.draw(&mut h.term).expect("draw");
}

#[test]
fn every_default_key_has_an_observable_effect() {
    let mut h = Harness::demo(Theme::plain(), 120, 12);
    // A base with an answer, its message in the reader, and jumps both ways.
    h.keys(&format!("i{QUESTION}<Enter><Esc>1o<C-o>"));
    assert!(!h.app.citations().is_empty(), "{}", h.screen());
    let base = h.app.clone();
    let keymap = Keymap::builtin(Preset::Vim).expect("keymap");
    let mut failures = Vec::new();
    let mut covered = 0;
    for mode in Mode::ALL {
        for binding in keymap.mode(mode).bindings() {
            prepare(&mut h, &base, mode);
            if binding.command == tui::Command::ClearSearch && mode == Mode::Threads {
                h.keys("/budget<Enter>");
                h.app.draw(&mut h.term).expect("draw");
            }
            let mut keys = binding.keys.keys().to_vec();
            // Focusing the pane that has the focus changes nothing but the sequence
            // itself: then the effect checked is that the last key completes it (the
            // pending `<C-w>` leaves the status bar).
            let in_place = matches!(
                (binding.command, mode),
                (
                    tui::Command::Focus(FocusTarget::Pane(Pane::Threads)),
                    Mode::Threads
                ) | (
                    tui::Command::Focus(FocusTarget::Pane(Pane::Evidence)),
                    Mode::Evidence
                )
            );
            if in_place && keys.len() > 1 {
                let prefix: Vec<std::io::Result<Event>> = keys
                    .drain(..keys.len() - 1)
                    .map(|k| Ok(Event::Key(k.to_event())))
                    .collect();
                h.rt.block_on(tui::run(
                    &mut h.app,
                    &mut h.term,
                    futures::stream::iter(prefix),
                    &mut h.link,
                    &LoopOptions::until_idle(),
                ))
                .expect("the loop runs");
                assert!(h.screen().contains("<C-w>"), "pending keys show");
            }
            let before = (h.app.state_summary(), h.screen());
            let events: Vec<std::io::Result<Event>> =
                keys.iter().map(|k| Ok(Event::Key(k.to_event()))).collect();
            h.rt.block_on(tui::run(
                &mut h.app,
                &mut h.term,
                futures::stream::iter(events),
                &mut h.link,
                &LoopOptions::until_idle(),
            ))
            .expect("the loop runs");
            h.app.draw(&mut h.term).expect("draw");
            let after = (h.app.state_summary(), h.screen());
            if before == after {
                failures.push(format!("[{mode}] {} ({})", binding.keys, binding.command));
            }
            covered += 1;
        }
    }
    assert!(covered > 150, "{covered} bindings");
    assert!(
        failures.is_empty(),
        "keys without an effect:\n{}",
        failures.join("\n")
    );
}

/// Hostile mail (tests/fixtures/hostile-mail) in every pane: the thread list, the
/// reader, the chat answer and the evidence. No cell holds a control character or a
/// bidi override, and placeholders show where the escapes were.
#[test]
fn hostile_mail_renders_as_placeholders_in_every_pane() {
    let mailbox =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-mail");
    let mut h = Harness::with_mailbox(&mailbox, Theme::plain(), 160, 40);
    let unsafe_cell = |h: &Harness| {
        h.term
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|c| c.symbol().to_string())
            .find(|s| {
                s.chars().any(|c| {
                    let u = c as u32;
                    u < 0x20
                        || u == 0x7f
                        || (0x80..=0x9f).contains(&u)
                        || matches!(u, 0x202A..=0x202E | 0x2066..=0x2069)
                })
            })
    };
    let screen = h.screen();
    assert!(
        screen.contains('␛'),
        "the thread list shows placeholders:\n{screen}"
    );
    assert_eq!(unsafe_cell(&h), None, "{screen}");
    // Open each thread in the reader.
    for _ in 0..2 {
        h.keys("<Enter>");
        let screen = h.screen();
        assert!(h.app.reader.is_some());
        assert!(
            screen.contains('␛'),
            "the reader shows placeholders:\n{screen}"
        );
        assert_eq!(unsafe_cell(&h), None, "{screen}");
        h.keys("qj");
    }
    h.keys("iWhen is the quarterly audit?<Enter>");
    let screen = h.screen();
    assert!(screen.contains("May 8"), "{screen}");
    assert_eq!(unsafe_cell(&h), None, "{screen}");
    h.keys("<Esc>1");
    let screen = h.screen();
    assert!(screen.contains("Evidence (1)"), "{screen}");
    assert_eq!(unsafe_cell(&h), None, "{screen}");
}
