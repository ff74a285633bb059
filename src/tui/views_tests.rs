//! Saved views in the folder list: their counts asked of the engine and kept up to
//! date while the list is open, a view opened as a search in its order, and the
//! search listed saved as a view in the config file.

use super::app::AppEvent;
use super::mail_ui_tests::enter;
use super::render_tests::{app, draw, key_event, text};
use super::theme::Theme;
use crate::engine::handle::{EngineEvent, EngineRequest, RequestId};
use crate::engine::SearchOrder;

fn count_request(app: &mut super::App) -> Option<(RequestId, Vec<String>)> {
    app.take_requests().into_iter().find_map(|r| match r {
        EngineRequest::Count { req, queries } => Some((req, queries)),
        _ => None,
    })
}

#[test]
fn views_are_listed_with_the_engines_counts_and_counted_again_as_mail_changes() {
    let mut app = app(Theme::plain());
    app.handle(key_event('c'));
    let (req, queries) = count_request(&mut app).expect("opening the folders counts the views");
    assert_eq!(
        queries,
        [
            "is:unread",
            "(is:unread) AND is:unread",
            "is:flagged",
            "(is:flagged) AND is:unread"
        ]
    );
    let screen = text(&draw(&mut app, 120, 40));
    let row = |screen: &str, name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("a row {name}: {screen}"))
            .to_string()
    };
    assert!(
        row(&screen, "◇ Unread").contains('…'),
        "counts not yet known"
    );
    app.handle(AppEvent::Engine(EngineEvent::Counts {
        req,
        counts: vec![Ok(4), Ok(4), Ok(2), Ok(1)],
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        row(&screen, "◇ Unread").contains("4 unread / 4"),
        "{screen}"
    );
    assert!(
        row(&screen, "◇ Flagged").contains("1 unread / 2"),
        "{screen}"
    );

    // A flag changed elsewhere: the counts are asked again and follow.
    app.handle(AppEvent::Engine(EngineEvent::NewMail {
        account: "work".into(),
        folder: "INBOX".into(),
        count: 1,
    }));
    let (again, _) = count_request(&mut app).expect("new mail counts the views again");
    // A second change while that count runs waits for it, then asks once more.
    app.handle(AppEvent::Engine(EngineEvent::NewMail {
        account: "work".into(),
        folder: "INBOX".into(),
        count: 1,
    }));
    assert!(count_request(&mut app).is_none(), "one count at a time");
    app.handle(AppEvent::Engine(EngineEvent::Counts {
        req: again,
        counts: vec![Ok(5), Ok(5), Ok(3), Ok(1)],
    }));
    let (last, _) = count_request(&mut app).expect("the change that waited is counted");
    app.handle(AppEvent::Engine(EngineEvent::Counts {
        req: last,
        counts: vec![Ok(5), Ok(5), Err("invalid query: x".into()), Ok(1)],
    }));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        row(&screen, "◇ Unread").contains("5 unread / 5"),
        "{screen}"
    );
    assert!(row(&screen, "◇ Flagged").contains("bad query"), "{screen}");

    // Enter on a view lists its mail, newest first, titled with its name.
    app.handle(key_event('j'));
    app.handle(key_event('j'));
    app.handle(enter());
    let search = app.take_requests().into_iter().find_map(|r| match r {
        EngineRequest::Search { query, order, .. } => Some((query, order)),
        _ => None,
    });
    assert_eq!(search, Some(("is:flagged".into(), SearchOrder::Newest)));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("View Flagged: is:flagged"), "{screen}");
    // Closed, the folder list asks for nothing more.
    app.handle(AppEvent::Engine(EngineEvent::NewMail {
        account: "work".into(),
        folder: "INBOX".into(),
        count: 1,
    }));
    assert!(count_request(&mut app).is_none());
}

#[test]
fn the_search_listed_is_saved_as_a_view_in_the_config_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "[reader]\nmark_read = true\n").expect("write");
    let mut app = app(Theme::plain());
    app.options.config_file = Some(path.clone());
    // Nothing to save before a search.
    app.handle(key_event('V'));
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("search first"), "{screen}");

    app.handle(key_event('/'));
    for c in "from:dana budget".chars() {
        app.handle(key_event(c));
    }
    app.handle(enter());
    app.take_requests();
    app.handle(key_event('V'));
    for c in "Dana's budget".chars() {
        app.handle(key_event(c));
    }
    app.handle(enter());
    let saved = crate::config::load(&path).expect("the file reads").views();
    let names: Vec<&str> = saved.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["Unread", "Flagged", "Dana's budget"]);
    assert_eq!(saved[2].query, "from:dana budget");
    let screen = text(&draw(&mut app, 120, 40));
    assert!(
        screen.contains("View Dana's budget: from:dana budget"),
        "{screen}"
    );

    // The folder list now has it, counted with the others.
    app.handle(key_event('c'));
    let (_, queries) = count_request(&mut app).expect("counted");
    assert_eq!(queries.len(), 6);
    let screen = text(&draw(&mut app, 120, 40));
    assert!(screen.contains("◇ Dana's budget"), "{screen}");
}
