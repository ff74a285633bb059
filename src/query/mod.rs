//! The query language: notmuch/mu-style syntax with positioned errors.

pub mod asks;
pub mod date_spec;
pub mod graph_intent;
pub mod natural_date;
pub mod people;
pub mod person_detail;
pub mod question;
pub mod question_type;
pub mod split;
pub mod syntax;
pub mod terms;
