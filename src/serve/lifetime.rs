//! When a server stops: a client's shutdown of a background server, its idle limit,
//! or its store no longer being the one at its data directory's path.
//!
//! A server watches its store ([`identity::Held`]): once the data directory is
//! removed or made anew, it stops serving at once and leaves, whatever work it
//! holds, since that work belongs to a store nobody can reach. Its idle clock runs
//! while no client is connected, no request runs and its background work makes no
//! progress: work that cannot move does not keep a server alive.

use super::identity::{Held, Standing};
use serde::{Deserialize, Serialize};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// How often a server looks at its data directory and its idle clock.
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// Why a server stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Not stopped.
    Running,
    /// A client asked, or its front end let it go.
    Asked,
    /// Idle for its limit.
    Idle,
    /// Its data directory was removed, or holds another store now.
    StoreGone,
}

/// The server, as `quoth status` names it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ServerState {
    pub pid: u32,
    pub uptime_secs: u64,
    /// Connections open now, the asking client's included.
    pub clients: usize,
    /// Front ends of other terminals attached to its engine.
    pub attached: usize,
    /// Started in the background for a client (it exits when idle).
    pub background: bool,
    /// Background work in hand (an ingest, a sync, embedding).
    pub working: bool,
    /// Watching IMAP accounts (IDLE) for a UI or `quoth sync --watch`.
    #[serde(default)]
    pub watching: bool,
    /// The identity of the store it serves.
    pub store: String,
}

/// The life of one server: its connections, running requests and last activity.
pub struct Lifetime {
    /// Started for a client in the background: idle exit and shutdown apply.
    pub background: bool,
    store: Held,
    started: Instant,
    /// Seconds since the Unix epoch at the start, for the greeting.
    pub started_unix: u64,
    connections: AtomicUsize,
    running: AtomicUsize,
    last: Mutex<Instant>,
    ending: Mutex<Ending>,
    stopping: AtomicBool,
    stop: tokio::sync::Notify,
    /// The progress count last seen, to tell work that moves from work that waits.
    progress_seen: AtomicU64,
    /// What the server found and did that no client has been told yet (a damaged
    /// file repaired on opening, background work that failed).
    notes: Mutex<Vec<String>>,
}

impl Lifetime {
    pub fn new(background: bool, store: Held) -> Self {
        Self {
            background,
            store,
            started: Instant::now(),
            started_unix: SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
            connections: AtomicUsize::new(0),
            running: AtomicUsize::new(0),
            last: Mutex::new(Instant::now()),
            ending: Mutex::new(Ending::Running),
            stopping: AtomicBool::new(false),
            stop: tokio::sync::Notify::new(),
            progress_seen: AtomicU64::new(0),
            notes: Mutex::new(Vec::new()),
        }
    }

    /// Keeps a note for the next client that connects.
    pub fn note(&self, note: String) {
        self.notes
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(note);
    }

    /// The notes no client has been told yet, for the client connecting now.
    pub fn take_notes(&self) -> Vec<String> {
        std::mem::take(&mut *self.notes.lock().unwrap_or_else(|p| p.into_inner()))
    }

    pub fn store_id(&self) -> &str {
        self.store.id()
    }

    pub fn uptime(&self) -> Duration {
        self.started.elapsed()
    }

    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    pub(super) fn touch(&self) {
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    /// How long nothing has happened: zero while a client is connected or a request runs.
    fn idle_for(&self) -> Duration {
        if self.connections.load(Ordering::SeqCst) > 0 || self.running.load(Ordering::SeqCst) > 0 {
            return Duration::ZERO;
        }
        self.last
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .elapsed()
    }

    /// Notes the count of progress reports background work has made; work that
    /// moved counts as activity.
    fn saw_progress(&self, made: u64) {
        if self.progress_seen.swap(made, Ordering::SeqCst) != made {
            self.touch();
        }
    }

    pub fn stop(&self, why: Ending) {
        {
            let mut ending = self.ending.lock().unwrap_or_else(|p| p.into_inner());
            if *ending == Ending::Running {
                *ending = why;
            }
        }
        self.stopping.store(true, Ordering::SeqCst);
        self.stop.notify_waiters();
    }

    pub fn ending(&self) -> Ending {
        *self.ending.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub async fn stopped(&self) {
        loop {
            let notified = self.stop.notified();
            if self.stopping.load(Ordering::SeqCst) {
                return;
            }
            notified.await;
        }
    }

    pub(super) fn connection(self: &Arc<Self>) -> Counted {
        self.touch();
        self.connections.fetch_add(1, Ordering::SeqCst);
        Counted(self.clone(), Which::Connection)
    }

    pub(super) fn busy(self: &Arc<Self>) -> Counted {
        self.running.fetch_add(1, Ordering::SeqCst);
        Counted(self.clone(), Which::Running)
    }

    /// Watches the store and, with an idle limit, the idle clock, until the server
    /// stops. `progress_made` counts the reports of the engine's background work.
    pub async fn watch(
        self: Arc<Self>,
        idle_limit: Option<Duration>,
        progress_made: impl Fn() -> u64 + Send + 'static,
    ) {
        let mut tick = tokio::time::interval(WATCH_EVERY);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = self.stopped() => return,
            }
            if self.store.standing() != Standing::Ours {
                self.stop(Ending::StoreGone);
                return;
            }
            self.saw_progress(progress_made());
            if idle_limit.is_some_and(|limit| self.idle_for() >= limit) {
                self.stop(Ending::Idle);
                return;
            }
        }
    }
}

