//! How the extractive answerer reads a question: what it asks for (its focus noun and
//! the kind of value that answers it), the names and codes it gives, and the signs
//! that a sentence speaks of another thing of the same kind ("the access code" for
//! "the gate code", "a market value" for "what it sold for").

use super::terms::{content_words, is_stop, stem};
use crate::answer::features::proper_names;
use crate::query::people::full_names;
use crate::query::plan::QuestionType;
use std::collections::{HashMap, HashSet};

/// What a question asks for, as the answerer reads it.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The question type, narrowed by the focus noun: "what was the winning bid"
    /// wants an amount, "which room" a place.
    pub qtype: QuestionType,
    /// The focus phrase's stems ("which hotel" → hotel).
    pub focus: Vec<String>,
    /// The focus names a kind of place, which the answer may name without the noun
    /// ("in EB49C1" answers "which room").
    pub place: bool,
    /// The focus names a quantity ("score", "number", "rate"): any figure may answer.
    pub quantity: bool,
}

/// Focus nouns that ask for an amount.
const QUANTITY_NOUNS: &[&str] = &[
    "score", "bid", "rate", "price", "cost", "value", "budget", "fee", "salary", "amount",
    "number", "total", "balance", "payoff", "rent", "volume", "count", "figure", "premium",
];
/// Focus nouns that ask for a date.
const DATE_NOUNS: &[&str] = &["date", "dates", "day", "days", "deadline"];
/// Focus nouns that ask for a place.
const PLACE_NOUNS: &[&str] = &[
    "room",
    "hotel",
    "restaurant",
    "address",
    "location",
    "venue",
    "building",
    "place",
    "city",
    "office",
    "floor",
];

impl Reading {
    pub fn of(question: &str, qtype: QuestionType) -> Self {
        let focus = match qtype {
            QuestionType::When | QuestionType::HowMuch => Vec::new(),
            _ => focus_terms(question),
        };
        let head = focus.last().cloned().unwrap_or_default();
        let is = |nouns: &[&str]| nouns.iter().any(|n| stem(n) == head);
        let quantity = is(QUANTITY_NOUNS);
        let place = !quantity && is(PLACE_NOUNS);
        let qtype = if quantity {
            QuestionType::HowMuch
        } else if is(DATE_NOUNS) {
            QuestionType::When
        } else if place {
            QuestionType::Where
        } else {
            qtype
        };
        Self {
            qtype,
            focus,
            place,
            quantity,
        }
    }
}

/// Words that end a question's focus phrase ("which hotel did ...").
const FOCUS_STOP: &[&str] = &[
    "is", "was", "are", "were", "did", "does", "do", "will", "would", "has", "have", "had",
    "should", "can", "could", "in", "on", "at", "for", "of", "to", "from", "with", "about", "by",
    "that", "which", "who", "we", "i", "he", "she", "they", "you", "it", "my", "our", "his", "her",
    "their", "and", "or", "when", "where", "if", "per",
];

/// Words after "what was" that name no thing.
const NOT_NOUNS: &[&str] = &[
    "wrong",
    "happened",
    "happening",
    "decided",
    "agreed",
    "said",
    "up",
    "missing",
    "different",
    "done",
];

/// The thing a "which …" or "what …" question asks for: "Which hotel did they stay
/// at?" → hotel; "What was the winning bid?" → winning, bid. An answer must name it;
/// a sentence about the same people and place that names no hotel is a near miss.
pub fn focus_terms(question: &str) -> Vec<String> {
    let raw_words: Vec<String> = question
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect();
    let words: Vec<String> = raw_words.iter().map(|w| w.replace("'s", "")).collect();
    let Some(start) = words.iter().position(|w| w == "which" || w == "what") else {
        return Vec::new();
    };
    let mut i = start + 1;
    // "what was the X", "what's the X", "what is the X".
    if words
        .get(i)
        .is_some_and(|w| ["was", "is", "are", "were"].contains(&w.as_str()))
    {
        i += 1;
    }
    while words.get(i).is_some_and(|w| {
        [
            "the", "a", "an", "kind", "type", "sort", "name", "names", "of",
        ]
        .contains(&w.as_str())
    }) {
        i += 1;
    }
    let mut out = Vec::new();
    while let Some(w) = words.get(i) {
        if FOCUS_STOP.contains(&w.as_str()) || out.len() == 3 {
            break;
        }
        // A possessor is not the focus: "Matt Smith's final score" → final score.
        if raw_words.get(i).is_some_and(|r| r.ends_with("'s")) {
            out.clear();
            i += 1;
            continue;
        }
        let w = w.trim_matches('\'');
        if !is_stop(w) {
            out.push(stem(w));
        }
        i += 1;
    }
    // "what was wrong", "what happened": no focus noun.
    if out
        .first()
        .is_some_and(|w| NOT_NOUNS.iter().any(|n| stem(n) == *w))
    {
        return Vec::new();
    }
    // "what did X do" has no focus noun: the first word after "what" was a verb.
    if words.get(start + 1).is_some_and(|w| {
        [
            "did", "does", "do", "will", "would", "should", "can", "could", "has", "have", "had",
        ]
        .contains(&w.as_str())
    }) {
        return Vec::new();
    }
    out
}

