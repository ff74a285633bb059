//! Keymaps: which key sequence runs which [`Command`] in which [`Mode`].
//!
//! The shipped presets live in `keymaps/default.toml` (vim-like) and
//! `keymaps/emacs.toml` and are compiled into the binary, so the program works without
//! any file on disk. A user keymap file in the config dir uses the same format and is
//! applied on top of a preset with [`Keymap::patch_toml`]; the format and the patch
//! rules are documented at the top of `keymaps/default.toml`.
//!
//! Files are checked completely before anything is applied, and every problem is
//! reported with the file's line and column, because a keymap is hand-edited and a
//! silently ignored typo would leave the user wondering why a key does nothing.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crossterm::event::{KeyEvent, KeyEventKind};
use thiserror::Error;

use super::command::{Command, CommandParseError};
use super::key::{Key, KeyParseError, KeySeq};

mod parse;

use parse::parse_entries;

/// The name of the user keymap file inside the config dir.
pub const USER_FILE_NAME: &str = "keymap.toml";

/// The input mode that decides which table of a keymap is consulted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// The thread list has the focus.
    Threads,
    /// The message reader is open.
    Reader,
    /// The chat input has the focus; unbound keys are typed into it.
    Chat,
    /// The evidence pane has the focus.
    Evidence,
    /// The search prompt is open; unbound keys are typed into it.
    Search,
}

impl Mode {
    /// Every mode, in the order keymap files usually list them.
    pub const ALL: [Mode; 5] = [
        Mode::Threads,
        Mode::Reader,
        Mode::Chat,
        Mode::Evidence,
        Mode::Search,
    ];

    /// The table name in keymap files.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Threads => "threads",
            Mode::Reader => "reader",
            Mode::Chat => "chat",
            Mode::Evidence => "evidence",
            Mode::Search => "search",
        }
    }

    /// Whether keys that match no binding are meant for a text area. In these modes
    /// only keys that cannot be typed as text (Enter, Esc, Ctrl/Alt chords, function
    /// keys) should be bound, or the user could not type them.
    pub fn is_text_input(self) -> bool {
        matches!(self, Mode::Chat | Mode::Search)
    }

    fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| s.to_string())
    }
}

/// One of the keymaps shipped with the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Preset {
    /// vim-like keys, `keymaps/default.toml`.
    #[default]
    Vim,
    /// emacs-like keys, `keymaps/emacs.toml`.
    Emacs,
}

impl Preset {
    /// The file name the preset is shipped as, used in error messages.
    pub fn origin(self) -> &'static str {
        match self {
            Preset::Vim => "keymaps/default.toml",
            Preset::Emacs => "keymaps/emacs.toml",
        }
    }

    /// The TOML text of the preset.
    pub fn source(self) -> &'static str {
        match self {
            Preset::Vim => include_str!("../../keymaps/default.toml"),
            Preset::Emacs => include_str!("../../keymaps/emacs.toml"),
        }
    }
}

impl FromStr for Preset {
    type Err = String;

    /// Accepts `vim` (or `default`) and `emacs`, as a config file would spell them.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "vim" | "default" => Ok(Preset::Vim),
            "emacs" => Ok(Preset::Emacs),
            other => Err(format!(
                "unknown keymap preset `{other}` (expected vim or emacs)"
            )),
        }
    }
}

/// Why a keymap file was rejected.
#[derive(Debug, Error)]
pub enum KeymapError {
    /// The file exists but could not be read.
    #[error("cannot read keymap file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file was read but its content is wrong at `line`:`column` (both 1-based).
    #[error("{origin}:{line}:{column}: {reason}")]
    Invalid {
        /// The file name or other label of the text.
        origin: String,
        /// 1-based line of the offending text.
        line: usize,
        /// 1-based column (in characters) of the offending text.
        column: usize,
        /// What is wrong.
        reason: InvalidReason,
    },
}

impl KeymapError {
    /// The 1-based line of the problem, when the file could be read.
    pub fn line(&self) -> Option<usize> {
        match self {
            KeymapError::Invalid { line, .. } => Some(*line),
            KeymapError::Read { .. } => None,
        }
    }

    /// What is wrong with the content, when the file could be read.
    pub fn reason(&self) -> Option<&InvalidReason> {
        match self {
            KeymapError::Invalid { reason, .. } => Some(reason),
            KeymapError::Read { .. } => None,
        }
    }
}

