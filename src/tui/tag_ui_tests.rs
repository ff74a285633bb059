//! Tags from the UI: the prompt, Tab completing a name in use, the request for the
//! thread selected or the message read, and the tags shown in the list and reader.

use super::app::AppEvent;
use super::mail_ui_tests::enter;
use super::render_tests::{app, draw, key_event, text};
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest};
use crate::engine::mailbox::tagging::{TagReport, TagTarget};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

fn tab() -> AppEvent {
    AppEvent::Term(Event::Key(KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE)))
}

#[test]
fn a_thread_is_tagged_from_the_prompt_with_a_completed_name() {
    let mut app = app(Theme::plain());
    let thread = app.threads.selected_thread().expect("a thread selected");
    app.handle(key_event('+'));
    let tags_req = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Tags { req } => Some(req),
            _ => None,
        })
        .expect("the tags in use are asked for");
    app.handle(AppEvent::Engine(EngineEvent::TagList {
        req: tags_req,
        tags: vec![
            ("receipts".into(), 3),
            ("recipes".into(), 1),
            ("work".into(), 9),
        ],
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("Tag the thread"), "{screen}");
    // "+" is there already; Tab completes as far as the names agree.
    app.handle(key_event('r'));
    app.handle(tab());
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("receipts recipes"),
        "the names that fit: {screen}"
    );
    app.handle(key_event('i'));
    app.handle(tab());
    for c in "-later".chars() {
        app.handle(key_event(c));
    }
    app.handle(enter());
    let tag = app.take_requests().into_iter().find_map(|r| match r {
        EngineRequest::Tag {
            req,
            target,
            add,
            remove,
        } => Some((req, target, add, remove)),
        _ => None,
    });
    let (req, target, add, remove) = tag.expect("a tag request");
    assert_eq!(target, TagTarget::Thread(thread));
    assert_eq!(add, ["recipes"]);
    assert_eq!(remove, ["later"]);

    app.handle(AppEvent::Engine(EngineEvent::ThreadTags {
        tags: vec![(thread, vec!["recipes".into(), "work".into()])],
        every: false,
    }));
    app.handle(AppEvent::Engine(EngineEvent::Tagged {
        req,
        report: TagReport {
            matched: 3,
            changed: 3,
        },
    }));
    let screen = text(&draw(&mut app, 240, 40));
    let row = screen
        .lines()
        .find(|l| l.contains("Dana Whitf"))
        .unwrap_or_else(|| panic!("the thread row: {screen}"));
    assert!(row.contains("+recipes +work"), "{row}");
    assert!(screen.contains("tags changed on 3 messages"), "{screen}");
    // The whole list's tags replace what was known.
    app.handle(AppEvent::Engine(EngineEvent::ThreadTags {
        tags: vec![],
        every: true,
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(!screen.contains("+recipes"), "{screen}");
}

#[test]
fn a_bad_tag_name_is_refused_in_the_ui() {
    let mut app = app(Theme::plain());
    app.handle(key_event('+'));
    for c in "a,b".chars() {
        app.handle(key_event(c));
    }
    app.handle(enter());
    assert!(
        !app.take_requests()
            .iter()
            .any(|r| matches!(r, EngineRequest::Tag { .. })),
        "nothing is sent"
    );
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("'+a,b'"), "{screen}");
}

#[test]
fn mute_tags_reads_and_archives_the_thread_and_a_second_press_unmutes() {
    let mut app = app(Theme::plain());
    let summary = app.threads.threads[0].clone();
    assert!(
        summary.unread > 0,
        "the fixture's first thread has unread mail"
    );
    app.handle(key_event('Z'));
    let requests = app.take_requests();
    let tagged = requests.iter().any(|r| {
        matches!(r, EngineRequest::Tag { target, add, remove, .. }
            if *target == TagTarget::Thread(summary.id) && add == &["muted"] && remove.is_empty())
    });
    assert!(tagged, "{requests:?}");
    let read: Vec<_> = requests
        .iter()
        .filter_map(|r| match r {
            EngineRequest::SetFlag {
                key,
                flag: 'S',
                on: true,
                ..
            } => Some(*key),
            _ => None,
        })
        .collect();
    assert_eq!(read, summary.messages, "every message marked read");
    let archived: Vec<_> = requests
        .iter()
        .filter_map(|r| match r {
            EngineRequest::Move {
                key,
                target: crate::engine::mailbox::moves::MoveTarget::Archive,
                ..
            } => Some(*key),
            _ => None,
        })
        .collect();
    assert_eq!(archived, summary.messages, "every message archived");

    app.handle(AppEvent::Engine(EngineEvent::ThreadTags {
        tags: vec![(summary.id, vec!["muted".into()])],
        every: false,
    }));
    app.handle(key_event('Z'));
    let requests = app.take_requests();
    assert!(
        requests
            .iter()
            .any(|r| matches!(r, EngineRequest::Tag { add, remove, .. }
            if add.is_empty() && remove == &["muted"])),
        "{requests:?}"
    );
    assert!(
        !requests
            .iter()
            .any(|r| matches!(r, EngineRequest::Move { .. })),
        "unmuting moves nothing"
    );
}
