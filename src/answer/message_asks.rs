//! "What are they requesting?", "what is attached?": a question whose only words are the
//! asking itself ([`MessageAsk`]) is answered by the chosen message's sentence of
//! that kind (its request, the one that speaks of its attachment), or not at all.
//! The reader has nothing of the question's own to read a sentence against, so it
//! is not asked.

use crate::answer::candidates::CandidateKind;
use crate::answer::evidence::EvidencePack;
use crate::answer::select::Scored;
use crate::lexicon::{has_phrase, COURTESY_OFFERS, IMPERATIVE_VERBS, REQUEST_CUES};
use crate::query::asks::MessageAsk;

/// Whether a sentence asks something of its reader: a request phrase ("please
/// send", "could you", "let me know"), a question put to them, or the imperative
/// ("Look at the draft", "Jo, send me the figures"). An offer of help in case of
/// need ("call me with any questions") asks nothing.
pub fn makes_request(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    if has_phrase(&lower, COURTESY_OFFERS) {
        return false;
    }
    has_phrase(&lower, REQUEST_CUES)
        || (lower.trim_end().ends_with('?') && has_phrase(&lower, &["you", "your"]))
        || opens_imperative(&lower)
}

/// Whether a lowercased sentence opens with a verb of the imperative, after a
/// short address to its reader ("guys,", "hi jo,").
fn opens_imperative(lower: &str) -> bool {
    let rest = match lower.split_once(',') {
        Some((head, rest)) if head.split_whitespace().count() <= 3 => rest,
        _ => lower,
    };
    rest.split_whitespace()
        .next()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
        .is_some_and(|w| IMPERATIVE_VERBS.contains(&w))
}

/// Whether a sentence speaks of what its message attaches ("Attached is the draft",
/// "two files are enclosed").
pub fn refers_to_attachment(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    has_phrase(
        &lower,
        &[
            "attached",
            "attachment",
            "attachments",
            "enclosed",
            "attaching",
        ],
    )
}

/// Puts first the best-scored sentence of the kind `ask` wants in the message the
/// best candidate comes from; false (nothing moved) when that message has none.
pub fn answer_first(scored: &mut [Scored], pack: &EvidencePack, ask: MessageAsk) -> bool {
    let message_of = |s: &Scored| pack.items.get(s.candidate.item).map(|it| it.key.as_str());
    let Some(chosen) = scored.first().and_then(message_of) else {
        return false;
    };
    let fits = |text: &str| match ask {
        MessageAsk::Request => makes_request(text),
        MessageAsk::Attachment => refers_to_attachment(text),
    };
    let found = scored.iter().position(|s| {
        s.candidate.kind == CandidateKind::Sentence
            && message_of(s) == Some(chosen)
            && fits(&s.candidate.text)
    });
    match found {
        Some(i) => {
            scored[..=i].rotate_right(1);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_phrases_of_asking_or_questions_put_to_the_reader() {
        for s in [
            "Please send me the signed lease by Friday.",
            "Could you check the meter readings for March?",
            "Let me know which room works for the review.",
            "Do you have the badge numbers for the new hires?",
            "Team, review the attached schedule before the call.",
            "Send me the revised figures.",
        ] {
            assert!(makes_request(s), "{s}");
        }
        for s in [
            "The pleasant weather held through the weekend.",
            "We shipped the last turbine on Tuesday.",
            "Why did the price of copper fall?",
            "Sending the revised figures now.",
            "In March, the board set the rates.",
            "Give me a ring if you have any questions on the budget.",
            "Let me know of any problems with the new login.",
        ] {
            assert!(!makes_request(s), "{s}");
        }
    }

    #[test]
    fn attachments_are_spoken_of_as_attached_or_enclosed() {
        assert!(refers_to_attachment("Attached is the signed lease."));
        assert!(refers_to_attachment(
            "Two files are enclosed with this note."
        ));
        assert!(!refers_to_attachment("We filed the lease on Monday."));
    }
}
