//! One person across addresses and name spellings. Headers name the same person as
//! "Dasovich, Jeff" at one address and "Jeff Dasovich" at another; an address alone
//! often spells the name ("jeff.dasovich@"). Two addresses are one person when their
//! names agree once normalised (order, case, commas, initials and titles aside), or
//! when one address spells the other's full name. Deterministic: no model, no guess
//! from a first name alone.

use crate::query::people::AddressBook;
use std::collections::HashMap;

/// A person's normalised full name: lower case, "Last, First" turned round, initials,
/// titles and punctuation dropped, words sorted. `None` for fewer than two words of
/// two letters or more (a first name alone names no one for sure).
pub fn name_key(name: &str) -> Option<String> {
    let name = name.trim().trim_matches(['"', '\'']);
    if name.contains('@') {
        return None;
    }
    let mut words: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| w.chars().count() > 1 && w.chars().all(char::is_alphabetic))
        .filter(|w| !crate::lexicon::TITLES.contains(&w.as_str()))
        .collect();
    if words.len() < 2 {
        return None;
    }
    words.sort();
    words.dedup();
    (words.len() >= 2).then(|| words.join(" "))
}

/// The full name an address's local part spells with separators ("jeff.dasovich",
/// "jeff_dasovich"), as a [`name_key`].
pub fn spelt_name_key(address: &str) -> Option<String> {
    let local = address.split('@').next()?;
    if !local.contains(['.', '_', '-']) {
        return None;
    }
    name_key(&local.replace(['.', '_', '-'], " "))
}

/// A merged person: every address and name the headers give them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The name seen on most mail.
    pub name: String,
    /// Addresses, the one on most mail first.
    pub addresses: Vec<String>,
}

/// People of the address book, merged.
#[derive(Debug, Clone, Default)]
pub struct Identities {
    people: Vec<Identity>,
    by_address: HashMap<String, usize>,
}

impl Identities {
    /// Merges the address book's entries (one per address) into people.
    pub fn from_book(book: &AddressBook) -> Self {
        let n = book.people.len();
        let mut parent: Vec<usize> = (0..n).collect();
        let mut by_key: HashMap<String, usize> = HashMap::new();
        for (i, p) in book.people.iter().enumerate() {
            let keys = [name_key(&p.name)]
                .into_iter()
                .chain(p.addresses.iter().map(|a| spelt_name_key(a)))
                .flatten();
            for key in keys {
                match by_key.get(&key) {
                    Some(&j) => union(&mut parent, i, j),
                    None => {
                        by_key.insert(key, i);
                    }
                }
            }
        }
        // Groups in book order (most mail first), so a group's first entry names it.
        let mut group_of_root: HashMap<usize, usize> = HashMap::new();
        let mut people: Vec<Identity> = Vec::new();
        let mut by_address = HashMap::new();
        for (i, p) in book.people.iter().enumerate() {
            let root = find(&mut parent, i);
            let g = *group_of_root.entry(root).or_insert_with(|| {
                people.push(Identity {
                    name: p.name.clone(),
                    addresses: Vec::new(),
                });
                people.len() - 1
            });
            // "Wen Li" reads better than "Li, Wen": a name in reading order wins.
            if people[g].name.contains(',') && !p.name.contains(',') && name_key(&p.name).is_some()
            {
                people[g].name = p.name.clone();
            }
            for a in &p.addresses {
                if !people[g].addresses.contains(a) {
                    people[g].addresses.push(a.clone());
                }
                by_address.insert(a.clone(), g);
            }
        }
        for p in &mut people {
            p.name = reading_order(&p.name);
        }
        Self { people, by_address }
    }

    /// The person an address belongs to.
    pub fn of_address(&self, address: &str) -> Option<&Identity> {
        self.by_address
            .get(&address.trim().to_lowercase())
            .map(|&g| &self.people[g])
    }

    /// Every address of the person an address belongs to (the address alone when
    /// the book does not hold it).
    pub fn addresses_of(&self, address: &str) -> Vec<String> {
        match self.of_address(address) {
            Some(p) => p.addresses.clone(),
            None => vec![address.trim().to_lowercase()],
        }
    }

    pub fn people(&self) -> &[Identity] {
        &self.people
    }
}

/// "Li, Wen" → "Wen Li"; a name without one comma is left as it is.
pub fn reading_order(name: &str) -> String {
    match name.split_once(',') {
        Some((last, first))
            if !first.contains(',') && !first.trim().is_empty() && !last.trim().is_empty() =>
        {
            format!("{} {}", first.trim(), last.trim())
        }
        _ => name.to_string(),
    }
}

fn find(parent: &mut [usize], i: usize) -> usize {
    let mut r = i;
    while parent[r] != r {
        r = parent[r];
    }
    let mut c = i;
    while parent[c] != r {
        let next = parent[c];
        parent[c] = r;
        c = next;
    }
    r
}

fn union(parent: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        // The smaller index (more mail) stays the root.
        let (keep, join) = if ra < rb { (ra, rb) } else { (rb, ra) };
        parent[join] = keep;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_agree_across_order_commas_and_initials() {
        assert_eq!(name_key("Vasquez, Marta L."), name_key("Marta Vasquez"));
        assert_eq!(name_key("Dr. Marta Vasquez"), name_key("marta vasquez"));
        assert_eq!(name_key("Marta"), None);
        assert_eq!(name_key("marta@quill.example"), None);
        assert_eq!(
            spelt_name_key("marta.vasquez@quill.example"),
            name_key("Marta Vasquez")
        );
        assert_eq!(spelt_name_key("mvasquez@quill.example"), None);
        assert_eq!(reading_order("Li, Wen"), "Wen Li");
        assert_eq!(reading_order("Wen Li"), "Wen Li");
    }

    #[test]
    fn one_person_across_addresses_and_spellings() {
        let book = AddressBook::build(
            [
                ("Marta Vasquez", "marta@quill.example"),
                ("Marta Vasquez", "marta@quill.example"),
                ("Vasquez, Marta", "mvasquez@home.example"),
                ("", "marta.vasquez@old.example"),
                ("Marta Olsen", "molsen@quill.example"),
            ]
            .into_iter(),
        );
        let ids = Identities::from_book(&book);
        let marta = ids.of_address("mvasquez@home.example").unwrap();
        assert_eq!(marta.name, "Marta Vasquez");
        assert_eq!(marta.addresses[0], "marta@quill.example");
        assert!(marta
            .addresses
            .contains(&"marta.vasquez@old.example".to_string()));
        assert_eq!(marta.addresses.len(), 3);
        // A shared first name merges no one.
        assert_eq!(ids.addresses_of("molsen@quill.example").len(), 1);
        assert_eq!(ids.people().len(), 2);
    }
}
