//! Starting the data directory's server in the background for a command that finds
//! none running, and stopping such a server for a command that needs the data
//! directory to itself.
//!
//! A background server is `quoth serve --idle-exit` in a process group of its own
//! (the terminal's Ctrl-C does not reach it), writing its messages to `server.log` in
//! the data directory. It keeps the engine warm for the next command and lets other
//! terminals watch its work (`quoth status`), and exits after [`IDLE_EXIT`] (or
//! `QUOTH_SERVER_IDLE_EXIT` seconds) without a client or background work.
//! `QUOTH_INLINE=1` serves each command from its own process instead, through the
//! same client, and leaves no server behind.

use anyhow::{bail, Context, Result};
use quoth::serve::client::Client;
use quoth::serve::protocol::Op;
use quoth::serve::ServeOptions;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a background server waits for its next client.
pub const IDLE_EXIT: Duration = Duration::from_secs(300);

/// Longest wait for a started server to listen: opening the store may finish work a
/// stopped process left (documents owed, an index rebuilt).
const START_WAIT: Duration = Duration::from_secs(120);

/// Servers started, one after another, before giving up.
const START_TRIES: u32 = 3;

/// The server's log in the data directory.
const LOG: &str = "server.log";

/// How long a started server waits for its next client.
fn idle_exit() -> Duration {
    std::env::var("QUOTH_SERVER_IDLE_EXIT")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .map(Duration::from_secs)
        .unwrap_or(IDLE_EXIT)
}

/// Whether each command serves itself (`QUOTH_INLINE=1`).
pub fn inline() -> bool {
    std::env::var("QUOTH_INLINE").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The running server of `data_dir`, started in the background when there is none
/// (unless [`inline`]).
pub fn connect_or_start(data_dir: &Path) -> Result<Client> {
    if let Some(client) = Client::connect(data_dir)? {
        return Ok(client);
    }
    if inline() {
        return start_here(data_dir);
    }
    start(data_dir)
}

/// Serves the data directory from a thread of this process, which ends with it:
/// the same server, reached through the same client, as a background one.
fn start_here(data_dir: &Path) -> Result<Client> {
    let opts = ServeOptions {
        data_dir: data_dir.to_path_buf(),
        http: None,
        allow_remote: false,
        idle_exit: Some(idle_exit()),
    };
    let (ready, listening) = std::sync::mpsc::channel::<Result<(), String>>();
    let failed = ready.clone();
    let dir = data_dir.to_path_buf();
    let thread = std::thread::Builder::new()
        .name("quoth-server".into())
        .spawn(move || {
            if let Err(e) = quoth::serve::host::serve(&dir, false, opts, |_| {
                let _ = ready.send(Ok(()));
            }) {
                let _ = failed.send(Err(e.to_string()));
            }
        })
        .context("starting the Quoth server in this process")?;
    *lock_here() = Some((data_dir.to_path_buf(), thread));
    match listening.recv_timeout(START_WAIT) {
        Ok(Ok(())) => {}
        Ok(Err(why)) => bail!("the Quoth server could not start: {why}"),
        Err(_) => bail!(
            "the Quoth server did not listen within {} s",
            START_WAIT.as_secs()
        ),
    }
    Client::connect(data_dir)?.context("the Quoth server of this process does not answer")
}

/// The server this process serves its command from ([`start_here`]), and its thread.
type Here = Option<(PathBuf, std::thread::JoinHandle<()>)>;

static HERE: Mutex<Here> = Mutex::new(None);

fn lock_here() -> std::sync::MutexGuard<'static, Here> {
    HERE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Stops the server this process started for its command, once the command is
/// done, and waits for it: its engine closes the store as a background server's
/// does, every write on disk before the process exits.
pub fn stop_here() {
    let Some((data_dir, thread)) = lock_here().take() else {
        return;
    };
    if let Ok(Some(mut client)) = Client::connect(&data_dir) {
        let _ = client.call(Op::Shutdown, &mut |_| {});
    }
    let _ = thread.join();
}

/// Stops a background server of `data_dir`, for a command that opens the data
/// directory itself.
pub fn stop_background(data_dir: &Path) -> Result<()> {
    quoth::serve::client::stop_background(data_dir)
        .context("stopping the background Quoth server")?;
    Ok(())
}

fn start(data_dir: &Path) -> Result<Client> {
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(data_dir)
        .with_context(|| format!("creating {}", data_dir.display()))?;
    let log_path = data_dir.join(LOG);
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&log_path)
        .with_context(|| format!("opening {}", log_path.display()))?;
    let log_start = log.metadata().map(|m| m.len()).unwrap_or(0);
    let exe = std::env::current_exe().context("finding this program to start its server")?;
    let spawn = || -> Result<std::process::Child> {
        Command::new(&exe)
            .arg("--data-dir")
            .arg(data_dir)
            .arg("serve")
            .arg("--idle-exit")
            .arg(idle_exit().as_secs().to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log.try_clone()?)
            .process_group(0)
            .spawn()
            .context("starting a background Quoth server")
    };
    let mut child = spawn()?;
    let mut tries = 1;
    let started = Instant::now();
    let mut exited_at = None;
    loop {
        // Another command may have started a server at the same moment: whichever
        // took the data directory serves both.
        if let Some(client) = Client::connect(data_dir)? {
            return Ok(client);
        }
        if exited_at.is_none() {
            if let Some(status) = child.try_wait()? {
                exited_at = Some((Instant::now(), status));
            }
        }
        match exited_at {
            // A server stopping as this one started may have held the data
            // directory a moment longer: try again, a few times.
            Some((at, _)) if at.elapsed() > Duration::from_millis(500) && tries < START_TRIES => {
                child = spawn()?;
                tries += 1;
                exited_at = None;
            }
            Some((at, status)) if at.elapsed() > Duration::from_secs(1) => bail!(
                "the background Quoth server stopped at once ({status}){}",
                log_tail(&log_path, log_start)
            ),
            _ if started.elapsed() > START_WAIT => bail!(
                "the background Quoth server did not listen within {} s (see {})",
                START_WAIT.as_secs(),
                log_path.display()
            ),
            _ => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

/// What the server wrote to its log since `from`, for an error message.
fn log_tail(path: &Path, from: u64) -> String {
    let text = std::fs::read(path).unwrap_or_default();
    let new = String::from_utf8_lossy(text.get(from as usize..).unwrap_or_default());
    let lines: Vec<&str> = new.lines().filter(|l| !l.trim().is_empty()).collect();
    match lines.len() {
        0 => String::new(),
        n => format!(
            ":\n{}",
            lines[n.saturating_sub(5)..]
                .iter()
                .map(|l| format!("  {}", super::output::safe_line(l)))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}
