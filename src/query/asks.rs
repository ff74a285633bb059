//! What a read question asks for beyond its words: every recipient of a message,
//! the part a person plays in it (its sender, its recipients, someone its text
//! names), or what a message asks of its reader.

use super::question::{words, Question, QuestionType};
use super::terms::{content_words, is_stop};
use crate::lexicon::{
    ASKING_WORDS, ATTACHED_WORDS, CONVERSATION_WORDS, GETTING_WORDS, MAIN_WORDS, MENTION_WORDS,
    MESSAGE_WORDS, RECEIVED_WORDS, SENDER_CUES, SENDING_BASE, SENT_PARTICIPLES, SENT_TO_VERBS,
};

impl Question {
    /// Whether the question asks who got a message, all of them ("who received the
    /// memo?", "who was it sent to?"), rather than one recipient picked out by a
    /// kind ("which lawyer got it?"), a place ("who at the bank was copied?") or a
    /// single role ("who is the main recipient?").
    pub fn asks_every_recipient(&self) -> bool {
        if self.asks_role() != Some(AskedRole::Recipients { main: false }) {
            return false;
        }
        let ws = words(&self.question);
        let narrowed = ws
            .iter()
            .position(|w| w == "who")
            .and_then(|i| ws.get(i + 1))
            .is_some_and(|next| matches!(next.as_str(), "at" | "from" | "in" | "on" | "of"));
        self.focus.is_empty() && !narrowed && !ws.iter().any(|w| w == "recipient")
    }

    /// The part the person asked for plays in a message, when a "who" question
    /// says: "who is mentioned?" asks for someone the text names, "who got the
    /// memo?" and "who was it sent to?" for its recipients, "who is the primary
    /// recipient?" for the one it is addressed to, "who wrote it?" for its sender.
    pub fn asks_role(&self) -> Option<AskedRole> {
        let ws = words(&self.question);
        let who = ws
            .first()
            .is_some_and(|w| matches!(w.as_str(), "who" | "who's" | "whom"));
        if !matches!(self.qtype, QuestionType::Who | QuestionType::List) && !who {
            return None;
        }
        let has = |list: &[&str]| ws.iter().any(|w| list.contains(&w.as_str()));
        if has(MENTION_WORDS) {
            return Some(AskedRole::Mentioned);
        }
        // "who was it sent to?": the sending verb with its stranded "to".
        let sent_to = ws.last().is_some_and(|w| w == "to") && has(SENT_TO_VERBS);
        // "who got the memo?": getting, when what was got is a mail.
        let got_mail = has(GETTING_WORDS) && has(CONVERSATION_WORDS);
        if has(RECEIVED_WORDS) || sent_to || got_mail {
            return Some(AskedRole::Recipients {
                main: has(MAIN_WORDS),
            });
        }
        has(SENDER_CUES).then_some(AskedRole::Sender)
    }

    /// Whether the question asks when a message was sent ("when did Oskar send
    /// it?", "when was the memo written?", "what time did she email me?"): the
    /// answer is the message's date, which its headers give. A sending still to
    /// come ("when will you send it?") is not one, nor a time of something else
    /// ("when is the review she wrote about?").
    pub fn asks_when_sent(&self) -> bool {
        let ws = words(&self.question);
        let at = |i: usize| ws.get(i).map(String::as_str);
        // "when", or "what time", "what day", "what date".
        let Some(when) = ws.iter().position(|w| w == "when").or_else(|| {
            ws.iter()
                .position(|w| w == "what")
                .filter(|&i| matches!(at(i + 1), Some("time" | "day" | "date")))
        }) else {
            return false;
        };
        let after = |list: &[&str]| ws[when + 1..].iter().any(|w| list.contains(&w.as_str()));
        let aux = [at(when + 1), at(when + 2)];
        let aux_is = |list: &[&str]| aux.iter().any(|a| a.is_some_and(|a| list.contains(&a)));
        let past = if aux_is(&["did"]) {
            after(SENDING_BASE)
        } else if aux_is(&["was", "were", "has", "had"]) {
            after(SENT_PARTICIPLES)
        } else {
            false
        };
        past && !after(&["will", "should", "shall", "going", "would", "about"])
    }

