//! "What's Dana's cell number?", "what is Jo Lin's job title?", "fax for Owen Pratt",
//! "what does Marta Quill do?": a question that asks for a person's telephone number
//! or job title, which their card says (see [`crate::mail::card`]). Read from the
//! question's words alone: the person is the words left when the question's own
//! words are taken away, and the engine finds them on a card by name.

use crate::mail::card::PhoneKind;
use crate::query::terms::is_stop;

/// What the question asks of a person's card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    Title,
    Phone(PhoneKind),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DetailAsk {
    pub detail: Detail,
    /// The person's name words as asked, lowercase.
    pub person: Vec<String>,
    /// Asked so plainly ("who is Dana Reyes?") that it asks for a card only when the
    /// words name someone the mail's headers know.
    pub known_only: bool,
}

/// Words that name a telephone line, with the kind they ask for.
const PHONE_WORDS: &[(&str, PhoneKind)] = &[
    ("phone", PhoneKind::Unlabelled),
    ("telephone", PhoneKind::Unlabelled),
    ("cell", PhoneKind::Mobile),
    ("cellphone", PhoneKind::Mobile),
    ("mobile", PhoneKind::Mobile),
    ("fax", PhoneKind::Fax),
];
/// Words that name a job.
const TITLE_WORDS: &[&str] = &["title", "position", "job", "role"];
/// Words a detail question wraps the name in.
const WRAPPING: &[&str] = &[
    "what", "whats", "what's", "is", "are", "was", "were", "the", "a", "an", "his", "her", "their",
    "my", "new", "current", "latest", "old", "direct", "office", "work", "desk", "give", "me",
    "tell", "find", "get", "i", "need", "do", "does", "you", "have", "know", "please", "number",
    "job", "now", "official", "s",
];
/// Words after which the rest of the question qualifies the detail ("at Dynegy").
const QUALIFIERS: &[&str] = &["at", "in", "with", "from", "these", "nowadays"];
/// Longest name, in words.
const NAME_WORDS: usize = 3;

/// The card detail a question asks for, with whose.
pub fn detail_ask(question: &str) -> Option<DetailAsk> {
    let (words, possessive) = words(question);
    if let Some(ask) = what_they_do(&words)
        .or_else(|| who_they_are(&words))
        .or_else(|| how_to_call(&words))
    {
        return Some(ask);
    }
    let at = words
        .iter()
        .position(|w| PHONE_WORDS.iter().any(|(p, _)| p == w) || TITLE_WORDS.contains(&w.as_str()));
    // "what's Dana's number?": a bare number of a person.
    let at = at.or_else(|| {
        words
            .iter()
            .position(|w| w == "number")
            .filter(|&i| i > 0 && possessive[i - 1])
    })?;
    let word = words[at].as_str();
    let detail = match PHONE_WORDS.iter().find(|(p, _)| *p == word) {
        Some((_, kind)) => {
            let desk = words[..at]
                .iter()
                .any(|w| matches!(w.as_str(), "office" | "work" | "desk" | "direct"));
            Detail::Phone(if desk && *kind == PhoneKind::Unlabelled {
                PhoneKind::Desk
            } else {
                *kind
            })
        }
        None if word == "number" => Detail::Phone(PhoneKind::Unlabelled),
        None => Detail::Title,
    };
    // The detail's own words after it ("phone number", "job title").
    let mut after = at + 1;
    while after < words.len() && matches!(words[after].as_str(), "number" | "title" | "no") {
        after += 1;
    }
    let rest = &words[after..];
    let person: Vec<String> = match rest.first().map(String::as_str) {
        Some("for" | "of") => rest[1..]
            .iter()
            .take_while(|w| !QUALIFIERS.contains(&w.as_str()))
            .filter(|w| !WRAPPING.contains(&w.as_str()))
            .cloned()
            .collect(),
        None => before(&words[..at]),
        Some(q) if QUALIFIERS.contains(&q) && word != "role" => before(&words[..at]),
        Some(_) => return None,
    };
    named(person).map(|person| DetailAsk {
        detail,
        person,
        known_only: false,
    })
}

/// "Who is Dana Reyes?": what their card says they do.
fn who_they_are(words: &[String]) -> Option<DetailAsk> {
    let [who, is, rest @ ..] = words else {
        return None;
    };
    if who != "who" || is != "is" || rest.iter().any(|w| WRAPPING.contains(&w.as_str())) {
        return None;
    }
    named(rest.to_vec()).map(|person| DetailAsk {
        detail: Detail::Title,
        person,
        known_only: true,
    })
}

/// "How do I reach Dana?", "how can we call Owen Pratt?": a number to call.
fn how_to_call(words: &[String]) -> Option<DetailAsk> {
    let [how, can, we, verb, rest @ ..] = words else {
        return None;
    };
    if !matches!(can.as_str(), "do" | "can" | "could" | "should")
        || !matches!(we.as_str(), "i" | "we" | "you")
    {
        return None;
    }
    let by_phone = matches!(rest, [.., by, phone] if by == "by" && phone == "phone");
    let rest = if by_phone {
        &rest[..rest.len() - 2]
    } else {
        rest
    };
    let calls = matches!(verb.as_str(), "call" | "ring" | "phone")
        || (verb == "reach" && (by_phone || rest.len() <= NAME_WORDS));
    if how != "how" || !calls {
        return None;
    }
    named(rest.to_vec()).map(|person| DetailAsk {
        detail: Detail::Phone(PhoneKind::Unlabelled),
        person,
        known_only: verb == "reach" && !by_phone,
    })
}

