//! How a turn of a conversation leans on the one before it.

/// Pronouns and demonstratives that point back to an earlier turn's topic.
#[rustfmt::skip]
pub const THING_PRONOUNS: &[&str] = &[
    "it", "its", "that", "this", "they", "them", "their", "those", "these", "there",
];

/// Pronouns that point back to a person of an earlier turn.
#[rustfmt::skip]
pub const PERSON_PRONOUNS: &[&str] = &["he", "she", "him", "her", "his", "hers"];

/// How a follow-up that leans on the previous question begins ("and when?", "what
/// about the second one?").
#[rustfmt::skip]
pub const FOLLOW_UP_OPENERS: &[&str] = &[
    "and ", "also ", "what about", "how about", "what else", "anything else", "and what",
    "then ",
];

/// How a correction of the previous question begins ("no, I meant ...").
#[rustfmt::skip]
pub const CORRECTION_OPENERS: &[&str] = &[
    "no,", "no ", "nope", "not that", "not the", "i meant", "i mean ", "actually,",
    "wrong",
];
