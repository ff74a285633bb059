//! What a read question asks for beyond its words: every recipient of a message,
//! or what a message asks of its reader.

use super::question::{words, Question, QuestionType};
use super::terms::{content_words, is_stop};
use crate::lexicon::{ASKING_WORDS, ATTACHED_WORDS, MESSAGE_WORDS};

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
}
