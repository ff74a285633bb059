//! A question read once: what it asks for, what it names, and where to look. The
//! typed [`Question`] travels through the whole answer: retrieval searches with the
//! query it builds (no string to parse again), and the evidence selector reads its
//! answer types, focus, slots and cues as features.
//!
//! Everything here is deterministic and explainable: `quoth ask --json` shows the
//! reading as `plan`.

use super::natural_date::{find_date, DateMention};
use super::people::{AddressBook, PersonMention};
pub use super::question_type::QuestionType;
use super::question_type::{focus_words, keyword_focus};
use super::syntax::{Query, TextField};
use super::terms::{content_words, stem};
use crate::lexicon::{
    focus_type, has_phrase, FocusType, ADDRESS_CUES, ATTACHMENT_WORDS, FOLDER_PHRASES,
    MONEY_QUESTION_WORDS, PHONE_LINE_WORDS, RECIPIENT_CUES, REQUEST_CUES, SENDER_CUES,
    SUBJECT_CUES, TITLES,
};
use serde::Serialize;

/// Kinds of value an answer may state; a question expects some of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    Person,
    Organization,
    Date,
    Time,
    Money,
    Quantity,
    Place,
    Phone,
    Email,
    Code,
}

impl AnswerKind {
    pub const ALL: [AnswerKind; 10] = [
        AnswerKind::Person,
        AnswerKind::Organization,
        AnswerKind::Date,
        AnswerKind::Time,
        AnswerKind::Money,
        AnswerKind::Quantity,
        AnswerKind::Place,
        AnswerKind::Phone,
        AnswerKind::Email,
        AnswerKind::Code,
    ];

    pub fn index(self) -> usize {
        Self::ALL.iter().position(|k| *k == self).unwrap_or(0)
    }
}

/// A specific thing the question names: a number, a code ("#1", "N5733") or a name.
/// The answer must be about it: a sentence that gives another of its kind instead
/// ("#2" for "#1") contradicts it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Slot {
    pub text: String,
    pub kind: SlotKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotKind {
    Number,
    Code,
    Name,
}

/// What the question asks about the message itself, by its words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Cues {
    pub sender: bool,
    pub recipient: bool,
    pub address: bool,
    pub subject: bool,
    pub attachment: bool,
    pub request: bool,
    /// Asks about money ("pay", "cost", "price"), not any amount.
    pub money: bool,
}

/// A folder the question restricts itself to.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FolderMention {
    pub phrase: String,
    pub folder: String,
}

/// A question, read.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Question {
    /// The standalone question (a follow-up already rewritten).
    pub question: String,
    pub qtype: QuestionType,
    /// The words to search for, with dates, folders and question words taken out.
    pub text: String,
    pub people: Vec<PersonMention>,
    pub date: Option<DateMention>,
    /// The question is about an attachment ("the attached file", "the PDF").
    pub attachment: bool,
    pub folder: Option<FolderMention>,
    /// The phrase after "what"/"which", as stems, its head last ("which hotel" →
    /// hotel).
    pub focus: Vec<String>,
    /// What "how many" counts, as stems ("how many double rooms did we book" →
    /// double, room): the figure that answers is the one these words follow.
    pub counted: Vec<String>,
    /// The kinds of value that would answer it.
    pub expects: Vec<AnswerKind>,
    /// The kinds of value it cannot be answered without, when it asks for one that
    /// has a single written form the detectors find: a clock time ("what time ..."),
    /// a sum of money ("how much did it cost"), a phone number, an email address.
    /// Empty when an answer may take many forms (a name, a place, a day).
    pub needs: Vec<AnswerKind>,
    pub slots: Vec<Slot>,
    pub cues: Cues,
    /// The stems of its content words, in order.
    pub stems: Vec<String>,
}

/// Date confidence at or above which the date becomes a filter rather than a hint.
/// A month without its year (the latest one) is enough: the search falls back to the
/// whole mailbox when the month holds no answer.
pub const DATE_FILTER_CONFIDENCE: f32 = 0.7;

