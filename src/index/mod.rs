//! Derived indexes and the units they hold.

pub mod chunk;
pub mod lexical;
pub mod lexical_query;
