//! Headings do not answer: a message's subject, a subject line quoted in a
//! forwarded header block ("RE: Budget review"), or a short title ("Team Picnic",
//! "Contact Info") names what the mail is about and states nothing of it. Words
//! of the question match a heading well, so it often scores first; unless the
//! question asks about the subject itself, the best sentence that is not a
//! heading leads instead.

use super::candidates::CandidateKind;
use super::detect::find_all;
use super::evidence::EvidencePack;
use super::select::Scored;
use crate::query::question::{AnswerKind, Question};
use std::collections::HashSet;

/// Words that open a subject line quoted in a message's text.
const SUBJECT_PREFIXES: &[&str] = &["subject:", "re:", "fw:", "fwd:"];

/// Words a title leaves in lower case.
const TITLE_SMALL_WORDS: &[&str] = &[
    "a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with", "&", "-",
];

/// Longest title, in words.
const TITLE_WORDS: usize = 8;

/// Whether a sentence `text` of a message whose subject is `subject` is a heading:
/// the subject itself (less its "RE:"), a quoted subject line, or, when `titles`
/// count, a short line in title case that ends in no full stop and holds no value
/// the detectors find.
pub fn is_heading(text: &str, subject: &str, titles: bool) -> bool {
    let line = text.trim();
    let lower = line.to_lowercase();
    if SUBJECT_PREFIXES.iter().any(|p| lower.starts_with(p)) {
        return true;
    }
    let bare_subject = strip_prefixes(subject);
    if !bare_subject.is_empty() && strip_prefixes(line).eq_ignore_ascii_case(&bare_subject) {
        return true;
    }
    titles && is_title(line)
}

/// The text without its leading "RE:"/"FW:" markers.
fn strip_prefixes(text: &str) -> String {
    let mut rest = text.trim();
    loop {
        let lower = rest.to_lowercase();
        match SUBJECT_PREFIXES.iter().find(|p| lower.starts_with(*p)) {
            Some(p) => rest = rest[p.len()..].trim_start(),
            None => return rest.to_string(),
        }
    }
}

/// A short line in title case: two to [`TITLE_WORDS`] words, each word with
/// letters capitalised unless it is a small word, no full stop, question mark or
/// exclamation at its end, and no date, sum, time, figure or code in it.
fn is_title(line: &str) -> bool {
    if line.ends_with(['.', '?', '!', ',', ';']) {
        return false;
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 2 || words.len() > TITLE_WORDS {
        return false;
    }
    let capitalised = words.iter().all(|w| {
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric());
        match bare.chars().next() {
            None => true,
            Some(c) if c.is_alphabetic() => {
                c.is_uppercase() || TITLE_SMALL_WORDS.contains(&bare.to_lowercase().as_str())
            }
            Some(_) => true,
        }
    });
    // Capitalised words read as names and places; a title holds no other value.
    capitalised
        && find_all(line, &HashSet::new()).iter().all(|f| {
            matches!(
                f.kind,
                AnswerKind::Person | AnswerKind::Organization | AnswerKind::Place
            )
        })
}

/// Moves the best candidate that is not a heading ahead of a heading that leads,
/// unless the question asks about the subject. Titles count only for a question
/// that asks for no person or organisation: a line such as "Ada Brook - Legal" may
/// name the one asked for.
pub fn heading_not_first(scored: &mut [Scored], pack: &EvidencePack, question: &Question) {
    if question.cues.subject {
        return;
    }
    let titles = !question
        .expects
        .iter()
        .any(|k| matches!(k, AnswerKind::Person | AnswerKind::Organization));
    let heading = |s: &Scored| match s.candidate.kind {
        CandidateKind::Subject => true,
        CandidateKind::Sentence => pack
            .items
            .get(s.candidate.item)
            .is_some_and(|item| is_heading(&s.candidate.text, &item.subject, titles)),
        _ => false,
    };
    if !scored.first().is_some_and(heading) {
        return;
    }
    if let Some(at) = scored.iter().position(|s| !heading(s)) {
        scored[..=at].rotate_right(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::evidence::item;
    use crate::query::people::AddressBook;

    fn scored(kind: CandidateKind, text: &str, p: f32) -> Scored {
        Scored::of_text(kind, 0, text, f64::from(p), p)
    }

    fn leads(question: &str, subject: &str, texts: &[(CandidateKind, &str)]) -> String {
        let mut it = item(
            "Thanks for signing up. We gather by the old mill at six.",
            "Mira",
        );
        it.subject = subject.to_string();
        let pack = EvidencePack::build(vec![it], 100);
        let mut s: Vec<Scored> = texts
            .iter()
            .enumerate()
            .map(|(i, (k, t))| scored(*k, t, 0.9 - i as f32 * 0.1))
            .collect();
        let q = Question::read(question, &AddressBook::default(), 0);
        heading_not_first(&mut s, &pack, &q);
        s[0].candidate.text.clone()
    }

    #[test]
    fn the_best_sentence_that_is_no_heading_leads() {
        let subject = "Lantern Walk Meeting Point";
        let sentence = "We gather by the old mill at six.";
        let texts = [
            (CandidateKind::Subject, subject),
            (CandidateKind::Sentence, "Lantern Walk Meeting Point"),
            (CandidateKind::Sentence, sentence),
        ];
        let q = "where is the lantern walk meeting point?";
        assert_eq!(leads(q, subject, &texts), sentence);
        // Asked for the subject itself, it stays first.
        let q = "subject line of the lantern walk note";
        assert_eq!(leads(q, subject, &texts), subject);
        // A title may name the person asked for: only the subject moves.
        let texts = [
            (CandidateKind::Sentence, "Mira Holt - Lantern Walk Lead"),
            (CandidateKind::Sentence, sentence),
        ];
        let q = "who leads the lantern walk?";
        assert_eq!(leads(q, subject, &texts), "Mira Holt - Lantern Walk Lead");
    }

    #[test]
    fn subjects_quoted_subjects_and_titles_are_headings() {
        let subject = "RE: Spring picnic";
        assert!(is_heading("Spring picnic", subject, false));
        assert!(is_heading(
            "Subject: Spring picnic at the lake",
            subject,
            false
        ));
        assert!(is_heading(
            "FW: Boiler inspection, round two",
            subject,
            false
        ));
        assert!(is_heading("Fond Farewell", subject, true));
        assert!(is_heading("Contact Info", subject, true));
        assert!(is_heading(
            "Operation Lantern: Lighting the Way",
            subject,
            true
        ));
        assert!(is_heading("Offsite Meeting in Denver", subject, true));
        // Titles count only when asked to.
        assert!(!is_heading("Fond Farewell", subject, false));
    }

    #[test]
    fn statements_and_values_are_not_headings() {
        let subject = "Spring picnic";
        for line in [
            "We meet at the north gate at 9.",
            "The picnic is at Cedar Lake.",
            "TOTAL $1,240",
            "Deadline March 3",
            "Picnic",
            "Bring a chair and something to share",
            "Where: Cedar Lake pavilion",
        ] {
            assert!(!is_heading(line, subject, true), "{line}");
        }
    }
}
