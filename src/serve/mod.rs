//! `quoth serve`: one process owns a data directory and serves its engine to any
//! number of clients: over a Unix socket in the JSON lines protocol of [`protocol`]
//! (the CLI's subcommands use it when a server runs), and, opt-in, over an HTTP/JSON
//! API on loopback ([`http`]). The terminal UI serves the same socket while it is
//! open ([`serve_alongside`]), over its engine handle.
//!
//! The socket lives in `$XDG_RUNTIME_DIR/quoth/` (named after the data directory),
//! or in the data directory when that is unset; it is mode 0600. A server started
//! with an idle limit (a background server) exits after that long without a
//! connection or request, and stops when a client asks it to.

pub mod api;
pub mod attach;
pub mod client;
pub mod host;
pub mod http;
pub mod identity;
pub mod lifetime;
pub mod protocol;
mod socket;

use lifetime::{BoundSocket, Ending, Lifetime};

use crate::engine::Engine;
use std::net::SocketAddr;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{addr} is not a loopback address: pass --allow-remote to serve the API beyond this machine")]
    NotLoopback { addr: SocketAddr },
    #[error("binding {what}: {source}")]
    Bind {
        what: String,
        source: std::io::Error,
    },
    #[error("reading the store's identity: {0}")]
    Identity(String),
}

/// Where the server of a data directory listens.
pub fn socket_path(data_dir: &Path) -> PathBuf {
    let canonical = std::fs::canonicalize(data_dir).unwrap_or_else(|_| data_dir.to_path_buf());
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(run) => {
            let hash = blake3::hash(canonical.as_os_str().as_encoded_bytes());
            let name = format!("{}.sock", &hash.to_hex()[..16]);
            PathBuf::from(run).join("quoth").join(name)
        }
        None => data_dir.join("server.sock"),
    }
}

/// The API token of a data directory (`api-token`, mode 0600), made on first use.
pub fn api_token(data_dir: &Path) -> std::io::Result<String> {
    let path = data_dir.join("api-token");
    match std::fs::read_to_string(&path) {
        Ok(t) if !t.trim().is_empty() => return Ok(t.trim().to_string()),
        Ok(_) => std::fs::remove_file(&path)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let mut bytes = [0u8; 32];
    std::io::Read::read_exact(&mut std::fs::File::open("/dev/urandom")?, &mut bytes)?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&path)?;
    std::io::Write::write_all(&mut file, token.as_bytes())?;
    file.sync_all()?;
    Ok(token)
}

pub struct ServeOptions {
    pub data_dir: PathBuf,
    /// Serve the HTTP API here too.
    pub http: Option<SocketAddr>,
    /// Allow a non-loopback HTTP address.
    pub allow_remote: bool,
    /// Exit after this long without a connection or a request (a background server).
    pub idle_exit: Option<Duration>,
}

/// Where a running server listens, for the caller to announce.
pub struct Listening {
    pub socket: PathBuf,
    pub http: Option<SocketAddr>,
}

