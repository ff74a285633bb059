//! The UI after an answer (which keys work), keys that do nothing, quitting while
//! background work runs, the folder view, a capped search list and emptying the
//! trash; driven through `App::handle` like the render tests. Also the helpers the
//! other `mail_ui_*_tests.rs` (and other UI tests) share: Enter, opening a message.

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
    let req = super::render_tests::ask(&mut app, "when does the roofer come?");
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

pub(super) fn enter() -> AppEvent {
    AppEvent::Term(crossterm::event::Event::Key(
        crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Enter,
            crossterm::event::KeyModifiers::NONE,
        ),
    ))
}

#[test]
fn a_key_bound_to_nothing_says_so() {
    let mut app = app(Theme::plain());
    app.handle(key_event('X'));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("X does nothing here (? lists the keys)"),
        "{screen}"
    );
}

#[test]
fn quitting_while_background_work_runs_asks_first() {
    let mut app = app(Theme::plain());
    app.status.busy = true;
    app.handle(key_event('q'));
    assert!(!app.should_quit(), "the first q asks");
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("quit again to quit"), "{screen}");
    // Another key cancels; then q asks again, and q twice quits.
    app.handle(key_event('j'));
    app.handle(key_event('q'));
    assert!(!app.should_quit());
    app.handle(key_event('q'));
    assert!(app.should_quit());
    // With nothing running, q quits at once.
    let mut idle = super::render_tests::app(Theme::plain());
    idle.handle(key_event('q'));
    assert!(idle.should_quit());
}

#[test]
fn the_folder_view_counts_mail_and_filters_the_thread_list() {
    use crate::store::FolderCount;
    let mut app = app(Theme::plain());
    let count = |name: &str, emails: u32, unread: u32| FolderCount {
        name: name.into(),
        emails,
        unread,
    };
    let mut threads = app.threads.threads.clone();
    threads[0].folders = vec![count("mail/inbox", 2, 1), count("mail/sent", 1, 0)];
    threads[1].folders = vec![count("mail/inbox", 1, 0)];
    threads[2].folders = vec![count("mail/sent", 2, 0)];
    app.handle(AppEvent::Engine(EngineEvent::ThreadList {
        threads,
        first: true,
        complete: true,
    }));
    app.handle(key_event('c'));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("Folders (Enter opens"), "{screen}");
    assert!(screen.contains("All mail"), "{screen}");
    let inbox = screen
        .lines()
        .find(|l| l.contains("mail/inbox"))
        .expect("an inbox row");
    assert!(inbox.contains("1 unread / 3"), "{inbox}");
    // After all mail come the saved views (Unread, Flagged), then the inbox: it
    // filters the list.
    for _ in 0..3 {
        app.handle(key_event('j'));
    }
    app.handle(enter());
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("mail/inbox · Threads (2)"), "{screen}");
    assert!(!screen.contains("Board meeting"), "{screen}");
    // Esc goes back to all mail.
    app.handle(AppEvent::Term(crossterm::event::Event::Key(
        crossterm::event::KeyEvent::new(
            crossterm::event::KeyCode::Esc,
            crossterm::event::KeyModifiers::NONE,
        ),
    )));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains(" Threads (3)"), "{screen}");
    assert!(screen.contains("Board meeting"), "{screen}");
}

