//! Whether a quote speaks of another day than the one the question names. "Which
//! room is the May 12 review in?" is not answered by "the review on June 3 is in
//! room 4B" from a message that never names May 12 and was not sent on it: that
//! message is about another occasion of the same kind.

use crate::lexicon::month_number;
use crate::query::natural_date::DateMention;
use chrono::{DateTime, Datelike};

/// A day as written: its month, and the day of the month when given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Day {
    pub month: u32,
    pub day: Option<u32>,
}

impl Day {
    /// Whether `other` may be the same day: the same month, and the same day of the
    /// month where both give one.
    fn fits(self, other: Day) -> bool {
        self.month == other.month
            && match (self.day, other.day) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

/// The day a question names by a month ("in june", "oct 10"), not a relative
/// phrase, a holiday or a year alone.
pub fn asked_day(date: Option<&DateMention>) -> Option<Day> {
    let words = words(&date?.phrase);
    days(&words, false).into_iter().next()
}

/// Whether `lead` names a day of the month and none of the day asked, while the
/// message it comes from (`message_text`: its subject and every passage of it) never
/// names the day asked and was not sent on it (`sent`, unix seconds).
pub fn names_another_day(asked: Day, lead: &str, message_text: &str, sent: Option<i64>) -> bool {
    let in_lead = days(&words(lead), true);
    if in_lead.is_empty() || in_lead.iter().any(|d| asked.fits(*d)) {
        return false;
    }
    if days(&words(message_text), true)
        .iter()
        .any(|d| asked.fits(*d))
    {
        return false;
    }
    let sent_on = sent
        .and_then(|s| DateTime::from_timestamp(s, 0))
        .map(|d| Day {
            month: d.month(),
            day: Some(d.day()),
        });
    !sent_on.is_some_and(|d| asked.fits(d))
}

fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '/'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The days `words` name: a month name with a day of the month beside it ("May 3",
/// "3rd of May", "23 October") or alone, and a numeric month/day/year. In mail text
/// (`written`), "May" is a month only when capitalised or beside a day.
fn days(words: &[&str], written: bool) -> Vec<Day> {
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if let Some(d) = numeric_date(w) {
            out.push(d);
            continue;
        }
        let lower = w.to_lowercase();
        let Some(month) = month_number(&lower) else {
            continue;
        };
        let after = words.get(i + 1).and_then(|n| day_of_month(n));
        let before = i
            .checked_sub(1)
            .and_then(|p| {
                let b = words[p];
                // "3rd of May"
                if b.eq_ignore_ascii_case("of") {
                    p.checked_sub(1).map(|q| words[q])
                } else {
                    Some(b)
                }
            })
            .and_then(day_of_month);
        let day = after.or(before);
        if lower == "may" && day.is_none() && (!written || *w != "May") {
            continue;
        }
        out.push(Day { month, day });
    }
    out
}

/// A day of the month as written beside a month: "3", "3rd", "21st".
fn day_of_month(word: &str) -> Option<u32> {
    let digits = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &word[digits.len()..];
    if !matches!(suffix, "" | "st" | "nd" | "rd" | "th") || digits.len() > 2 {
        return None;
    }
    digits.parse().ok().filter(|d| (1..=31).contains(d))
}

/// "10/23/2001" or "10/23/01": month, day and year (a bare "1/2" may be a fraction).
fn numeric_date(word: &str) -> Option<Day> {
    let parts: Vec<&str> = word.split('/').collect();
    let [m, d, y] = parts.as_slice() else {
        return None;
    };
    if !(y.len() == 2 || y.len() == 4) || !y.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let month: u32 = m.parse().ok().filter(|m| (1..=12).contains(m))?;
    let day: u32 = d.parse().ok().filter(|d| (1..=31).contains(d))?;
    Some(Day {
        month,
        day: Some(day),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(phrase: &str) -> Day {
        let mention = DateMention {
            range: (None, None),
            phrase: phrase.to_string(),
            confidence: 0.8,
        };
        asked_day(Some(&mention)).expect("a day")
    }

    #[test]
    fn a_question_names_a_day_by_its_month() {
        assert_eq!(
            asked("oct 10"),
            Day {
                month: 10,
                day: Some(10)
            }
        );
        assert_eq!(
            asked("in june"),
            Day {
                month: 6,
                day: None
            }
        );
        let relative = DateMention {
            range: (None, None),
            phrase: "last week".into(),
            confidence: 0.6,
        };
        assert_eq!(asked_day(Some(&relative)), None);
    }

    #[test]
    fn another_day_in_the_lead_and_nowhere_else_is_another_occasion() {
        let lead = "The glazing workshop is set for October 23 in the north studio.";
        assert!(names_another_day(asked("oct 10"), lead, lead, None));
        // The same day, or only the same month when no day is asked.
        assert!(!names_another_day(asked("oct 23"), lead, lead, None));
        assert!(!names_another_day(asked("in october"), lead, lead, None));
        // A lead that names no day says nothing either way.
        let plain = "The glazing workshop is in the north studio.";
        assert!(!names_another_day(asked("oct 10"), plain, plain, None));
    }

    #[test]
    fn the_asked_day_elsewhere_in_the_message_or_its_sending_keeps_the_lead() {
        let lead = "It now takes place on 23rd of October instead.";
        let message = "About the Oct. 10 workshop: it now takes place on 23rd of October instead.";
        assert!(!names_another_day(asked("oct 10"), lead, message, None));
        // Sent on October 10, 2023: the asked day may be the day it was sent.
        let sent = 1_696_939_200;
        assert!(!names_another_day(asked("oct 10"), lead, lead, Some(sent)));
        assert!(names_another_day(asked("oct 11"), lead, lead, Some(sent)));
    }

    #[test]
    fn may_as_a_verb_and_fractions_are_not_days() {
        let lead = "We may move the kiln; about 1/2 of the shelves are free.";
        assert!(!names_another_day(asked("oct 10"), lead, lead, None));
        let dated = "Invoices dated 9/28/01 were paid.";
        assert!(names_another_day(asked("oct 10"), dated, dated, None));
    }
}
