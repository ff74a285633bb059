//! Question terms and a light stemmer, so "prices" in a question meets "price" in mail
//! and "scheduled" meets "schedule", without a language model.

/// Words that carry no topic: question words, auxiliaries, pronouns and mail verbs.
const STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "and",
    "or",
    "of",
    "to",
    "in",
    "on",
    "for",
    "with",
    "at",
    "by",
    "from",
    "about",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "it",
    "its",
    "that",
    "this",
    "these",
    "those",
    "what",
    "whats",
    "who",
    "whom",
    "whose",
    "when",
    "where",
    "which",
    "how",
    "why",
    "did",
    "do",
    "does",
    "i",
    "me",
    "my",
    "we",
    "us",
    "our",
    "you",
    "your",
    "he",
    "him",
    "she",
    "they",
    "them",
    "his",
    "her",
    "their",
    "say",
    "said",
    "says",
    "tell",
    "told",
    "any",
    "there",
    "have",
    "has",
    "had",
    "will",
    "would",
    "can",
    "could",
    "should",
    "much",
    "many",
    "not",
    "no",
    "yes",
    "send",
    "sent",
    "email",
    "emails",
    "mail",
    "message",
    "mention",
    "mentioned",
    "write",
    "wrote",
    "written",
    "ask",
    "asked",
    "according",
    "as",
    "if",
    "so",
    "than",
    "then",
    "into",
    "also",
    "some",
    "all",
    "get",
    "got",
    "one",
    "else",
    "other",
    "exactly",
    "please",
    "know",
    "think",
    "kind",
    "sort",
    "thing",
    "things",
    "anything",
    "someone",
    "somebody",
    "just",
    "only",
    "s",
    "t",
    "an",
    "per",
    "up",
    "out",
    "going",
    "go",
    "am",
    "among",
    "between",
    "folder",
    "messages",
];

pub fn is_stop(word: &str) -> bool {
    STOP.contains(&word)
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

/// A crude stem: common English suffixes removed from words longer than four letters.
pub fn stem(word: &str) -> String {
    let w = word.to_lowercase();
    for suffix in [
        "ations", "ation", "ings", "ing", "ies", "ied", "es", "ed", "ly", "s",
    ] {
        if w.len() > suffix.len() + 3 {
            if let Some(base) = w.strip_suffix(suffix) {
                let base = match suffix {
                    "ies" | "ied" => format!("{base}y"),
                    _ => base.to_string(),
                };
                return drop_final_e(base);
            }
        }
    }
    drop_final_e(w)
}

fn drop_final_e(w: String) -> String {
    match w.strip_suffix('e') {
        Some(base) if w.len() > 3 => base.to_string(),
        _ => w,
    }
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
        assert_eq!(stem("companies"), "company");
        assert_eq!(stem("gas"), "gas");
    }
}
