//! A blocking client of the server's socket, for the CLI: connect, check the
//! protocol version, send requests, read their events and result.

use super::protocol::{ApiError, Event, Greeting, Op, Reply, ReplyBody, Request, PROTOCOL_VERSION};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("the Quoth server at {socket} speaks protocol {server}, this program speaks {PROTOCOL_VERSION}: run the same version of quoth for both (stop the server, or use its quoth)")]
    Version { socket: String, server: u32 },
    #[error("the Quoth server closed the connection before answering (it stopped or was killed); run the command again")]
    Lost,
    #[error("talking to the Quoth server: {0}")]
    Io(#[from] std::io::Error),
    #[error("the Quoth server sent a line this program cannot read: {0}")]
    Garbled(String),
    #[error(transparent)]
    Api(#[from] ApiError),
}

pub struct Client {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
    next_id: u64,
    pub greeting: Greeting,
}

impl Client {
    /// Connects to the data directory's server; `Ok(None)` when none is running.
    pub fn connect(data_dir: &Path) -> Result<Option<Client>, ClientError> {
        let path = super::socket_path(data_dir);
        // A socket file nobody listens on (a server killed), or a server that
        // stopped as this client connected: none is running.
        let stream = match UnixStream::connect(&path) {
            Ok(s) => s,
            Err(e) if gone(&e) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) if gone(&e) => return Ok(None),
            Err(e) => return Err(e.into()),
        }
        let Some(greeting) = usable_greeting(&line, &path, data_dir)? else {
            return Ok(None);
        };
        Ok(Some(Client {
            reader,
            writer: stream,
            next_id: 1,
            greeting,
        }))
    }

    /// Sends one request and reads until its result; events go to `on_event`.
    pub fn call(
        &mut self,
        op: Op,
        on_event: &mut dyn FnMut(Event),
    ) -> Result<serde_json::Value, ClientError> {
        let id = self.next_id;
        self.next_id += 1;
        let mut line = serde_json::to_string(&Request { id, op })
            .map_err(|e| ClientError::Garbled(e.to_string()))?;
        line.push('\n');
        self.writer.write_all(line.as_bytes())?;
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line)? == 0 {
                return Err(ClientError::Lost);
            }
            let reply: Reply = serde_json::from_str(line.trim())
                .map_err(|e| ClientError::Garbled(e.to_string()))?;
            // Id 0 answers a request the server could not read at all: this one, as
            // this client has one request in flight at a time.
            if reply.id != id && reply.id != 0 {
                continue;
            }
            match reply.body {
                ReplyBody::Event(e) => on_event(e),
                ReplyBody::Result(v) => return Ok(v),
                ReplyBody::Error(e) => return Err(ClientError::Api(e)),
            }
        }
    }
}

/// Whether a connection failed because no server is there: a socket file nobody
/// listens on (a server killed), or a server that stopped as the client came.
pub(super) fn gone(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound
            | std::io::ErrorKind::ConnectionRefused
            | std::io::ErrorKind::ConnectionReset
    )
}

/// The greeting line of the server at `socket`, when this client may talk to it:
/// an error for another protocol version, `None` for a server of a store no longer
/// at `data_dir`'s path (removed or made anew), which is leaving: as if none ran.
pub(super) fn usable_greeting(
    line: &str,
    socket: &Path,
    data_dir: &Path,
) -> Result<Option<Greeting>, ClientError> {
    let greeting: Greeting =
        serde_json::from_str(line.trim()).map_err(|e| ClientError::Garbled(e.to_string()))?;
    if greeting.protocol != PROTOCOL_VERSION {
        return Err(ClientError::Version {
            socket: socket.display().to_string(),
            server: greeting.protocol,
        });
    }
    Ok(greeting.serves(data_dir).then_some(greeting))
}

/// Longest wait for a background server to exit once asked to stop.
const STOP_WAIT: std::time::Duration = std::time::Duration::from_secs(45);

/// Stops the data directory's server when it runs in the background for clients
/// (its idle exit would stop it anyway), and waits until its process has gone, so
/// the caller can open the data directory itself. Returns whether one was stopped;
/// a foreground `quoth serve` or an open UI is left alone.
pub fn stop_background(data_dir: &Path) -> Result<bool, ClientError> {
    let Some(mut client) = Client::connect(data_dir)? else {
        return Ok(false);
    };
    if !client.greeting.background {
        return Ok(false);
    }
    let pid = client.greeting.pid;
    match client.call(Op::Shutdown, &mut |_| {}) {
        Ok(_) | Err(ClientError::Lost) => {}
        Err(e) => return Err(e),
    }
    drop(client);
    let started = std::time::Instant::now();
    while process_runs(pid) {
        if started.elapsed() > STOP_WAIT {
            return Err(ClientError::Io(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!(
                    "the background Quoth server (process {pid}) did not stop within {} s",
                    STOP_WAIT.as_secs()
                ),
            )));
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Ok(true)
}

/// Whether process `pid` still runs. A zombie (exited, not yet reaped) does not,
/// once all its threads are gone: the first thread turns zombie while the others
/// still exit, and the process's files (its socket, the store's lock) close only
/// with the last.
pub fn process_runs(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state is the field after the parenthesised command name.
        Ok(stat) => {
            let zombie = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .is_none_or(|state| state == "Z" || state == "X");
            let threads = std::fs::read_dir(format!("/proc/{pid}/task"))
                .map(|d| d.count())
                .unwrap_or(0);
            !zombie || threads > 1
        }
        // Without /proc (not Linux): whether a signal could reach it.
        Err(_) if !Path::new("/proc/self").exists() => {
            // SAFETY: signal 0 only checks that the process exists.
            i32::try_from(pid).is_ok_and(|pid| unsafe { libc::kill(pid, 0) } == 0)
        }
        Err(_) => false,
    }
}
