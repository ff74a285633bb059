//! What kind of facts a piece of text states: dates and times, amounts, numbers and
//! names. The extractive answerer uses them to match a sentence to the question type
//! ("when" wants a date, "how much" an amount); the validator uses them to check that
//! a claim's numbers and names are in its quote.

const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
];
const DAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "today",
    "tomorrow",
    "tonight",
    "yesterday",
    "noon",
    "morning",
    "afternoon",
    "evening",
    "week",
    "weekend",
    "month",
    "year",
];
const AMOUNT_WORDS: &[&str] = &[
    "million", "billion", "thousand", "hundred", "percent", "dollars", "cents", "mm", "mmbtu",
    "mw", "mwh", "bcf", "mmcf", "dth", "k", "bps", "shares",
];

/// Whether the text mentions a date or time of day.
pub fn has_date(text: &str) -> bool {
    let lower = text.to_lowercase();
    words(&lower).any(|w| MONTHS.contains(&w) || DAYS.contains(&w))
        || text.split_whitespace().any(|w| {
            let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '/' && c != ':');
            is_numeric_date(w) || is_time(w) || is_year(w)
        })
}

/// Whether the text states an amount: money, a percentage, or a number with a unit.
pub fn has_amount(text: &str) -> bool {
    if text.contains('$') || text.contains('%') {
        return true;
    }
    let lower = text.to_lowercase();
    let ws: Vec<&str> = words(&lower).collect();
    let unit = ws
        .windows(2)
        .any(|p| p[0].chars().all(|c| c.is_ascii_digit()) && AMOUNT_WORDS.contains(&p[1]));
    // 1,250 or 2.50: a figure, where a bare 78028 may be a zip code or a flight.
    let figure = text.split_whitespace().any(|w| {
        let w = w.trim_matches(|c: char| !c.is_ascii_digit());
        let b = w.as_bytes();
        b.windows(3).any(|t| {
            t[0].is_ascii_digit() && (t[1] == b',' || t[1] == b'.') && t[2].is_ascii_digit()
        })
    });
    let counted = ws.iter().any(|w| NUMBER_WORDS.contains(w));
    unit || figure || counted
}

/// Whether the text states a sum of money: a currency sign, or a figure with a
/// currency word ("750 dollars", "2 million dollars").
pub fn has_money(text: &str) -> bool {
    if text.contains(['$', '€', '£']) {
        return true;
    }
    let lower = text.to_lowercase();
    let ws: Vec<&str> = words(&lower).collect();
    ws.iter().enumerate().any(|(i, w)| {
        MONEY_WORDS.contains(w)
            && ws[..i]
                .iter()
                .rev()
                .take(3)
                .any(|p| p.chars().any(|c| c.is_ascii_digit()) || NUMBER_WORDS.contains(p))
    })
}

const MONEY_WORDS: &[&str] = &[
    "dollars", "dollar", "cents", "usd", "bucks", "euros", "pounds",
];

/// Question words that ask for a sum of money rather than a quantity.
const MONEY_QUESTION_WORDS: &[&str] = &[
    "pay", "paid", "paying", "cost", "costs", "price", "priced", "spend", "spent", "bid", "pledge",
    "pledged", "fee", "fees", "owe", "owed", "charge", "charged", "worth", "salary", "fine",
    "payoff", "rent", "sell", "sold", "buy", "bought", "offer", "offered", "invoice", "budget",
    "money", "dollars",
];

/// Whether a "how much" question asks about money.
pub fn asks_money(question: &str) -> bool {
    let lower = question.to_lowercase();
    let asks = words(&lower).any(|w| MONEY_QUESTION_WORDS.contains(&w));
    asks
}

const NUMBER_WORDS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "fifteen", "twenty", "thirty", "forty", "fifty", "hundred", "dozen", "half",
];

/// Numbers in the text, normalised (thousands separators and a leading `$` removed,
/// trailing `.0`s kept as written), for comparing a claim with its quote.
pub fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let inner_sep = (c == ',' || c == '.')
            && !cur.is_empty()
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_ascii_digit() {
            cur.push(c);
        } else if inner_sep {
            if c == '.' {
                cur.push('.');
            }
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Capitalised words that are not at the start of a sentence: likely names of people,
/// places and companies.
pub fn proper_names(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut sentence_start = true;
    for raw in text.split_whitespace() {
        let w = raw.trim_matches(|c: char| !c.is_alphanumeric());
        let capital = w.chars().next().is_some_and(|c| c.is_uppercase())
            && w.chars().skip(1).any(|c| c.is_lowercase());
        if capital && !sentence_start && w.len() > 1 {
            out.push(w.to_string());
        }
        sentence_start = raw.ends_with(['.', '!', '?', ':']);
    }
    out
}

/// Whether the text names someone or something (a capitalised word past the first).
pub fn has_name(text: &str) -> bool {
    !proper_names(text).is_empty()
}

fn words(lower: &str) -> impl Iterator<Item = &str> {
    lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

fn is_numeric_date(w: &str) -> bool {
    let parts: Vec<&str> = w.split(['/', '-']).collect();
    (parts.len() == 2 || parts.len() == 3)
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.len() <= 4 && p.chars().all(|c| c.is_ascii_digit()))
}

fn is_time(w: &str) -> bool {
    let lower = w.to_ascii_lowercase();
    let core = lower.trim_end_matches("am").trim_end_matches("pm");
    match core.split_once(':') {
        Some((h, m)) => {
            !h.is_empty()
                && h.len() <= 2
                && m.len() == 2
                && h.chars().all(|c| c.is_ascii_digit())
                && m.chars().all(|c| c.is_ascii_digit())
        }
        None => {
            core.len() < lower.len() && !core.is_empty() && core.chars().all(|c| c.is_ascii_digit())
        }
    }
}

fn is_year(w: &str) -> bool {
    w.len() == 4
        && w.chars().all(|c| c.is_ascii_digit())
        && (w.starts_with("19") || w.starts_with("20"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_needs_a_currency_not_just_a_number() {
        assert!(has_money("Ken will pledge $750.00 - $5 per mile."));
        assert!(has_money("They offered 2 million dollars for it."));
        assert!(!has_money("We are torn between two good locations."));
        assert!(!has_money("The pipeline runs 1,250 miles."));
        assert!(asks_money("How much did we pay for the lot in Kerrville?"));
        assert!(!asks_money("How much gas flows through Opal a day?"));
    }

    #[test]
    fn finds_dates_and_times() {
        assert!(has_date("The meeting is on March 14."));
        assert!(has_date("due 3/14/01"));
        assert!(has_date("call at 10:30am"));
        assert!(has_date("we close by Friday"));
        assert!(!has_date("The price is $2.50."));
    }

    #[test]
    fn finds_amounts() {
        assert!(has_amount("The price is $2.50."));
        assert!(has_amount("about 15% lower"));
        assert!(has_amount("5,000 MMBtu per day"));
        assert!(has_amount("it costs 2 million"));
        assert!(!has_amount("Call me tomorrow."));
        assert!(!has_amount("Kerrville, TX 78028"));
        assert!(has_amount("three brokerage firms"));
    }

    #[test]
    fn normalises_numbers() {
        assert_eq!(numbers("$1,250.50 for 3 units"), vec!["1250.50", "3"]);
        assert_eq!(numbers("end."), Vec::<String>::new());
    }

    #[test]
    fn finds_names_past_the_sentence_start() {
        assert_eq!(
            proper_names("Ask Sally Beck in Houston."),
            vec!["Sally", "Beck", "Houston"]
        );
        assert!(!has_name("Thanks for the note."));
    }
}
