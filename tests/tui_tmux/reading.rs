//! Reading in the terminal: search, ask and the cited quote, hostile mail, flags
//! written back to the Maildir, the saved views and the people and facts view.

use super::*;

#[test]
fn search_ask_and_jump_to_the_citation_in_a_real_terminal() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let tmux = ui_on_demo_copy(tmp.path(), "");
    // The thread list arrives as the background ingest finishes.
    tmux.wait_for("the thread list", 90, |s| {
        s.contains("Threads (") && s.contains("stock optio") && !s.contains("loading")
    });

    tmux.send(&["/"]);
    tmux.type_text("strike price");
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("search results", 30, |s| s.contains("found, Esc clears"));
    assert!(screen.contains("Search: strike price"), "{screen}");
    tmux.send(&["Escape"]);
    tmux.wait_for("the thread list again", 10, |s| s.contains("Threads ("));

    tmux.send(&["i"]);
    tmux.type_text("What is the strike price of the stock option grant?");
    tmux.send(&["Enter"]);
    let screen = tmux.wait_for("the answer", 60, |s| {
        s.contains("[1]") && s.contains("14.50")
    });
    assert!(screen.contains("› What is the strike price"), "{screen}");

    // The answer ends typing mode by itself: digits open its citations.
    tmux.wait_for("typing mode to end", 10, |s| !s.contains("Esc leaves"));
    tmux.send(&["1"]);
    let screen = tmux.wait_for("the cited message", 30, |s| {
        s.contains("Evidence (") && s.contains(" evidence ") && s.matches("14.50").count() >= 3
    });
    assert!(
        screen.contains("per share"),
        "the quote is on screen:\n{screen}"
    );

    quit(&tmux);
}

/// Hostile mail in a real terminal: the thread list, the reader and an answer show
/// its escapes as placeholders, and neither the pane title (OSC 0) nor tmux's
/// clipboard buffers (OSC 52, which tmux accepts with `set-clipboard on`) change.
#[test]
fn hostile_mail_neither_retitles_the_terminal_nor_writes_the_clipboard() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mail = tmp.path().join("mail");
    common::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile-mail"),
        &mail,
    );
    let no_accounts = tmp.path().join("no-accounts.toml");
    std::fs::write(&no_accounts, "").expect("config");
    let command = format!(
        "env QUOTH_DATA_DIR='{}' QUOTH_CONFIG='{}' NO_COLOR=1 TERM=xterm-256color '{}' \
         --maildir '{}'",
        tmp.path().join("data").display(),
        no_accounts.display(),
        env!("CARGO_BIN_EXE_quoth"),
        mail.display()
    );
    let tmux = Tmux::start(&command);
    assert!(tmux
        .cmd(&["set-option", "-g", "set-clipboard", "on"])
        .status
        .success());
    let title = |t: &Tmux| {
        String::from_utf8_lossy(&t.cmd(&["display-message", "-p", "#{pane_title}"]).stdout)
            .trim()
            .to_string()
    };
    let before = title(&tmux);
    let screen = tmux.wait_for("the thread list", 90, |s| {
        s.contains("Threads (2)") && s.contains('␛')
    });
    assert!(screen.contains("PWNED-TITLE"), "{screen}");
    for _ in 0..2 {
        tmux.send(&["Enter"]);
        tmux.wait_for("the reader", 20, |s| s.contains("quotes folded"));
        tmux.send(&["q", "j"]);
    }
    tmux.send(&["i"]);
    tmux.type_text("When is the quarterly audit?");
    tmux.send(&["Enter"]);
    tmux.wait_for("the answer", 60, |s| {
        s.contains("May 8") && s.contains("[1]")
    });
    // The answer ends typing mode by itself: digits open its citations.
    tmux.wait_for("typing mode to end", 10, |s| !s.contains("Esc leaves"));
    tmux.send(&["1"]);
    tmux.wait_for("the evidence", 30, |s| s.contains("Evidence (1)"));
    let after = title(&tmux);
    assert!(
        !after.contains("PWNED") && !after.contains("C1TITLE"),
        "title: {after}"
    );
    assert_eq!(before, after, "the pane title is unchanged");
    let buffers = tmux.cmd(&["list-buffers"]);
    assert!(
        String::from_utf8_lossy(&buffers.stdout).trim().is_empty(),
        "no clipboard buffer was written: {}",
        String::from_utf8_lossy(&buffers.stdout)
    );
    // The top of the screen was not cleared: the thread pane's border is there.
    assert!(tmux.screen().lines().next().unwrap_or("").contains('┌'));
    quit(&tmux);
}

