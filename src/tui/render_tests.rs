//! Render tests of every pane against ratatui's `TestBackend`: the App is fed engine
//! events built here (no engine, no terminal), drawn, and the buffer checked, at
//! 120x40 and at 80x24.

use super::app::{App, AppEvent, AppOptions};
use super::command::Pane;
use super::keymap::{Keymap, Preset};
use super::theme::Theme;
use crate::answer::conversation::Conversation;
use crate::attach::PdfStatus;
use crate::engine::handle::{EngineEvent, EngineRequest, Progress, RequestId};
use crate::engine::{AskOutcome, AttachmentState, Citation, IngestPhase};
use crate::mail::clean::segment_body;
use crate::mail::model::{AttachmentInfo, BodyFormat, Mailbox, MessageKey, ThreadId};
use crate::query::people::AddressBook;
use crate::query::question::Question;
use crate::source::SourceLocation;
use crate::store::{StoredMessage, ThreadSummary};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;

const BODY: &str = "Hi all,\n\nThe roofer comes Thursday at 9 to fix the leak over the \
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

fn thread(
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
fn find_within(buf: &Buffer, needle: &str, x0: u16, x1: u16) -> Option<(u16, u16)> {
    for y in 0..buf.area.height {
        let row: String = (x0..x1).map(|x| buf[(x, y)].symbol()).collect();
        if let Some(byte) = row.find(needle) {
            return Some((x0 + row[..byte].chars().count() as u16, y));
        }
    }
    None
}

/// The cells of the first place `needle` appears on screen.
fn find(buf: &Buffer, needle: &str) -> Option<(u16, u16)> {
    let rows: Vec<String> = text(buf).lines().map(str::to_string).collect();
    for (y, row) in rows.iter().enumerate() {
        if let Some(byte) = row.find(needle) {
            let x = row[..byte].chars().count();
            return Some((x as u16, y as u16));
        }
    }
    None
}

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
fn evidence_pane_highlights_the_quote_in_the_message() {
    let mut app = app(Theme::colored());
    answered(&mut app);
    app.layout.focus_on(Pane::Evidence);
    for (w, h) in [(120, 40), (80, 24)] {
        let buf = draw(&mut app, w, h);
        let screen = text(&buf);
        assert!(screen.contains("Evidence (1)"), "{screen}");
        assert!(
            screen.contains("[1] Dana Whitfield · 2024-03-04"),
            "{screen}"
        );
        let lines: Vec<(u16, u16)> = (0..h)
            .filter_map(|y| {
                let row: String = (0..w).map(|x| buf[(x, y)].symbol()).collect();
                row.find("The roofer comes")
                    .map(|b| (row[..b].chars().count() as u16, y))
            })
            .collect();
        assert!(
            lines.len() >= 2,
            "quote in the list and in the message: {screen}"
        );
        let in_message = *lines.last().expect("two");
        assert_eq!(
            buf[in_message].bg,
            Color::Yellow,
            "{w}x{h}: quote highlighted"
        );
        assert!(screen.contains("quoted folded"), "{screen}");
    }
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

#[test]
fn a_pdf_page_citation_shows_its_page_and_p_saves_it_for_the_viewer() {
    let mut app = app(Theme::plain());
    answered(&mut app);
    let turn = app.chat.turns.last_mut().expect("a turn");
    let outcome = turn.outcome.as_mut().expect("answered");
    outcome.citations[0].attachment = Some("quote.pdf".into());
    outcome.citations[0].page = Some(3);
    app.layout.focus_on(Pane::Evidence);
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("quote.pdf, page 3"), "{screen}");
    assert!(screen.contains("p opens the page"), "{screen}");
    app.handle(key_event('p'));
    match app.take_requests().pop() {
        Some(EngineRequest::SaveAttachment { name, page, .. }) => {
            assert_eq!((name.as_str(), page), ("quote.pdf", Some(3)));
        }
        other => panic!("expected the attachment to be saved, got {other:?}"),
    }
    // The saved file goes to the configured viewer, with the page filled in.
    app.options.pdf_command = "true --page={page} {file}".into();
    app.handle(AppEvent::Engine(EngineEvent::AttachmentSaved {
        req: 999,
        path: "/tmp/quote.pdf".into(),
        page: Some(3),
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("opened /tmp/quote.pdf (page 3)"),
        "{screen}"
    );
    app.options.pdf_command = "/nonexistent/viewer".into();
    app.handle(AppEvent::Engine(EngineEvent::AttachmentSaved {
        req: 1000,
        path: "/tmp/quote.pdf".into(),
        page: None,
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("cannot run /nonexistent/viewer"),
        "{screen}"
    );
}

#[test]
fn a_page_citation_shows_the_whole_page_with_the_quote_highlighted() {
    let mut app = app(Theme::colored());
    answered(&mut app);
    let turn = app.chat.turns.last_mut().expect("a turn");
    let outcome = turn.outcome.as_mut().expect("answered");
    outcome.citations[0].attachment = Some("vendor-review.pdf".into());
    outcome.citations[0].page = Some(3);
    outcome.citations[0].quote = "saves $18,400 a year".into();
    app.layout.focus_on(Pane::Evidence);
    let _ = app.take_requests();
    app.handle(key_event('1'));
    let req = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Page { req, citation } => {
                assert_eq!(citation.page, Some(3));
                Some(req)
            }
            _ => None,
        })
        .expect("the cited page is asked for");
    let text_of_page = "Backups\nConsolidating backups with Cobalt Data Systems saves $18,400 a year.\nDone by June 28, 2024.";
    let start = text_of_page.find("saves").expect("quote in page");
    app.handle(AppEvent::Engine(EngineEvent::Page {
        req,
        page: Some(Box::new(crate::engine::AttachmentPage {
            name: "vendor-review.pdf".into(),
            page: 3,
            page_count: 3,
            place: None,
            text: text_of_page.into(),
            source: crate::attach::PageSource::TextLayer,
            highlight: Some((start, start + "saves $18,400 a year".len())),
        })),
    }));
    let buffer = draw(&mut app, 120, 40);
    let screen = text(&buffer);
    assert!(
        screen.contains("vendor-review.pdf, page 3 of 3"),
        "{screen}"
    );
    assert!(screen.contains("Done by June 28, 2024."), "{screen}");
    // The quote's cells are styled apart from the page text around it.
    let find_last = |needle: &str| {
        screen
            .lines()
            .enumerate()
            .filter_map(|(y, l)| {
                l.find(needle)
                    .map(|x| (l[..x].chars().count() as u16, y as u16))
            })
            .last()
            .expect("on screen")
    };
    // The page view is below the list of quotes: the last occurrences are in it.
    let quote_style = buffer[find_last("$18,400")].style();
    let plain_style = buffer[find_last("Done by June")].style();
    assert_ne!(quote_style, plain_style, "the quote is highlighted");
}

#[test]
fn a_row_citation_shows_the_row_with_its_columns_and_the_value_set_apart() {
    let mut app = app(Theme::colored());
    answered(&mut app);
    let turn = app.chat.turns.last_mut().expect("a turn");
    let outcome = turn.outcome.as_mut().expect("answered");
    let row = "Trail: Ridge loop; Length km: 14; Start: North car park";
    outcome.citations[0].attachment = Some("trails.xlsx".into());
    outcome.citations[0].page = Some(3);
    outcome.citations[0].place = Some("Routes, row 3".into());
    outcome.citations[0].quote = row.into();
    let at = row.find("14").expect("value");
    outcome.citations[0].answer_span = Some((at, at + 2));
    app.layout.focus_on(Pane::Evidence);
    let _ = app.take_requests();
    app.handle(key_event('1'));
    let req = app
        .take_requests()
        .into_iter()
        .find_map(|r| match r {
            EngineRequest::Page { req, .. } => Some(req),
            _ => None,
        })
        .expect("the cited row is asked for");
    app.handle(AppEvent::Engine(EngineEvent::Page {
        req,
        page: Some(Box::new(crate::engine::AttachmentPage {
            name: "trails.xlsx".into(),
            page: 3,
            page_count: 2,
            place: Some("Routes, row 3".into()),
            text: row.into(),
            source: crate::attach::PageSource::TextLayer,
            highlight: Some((0, row.len())),
        })),
    }));
    let buffer = draw(&mut app, 120, 40);
    let screen = text(&buffer);
    assert!(screen.contains("trails.xlsx, Routes, row 3"), "{screen}");
    assert!(screen.contains("o or p opens the file."), "{screen}");
    let last = |needle: &str| {
        screen
            .lines()
            .enumerate()
            .filter_map(|(y, l)| {
                l.find(needle)
                    .map(|x| (l[..x].chars().count() as u16, y as u16))
            })
            .last()
            .expect("on screen")
    };
    // The page view is below the list of quotes: the last occurrences are in it.
    let value = buffer[last("14;")].style();
    let rest = buffer[last("Ridge")].style();
    assert_ne!(
        value, rest,
        "the value stands apart from the rest of the quote"
    );
    // `o` opens the cited file itself: the message's text does not hold the row.
    let _ = app.take_requests();
    app.handle(key_event('o'));
    let opened = app.take_requests().into_iter().find_map(|r| match r {
        EngineRequest::SaveAttachment { name, page, .. } => Some((name, page)),
        _ => None,
    });
    assert_eq!(opened, Some(("trails.xlsx".to_string(), None)));
}
