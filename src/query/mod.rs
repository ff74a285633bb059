//! The query language: notmuch/mu-style syntax with positioned errors.

pub mod date_spec;
pub mod split;
pub mod syntax;
