//! The panes of the main screen, each with its state and its drawing.

pub mod chat;
pub mod evidence;
pub mod folders;
pub mod picker;
pub mod reader;
pub mod threads;
