//! The mailbox's own address book, built from its headers: who the user corresponds
//! with, by name, address and nickname, so a question that says "Fred" or "Mr. Halloran"
//! finds the person the mail calls "Frederick J Ostrander"
//! <frederick.ostrander@lumen.example>.

pub use crate::lexicon::full_names;
use crate::lexicon::{NAME_VERB_ADVERBS as BETWEEN, NICKNAMES, WRITES, WRITES_TO};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Person {
    /// The display name seen most often.
    pub name: String,
    pub addresses: Vec<String>,
    /// Messages in which the person appears (as sender or recipient).
    pub messages: u32,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AddressBook {
    pub people: Vec<Person>,
    /// Lowercased name part (first name, last name, address local part) → people.
    #[serde(skip)]
    index: HashMap<String, Vec<usize>>,
}

/// A person a question mentions.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PersonMention {
    /// The words of the question that named them.
    pub mention: String,
    /// Names and addresses to look for in a message's people (lowercased).
    pub match_terms: Vec<String>,
    pub confidence: f32,
    /// The question puts them at one end of a message: "did I ask Wren Tolliver",
    /// "what did Nora write", not "when do Tess and Ana Sofia arrive".
    pub correspondent: bool,
}

/// Lowercased name parts of a display name or address.
/// An address's local part with its separators dropped: wren.tolliver → wrentolliver.
fn joined_local(address: &str) -> String {
    address
        .split('@')
        .next()
        .unwrap_or("")
        .to_lowercase()
        .replace(['.', '_', '-'], "")
}

fn name_parts(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|p| p.len() > 1)
        .map(|p| p.to_lowercase())
        .collect()
}

