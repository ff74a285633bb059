//! Text never loses a character: every message of the demo mailbox and 500 Enron
//! messages, wrapped at every width from 40 to 200 columns, keep every non-space
//! character of their text, in order; and so does the reader pane as drawn on a
//! terminal buffer, quotes and signatures unfolded.

mod common;

use quoth::mail::parse::parse_message;
use quoth::tui::wrap::{wrap, Run};
use ratatui::style::Style;
use std::path::{Path, PathBuf};

fn mail_files(dir: &Path, out: &mut Vec<PathBuf>, limit: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if out.len() >= limit {
            return;
        }
        if p.is_dir() {
            mail_files(&p, out, limit);
        } else if p
            .parent()
            .and_then(|d| d.file_name())
            .is_some_and(|n| n == "cur" || n == "new")
        {
            out.push(p);
        }
    }
}

/// The first place where `shown` drops a non-space character of `text`.
fn first_loss(text: &str, shown: &str) -> Option<usize> {
    let mut have = shown.chars().filter(|c| !c.is_whitespace());
    for (i, c) in text.chars().filter(|c| !c.is_whitespace()).enumerate() {
        if have.next() != Some(c) {
            return Some(i);
        }
    }
    None
}

fn check(files: &[PathBuf]) -> usize {
    let mut checked = 0;
    for path in files {
        let Ok(raw) = std::fs::read(path) else {
            continue;
        };
        let Ok(msg) = parse_message(&raw) else {
            continue;
        };
        let text = quoth::terminal_text::for_terminal(&msg.body).into_owned();
        for width in 40..=200u16 {
            let wrapped = wrap(&[Run::new(text.clone(), Style::default())], width);
            let mut shown = String::new();
            for line in &wrapped.lines {
                let line_text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
                assert!(
                    quoth::tui::wrap::text_width(&line_text) <= usize::from(width),
                    "{}: a line wider than {width}: {line_text:?}",
                    path.display()
                );
                shown.push_str(&line_text);
                shown.push('\n');
            }
            if let Some(at) = first_loss(&text, &shown) {
                panic!("{} at width {width} loses character {at}", path.display());
            }
            // Laid out for reading (paragraphs reflowed, quote markers repeated on
            // wrapped lines): the same characters in the same order, markers aside.
            let read =
                quoth::tui::reflow::wrap_mail(&[Run::new(text.clone(), Style::default())], width);
            let mut shown = String::new();
            for line in &read.lines {
                let line_text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
                assert!(
                    quoth::tui::wrap::text_width(&line_text) <= usize::from(width),
                    "{}: a reflowed line wider than {width}: {line_text:?}",
                    path.display()
                );
                shown.push_str(&line_text);
                shown.push('\n');
            }
            if let Some(at) = first_loss_reading(&text, &shown) {
                panic!(
                    "{} at width {width} loses character {at} when reflowed:\n{shown}",
                    path.display()
                );
            }
        }
        checked += 1;
    }
    checked
}

#[test]
fn wrapping_keeps_every_character_of_the_demo_mailbox() {
    let mut files = Vec::new();
    mail_files(&common::demo_mailbox(), &mut files, usize::MAX);
    assert!(check(&files) >= 30);
}

#[test]
fn wrapping_keeps_every_character_of_500_enron_messages() {
    let Some(maildir) = common::shared("data/enron/maildir") else {
        return;
    };
    let mut files = Vec::new();
    mail_files(&maildir, &mut files, 500);
    assert_eq!(check(&files), 500);
}

/// Non-space characters, each with whether it is part of its line's quote marker.
fn marked_chars(text: &str) -> Vec<(char, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let marker = quoth::tui::reflow::quote_prefix(line).len();
        for (i, c) in line.char_indices() {
            if !c.is_whitespace() {
                out.push((c, i < marker));
            }
        }
    }
    out
}

