//! Values and facts: units, money and number words, and the verbs that join a named thing to its value.

/// Units and scale words that make a number a quantity ("5,000 MMBtu", "2 million").
#[rustfmt::skip]
pub const QUANTITY_UNITS: &[&str] = &[
    "million", "billion", "thousand", "hundred", "percent", "dollars", "cents", "mm",
    "mmbtu", "mw", "mwh", "kw", "kwh", "bcf", "mmcf", "dth", "k", "bps", "shares", "units",
    "miles", "acres", "feet", "sq", "sf", "hours", "days", "weeks", "months", "years",
    "people", "employees",
];

/// Words that make a number a sum of money ("750 dollars").
#[rustfmt::skip]
pub const MONEY_WORDS: &[&str] = &[
    "dollars", "dollar", "cents", "usd", "bucks", "euros", "euro", "pounds", "eur", "gbp",
];

/// Number words, for quantities written out ("three brokerage firms").
#[rustfmt::skip]
pub const NUMBER_WORDS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "hundred", "dozen", "half",
];

/// Verbs that join a named thing to its value in a statement of fact ("the strike
/// price is $14.50", "the review has been moved to Friday"): a value they link to
/// the words before them is that thing's value.
#[rustfmt::skip]
pub const FACT_VERBS: &[&str] = &[
    "is", "was", "are", "were", "be", "been", "remains", "remain", "stays", "becomes",
    "became", "moved", "changed", "set", "pushed", "rescheduled", "revised", "raised",
    "lowered", "reduced", "increased", "updated", "equals", "totals", "comes",
];

/// Little words that may stand between a fact's verb and its value ("moved to",
/// "is now", "will be at", "has been set for").
#[rustfmt::skip]
pub const FACT_LINK_WORDS: &[&str] = &[
    "now", "still", "to", "at", "for", "on", "by", "until", "from", "of", "in", "will",
    "has", "have", "had", "would", "should", "be", "been", "back", "out", "up", "down",
    "going", "currently", "then", "also", "actually", "approximately", "about", "around",
];

/// Words that say a value replaces an earlier one ("the meeting has moved to ...",
/// "CORRECTION: ..."), a feature of the later sentence.
#[rustfmt::skip]
pub const REVISION_CUES: &[&str] = &[
    "correction", "corrected", "revised", "revision", "updated", "update", "moved",
    "rescheduled", "changed", "instead", "now", "new", "final", "postponed", "pushed",
];

/// Verbs that move a value "from" one "to" another ("has changed from 7C to 1140",
/// "the rent rose from $900 to $950"): the value after "to" is the one that stands.
#[rustfmt::skip]
pub const CHANGE_VERBS: &[&str] = &[
    "change", "changed", "changes", "move", "moved", "moves", "raise", "raised",
    "increase", "increased", "reduce", "reduced", "lower", "lowered", "cut",
    "reschedule", "rescheduled", "shift", "shifted", "push", "pushed", "switch",
    "switched", "update", "updated", "revise", "revised", "bump", "bumped", "drop",
    "dropped", "rose", "risen", "fell", "fallen", "went", "gone", "jumped", "slipped",
    "postponed", "extended",
];
