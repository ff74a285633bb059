//! The query planner: reads a question in plain words and decides how to search for
//! its answer. Deterministic and explainable: every feature it finds carries the words
//! it came from and a confidence, and `quoth ask --json` shows them.

use super::natural_date::{find_date, DateMention};
use super::people::{AddressBook, PersonMention};
use crate::answer::terms::content_words;
use serde::Serialize;

/// What kind of answer the question wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionType {
    Who,
    When,
    HowMuch,
    Where,
    YesNo,
    List,
    What,
}

impl QuestionType {
    pub fn of(question: &str) -> Self {
        let q = question.trim().to_lowercase();
        let has = |p: &str| q.contains(p);
        let starts = |p: &str| q.starts_with(p);
        // "What did the doctor find when he had his knee scoped?" asks what, not when:
        // a later wh-word opens a clause.
        let first_wh = q
            .split(|c: char| !c.is_alphanumeric())
            .find(|w| {
                [
                    "who", "whom", "whose", "when", "where", "what", "which", "how",
                ]
                .contains(w)
            })
            .unwrap_or("");
        let asks = |wh: &str, p: &str| has(p) && first_wh == wh;
        if has("how much")
            || has("how many")
            || has("what price")
            || has("what amount")
            || has("what rate")
            || has("what percent")
            || has("how big")
            || has("how large")
            || has("what was the price")
            || has("what is the price")
            || has("what's the price")
            || has("what volume")
            || has("what is the cost")
            || has("what did it cost")
        {
            Self::HowMuch
        } else if asks("when", "when ")
            || starts("when")
            || has("what date")
            || has("what time")
            || has("what day")
            || has("which day")
            || has("by when")
            || has("how long")
            || has("deadline")
        {
            Self::When
        } else if asks("who", "who ")
            || starts("who")
            || has("whom")
            || has("whose")
            || has("which person")
            || has("what person")
        {
            Self::Who
        } else if asks("where", "where ")
            || starts("where")
            || has("what location")
            || has("which city")
            || has("what city")
            || has("which office")
        {
            Self::Where
        } else if starts("list ")
            || asks_which_of_many(&q)
            || has("what are the")
            || has("which are the")
            || starts("name the")
            || has("what were the")
        {
            Self::List
        } else if [
            "is ", "am ", "are ", "was ", "were ", "did ", "does ", "do ", "has ", "have ", "had ",
            "can ", "could ", "will ", "would ", "should ", "and did ", "and is ", "and was ",
        ]
        .iter()
        .any(|p| starts(p))
        {
            Self::YesNo
        } else {
            Self::What
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

/// "Which units were vacant", "which forms did I need": a which-question whose
/// noun is plural asks for a list.
fn asks_which_of_many(q: &str) -> bool {
    let Some(rest) = q.strip_prefix("which ") else {
        return false;
    };
    const ENDS: &[&str] = &[
        "did", "do", "does", "is", "are", "was", "were", "has", "have", "had", "will", "would",
        "can", "could", "should", "at", "in", "on", "of", "from", "for", "to", "with", "by",
        "that", "i", "we", "you", "he", "she", "they",
    ];
    let head = rest
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .take_while(|w| !ENDS.contains(w))
        .last()
        .unwrap_or("");
    let head = head.trim_end_matches('\'');
    head.len() > 3 && head.ends_with('s') && !head.ends_with("ss") && !head.ends_with("'s")
}

/// A folder the question restricts itself to.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FolderMention {
    pub phrase: String,
    pub folder: String,
}

/// How to search for a question's answer.
#[derive(Debug, Clone, Serialize)]
pub struct Plan {
    pub question: String,
    pub qtype: QuestionType,
    /// The words to search for, with people, dates and question words taken out.
    pub text: String,
    pub people: Vec<PersonMention>,
    pub date: Option<DateMention>,
    /// The question is about an attachment ("the attached file", "the PDF").
    pub attachment: bool,
    pub folder: Option<FolderMention>,
}

const ATTACHMENT_WORDS: &[&str] = &[
    "attachment",
    "attachments",
    "attached",
    "pdf",
    "spreadsheet",
    "document",
    "file",
    "enclosed",
    "page",
];

/// Date confidence at or above which the date becomes a filter rather than a hint.
/// A month without its year (the latest one) is enough: the search falls back to the
/// whole mailbox when the month holds no answer.
pub const DATE_FILTER_CONFIDENCE: f32 = 0.7;

/// Person confidence at or above which a correspondent becomes a filter.
pub const PERSON_FILTER_CONFIDENCE: f32 = 0.85;

impl Plan {
    pub fn make(question: &str, book: &AddressBook, now: i64) -> Plan {
        let qtype = QuestionType::of(question);
        let people = book.mentions(question);
        let date = find_date(question, now);
        let lower = question.to_lowercase();
        let attachment = content_words(&lower)
            .iter()
            .any(|w| ATTACHMENT_WORDS.contains(&w.as_str()));
        let folder = folder_of(&lower);

        // People stay in the words: a name is often in the text rather than the
        // headers ("did I give Lucy the raise"), and the people heuristic still
        // favours the messages they sent or received.
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
        Plan {
            question: question.to_string(),
            qtype,
            text: text.join(" "),
            people,
            date,
            attachment,
            folder,
        }
    }

    /// The plan as a query in Quoth's search syntax: the words, plus filters for the
    /// features sure enough to restrict the search (a folder, an explicit date, a
    /// thread scope). Softer features go to retrieval as hints.
    pub fn to_query(&self, thread: Option<&str>, with_filters: bool) -> String {
        let mut parts: Vec<String> = self
            .text
            .split_whitespace()
            .map(|w| w.trim_matches('$').to_string())
            .filter(|w| !w.is_empty())
            .collect();
        if parts.is_empty() {
            parts.extend(content_words(&self.question));
        }
        // The words are OR-ed by retrieval's relaxed pass anyway; quoting keeps any
        // query-syntax characters in them literal.
        let mut q: Vec<String> = parts.iter().map(|w| quote(w)).collect();
        if let Some(t) = thread {
            q.push(format!("thread:{t}"));
        }
        if with_filters {
            if let Some(f) = &self.folder {
                q.push(format!("folder:{}", quote(&f.folder)));
            }
            for p in self.filter_people() {
                let any: Vec<String> = p
                    .match_terms
                    .iter()
                    .filter(|t| t.contains('@') && !t.contains(char::is_whitespace))
                    .flat_map(|a| ["from", "to", "cc"].map(|f| format!("{f}:{}", quote(a))))
                    .collect();
                if !any.is_empty() {
                    q.push(format!("({})", any.join(" OR ")));
                }
            }
            if let Some(d) = self
                .date
                .as_ref()
                .filter(|d| d.confidence >= DATE_FILTER_CONFIDENCE)
            {
                if let Some(spec) = date_filter(d.range) {
                    q.push(format!("date:{spec}"));
                }
            }
        }
        q.join(" ")
    }

    /// People the question names in full as the sender or a recipient ("did I ask
    /// Kipp Flores", "what did Sally Beck write"): the search keeps to their mail
    /// first. Someone only talked about ("when do Liz and Jose Luis come") is not one.
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
}

fn quote(w: &str) -> String {
    if w.chars().all(|c| c.is_alphanumeric()) {
        w.to_string()
    } else {
        format!("\"{}\"", w.replace('"', ""))
    }
}

/// A half-open range as a `date:` value with inclusive days.
fn date_filter(range: (Option<i64>, Option<i64>)) -> Option<String> {
    let day =
        |t: i64| chrono::DateTime::from_timestamp(t, 0).map(|d| d.format("%Y-%m-%d").to_string());
    match range {
        (Some(s), Some(e)) => Some(format!("{}..{}", day(s)?, day(e - 1)?)),
        (Some(s), None) => Some(format!("{}..", day(s)?)),
        (None, Some(e)) => Some(format!("..{}", day(e - 1)?)),
        (None, None) => None,
    }
}

fn folder_of(lower: &str) -> Option<FolderMention> {
    let table: &[(&str, &str)] = &[
        ("sent items", "sent_items"),
        ("sent mail", "sent"),
        ("my sent", "sent"),
        ("in my inbox", "inbox"),
        ("in the inbox", "inbox"),
        ("deleted items", "deleted_items"),
        ("in my drafts", "drafts"),
    ];
    table
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
mod tests {
    use super::*;

    #[test]
    fn question_types() {
        let t = |q: &str| QuestionType::of(q);
        assert_eq!(
            t("Who is handling the Westgate permits?"),
            QuestionType::Who
        );
        assert_eq!(t("When is the offsite?"), QuestionType::When);
        assert_eq!(t("and when is it due?"), QuestionType::When);
        assert_eq!(t("How much did the turbine cost?"), QuestionType::HowMuch);
        assert_eq!(
            t("What was the price of gas at Malin?"),
            QuestionType::HowMuch
        );
        assert_eq!(t("Where will the meeting be held?"), QuestionType::Where);
        assert_eq!(t("Did Phillip approve the budget?"), QuestionType::YesNo);
        assert_eq!(t("What are the items on the agenda?"), QuestionType::List);
        assert_eq!(t("What did Sally want?"), QuestionType::What);
        assert_eq!(
            t("Which units at the Stagecoach were vacant?"),
            QuestionType::List
        );
        assert_eq!(
            t("Which Texas Real Estate Commission forms did I need?"),
            QuestionType::List
        );
        assert_eq!(t("Which hotel did Ken stay at?"), QuestionType::What);
        assert_eq!(t("Which address is Sally's?"), QuestionType::What);
    }

    #[test]
    fn a_named_correspondent_filters_the_first_search() {
        let mut pairs = vec![("", "kippflores@mcleodusa.net"); 3];
        pairs.extend(vec![("Jose Luis", "jose.luis@example.com"); 5]);
        let book = AddressBook::build(pairs.into_iter());
        let plan = Plan::make(
            "Where did I ask Kipp Flores to send the house plans?",
            &book,
            992_606_400,
        );
        assert_eq!(
            plan.to_query(None, true),
            "kipp flores house plans (from:\"kippflores@mcleodusa.net\" \
             OR to:\"kippflores@mcleodusa.net\" OR cc:\"kippflores@mcleodusa.net\")"
        );
        assert_eq!(plan.to_query(None, false), "kipp flores house plans");
        assert!(plan.filters_may_hide());
        // Someone talked about is no filter.
        let plan = Plan::make("When will Jose Luis come to Aspen?", &book, 992_606_400);
        assert!(!plan.to_query(None, true).contains("from:"));
        assert!(!plan.filters_may_hide());
    }

    #[test]
    fn plan_takes_dates_out_of_the_words_and_keeps_people() {
        let book = AddressBook::build(std::iter::repeat_n(
            ("Phillip K Allen", "phillip.allen@enron.com"),
            5,
        ));
        // 2001-06-15
        let plan = Plan::make(
            "What did Phillip say in March 2001 about gas storage?",
            &book,
            992_606_400,
        );
        assert_eq!(plan.text, "phillip gas storage");
        assert_eq!(plan.people.len(), 1);
        assert!(plan.date.is_some());
        assert_eq!(
            plan.to_query(None, true),
            "phillip gas storage date:2001-03-01..2001-03-31"
        );
        assert_eq!(
            plan.to_query(Some("00ff"), false),
            "phillip gas storage thread:00ff"
        );
        assert!(plan
            .people_terms()
            .contains(&"phillip.allen@enron.com".to_string()));
    }

    #[test]
    fn a_folder_named_before_the_word_folder_scopes_the_question() {
        let folder = |q: &str| named_folder(&q.to_lowercase()).map(|f| (f.folder, f.phrase));
        assert_eq!(
            folder("In Ken Lay's family folder, what did Beau advise?"),
            Some(("family".into(), "ken lay's family folder".into()))
        );
        assert_eq!(
            folder("Among Liz's emails in the elizabeth folder, where is the dress?"),
            Some(("elizabeth".into(), "the elizabeth folder".into()))
        );
        assert_eq!(folder("Did I file it in a folder?"), None);
        assert_eq!(folder("Which folder did I put it in?"), None);
    }

    #[test]
    fn attachment_and_folder_intent() {
        let plan = Plan::make(
            "What is on page 3 of the attached budget PDF in my sent mail?",
            &AddressBook::default(),
            0,
        );
        assert!(plan.attachment);
        assert_eq!(
            plan.folder.as_ref().map(|f| f.folder.as_str()),
            Some("sent")
        );
    }
}
