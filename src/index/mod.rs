//! Derived indexes and the units they hold.

pub mod chunk;
pub mod embed;
pub mod embed_cache;
pub mod key_set;
pub mod lexical;
pub mod lexical_query;
pub mod pair_input;
pub mod priority;
pub mod reader;
pub mod span_head;
pub mod vector;
mod vector_file;
pub mod vector_origin;
