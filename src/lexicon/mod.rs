//! Every word list Quoth reads text with, in one place.
//!
//! These are general facts about English and about email, not about any mailbox or
//! question set: the months, how a question asks for a date or a sum, which words
//! mark a greeting or a request, what a forwarded header says. Nothing here may be
//! added because one question needed it; what a list is for is written above it, and
//! a word belongs only when it is a plain instance of that. Where a decision needs
//! weighing (is this sentence the answer?), the lists only give the learned selector
//! its features; the weighing is learned from data (src/answer/select).
//!
//! Words are lowercase; matching is on whole words unless a list says otherwise.
//!
//! The lists are kept by purpose, one module each; every name is also reached as
//! `lexicon::NAME`.

mod dates;
mod mail_text;
mod people;
mod questions;
mod spelling;
mod turns;
mod values;
mod words;

pub use dates::*;
pub use mail_text::*;
pub use people::*;
pub use questions::*;
pub use spelling::*;
pub use turns::*;
pub use values::*;
pub use words::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_match_whole_words_only() {
        assert!(has_phrase("could you send the plans", REQUEST_CUES));
        assert!(!has_phrase("the pleasant view", &["please"]));
        assert!(has_phrase("thanks, john", GREETINGS_AND_SIGNOFFS));
    }

    #[test]
    fn focus_nouns_name_a_kind_of_value() {
        assert_eq!(focus_type("prices"), Some(FocusType::Money));
        assert_eq!(focus_type("hotel"), Some(FocusType::Place));
        assert_eq!(focus_type("dog"), None);
        assert_eq!(full_names("liz").collect::<Vec<_>>(), ["elizabeth"]);
        assert_eq!(month_number("sept"), Some(9));
    }
}
