//! The type of a question and its focus: what kind of answer its question word
//! asks for ("who", "how much", yes or no, a list), and the noun phrase that names
//! the thing asked about ("what was the winning bid" → winning bid; "room for the
//! kiln review", typed as keywords → room).

use super::question::words;
use crate::lexicon::{FOCUS_PHRASE_ENDS, NOT_FOCUS_NOUNS};
use serde::Serialize;

/// What kind of answer the question wants, from its question word.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionType {
    Who,
    When,
    HowMuch,
    Where,
    YesNo,
    List,
    #[default]
    What,
}

impl QuestionType {
    /// The type from the question's first question word: "how much/many" asks for
    /// an amount, "who/when/where" for a person, a date, a place; a question that
    /// opens with an auxiliary ("did", "is") is yes or no; "which" or "what" with a
    /// plural noun, or "list", asks for several things.
    pub fn of(question: &str) -> Self {
        let words = words(question);
        let Some(first) = words.first() else {
            return Self::What;
        };
        if starts_with_list(&words) {
            return Self::List;
        }
        // "who's", "when's", "where're", and as typed in a hurry "whens", "wheres":
        // the question word of a contraction.
        let wh_of = |w: &str| -> Option<&'static str> {
            let words = [
                "who", "whom", "whose", "when", "where", "what", "which", "how",
            ];
            let bare = ["'s", "'re", "'d", "'ll"]
                .iter()
                .find_map(|tail| w.strip_suffix(tail))
                .unwrap_or(w);
            words.into_iter().find(|q| *q == bare).or_else(|| {
                let unmarked = w.strip_suffix('s')?;
                words
                    .into_iter()
                    .filter(|q| !matches!(*q, "whom" | "whose" | "which"))
                    .find(|q| *q == unmarked)
            })
        };
        let wh = words
            .iter()
            .enumerate()
            .find_map(|(i, w)| wh_of(w).map(|q| (i, q)));
        match wh {
            Some((i, "how")) => match words.get(i + 1).map(String::as_str) {
                Some("much" | "many" | "big" | "large" | "long" | "far" | "often") => {
                    if words.get(i + 1).is_some_and(|w| w == "long")
                        && words.iter().any(|w| w == "until" || w == "ago")
                    {
                        Self::When
                    } else {
                        Self::HowMuch
                    }
                }
                _ => Self::What,
            },
            Some((_, "who" | "whom" | "whose")) => Self::Who,
            Some((_, "when")) => Self::When,
            Some((_, "where")) => Self::Where,
            Some((i, "what" | "which")) => {
                let focus = focus_words(&words, i);
                match focus.last().map(String::as_str) {
                    Some(head) if is_plural_noun(head) && focus.len() <= 3 => Self::List,
                    _ => Self::What,
                }
            }
            _ if is_auxiliary(first) => Self::YesNo,
            _ => Self::What,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Who => "who",
            Self::When => "when",
            Self::HowMuch => "how_much",
            Self::Where => "where",
            Self::YesNo => "yes_no",
            Self::List => "list",
            Self::What => "what",
        }
    }
}

/// The focus phrase after the question word at `at`: "what was the winning bid" →
/// [winning, bid]; a possessor is not the focus ("Matt's final score" → final score).
pub(super) fn focus_words(words: &[String], at: usize) -> Vec<String> {
    let mut i = at + 1;
    if words
        .get(i)
        .is_some_and(|w| ["was", "is", "are", "were", "s"].contains(&w.as_str()))
    {
        i += 1;
    }
    while words.get(i).is_some_and(|w| {
        [
            "the", "a", "an", "kind", "type", "sort", "name", "names", "of", "exact",
        ]
        .contains(&w.as_str())
    }) {
        i += 1;
    }
    // "what did X do": no focus noun ("what was the bid" has one).
    if words
        .get(at + 1)
        .is_some_and(|w| is_auxiliary(w) && !matches!(w.as_str(), "is" | "was" | "are" | "were"))
    {
        return Vec::new();
    }
    let mut out = Vec::new();
    while let Some(w) = words.get(i) {
        // "what time friday is the move": a day after the focus noun says when,
        // and is not the head of the phrase.
        if FOCUS_PHRASE_ENDS.contains(&w.as_str())
            || out.len() == 3
            || !out.is_empty() && names_a_day(w)
        {
            break;
        }
        if let Some(base) = w.strip_suffix("'s") {
            let _ = base;
            out.clear();
            i += 1;
            continue;
        }
        if !crate::lexicon::is_stop_word(w) {
            out.push(w.clone());
        }
        i += 1;
    }
    if out
        .first()
        .is_some_and(|w| NOT_FOCUS_NOUNS.contains(&w.as_str()))
    {
        return Vec::new();
    }
    out
}

