//! One data directory, several clients: new IMAP mail appearing in the open UI,
//! CLI commands and an ingest going through it, a second UI, `quoth open`.

use super::*;

fn sighting(i: usize, animal: &str, day: u32) -> Vec<u8> {
    format!(
        "From: Tess Ter <tess@example.com>\r\nTo: alice@example.com\r\n\
         Subject: {animal} {i}\r\nMessage-ID: <{animal}-{i}@example.com>\r\n\
         Date: {day} Jan 2024 10:00:00 +0000\r\n\r\n\
         A {animal} was seen near pen {i}.\r\n"
    )
    .into_bytes()
}

fn append(server: &imap::Dovecot, msg: &[u8]) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let mut s = server.session().await;
        s.append("INBOX", None, msg).await.expect("append");
        s.logout().await;
    });
}

#[test]
fn new_mail_appears_in_the_thread_pane_while_the_ui_is_open() {
    if !common::program("tmux") {
        return;
    }
    let Some(server) = imap::Dovecot::start() else {
        return;
    };
    append(&server, &sighting(1, "zebra", 1));
    append(&server, &sighting(2, "zebra", 2));
    let config = server.write_config("zoo", imap::PASSWORD, server.port);
    let tmp = tempfile::tempdir().expect("temp dir");
    // No store yet and an account configured: the UI opens the data dir, not the demo.
    let command = format!(
        "env QUOTH_DATA_DIR='{}' QUOTH_CONFIG='{}' NO_COLOR=1 TERM=xterm-256color '{}'",
        tmp.path().join("data").display(),
        config.display(),
        env!("CARGO_BIN_EXE_quoth"),
    );
    let tmux = Tmux::start(&command);
    tmux.wait_for("the synced threads", 60, |s| {
        s.contains("Threads (2)") && s.contains("zebra 2")
    });
    // Watching: the status popup lists the account's IDLE connection.
    tmux.send(&["S"]);
    tmux.wait_for("the IDLE connection", 30, |s| {
        s.contains("IMAP zoo: watching INBOX")
    });
    tmux.send(&["Escape"]);

    append(&server, &sighting(3, "okapi", 3));
    let screen = tmux.wait_for("the new mail", 30, |s| {
        s.contains("Threads (3)") && s.contains("okapi 3")
    });
    // The status bar's note of it may have given way to the next one already; the
    // status popup keeps it.
    tmux.send(&["S"]);
    tmux.wait_for("the new mail in the status popup", 30, |s| {
        s.contains("IMAP zoo: watching INBOX") && s.contains("new mail: 1 in INBOX at ")
    });
    tmux.send(&["Escape"]);
    let row = |s: &str, what: &str| s.lines().position(|l| l.contains(what));
    assert!(
        row(&screen, "okapi 3") < row(&screen, "zebra 2"),
        "the new thread is listed first:\n{screen}"
    );

    tmux.send(&["/"]);
    tmux.type_text("okapi");
    tmux.send(&["Enter"]);
    tmux.wait_for("the new mail found", 30, |s| {
        s.contains("found, Esc clears")
    });
    tmux.send(&["Escape"]);
    quit(&tmux);
}

/// A `quoth` command on `data` without a runtime dir: the socket is in the data dir.
fn cli(data: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_quoth"));
    c.env("QUOTH_INLINE", "1");
    c.arg("--data-dir").arg(data).env_remove("XDG_RUNTIME_DIR");
    c
}

