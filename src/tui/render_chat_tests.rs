//! Render tests of the chat pane: an answer with its markers and rewrite, a streaming
//! draft, an abstention naming the closest mail; and the answered screen drawn
//! without colours and the same every time.

use super::app::AppEvent;
use super::command::Pane;
use super::render_tests::{
    answered, app, ask, draw, find, find_within, key_event, message, outcome, text,
};
use super::theme::Theme;
use crate::answer::conversation::Conversation;
use crate::engine::handle::{EngineEvent, EngineRequest};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Color;

#[test]
fn chat_shows_the_answer_with_markers_and_the_rewrite_quietly() {
    let mut app = app(Theme::colored());
    answered(&mut app);
    app.chat.turns[0].rewrite = Some("when does the roofer come to fix the leak".into());
    let buf = draw(&mut app, 120, 40);
    let screen = text(&buf);
    assert!(screen.contains("› when does the roofer come?"), "{screen}");
    assert!(screen.contains("searched as: when does the"), "{screen}");
    let marker = find_within(&buf, "[1]", 47, 84).expect("marker in the chat pane");
    assert_eq!(buf[marker].bg, Color::Yellow, "the marker is highlighted");
    let rewrite = find(&buf, "searched as").expect("rewrite");
    assert_eq!(buf[rewrite].fg, Color::DarkGray, "the rewrite is quiet");
}

#[test]
fn a_streaming_answer_shows_its_draft() {
    let mut app = app(Theme::plain());
    for c in "iroof?".chars() {
        app.handle(key_event(c));
    }
    app.handle(AppEvent::Term(Event::Key(KeyEvent::new(
        KeyCode::Enter,
        KeyModifiers::NONE,
    ))));
    let req = app.chat.turns[0].req;
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("searching…"), "{screen}");
    app.handle(AppEvent::Engine(EngineEvent::AnswerDelta {
        req,
        text: "\"The roofer comes".into(),
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("\"The roofer comes …"), "{screen}");
    // A stale delta (an older request) is dropped.
    app.handle(AppEvent::Engine(EngineEvent::AnswerDelta {
        req: req - 1,
        text: "STALE".into(),
    }));
    assert!(!text(&draw(&mut app, 120, 40)).contains("STALE"));
}

#[test]
fn an_abstention_names_the_closest_mail_and_the_evidence_pane_shows_it() {
    let mut app = app(Theme::colored());
    let req = ask(&mut app, "what time does the roofer come?");
    let msg = message(
        1,
        "Dana Whitfield",
        "Roof leak over the server room",
        1_709_542_800,
        "The roofer will look at the leak this week.\n",
    );
    let mut o = outcome("what time does the roofer come?", "", vec![]);
    o.answer = None;
    o.abstained = true;
    o.abstention = Some(crate::engine::Abstention {
        reason: Some("the reader finds no sentence of the evidence that answers it".into()),
        closest: Some(crate::engine::ClosestMail {
            key: msg.key.to_hex(),
            message_id: None,
            subject: msg.subject.clone(),
            from: "Dana Whitfield".into(),
            date: Some("2024-03-04T09:00:00+00:00".into()),
        }),
    });
    app.handle(AppEvent::Engine(EngineEvent::Answer {
        req,
        outcome: Box::new(o),
        conversation: Conversation::default(),
    }));
    let open = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Open { req, key } => Some((req, key)),
            _ => None,
        })
        .expect("an abstention with a closest message opens it");
    assert_eq!(open.1, msg.key);
    app.handle(AppEvent::Engine(EngineEvent::Message {
        req: open.0,
        message: Box::new(msg.clone()),
        attachments: Vec::new(),
    }));
    app.layout.focus_on(Pane::Evidence);
    let screen = text(&draw(&mut app, 120, 40));
    // The chat column wraps the abstention: look for pieces of it.
    assert!(
        screen.contains("I don't know: the mail I found on") && screen.contains("Closest: \"Roof"),
        "{screen}"
    );
    assert!(screen.contains("Evidence: the closest mail"), "{screen}");
    assert!(
        screen.contains("The roofer will look at the leak"),
        "{screen}"
    );
}

#[test]
fn no_color_draws_without_colours() {
    let mut app = app(Theme::plain());
    answered(&mut app);
    app.layout.focus_on(Pane::Evidence);
    let buf = draw(&mut app, 120, 40);
    for cell in buf.content() {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset));
    }
    let q = find(&buf, "The roofer comes Thursday at 9").expect("quote");
    let _ = q;
}

#[test]
fn rendering_is_deterministic() {
    let mut a = app(Theme::colored());
    let mut b = app(Theme::colored());
    answered(&mut a);
    answered(&mut b);
    assert_eq!(draw(&mut a, 120, 40), draw(&mut b, 120, 40));
    assert_eq!(draw(&mut a, 80, 24), draw(&mut b, 80, 24));
}
