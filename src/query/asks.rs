//! What a read question asks for beyond its words: every recipient of a message,
//! or what a message asks of its reader.

use super::question::{words, Question, QuestionType};
use super::terms::{content_words, is_stop};
use crate::lexicon::{ASKING_WORDS, MESSAGE_WORDS};

impl Question {
    /// Whether the question asks who got a message, all of them ("who received the
    /// memo?", "who was it sent to?"), rather than one recipient picked out by a
    /// kind ("which lawyer got it?"), a place ("who at the bank was copied?") or a
    /// single role ("who is the main recipient?").
    pub fn asks_every_recipient(&self) -> bool {
        if !matches!(self.qtype, QuestionType::Who | QuestionType::List) || !self.cues.recipient {
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

    /// Whether the question asks what a message asks of its reader, and nothing
    /// more: "what is requested?", "what does Nora want?", "what is he asking
    /// for in this email?". Its only words are the asking itself, the people who
    /// ask and the message, so there is nothing of its own to read a sentence
    /// against: the answer is the message's request, if it makes one.
    pub fn asks_for_the_request(&self) -> bool {
        if self.qtype != QuestionType::What {
            return false;
        }
        let named: Vec<String> = self
            .people
            .iter()
            .flat_map(|p| content_words(&p.mention))
            .collect();
        // Its words, the asking ones kept even where they are stop words.
        let rest: Vec<String> = words(&self.question)
            .into_iter()
            .filter(|w| ASKING_WORDS.contains(&w.as_str()) || !is_stop(w))
            .filter(|w| !named.contains(w) && !MESSAGE_WORDS.contains(&w.as_str()))
            .filter(|w| {
                !matches!(
                    w.as_str(),
                    "be" | "being" | "been" | "there" | "what's" | "whats"
                )
            })
            .collect();
        !rest.is_empty() && rest.iter().all(|w| ASKING_WORDS.contains(&w.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use crate::query::people::AddressBook;
    use crate::query::question::Question;

    fn read(q: &str) -> Question {
        Question::read(q, &AddressBook::default(), 0)
    }

    #[test]
    fn a_question_of_nothing_but_the_asking_asks_for_the_request() {
        for q in [
            "What is requested?",
            "what does the sender want",
            "What is being asked for in this email?",
            "what's the request",
            "What was needed?",
        ] {
            assert!(read(q).asks_for_the_request(), "{q}");
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
        ] {
            assert!(!read(q).asks_for_the_request(), "{q}");
        }
    }
}
