//! Words that carry no topic, and how a list is matched.

/// Words that carry no topic: articles, prepositions, auxiliaries, pronouns, question
/// words and the verbs of writing mail ("sent", "email"). Left out of a question's
/// content words, so "what did Greta say about the budget" searches for "greta
/// budget".
#[rustfmt::skip]
pub const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "at", "by",
    "from", "about", "is", "are", "was", "were", "be", "been", "being", "it", "its", "that",
    "this", "these", "those", "what", "whats", "who", "whom", "whose", "when", "where",
    "which", "how", "why", "did", "do", "does", "i", "me", "my", "we", "us", "our", "you",
    "your", "he", "him", "she", "they", "them", "his", "her", "their", "say", "said",
    "says", "tell", "told", "any", "there", "have", "has", "had", "will", "would", "can",
    "could", "should", "much", "many", "not", "no", "yes", "send", "sent", "email",
    "emails", "mail", "message", "mention", "mentioned", "write", "wrote", "written", "ask",
    "asked", "according", "as", "if", "so", "than", "then", "into", "also", "some", "all",
    "get", "got", "one", "else", "other", "exactly", "please", "know", "think", "kind",
    "sort", "thing", "things", "anything", "someone", "somebody", "just", "only", "s", "t",
    "per", "up", "out", "going", "go", "am", "among", "between", "folder", "messages",
    "whos", "wheres", "whens", "hows", "whys",
];

pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

/// Whether `text` (lowercase) holds one of `phrases` as whole words.
pub fn has_phrase(text: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| {
        text.match_indices(p).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + p.len()..].chars().next();
            let bound = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
            bound(before) && (p.ends_with(' ') || bound(after))
        })
    })
}