#[test]
fn a_search_list_at_its_cap_says_more_match() {
    let mut app = app(Theme::plain());
    app.handle(key_event('/'));
    for c in "budget".chars() {
        app.handle(key_event(c));
    }
    app.handle(enter());
    let req = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Search { req, .. } => Some(req),
            _ => None,
        })
        .expect("a search");
    let cap = crate::engine::handle::SEARCH_LIMIT;
    // Distinct hits, as a search lists one entry per email.
    let hits = |n: usize| -> Vec<crate::engine::SearchHit> {
        (0..n)
            .map(|i| {
                let m = message(1, "Dana Whitfield", "Budget", 1_709_542_800, "Budget.\n");
                let mut h = crate::engine::SearchHit::of(
                    &m,
                    ThreadId::of_root(&m.key),
                    1.0,
                    "Budget".into(),
                    vec![],
                );
                h.key = format!("{i:032x}");
                h
            })
            .collect()
    };
    app.handle(AppEvent::Engine(EngineEvent::SearchResults {
        req,
        query: "budget".into(),
        hits: hits(cap),
    }));
    let screen = text(&draw(&mut app, 160, 40));
    assert!(
        screen.contains(&format!("first {cap} shown, more match")),
        "{screen}"
    );
    // At the end of the list the next page is asked for, and the selection stays.
    app.handle(key_event('G'));
    let (more, limit) = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Search { req, limit, .. } => Some((req, limit)),
            _ => None,
        })
        .expect("the end of a capped list reads on");
    assert_eq!(limit, 2 * cap);
    // The longer list ranks a little differently: the hit selected moved.
    let mut longer = hits(cap + 50);
    longer.swap(cap - 1, cap + 10);
    app.handle(AppEvent::Engine(EngineEvent::SearchResults {
        req: more,
        query: "budget".into(),
        hits: longer,
    }));
    assert_eq!(app.threads.selected, cap + 10, "on the hit it was on");
    let screen = text(&draw(&mut app, 160, 40));
    assert!(screen.contains(&format!("({} found", cap + 50)), "{screen}");
}

/// Opens the first thread's message in the reader; returns its key.
pub(super) fn open_message(app: &mut super::App) -> crate::mail::model::MessageKey {
    let m = message(1, "Dana Whitfield", "Roof leak", 1_709_542_800, "Fixed.\n");
    open_this(app, m)
}

/// Opens the first thread with `m` as its message.
pub(super) fn open_this(
    app: &mut super::App,
    m: crate::store::StoredMessage,
) -> crate::mail::model::MessageKey {
    app.handle(enter());
    let req = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Thread { req, .. } => Some(req),
            _ => None,
        })
        .expect("opening a thread reads it");
    let shown = m.key;
    app.handle(AppEvent::Engine(EngineEvent::ThreadMessages {
        req,
        id: ThreadId::of_root(&key(1)),
        messages: vec![m],
        attachments: Default::default(),
        also_in: Default::default(),
    }));
    app.take_requests();
    shown
}

/// The requests to empty the trash the app sent, by whether they confirm.
fn expunges(app: &mut super::App) -> Vec<(u64, bool)> {
    app.take_requests()
        .into_iter()
        .filter_map(|r| match r {
            EngineRequest::Expunge { req, confirm } => Some((req, confirm)),
            _ => None,
        })
        .collect()
}

fn trash_holds(req: u64, removed: usize, done: bool) -> AppEvent {
    AppEvent::Engine(EngineEvent::Expunged {
        req,
        report: crate::engine::mailbox::expunge::ExpungeReport {
            done,
            removed,
            kept_elsewhere: 0,
            folders: vec!["mail/trash".into()],
            left: 0,
            to_servers: Vec::new(),
        },
    })
}

#[test]
fn the_trash_is_emptied_only_when_asked_twice_in_a_row() {
    let mut app = app(Theme::plain());
    app.handle(key_event('$'));
    let asked = expunges(&mut app);
    assert_eq!(asked.len(), 1);
    assert!(
        !asked[0].1,
        "the first press only asks what the trash holds"
    );
    app.handle(trash_holds(asked[0].0, 3, false));
    let screen = text(&draw(&mut app, 140, 40));
    assert!(
        screen.contains("3 emails in mail/trash would be deleted for good: $ again deletes them"),
        "{screen}"
    );
    // Any other key disarms it: the next press asks again.
    app.handle(key_event('j'));
    app.handle(key_event('$'));
    let asked = expunges(&mut app);
    assert_eq!(asked.iter().map(|a| a.1).collect::<Vec<_>>(), vec![false]);
    app.handle(trash_holds(asked[0].0, 3, false));
    app.handle(key_event('$'));
    let done = expunges(&mut app);
    assert_eq!(done.iter().map(|a| a.1).collect::<Vec<_>>(), vec![true]);
    app.handle(trash_holds(done[0].0, 3, true));
    let screen = text(&draw(&mut app, 140, 40));
    assert!(
        screen.contains("deleted 3 emails from mail/trash for good"),
        "{screen}"
    );
}
