//! A front end of the engine another process runs: the UI of a second terminal
//! attaches to the data directory's server (`attach` in [`super::protocol`]) and
//! then sends the engine handle's requests and reads its events over the socket,
//! as it would from a handle of its own.
//!
//! When the server goes (the UI that ran it quit, or it was killed), the link says
//! so, has a server started again (the caller says how) and attaches to it; the
//! thread list is asked for again, so the UI goes on where it was.

use super::client::{gone, usable_greeting, ClientError};
use super::protocol::{Greeting, Op, Reply, ReplyBody, Request};
use crate::engine::handle::{EngineEvent, EngineRequest, SendRequest};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::unix::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::UnixStream;
use tokio::sync::mpsc;

/// Events waiting for the UI; the socket is read no faster than it takes them.
const EVENT_CAPACITY: usize = 256;

/// Starts a server for the data directory when none runs (blocking; an error says
/// why it could not).
pub type StartServer = Arc<dyn Fn() -> Result<(), String> + Send + Sync>;

/// The sending side of an attached front end.
pub struct RemoteEngine {
    requests: mpsc::UnboundedSender<EngineRequest>,
}

impl SendRequest for RemoteEngine {
    /// Queues a request; false once the link has given up.
    fn send(&self, request: EngineRequest) -> bool {
        self.requests.send(request).is_ok()
    }
}

/// An attached connection, after the handshake.
struct Attached {
    /// Its lines (reading a line is safe to cancel: none is lost).
    reader: Lines<BufReader<OwnedReadHalf>>,
    writer: OwnedWriteHalf,
    greeting: Greeting,
}

/// Attaches to the running server of `data_dir`; `Ok(None)` when none runs. The link
/// runs on the current tokio runtime until the returned engine is dropped.
pub async fn attach(
    data_dir: &Path,
    start_server: StartServer,
) -> Result<Option<(RemoteEngine, mpsc::Receiver<EngineEvent>, Greeting)>, ClientError> {
    let Some(first) = connect(data_dir).await? else {
        return Ok(None);
    };
    let greeting = first.greeting.clone();
    let (req_tx, req_rx) = mpsc::unbounded_channel();
    let (ev_tx, ev_rx) = mpsc::channel(EVENT_CAPACITY);
    tokio::spawn(run_link(
        first,
        req_rx,
        ev_tx,
        data_dir.to_path_buf(),
        start_server,
    ));
    Ok(Some((RemoteEngine { requests: req_tx }, ev_rx, greeting)))
}

/// Connects, checks the protocol version and attaches; `Ok(None)` when no server
/// listens.
async fn connect(data_dir: &Path) -> Result<Option<Attached>, ClientError> {
    let path = super::socket_path(data_dir);
    let stream = match UnixStream::connect(&path).await {
        Ok(s) => s,
        Err(e) if gone(&e) => return Ok(None),
        Err(e) => return Err(e.into()),
    };
    let (read, mut writer) = stream.into_split();
    let mut reader = BufReader::new(read);
    let mut line = String::new();
    match reader.read_line(&mut line).await {
        Ok(0) => return Ok(None),
        Ok(_) => {}
        Err(e) if gone(&e) => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    let Some(greeting) = usable_greeting(&line, &path, data_dir)? else {
        return Ok(None);
    };
    let mut request = serde_json::to_string(&Request {
        id: 1,
        op: Op::Attach,
    })
    .map_err(|e| ClientError::Garbled(e.to_string()))?;
    request.push('\n');
    writer.write_all(request.as_bytes()).await?;
    loop {
        line.clear();
        if reader.read_line(&mut line).await? == 0 {
            // It stopped as this client came: as if none ran.
            return Ok(None);
        }
        let reply: Reply =
            serde_json::from_str(line.trim()).map_err(|e| ClientError::Garbled(e.to_string()))?;
        match reply.body {
            ReplyBody::Result(_) if reply.id == 1 => break,
            ReplyBody::Error(e) => return Err(ClientError::Api(e)),
            _ => {}
        }
    }
    Ok(Some(Attached {
        reader: reader.lines(),
        writer,
        greeting,
    }))
}

/// Why a connection's service ended.
enum Ended {
    /// The front end dropped its engine: the link is done.
    FrontEndGone,
    /// The server closed the connection or could not be written to.
    ServerGone,
}

async fn run_link(
    mut current: Attached,
    mut requests: mpsc::UnboundedReceiver<EngineRequest>,
    events: mpsc::Sender<EngineEvent>,
    data_dir: PathBuf,
    start_server: StartServer,
) {
    loop {
        match serve_connection(&mut current, &mut requests, &events).await {
            Ended::FrontEndGone => return,
            Ended::ServerGone => {}
        }
        let note = |message: String| EngineEvent::Error { req: None, message };
        let _ = events
            .send(note(format!(
                "the Quoth server (process {}) stopped; starting another",
                current.greeting.pid
            )))
            .await;
        match reattach(&data_dir, &start_server).await {
            Ok(next) => {
                current = next;
                // Whatever changed meanwhile, the list shows it.
                let line = serde_json::to_string(&EngineRequest::Threads).unwrap_or_default();
                if write_line(&mut current.writer, line).await.is_err() {
                    continue;
                }
            }
            Err(e) => {
                let _ = events
                    .send(note(format!("the Quoth server cannot be reached: {e}")))
                    .await;
                return;
            }
        }
    }
}

/// Attaches again, starting a server when none runs.
async fn reattach(data_dir: &Path, start_server: &StartServer) -> Result<Attached, String> {
    const TRIES: u32 = 3;
    let mut last = String::from("no server started");
    for _ in 0..TRIES {
        match connect(data_dir).await {
            Ok(Some(a)) => return Ok(a),
            Ok(None) => {}
            Err(e) => last = e.to_string(),
        }
        let start = start_server.clone();
        match tokio::task::spawn_blocking(move || start()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => last = e,
            Err(e) => last = e.to_string(),
        }
    }
    Err(last)
}

async fn write_line(writer: &mut OwnedWriteHalf, mut line: String) -> std::io::Result<()> {
    line.push('\n');
    writer.write_all(line.as_bytes()).await
}

/// Carries requests out and events in until one side goes.
async fn serve_connection(
    current: &mut Attached,
    requests: &mut mpsc::UnboundedReceiver<EngineRequest>,
    events: &mpsc::Sender<EngineEvent>,
) -> Ended {
    loop {
        tokio::select! {
            request = requests.recv() => match request {
                Some(request) => {
                    let Ok(text) = serde_json::to_string(&request) else { continue };
                    if write_line(&mut current.writer, text).await.is_err() {
                        return Ended::ServerGone;
                    }
                }
                None => return Ended::FrontEndGone,
            },
            read = current.reader.next_line() => {
                let Ok(Some(line)) = read else {
                    return Ended::ServerGone;
                };
                let event = serde_json::from_str::<EngineEvent>(line.trim()).unwrap_or_else(|e| {
                    EngineEvent::Error {
                        req: None,
                        message: format!("the Quoth server sent an event this program cannot read: {e}"),
                    }
                });
                if events.send(event).await.is_err() {
                    return Ended::FrontEndGone;
                }
            }
        }
    }
}