impl AddressBook {
    /// Builds the book from (display name, address) pairs as they occur in headers,
    /// one pair per appearance.
    pub fn build<'a>(appearances: impl Iterator<Item = (&'a str, &'a str)>) -> Self {
        let mut by_address: HashMap<String, (HashMap<String, u32>, u32)> = HashMap::new();
        for (name, address) in appearances {
            let address = address.trim().to_lowercase();
            if address.is_empty() || !address.contains('@') {
                continue;
            }
            let entry = by_address.entry(address).or_default();
            let name = name.trim().trim_matches(['"', '\'']).trim();
            if !name.is_empty() && !name.contains('@') {
                *entry.0.entry(name.to_string()).or_default() += 1;
            }
            entry.1 += 1;
        }
        let mut people: Vec<Person> = by_address
            .into_iter()
            .map(|(address, (names, count))| {
                let name = names
                    .into_iter()
                    .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
                    .map(|(n, _)| n)
                    .unwrap_or_else(|| address.split('@').next().unwrap_or("").replace('.', " "));
                Person {
                    name,
                    addresses: vec![address],
                    messages: count,
                }
            })
            .collect();
        people.sort_by(|a, b| {
            b.messages
                .cmp(&a.messages)
                .then_with(|| a.name.cmp(&b.name))
        });
        let mut book = AddressBook {
            people,
            index: HashMap::new(),
        };
        book.reindex();
        book
    }

    fn reindex(&mut self) {
        self.index.clear();
        for (i, p) in self.people.iter().enumerate() {
            let local = p
                .addresses
                .first()
                .and_then(|a| a.split('@').next())
                .unwrap_or("");
            let mut parts = name_parts(&p.name);
            parts.extend(name_parts(local));
            // The whole local part too, for names read from addresses.
            parts.push(joined_local(local));
            parts.sort();
            parts.dedup();
            for part in parts {
                self.index.entry(part).or_default().push(i);
            }
        }
    }

    /// People whose name (a word of it, or the whole) or address starts with
    /// `prefix` (without case), those in the most mail first: address completion.
    /// An empty prefix lists everyone.
    pub fn complete(&self, prefix: &str, limit: usize) -> Vec<&Person> {
        let prefix = prefix.trim().to_lowercase();
        self.people
            .iter()
            .filter(|p| {
                let name = p.name.to_lowercase();
                prefix.is_empty()
                    || name.starts_with(&prefix)
                    || name
                        .split(|c: char| !c.is_alphanumeric())
                        .any(|w| w.starts_with(&prefix))
                    || p.addresses.iter().any(|a| a.starts_with(&prefix))
            })
            .take(limit)
            .collect()
    }

    /// Rebuilds the lookup index after deserialising.
    pub fn restore(mut self) -> Self {
        self.reindex();
        self
    }

    /// People whose address spells a first and last name the way addresses
    /// usually do: wrentolliver, wren.tolliver, wren_tolliver, wtolliver.
    fn lookup_address(&self, first: &str, last: &str) -> Vec<usize> {
        let (first, last) = (first.to_lowercase(), last.to_lowercase());
        let Some(initial) = first.chars().next() else {
            return Vec::new();
        };
        let mut out: Vec<usize> = Vec::new();
        for local in [format!("{first}{last}"), format!("{initial}{last}")] {
            for &p in self.index.get(&local).into_iter().flatten() {
                let person = &self.people[p];
                let spelt = person.addresses.iter().any(|a| joined_local(a) == local);
                // wtolliver@ may be a Walt Tolliver the headers name.
                let name = person.name.to_lowercase();
                let same_first = name.contains(&first) || !name.contains(' ');
                if spelt && same_first && !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }

    fn lookup(&self, word: &str) -> Vec<usize> {
        let mut out = self.index.get(word).cloned().unwrap_or_default();
        for (nick, full) in NICKNAMES {
            if *nick == word {
                out.extend(self.index.get(*full).cloned().unwrap_or_default());
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// People named in a question: capitalised words (and the word after them, for
    /// "Frederick Ostrander") that are names of people in the book.
    pub fn mentions(&self, question: &str) -> Vec<PersonMention> {
        let words: Vec<&str> = question
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .collect();
        let mut out: Vec<PersonMention> = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let raw = words[i].trim_end_matches("'s");
            let capital = raw.chars().next().is_some_and(|c| c.is_uppercase());
            let lower = raw.to_lowercase();
            if !capital || lower.len() < 2 || super::terms::is_stop(&lower) {
                i += 1;
                continue;
            }
            let start = i;
            let mut found = self.lookup(&lower);
            let mut mention = raw.to_string();
            // A following capitalised word narrows "Nora" to "Nora Threlkeld".
            if let Some(next) = words.get(i + 1).map(|w| w.trim_end_matches("'s")) {
                if next.chars().next().is_some_and(|c| c.is_uppercase()) {
                    let narrowed: Vec<usize> = self
                        .lookup(&next.to_lowercase())
                        .into_iter()
                        .filter(|p| found.contains(p))
                        .collect();
                    // "Wren Tolliver" who writes from wrentolliver@... and is never named
                    // in a header.
                    let narrowed = if narrowed.is_empty() {
                        self.lookup_address(raw, next)
                    } else {
                        narrowed
                    };
                    if !narrowed.is_empty() {
                        found = narrowed;
                        mention = format!("{raw} {next}");
                        i += 1;
                    } else if found.is_empty() {
                        found = self.lookup(&next.to_lowercase());
                        if !found.is_empty() {
                            mention = next.to_string();
                            i += 1;
                        }
                    }
                }
            }
            i += 1;
            if found.is_empty() {
                continue;
            }
            let lower_at = |k: usize| words.get(k).map(|w| w.to_lowercase());
            let before = start.checked_sub(1).and_then(lower_at);
            let after = match lower_at(i) {
                Some(w) if BETWEEN.contains(&w.as_str()) => lower_at(i + 1),
                w => w,
            };
            let correspondent = before.is_some_and(|w| WRITES_TO.contains(&w.as_str()))
                || after.is_some_and(|w| WRITES.contains(&w.as_str()));
            let total: u32 = found.iter().map(|&p| self.people[p].messages).sum();
            let top = found
                .iter()
                .map(|&p| self.people[p].messages)
                .max()
                .unwrap_or(0);
            // The people most often in the mail stand for the name; rare namesakes
            // (a one-off "Nora" in a newsletter) add little.
            let mut match_terms = Vec::new();
            for &p in found.iter().take(6) {
                let person = &self.people[p];
                if person.messages * 5 < top {
                    continue;
                }
                match_terms.push(person.name.to_lowercase());
                match_terms.extend(person.addresses.iter().cloned());
            }
            let top_share = top as f32 / total.max(1) as f32;
            let confidence = if mention.contains(' ') {
                0.9
            } else {
                0.4 + 0.5 * top_share
            };
            if !out.iter().any(|m| m.mention == mention) {
                out.push(PersonMention {
                    mention,
                    match_terms,
                    confidence,
                    correspondent,
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_matches_name_words_and_addresses_most_mail_first() {
        let mut pairs = vec![("Tove Lind", "tove@fjord.example"); 5];
        pairs.extend(vec![("Tomas Berg", "tb@fjord.example"); 9]);
        pairs.push(("Ada Tolle", "ada@fjord.example"));
        pairs.push(("", "tonight-list@fjord.example"));
        let book = AddressBook::build(pairs.into_iter());
        let names = |prefix: &str| -> Vec<String> {
            book.complete(prefix, 10)
                .iter()
                .map(|p| p.addresses[0].clone())
                .collect()
        };
        assert_eq!(
            names("To"),
            vec![
                "tb@fjord.example",
                "tove@fjord.example",
                "ada@fjord.example",
                "tonight-list@fjord.example"
            ]
        );
        assert_eq!(names("berg"), vec!["tb@fjord.example"]);
        assert_eq!(names("tomas b"), vec!["tb@fjord.example"]);
        assert_eq!(names("ada@"), vec!["ada@fjord.example"]);
        assert!(names("zz").is_empty());
        assert_eq!(book.complete("", 2).len(), 2);
    }

    fn book() -> AddressBook {
        let mut pairs = Vec::new();
        for _ in 0..30 {
            pairs.push(("Frederick J Ostrander", "frederick.ostrander@lumen.example"));
        }
        for _ in 0..10 {
            pairs.push(("Nora Threlkeld", "nora.threlkeld@lumen.example"));
        }
        pairs.push(("Nora Smith", "nora.smith@other.example"));
        pairs.push(("", "eugene.halloran@lumen.example"));
        AddressBook::build(pairs.into_iter())
    }

    #[test]
    fn finds_people_by_name_nickname_and_address() {
        let b = book();
        let m = b.mentions("What did Fred say about the rate card?");
        assert_eq!(m.len(), 1);
        assert!(m[0]
            .match_terms
            .contains(&"frederick.ostrander@lumen.example".to_string()));
        let m = b.mentions("Did Gene Halloran approve it?");
        assert_eq!(m[0].mention, "Gene Halloran");
        assert!(m[0]
            .match_terms
            .contains(&"eugene.halloran@lumen.example".to_string()));
        assert!(m[0].confidence > 0.8);
    }

    #[test]
    fn a_full_name_narrows_namesakes() {
        let b = book();
        let m = b.mentions("What did Nora Threlkeld want?");
        assert_eq!(m[0].mention, "Nora Threlkeld");
        assert_eq!(
            m[0].match_terms,
            vec!["nora threlkeld", "nora.threlkeld@lumen.example"]
        );
        let m = b.mentions("What did Nora want?");
        assert!(m[0].match_terms.contains(&"nora threlkeld".to_string()));
        assert!(!m[0].match_terms.contains(&"nora smith".to_string()));
    }

    #[test]
    fn a_name_known_only_from_an_address_is_found_by_it() {
        let mut pairs = vec![("", "wrentolliver@dialup.example"); 3];
        pairs.extend(vec![("Mabel Tolliver", "mabel.tolliver@lumen.example"); 20]);
        pairs.extend(vec![("Walt Tolliver", "wtolliver@other.example"); 5]);
        let b = AddressBook::build(pairs.into_iter());
        let m = b.mentions("What did I ask Wren Tolliver to bring to the tasting?");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].mention, "Wren Tolliver");
        assert_eq!(
            m[0].match_terms,
            vec!["wrentolliver", "wrentolliver@dialup.example"]
        );
        assert!(m[0].confidence > 0.8);
    }

    #[test]
    fn a_correspondent_is_who_writes_or_is_written_to() {
        let mut pairs = vec![("Tess Abernathy", "tess.abernathy@mailbox.example"); 5];
        pairs.extend(vec![("Ana Sofia", "ana.sofia@lumen.example"); 5]);
        pairs.extend(vec![("Oscar Wendell", "oscar.wendell@lumen.example"); 5]);
        let b = AddressBook::build(pairs.into_iter());
        let m = b.mentions("When did Tess last write that she and Ana Sofia would visit Lisbon?");
        let role: Vec<(&str, bool)> = m
            .iter()
            .map(|m| (m.mention.as_str(), m.correspondent))
            .collect();
        assert_eq!(role, vec![("Tess", true), ("Ana Sofia", false)]);
        let m = b.mentions("What deadline did Ottilie tell Oscar Wendell she could meet?");
        assert!(m
            .iter()
            .any(|m| m.mention == "Oscar Wendell" && m.correspondent));
        let m = b.mentions("Is Oscar Wendell still at Halvard Freight?");
        assert!(!m[0].correspondent);
    }

    #[test]
    fn ordinary_words_are_not_people() {
        assert!(book().mentions("What is the Foxglove budget?").is_empty());
    }
}