/// The names and codes a question gives (capitalised words past the first, words
/// of letters and digits), as stems; words that only scope the search (weight 0) are left out.
pub fn anchors(question: &str, weights: &HashMap<String, f32>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // Codes mix letters and digits (N5733, i2); bare numbers and dates are written
    // too many ways ("April 20" and "4/20") to be required.
    let numbered = question
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(|c| c.is_alphabetic()))
        .map(str::to_string);
    for w in proper_names(question).into_iter().chain(numbered) {
        for word in content_words(&w) {
            // Scope words weigh 0; a title is not a name.
            if weights.get(&word).is_some_and(|x| *x <= 0.0) || TITLES.contains(&word.as_str()) {
                continue;
            }
            let st = stem(&word);
            if !out.contains(&st) {
                out.push(st);
            }
        }
    }
    out
}

/// Titles that go before a name and may be left out where the name is given.
const TITLES: &[&str] = &[
    "mr",
    "mrs",
    "ms",
    "dr",
    "chancellor",
    "president",
    "chairman",
    "ceo",
    "senator",
    "governor",
    "mayor",
    "professor",
    "judge",
    "father",
    "secretary",
    "minister",
    "ambassador",
    "director",
    "vice",
];

/// Whether a set of stems mentions an anchor: the same stem, a word it begins
/// ("Ken" in "Kenneth", "geotech" in "geotechnical"), the name a nickname is short
/// for ("Liz" for "Elizabeth"), or a long word misspelt by one letter ("Chancelor").
pub fn mentions(stems: &HashSet<String>, anchor: &str) -> bool {
    stems.contains(anchor)
        || (anchor.len() >= 3
            && stems
                .iter()
                .any(|s| s.len() > anchor.len() && s.starts_with(anchor)))
        || full_names(anchor).any(|full| stems.contains(&stem(full)))
        || (anchor.len() >= MISSPELT_LEN && stems.iter().any(|s| one_edit_apart(s, anchor)))
}

/// Words at least this long are recognised with one letter wrong.
const MISSPELT_LEN: usize = 7;

/// Whether two words differ by one inserted, deleted or replaced letter.
fn one_edit_apart(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 || short.len() < MISSPELT_LEN - 1 {
        return false;
    }
    let prefix = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    if short.len() == long.len() {
        // One replaced letter: the rest after it agrees.
        prefix < short.len() && short[prefix + 1..] == long[prefix + 1..]
    } else {
        // One letter more in the long word.
        short[prefix..] == long[prefix + 1..]
    }
}

/// Whether a sentence names the question's kind of thing with another qualifier
/// ("the access code" for "the gate code"): then it is about something else.
pub fn qualifies_otherwise(text: &str, focus: &[String], asked: &HashSet<String>) -> bool {
    let [modifiers @ .., head] = focus else {
        return false;
    };
    if modifiers.is_empty() {
        return false;
    }
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
        .collect();
    if modifiers.iter().any(|m| words.contains(m)) {
        return false;
    }
    words
        .windows(2)
        .any(|p| p[1] == *head && !asked.contains(&p[0]) && !is_stop(&p[0]))
}

/// Quantities that are not interchangeable: a market value is not a sale price.
const MEASURES: &[&str] = &[
    "value",
    "valuation",
    "budget",
    "estimate",
    "cost",
    "price",
    "rate",
    "fee",
    "rent",
    "salary",
    "bid",
    "offer",
    "premium",
    "deposit",
    "commission",
    "bonus",
];