    /// What the question asks of a message as a whole, when its only words are
    /// that asking, the people who wrote and the message: "what is requested?",
    /// "what does Nora want?" (its request), "what came attached?" (its
    /// attachment). There is nothing of the question's own to read a sentence
    /// against: the answer is the message's sentence of that kind, if it has one.
    pub fn asks_of_the_message(&self) -> Option<MessageAsk> {
        if !matches!(self.qtype, QuestionType::What | QuestionType::List) {
            return None;
        }
        let named: Vec<String> = self
            .people
            .iter()
            .flat_map(|p| content_words(&p.mention))
            .collect();
        let kept = |w: &str| ASKING_WORDS.contains(&w) || ATTACHED_WORDS.contains(&w);
        // Its words, the asking ones kept even where they are stop words.
        let rest: Vec<String> = words(&self.question)
            .into_iter()
            .filter(|w| kept(w) || !is_stop(w))
            .filter(|w| !named.contains(w) && !MESSAGE_WORDS.contains(&w.as_str()))
            .filter(|w| {
                !matches!(
                    w.as_str(),
                    "be" | "being" | "been" | "there" | "what's" | "whats" | "list"
                )
            })
            .collect();
        let all_in =
            |set: &[&str]| !rest.is_empty() && rest.iter().all(|w| set.contains(&w.as_str()));
        if self.qtype == QuestionType::What && all_in(ASKING_WORDS) {
            Some(MessageAsk::Request)
        } else if all_in(ATTACHED_WORDS) {
            Some(MessageAsk::Attachment)
        } else {
            None
        }
    }
}

/// The part in a message of the person a "who" question asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AskedRole {
    /// Who sent or wrote it.
    Sender,
    /// Who got it; `main`: the one it is addressed to, not all of them.
    Recipients { main: bool },
    /// Who its text names: not a sender or a recipient as such.
    Mentioned,
}

/// What a question asks of a message as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageAsk {
    /// What it asks of its reader.
    Request,
    /// What it attaches.
    Attachment,
}

#[cfg(test)]
mod tests {
    use super::MessageAsk;
    use crate::query::people::AddressBook;
    use crate::query::question::Question;

    fn read(q: &str) -> Question {
        Question::read(q, &AddressBook::default(), 0)
    }

    #[test]
    fn a_question_of_nothing_but_the_asking_asks_for_the_request() {
        for q in [
            "What are they requesting?",
            "what does the sender want",
            "What is being asked for in this email?",
            "what's the request",
            "What was needed?",
        ] {
            assert_eq!(
                read(q).asks_of_the_message(),
                Some(MessageAsk::Request),
                "{q}"
            );
        }
    }

    #[test]
    fn a_question_that_names_what_is_asked_about_does_not() {
        for q in [
            "What price was requested for the turbine?",
            "Who requested the report?",
            "What did the auditor want to know about the lease?",
            "When is the request due?",
            "Is anything requested?",
            "What is attached to the invoice for the boiler?",
            "Which spreadsheet did Jo attach about the budget?",
        ] {
            assert_eq!(read(q).asks_of_the_message(), None, "{q}");
        }
    }

    #[test]
    fn a_question_of_nothing_but_the_attaching_asks_for_the_attachment() {
        for q in [
            "What's attached to this message?",
            "what's in the attachment",
            "What files are attached?",
            "List the attachments",
        ] {
            assert_eq!(
                read(q).asks_of_the_message(),
                Some(MessageAsk::Attachment),
                "{q}"
            );
        }
    }

    #[test]
    fn who_questions_say_which_part_the_person_plays() {
        use super::AskedRole::*;
        for (q, role) in [
            ("Who is named in the note?", Some(Mentioned)),
            ("who gets mentioned", Some(Mentioned)),
            (
                "Who received the kiln memo?",
                Some(Recipients { main: false }),
            ),
            ("who got this email", Some(Recipients { main: false })),
            ("Who got the kiln job?", None),
            (
                "who was the survey sent to",
                Some(Recipients { main: false }),
            ),
            ("Who was copied on it?", Some(Recipients { main: false })),
            (
                "Who is the primary addressee?",
                Some(Recipients { main: true }),
            ),
            (
                "who's the main recipient of the memo",
                Some(Recipients { main: true }),
            ),
            ("Who wrote the survey?", Some(Sender)),
            ("who sent this", Some(Sender)),
            ("Who will lead the survey?", None),
            ("What was sent to the mill?", None),
        ] {
            assert_eq!(read(q).asks_role(), role, "{q}");
        }
    }

    #[test]
    fn a_question_of_when_a_message_was_sent_is_told_apart() {
        for q in [
            "When did Oskar send it?",
            "when was the kiln memo sent",
            "What time did she email me?",
            "when did ana forward the lease",
            "When was this written?",
        ] {
            assert!(read(q).asks_when_sent(), "{q}");
        }
        for q in [
            "When will you send the lease?",
            "When is the review she wrote about?",
            "When does the kiln fire?",
            "Who sent the lease?",
            "when should I email the landlord",
        ] {
            assert!(!read(q).asks_when_sent(), "{q}");
        }
    }
}
