//! Quoth: a terminal mail reader that answers questions about your mail, citing the
//! exact authored text it relies on.
//!
//! Layers, each looking only down: `mail`, `query` and `index::chunk` are pure core
//! (no I/O); `source`, `store`, `index` and `engine` own state and side effects; the
//! binary's CLI is a thin front end over [`engine::Engine`].

pub mod answer;
pub mod attach;
pub mod config;
pub mod engine;
pub mod graph;
pub mod index;
pub mod lexicon;
pub mod mail;
pub mod query;
pub mod retrieve;
pub mod serve;
pub mod shell_command;
pub mod source;
pub mod store;
pub mod terminal_text;
pub mod tui;