/// Whether a sentence gives its amount as a measure the question does not ask for
/// ("has a market value of $20-22 million" for "what did it finally sell for").
pub fn measures_otherwise(own: &HashSet<String>, asked: &HashSet<String>) -> bool {
    let measures: Vec<String> = MEASURES.iter().map(|m| stem(m)).collect();
    let names = |set: &HashSet<String>| measures.iter().any(|m| set.contains(m));
    names(own)
        && !measures
            .iter()
            .any(|m| own.contains(m) && asked.contains(m))
        && !names(asked)
}

/// Whether a sentence states a ratio: a percentage, or something per something.
pub fn has_ratio(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower.contains('%')
        || lower.contains("percent")
        || lower.contains('/')
        || lower.split_whitespace().any(|w| w == "per")
}

/// Whether a text holds a code of letters and digits ("EB49C1", "N5733").
pub fn has_code(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(|w| {
        w.len() >= 3
            && w.chars().any(|c| c.is_ascii_digit())
            && w.chars().any(|c| c.is_ascii_uppercase())
    })
}

pub fn has_digit(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_focus_is_what_follows_which_or_what() {
        assert_eq!(focus_terms("Which hotel did Ken stay at?"), vec!["hotel"]);
        assert_eq!(
            focus_terms("What was the winning bid in the sale?"),
            vec!["winn", "bid"]
        );
        assert_eq!(
            focus_terms("What's the gate code for the house?"),
            vec!["gat", "cod"]
        );
        assert!(focus_terms("What did the doctor find?").is_empty());
        assert!(focus_terms("Who wrote it?").is_empty());
    }

    #[test]
    fn the_focus_noun_sets_the_kind_of_answer() {
        let r = Reading::of("What was the winning bid in the sale?", QuestionType::What);
        assert_eq!(r.qtype, QuestionType::HowMuch);
        assert!(r.quantity);
        let r = Reading::of("In which room is the lunch?", QuestionType::What);
        assert_eq!(r.qtype, QuestionType::Where);
        assert!(r.place);
        let r = Reading::of("What vacation dates did he give?", QuestionType::What);
        assert_eq!(r.qtype, QuestionType::When);
        assert_eq!(
            focus_terms("What was Matt Smith's final score?"),
            vec!["final", "scor"]
        );
        assert!(focus_terms("What was wrong with the report?").is_empty());
    }

    #[test]
    fn anchors_are_names_and_codes_but_not_titles_or_scope() {
        let mut weights = HashMap::new();
        weights.insert("elizabeth".to_string(), 0.0);
        assert_eq!(
            anchors(
                "What did Chancellor Reed say about N5733 and the 7/20 payment in the Elizabeth folder?",
                &weights
            ),
            vec!["reed", "n5733"]
        );
    }

    #[test]
    fn mentions_meet_prefixes_and_nicknames() {
        let stems: HashSet<String> = ["kenneth", "elizabeth", "geotechnical"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(mentions(&stems, "ken"));
        assert!(mentions(&stems, "liz"));
        assert!(mentions(&stems, "geotech"));
        assert!(!mentions(&stems, "reed"));
        let stems: HashSet<String> = ["chancelor".to_string()].into_iter().collect();
        assert!(mentions(&stems, "chancellor"));
        assert!(!mentions(&stems, "chancery"));
        assert!(one_edit_apart("geotechnical", "geotechnicak"));
    }

    #[test]
    fn another_qualifier_or_measure_is_another_thing() {
        let asked: HashSet<String> = ["gat", "cod", "hous"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let focus = vec!["gat".to_string(), "cod".to_string()];
        assert!(qualifies_otherwise(
            "the access code for the house is 2001",
            &focus,
            &asked
        ));
        assert!(!qualifies_otherwise(
            "the gate code is 2001",
            &focus,
            &asked
        ));
        let asked: HashSet<String> = ["finally", "sell"].iter().map(|s| s.to_string()).collect();
        let own: HashSet<String> = ["market", "valu", "million"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(measures_otherwise(&own, &asked));
        assert!(has_ratio("a budget of $85-$90/sf"));
        assert!(!has_ratio("leasing some 1.5 million"));
    }
}
