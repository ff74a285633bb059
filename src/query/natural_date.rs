//! Dates as people say them in questions: "in March 2001", "on May 3", "last week",
//! "before Christmas", "in 2000", "yesterday". Resolved against the mailbox's own
//! "now" (its newest message), since a mailbox from 2001 has no "last week" in 2026.

use super::date_spec::{midnight_utc, DAY};
use crate::lexicon::{month_number as month_of, HOLIDAYS};
use chrono::{DateTime, Datelike};

/// A date range found in a question, with the words it came from.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DateMention {
    /// Half-open `[start, end)` unix seconds; either side may be open.
    pub range: (Option<i64>, Option<i64>),
    /// The words of the question that said it (to take out of the search text).
    pub phrase: String,
    /// How sure the reading is: an explicit month and year is surer than "recently".
    pub confidence: f32,
}

fn month_span(y: i32, m: u32) -> Option<(i64, i64)> {
    let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    Some((midnight_utc(y, m, 1)?, midnight_utc(ny, nm, 1)?))
}

fn year_of(word: &str) -> Option<i32> {
    let w = word.trim_end_matches(['\'', 's']);
    (w.len() == 4 && w.chars().all(|c| c.is_ascii_digit()))
        .then(|| w.parse().ok())
        .flatten()
        .filter(|y| (1970..=2100).contains(y))
}

fn day_of(word: &str) -> Option<u32> {
    let w = word.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let d: u32 = w.parse().ok()?;
    (1..=31).contains(&d).then_some(d)
}

