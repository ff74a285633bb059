//! The UI task: select over terminal input, engine events and the next frame's
//! deadline; hand each event to [`App::handle`]; send the requests it queued; redraw
//! when something changed, at most once per frame.
//!
//! The input is any stream of terminal events, so the same loop serves the real
//! terminal (crossterm's `EventStream`), tests (a list of keys) and benchmarks. In
//! run-until-idle mode it returns once the input has ended, no request is awaited and
//! no background work runs, like helix's test harness.

use super::app::{App, AppEvent};
use crate::engine::handle::{EngineEvent, EngineHandle, SendRequest};
use crossterm::event::{Event, KeyEventKind};
use futures::{Stream, StreamExt};
use ratatui::backend::Backend;
use ratatui::Terminal;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The engine as the UI sees it: where requests go (a handle of its own, or the
/// engine of the server it attached to) and events come from.
pub struct EngineLink {
    pub requests: Box<dyn SendRequest>,
    pub events: mpsc::Receiver<EngineEvent>,
}

impl EngineLink {
    /// The link to a handle this UI started.
    pub fn local(handle: EngineHandle, events: mpsc::Receiver<EngineEvent>) -> Self {
        Self {
            requests: Box::new(handle),
            events,
        }
    }
}

#[derive(Debug, Clone)]
pub struct LoopOptions {
    /// Least time between two draws.
    pub frame: Duration,
    /// Return when the input has ended and nothing is pending.
    pub until_idle: bool,
    /// Take the next input event only when the app is idle, as a user who waits for
    /// each result would (tests that type a question, then act on the answer).
    pub settle_each_input: bool,
    /// In run-until-idle mode, give up after this long without any event.
    pub stall_timeout: Duration,
}

impl Default for LoopOptions {
    fn default() -> Self {
        Self {
            frame: Duration::from_millis(16),
            until_idle: false,
            settle_each_input: false,
            stall_timeout: Duration::from_secs(120),
        }
    }
}

impl LoopOptions {
    /// Options for tests: run until idle, settling after each input.
    pub fn until_idle() -> Self {
        Self {
            until_idle: true,
            settle_each_input: true,
            ..Self::default()
        }
    }
}

/// What a run measured.
#[derive(Debug, Default, Clone)]
pub struct LoopStats {
    pub frames: usize,
    /// From the start of the run to the end of the first draw.
    pub first_frame: Option<Duration>,
    /// From the start of the run to the end of the first draw with threads listed.
    pub first_threads: Option<Duration>,
    /// From each key press to the end of the draw that showed its effect, and whether
    /// background work (ingest, embedding) was running at the key.
    pub key_to_draw: Vec<(Duration, bool)>,
    /// Run-until-idle gave up waiting.
    pub stalled: bool,
}

/// Runs the UI until it quits (or, with `until_idle`, until it is idle).
pub async fn run<B, S>(
    app: &mut App,
    terminal: &mut Terminal<B>,
    mut input: S,
    link: &mut EngineLink,
    opts: &LoopOptions,
) -> std::io::Result<LoopStats>
where
    B: Backend,
    S: Stream<Item = std::io::Result<Event>> + Unpin,
{
    let started = Instant::now();
    let mut stats = LoopStats::default();
    let mut last_draw: Option<Instant> = None;
    // Keys since the last draw: each one's latency ends at the next draw.
    let mut keys_at: Vec<(Instant, bool)> = Vec::new();
    let mut input_done = false;
    let mut engine_open = true;
    loop {
        for request in app.take_requests() {
            if !link.requests.send(request) {
                app.handle(AppEvent::Engine(EngineEvent::Error {
                    req: None,
                    message: "the engine has stopped".into(),
                }));
            }
        }
        if app.should_quit() || app.wants_external() {
            break;
        }
        let now = Instant::now();
        let due = last_draw.map_or(now, |t| t + opts.frame);
        if app.is_dirty() && now >= due {
            app.draw(terminal)?;
            let drawn = Instant::now();
            last_draw = Some(drawn);
            stats.frames += 1;
            stats.first_frame.get_or_insert(drawn - started);
            if app.has_threads() {
                stats.first_threads.get_or_insert(drawn - started);
            }
            stats
                .key_to_draw
                .extend(keys_at.drain(..).map(|(t, busy)| (drawn - t, busy)));
            continue;
        }
        if opts.until_idle && input_done && app.is_idle() && !app.is_dirty() {
            break;
        }
        let take_input = !input_done && (!opts.settle_each_input || app.is_idle());
        let dirty = app.is_dirty();
        tokio::select! {
            ev = input.next(), if take_input => match ev {
                Some(Ok(ev)) => {
                    if matches!(&ev, Event::Key(k) if k.kind != KeyEventKind::Release) {
                        keys_at.push((Instant::now(), app.is_busy()));
                    }
                    app.handle(AppEvent::Term(ev));
                }
                Some(Err(e)) => return Err(e),
                None => input_done = true,
            },
            ev = link.events.recv(), if engine_open => match ev {
                Some(ev) => {
                    app.handle(AppEvent::Engine(ev));
                    // Take what else is waiting before drawing: a burst of deltas
                    // costs one frame.
                    while let Ok(ev) = link.events.try_recv() {
                        app.handle(AppEvent::Engine(ev));
                    }
                }
                None => {
                    engine_open = false;
                    app.handle(AppEvent::Engine(EngineEvent::Error {
                        req: None,
                        message: "the engine has stopped".into(),
                    }));
                }
            },
            _ = tokio::time::sleep_until(due.into()), if dirty => {}
            _ = tokio::time::sleep(opts.stall_timeout), if opts.until_idle => {
                stats.stalled = true;
                break;
            }
        }
    }
    if app.is_dirty() {
        app.draw(terminal)?;
        stats.frames += 1;
    }
    Ok(stats)
}
