//! Fixtures for the render tests (`render_*_tests.rs`) and the other UI tests: an App
//! fed engine events built here (no engine, no terminal), questions asked and
//! answered, and the screen drawn on ratatui's `TestBackend` and read back.

use super::app::{App, AppEvent, AppOptions};
use super::keymap::{Keymap, Preset};
use super::theme::Theme;
use crate::answer::conversation::Conversation;
use crate::engine::handle::{EngineEvent, EngineRequest, RequestId};
use crate::engine::{AskOutcome, Citation};
use crate::mail::clean::segment_body;
use crate::mail::model::{BodyFormat, Mailbox, MessageKey, ThreadId};
use crate::query::people::AddressBook;
use crate::query::question::Question;
use crate::source::SourceLocation;
use crate::store::{StoredMessage, ThreadSummary};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::Terminal;

pub(super) const BODY: &str = "Hi all,\n\nThe roofer comes Thursday at 9 to fix the leak over the \
server room. Budget is capped at $4,200.\n\nDana\n\n> Can someone look at the ceiling?\n> \
It drips.\n\n-- \nDana Whitfield\nFacilities\n";
const QUOTE: &str = "The roofer comes Thursday at 9";

pub(super) fn key(n: u8) -> MessageKey {
    MessageKey([n; 16])
}

pub(super) fn message(n: u8, from: &str, subject: &str, date: i64, body: &str) -> StoredMessage {
    StoredMessage {
        key: key(n),
        message_id: Some(format!("m{n}@example.org")),
        in_reply_to: Vec::new(),
        references: Vec::new(),
        date: Some(date),
        from: vec![Mailbox {
            name: Some(from.into()),
            address: format!("{}@example.org", from.to_lowercase().replace(' ', ".")),
        }],
        to: vec![Mailbox {
            name: None,
            address: "team@example.org".into(),
        }],
        cc: Vec::new(),
        bcc: Vec::new(),
        subject: subject.into(),
        folder: "inbox".into(),
        flags: "S".into(),
        location: SourceLocation::File { path: "x".into() },
        raw_hash: [0; 32],
        raw_size: body.len() as u64,
        body: body.into(),
        body_format: BodyFormat::default(),
        segments: segment_body(body),
        attachments: Vec::new(),
        chunk_count: 1,
        embedded: Vec::new(),
    }
}

pub(super) fn thread(
    n: u8,
    subject: &str,
    sender: &str,
    date: i64,
    count: usize,
    unread: u32,
) -> ThreadSummary {
    ThreadSummary {
        id: ThreadId::of_root(&key(n)),
        subject: subject.into(),
        first_date: Some(date - 3600),
        latest_date: Some(date),
        messages: (0..count).map(|i| key(n + i as u8)).collect(),
        senders: vec![sender.into()],
        unread,
        has_attachment: n.is_multiple_of(2),
        emails: count as u32,
        flagged: 0,
        folders: Vec::new(),
    }
}

pub(super) fn citation(n: usize, msg: &StoredMessage, quote: &str) -> Citation {
    let at = msg.body.find(quote).unwrap_or(0);
    Citation {
        n,
        message_id: msg.message_id.clone(),
        thread_id: ThreadId::of_root(&msg.key).to_hex(),
        date: Some("2024-03-04T09:00:00+00:00".into()),
        from: msg.sender(),
        subject: msg.subject.clone(),
        quote: quote.into(),
        attachment: None,
        page: None,
        place: None,
        key: msg.key.to_hex(),
        start: at as u32,
        end: (at + quote.len() + 40).min(msg.body.len()) as u32,
        source: "text".into(),
        superseded: false,
        author: None,
        author_date: None,
        passed_on: None,
        answer_span: None,
    }
}

pub(super) fn outcome(question: &str, answer: &str, citations: Vec<Citation>) -> AskOutcome {
    AskOutcome {
        question: question.into(),
        rewrite: question.into(),
        answer: Some(answer.into()),
        short_answer: None,
        abstained: false,
        abstention: None,
        citations,
        retrieved: Vec::new(),
        timings_ms: Default::default(),
        answerer: "extractive".into(),
        searched: vec![question.into()],
        notes: Vec::new(),
        dropped: Vec::new(),
        confidence: 0.9,
        selector_probability: 0.9,
        plan: Question::read(question, &AddressBook::default(), 0),
    }
}

pub(super) fn app(theme: Theme) -> App {
    let keymap = Keymap::builtin(Preset::Vim).expect("the shipped keymap parses");
    let mut app = App::new(keymap, theme, AppOptions::default());
    app.take_requests();
    let threads = vec![
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
    app
}

pub(super) fn key_event(c: char) -> AppEvent {
    AppEvent::Term(Event::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::NONE,
    )))
}

/// Types `i`, the question and Enter; returns the request of the question asked.
pub(super) fn ask(app: &mut App, question: &str) -> RequestId {
    app.handle(key_event('i'));
    for c in question.chars() {
        app.handle(key_event(c));
    }
    app.handle(AppEvent::Term(Event::Key(KeyEvent::new(
        KeyCode::Enter,
        KeyModifiers::NONE,
    ))));
    app.take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Ask { req, .. } => Some(req),
            _ => None,
        })
        .expect("submitting asks")
}

/// Asks a question through the chat input and answers it as the engine would.
pub(super) fn answered(app: &mut App) -> StoredMessage {
    let req = ask(app, "when does the roofer come?");
    let msg = message(
        1,
        "Dana Whitfield",
        "Roof leak over the server room",
        1_709_542_800,
        BODY,
    );
    let c = citation(1, &msg, QUOTE);
    app.handle(AppEvent::Engine(EngineEvent::Answer {
        req,
        outcome: Box::new(outcome(
            "when does the roofer come?",
            "\"The roofer comes Thursday at 9\" [1]",
            vec![c],
        )),
        conversation: Conversation::default(),
    }));
    let open = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Open { req, .. } => Some(req),
            _ => None,
        })
        .expect("an answer loads its first citation");
    app.handle(AppEvent::Engine(EngineEvent::Message {
        req: open,
        message: Box::new(msg.clone()),
        attachments: Vec::new(),
    }));
    msg
}

pub(super) fn draw(app: &mut App, w: u16, h: u16) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    app.draw(&mut term).expect("draw");
    term.backend().buffer().clone()
}

pub(super) fn text(buf: &Buffer) -> String {
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first cell of `needle` between columns `x0` and `x1`.
pub(super) fn find_within(buf: &Buffer, needle: &str, x0: u16, x1: u16) -> Option<(u16, u16)> {
    for y in 0..buf.area.height {
        let row: String = (x0..x1).map(|x| buf[(x, y)].symbol()).collect();
        if let Some(byte) = row.find(needle) {
            return Some((x0 + row[..byte].chars().count() as u16, y));
        }
    }
    None
}

/// The cells of the first place `needle` appears on screen.
pub(super) fn find(buf: &Buffer, needle: &str) -> Option<(u16, u16)> {
    let rows: Vec<String> = text(buf).lines().map(str::to_string).collect();
    for (y, row) in rows.iter().enumerate() {
        if let Some(byte) = row.find(needle) {
            let x = row[..byte].chars().count();
            return Some((x as u16, y as u16));
        }
    }
    None
}
