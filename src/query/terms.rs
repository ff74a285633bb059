//! Question terms and stems, so "prices" in a question meets "price" in mail and
//! "scheduled" meets "schedule": the English Snowball stemmer (the one the search
//! index stems with), and the stop words of [`crate::lexicon::STOP_WORDS`].

use crate::lexicon::is_stop_word;
use frostem::{Algorithm, Stemmer};

pub fn is_stop(word: &str) -> bool {
    is_stop_word(word)
}

/// Content words of a text, lowercased, in order, without repeats.
pub fn content_words(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in text.split(|c: char| !c.is_alphanumeric() && c != '$' && c != '\'') {
        let w = w.trim_matches('\'').to_lowercase();
        let w = w.strip_suffix("'s").unwrap_or(&w).to_string();
        if w.len() > 1 && !is_stop(&w) && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// The Snowball (Porter 2) stem of a word, lowercased.
pub fn stem(word: &str) -> String {
    let lower = word.to_lowercase();
    Stemmer::new(Algorithm::English).stem(&lower).into_owned()
}

/// The stems of a text's content words.
pub fn stems(text: &str) -> Vec<String> {
    content_words(text).iter().map(|w| stem(w)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_words_drop_question_words_and_possessives() {
        assert_eq!(
            content_words("What did Phillip's broker say the strike price was?"),
            vec!["phillip", "broker", "strike", "price"]
        );
    }

    #[test]
    fn stems_meet_across_inflections() {
        assert_eq!(stem("prices"), stem("price"));
        assert_eq!(stem("scheduled"), stem("schedule"));
        assert_eq!(stem("rates"), stem("rate"));
        assert_eq!(stem("companies"), stem("company"));
        assert_eq!(stem("Connections"), "connect");
        assert_eq!(stem("gas"), "gas");
    }
}