/// Runs the CLI on `data`, which must succeed and print `text`.
fn cli_says(data: &Path, args: &[&str], text: &str) {
    let out = cli(data).args(args).output().expect("quoth runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(text), "{args:?}: {stdout}");
}

#[test]
fn cli_clients_and_an_ingest_go_through_the_open_ui() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let data = tmp.path().join("data");
    let tmux = ui_on_demo_copy(tmp.path(), "-u XDG_RUNTIME_DIR");
    tmux.wait_for("the thread list", 90, |s| {
        s.contains("Threads (") && s.contains("stock optio") && !s.contains("loading")
    });
    assert!(
        data.join("server.sock").exists(),
        "the UI serves its data dir"
    );

    // Eight clients at once, each cycling through search, ask, status and stats.
    let commands: [&[&str]; 4] = [
        &["search", "--json", "roof"],
        &[
            "ask",
            "--json",
            "what is the strike price of the option grant?",
        ],
        &["status", "--json"],
        &["stats", "--json"],
    ];
    let until = Instant::now() + Duration::from_secs(10);
    let clients: Vec<_> = (0..8)
        .map(|n| {
            let data = data.clone();
            std::thread::spawn(move || {
                let (mut runs, mut failures) = (0, Vec::new());
                let mut i = n;
                while Instant::now() < until || runs == 0 {
                    let args = commands[i % commands.len()];
                    let out = cli(&data).args(args).output().expect("quoth runs");
                    let parsed = serde_json::from_slice::<serde_json::Value>(&out.stdout);
                    if !out.status.success() || parsed.is_err() {
                        failures.push(format!(
                            "{args:?}: {}",
                            String::from_utf8_lossy(&out.stderr)
                        ));
                    }
                    runs += 1;
                    i += 1;
                }
                (runs, failures)
            })
        })
        .collect();
    for client in clients {
        let (runs, failures) = client.join().expect("client thread");
        assert!(runs > 0);
        assert!(failures.is_empty(), "{failures:#?}");
    }

    // Mail ingested from the CLI shows up in the open UI.
    let more = tmp.path().join("more");
    common::maildir_with_one(
        &more,
        "From: Dana Reyes <dana@example.com>\r\nTo: you@example.com\r\n\
         Subject: Greenhouse permit approved\r\nMessage-ID: <permit-1@example.com>\r\n\
         Date: Tue, 12 Mar 2024 09:30:00 +0000\r\n\r\nThe permit came through today.\r\n",
    );
    let more = more.to_string_lossy().into_owned();
    cli_says(
        &data,
        &["ingest", "--no-embed", &more],
        "handed to the running Quoth",
    );
    tmux.wait_for("the new thread", 60, |s| s.contains("Greenhouse permit"));

    // Another mail client asks the open UI to show a message (`quoth open`).
    cli_says(
        &data,
        &["open", "<permit-1@example.com>"],
        "shown in the open Quoth UI: Greenhouse permit approved",
    );
    tmux.wait_for("the message in the reader", 30, |s| {
        s.contains("The permit came through today.") && s.contains("reader")
    });
    // Back to the list, as from any message opened there.
    tmux.send(&["q"]);
    tmux.wait_for("the thread list again", 10, |s| s.contains(" threads "));

    quit(&tmux);
    let deadline = Instant::now() + Duration::from_secs(10);
    while data.join("server.sock").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        !data.join("server.sock").exists(),
        "the socket goes with the UI"
    );
}

/// A second UI on the data dir of an open one (`quoth` with `QUOTH_DATA_DIR`, no
/// mailbox given), with `env` before the program.
fn second_ui(tmp: &Path, env: &str) -> Tmux {
    Tmux::start(&format!(
        "env {env} QUOTH_DATA_DIR='{}' QUOTH_CONFIG='{}' NO_COLOR=1 TERM=xterm-256color '{}'",
        tmp.join("data").display(),
        tmp.join("no-accounts.toml").display(),
        env!("CARGO_BIN_EXE_quoth"),
    ))
}

