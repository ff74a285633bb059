//! End-to-end tests of the real binary in a real terminal: tmux runs `quoth --maildir`
//! on a copy of the demo mailbox (or `quoth` with an IMAP account on a loopback
//! Dovecot), the test types into it with send-keys and reads the screen with
//! capture-pane. Skips when tmux (or Dovecot) is missing, unless QUOTH_REQUIRE_SHARED
//! is set (CI installs them): then it fails.

#[path = "../common/mod.rs"]
mod common;
#[path = "../imap/mod.rs"]
mod imap;

mod reading;
mod sharing;
mod writing;

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