/// "What does Marta Quill do (for a living)?"
fn what_they_do(words: &[String]) -> Option<DetailAsk> {
    let [what, does, rest @ ..] = words else {
        return None;
    };
    if !matches!(what.as_str(), "what") || !matches!(does.as_str(), "does" | "do") {
        return None;
    }
    let end = rest.iter().position(|w| w == "do")?;
    let tail: Vec<&str> = rest[end + 1..].iter().map(String::as_str).collect();
    let for_work = matches!(
        tail.as_slice(),
        [] | ["for", "a", "living"] | ["for", "work"] | ["now"] | ["there"]
    );
    if !for_work {
        return None;
    }
    named(rest[..end].to_vec()).map(|person| DetailAsk {
        detail: Detail::Title,
        person,
        known_only: false,
    })
}

/// The name words before the detail word.
fn before(words: &[String]) -> Vec<String> {
    words
        .iter()
        .filter(|w| !WRAPPING.contains(&w.as_str()))
        .cloned()
        .collect()
}

/// A name: one to three words, letters only, none of them an ordinary small word.
fn named(person: Vec<String>) -> Option<Vec<String>> {
    let ok = (1..=NAME_WORDS).contains(&person.len())
        && person
            .iter()
            .all(|w| w.chars().all(char::is_alphabetic) && w.len() > 1 && !is_stop(w));
    ok.then_some(person)
}

/// The question's words, lowercase and without a possessive `'s`, and whether each
/// had one.
fn words(question: &str) -> (Vec<String>, Vec<bool>) {
    let mut words = Vec::new();
    let mut possessive = Vec::new();
    for raw in question
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .filter(|w| !w.is_empty())
    {
        let w = raw.to_lowercase().replace('\u{2019}', "'");
        if let Some(wh) = ["what", "who"]
            .into_iter()
            .find(|wh| w == format!("{wh}'s") || w == format!("{wh}s"))
        {
            words.push(wh.to_string());
            possessive.push(false);
            words.push("is".to_string());
            possessive.push(false);
            continue;
        }
        let (bare, has) = match w.strip_suffix("'s").or_else(|| w.strip_suffix('\'')) {
            Some(b) => (b.to_string(), true),
            None => (w, false),
        };
        if !bare.is_empty() {
            words.push(bare);
            possessive.push(has);
        }
    }
    (words, possessive)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(q: &str) -> Option<(Detail, Vec<String>)> {
        detail_ask(q).map(|a| (a.detail, a.person))
    }

    #[test]
    fn who_someone_is_and_how_to_call_them_ask_a_card_of_a_known_person() {
        let plain = detail_ask("Who is Marta Quill?").expect("asks");
        assert_eq!(plain.detail, Detail::Title);
        assert!(plain.known_only);
        let call = detail_ask("how can I call Owen Pratt?").expect("asks");
        assert_eq!(call.detail, Detail::Phone(PhoneKind::Unlabelled));
        assert!(!call.known_only);
        assert_eq!(
            detail_ask("how do I reach Dana by phone?").map(|a| a.person),
            Some(person(&["dana"]))
        );
        assert!(detail_ask("how do I reach Dana?").expect("asks").known_only);
        for q in [
            "who is the site manager?",
            "who is coming on Friday?",
            "how do I reach the north pier from the depot?",
        ] {
            assert_eq!(ask(q), None, "{q}");
        }
    }

    fn person(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn a_persons_number_or_title_is_asked_many_ways() {
        use PhoneKind::*;
        let phone = |k| Detail::Phone(k);
        assert_eq!(
            ask("What's Dana's cell number?"),
            Some((phone(Mobile), person(&["dana"])))
        );
        assert_eq!(
            ask("what is Jo Lin's job title?"),
            Some((Detail::Title, person(&["jo", "lin"])))
        );
        assert_eq!(
            ask("fax for Owen Pratt"),
            Some((phone(Fax), person(&["owen", "pratt"])))
        );
        assert_eq!(
            ask("marta quill office phone"),
            Some((phone(Desk), person(&["marta", "quill"])))
        );
        assert_eq!(
            ask("What's Ivo Brandt's phone number at Larchmont?"),
            Some((phone(Unlabelled), person(&["ivo", "brandt"])))
        );
        assert_eq!(
            ask("what's Noor's number?"),
            Some((phone(Unlabelled), person(&["noor"])))
        );
        assert_eq!(
            ask("What does Marta Quill do?"),
            Some((Detail::Title, person(&["marta", "quill"])))
        );
        assert_eq!(
            ask("What is the position of Ada Voss?"),
            Some((Detail::Title, person(&["ada", "voss"])))
        );
    }

    #[test]
    fn other_questions_with_those_words_are_not_asks_of_a_card() {
        for q in [
            "What was Kim's role in the merger?",
            "What does Owen do with the spare keys?",
            "What's the serial number on the pump?",
            "Why is the fax machine broken again?",
            "Who took over the phone rota?",
            "What number did the auditors find for Q3?",
            "When does the new position open?",
        ] {
            assert_eq!(ask(q), None, "{q}");
        }
    }
}