/// Serves `engine` until stopped (an idle limit, a client's shutdown of a
/// background server, its data directory removed or made anew, or the process's
/// end). `ready` runs once both listeners are
/// bound.
pub fn run(
    engine: Engine,
    opts: ServeOptions,
    ready: impl FnOnce(&Listening),
) -> Result<(), ServeError> {
    if let Some(addr) = opts.http {
        if !addr.ip().is_loopback() && !opts.allow_remote {
            return Err(ServeError::NotLoopback { addr });
        }
    }
    let token = match opts.http {
        Some(_) => Some(api_token(&opts.data_dir)?),
        None => None,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    // The engine runs behind a handle, as under the UI: background work yields to
    // reads. Nobody shows the handle's events here; they are read and dropped.
    let open_notes = engine.open_notes().to_vec();
    let (handle, mut events) = crate::engine::handle::EngineHandle::start(
        engine,
        Box::new(crate::answer::extract::ExtractiveAnswerer),
        runtime.handle(),
    );
    let api = api::Api::over(&handle);
    let life = Arc::new(Lifetime::new(
        opts.idle_exit.is_some(),
        publish_store(&api, &opts.data_dir)?,
    ));
    // What opening the store repaired, and background work that failed, reach the
    // next client (nobody shows the handle's other events here).
    for note in open_notes {
        life.note(note);
    }
    let noted = life.clone();
    runtime.spawn(async move {
        while let Some(event) = events.recv().await {
            if let crate::engine::handle::EngineEvent::Error { req: None, message } = event {
                eprintln!("quoth serve: {message}");
                noted.note(message);
            }
        }
    });
    let api = Arc::new(api.with_lifetime(life.clone()));
    let socket = socket_path(&opts.data_dir);
    let bound = runtime.block_on(async {
        let (listener, bound) = bind_socket(&socket)?;
        let http = match (opts.http, token) {
            (Some(addr), Some(token)) => {
                let l = tokio::net::TcpListener::bind(addr)
                    .await
                    .map_err(|source| ServeError::Bind {
                        what: addr.to_string(),
                        source,
                    })?;
                let bound = l.local_addr()?;
                let app = http::router(api.clone(), token);
                let stop = life.clone();
                tokio::spawn(async move {
                    let served = axum::serve(l, app)
                        .with_graceful_shutdown(async move { stop.stopped().await })
                        .await;
                    if let Err(e) = served {
                        eprintln!("quoth serve: the HTTP API stopped: {e}");
                    }
                });
                Some(bound)
            }
            _ => None,
        };
        ready(&Listening {
            socket: socket.clone(),
            http,
        });
        let progress = api.clone();
        tokio::spawn(
            life.clone()
                .watch(opts.idle_exit, move || progress.progress_made()),
        );
        socket::accept_loop(listener, api.clone(), life.clone()).await;
        Ok::<_, ServeError>(bound)
    })?;
    bound.remove();
    drop(handle);
    if life.ending() == Ending::StoreGone {
        // Its work belongs to a store nobody can reach: leave now.
        eprintln!(
            "quoth serve: the data directory {} was removed or holds another store now: stopped",
            opts.data_dir.display()
        );
        runtime.shutdown_background();
    } else {
        // Requests still running hold the engine; the runtime's drop waits for them.
        runtime.shutdown_timeout(Duration::from_secs(30));
    }
    Ok(())
}

/// Publishes the identity of the store the API's engine holds, for the server of
/// `data_dir` about to listen.
fn publish_store(api: &api::Api, data_dir: &Path) -> Result<identity::Held, ServeError> {
    let id = api
        .store_identity()
        .map_err(|e| ServeError::Identity(e.message))?;
    Ok(identity::Held::publish(data_dir, &id)?)
}

/// Serves the socket of `data_dir` on `runtime` beside a front end that owns the
/// engine (the terminal UI), until the returned guard is dropped: while the UI runs,
/// the CLI's commands and other clients go through it.
pub fn serve_alongside(
    api: api::Api,
    data_dir: &Path,
    runtime: &tokio::runtime::Handle,
) -> Result<Alongside, ServeError> {
    let socket = socket_path(data_dir);
    let life = Arc::new(Lifetime::new(false, publish_store(&api, data_dir)?));
    let api = Arc::new(api.with_lifetime(life.clone()));
    let (listener, bound) = {
        let _entered = runtime.enter();
        bind_socket(&socket)?
    };
    let progress = api.clone();
    runtime.spawn(life.clone().watch(None, move || progress.progress_made()));
    runtime.spawn(socket::accept_loop(listener, api, life.clone()));
    Ok(Alongside { bound, life })
}

/// Stops the socket server of a front end and removes its socket when dropped.
pub struct Alongside {
    bound: BoundSocket,
    life: Arc<Lifetime>,
}

impl Alongside {
    /// Whether the data directory was removed, or holds another store now: the
    /// socket no longer serves it.
    pub fn store_gone(&self) -> bool {
        self.life.ending() == Ending::StoreGone
    }
}

impl Drop for Alongside {
    fn drop(&mut self) {
        self.life.stop(Ending::Asked);
        self.bound.remove();
    }
}

/// Binds the socket (its folder 0700, the socket 0600). A socket file left by a
/// server that died, or by one whose store is gone, is replaced: this process owns
/// the store's lock, so no other server of this store can be listening on it.
fn bind_socket(path: &Path) -> Result<(tokio::net::UnixListener, BoundSocket), ServeError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
        if dir.file_name().is_some_and(|n| n == "quoth") {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(e.into()),
        _ => {}
    }
    let listener = tokio::net::UnixListener::bind(path).map_err(|source| ServeError::Bind {
        what: path.display().to_string(),
        source,
    })?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    Ok((listener, BoundSocket::new(path)?))
}
