//! `date:` value parsing for the query language: absolute days/months/years,
//! `a..b` ranges (inclusive of whole days/months/years), open ranges, relative
//! offsets (`30d`, `2w`, `6m` = 30 days each, `1y` = 365 days), `today`, `yesterday`.
//! Everything is UTC; results are half-open `[start, end)` unix seconds.

use chrono::NaiveDate;

pub const DAY: i64 = 86_400;

/// A problem in a date spec; `offset` is a char index into the spec string.
#[derive(Debug, Clone, PartialEq)]
pub struct DateSpecError {
    pub offset: usize,
    pub message: String,
}

/// One side of a date range: a calendar span or a relative point in time.
enum Spec {
    Span(i64, i64),
    Point(i64),
}

/// Parse a `date:` value into a half-open `[start, end)` range of unix seconds.
/// A lone relative value (`30d`) means "since then": `(Some(now - 30d), None)`.
pub fn parse_date_range(
    value: &str,
    now: i64,
) -> Result<(Option<i64>, Option<i64>), DateSpecError> {
    let range = match value.split_once("..") {
        Some(("", "")) => return Err(error(0, "date range needs a start or an end")),
        Some((l, r)) => {
            let start = match l {
                "" => None,
                _ => Some(match spec(l, 0, now)? {
                    Spec::Span(s, _) | Spec::Point(s) => s,
                }),
            };
            let end = match r {
                "" => None,
                _ => Some(match spec(r, l.chars().count() + 2, now)? {
                    Spec::Span(_, e) | Spec::Point(e) => e,
                }),
            };
            (start, end)
        }
        None => match spec(value, 0, now)? {
            Spec::Span(s, e) => (Some(s), Some(e)),
            Spec::Point(p) => (Some(p), None),
        },
    };
    if let (Some(s), Some(e)) = range {
        if s >= e {
            return Err(error(0, "date range start is after its end"));
        }
    }
    Ok(range)
}

/// Unix seconds of 00:00 UTC on the given day, if the date exists.
pub fn midnight_utc(y: i32, m: u32, d: u32) -> Option<i64> {
    let epoch = NaiveDate::from_ymd_opt(1970, 1, 1)?;
    let date = NaiveDate::from_ymd_opt(y, m, d)?;
    date.signed_duration_since(epoch)
        .num_days()
        .checked_mul(DAY)
}

fn error(offset: usize, message: impl Into<String>) -> DateSpecError {
    DateSpecError {
        offset,
        message: message.into(),
    }
}