#[test]
fn two_uis_share_one_data_dir_and_the_second_outlives_the_first() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let data = tmp.path().join("data");
    let first = ui_on_demo_copy(tmp.path(), "-u XDG_RUNTIME_DIR");
    let listed =
        |s: &str| s.contains("Threads (") && s.contains("stock optio") && !s.contains("loading");
    first.wait_for("the thread list", 90, listed);
    // The server a second UI may have to start exits soon after its last client.
    let second = second_ui(tmp.path(), "-u XDG_RUNTIME_DIR QUOTH_SERVER_IDLE_EXIT=3");
    second.wait_for("the second UI's thread list", 60, listed);

    // Each UI gets the results of its own requests.
    second.send(&["/"]);
    second.type_text("strike price");
    second.send(&["Enter"]);
    let screen = second.wait_for("search results", 30, |s| s.contains("found, Esc clears"));
    assert!(screen.contains("Search: strike price"), "{screen}");
    assert!(
        !first.screen().contains("Search: strike price"),
        "the first UI does not show the second's search:\n{}",
        first.screen()
    );
    second.send(&["Escape"]);
    second.wait_for("the thread list again", 10, |s| s.contains("Threads ("));

    // An archive in one UI shows in the other's reader of the same thread.
    first.send(&["Enter"]);
    second.send(&["Enter"]);
    first.wait_for("the first UI's reader", 20, |s| s.contains("Folder: "));
    second.wait_for("the second UI's reader", 20, |s| s.contains("Folder: "));
    first.send(&["A"]);
    first.wait_for("the archive", 20, |s| s.contains("moved to mail/archive"));
    let screen = second.wait_for("the archive in the second UI", 20, |s| {
        s.contains("Folder: mail/archive")
    });
    assert!(
        !screen.contains("moved to mail/archive"),
        "the other UI's move is shown, not announced as its own:\n{screen}"
    );
    first.send(&["u"]);
    second.wait_for("the undo in the second UI", 20, |s| {
        s.contains("Folder: ") && !s.contains("Folder: mail/archive")
    });
    first.send(&["Escape"]);
    second.send(&["Escape"]);
    first.wait_for("the first UI's list", 10, |s| s.contains("Threads ("));
    second.wait_for("the second UI's list", 10, |s| s.contains("Threads ("));

    // Mail ingested from the CLI shows up in both.
    let more = tmp.path().join("more");
    common::maildir_with_one(
        &more,
        "From: Dana Reyes <dana@example.com>\r\nTo: you@example.com\r\n\
         Subject: Greenhouse permit approved\r\nMessage-ID: <permit-2@example.com>\r\n\
         Date: Tue, 12 Mar 2024 09:30:00 +0000\r\n\r\nThe permit came through today.\r\n",
    );
    let more = more.to_string_lossy().into_owned();
    cli_says(
        &data,
        &["ingest", "--no-embed", &more],
        "handed to the running Quoth",
    );
    first.wait_for("the new thread in the first UI", 60, |s| {
        s.contains("Greenhouse permit")
    });
    second.wait_for("the new thread in the second UI", 60, |s| {
        s.contains("Greenhouse permit")
    });

    // The second UI asks and gets its answer with the citation.
    second.send(&["i"]);
    second.type_text("What is the strike price of the stock option grant?");
    second.send(&["Enter"]);
    second.wait_for("the answer", 60, |s| {
        s.contains("[1]") && s.contains("14.50")
    });

    // The first UI goes, and the engine with it: the second says so, has a server
    // started, and goes on.
    quit(&first);
    second.wait_for("word of the lost engine", 30, |s| {
        s.contains("stopped; starting another")
    });
    second.wait_for("typing mode to end", 10, |s| !s.contains("Esc leaves"));
    second.send(&["Escape"]);
    second.wait_for("the thread list after the restart", 20, |s| {
        s.contains("Threads (")
    });
    // The query is typed once the search line is open, not into the list's keys.
    second.send(&["/"]);
    second.wait_for("the search line", 20, |s| {
        s.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .is_some_and(|l| l.trim_start().starts_with("search"))
    });
    second.type_text("greenhouse");
    second.send(&["Enter"]);
    let screen = second.wait_for("a search through the new server", 60, |s| {
        s.contains("Search: greenhouse (") && s.contains("Greenhouse permit")
    });
    assert!(screen.contains("found, Esc clears"), "{screen}");
    quit(&second);
    let deadline = Instant::now() + Duration::from_secs(30);
    while data.join("server.sock").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        !data.join("server.sock").exists(),
        "the started server exits once idle"
    );
}

/// `quoth open ID` with no UI open starts one on that message.
#[test]
fn quoth_open_starts_the_ui_on_the_message() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let data = tmp.path().join("data");
    let out = cli(&data)
        .args(["ingest", "--no-embed"])
        .arg(common::demo_mailbox())
        .output()
        .expect("ingest runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let no_accounts = tmp.path().join("no-accounts.toml");
    std::fs::write(&no_accounts, "").expect("config");
    let tmux = Tmux::start(&format!(
        "env -u XDG_RUNTIME_DIR QUOTH_DATA_DIR='{}' QUOTH_CONFIG='{}' NO_COLOR=1 \
         TERM=xterm-256color '{}' open '<20240206203012.378cf7a473@northwind.example>'",
        data.display(),
        no_accounts.display(),
        env!("CARGO_BIN_EXE_quoth"),
    ));
    tmux.wait_for("the message in the reader", 60, |s| {
        s.contains("Your stock option grant")
            && s.contains("$14.50 per share")
            && s.contains("reader")
    });
    tmux.send(&["q"]);
    tmux.wait_for("the thread list", 10, |s| s.contains(" threads "));
    quit(&tmux);
}