/// Person confidence at or above which a correspondent becomes a filter.
pub const PERSON_FILTER_CONFIDENCE: f32 = 0.85;

impl Question {
    /// Reads a standalone question against the mailbox's address book, with relative
    /// dates measured from `now`.
    pub fn read(question: &str, book: &AddressBook, now: i64) -> Question {
        let question = question.trim();
        let qtype = QuestionType::of(question);
        let lower = question.to_lowercase();
        let ws = words(question);
        let people = book.mentions(question);
        let date = find_date(question, now);
        let attachment = ws.iter().any(|w| ATTACHMENT_WORDS.contains(&w.as_str()));
        let folder = folder_of(&lower);
        let focus_words = match ws
            .iter()
            .position(|w| matches!(w.as_str(), "what" | "what's" | "whats" | "which"))
        {
            Some(i) => focus_words(&ws, i),
            None if qtype == QuestionType::What => {
                let named: Vec<String> = people
                    .iter()
                    .flat_map(|p| words(&p.mention))
                    .chain(date.iter().flat_map(|d| words(&d.phrase)))
                    .collect();
                keyword_focus(&ws, &named)
            }
            None => Vec::new(),
        };
        let cues = Cues {
            sender: ws.iter().any(|w| SENDER_CUES.contains(&w.as_str())),
            recipient: ws.iter().any(|w| RECIPIENT_CUES.contains(&w.as_str())),
            address: ws.iter().any(|w| ADDRESS_CUES.contains(&w.as_str()))
                && (lower.contains("address") || lower.contains("contact")),
            subject: ws.iter().any(|w| SUBJECT_CUES.contains(&w.as_str())),
            attachment,
            request: has_phrase(&lower, REQUEST_CUES)
                || ws.iter().any(|w| w.starts_with("request")),
            money: ws
                .iter()
                .any(|w| MONEY_QUESTION_WORDS.contains(&w.as_str())),
        };
        let focus_kind = focus_words.last().and_then(|h| focus_type(h));
        let expects = expected_kinds(qtype, focus_kind, &cues, &lower);
        let needs = needed_kinds(&expects, &lower);
        let mut skip: Vec<String> = Vec::new();
        if let Some(d) = &date {
            skip.extend(d.phrase.split_whitespace().map(str::to_string));
        }
        if let Some(f) = &folder {
            skip.extend(content_words(&f.phrase));
        }
        let text: Vec<String> = content_words(question)
            .into_iter()
            .filter(|w| !skip.contains(w))
            .collect();
        Question {
            question: question.to_string(),
            qtype,
            stems: text.iter().map(|w| stem(w)).collect(),
            text: text.join(" "),
            people,
            date,
            attachment,
            folder,
            focus: focus_words.iter().map(|w| stem(w)).collect(),
            counted: counted_words(&ws),
            expects,
            needs,
            slots: slots(question),
            cues,
        }
    }

    /// The search for this question as a query: its words (OR-ed by retrieval's
    /// relaxed pass), and, `with_filters`, the features sure enough to restrict the
    /// search (a folder, an explicit date, a correspondent named in full). Softer
    /// features go to retrieval as hints. No string is built and parsed again.
    pub fn search_query(&self, with_filters: bool, threads: &[String]) -> Query {
        // A word's other spelling ("organised", "organized") is searched beside it.
        let term = |w: &str| {
            let variants = crate::lexicon::spelling_variants(w);
            if variants.is_empty() {
                Query::Term(w.to_string())
            } else {
                Query::Or(
                    std::iter::once(w.to_string())
                        .chain(variants)
                        .map(Query::Term)
                        .collect(),
                )
            }
        };
        let mut parts: Vec<Query> = self
            .text
            .split_whitespace()
            .map(|w| w.trim_matches('$'))
            .filter(|w| !w.is_empty())
            .map(term)
            .collect();
        if parts.is_empty() {
            parts.extend(content_words(&self.question).into_iter().map(Query::Term));
        }
        match threads {
            [] => {}
            [one] => parts.push(Query::Field(TextField::Thread, one.clone())),
            many => parts.push(Query::Or(
                many.iter()
                    .map(|t| Query::Field(TextField::Thread, t.clone()))
                    .collect(),
            )),
        }
        if with_filters {
            if let Some(f) = &self.folder {
                parts.push(Query::Field(TextField::Folder, f.folder.clone()));
            }
            for p in self.filter_people() {
                let any: Vec<Query> = p
                    .match_terms
                    .iter()
                    .filter(|t| t.contains('@') && !t.contains(char::is_whitespace))
                    .flat_map(|a| {
                        [TextField::From, TextField::To, TextField::Cc]
                            .map(|f| Query::Field(f, a.clone()))
                    })
                    .collect();
                if !any.is_empty() {
                    parts.push(Query::Or(any));
                }
            }
            if let Some(d) = self
                .date
                .as_ref()
                .filter(|d| d.confidence >= DATE_FILTER_CONFIDENCE)
            {
                let (start, end) = d.range;
                parts.push(Query::Date { start, end });
            }
        }
        match parts.len() {
            1 => parts.remove(0),
            _ => Query::And(parts),
        }
    }

