//! End-to-end tests of the real binary in a real terminal: tmux runs `quoth --maildir`
//! on a copy of the demo mailbox (or `quoth` with an IMAP account on a loopback
//! Dovecot), the test types into it with send-keys and reads the screen with
//! capture-pane. Skips when tmux (or Dovecot) is missing, unless QUOTH_REQUIRE_SHARED
//! is set (CI installs them): then it fails.

mod common;
mod imap;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of its own (its own socket), killed when the test ends.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Starts `command` in a detached 120x40 session named `quoth`.
    fn start(command: &str) -> Tmux {
        let tmux = Tmux {
            socket: format!("quoth-test-{}-{}", std::process::id(), next_id()),
        };
        let started = tmux.cmd(&[
            "new-session",
            "-d",
            "-s",
            "quoth",
            "-x",
            "120",
            "-y",
            "40",
            command,
        ]);
        assert!(
            started.status.success(),
            "tmux new-session: {}",
            String::from_utf8_lossy(&started.stderr)
        );
        tmux
    }

    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    fn send(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "quoth"];
        args.extend(keys);
        assert!(self.cmd(&args).status.success());
    }

    /// Types text literally (no key names).
    fn type_text(&self, text: &str) {
        assert!(self
            .cmd(&["send-keys", "-t", "quoth", "-l", text])
            .status
            .success());
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "quoth"]).stdout)
            .into_owned()
    }

    /// Waits until the screen satisfies `ok`; panics with the screen after `secs`.
    fn wait_for(&self, what: &str, secs: u64, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; the screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

/// The UI under tmux on a copy of the demo mailbox (`tmp/mail`, data in `tmp/data`),
/// with no IMAP account whatever the user running the test has configured; `env`
/// goes to `env` before the program (`-u XDG_RUNTIME_DIR`, `XDG_CONFIG_HOME=...`).
fn ui_on_demo_copy(tmp: &Path, env: &str) -> Tmux {
    ui_on_demo_copy_with(tmp, env, "")
}

/// [`ui_on_demo_copy`] with `config` as the text of its config.toml.
fn ui_on_demo_copy_with(tmp: &Path, env: &str, config: &str) -> Tmux {
    let mail = tmp.join("mail");
    common::copy_dir(&common::demo_mailbox(), &mail);
    let no_accounts = tmp.join("no-accounts.toml");
    std::fs::write(&no_accounts, config).expect("config");
    Tmux::start(&format!(
        "env {env} QUOTH_DATA_DIR='{}' QUOTH_CONFIG='{}' NO_COLOR=1 TERM=xterm-256color '{}' \
         --maildir '{}'",
        tmp.join("data").display(),
        no_accounts.display(),
        env!("CARGO_BIN_EXE_quoth"),
        mail.display()
    ))
}

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

/// Quits as a user does: `q` until the UI is gone (from the reader `q` first goes
/// back to the list; with background work running the UI asks for a second `q`; a
/// key pressed while the UI is still taking the terminal back is lost).
fn quit(tmux: &Tmux) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut last_q: Option<Instant> = None;
    while Instant::now() < deadline {
        let alive = tmux.cmd(&["has-session", "-t", "quoth"]).status.success();
        if !alive {
            return;
        }
        if last_q.is_none_or(|t| t.elapsed() > Duration::from_millis(1500))
            || tmux.screen().contains("quit again to quit")
        {
            tmux.send(&["q"]);
            last_q = Some(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("quoth did not quit on q:\n{}", tmux.screen());
}

fn next_id() -> usize {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
}

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
    second.send(&["/"]);
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

fn executable(path: &Path, script: &str) {
    std::fs::write(path, script).expect("script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// `reply` (the user's F-key), an editor that writes a line, then `y`: the
/// sendmail command gets a reply from the configured From to the sender, with
/// `Re:`, In-Reply-To, References, the editor's text and the quoted original; a
/// copy is kept in Sent and the original's file is marked replied.
#[test]
fn a_reply_written_in_the_editor_is_sent_through_sendmail() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mail = tmp.path().join("mail");
    let config = tmp.path().join("config");
    std::fs::create_dir_all(config.join("quoth")).expect("config dir");
    std::fs::write(
        config.join("quoth/keymap.toml"),
        "[reader]\nkeymap = [\n  { on = [\"<F7>\"], run = \"reply\" },\n]\n",
    )
    .expect("keymap");
    let outbox = tmp.path().join("outbox.eml");
    let sendmail = tmp.path().join("sendmail-stub");
    executable(
        &sendmail,
        &format!(
            "#!/bin/sh\ncat > '{}.part' && mv '{0}.part' '{0}'\n",
            outbox.display()
        ),
    );
    // The editor writes its line below the header block, above the quote.
    let editor = tmp.path().join("editor");
    executable(
        &editor,
        "#!/bin/sh\nf=\"$1\"\nt=\"$f.edit\"\nawk 'BEGIN{d=0} {print} /^$/ && !d {print \"Thursday at ten suits me.\"; d=1}' \"$f\" > \"$t\" && cat \"$t\" > \"$f\" && rm \"$t\"\n",
    );
    let tmux = ui_on_demo_copy_with(
        tmp.path(),
        &format!(
            "-u VISUAL EDITOR='{}' XDG_CONFIG_HOME='{}'",
            editor.display(),
            config.display()
        ),
        &format!(
            "[compose]\nfrom = \"Robin Demo <robin@demo.example>\"\nsendmail = \"'{}' -t\"\n",
            sendmail.display()
        ),
    );
    tmux.wait_for("the thread list", 90, |s| {
        // The list as ingested: an empty list shows before the ingest starts.
        s.contains("Threads (") && !s.contains("Threads (0") && !s.contains("loading")
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("the reader", 20, |s| s.contains("Folder: "));
    tmux.send(&["F7"]);
    tmux.wait_for("the send prompt", 20, |s| {
        s.contains("y send · e edit again")
    });
    tmux.send(&["y"]);
    let deadline = Instant::now() + Duration::from_secs(20);
    while !outbox.is_file() {
        assert!(
            Instant::now() < deadline,
            "sendmail got nothing:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    tmux.wait_for("the note", 20, |s| s.contains("sent to "));
    let sent = quoth::mail::parse::parse_message(&std::fs::read(&outbox).expect("outbox"))
        .expect("the message parses");
    assert_eq!(sent.from[0].address, "robin@demo.example");
    let replied_to = sent.in_reply_to.first().expect("In-Reply-To").clone();
    assert_eq!(sent.references.last(), Some(&replied_to));
    // The original, found by its Message-ID among the demo files.
    let mut original = None;
    for folder in ["inbox", "sent"] {
        for e in std::fs::read_dir(mail.join(folder).join("cur")).expect("cur") {
            let path = e.expect("entry").path();
            let raw = std::fs::read(&path).expect("read");
            let m = quoth::mail::parse::parse_message(&raw).expect("parses");
            if m.message_id.as_deref() == Some(replied_to.as_str()) {
                original = Some((path, raw, m));
            }
        }
    }
    let (path, raw, original) = original.expect("the original is a demo file");
    let reply_to = quoth::mail::parse::reply_to(&raw);
    let expected_to = reply_to.first().unwrap_or(&original.from[0]);
    assert_eq!(sent.to[0].address, expected_to.address);
    let subject = original.subject.trim();
    if subject.to_lowercase().starts_with("re:") {
        assert_eq!(sent.subject, subject);
    } else {
        assert_eq!(sent.subject, format!("Re: {subject}"));
    }
    let body = sent.body.replace("\r\n", "\n");
    assert!(body.contains("Thursday at ten suits me."), "{body}");
    let first_line = original
        .body
        .lines()
        .map(str::trim_end)
        .find(|l| !l.trim().is_empty())
        .expect("the original has text");
    assert!(body.contains(&format!("> {first_line}")), "{body}");
    assert!(body.contains(" wrote:"), "{body}");
    // Marked replied in its file name; a copy kept in Sent.
    let name = path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let stem = name.split(":2,").next().expect("stem").to_string();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let replied = std::fs::read_dir(path.parent().expect("cur"))
            .expect("cur")
            .flatten()
            .any(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.starts_with(&stem) && n.split(":2,").nth(1).is_some_and(|f| f.contains('R'))
            });
        if replied {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the original is not marked replied"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let kept: Vec<String> = std::fs::read_dir(mail.join("sent/cur"))
        .expect("sent")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".quoth:2,S"))
        .collect();
    assert_eq!(kept.len(), 1, "one copy kept in Sent: {kept:?}");
    // No draft is left behind.
    let drafts = tmp.path().join("data/drafts");
    let left = std::fs::read_dir(&drafts).map(|d| d.count()).unwrap_or(0);
    assert_eq!(left, 0, "the sent draft's file is removed");
    // The reply joins the thread list once the Sent folder is read again.
    tmux.send(&["Escape"]);
    tmux.wait_for("the reply in the thread list", 60, |s| {
        s.contains("Robin Demo")
    });
    quit(&tmux);
}

/// `|` asks for a command and hands it the message as its file holds it, with the
/// terminal given over to the command and taken back after Enter.
#[test]
fn a_message_is_piped_to_a_command_and_the_ui_comes_back() {
    if !common::program("tmux") {
        return;
    }
    let tmp = tempfile::tempdir().expect("temp dir");
    let mail = tmp.path().join("mail");
    let out = tmp.path().join("piped.eml");
    let tmux = ui_on_demo_copy(tmp.path(), "");
    tmux.wait_for("the thread list", 90, |s| {
        // The list as ingested: an empty list shows before the ingest starts.
        s.contains("Threads (") && !s.contains("Threads (0") && !s.contains("loading")
    });
    tmux.send(&["Enter"]);
    tmux.wait_for("the reader", 20, |s| s.contains("Folder: "));
    tmux.send(&["|"]);
    tmux.wait_for("the prompt", 10, |s| s.contains("Pipe to:"));
    tmux.type_text(&format!("cat > '{}'; echo piped-ok", out.display()));
    tmux.send(&["Enter"]);
    tmux.wait_for("the command's output", 20, |s| {
        s.contains("piped-ok") && s.contains("press Enter to go back")
    });
    tmux.send(&["Enter"]);
    // A note may give way at once to the end of background work: the reader is
    // what must come back.
    tmux.wait_for("the UI again", 20, |s| {
        s.contains("Folder: ") && !s.contains("press Enter")
    });
    let piped = std::fs::read(&out).expect("the command wrote its input");
    let mut found = false;
    for folder in ["inbox", "sent"] {
        for e in std::fs::read_dir(mail.join(folder).join("cur")).expect("cur") {
            found |= std::fs::read(e.expect("entry").path()).expect("read") == piped;
        }
    }
    assert!(found, "the command got a demo file's bytes exactly");
    tmux.send(&["Escape"]);
    quit(&tmux);
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
