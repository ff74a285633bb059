//! The UI after an answer (which keys work), keys that do nothing, quitting while
//! background work runs, and the reader with copies of an email; driven through
//! `App::handle` like the render tests.

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
fn open_message(app: &mut super::App) -> crate::mail::model::MessageKey {
    let m = message(1, "Dana Whitfield", "Roof leak", 1_709_542_800, "Fixed.\n");
    open_this(app, m)
}

/// Opens the first thread with `m` as its message.
fn open_this(
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

#[test]
fn a_reply_goes_to_the_editor_then_asks_and_a_failed_send_keeps_the_draft() {
    use crate::engine::mailbox::compose::DraftStarted;
    use crate::mail::compose::DraftKind;
    let mut app = app(Theme::plain());
    let shown = open_message(&mut app);
    app.handle(key_event('r'));
    let (req, kind, of) = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::StartDraft { req, kind, of } => Some((req, kind, of)),
            _ => None,
        })
        .expect("reply asks for a draft");
    assert_eq!((kind, of), (DraftKind::Reply, Some(shown)));
    let path = std::path::PathBuf::from("/data/drafts/1.eml");
    app.handle(AppEvent::Engine(EngineEvent::DraftReady {
        req,
        draft: Box::new(DraftStarted {
            path: path.clone(),
            kind,
            original: of,
        }),
    }));
    assert_eq!(
        app.take_external(),
        Some(super::ExternalJob::Edit { path: path.clone() })
    );
    app.editor_done(Ok(true));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("y send · e edit again · p postpone"),
        "{screen}"
    );
    // A key that is not an answer to the prompt does nothing else.
    app.handle(key_event('j'));
    assert!(app.take_requests().is_empty());
    app.handle(key_event('y'));
    let send = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::SendDraft {
                req,
                path: p,
                original,
            } => Some((req, p, original)),
            _ => None,
        })
        .expect("y sends");
    assert_eq!(send.1, path);
    assert_eq!(send.2, Some((shown, DraftKind::Reply)));
    app.handle(AppEvent::Engine(EngineEvent::Error {
        req: Some(send.0),
        message: "writing mail: `msmtp` failed; the draft is kept".into(),
    }));
    let screen = text(&draw(&mut app, 160, 40));
    assert!(screen.contains("the draft is kept"), "{screen}");
    assert!(app.has_draft(), "back at the prompt");
    // Quitting with a draft open asks first.
    app.handle(key_event('e'));
    assert_eq!(app.take_external(), Some(super::ExternalJob::Edit { path }));
    app.editor_done(Err("vi exited with 1".into()));
    app.handle(key_event('p'));
    let postpone = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::PostponeDraft { req, .. } => Some(req),
            _ => None,
        })
        .expect("p postpones");
    app.handle(AppEvent::Engine(EngineEvent::DraftPostponed {
        req: postpone,
        postponed: Box::new(crate::engine::mailbox::compose::PostponedDraft {
            kept_in: "mail/drafts".into(),
            root: Some("/mail".into()),
            to_server: None,
        }),
    }));
    assert!(!app.has_draft());
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("draft kept in mail/drafts"), "{screen}");
}

#[test]
fn accepting_an_invitation_goes_straight_to_the_prompt_and_sends_as_an_answer() {
    use crate::attach::itip::InviteAnswer;
    use crate::engine::mailbox::compose::DraftStarted;
    use crate::mail::compose::DraftKind;
    let mut app = app(Theme::plain());
    let shown = open_message(&mut app);
    app.handle(key_event('g'));
    app.handle(key_event('a'));
    let (req, kind, of) = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::StartDraft { req, kind, of } => Some((req, kind, of)),
            _ => None,
        })
        .expect("accept asks for a draft");
    assert_eq!(
        (kind, of),
        (DraftKind::Answer(InviteAnswer::Accepted), Some(shown))
    );
    let path = std::path::PathBuf::from("/data/drafts/2.eml");
    app.handle(AppEvent::Engine(EngineEvent::DraftReady {
        req,
        draft: Box::new(DraftStarted {
            path: path.clone(),
            kind,
            original: of,
        }),
    }));
    assert_eq!(app.take_external(), None, "no editor unless asked for");
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("Accept the invitation? y send · e edit again"),
        "{screen}"
    );
    app.handle(key_event('y'));
    let send = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::SendDraft { original, .. } => Some(original),
            _ => None,
        })
        .expect("y sends");
    assert_eq!(send, Some((shown, kind)));
}

#[test]
fn quitting_with_a_draft_open_asks_first() {
    let mut app = app(Theme::plain());
    app.handle(key_event('m'));
    assert!(app.has_draft());
    app.handle(key_event('q'));
    assert!(!app.should_quit());
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("a draft is open"), "{screen}");
    app.handle(key_event('q'));
    assert!(app.should_quit());
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
