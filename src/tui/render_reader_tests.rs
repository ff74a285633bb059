//! Render tests of the reader: quotes and signatures folded, attachments listed with
//! why their text is out of reach, and a thread reread once its attachments are read.

use super::app::AppEvent;
use super::render_tests::{app, draw, key, message, text, BODY};
use super::theme::Theme;
use crate::attach::PdfStatus;
use crate::engine::handle::{EngineEvent, EngineRequest, Progress};
use crate::engine::AttachmentState;
use crate::mail::model::{AttachmentInfo, ThreadId};
use crate::store::StoredMessage;

/// The first message of the roof-leak thread, with a PDF attached.
fn roof_leak_with_quote_pdf() -> StoredMessage {
    let mut m = message(1, "Dana Whitfield", "Roof leak", 1_709_542_800, BODY);
    m.attachments.push(AttachmentInfo {
        index: 0,
        name: Some("quote.pdf".into()),
        mime_type: "application/pdf".into(),
        size: 20_000,
    });
    m
}

/// The state of that message's PDF.
fn quote_pdf_state(status: &str, message: &str) -> AttachmentState {
    AttachmentState {
        index: 0,
        name: "quote.pdf".into(),
        mime_type: "application/pdf".into(),
        size: 20_000,
        status: status.into(),
        message: message.into(),
        extract: None,
        card: None,
    }
}

#[test]
fn reader_folds_quotes_and_signatures_and_lists_attachments() {
    let mut app = app(Theme::plain());
    app.run(super::command::Command::Open);
    let req = app.reader.as_ref().expect("reader opens").req;
    let m1 = roof_leak_with_quote_pdf();
    let m2 = message(
        2,
        "Priya Ashford",
        "Re: Roof leak",
        1_709_546_400,
        "Thanks, noted.\n",
    );
    let encrypted = quote_pdf_state(
        PdfStatus::Encrypted.label(),
        &PdfStatus::Encrypted.to_string(),
    );
    let attachments = [(m1.key, vec![encrypted])].into_iter().collect();
    app.handle(AppEvent::Engine(EngineEvent::ThreadMessages {
        req,
        id: ThreadId::of_root(&key(1)),
        messages: vec![m1, m2],
        attachments,
        also_in: Default::default(),
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("Roof leak over the server room (2)"),
        "{screen}"
    );
    assert!(screen.contains("quotes folded (z)"), "{screen}");
    assert!(screen.contains("The roofer comes Thursday"), "{screen}");
    assert!(screen.contains("quoted folded"), "{screen}");
    assert!(screen.contains("signature folded"), "{screen}");
    assert!(!screen.contains("It drips"), "{screen}");
    assert!(
        screen.contains("@ quote.pdf (application/pdf, 20 KB)"),
        "{screen}"
    );
    assert!(
        screen.contains("This PDF is password-protected"),
        "the reader shows why an attachment's text is out of reach: {screen}"
    );
    assert!(screen.contains("Thanks, noted."), "{screen}");
    app.run(super::command::Command::ToggleQuoted);
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("> It drips."), "{screen}");
    assert!(screen.contains("quotes shown (z)"), "{screen}");
}

#[test]
fn reader_rereads_a_thread_whose_attachments_were_waiting_once_work_is_done() {
    let mut app = app(Theme::plain());
    app.run(super::command::Command::Open);
    let req = app.reader.as_ref().expect("reader opens").req;
    let m1 = roof_leak_with_quote_pdf();
    let m2 = message(
        2,
        "Priya Ashford",
        "Re: Roof leak",
        1_709_546_400,
        "Noted.\n",
    );
    let thread = ThreadId::of_root(&key(1));
    app.handle(AppEvent::Engine(EngineEvent::ThreadMessages {
        req,
        id: thread,
        messages: vec![m1.clone(), m2.clone()],
        attachments: [(
            m1.key,
            vec![quote_pdf_state("pending", "Text not read yet.")],
        )]
        .into_iter()
        .collect(),
        also_in: Default::default(),
    }));
    app.run(super::command::Command::Down);
    let _ = app.take_requests();
    app.handle(AppEvent::Engine(EngineEvent::Progress(Progress::Idle {
        summary: String::new(),
    })));
    let again = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Thread { req, id, .. } if id == thread => Some(req),
            _ => None,
        })
        .expect("finished background work rereads a thread with pending attachments");
    app.handle(AppEvent::Engine(EngineEvent::ThreadMessages {
        req: again,
        id: thread,
        messages: vec![m1.clone(), m2],
        attachments: [(
            m1.key,
            vec![quote_pdf_state("ok", "Text extracted from all 3 pages.")],
        )]
        .into_iter()
        .collect(),
        also_in: Default::default(),
    }));
    let reader = app.reader.as_ref().expect("reader stays open");
    assert_eq!(
        reader.current, 1,
        "the view stays on the message the user was on"
    );
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("Text extracted from all 3 pages."),
        "{screen}"
    );
    let _ = app.take_requests();
    app.handle(AppEvent::Engine(EngineEvent::Progress(Progress::Idle {
        summary: String::new(),
    })));
    assert!(
        !app.take_requests()
            .iter()
            .any(|r| matches!(r, EngineRequest::Thread { .. })),
        "nothing left to wait for, nothing reread"
    );
}