    /// People the question names in full as the sender or a recipient ("did I ask
    /// Kipp Flores", "what did Sally Beck write"): the search keeps to their mail
    /// first. Someone only talked about ("when do Ivo and Ana Sofia come") is not one.
    pub fn filter_people(&self) -> impl Iterator<Item = &PersonMention> {
        self.people.iter().filter(|p| {
            p.correspondent && p.mention.contains(' ') && p.confidence >= PERSON_FILTER_CONFIDENCE
        })
    }

    /// Whether a date or person read wrongly may have kept the answer out of the
    /// search (as a filter or by favouring other mail), so that a wider search
    /// without them is worth a try.
    pub fn filters_may_hide(&self) -> bool {
        self.date.is_some() || self.filter_people().next().is_some()
    }

    /// Names and addresses of the people asked about, for the people heuristic.
    pub fn people_terms(&self) -> Vec<String> {
        self.people
            .iter()
            .flat_map(|p| p.match_terms.iter().cloned())
            .collect()
    }

    pub fn expects(&self, kind: AnswerKind) -> bool {
        self.expects.contains(&kind)
    }

    /// Words that only scope the search (the folder's name, the date's words): an
    /// answer need not mention them.
    pub fn scope_words(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(f) = &self.folder {
            out.extend(content_words(&f.folder));
            out.push("folder".into());
        }
        if let Some(d) = &self.date {
            out.extend(content_words(&d.phrase));
        }
        out
    }
}

/// The kinds of value that answer a question of this type, focus and cues.
fn expected_kinds(
    qtype: QuestionType,
    focus: Option<FocusType>,
    cues: &Cues,
    lower: &str,
) -> Vec<AnswerKind> {
    use AnswerKind::*;
    let mut out = match focus {
        Some(FocusType::Money) => vec![Money],
        Some(FocusType::Quantity) => vec![Quantity, Money],
        Some(FocusType::Date) => vec![Date],
        Some(FocusType::Time) => vec![Time, Date],
        Some(FocusType::Place) => vec![Place, Organization, Code],
        Some(FocusType::Phone) => vec![Phone],
        Some(FocusType::Organization) => vec![Organization, Person],
        Some(FocusType::Person) => vec![Person],
        None => match qtype {
            QuestionType::Who => vec![Person, Organization],
            QuestionType::When => vec![Date, Time],
            QuestionType::Where => vec![Place, Organization, Code],
            QuestionType::HowMuch if cues.money => vec![Money],
            QuestionType::HowMuch => vec![Quantity, Money],
            _ => Vec::new(),
        },
    };
    if cues.address && lower.contains("email") {
        out.insert(0, Email);
    }
    if lower.contains("phone") || lower.contains("number to call") || names_a_line(lower) {
        out.insert(0, Phone);
    }
    out.dedup();
    out
}

