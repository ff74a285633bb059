//! What the reader (a cross-encoder, `index::reader`) reads of a candidate: the
//! sentence, the sentences on either side of it in its passage, and its message's
//! subject and sender, each with its whitespace collapsed, as the model was trained
//! (models/reader/README.md, "Input format").

use super::candidates::{Candidate, CandidateKind};
use super::evidence::{EvidenceItem, Role};

/// One candidate as the reader reads it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
pub struct ReaderInput {
    pub subject: String,
    pub sender: String,
    pub prev: String,
    pub sentence: String,
    pub next: String,
}

/// Scores candidates with the reader: one logit per input, or None when the reader
/// is not available.
pub type ReadFn<'a> = &'a dyn Fn(&str, &[ReaderInput]) -> Option<Vec<f32>>;

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The sender as a name: the From participant's name, else the From header with any
/// `<address>` part and quotes taken out, else the address.
fn sender(item: &EvidenceItem) -> String {
    if let Some(p) = item.participants.iter().find(|p| p.role == Role::From) {
        if let Some(n) = p
            .name
            .as_deref()
            .map(|n| collapse(&n.replace(['"', '\''], "")))
        {
            if !n.is_empty() {
                return n;
            }
        }
    }
    let mut out = String::new();
    let mut inside = false;
    for c in item.from.chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            '"' | '\'' => {}
            c if !inside => out.push(c),
            _ => {}
        }
    }
    let name = collapse(&out);
    if name.is_empty() {
        collapse(&item.from.replace(['<', '>', '"'], ""))
    } else {
        name
    }
}

/// The reader's input for a sentence candidate; None for a header fact.
pub fn reader_input(item: &EvidenceItem, cand: &Candidate) -> Option<ReaderInput> {
    // The reader learnt from prose: a record of named fields is left to the trees.
    if cand.kind != CandidateKind::Sentence || item.fields {
        return None;
    }
    let text = &item.cite_text;
    let (a, b) = cand.span?;
    let (from, to) = cand.around.unwrap_or((a, b));
    Some(ReaderInput {
        subject: collapse(&item.subject),
        sender: sender(item),
        prev: collapse(text.get(from..a).unwrap_or("")),
        sentence: collapse(&cand.text),
        next: collapse(text.get(b..to).unwrap_or("")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::candidates::candidates;
    use crate::answer::evidence::{item, EvidencePack, Participant};

    #[test]
    fn a_sentence_is_read_with_its_neighbours_subject_and_sender() {
        let mut it = item(
            "The crane arrives Monday.\n\nIts  permit  costs $1,200. Call the yard first.",
            "Dana",
        );
        it.subject = "Re:  crane   delivery".into();
        it.participants = vec![Participant {
            role: Role::From,
            name: Some("\"Reyes, Dana\"".into()),
            address: "dana@example.com".into(),
        }];
        let pack = EvidencePack::build(vec![it], 1000);
        let cands = candidates(&pack);
        let middle = cands
            .iter()
            .find(|c| c.text.contains("permit"))
            .expect("the permit sentence is a candidate");
        let input = reader_input(&pack.items[0], middle).expect("a sentence is read");
        assert_eq!(
            input,
            ReaderInput {
                subject: "Re: crane delivery".into(),
                sender: "Reyes, Dana".into(),
                prev: "The crane arrives Monday.".into(),
                sentence: "Its permit costs $1,200.".into(),
                next: "Call the yard first.".into(),
            }
        );
        let first = &cands[0];
        assert_eq!(
            reader_input(&pack.items[0], first).map(|i| i.prev),
            Some(String::new()),
            "the first sentence has nothing before it"
        );
        let header = cands
            .iter()
            .find(|c| c.kind.is_header())
            .expect("the sender is a candidate");
        assert_eq!(reader_input(&pack.items[0], header), None);
    }

    #[test]
    fn a_sender_without_a_name_is_its_header_without_the_address_brackets() {
        let mut it = item("Text.", "Dana");
        it.participants.clear();
        it.from = "\"Lee Park\" <lee@example.com>".into();
        assert_eq!(sender(&it), "Lee Park");
        it.from = "<lee@example.com>".into();
        assert_eq!(sender(&it), "lee@example.com");
    }
}
