//! The reader's mail actions: the folders of an email's copies, the raw view, piping
//! the raw message to a command, and links, attachments and folders chosen by number.

use super::app::AppEvent;
use super::keymap::Mode;
use super::mail_ui_tests::{enter, open_message, open_this};
use super::render_tests::{app, draw, key, key_event, message, text};
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest};
use crate::mail::model::ThreadId;

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

fn typed(app: &mut super::App, text: &str) {
    for c in text.chars() {
        app.handle(key_event(c));
    }
}

fn named_key(code: crossterm::event::KeyCode) -> AppEvent {
    AppEvent::Term(crossterm::event::Event::Key(
        crossterm::event::KeyEvent::new(code, crossterm::event::KeyModifiers::NONE),
    ))
}

#[test]
fn the_raw_view_shows_every_header_and_goes_back() {
    let mut app = app(Theme::plain());
    let shown = open_message(&mut app);
    app.handle(key_event('h'));
    let req = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Raw { req, key } if key == shown => Some(req),
            _ => None,
        })
        .expect("h asks for the raw message");
    app.handle(AppEvent::Engine(EngineEvent::Raw {
        req,
        key: shown,
        raw: b"X-Mailer: Quill 2.1\r\nReceived: from relay.example\r\nSubject: Roof leak\r\n\r\nFixed.\r\n"
            .to_vec(),
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("X-Mailer: Quill 2.1"), "{screen}");
    assert!(screen.contains("Received: from relay.example"), "{screen}");
    app.handle(key_event('h'));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(!screen.contains("X-Mailer"), "{screen}");
}

#[test]
fn pipe_asks_for_a_command_then_hands_it_the_raw_message() {
    let mut app = app(Theme::plain());
    let shown = open_message(&mut app);
    app.handle(key_event('|'));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("Pipe to:"), "{screen}");
    typed(&mut app, "wc -l");
    app.handle(enter());
    let req = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Raw { req, key } if key == shown => Some(req),
            _ => None,
        })
        .expect("the raw message is asked for");
    app.handle(AppEvent::Engine(EngineEvent::Raw {
        req,
        key: shown,
        raw: b"Subject: x\r\n\r\nbody\r\n".to_vec(),
    }));
    assert_eq!(
        app.take_external(),
        Some(super::ExternalJob::Pipe {
            command: "wc -l".into(),
            input: b"Subject: x\r\n\r\nbody\r\n".to_vec(),
        })
    );
    assert_ne!(app.mode(), Mode::Search, "the prompt is closed");
}

#[test]
fn links_attachments_and_folders_are_chosen_from_numbered_lists() {
    let mut app = app(Theme::plain());
    let mut threads = app.threads.threads.clone();
    for (t, folder) in threads.iter_mut().zip(["mail/inbox", "mail/work/2024"]) {
        t.folders = vec![crate::store::FolderCount {
            name: folder.into(),
            emails: 1,
            unread: 0,
        }];
    }
    app.handle(AppEvent::Engine(EngineEvent::ThreadList {
        threads,
        first: true,
        complete: true,
    }));
    let mut m = message(
        1,
        "Dana Whitfield",
        "Roof leak",
        1_709_542_800,
        "Photos: https://photos.example/roof and the quote at https://quotes.example/q?id=7.\n",
    );
    for (i, name) in ["quote.pdf", "../../etc/roof.jpg"].iter().enumerate() {
        m.attachments.push(crate::mail::model::AttachmentInfo {
            index: i as u32,
            name: Some(name.to_string()),
            mime_type: "application/octet-stream".into(),
            size: 10,
        });
    }
    let shown = open_this(&mut app, m);
    app.handle(key_event('U'));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("1 https://photos.example/roof"), "{screen}");
    assert!(
        screen.contains("2 https://quotes.example/q?id=7"),
        "{screen}"
    );
    app.handle(named_key(crossterm::event::KeyCode::Esc));
    assert!(!text(&draw(&mut app, 120, 40)).contains("Open which link?"));

    // Save: the second attachment, to a path the prompt suggests by its name alone.
    app.handle(key_event('w'));
    app.handle(key_event('2'));
    let screen = text(&draw(&mut app, 160, 40));
    let prompt = screen
        .lines()
        .find(|l| l.contains("Save to:"))
        .unwrap_or_else(|| panic!("no prompt: {screen}"));
    assert!(
        prompt.contains("roof.jpg") && !prompt.contains("etc/roof"),
        "{prompt}"
    );
    app.handle(enter());
    let (index, path) = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::SaveAttachmentAs {
                key, index, path, ..
            } if key == shown => Some((index, path)),
            _ => None,
        })
        .expect("Enter saves");
    assert_eq!(index, 1);
    assert!(path.ends_with("roof.jpg"), "{path:?}");

    // Move: the folders of the thread list, by number.
    app.handle(key_event('M'));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("Move to which folder?"), "{screen}");
    assert!(screen.contains("2 mail/work/2024"), "{screen}");
    app.handle(key_event('2'));
    let target = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Move { key, target, .. } if key == shown => Some(target),
            _ => None,
        })
        .expect("a digit moves");
    // The folder below its Maildir root, as a move names it.
    assert_eq!(
        target,
        crate::engine::mailbox::moves::MoveTarget::Folder("work/2024".into())
    );
}
