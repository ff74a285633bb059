//! British and American spellings of one word ("organised" and "organized",
//! "colour" and "color", "fibre" and "fiber", "cancelled" and "canceled"): a user
//! types one, the mail may hold the other. The variants are made by the regular
//! endings that tell the two apart; a made-up variant that is no word finds
//! nothing, so a search may look for every variant beside the word itself.

/// Endings written one way in British and the other in American English.
const ENDING_PAIRS: &[(&str, &str)] = &[
    ("isation", "ization"),
    ("isations", "izations"),
    ("ise", "ize"),
    ("ised", "ized"),
    ("ises", "izes"),
    ("ising", "izing"),
    ("iser", "izer"),
    ("isers", "izers"),
    ("yse", "yze"),
    ("ysed", "yzed"),
    ("ysing", "yzing"),
    ("our", "or"),
    ("ours", "ors"),
    ("tre", "ter"),
    ("tres", "ters"),
    ("bre", "ber"),
    ("bres", "bers"),
    ("lled", "led"),
    ("lling", "ling"),
];

/// Whole words spelt apart, British first.
const WORD_PAIRS: &[(&str, &str)] = &[
    ("programme", "program"),
    ("programmes", "programs"),
    ("catalogue", "catalog"),
    ("dialogue", "dialog"),
    ("grey", "gray"),
    ("enquiry", "inquiry"),
    ("enquiries", "inquiries"),
    ("aluminium", "aluminum"),
];

/// Letters a word keeps before the ending, so short words ("rise", "four", "hour")
/// are left alone; a doubled "l" needs more ("filled" is not "filed").
const MIN_STEM: usize = 2;
const MIN_STEM_BEFORE_L: usize = 4;

/// The other spellings of `word` (lowercase), without the word itself.
pub fn spelling_variants(word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (british, american) in WORD_PAIRS {
        if word == *british {
            out.push(american.to_string());
        } else if word == *american {
            out.push(british.to_string());
        }
    }
    for (british, american) in ENDING_PAIRS {
        for (from, to) in [(british, american), (american, british)] {
            let Some(stem) = word.strip_suffix(from) else {
                continue;
            };
            if stem.chars().count() < MIN_STEM || !stem.chars().all(|c| c.is_ascii_alphabetic()) {
                continue;
            }
            // A doubled or single "l" follows a vowel ("travelled", "canceled").
            if from.starts_with('l')
                && (stem.chars().count() < MIN_STEM_BEFORE_L
                    || !stem.ends_with(['a', 'e', 'i', 'o', 'u']))
            {
                continue;
            }
            let variant = format!("{stem}{to}");
            if variant != word && !out.contains(&variant) {
                out.push(variant);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_has_its_other_spelling() {
        assert_eq!(spelling_variants("organised"), vec!["organized"]);
        assert_eq!(spelling_variants("organizer"), vec!["organiser"]);
        assert_eq!(spelling_variants("colour"), vec!["color"]);
        assert_eq!(spelling_variants("fibre"), vec!["fiber"]);
        assert_eq!(spelling_variants("center"), vec!["centre"]);
        assert_eq!(spelling_variants("cancelled"), vec!["canceled"]);
        assert_eq!(spelling_variants("traveling"), vec!["travelling"]);
        assert_eq!(spelling_variants("analyse"), vec!["analyze"]);
        assert_eq!(spelling_variants("programme"), vec!["program"]);
        assert_eq!(spelling_variants("program"), vec!["programme"]);
    }

    #[test]
    fn short_words_and_other_endings_are_left_alone() {
        for word in [
            "rise", "four", "hour", "your", "lodge", "deposit", "filled", "called", "$14",
        ] {
            assert!(
                spelling_variants(word).is_empty(),
                "{word}: {:?}",
                spelling_variants(word)
            );
        }
    }
}
