//! Dates and times: months, holidays, words of a day or time, and what joins one date.

/// Month names and their usual abbreviations, with the month number.
#[rustfmt::skip]
pub const MONTHS: &[(&str, u32)] = &[
    ("january", 1), ("jan", 1), ("february", 2), ("feb", 2), ("march", 3), ("mar", 3),
    ("april", 4), ("apr", 4), ("may", 5), ("june", 6), ("jun", 6), ("july", 7),
    ("jul", 7), ("august", 8), ("aug", 8), ("september", 9), ("sept", 9), ("sep", 9),
    ("october", 10), ("oct", 10), ("november", 11), ("nov", 11), ("december", 12),
    ("dec", 12),
];

/// Holidays a question may date itself by, with their (usual) month and day.
#[rustfmt::skip]
pub const HOLIDAYS: &[(&str, u32, u32)] = &[
    ("christmas", 12, 25), ("thanksgiving", 11, 22), ("new year", 1, 1),
    ("halloween", 10, 31), ("independence day", 7, 4), ("july 4th", 7, 4),
];

/// Words that name a day or a time of day without digits ("on Friday", "tomorrow
/// morning"): a sentence holding one states when.
#[rustfmt::skip]
pub const TIME_WORDS: &[&str] = &[
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon",
    "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "today", "tomorrow",
    "tonight", "yesterday", "noon", "midnight", "morning", "afternoon", "evening", "week",
    "weekend", "month", "year", "quarter",
];

/// Words that may join the parts of one date or time expression ("Friday, May 3
/// at 9:00", "May 3 from 2 pm"): a short answer keeps the whole expression.
pub const DATE_JOINERS: &[&str] = &["at", "from", "to", "until", "till", "on", "of", "the"];

/// Time words too vague to be a short answer when a date is also given.
pub const VAGUE_TIME_WORDS: &[&str] = &["week", "weekend", "month", "year", "quarter"];

/// The month number of a month name or abbreviation.
pub fn month_number(word: &str) -> Option<u32> {
    MONTHS.iter().find(|(n, _)| *n == word).map(|(_, m)| *m)
}