/// What is wrong with a keymap file's content.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InvalidReason {
    /// Not valid TOML, or not the expected shape (a missing `run`, an unknown field).
    #[error("{0}")]
    Toml(String),
    /// A table whose name is not a mode.
    #[error("unknown mode `{0}` (expected threads, reader, chat, evidence or search)")]
    UnknownMode(String),
    /// A key in `on` that cannot be parsed.
    #[error(transparent)]
    Key(#[from] KeyParseError),
    /// A `run` that is not a command.
    #[error(transparent)]
    Command(#[from] CommandParseError),
    /// `on = []`.
    #[error("`on` has no keys")]
    EmptySequence,
    /// The same key sequence twice in one mode of one file.
    #[error("`{keys}` is bound twice in [{mode}] (first on line {first_line})")]
    Duplicate {
        /// The sequence, as written by [`KeySeq`]'s `Display`.
        keys: String,
        /// The mode.
        mode: Mode,
        /// The line of the first binding.
        first_line: usize,
    },
}

/// A key sequence bound to a command, with the text the help overlay shows for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The keys to press.
    pub keys: KeySeq,
    /// The command they run.
    pub command: Command,
    /// What the help overlay says about it.
    pub desc: String,
}

/// The result of looking a (partial) key sequence up in one mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// The keys are exactly a binding.
    Exact(Command),
    /// The keys start one or more longer bindings.
    Prefix,
    /// No binding starts with these keys.
    None,
}

/// The bindings of one mode, in file order (which is also help order).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModeKeymap {
    bindings: Vec<Binding>,
}

impl ModeKeymap {
    /// All bindings in help order.
    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }

    /// Looks up keys typed so far. An exact binding wins over longer ones that start
    /// with the same keys: without timeouts there is no other moment to run it. Such
    /// longer bindings can never fire; [`ModeKeymap::unreachable`] lists them.
    pub fn lookup(&self, keys: &[Key]) -> Lookup {
        if let Some(b) = self.bindings.iter().find(|b| b.keys.keys() == keys) {
            return Lookup::Exact(b.command);
        }
        let longer = self
            .bindings
            .iter()
            .any(|b| b.keys.keys().len() > keys.len() && b.keys.keys().starts_with(keys));
        if longer {
            Lookup::Prefix
        } else {
            Lookup::None
        }
    }

    /// Every key sequence bound to `command`, in help order.
    pub fn keys_for(&self, command: &Command) -> impl Iterator<Item = &KeySeq> + '_ {
        let command = *command;
        self.bindings
            .iter()
            .filter(move |b| b.command == command)
            .map(|b| &b.keys)
    }

    /// Bindings hidden behind a shorter binding that is their prefix (say `g` and
    /// `g g`), so the program can warn about a user keymap that shadows its own keys.
    pub fn unreachable(&self) -> Vec<&Binding> {
        self.bindings
            .iter()
            .filter(|long| {
                self.bindings
                    .iter()
                    .any(|short| short.keys.is_prefix_of(&long.keys))
            })
            .collect()
    }
}

/// The bindings of every mode.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Keymap {
    modes: [ModeKeymap; 5],
}

impl Keymap {
    /// A keymap without any binding.
    pub fn empty() -> Keymap {
        Keymap::default()
    }

    /// A shipped preset. Its files are checked by the test suite, so an error here
    /// means a broken build rather than a user mistake; it is still returned, not
    /// unwrapped, so the program can report it instead of crashing.
    pub fn builtin(preset: Preset) -> Result<Keymap, KeymapError> {
        Keymap::from_toml(preset.source(), preset.origin())
    }

    /// Parses a complete keymap file. `origin` labels errors, e.g. the file path.
    pub fn from_toml(src: &str, origin: &str) -> Result<Keymap, KeymapError> {
        let mut keymap = Keymap::empty();
        keymap.patch_toml(src, origin)?;
        Ok(keymap)
    }

