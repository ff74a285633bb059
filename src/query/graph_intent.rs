//! Questions the headers answer exactly: who was on a mail ("who else was copied on the
//! kiln permit?"), who joined a conversation and when ("who was looped in on the
//! Cobalt contract?", "when was Dana added to the budget thread?"), and who the user
//! dealt with at an organisation ("who have I dealt with at Harbor Properties?").
//! Read from the question's words alone; the engine checks the organisation and
//! finds the conversation.

use crate::lexicon::{
    is_stop_word, CONVERSATION_WORDS, GETTING_WORDS, JOINING_CUES, PARTICIPATION_CUES,
};
use crate::query::asks::AskedRole;
use crate::query::question::{Question, QuestionType};
use serde::Serialize;

/// What a participation question asks of the graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "asks")]
pub enum GraphAsk {
    /// Who is on the conversation about `topic`, `among` those of some parts.
    Participants { topic: Vec<String>, among: Among },
    /// Who joined the conversation about `topic` after its first email, or when
    /// `person` (words of a name) did.
    Joined {
        topic: Vec<String>,
        person: Vec<String>,
    },
    /// Who first wrote about `topic`, and when: the oldest mail whose own text
    /// mentions it.
    FirstMention { topic: Vec<String> },
    /// The value that stands now for what `topic` names ("when's the review now?"):
    /// the latest fact of the conversation, not one a later message replaced.
    CurrentValue { topic: Vec<String> },
    /// The people at the organisation `organisation` names (words after "at" or
    /// "from"), on the conversation about `topic` when one is named.
    AtOrganisation {
        organisation: Vec<String>,
        topic: Vec<String>,
    },
}

/// Whose part in a conversation a participation question asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Among {
    /// Everyone on it ("who was on the budget thread?").
    Everyone,
    /// Those who got its mail ("who received the memo?"): not its sender as such.
    Recipients,
    /// Those copied on it (Cc and Bcc).
    Copied,
}

/// How a question asks the graph, if it does. `is_organisation` tells whether the
/// words after "at" or "from" name an organisation the mail knows; when they do not
/// ("the minutes from Hope Duncan"), they are read as part of the topic.
pub fn graph_ask(q: &Question, is_organisation: &dyn Fn(&[String]) -> bool) -> Option<GraphAsk> {
    let words = words(&q.question);
    let asks_who = matches!(q.qtype, QuestionType::Who | QuestionType::List)
        || words.first().is_some_and(|w| w == "who" || w == "whom");
    let asks_when = q.qtype == QuestionType::When;
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    let current = has(CURRENT) && !matches!(q.qtype, QuestionType::YesNo | QuestionType::List);
    if !asks_who && !asks_when && !current {
        return None;
    }
    if (asks_who || asks_when) && words.iter().any(|w| w == "first") && has(MENTIONING) {
        let topic: Vec<String> = words
            .iter()
            .filter(|w| *w != "first" && !MENTIONING.contains(&w.as_str()))
            .filter(|w| {
                !is_stop_word(w) && !is_filler(w) && !CONVERSATION_WORDS.contains(&w.as_str())
            })
            .cloned()
            .collect();
        return (!topic.is_empty()).then_some(GraphAsk::FirstMention { topic });
    }
    // Receiving a mail: "got" with a mail it got ("got the invite"), not "got moved".
    let receives = words.iter().any(|w| is_receiving(w));
    let receiving = receives && has(CONVERSATION_WORDS);
    // "when did Kayne get the party invite": when they were first sent it.
    let joining = has(JOINING_CUES) || (asks_when && receiving);
    // "who was on the budget thread", "who's on it": on right after the verb.
    let on_it = words.iter().position(|w| w == "on").is_some_and(|i| {
        i > 0
            && matches!(
                words[i - 1].as_str(),
                "was" | "is" | "were" | "are" | "who" | "else"
            )
    });
    // "who got the memo", "who else got it": receiving, when the question names a
    // mail or asks who else.
    let got = receiving || (receives && words.iter().any(|w| w == "else"));
    let participating = has(PARTICIPATION_CUES) || on_it || got;
    if asks_when && !joining && !current {
        return None;
    }
    let mut person: Vec<String> = q.people.iter().flat_map(|p| words_of(&p.mention)).collect();
    if person.is_empty() && joining {
        person = joiner_words(&words);
    }
    let organisation = Some(organisation_words(&words))
        .filter(|o| !o.is_empty() && is_organisation(o))
        .unwrap_or_default();
    let cues: Vec<&str> = PARTICIPATION_CUES
        .iter()
        .chain(JOINING_CUES)
        .copied()
        .collect();
    let topic: Vec<String> = words
        .iter()
        .filter(|w| !cues.contains(&w.as_str()) && !is_receiving(w))
        .filter(|w| !CONVERSATION_WORDS.contains(&w.as_str()))
        .filter(|w| !is_stop_word(w) && !is_filler(w))
        .filter(|w| !person.contains(w) && !organisation.contains(w))
        .cloned()
        .collect();
    if joining {
        return Some(GraphAsk::Joined { topic, person });
    }
    if !organisation.is_empty() && asks_who {
        return Some(GraphAsk::AtOrganisation {
            organisation,
            topic,
        });
    }
    // "Who is its main recipient?" asks for one person of one email's headers,
    // which the evidence selector reads.
    let main = matches!(q.asks_role(), Some(AskedRole::Recipients { main: true }));
    if participating && asks_who && !topic.is_empty() && !main {
        let among = if words
            .iter()
            .any(|w| w.starts_with("cc") || w.starts_with("bcc") || w.starts_with("cop"))
        {
            Among::Copied
        } else if matches!(q.asks_role(), Some(AskedRole::Recipients { .. })) || got {
            Among::Recipients
        } else {
            Among::Everyone
        };
        return Some(GraphAsk::Participants { topic, among });
    }
    if current {
        let topic: Vec<String> = words
            .iter()
            .filter(|w| !CURRENT.contains(&w.as_str()))
            .filter(|w| !is_stop_word(w) && !is_filler(w))
            .cloned()
            .collect();
        if !topic.is_empty() {
            return Some(GraphAsk::CurrentValue { topic });
        }
    }
    None
}

