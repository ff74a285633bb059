//! Render tests of the thread list and the status bar: the list's rows, the panes
//! shown at 120x40 and 80x24, search results standing in for the list, the progress
//! gauge and help, and new mail refreshing the list.

use super::app::AppEvent;
use super::command::Pane;
use super::render_tests::{app, draw, find, key_event, message, text, thread, BODY};
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest, Progress};
use crate::engine::IngestPhase;
use crate::mail::model::ThreadId;
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;

#[test]
fn thread_list_shows_date_sender_subject_count_and_marks() {
    let mut app = app(Theme::plain());
    let buf = draw(&mut app, 120, 40);
    let screen = text(&buf);
    assert!(screen.contains("Threads (3)"), "{screen}");
    let row = screen
        .lines()
        .find(|l| l.contains("Roof leak"))
        .expect("the newest thread is listed");
    assert!(row.contains("2024-03-04"), "{row}");
    assert!(row.contains('•'), "unread mark: {row}");
    assert!(row.contains("Dana Whit"), "{row}");
    assert!(row.contains("(3)"), "message count: {row}");
    assert!(screen
        .lines()
        .any(|l| l.contains("Q1 budget") && l.contains('@')));
    // Newest first, and the first row selected.
    let roof = find(&buf, "Roof leak").expect("row");
    let board = find(&buf, "Board meeting").expect("row");
    assert!(roof.1 < board.1);
    assert!(buf[roof].modifier.contains(Modifier::REVERSED));
    assert!(screen.contains("Chat"), "{screen}");
    assert!(screen.contains("Evidence (0)"), "{screen}");
    assert!(screen.contains("Press i to ask a question"), "{screen}");
}

#[test]
fn at_80x24_two_panes_show_and_nothing_overflows() {
    let mut app = app(Theme::plain());
    let buf = draw(&mut app, 80, 24);
    let screen = text(&buf);
    assert!(screen.contains("Threads (3)"), "{screen}");
    assert!(screen.contains("Chat"), "{screen}");
    assert!(!screen.contains("Evidence"), "{screen}");
    assert!(screen.contains("Roof leak"), "{screen}");
    assert!(
        screen.lines().last().is_some_and(|l| l.contains("threads")),
        "{screen}"
    );
    // Focusing the evidence pane swaps it in beside the chat.
    app.layout.focus_on(Pane::Evidence);
    let screen = text(&draw(&mut app, 80, 24));
    assert!(screen.contains("Evidence (0)"), "{screen}");
    assert!(!screen.contains("Threads (3)"), "{screen}");
    // Tiny terminals do not panic.
    for (w, h) in [(20, 5), (1, 1), (49, 10)] {
        draw(&mut app, w, h);
    }
}

#[test]
fn search_results_replace_the_list_until_cleared() {
    let mut app = app(Theme::plain());
    app.handle(key_event('/'));
    for c in "roof".chars() {
        app.handle(key_event(c));
    }
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains(" Search roof"), "{screen}");
    app.handle(AppEvent::Term(Event::Key(KeyEvent::new(
        KeyCode::Enter,
        KeyModifiers::NONE,
    ))));
    let req = match app.take_requests().pop() {
        Some(EngineRequest::Search { req, query, .. }) => {
            assert_eq!(query, "roof");
            req
        }
        other => panic!("expected a search, got {other:?}"),
    };
    let msg = message(
        1,
        "Dana Whitfield",
        "Roof leak over the server room",
        1_709_542_800,
        BODY,
    );
    let hit = crate::engine::SearchHit::of(
        &msg,
        ThreadId::of_root(&msg.key),
        1.0,
        "roof".into(),
        vec![],
    );
    app.handle(AppEvent::Engine(EngineEvent::SearchResults {
        req,
        query: "roof".into(),
        hits: vec![hit],
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("Search: roof (1 found, Esc clears)"),
        "{screen}"
    );
    assert!(!screen.contains("Board meeting"), "{screen}");
    app.handle(AppEvent::Term(Event::Key(KeyEvent::new(
        KeyCode::Esc,
        KeyModifiers::NONE,
    ))));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("Threads (3)"), "{screen}");
    assert!(screen.contains("Board meeting"), "{screen}");
}

#[test]
fn status_bar_shows_a_gauge_and_help_shows_how_to_ask() {
    let mut app = app(Theme::plain());
    app.start_background(EngineRequest::Embed);
    app.handle(AppEvent::Engine(EngineEvent::Progress(Progress::Ingest {
        phase: IngestPhase::Reading,
        done: 50,
        total: 100,
    })));
    let screen = text(&draw(&mut app, 80, 24));
    let bar = screen.lines().last().expect("status line");
    assert!(bar.contains("reading mail ██████░░░░░░  50%"), "{bar}");
    app.handle(key_event('?'));
    let screen = text(&draw(&mut app, 80, 24));
    assert!(
        screen.contains("Press i to ask a question about your mail"),
        "{screen}"
    );
    app.handle(key_event('x'));
    app.handle(key_event('S'));
    let screen = text(&draw(&mut app, 80, 24));
    assert!(screen.contains("Status"), "{screen}");
    assert!(screen.contains("Threads listed: 3"), "{screen}");
}

#[test]
fn new_mail_refreshes_the_list_keeps_the_selection_and_says_so() {
    let mut app = app(Theme::plain());
    draw(&mut app, 120, 40);
    app.handle(key_event('j'));
    let selected = app.threads.selected_thread();
    app.handle(AppEvent::Engine(EngineEvent::NewMail {
        account: "work".into(),
        folder: "INBOX".into(),
        count: 1,
    }));
    assert!(
        app.take_requests()
            .iter()
            .any(|r| matches!(r, EngineRequest::Threads)),
        "new mail asks for the thread list again"
    );
    assert!(app.is_busy(), "the new mail is being embedded");
    let threads = vec![
        thread(9, "Zebra census results", "Tess Ter", 1_709_600_000, 1, 1),
        thread(
            1,
            "Roof leak over the server room",
            "Dana Whitfield",
            1_709_542_800,
            3,
            1,
        ),
        thread(4, "Q1 budget review", "Priya Ashford", 1_709_456_400, 1, 0),
        thread(6, "Board meeting agenda", "Sally Beck", 1_709_370_000, 2, 0),
    ];
    app.handle(AppEvent::Engine(EngineEvent::ThreadList {
        threads,
        first: true,
        complete: true,
    }));
    assert_eq!(
        app.threads.selected_thread(),
        selected,
        "the selection stays"
    );
    assert_eq!(
        app.threads.selected, 2,
        "one row down: the new thread is first"
    );
    app.handle(AppEvent::Engine(EngineEvent::Progress(Progress::Idle {
        summary: String::new(),
    })));
    assert!(!app.is_busy());
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("Zebra census results"), "{screen}");
    let bar = screen.lines().last().expect("status line");
    assert!(bar.contains("new mail: 1 message in work/INBOX"), "{bar}");
    // The next note takes the bar; the status popup keeps the new mail.
    app.handle(AppEvent::Engine(EngineEvent::Progress(Progress::Idle {
        summary: "embedded 1 message".into(),
    })));
    app.status.popup = true;
    let screen = text(&draw(&mut app, 120, 40));
    let bar = screen.lines().last().expect("status line");
    assert!(!bar.contains("new mail"), "{bar}");
    let line = screen
        .lines()
        .find(|l| l.contains("IMAP work:"))
        .unwrap_or_else(|| panic!("no account line in the popup:\n{screen}"));
    assert!(line.contains("new mail: 1 in INBOX at "), "{line}");
}