fn spec(text: &str, offset: usize, now: i64) -> Result<Spec, DateSpecError> {
    let bad = || error(offset, format!("invalid date '{text}'"));
    let today = now.div_euclid(DAY) * DAY;
    match text {
        "today" => return Ok(Spec::Span(today, today.saturating_add(DAY))),
        "yesterday" => return Ok(Spec::Span(today.saturating_sub(DAY), today)),
        _ => {}
    }
    let unit = match text.chars().last() {
        Some('d') => DAY,
        Some('w') => 7 * DAY,
        Some('m') => 30 * DAY,
        Some('y') => 365 * DAY,
        _ => 0,
    };
    if unit > 0 {
        // The unit is ASCII, so dropping the last byte stays on a char boundary.
        let n = &text[..text.len() - 1];
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n: i64 = n.parse().map_err(|_| bad())?;
        let p = n
            .checked_mul(unit)
            .and_then(|d| now.checked_sub(d))
            .ok_or_else(bad)?;
        return Ok(Spec::Point(p));
    }
    let parts: Vec<&str> = text.split('-').collect();
    let digits = |s: &str, min: usize, max: usize| {
        (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    let ok = parts.len() <= 3
        && parts.first().is_some_and(|y| digits(y, 4, 4))
        && parts.iter().skip(1).all(|p| digits(p, 1, 2));
    if !ok {
        return Err(bad());
    }
    let num = |i: usize| parts.get(i).and_then(|p| p.parse::<u32>().ok());
    let y = parts
        .first()
        .and_then(|p| p.parse::<i32>().ok())
        .ok_or_else(bad)?;
    let span = match (num(1), num(2)) {
        (None, _) => midnight_utc(y, 1, 1).zip(midnight_utc(y + 1, 1, 1)),
        (Some(m), None) => {
            let (ny, nm) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
            midnight_utc(y, m, 1).zip(midnight_utc(ny, nm, 1))
        }
        (Some(m), Some(d)) => midnight_utc(y, m, d).map(|s| (s, s + DAY)),
    };
    span.map(|(s, e)| Spec::Span(s, e)).ok_or_else(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_000_000_000; // 2001-09-09T01:46:40Z
    const NOW_DAY: i64 = 999_993_600; // 2001-09-09T00:00:00Z

    fn r(s: &str) -> (Option<i64>, Option<i64>) {
        parse_date_range(s, NOW).unwrap_or_else(|e| panic!("{s:?}: {e:?}"))
    }
    fn err(s: &str) -> (usize, String) {
        let e = parse_date_range(s, NOW).expect_err(s);
        (e.offset, e.message)
    }
    fn ts(y: i32, m: u32, d: u32) -> i64 {
        midnight_utc(y, m, d).expect("valid test date")
    }
    fn span(a: i64, b: i64) -> (Option<i64>, Option<i64>) {
        (Some(a), Some(b))
    }

    #[test]
    fn absolute() {
        assert_eq!(ts(2001, 3, 1), 983_404_800);
        assert_eq!(ts(1970, 1, 1), 0);
        assert_eq!(r("2001"), span(ts(2001, 1, 1), ts(2002, 1, 1)));
        assert_eq!(r("2001-03"), span(ts(2001, 3, 1), ts(2001, 4, 1)));
        assert_eq!(r("2001-3-5"), span(ts(2001, 3, 5), ts(2001, 3, 6)));
        assert_eq!(r("2001-03-05"), span(983_750_400, 983_750_400 + DAY));
        assert_eq!(
            r("2001-03-01..2001-03-31"),
            span(ts(2001, 3, 1), ts(2001, 4, 1))
        );
        assert_eq!(r("2001-03..2001-04"), span(ts(2001, 3, 1), ts(2001, 5, 1)));
        assert_eq!(
            r("2001-03-05..2001-03-05"),
            span(ts(2001, 3, 5), ts(2001, 3, 6))
        );
        assert_eq!(r("2001-03-01.."), (Some(ts(2001, 3, 1)), None));
        assert_eq!(r("..2001-03-31"), (None, Some(ts(2001, 4, 1))));
        assert_eq!(r("1969-12-31"), span(-DAY, 0));
    }

    #[test]
    fn calendar_edges() {
        // Leap year 2000 (divisible by 400): February has 29 days.
        assert_eq!(r("2000-02"), span(949_363_200, 949_363_200 + 29 * DAY));
        assert_eq!(r("2000-02-29"), span(ts(2000, 2, 29), ts(2000, 3, 1)));
        assert_eq!(err("2001-02-29"), (0, "invalid date '2001-02-29'".into()));
        assert_eq!(err("1900-02-29"), (0, "invalid date '1900-02-29'".into()));
        assert_eq!(
            r("2001-02"),
            span(ts(2001, 2, 1), ts(2001, 2, 1) + 28 * DAY)
        );
        assert_eq!(r("2000-12"), span(ts(2000, 12, 1), ts(2001, 1, 1)));
        assert_eq!(r("2000-12-31"), span(ts(2000, 12, 31), ts(2001, 1, 1)));
        assert_eq!(
            r("2000-12-31..2001-01-01"),
            span(ts(2000, 12, 31), ts(2001, 1, 2))
        );
        assert_eq!(r("2001-04-30"), span(ts(2001, 4, 30), ts(2001, 5, 1)));
        assert_eq!(r("2000"), span(946_684_800, 946_684_800 + 366 * DAY));
        assert_eq!(r("2001"), span(978_307_200, 978_307_200 + 365 * DAY));
    }

    #[test]
    fn relative() {
        assert_eq!(r("30d.."), (Some(NOW - 30 * DAY), None));
        assert_eq!(r("2w.."), (Some(NOW - 14 * DAY), None));
        assert_eq!(r("6m.."), (Some(NOW - 180 * DAY), None));
        assert_eq!(r("1y.."), (Some(NOW - 365 * DAY), None));
        assert_eq!(r("30d"), (Some(NOW - 30 * DAY), None));
        assert_eq!(r("..1w"), (None, Some(NOW - 7 * DAY)));
        assert_eq!(r("2d..1d"), span(NOW - 2 * DAY, NOW - DAY));
        assert_eq!(r("0d.."), (Some(NOW), None));
        assert_eq!(r("today"), span(NOW_DAY, NOW_DAY + DAY));
        assert_eq!(r("yesterday"), span(NOW_DAY - DAY, NOW_DAY));
        assert_eq!(r("yesterday..today"), span(NOW_DAY - DAY, NOW_DAY + DAY));
        assert_eq!(r("2001-09-01..today"), span(ts(2001, 9, 1), NOW_DAY + DAY));
        // A negative `now` floors toward the past.
        assert_eq!(parse_date_range("today", -1), Ok(span(-DAY, 0)));
    }

    #[test]
    fn errors() {
        let cases: &[(&str, usize, &str)] = &[
            ("2001-13-01", 0, "invalid date '2001-13-01'"),
            ("2001-00", 0, "invalid date '2001-00'"),
            ("2001-04-31", 0, "invalid date '2001-04-31'"),
            ("2001-01-01..2001-02-30", 12, "invalid date '2001-02-30'"),
            (
                "2001-03-02..2001-03-01",
                0,
                "date range start is after its end",
            ),
            ("1d..2d", 0, "date range start is after its end"),
            ("today..yesterday", 0, "date range start is after its end"),
            ("..", 0, "date range needs a start or an end"),
            ("01", 0, "invalid date '01'"),
            ("2001-", 0, "invalid date '2001-'"),
            ("2001-001", 0, "invalid date '2001-001'"),
            ("2001-01-01-01", 0, "invalid date '2001-01-01-01'"),
            ("d", 0, "invalid date 'd'"),
            ("x3d", 0, "invalid date 'x3d'"),
            ("3D", 0, "invalid date '3D'"),
            (
                "99999999999999999999d",
                0,
                "invalid date '99999999999999999999d'",
            ),
            ("9999999999999999y", 0, "invalid date '9999999999999999y'"),
            ("a..b..c", 0, "invalid date 'a'"),
            ("2001..b..c", 6, "invalid date 'b..c'"),
            ("2001..é", 6, "invalid date 'é'"),
        ];
        for (input, pos, msg) in cases {
            assert_eq!(err(input), (*pos, msg.to_string()), "input {input:?}");
        }
    }
}