/// Words that carry neither topic nor cue in these questions.
fn is_filler(w: &str) -> bool {
    matches!(
        w,
        "else"
            | "who's"
            | "dealt"
            | "deal"
            | "dealing"
            | "worked"
            | "work"
            | "working"
            | "talked"
            | "people"
            | "person"
            | "anyone"
            | "everyone"
            | "in"
            | "when"
            | "we"
            | "me"
            | "i've"
            | "i"
            | "have"
            | "been"
            | "contacts"
            | "contact"
            | "which"
            | "whom"
            | "folks"
    )
}

/// The words after the last "at" or "from" up to a word that starts another phrase
/// ("on", "about", "in"), when the question asks who: "who at Kestrel", "who else
/// from Harbor Properties was on it".
fn organisation_words(words: &[String]) -> Vec<String> {
    for (at, _) in words
        .iter()
        .enumerate()
        .filter(|(_, w)| *w == "at" || *w == "from")
    {
        let phrase: Vec<String> = words[at + 1..]
            .iter()
            .take_while(|w| !ENDS_ORGANISATION.contains(&w.as_str()))
            .filter(|w| !is_stop_word(w))
            .take(4)
            .cloned()
            .collect();
        if !phrase.is_empty() {
            return phrase;
        }
    }
    Vec::new()
}

/// Words after an organisation's name that start the rest of the question ("who at
/// Kestrel got the memo", "who from Kestrel was on it").
const ENDS_ORGANISATION: &[&str] = &[
    "on",
    "about",
    "in",
    "was",
    "were",
    "is",
    "are",
    "for",
    "regarding",
    "to",
    "got",
    "get",
    "gets",
    "has",
    "have",
    "had",
    "did",
    "does",
    "do",
    "sent",
    "send",
    "been",
    "besides",
    "other",
    "than",
    "when",
    "who",
    "that",
    "i",
    "we",
];

/// Words of bringing a topic up ("who first mentioned the merger", "when did the
/// merger first come up").
const MENTIONING: &[&str] = &[
    "mention",
    "mentioned",
    "mentions",
    "come",
    "came",
    "raised",
    "raise",
    "raises",
    "brought",
    "bring",
    "up",
    "talked",
    "talk",
    "wrote",
    "suggested",
    "proposed",
    "appear",
    "appeared",
    "heard",
    "name",
];

/// Words that ask for the value standing now, after changes ("when's the review
/// now?", "the current price").
const CURRENT: &[&str] = &["now", "current", "currently", "latest"];

/// A word of receiving a mail ("who got the memo", "when did Kayne get it").
fn is_receiving(w: &str) -> bool {
    GETTING_WORDS.contains(&w) || matches!(w, "receive" | "received")
}

/// The words naming who joined: between the verb and the joining cue ("when was
/// Priya added", "when did Priya Raman join"), or after the cue up to where they
/// were brought ("who pulled Priya Raman into the budget thread"); none in "who was
/// looped in".
fn joiner_words(words: &[String]) -> Vec<String> {
    let is_cue = |w: &String| JOINING_CUES.contains(&w.as_str()) || is_receiving(w);
    let keep = |w: &&String| !is_stop_word(w) && !is_filler(w);
    let cue = words.iter().position(is_cue);
    let verb = words
        .iter()
        .position(|w| matches!(w.as_str(), "was" | "were" | "did" | "is" | "has" | "had"));
    match (verb, cue) {
        (Some(v), Some(c)) if v < c => words[v + 1..c].iter().filter(keep).cloned().collect(),
        (_, Some(c)) => words[c + 1..]
            .iter()
            .take_while(|w| !matches!(w.as_str(), "into" | "to" | "onto" | "on" | "in"))
            .filter(keep)
            .cloned()
            .collect(),
        _ => Vec::new(),
    }
}