    /// Applies a user keymap on top of this one: an entry whose `on` is already bound
    /// in that mode replaces the binding in place, `run = "noop"` removes it, and any
    /// other entry is added at the end. Nothing is changed if the file has an error.
    pub fn patch_toml(&mut self, src: &str, origin: &str) -> Result<(), KeymapError> {
        let entries = parse_entries(src, origin)?;
        for entry in entries {
            let table = &mut self.modes[entry.mode.index()].bindings;
            let existing = table.iter().position(|b| b.keys == entry.keys);
            if entry.command == Command::Noop {
                if let Some(i) = existing {
                    table.remove(i);
                }
                continue;
            }
            let binding = Binding {
                desc: entry.desc.unwrap_or_else(|| entry.command.default_desc()),
                keys: entry.keys,
                command: entry.command,
            };
            match existing {
                Some(i) => table[i] = binding,
                None => table.push(binding),
            }
        }
        Ok(())
    }

    /// A preset patched with the user keymap at `user_file`. A missing user file is
    /// not an error: most users never write one.
    pub fn load(preset: Preset, user_file: Option<&Path>) -> Result<Keymap, KeymapError> {
        let mut keymap = Keymap::builtin(preset)?;
        if let Some(path) = user_file {
            match std::fs::read_to_string(path) {
                Ok(src) => keymap.patch_toml(&src, &path.display().to_string())?,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(KeymapError::Read {
                        path: path.to_path_buf(),
                        source,
                    })
                }
            }
        }
        Ok(keymap)
    }

    /// The bindings of one mode.
    pub fn mode(&self, mode: Mode) -> &ModeKeymap {
        &self.modes[mode.index()]
    }

    /// A sequencer for one mode, holding its own copy of the bindings so that it does
    /// not borrow the keymap for the life of the UI loop.
    pub fn sequencer(&self, mode: Mode) -> KeySequencer {
        KeySequencer::new(mode, self.mode(mode).clone())
    }
}

/// What a [`KeySequencer`] made of one more key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// The keys so far start a longer binding; wait for the next key.
    Pending,
    /// The keys so far are a binding; the sequence starts afresh.
    Matched(Command),
    /// No binding starts with these keys (all keys since the last reset, the new one
    /// last); the sequence starts afresh. In text-input modes the caller types them
    /// into the text area, see [`Key::to_event`].
    NoMatch(Vec<Key>),
    /// A key release, which never counts as a keystroke; nothing changed.
    Ignored,
}

/// Turns key events into commands for one mode, waiting when the keys so far are the
/// start of a multi-key binding such as `g g`. There are no timeouts (as in vim with
/// `notimeout`): a sequence ends when it matches or cannot match any more.
#[derive(Debug, Clone)]
pub struct KeySequencer {
    mode: Mode,
    bindings: ModeKeymap,
    pending: Vec<Key>,
}

impl KeySequencer {
    /// A sequencer over the given bindings.
    pub fn new(mode: Mode, bindings: ModeKeymap) -> KeySequencer {
        KeySequencer {
            mode,
            bindings,
            pending: Vec::new(),
        }
    }

    /// The mode this sequencer serves.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The keys typed so far of an unfinished sequence, e.g. to show `g` in a status
    /// line while waiting for the second key.
    pub fn pending(&self) -> &[Key] {
        &self.pending
    }

    /// Forgets an unfinished sequence, e.g. when the mode changes or on focus loss.
    pub fn reset(&mut self) {
        self.pending.clear();
    }

    /// Feeds one terminal event. Releases are ignored; presses and repeats count. A key
    /// that can never be bound (CapsLock, media keys) ends the sequence: it returns
    /// `NoMatch` with the keys before it, which the caller may replay.
    pub fn feed(&mut self, event: &KeyEvent) -> Step {
        if event.kind == KeyEventKind::Release {
            return Step::Ignored;
        }
        match Key::from_event(event) {
            Ok(key) => self.feed_key(key),
            Err(_) => Step::NoMatch(std::mem::take(&mut self.pending)),
        }
    }

    /// Feeds one key.
    pub fn feed_key(&mut self, key: Key) -> Step {
        self.pending.push(key);
        match self.bindings.lookup(&self.pending) {
            Lookup::Exact(command) => {
                self.pending.clear();
                Step::Matched(command)
            }
            Lookup::Prefix => Step::Pending,
            Lookup::None => Step::NoMatch(std::mem::take(&mut self.pending)),
        }
    }
}

#[cfg(test)]
#[path = "keymap_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "keymap_shipped_tests.rs"]
mod shipped_tests;