/// Whether a lowercased question asks for the number of a line to call: "number"
/// right after a word such as "cell" or "fax" ("what is Ada's mobile number?").
fn names_a_line(lower: &str) -> bool {
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .any(|w| w[1] == "number" && PHONE_LINE_WORDS.contains(&w[0]))
}

/// Of the expected kinds, the one an answer must state, when the question asks for
/// a value of a single form: its first expected kind is a clock time, a sum of
/// money, a phone number or an email address. "How many" asks for a count, even of
/// things paid for.
fn needed_kinds(expects: &[AnswerKind], lower: &str) -> Vec<AnswerKind> {
    use AnswerKind::*;
    match expects {
        [Time, ..] => vec![Time],
        [Money] if !lower.contains("how many") => vec![Money],
        [Phone, ..] => vec![Phone],
        [Email, ..] => vec![Email],
        _ => Vec::new(),
    }
}

/// The numbers, codes and names a question gives.
fn slots(question: &str) -> Vec<Slot> {
    let mut out: Vec<Slot> = Vec::new();
    let mut push = |text: String, kind: SlotKind| {
        if !out.iter().any(|s| s.text.eq_ignore_ascii_case(&text)) {
            out.push(Slot { text, kind });
        }
    };
    let mut sentence_start = true;
    for raw in question.split_whitespace() {
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric() && c != '#');
        let bare = w.trim_start_matches('#');
        let digits = bare.chars().any(|c| c.is_ascii_digit());
        let letters = bare.chars().any(|c| c.is_alphabetic());
        if w.starts_with('#') && !bare.is_empty() || digits && letters {
            push(w.to_string(), SlotKind::Code);
        } else if digits
            && bare
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == '.')
        {
            // A year or a day of a date is the date's, not a slot.
            if bare.len() != 4 && bare.len() > 1 {
                push(bare.to_string(), SlotKind::Number);
            }
        } else if !sentence_start
            && w.chars().next().is_some_and(char::is_uppercase)
            && w.chars().skip(1).any(char::is_lowercase)
            && !TITLES.contains(&w.to_lowercase().as_str())
            && !crate::lexicon::is_stop_word(&w.to_lowercase())
            && crate::lexicon::month_number(&w.to_lowercase()).is_none()
        {
            push(w.to_string(), SlotKind::Name);
        }
        sentence_start = raw.ends_with(['.', '?', '!', ':']);
    }
    out
}

/// The words "how many" counts, up to the first stop word, as stems.
fn counted_words(ws: &[String]) -> Vec<String> {
    let Some(at) = ws.windows(2).position(|w| w[0] == "how" && w[1] == "many") else {
        return Vec::new();
    };
    ws[at + 2..]
        .iter()
        .take_while(|w| !crate::lexicon::is_stop_word(w))
        .map(|w| stem(w))
        .collect()
}

pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

fn folder_of(lower: &str) -> Option<FolderMention> {
    FOLDER_PHRASES
        .iter()
        .find(|(p, _)| lower.contains(p))
        .map(|(p, f)| FolderMention {
            phrase: p.to_string(),
            folder: f.to_string(),
        })
        .or_else(|| named_folder(lower))
}

/// "in the family folder", "in Ken's elizabeth folder", "from my straw folder": the
/// word before "folder", after a preposition a few words back. A folder that does not
/// exist only narrows the first search; the wider one drops the filter.
fn named_folder(lower: &str) -> Option<FolderMention> {
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '\''))
        .filter(|w| !w.is_empty())
        .collect();
    let at = words.iter().position(|w| *w == "folder")?;
    let name = *words.get(at.checked_sub(1)?)?;
    if matches!(name, "the" | "my" | "a" | "this" | "that" | "same") || name.ends_with("'s") {
        return None;
    }
    let lead = at.saturating_sub(5);
    let from = (lead..at - 1)
        .rev()
        .find(|&i| matches!(words[i], "in" | "among" | "from" | "inside"))?;
    Some(FolderMention {
        phrase: words[from + 1..=at].join(" "),
        folder: name.to_string(),
    })
}

#[cfg(test)]
#[path = "question_tests.rs"]
mod tests;
