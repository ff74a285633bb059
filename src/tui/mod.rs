//! The terminal user interface: three panes (threads or the reader, chat, evidence)
//! over an engine that runs in the background.
//!
//! Keys never trigger behaviour directly. A [`keymap::KeySequencer`] for the current
//! [`keymap::Mode`] turns key events into [`command::Command`]s using a
//! [`keymap::Keymap`] (a shipped preset, patched by the user's keymap file), and the
//! UI acts on commands only. That keeps every key rebindable and lets the help overlay
//! describe exactly the keys in effect.
//!
//! One task owns the UI state ([`app::App`]); [`event_loop::run`] feeds it terminal
//! input and engine events and redraws when something changed, at most once a frame.
//! The loop takes its input as a stream, so tests and benchmarks drive it with
//! synthetic keys and a `TestBackend` instead of a terminal.

mod actions;
mod answer_events;
pub mod app;
pub mod command;
mod compose_flow;
pub mod editor;
pub mod event_loop;
pub mod help;
pub mod jumps;
pub mod key;
pub mod keymap;
pub mod layout;
mod mail_actions;
pub mod panes;
mod people_view;
mod reader_actions;
pub mod reflow;
pub mod status;
mod tagging;
pub mod terminal;
pub mod theme;
mod views;
pub mod wrap;

#[cfg(test)]
mod mail_ui_draft_tests;
#[cfg(test)]
mod mail_ui_reader_tests;
#[cfg(test)]
mod mail_ui_tests;
#[cfg(test)]
mod render_chat_tests;
#[cfg(test)]
mod render_evidence_tests;
#[cfg(test)]
mod render_list_tests;
#[cfg(test)]
mod render_reader_tests;
#[cfg(test)]
mod render_tests;
#[cfg(test)]
mod tag_ui_tests;
#[cfg(test)]
mod views_tests;

pub use app::{App, AppEvent, AppOptions};
pub use command::{Command, FocusTarget, Pane};
pub use compose_flow::ExternalJob;
pub use event_loop::{run, EngineLink, LoopOptions, LoopStats};
pub use help::{HelpOverlay, HelpState};
pub use key::{Key, KeyCode, KeySeq, Mods};
pub use keymap::{Binding, KeySequencer, Keymap, KeymapError, Mode, Preset, Step};
pub use theme::Theme;
