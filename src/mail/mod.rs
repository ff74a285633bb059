//! Mail as data: the model, MIME parsing, cleaning into segments, and threading.
//! Pure code: no I/O beyond the bytes it is given.

pub mod card;
pub mod clean;
pub mod compose;
pub mod copies;
pub mod embedded;
pub mod html;
pub mod identity;
pub mod model;
pub mod parse;
pub mod state;
pub mod thread;
