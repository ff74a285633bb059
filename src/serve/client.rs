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
        let stream = match UnixStream::connect(&path) {
            Ok(s) => s,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused
                ) =>
            {
                return Ok(None)
            }
            Err(e) => return Err(e.into()),
        };
        let mut reader = BufReader::new(stream.try_clone()?);
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Err(ClientError::Lost);
        }
        let greeting: Greeting =
            serde_json::from_str(line.trim()).map_err(|e| ClientError::Garbled(e.to_string()))?;
        if greeting.protocol != PROTOCOL_VERSION {
            return Err(ClientError::Version {
                socket: path.display().to_string(),
                server: greeting.protocol,
            });
        }
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
