//! The knowledge graph: who is on which mail, and what facts the mail states, each
//! tied to the header line or the quote it comes from.
//!
//! Pure core: participants come from headers exactly ([`thread_people`]), people are
//! merged across addresses and spellings ([`identity`]), organisations come from
//! domains ([`organisation`]), and facts from authored sentences ([`facts`]). The
//! engine stores what a message gives as a durable job and answers lookups.

pub mod facts;
pub mod identity;
pub mod organisation;
pub mod thread_people;