/// Finds the first date mention in a question.
pub fn find_date(question: &str, now: i64) -> Option<DateMention> {
    let lower = question.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let now_date = DateTime::from_timestamp(now, 0)?.date_naive();
    let today = now.div_euclid(DAY) * DAY;
    let mention = |range, phrase: String, confidence| {
        Some(DateMention {
            range,
            phrase,
            confidence,
        })
    };

    // Relative phrases.
    let relative: &[(&str, i64, i64)] = &[
        ("yesterday", -DAY, 0),
        ("today", 0, DAY),
        ("last week", -14 * DAY, 0),
        ("this week", -7 * DAY, DAY),
        ("last month", -62 * DAY, 0),
        ("this month", -31 * DAY, DAY),
        ("recently", -30 * DAY, DAY),
        ("last year", -730 * DAY, 0),
    ];
    for (phrase, s, e) in relative {
        if lower.contains(phrase) {
            return mention((Some(today + s), Some(today + e)), phrase.to_string(), 0.6);
        }
    }

    // Holidays, with before/after.
    for (name, m, d) in HOLIDAYS {
        if let Some(pos) = lower.find(name) {
            let before = lower[..pos].trim_end();
            let explicit_year = words.iter().find_map(|w| year_of(w));
            let y = explicit_year.unwrap_or_else(|| {
                if (now_date.month(), now_date.day()) >= (*m, *d) {
                    now_date.year()
                } else {
                    now_date.year() - 1
                }
            });
            let at = midnight_utc(y, *m, *d)?;
            let (range, word) = if before.ends_with("before") {
                ((Some(at - 45 * DAY), Some(at)), "before ")
            } else if before.ends_with("after") || before.ends_with("since") {
                ((Some(at), Some(at + 45 * DAY)), "after ")
            } else {
                ((Some(at - 7 * DAY), Some(at + 7 * DAY)), "")
            };
            return mention(range, format!("{word}{name}"), 0.5);
        }
    }

    // Month [day] [year], or day month year.
    for (i, w) in words.iter().enumerate() {
        let Some(m) = month_of(w) else { continue };
        // "may" is also a verb: only a month when a day or year is next to it, or
        // after "in"/"of"/"since"/"before"/"after"/"during".
        let prev = i.checked_sub(1).and_then(|p| words.get(p)).copied();
        let next = words.get(i + 1).copied();
        let day = next
            .and_then(day_of)
            .filter(|_| next.is_none_or(|n| year_of(n).is_none()));
        let year = words
            .get(i + 1 + usize::from(day.is_some()))
            .and_then(|w| year_of(w))
            .or_else(|| next.and_then(year_of));
        let preposition = prev.is_some_and(|p| {
            [
                "in", "of", "since", "before", "after", "during", "on", "early", "late", "mid",
            ]
            .contains(&p)
        });
        if *w == "may" && day.is_none() && year.is_none() && !preposition {
            continue;
        }
        if w.len() <= 3 && *w != "may" && day.is_none() && year.is_none() && !preposition {
            continue;
        }
        let y = year.unwrap_or_else(|| {
            if now_date.month() >= m {
                now_date.year()
            } else {
                now_date.year() - 1
            }
        });
        let mut phrase = w.to_string();
        let (mut s, mut e) = match day {
            Some(d) => {
                phrase = format!("{phrase} {}", next.unwrap_or_default());
                let s = midnight_utc(y, m, d)?;
                (s, s + DAY)
            }
            None => month_span(y, m)?,
        };
        if let Some(y) = year {
            phrase = format!("{phrase} {y}");
        }
        let confidence = if year.is_some() { 0.9 } else { 0.7 };
        match prev {
            Some("before") => {
                e = s;
                s = e - 180 * DAY;
            }
            Some("after") | Some("since") => {
                s = e;
                e = s + 180 * DAY;
            }
            _ => {}
        }
        if let Some(p) = prev.filter(|p| ["before", "after", "since"].contains(p)) {
            phrase = format!("{p} {phrase}");
        }
        return mention((Some(s), Some(e)), phrase, confidence);
    }

    // A bare year: "in 2000".
    for (i, w) in words.iter().enumerate() {
        if let Some(y) = year_of(w) {
            let prev = i.checked_sub(1).and_then(|p| words.get(p)).copied();
            if !matches!(
                prev,
                Some("in" | "during" | "of" | "since" | "before" | "after")
            ) {
                continue;
            }
            let (s, e) = (midnight_utc(y, 1, 1)?, midnight_utc(y + 1, 1, 1)?);
            let range = match prev {
                Some("before") => (None, Some(s)),
                Some("after") | Some("since") => (Some(e.min(s + 366 * DAY)), None),
                _ => (Some(s), Some(e)),
            };
            return mention(range, format!("{} {y}", prev.unwrap_or("in")), 0.8);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2001-06-15T12:00:00Z.
    const NOW: i64 = 992_606_400;

    fn day(y: i32, m: u32, d: u32) -> i64 {
        midnight_utc(y, m, d).expect("valid day")
    }

    #[test]
    fn month_and_year() {
        let m = find_date("What did Priya say in March 2001 about gas?", NOW).expect("date");
        assert_eq!(m.range, (Some(day(2001, 3, 1)), Some(day(2001, 4, 1))));
        assert_eq!(m.phrase, "march 2001");
        assert!(m.confidence > 0.8);
    }

    #[test]
    fn month_day_without_year_takes_the_latest_past_one() {
        let m = find_date("What happened on May 3?", NOW).expect("date");
        assert_eq!(m.range, (Some(day(2001, 5, 3)), Some(day(2001, 5, 4))));
        let m = find_date("the meeting in December", NOW).expect("date");
        assert_eq!(m.range.0, Some(day(2000, 12, 1)));
    }

    #[test]
    fn relative_and_holidays() {
        let m = find_date("who wrote last week?", NOW).expect("date");
        assert_eq!(m.range.1, Some(day(2001, 6, 15)));
        let m = find_date("what was agreed before Christmas?", NOW).expect("date");
        assert_eq!(m.range.1, Some(day(2000, 12, 25)));
        let m = find_date("emails in 2000", NOW).expect("date");
        assert_eq!(m.range, (Some(day(2000, 1, 1)), Some(day(2001, 1, 1))));
    }

    #[test]
    fn may_the_verb_is_not_a_month() {
        assert_eq!(find_date("Who may attend the meeting?", NOW), None);
        assert_eq!(find_date("What is the strike price?", NOW), None);
    }
}
