//! Drafts from the UI: a reply through the editor to the send prompt (and a failed
//! send keeping the draft), accepting an invitation, and quitting with a draft open.

use super::app::AppEvent;
use super::mail_ui_tests::open_message;
use super::render_tests::{app, draw, key_event, text};
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest};

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
