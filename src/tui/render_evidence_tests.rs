//! Render tests of the evidence pane: the quote highlighted in its message, a PDF
//! page citation saved for the viewer, the whole cited page, and a cited table row.

use super::app::AppEvent;
use super::command::Pane;
use super::render_tests::{answered, app, draw, key_event, text};
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest};
use ratatui::style::Color;

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
