//! The organisation an address belongs to, from its domain: `ops.eu.harbor-props.com`
//! and `harbor-props.com` are one organisation, named from the registered label
//! ("Harbor Props"). An address at a provider that gives mail to anyone
//! (`PERSONAL_MAIL_DOMAINS`) names none.

use crate::lexicon::{ORG_SUFFIXES, PERSONAL_MAIL_DOMAINS, SECOND_LEVEL_SUFFIXES};
use serde::{Deserialize, Serialize};

/// An organisation as a domain names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Organisation {
    /// The registered domain, lower case: "harbor-props.com".
    pub domain: String,
    /// Its label as words: "Harbor Props".
    pub name: String,
}

/// The registered domain of an address or domain ("a@mail.acme.co.uk" →
/// "acme.co.uk"), or `None` for no domain at all.
pub fn registered_domain(address_or_domain: &str) -> Option<String> {
    let domain = address_or_domain
        .rsplit('@')
        .next()?
        .trim()
        .trim_end_matches('.')
        .to_lowercase();
    let labels: Vec<&str> = domain.split('.').filter(|l| !l.is_empty()).collect();
    if labels.len() < 2 || labels.iter().any(|l| !l.chars().all(is_label_char)) {
        return None;
    }
    let n = labels.len();
    let two_level =
        n >= 3 && labels[n - 1].len() == 2 && SECOND_LEVEL_SUFFIXES.contains(&labels[n - 2]);
    let keep = if two_level { 3 } else { 2 };
    Some(labels[n - keep..].join("."))
}

fn is_label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-'
}

/// The organisation of an address; `None` for a personal provider or no domain.
pub fn organisation_of(address: &str) -> Option<Organisation> {
    let domain = registered_domain(address)?;
    if PERSONAL_MAIL_DOMAINS.contains(&domain.as_str()) {
        return None;
    }
    let label = domain.split('.').next()?;
    let name = label
        .split('-')
        .filter(|w| !w.is_empty())
        .map(capitalised)
        .collect::<Vec<_>>()
        .join(" ");
    Some(Organisation { domain, name })
}

/// The word with its first letter in upper case ("harbor" → "Harbor").
pub fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The organisation a signature names: a line of two to six words, capitalised,
/// ending with a word that ends organisations' names ("Harbor Properties LLC",
/// "Kestrel Freight Inc."). For senders whose address names none (a personal one).
pub fn signature_organisation(signature: &str) -> Option<String> {
    signature.lines().find_map(|line| {
        let line = line.trim().trim_end_matches(['.', ',', ';']);
        let words: Vec<&str> = line.split_whitespace().collect();
        let last = words
            .last()?
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        let capital = line.chars().next().is_some_and(char::is_uppercase);
        (capital && (2..=6).contains(&words.len()) && ORG_SUFFIXES.contains(&last.as_str()))
            .then(|| line.to_string())
    })
}

/// Whether a phrase that starts with an organisation's name ("Harbor Properties got
/// the memo") names this one: its first words run together spell the domain's label,
/// or its first word (four letters or more) starts the label and the rest of the
/// label starts the next word ("Harbor Properties" for harborprops.com), or its first
/// word is the first word of a hyphenated label ("harbor" for harbor-properties.com).
pub fn names_organisation(phrase: &str, org: &Organisation) -> bool {
    let label: String = org
        .domain
        .split('.')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    let words: Vec<String> = phrase
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if label.len() < 3 || words.is_empty() {
        return false;
    }
    // The first word of a hyphenated label, whole: "harbor" for harbor-properties.com.
    let head = org.domain.split(['.', '-']).next().unwrap_or("");
    if head.len() >= 4 && head.len() < label.len() && words[0] == head {
        return true;
    }
    // Any run of the phrase's words, joined, equal to the label, or the label made of
    // the first word and the start of the next ("harbor props" for "Harbor Properties").
    // The name starts the phrase: "Kestrel" in "Kestrel got the memo", never "got".
    let mut joined = String::new();
    for w in &words {
        joined.push_str(w);
        if joined == label {
            return true;
        }
        if joined.len() >= label.len() {
            break;
        }
    }
    let first = &words[0];
    if label.starts_with(first.as_str()) && first.len() >= 4 {
        let rest = &label[first.len()..];
        let next = words.get(1).map(String::as_str).unwrap_or("");
        let shared = rest
            .chars()
            .zip(next.chars())
            .take_while(|(a, b)| a == b)
            .count();
        if rest.is_empty() || (rest.len() >= 2 && shared >= rest.len().min(3)) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registered_domain_names_the_organisation() {
        let org = organisation_of("dana@ops.eu.harbor-props.com").unwrap();
        assert_eq!(org.domain, "harbor-props.com");
        assert_eq!(org.name, "Harbor Props");
        assert_eq!(
            registered_domain("x@mail.kestrel.co.uk").unwrap(),
            "kestrel.co.uk"
        );
        assert_eq!(organisation_of("someone@gmail.com"), None);
        assert_eq!(organisation_of("no-domain"), None);
        assert_eq!(organisation_of("odd@exa mple.com"), None);
    }

    #[test]
    fn a_signature_line_ending_like_a_company_names_it() {
        let sig = "--\nDana Whitfield\nLeasing manager\nHarbor Properties LLC.\n+1 555 0100";
        assert_eq!(
            signature_organisation(sig).as_deref(),
            Some("Harbor Properties LLC")
        );
        assert_eq!(signature_organisation("--\nDana\nsent from my phone"), None);
        assert_eq!(signature_organisation("we went to the bank"), None);
    }

    #[test]
    fn a_phrase_names_an_organisation_by_its_label() {
        let org = organisation_of("a@harborprops.com").unwrap();
        assert!(names_organisation("Harbor Properties", &org));
        assert!(names_organisation("harborprops got it", &org));
        assert!(
            !names_organisation("who at harborprops", &org),
            "the name starts the phrase"
        );
        let kestrel = organisation_of("a@kestrel.co.uk").unwrap();
        assert!(names_organisation("Kestrel people", &kestrel));
        assert!(!names_organisation("Harbor Properties", &kestrel));
        assert!(!names_organisation("the kes group", &kestrel));
        let hyphenated = organisation_of("a@harbor-properties.com").unwrap();
        assert!(names_organisation("harbor", &hyphenated));
        let joined = organisation_of("a@harborview-dental.com").unwrap();
        assert!(!names_organisation("harbor", &joined));
    }
}
