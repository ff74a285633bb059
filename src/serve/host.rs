//! A process that holds a data directory's engine: `quoth serve`, a command's own
//! server (`QUOTH_INLINE=1`), a UI with an engine of its own (IMAP accounts to
//! watch, a language model), and the offline rebuild. Every front end reaches the
//! engine through the handle these start, or through the socket they serve; none
//! opens it itself.

use super::client::{stop_background, Client, ClientError};
use super::{run, serve_alongside, Alongside, Listening, ServeError, ServeOptions};
use crate::answer::Answerer;
use crate::engine::handle::{EngineEvent, EngineHandle, EngineRequest, HandleOptions};
use crate::engine::{Engine, EngineError, IngestProgress, IngestReport};
use std::path::{Path, PathBuf};
use tokio::sync::mpsc;

#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("{} is in use by a running Quoth (its UI or `quoth serve`), and this needs it to itself: quit that first ({why})", dir.display())]
    InUse { dir: PathBuf, why: String },
    #[error("opening the Quoth data directory {}: {source}", dir.display())]
    Open { dir: PathBuf, source: EngineError },
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error(transparent)]
    Serve(#[from] ServeError),
}

/// Opens the data directory's engine in this process. With `take_over`, a
/// background server holding it is stopped first; a server that holds it otherwise
/// (a UI, a foreground `quoth serve`, or a background server that won a race)
/// makes this fail.
fn open(data_dir: &Path, take_over: bool) -> Result<Engine, HostError> {
    if take_over {
        stop_background(data_dir)?;
    }
    Engine::open(data_dir).map_err(|source| {
        if matches!(Client::connect(data_dir), Ok(Some(_))) {
            HostError::InUse {
                dir: data_dir.to_path_buf(),
                why: source.to_string(),
            }
        } else {
            HostError::Open {
                dir: data_dir.to_path_buf(),
                source,
            }
        }
    })
}

/// Serves the data directory until the server stops (see [`run`]); `take_over` as
/// for [`open`]. `ready` runs once the listeners are bound.
pub fn serve(
    data_dir: &Path,
    take_over: bool,
    opts: ServeOptions,
    ready: impl FnOnce(&Listening),
) -> Result<(), HostError> {
    let engine = open(data_dir, take_over)?;
    Ok(run(engine, opts, ready)?)
}

/// A UI's own engine: its handle, the events the UI shows, the socket other clients
/// reach it through, and what the user should be told.
pub struct OwnFrontEnd {
    pub handle: EngineHandle,
    pub events: mpsc::Receiver<EngineEvent>,
    /// The socket served beside the UI; None when it could not be bound (a note
    /// says why).
    pub alongside: Option<Alongside>,
    pub notes: Vec<String>,
}

/// Opens the data directory for a UI in this process (a background server holding
/// it is stopped first) and serves its socket beside it, so the CLI, other clients
/// and the UIs of other terminals reach the engine through it. `reveal` names a
/// message (Message-ID or key) to show first.
pub fn own_front_end(
    data_dir: &Path,
    runtime: &tokio::runtime::Handle,
    answerer: Box<dyn Answerer + Send + Sync>,
    options: HandleOptions,
    reveal: Option<&str>,
) -> Result<OwnFrontEnd, HostError> {
    let engine = open(data_dir, true)?;
    // What opening the data directory repaired, where the user looks.
    let mut notes = engine.open_notes().to_vec();
    let shown = match reveal.map(|id| engine.find_message(id)) {
        Some(Ok(m)) => Some(m.key),
        Some(Err(e)) => {
            notes.push(format!("cannot open that message: {e}"));
            None
        }
        None => None,
    };
    let (handle, events) = EngineHandle::start_with(engine, answerer, runtime, options);
    let api = super::api::Api::over(&handle).with_front_end();
    if let Some(key) = shown {
        handle.send(EngineRequest::Reveal { key });
    }
    let alongside = match serve_alongside(api, data_dir, runtime) {
        Ok(a) => Some(a),
        Err(e) => {
            notes.push(format!("other clients cannot reach this UI: {e}"));
            None
        }
    };
    Ok(OwnFrontEnd {
        handle,
        events,
        alongside,
        notes,
    })
}

/// Builds the store anew from the mail sources it recorded (a schema change),
/// with the data directory to itself: a background server is stopped, and a UI or
/// a foreground server makes this fail.
pub fn rebuild(
    data_dir: &Path,
    progress: &mut dyn FnMut(&IngestProgress),
) -> Result<IngestReport, HostError> {
    stop_background(data_dir)?;
    if Client::connect(data_dir)?.is_some() {
        return Err(HostError::InUse {
            dir: data_dir.to_path_buf(),
            why: "a rebuild replaces its store".into(),
        });
    }
    Engine::rebuild(data_dir, progress).map_err(|source| HostError::Open {
        dir: data_dir.to_path_buf(),
        source,
    })
}
