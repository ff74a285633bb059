//! A conversation keeps its turns so that a follow-up can lean on them. Before
//! retrieval, a question that only makes sense after the previous one ("and when is
//! it due?", "who else was on it?") or that corrects it ("no, I meant the one from
//! Sally") is rewritten into a standalone question, which is shown to the user.

use crate::query::terms::content_words;
use serde::{Deserialize, Serialize};

/// A message an answer cited, remembered for follow-ups.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct CitedMessage {
    pub key: String,
    pub thread_id: String,
    pub from: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Turn {
    pub question: String,
    /// The standalone question that was searched for.
    pub rewrite: String,
    pub answer: Option<String>,
    pub cited: Vec<CitedMessage>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Conversation {
    pub turns: Vec<Turn>,
    /// The thread the user is looking at, if any: searched first.
    pub thread: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnKind {
    New,
    FollowUp,
    Correction,
}

/// How a question reads in its conversation.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Resolved {
    pub kind: TurnKind,
    pub standalone: String,
    /// Threads to search first (those the previous answer cited).
    pub prefer_threads: Vec<String>,
    /// Messages the user turned away from ("not that one").
    pub avoid_messages: Vec<String>,
}

use crate::lexicon::{
    CORRECTION_OPENERS, FOLLOW_UP_OPENERS as FOLLOW_OPENERS, PERSON_PRONOUNS,
    THING_PRONOUNS as PRONOUNS,
};
use crate::query::question::QuestionType;

/// A question this short, with at most one content word, is elliptical ("and the
/// address?", "when?"): it leans on the turn before.
const ELLIPTICAL_WORDS: usize = 3;
/// A question with a pronoun and at most this many content words of its own leans on
/// the turn before ("when is she interviewing him?"); with more, it stands alone.
const PRONOUN_OWN_WORDS: usize = 2;

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The topic of a standalone question: its content words without question cues.
fn topic(question: &str) -> String {
    content_words(question)
        .into_iter()
        .filter(|w| !crate::lexicon::VALUE_WORDS.contains(&w.as_str()))
        .collect::<Vec<_>>()
        .join(" ")
}

impl Conversation {
    pub fn last(&self) -> Option<&Turn> {
        self.turns.last()
    }

    /// Reads `question` against the turns so far.
    pub fn resolve(&self, question: &str) -> Resolved {
        let q = question.trim();
        let lower = q.to_lowercase();
        let Some(prev) = self.last() else {
            return Resolved {
                kind: TurnKind::New,
                standalone: q.to_string(),
                prefer_threads: Vec::new(),
                avoid_messages: Vec::new(),
            };
        };
        let prev_threads: Vec<String> = {
            let mut t: Vec<String> = prev.cited.iter().map(|c| c.thread_id.clone()).collect();
            t.dedup();
            t
        };
        if CORRECTION_OPENERS.iter().any(|p| lower.starts_with(p)) || lower.contains("i meant") {
            let content = correction_content(q);
            let frame = prev.rewrite.trim_end_matches(['?', '.', ' ']);
            return Resolved {
                kind: TurnKind::Correction,
                standalone: format!("{frame}, {content}?"),
                prefer_threads: Vec::new(),
                avoid_messages: prev.cited.iter().map(|c| c.key.clone()).collect(),
            };
        }
        let ws = words(q);
        let own_content = content_words(q);
        let pronoun = ws.iter().find(|w| PRONOUNS.contains(&w.as_str()));
        let person = ws.iter().find(|w| PERSON_PRONOUNS.contains(&w.as_str()));
        let opener = FOLLOW_OPENERS.iter().any(|p| lower.starts_with(p));
        // Only a question that needs the turn before is read with it: an opener
        // ("and when?"), a pronoun with little else of its own, or ellipsis. A
        // complete question ("who sent the email?") stands alone.
        let leans_on_pronoun =
            (pronoun.is_some() || person.is_some()) && own_content.len() <= PRONOUN_OWN_WORDS;
        let elliptical = ws.len() <= ELLIPTICAL_WORDS && own_content.len() <= 1;
        if !(opener || leans_on_pronoun || elliptical) {
            return Resolved {
                kind: TurnKind::New,
                standalone: q.to_string(),
                prefer_threads: Vec::new(),
                avoid_messages: Vec::new(),
            };
        }
        let prev_topic = topic(&prev.rewrite);
        let body = strip_opener(q);
        let mut rewritten = String::new();
        let mut replaced = false;
        // "he" or "she" after "what did Sally say" is the person who wrote; after
        // "who is writing the story", it is the answer, which a quote may not name.
        let mut person_named = matches!(QuestionType::of(&prev.rewrite), QuestionType::Who);
        for token in body.split_inclusive(|c: char| c.is_whitespace()) {
            let bare = token.trim().trim_end_matches(['?', '.', ',', '!']);
            let tail = &token.trim()[bare.len()..];
            let lower_bare = bare.to_lowercase();
            let ws_after = if token.ends_with(char::is_whitespace) {
                " "
            } else {
                ""
            };
            if !replaced && PRONOUNS.contains(&lower_bare.as_str()) && !prev_topic.is_empty() {
                rewritten.push_str(&format!("the {prev_topic}{tail}{ws_after}"));
                replaced = true;
            } else if !person_named && PERSON_PRONOUNS.contains(&lower_bare.as_str()) {
                match prev
                    .cited
                    .first()
                    .map(|c| c.from.clone())
                    .filter(|f| !f.is_empty())
                {
                    Some(name) => rewritten.push_str(&format!("{name}{tail}{ws_after}")),
                    None => rewritten.push_str(token),
                }
                person_named = true;
            } else {
                rewritten.push_str(token);
            }
        }
        let mut standalone = rewritten.trim().to_string();
        if !replaced && !prev_topic.is_empty() {
            let stem = standalone.trim_end_matches(['?', '.']);
            standalone = format!("{stem} about the {prev_topic}?");
        }
        if let Some(first) = standalone.get(..1) {
            standalone = format!("{}{}", first.to_uppercase(), &standalone[1..]);
        }
        Resolved {
            kind: TurnKind::FollowUp,
            standalone,
            prefer_threads: prev_threads,
            avoid_messages: Vec::new(),
        }
    }

    pub fn push(&mut self, turn: Turn) {
        self.turns.push(turn);
    }
}

fn strip_opener(q: &str) -> String {
    let lower = q.to_lowercase();
    for p in ["and ", "also ", "then "] {
        if lower.starts_with(p) {
            return q[p.len()..].trim_start().to_string();
        }
    }
    q.to_string()
}

/// What a correction says instead: "no, I meant the one from Sally" → "the one from Sally".
fn correction_content(q: &str) -> String {
    let mut rest = q.trim();
    let lower = rest.to_lowercase();
    for p in [
        "no,",
        "nope,",
        "no ",
        "nope ",
        "actually,",
        "wrong,",
        "wrong ",
    ] {
        if lower.starts_with(p) {
            rest = rest[p.len()..].trim_start();
            break;
        }
    }
    let lower = rest.to_lowercase();
    if let Some(i) = lower.find("i meant") {
        rest = rest[i + "i meant".len()..].trim_start();
    } else if let Some(i) = lower.find("i mean ") {
        rest = rest[i + "i mean ".len()..].trim_start();
    }
    // "not that thread, the one from Sally" → "the one from Sally".
    let lower = rest.to_lowercase();
    if lower.starts_with("not ") {
        if let Some(i) = rest.find(',') {
            rest = rest[i + 1..].trim_start();
        }
    }
    rest.trim_end_matches(['?', '.', '!']).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv() -> Conversation {
        let mut c = Conversation::default();
        c.push(Turn {
            question: "What did Sally say about the Westgate report?".into(),
            rewrite: "What did Sally say about the Westgate report?".into(),
            answer: Some("\"The report is late\" [1]".into()),
            cited: vec![CitedMessage {
                key: "k1".into(),
                thread_id: "t1".into(),
                from: "Sally Beck".into(),
            }],
        });
        c
    }

    #[test]
    fn a_first_question_stands_alone() {
        let r = Conversation::default().resolve("When is the offsite?");
        assert_eq!(r.kind, TurnKind::New);
        assert_eq!(r.standalone, "When is the offsite?");
    }

    #[test]
    fn pronoun_follow_ups_take_the_previous_topic_and_threads() {
        let r = conv().resolve("and when is it due?");
        assert_eq!(r.kind, TurnKind::FollowUp);
        assert_eq!(r.standalone, "When is the sally westgate report due?");
        assert_eq!(r.prefer_threads, vec!["t1"]);
        let r = conv().resolve("who else was on it?");
        assert_eq!(r.standalone, "Who else was on the sally westgate report?");
        let r = conv().resolve("what did she want?");
        assert_eq!(
            r.standalone,
            "What did Sally Beck want about the sally westgate report?"
        );
    }

    #[test]
    fn ellipsis_follow_ups_append_the_topic() {
        let r = conv().resolve("and the deadline?");
        assert_eq!(
            r.standalone,
            "The deadline about the sally westgate report?"
        );
    }

    #[test]
    fn corrections_reframe_the_previous_question_and_avoid_its_answer() {
        let r = conv().resolve("no, I meant the one from Phillip");
        assert_eq!(r.kind, TurnKind::Correction);
        assert_eq!(
            r.standalone,
            "What did Sally say about the Westgate report, the one from Phillip?"
        );
        assert_eq!(r.avoid_messages, vec!["k1"]);
        let r = conv().resolve("not that thread, the gas storage one");
        assert_eq!(
            r.standalone,
            "What did Sally say about the Westgate report, the gas storage one?"
        );
    }

    #[test]
    fn a_new_full_question_is_not_a_follow_up() {
        for q in [
            "What is the strike price of the options in the plan?",
            // Short, but complete: it needs nothing of the turn before.
            "Who sent the email?",
            "When does the board meet?",
            "Where is the dinner on Friday?",
        ] {
            let r = conv().resolve(q);
            assert_eq!(r.kind, TurnKind::New, "{q}");
            assert_eq!(r.standalone, q);
        }
        // Elliptical or leaning on a pronoun: read with the turn before.
        for q in [
            "and when?",
            "When is she arriving?",
            "what's their address?",
        ] {
            assert_eq!(conv().resolve(q).kind, TurnKind::FollowUp, "{q}");
        }
    }
}
