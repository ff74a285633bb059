//! The UI after an answer (which keys work) and the reader with copies of an email,
//! driven through `App::handle` like the render tests.

use super::app::AppEvent;
use super::keymap::Mode;
use super::render_tests::{answered, app, draw, key, key_event, message, text};
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest};
use crate::mail::model::ThreadId;

#[test]
fn an_answer_ends_typing_mode_so_digits_open_citations() {
    let mut app = app(Theme::plain());
    answered(&mut app);
    assert_ne!(app.mode(), Mode::Chat, "typing mode ended with the answer");
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("digits open the citations"), "{screen}");
    // A digit now opens a citation instead of being typed into the question box.
    app.handle(key_event('1'));
    assert!(app.chat.input_is_empty());
}

#[test]
fn an_answer_leaves_a_question_being_typed_alone() {
    let mut app = app(Theme::plain());
    for c in "iwhen does the roofer come?".chars() {
        app.handle(key_event(c));
    }
    app.handle(enter());
    let req = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Ask { req, .. } => Some(req),
            _ => None,
        })
        .expect("submitting asks");
    for c in "and the cost".chars() {
        app.handle(key_event(c));
    }
    app.handle(AppEvent::Engine(EngineEvent::Answer {
        req,
        outcome: Box::new(super::render_tests::outcome("q", "I don't know.", vec![])),
        conversation: Default::default(),
    }));
    assert_eq!(app.mode(), Mode::Chat, "the user is typing: focus stays");
    assert_eq!(app.chat.input.lines().join(""), "and the cost");
}

#[test]
fn the_reader_names_the_folders_of_an_emails_copies() {
    let mut app = app(Theme::plain());
    app.handle(enter());
    let (req, show) = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Thread { req, show, .. } => Some((req, show)),
            _ => None,
        })
        .expect("opening a thread reads it");
    assert_eq!(
        show, None,
        "a thread opened from the list starts at its unread mail"
    );
    let mut m = message(1, "Dana Whitfield", "Roof leak", 1_709_542_800, "Fixed.\n");
    m.folder = "inbox".into();
    app.handle(AppEvent::Engine(EngineEvent::ThreadMessages {
        req,
        id: ThreadId::of_root(&key(1)),
        messages: vec![m.clone()],
        attachments: Default::default(),
        also_in: [(m.key, vec!["archive".to_string(), "sent".to_string()])]
            .into_iter()
            .collect(),
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("Folder: inbox · also in archive, sent"),
        "{screen}"
    );
}

fn enter() -> AppEvent {
    AppEvent::Term(crossterm::event::Event::Key(
        crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Enter,
            crossterm::event::KeyModifiers::NONE,
        ),
    ))
}