/// A word that names a day: a weekday, a month, "today", "tomorrow".
fn names_a_day(w: &str) -> bool {
    crate::lexicon::month_number(w).is_some()
        || crate::lexicon::TIME_WORDS.contains(&w) && !crate::lexicon::VAGUE_TIME_WORDS.contains(&w)
}

/// The focus of a question typed as keywords, with no question word ("room for the
/// budget review", "offsite start time", "price of the walnut desk"): the words of
/// its head noun phrase, before its first preposition, or its last words when it has
/// none; the people and dates it names are not among them. Empty for a question
/// that opens with an auxiliary or a command ("did...", "list...").
pub(super) fn keyword_focus(words: &[String], named: &[String]) -> Vec<String> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    let asking = |w: &String| {
        let bare = w.split('\'').next().unwrap_or(w);
        matches!(
            bare,
            "why" | "how" | "who" | "whom" | "whose" | "when" | "where"
        )
    };
    if is_auxiliary(first)
        || words.iter().any(asking)
        || starts_with_list(words)
        || crate::lexicon::IMPERATIVE_VERBS.contains(&first.as_str())
    {
        return Vec::new();
    }
    let end = words
        .iter()
        .position(|w| {
            matches!(
                w.as_str(),
                "for" | "of" | "in" | "on" | "at" | "to" | "from" | "with" | "about" | "by" | "per"
            )
        })
        .unwrap_or(words.len());
    let head: Vec<String> = words[..end]
        .iter()
        .filter(|w| !crate::lexicon::is_stop_word(w) && !named.contains(w))
        .filter(|w| w.chars().any(|c| c.is_alphabetic()))
        .map(|w| w.strip_suffix("'s").unwrap_or(w).to_string())
        .collect();
    head[head.len().saturating_sub(3)..].to_vec()
}

fn is_auxiliary(w: &str) -> bool {
    matches!(
        w,
        "is" | "am"
            | "are"
            | "was"
            | "were"
            | "did"
            | "does"
            | "do"
            | "has"
            | "have"
            | "had"
            | "can"
            | "could"
            | "will"
            | "would"
            | "should"
            | "shall"
            | "may"
            | "might"
            | "must"
            | "isn't"
            | "wasn't"
            | "didn't"
            | "doesn't"
            | "don't"
    )
}

fn starts_with_list(words: &[String]) -> bool {
    matches!(
        words.first().map(String::as_str),
        Some("list" | "name" | "enumerate")
    ) && words.len() > 1
}

fn is_plural_noun(w: &str) -> bool {
    w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::people::AddressBook;
    use crate::query::question::{AnswerKind, Question};

    #[test]
    fn a_query_typed_as_keywords_has_its_head_noun_for_focus() {
        let book = AddressBook::default();
        let focus = |q: &str| Question::read(q, &book, 0).focus;
        assert_eq!(focus("room for the quarterly kiln review"), vec!["room"]);
        assert_eq!(focus("price of the walnut desk"), vec!["price"]);
        assert_eq!(
            focus("glaze workshop start time 6/14"),
            vec!["workshop", "start", "time"]
        );
        let q = Question::read("orchard lease renewal deadline", &book, 0);
        assert_eq!(q.expects, vec![AnswerKind::Date]);
        // A question with its question word, an auxiliary or a command keeps its
        // own reading.
        assert!(focus("did the kiln review move").is_empty());
        assert!(focus("list the kiln reviews").is_empty());
        assert!(focus("why the kiln review moved").is_empty());
        assert_eq!(focus("what is the room for the kiln review"), vec!["room"]);
    }

    #[test]
    fn the_question_word_sets_the_type() {
        use QuestionType::*;
        for (question, want) in [
            ("Who is handling the permits for the new plant?", Who),
            ("and when is it due?", When),
            // Contractions keep their question word.
            ("who's on the rota", Who),
            ("when's the kiln inspection", When),
            ("where're the spare keys", Where),
            ("wheres the kiln inspection", Where),
            ("whos bringing the ladder", Who),
            ("How much did the turbine cost?", HowMuch),
            ("How many cases were shipped?", HowMuch),
            ("Where will the dinner be held?", Where),
            ("Did the board approve the plan?", YesNo),
            ("Which units of the complex were empty?", List),
            ("List the people on the call", List),
            ("What did the auditor want?", What),
            ("Which hotel did the team book?", What),
            // A later question word opens a clause.
            ("What did the vet see when she checked the paw?", What),
        ] {
            assert_eq!(QuestionType::of(question), want, "{question}");
        }
    }
}