/// Reading marks a message read in its Maildir file, and the user's own keys for
/// the named commands (F-keys in keymap.toml) flag it and mark it unread again.
#[test]
fn reading_and_flagging_rename_the_maildir_files() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mail = tmp.path().join("mail");
    let config = tmp.path().join("config");
    std::fs::create_dir_all(config.join("quoth")).expect("config dir");
    std::fs::write(
        config.join("quoth/keymap.toml"),
        "[reader]\nkeymap = [\n  { on = [\"<F5>\"], run = \"toggle_flag\" },\n  \
         { on = [\"<F6>\"], run = \"toggle_read\" },\n]\n",
    )
    .expect("keymap");
    let names = |suffix: &str| -> Vec<String> {
        let mut out = Vec::new();
        for folder in ["inbox", "sent"] {
            for e in std::fs::read_dir(mail.join(folder).join("cur")).expect("cur") {
                let name = e.expect("entry").file_name().to_string_lossy().into_owned();
                if name.ends_with(suffix) {
                    out.push(name);
                }
            }
        }
        out
    };
    let tmux = ui_on_demo_copy(
        tmp.path(),
        &format!("XDG_CONFIG_HOME='{}'", config.display()),
    );
    let unread_before = names(":2,").len();
    assert!(unread_before > 0, "the demo mailbox has unread mail");
    // Rows with the unread mark: the list has arrived.
    tmux.wait_for("the thread list", 90, |s| {
        s.contains("Threads (") && s.contains('•') && !s.contains("loading")
    });
    // The newest thread is unread: opening it marks its message read.
    let unread_file = names(":2,").into_iter().max().expect("an unread file");
    tmux.send(&["Enter"]);
    tmux.wait_for("the reader", 20, |s| s.contains("Folder: "));
    let wait_file = |what: &str, ok: &dyn Fn() -> bool| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !ok() {
            assert!(Instant::now() < deadline, "{what}:\n{}", tmux.screen());
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    let stem = unread_file.trim_end_matches(":2,").to_string();
    wait_file("the opened message marked S in its file name", &|| {
        names(":2,S").contains(&format!("{stem}:2,S"))
    });
    assert_eq!(names(":2,").len(), unread_before - 1);
    tmux.send(&["F5"]);
    wait_file("the message flagged in its file name", &|| {
        names(":2,FS").contains(&format!("{stem}:2,FS"))
    });
    tmux.wait_for("the flag on screen", 10, |s| s.contains("⚑ flagged"));
    tmux.send(&["F6"]);
    wait_file("the message unread again", &|| {
        names(":2,F").contains(&format!("{stem}:2,F"))
    });
    tmux.wait_for("the note", 10, |s| s.contains("marked unread"));
    // Archive: the file moves to a new archive folder beside inbox and sent; undo
    // brings it back.
    tmux.send(&["A"]);
    let archived = mail.join("archive/cur").join(format!("{stem}:2,F"));
    wait_file("the file in archive/", &|| archived.is_file());
    tmux.wait_for("the folder on screen", 10, |s| {
        s.contains("Folder: mail/archive") && s.contains("moved to mail/archive")
    });
    tmux.send(&["u"]);
    wait_file("the file back in the inbox", &|| {
        names(":2,F").contains(&format!("{stem}:2,F")) && !archived.exists()
    });
    // The folder view: counts per folder; choosing the inbox filters the list.
    tmux.send(&["c"]);
    let screen = tmux.wait_for("the folder list", 10, |s| {
        s.contains("Folders (Enter opens") && s.contains("mail/inbox") && s.contains("mail/sent")
    });
    // The list starts on all mail; the saved views come before the folders.
    let row_of = |name: &str| screen.lines().position(|l| l.contains(name)).expect(name);
    for _ in row_of("All mail")..row_of("mail/inbox") {
        tmux.send(&["j"]);
    }
    tmux.send(&["Enter"]);
    tmux.wait_for("the inbox's threads", 10, |s| {
        s.contains("mail/inbox · Threads (")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("all mail again", 10, |s| {
        s.contains(" Threads (") && !s.contains("mail/inbox · Threads")
    });
    quit(&tmux);
}

/// The count a folder-list row shows at its end (`3` or `1 unread / 3`: the
/// total); None while it is not known yet.
fn row_total(screen: &str, name: &str) -> Option<u64> {
    let row = screen.lines().find(|l| l.contains(name))?;
    let left = row.split('│').nth(1).unwrap_or(row);
    left.split_whitespace().last()?.parse().ok()
}

#[test]
fn a_flagged_message_shows_in_the_flagged_view_and_a_tagged_thread_in_its_search() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let tmux = ui_on_demo_copy(tmp.path(), "");
    let config = tmp.path().join("no-accounts.toml");
    tmux.wait_for("the thread list", 90, |s| {
        s.contains("Threads (") && s.contains('•') && !s.contains("loading")
    });
    let counted = |tmux: &Tmux| {
        tmux.send(&["c"]);
        tmux.wait_for("the views' counts", 20, |s| {
            row_total(s, "◇ Flagged").is_some()
        })
    };
    let before = row_total(&counted(&tmux), "◇ Flagged").expect("counted");
    tmux.send(&["Escape"]);
    tmux.wait_for("the thread list again", 10, |s| s.contains(" Threads ("));

    // Flag the newest thread's latest message; the Flagged view counts it and lists it.
    tmux.send(&["F"]);
    tmux.wait_for("the flag", 20, |s| s.contains("flagged"));
    let screen = counted(&tmux);
    let after = row_total(&screen, "◇ Flagged").expect("counted");
    assert!(after > before, "{before} → {after}:\n{screen}");
    let row_of = |name: &str| screen.lines().position(|l| l.contains(name)).expect(name);
    for _ in row_of("All mail")..row_of("◇ Flagged") {
        tmux.send(&["j"]);
    }
    tmux.send(&["Enter"]);
    tmux.wait_for("the Flagged view", 20, |s| {
        s.contains("View Flagged: is:flagged") && s.contains("found") && !s.contains("(0 found")
    });
    tmux.send(&["Escape"]);
    tmux.wait_for("the thread list again", 10, |s| s.contains(" Threads ("));

    // Tag the newest thread; it shows on its row, and tag: finds its mail.
    tmux.send(&["+"]);
    tmux.wait_for("the tag prompt", 10, |s| s.contains("Tag the thread"));
    tmux.type_text("kiln-work");
    tmux.send(&["Enter"]);
    tmux.wait_for("the tag on the row", 20, |s| {
        s.contains("tags changed on") && s.contains("+kiln-work")
    });
    tmux.send(&["/"]);
    tmux.type_text("tag:kiln-work");
    tmux.send(&["Enter"]);
    tmux.wait_for("the tagged mail", 20, |s| {
        s.contains("Search: tag:kiln-work") && s.contains("found") && !s.contains("(0 found")
    });
    // The search kept as a view, in the config file.
    tmux.send(&["V"]);
    tmux.wait_for("the view name prompt", 10, |s| s.contains("Save view as"));
    tmux.type_text("Kiln");
    tmux.send(&["Enter"]);
    tmux.wait_for("the view saved", 10, |s| {
        s.contains("saved the view 'Kiln'")
    });
    let saved = std::fs::read_to_string(&config).expect("config");
    assert!(
        saved.contains("name = \"Kiln\"") && saved.contains("query = \"tag:kiln-work\""),
        "{saved}"
    );
    quit(&tmux);
}

#[test]
fn the_people_and_facts_view_jumps_from_a_fact_to_its_quote() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let tmux = ui_on_demo_copy(tmp.path(), "");
    tmux.wait_for("the thread list", 90, |s| {
        s.contains("Threads (") && s.contains("stock optio") && !s.contains("loading")
    });
    tmux.send(&["/"]);
    tmux.type_text("strike price");
    tmux.send(&["Enter"]);
    tmux.wait_for("search results", 30, |s| s.contains("found, Esc clears"));

    // The graph is read in the background after the ingest: open the view until
    // it lists the thread's facts.
    let deadline = Instant::now() + Duration::from_secs(60);
    let screen = loop {
        tmux.send(&["P"]);
        let screen = tmux.wait_for("the people-and-facts view", 20, |s| {
            s.contains("People and facts")
        });
        if screen.contains("fact \u{b7}") && screen.contains("strike price") {
            break screen;
        }
        assert!(Instant::now() < deadline, "no facts listed:\n{screen}");
        tmux.send(&["Escape"]);
        std::thread::sleep(Duration::from_millis(500));
    };
    assert!(screen.contains("person \u{b7} Phillip Reyes"), "{screen}");
    assert!(screen.contains("from the start"), "{screen}");
    // Choose the fact's row by its number.
    let number = screen
        .lines()
        .find(|l| l.contains("fact \u{b7}") && l.contains("strike price: $14.50"))
        .and_then(|l| {
            l.split_whitespace()
                .find_map(|w| w.trim_matches('│').parse::<u32>().ok())
        })
        .unwrap_or_else(|| panic!("a numbered fact row:\n{screen}"));
    assert!(number <= 9, "{screen}");
    tmux.send(&[&number.to_string()]);
    let screen = tmux.wait_for("the quote in the reader", 30, |s| {
        !s.contains("People and facts") && s.contains("vests over four years")
    });
    assert!(
        screen.contains("strike price is $14.50"),
        "the fact's sentence is shown:\n{screen}"
    );
    quit(&tmux);
}
