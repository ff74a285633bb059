//! The Unix socket front of the server: one task per connection reads request lines
//! and runs each on the blocking pool, so a slow question on one connection never
//! holds up a search on another; replies go out through one writer per connection.

use super::api::Api;
use super::protocol::{
    ApiError, ErrorKind, Event, EventKind, Greeting, Op, Reply, ReplyBody, Request,
};
use super::Lifetime;
use crate::engine::handle::{EngineEvent, EngineRequest, WatchLease};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::unix::OwnedReadHalf;
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::mpsc;

/// Longest request line accepted; a longer one closes the connection.
const MAX_LINE: usize = 1 << 20;

pub async fn accept_loop(listener: UnixListener, api: Arc<Api>, life: Arc<Lifetime>) {
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let (api, life) = (api.clone(), life.clone());
                    tokio::spawn(async move { connection(stream, api, life).await });
                }
                Err(e) => eprintln!("quoth serve: accepting a connection: {e}"),
            },
            _ = life.stopped() => return,
        }
    }
}

async fn connection(stream: UnixStream, api: Arc<Api>, life: Arc<Lifetime>) {
    let _open = life.connection();
    let (read, mut write) = stream.into_split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let writer = tokio::spawn(async move {
        while let Some(mut line) = rx.recv().await {
            line.push('\n');
            if write.write_all(line.as_bytes()).await.is_err() {
                return;
            }
        }
    });
    let send = |tx: &mpsc::UnboundedSender<String>, reply: &Reply| {
        if let Ok(line) = serde_json::to_string(reply) {
            let _ = tx.send(line);
        }
    };
    if let Ok(line) = serde_json::to_string(&Greeting::current(
        life.background,
        life.store_id(),
        life.started_unix,
        life.take_notes(),
    )) {
        let _ = tx.send(line);
    }
    let mut reader = BufReader::new(read);
    let mut line = String::new();
    loop {
        match next_line(&mut reader, &mut line).await {
            Line::Read => {}
            Line::End => break,
            Line::TooLong => {
                send(
                    &tx,
                    &error_reply(0, ErrorKind::BadRequest, "request line too long"),
                );
                break;
            }
        }
        life.touch();
        if line.trim().is_empty() {
            continue;
        }
        let request: Request = match serde_json::from_str(line.trim()) {
            Ok(r) => r,
            Err(e) => {
                let id = serde_json::from_str::<serde_json::Value>(line.trim())
                    .ok()
                    .and_then(|v| v.get("id").and_then(|i| i.as_u64()))
                    .unwrap_or(0);
                send(
                    &tx,
                    &error_reply(id, ErrorKind::BadRequest, &format!("not a request: {e}")),
                );
                continue;
            }
        };
        if request.op == Op::Attach {
            send(
                &tx,
                &Reply {
                    id: request.id,
                    body: ReplyBody::Result(serde_json::json!({"attached": true})),
                },
            );
            attached(reader, &tx, &api, &life).await;
            break;
        }
        if let Op::Watch {
            config,
            account,
            batch,
            retries,
        } = &request.op
        {
            let runtime = tokio::runtime::Handle::current();
            match api.watch(&runtime, config, account.as_deref(), *batch, *retries) {
                Ok(lease) => {
                    watching(request.id, reader, &tx, lease, &life).await;
                    break;
                }
                Err(e) => {
                    send(
                        &tx,
                        &Reply {
                            id: request.id,
                            body: ReplyBody::Error(e),
                        },
                    );
                    continue;
                }
            }
        }
        if request.op == Op::Shutdown && life.background {
            send(
                &tx,
                &Reply {
                    id: request.id,
                    body: ReplyBody::Result(serde_json::json!({"stopping": true})),
                },
            );
            life.stop(super::Ending::Asked);
            continue;
        }
        let (api, tx, life) = (api.clone(), tx.clone(), life.clone());
        tokio::task::spawn_blocking(move || {
            let _busy = life.busy();
            let id = request.id;
            let mut on_event = |kind, text| {
                send(
                    &tx,
                    &Reply {
                        id,
                        body: ReplyBody::Event(Event { kind, text }),
                    },
                );
            };
            let body = match api.call(request.op, &mut on_event) {
                Ok(v) => ReplyBody::Result(v),
                Err(e) => ReplyBody::Error(e),
            };
            send(&tx, &Reply { id, body });
        });
    }
    drop(tx);
    let _ = writer.await;
}

/// Serves an attached front end: engine requests in, engine events out, until the
/// client closes the connection.
async fn attached(
    mut reader: BufReader<OwnedReadHalf>,
    tx: &mpsc::UnboundedSender<String>,
    api: &Api,
    life: &Lifetime,
) {
    let (front_end, mut events) = api.attach();
    let out = tx.clone();
    let forward = tokio::spawn(async move {
        while let Some(event) = events.recv().await {
            match serde_json::to_string(&event) {
                Ok(line) => {
                    if out.send(line).is_err() {
                        return;
                    }
                }
                Err(e) => eprintln!("quoth serve: an event could not be written: {e}"),
            }
        }
    });
    let mut line = String::new();
    while let Line::Read = next_line(&mut reader, &mut line).await {
        life.touch();
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<EngineRequest>(line.trim()) {
            Ok(request) => {
                if !front_end.send(request) {
                    break;
                }
            }
            Err(e) => {
                let event = EngineEvent::Error {
                    req: None,
                    message: format!("not an engine request: {e}"),
                };
                if let Ok(line) = serde_json::to_string(&event) {
                    let _ = tx.send(line);
                }
            }
        }
    }
    drop(front_end);
    forward.abort();
}

/// Streams a watch's reports to its client, each a progress event of request
/// `id`, until the client closes the connection or the watch ends; the lease goes
/// with the connection.
async fn watching(
    id: u64,
    mut reader: BufReader<OwnedReadHalf>,
    tx: &mpsc::UnboundedSender<String>,
    mut lease: WatchLease,
    life: &Lifetime,
) {
    let mut line = String::new();
    loop {
        tokio::select! {
            report = lease.reports.recv() => {
                let Some(report) = report else { return };
                let Ok(text) = serde_json::to_string(&report) else { continue };
                let event = Reply {
                    id,
                    body: ReplyBody::Event(Event { kind: EventKind::Progress, text }),
                };
                let Ok(line) = serde_json::to_string(&event) else { continue };
                if tx.send(line).is_err() {
                    return;
                }
            }
            read = next_line(&mut reader, &mut line) => {
                // The client says nothing more on a watch: any line only keeps it
                // alive, and its end ends the watch.
                if !matches!(read, Line::Read) {
                    return;
                }
                life.touch();
            }
        }
    }
}

/// What reading one line of a connection gave.
enum Line {
    Read,
    /// The client closed the connection, or it failed.
    End,
    /// Longer than [`MAX_LINE`]: the connection is closed.
    TooLong,
}

/// Reads the next line of a connection into `line` (cleared first), at most
/// [`MAX_LINE`] bytes of it.
async fn next_line(reader: &mut BufReader<OwnedReadHalf>, line: &mut String) -> Line {
    line.clear();
    match reader.take(MAX_LINE as u64).read_line(line).await {
        Ok(0) | Err(_) => Line::End,
        Ok(n) if !line.ends_with('\n') && n >= MAX_LINE => Line::TooLong,
        Ok(_) => Line::Read,
    }
}

fn error_reply(id: u64, kind: ErrorKind, message: &str) -> Reply {
    Reply {
        id,
        body: ReplyBody::Error(ApiError::new(kind, message)),
    }
}
