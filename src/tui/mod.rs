//! The terminal user interface: key handling, commands and overlays.
//!
//! Keys never trigger behaviour directly. A [`keymap::KeySequencer`] for the current
//! [`keymap::Mode`] turns key events into [`command::Command`]s using a
//! [`keymap::Keymap`] (a shipped preset, patched by the user's keymap file), and the
//! UI acts on commands only. That keeps every key rebindable and lets the help overlay
//! describe exactly the keys in effect.

pub mod command;
pub mod help;
pub mod key;
pub mod keymap;
pub mod theme;

pub use command::{Command, FocusTarget, Pane};
pub use help::{HelpOverlay, HelpState};
pub use key::{Key, KeyCode, KeySeq, Mods};
pub use keymap::{Binding, KeySequencer, Keymap, KeymapError, Mode, Preset, Step};
pub use theme::Theme;