enum Which {
    Connection,
    Running,
}

/// Holds one connection or one running request for as long as it lives.
pub(super) struct Counted(Arc<Lifetime>, Which);

impl Drop for Counted {
    fn drop(&mut self) {
        match self.1 {
            Which::Connection => self.0.connections.fetch_sub(1, Ordering::SeqCst),
            Which::Running => self.0.running.fetch_sub(1, Ordering::SeqCst),
        };
        self.0.touch();
    }
}

/// A socket this server bound: removed on the way out only while it is still this
/// server's (a server started after it may have bound a socket of the same name).
pub struct BoundSocket {
    pub path: PathBuf,
    /// Device, inode and change time: an inode number alone may be reused.
    file: (u64, u64, i64, i64),
}

impl BoundSocket {
    pub fn new(path: &Path) -> std::io::Result<Self> {
        let m = std::fs::symlink_metadata(path)?;
        Ok(Self {
            path: path.to_path_buf(),
            file: file_of(&m),
        })
    }

    pub fn remove(&self) {
        if let Ok(m) = std::fs::symlink_metadata(&self.path) {
            if file_of(&m) == self.file {
                let _ = std::fs::remove_file(&self.path);
            }
        }
    }
}

fn file_of(m: &std::fs::Metadata) -> (u64, u64, i64, i64) {
    (m.dev(), m.ino(), m.ctime(), m.ctime_nsec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lifetime(dir: &Path) -> Arc<Lifetime> {
        std::fs::create_dir_all(dir.join("store")).expect("store dir");
        Arc::new(Lifetime::new(
            true,
            Held::publish(dir, "id-1").expect("publish"),
        ))
    }

    #[tokio::test]
    async fn work_that_makes_no_progress_does_not_keep_a_server_alive() {
        let dir = tempfile::tempdir().expect("temp dir");
        let life = lifetime(dir.path());
        let started = Instant::now();
        // The count stands still, as for work that waits on something that never comes.
        life.clone()
            .watch(Some(Duration::from_millis(600)), || 7)
            .await;
        assert_eq!(life.ending(), Ending::Idle);
        assert!(started.elapsed() >= Duration::from_millis(600));
    }

    #[tokio::test]
    async fn work_that_moves_keeps_it_alive_and_a_removed_store_ends_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let life = lifetime(dir.path());
        let count = Arc::new(AtomicU64::new(0));
        let counter = count.clone();
        let watch = tokio::spawn(
            life.clone()
                .watch(Some(Duration::from_millis(500)), move || {
                    counter.fetch_add(1, Ordering::SeqCst) + 1
                }),
        );
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(
            life.ending(),
            Ending::Running,
            "moving work is not idleness"
        );
        std::fs::remove_dir_all(dir.path()).expect("remove the data dir");
        tokio::time::timeout(Duration::from_secs(2), watch)
            .await
            .expect("the watch ends")
            .expect("the watch task");
        assert_eq!(life.ending(), Ending::StoreGone);
    }

    #[test]
    fn a_socket_bound_by_a_later_server_is_left_alone() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("s.sock");
        let first = std::os::unix::net::UnixListener::bind(&path).expect("bind");
        let bound = BoundSocket::new(&path).expect("bound");
        drop(first);
        std::fs::remove_file(&path).expect("remove");
        let _second = std::os::unix::net::UnixListener::bind(&path).expect("bind again");
        bound.remove();
        assert!(path.exists(), "the later server's socket stays");
    }
}