/// Lower-case words, a possessive or "is" contraction dropped ("when's" → "when",
/// "Dana's" → "dana"); "cc'd" stays whole.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '\u{2019}')
        .map(|w| w.replace('\u{2019}', "'"))
        .map(|w| {
            let w = w.trim_matches('\'').to_lowercase();
            w.strip_suffix("'s").map(str::to_string).unwrap_or(w)
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn words_of(text: &str) -> Vec<String> {
    words(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::people::AddressBook;

    fn ask(q: &str) -> Option<GraphAsk> {
        let book = AddressBook::build([("Dana Whitlock", "dana@quill.example")].into_iter());
        let known = |words: &[String]| words.first().is_some_and(|w| w == "kestrel");
        graph_ask(&Question::read(q, &book, 0), &known)
    }

    #[test]
    fn participation_is_read_from_the_question() {
        assert_eq!(
            ask("who else was copied on the kiln permit?"),
            Some(GraphAsk::Participants {
                topic: vec!["kiln".into(), "permit".into()],
                among: Among::Copied
            })
        );
        assert_eq!(
            ask("who received the orchard budget memo?"),
            Some(GraphAsk::Participants {
                topic: vec!["orchard".into(), "budget".into()],
                among: Among::Recipients
            })
        );
        // One email's main recipient is for its headers, not the conversation's.
        assert_eq!(
            ask("who is the main recipient of the orchard budget?"),
            None
        );
        assert_eq!(
            ask("who is on the orchard budget thread?"),
            Some(GraphAsk::Participants {
                topic: vec!["orchard".into(), "budget".into()],
                among: Among::Everyone
            })
        );
        assert_eq!(
            ask("when was Dana added to the orchard budget thread?"),
            Some(GraphAsk::Joined {
                topic: vec!["orchard".into(), "budget".into()],
                person: vec!["dana".into()]
            })
        );
        assert_eq!(
            ask("who was looped in on the Tamarind contract?"),
            Some(GraphAsk::Joined {
                topic: vec!["tamarind".into(), "contract".into()],
                person: vec![]
            })
        );
        assert_eq!(
            ask("who pulled priya raman into the orchard budget thread?"),
            Some(GraphAsk::Joined {
                topic: vec!["orchard".into(), "budget".into()],
                person: vec!["priya".into(), "raman".into()]
            })
        );
        assert_eq!(
            ask("when did priya get the orchard party invite?"),
            Some(GraphAsk::Joined {
                topic: vec!["orchard".into(), "party".into()],
                person: vec!["priya".into()]
            })
        );
        assert_eq!(
            ask("who first brought up the tamarind lease?"),
            Some(GraphAsk::FirstMention {
                topic: vec!["tamarind".into(), "lease".into()]
            })
        );
        assert_eq!(
            ask("when did the orchard party first come up?"),
            Some(GraphAsk::FirstMention {
                topic: vec!["orchard".into(), "party".into()]
            })
        );
        assert_eq!(ask("when is the orchard party, since it got moved?"), None);
        // Who was on it comes first, whatever else the question says.
        assert!(matches!(
            ask("who else at kestrel was on the latest lease reply?"),
            Some(GraphAsk::AtOrganisation { .. })
        ));
        assert_eq!(
            ask("when is the orchard party now that it got moved?"),
            Some(GraphAsk::CurrentValue {
                topic: vec!["orchard".into(), "party".into(), "moved".into()]
            })
        );
        assert_eq!(
            ask("when's the tamarind walkthrough now?"),
            Some(GraphAsk::CurrentValue {
                topic: vec!["tamarind".into(), "walkthrough".into()]
            })
        );
        assert_eq!(
            ask("what's the current rent on the tamarind lease?"),
            Some(GraphAsk::CurrentValue {
                topic: vec!["rent".into(), "tamarind".into(), "lease".into()]
            })
        );
        // Words after "from" that name no organisation are the topic's.
        assert_eq!(
            ask("who got copied on the pottery notes from marisol quinn?"),
            Some(GraphAsk::Participants {
                topic: vec![
                    "pottery".into(),
                    "notes".into(),
                    "marisol".into(),
                    "quinn".into()
                ],
                among: Among::Copied
            })
        );
        // A name the address book does not know still names who is asked about.
        assert_eq!(
            ask("when did Priya Raman join the orchard budget thread?"),
            Some(GraphAsk::Joined {
                topic: vec!["orchard".into(), "budget".into()],
                person: vec!["priya".into(), "raman".into()]
            })
        );
        assert_eq!(
            ask("who have I dealt with at Kestrel Freight?"),
            Some(GraphAsk::AtOrganisation {
                organisation: vec!["kestrel".into(), "freight".into()],
                topic: vec![]
            })
        );
    }

    #[test]
    fn questions_about_what_the_mail_says_are_not_participation() {
        assert_eq!(ask("who is catering the orchard party?"), None);
        assert_eq!(ask("when is the kiln permit due?"), None);
        assert_eq!(ask("what did Dana say about the budget?"), None);
    }
}
