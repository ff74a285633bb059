//! Adjustments after fusion: closeness to the date asked for, and a match of the
//! sender or recipients with the people asked for.

/// Multiplier in 1..=1+weight: a Gaussian on the distance between a message's date and
/// the centre of the asked range, with the range's half-width as sigma (at least a day).
pub fn date_boost(date: Option<i64>, range: (Option<i64>, Option<i64>), weight: f32) -> f32 {
    let Some(d) = date else { return 1.0 };
    let (centre, sigma) = match range {
        (Some(s), Some(e)) => ((s + e) / 2, ((e - s) / 2).max(86_400)),
        (Some(s), None) => (s, 30 * 86_400),
        (None, Some(e)) => (e, 30 * 86_400),
        (None, None) => return 1.0,
    };
    let z = (d - centre) as f32 / sigma as f32;
    1.0 + weight * (-0.5 * z * z).exp()
}

/// Multiplier 1+weight when any person asked for appears in the message's people
/// (names and addresses, lowercased).
pub fn people_boost(people_asked: &[String], message_people: &str, weight: f32) -> f32 {
    let hay = message_people.to_lowercase();
    if people_asked
        .iter()
        .any(|p| !p.is_empty() && hay.contains(p.as_str()))
    {
        1.0 + weight
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_boost_peaks_in_the_range() {
        let range = (Some(1_000_000), Some(1_000_000 + 10 * 86_400));
        let mid = date_boost(Some(1_000_000 + 5 * 86_400), range, 0.5);
        let far = date_boost(Some(1_000_000 + 400 * 86_400), range, 0.5);
        assert!((mid - 1.5).abs() < 1e-3);
        assert!(far < 1.01);
        assert_eq!(date_boost(None, range, 0.5), 1.0);
    }

    #[test]
    fn people_boost_matches_names_and_addresses() {
        let asked = vec!["dana".to_string()];
        assert!(people_boost(&asked, "Dana Whitfield dana@x.example", 0.2) > 1.0);
        assert_eq!(people_boost(&asked, "Marcus Lee", 0.2), 1.0);
    }
}