/// Where the text laid out for reading first differs from `text`: quote markers
/// are layout (repeated on every screen line a quoted line wraps onto, dropped
/// where lines are joined), every other character must be there, in order, with
/// nothing added.
fn first_loss_reading(text: &str, shown: &str) -> Option<usize> {
    let mut screen = marked_chars(shown).into_iter();
    let content = marked_chars(text).into_iter().filter(|(_, marker)| !marker);
    for (i, (c, _)) in content.enumerate() {
        loop {
            let Some((h, marker)) = screen.next() else {
                return Some(i);
            };
            if h == c {
                break;
            }
            if !marker {
                return Some(i);
            }
        }
    }
    // Nothing but markers may follow.
    screen
        .all(|(_, marker)| marker)
        .then_some(())
        .map_or(Some(usize::MAX), |()| None)
}

/// The text less its quote markers (the reader may drop them where it joins lines).
fn content_only(text: &str) -> String {
    text.lines()
        .map(|l| &l[quoth::tui::reflow::quote_prefix(l).len()..])
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether every non-space character of `text` appears in `shown`, in order.
fn keeps_in_order(text: &str, shown: &str) -> Option<usize> {
    let mut have = shown.chars().filter(|c| !c.is_whitespace());
    for (i, c) in text.chars().filter(|c| !c.is_whitespace()).enumerate() {
        if !have.any(|h| h == c) {
            return Some(i);
        }
    }
    None
}

/// Draws the reader pane with one message at `width` columns inside its borders.
fn drawn(msg: &quoth::store::StoredMessage, width: u16) -> String {
    use quoth::tui::panes::reader::{render, ReaderState};
    use ratatui::{backend::TestBackend, Terminal};
    let theme = quoth::tui::theme::Theme::plain();
    let runs = quoth::tui::panes::reader::message_runs(msg, &[], None, false, Some(&[]), &theme);
    let height = runs.wrap(width).len() as u16 + 6;
    let mut state = ReaderState::new(
        quoth::mail::model::ThreadId::of_root(&msg.key),
        msg.subject.clone(),
        1,
    );
    state.messages = vec![msg.clone()];
    state.loading = false;
    state.fold = false;
    let mut term = Terminal::new(TestBackend::new(width + 2, height)).expect("backend");
    term.draw(|f| render(f, f.area(), &mut state, &[], &theme, true))
        .expect("draw");
    let buf = term.backend().buffer().clone();
    (1..buf.area.height.saturating_sub(1))
        .map(|y| {
            (1..buf.area.width.saturating_sub(1))
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_reader_pane_draws_every_character_of_the_demo_mailbox() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = common::open(tmp.path());
    common::ingest(&mut engine, &[common::demo_mailbox()]);
    let mut checked = 0;
    for msg in engine.store().messages() {
        let msg = msg.expect("message");
        let body = quoth::terminal_text::for_terminal(&msg.body).into_owned();
        for width in [
            40u16, 41, 59, 60, 61, 72, 79, 80, 81, 100, 120, 159, 160, 161, 200,
        ] {
            let screen = drawn(&msg, width);
            if let Some(at) = keeps_in_order(&content_only(&body), &screen) {
                panic!(
                    "{} at width {width} loses character {at} of its body:\n{screen}",
                    msg.message_id.as_deref().unwrap_or("?")
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
}

#[test]
fn the_checks_find_a_lost_character() {
    assert_eq!(
        keeps_in_order("Draw $ 1,608,683.05", "Draw $ 1,608,683.0"),
        Some(16)
    );
    assert_eq!(keeps_in_order("Initial Draw", "Ini\nDraw"), Some(3));
    assert_eq!(keeps_in_order("a b", "x a y b"), None);
    assert_eq!(first_loss("abc", "ab"), Some(2));
    // Laid out for reading: markers may repeat or go, content may not.
    assert_eq!(first_loss_reading("> a b\n> c", "> a b c"), None);
    assert_eq!(first_loss_reading("> a b c", "> a b\n> c"), None);
    assert_eq!(first_loss_reading("x >5", "x\n>5"), None);
    assert_eq!(first_loss_reading("> a b\n> c", "> a b"), Some(2));
    assert_eq!(first_loss_reading("a b", "a b z"), Some(usize::MAX));
}
