//! Tests of which answer kinds a text states, on invented sentences.

use super::*;

#[test]
fn a_needed_kind_is_stated_or_not() {
    let time = [AnswerKind::Time];
    assert!(states_any(
        "The ferry leaves at 7:45 pm from pier 3.",
        &time
    ));
    assert!(states_any("Boarding starts at 6 am sharp.", &time));
    assert!(states_any("We meet at noon by the gate.", &time));
    assert!(states_any("Come by at 8 o'clock.", &time));
    assert!(states_any(
        "Rehearsal runs 6:15-8:00 pm in the old gym.",
        &time
    ));
    assert!(states_any("Open 9am\u{2013}5pm on weekdays.", &time));
    assert!(!states_any(
        "The ferry leaves Thursday, May 31 from pier 3.",
        &time
    ));
    let money = [AnswerKind::Money];
    assert!(states_any("The repair came to $1,250 in the end.", &money));
    assert!(!states_any("The repair came in under budget.", &money));
    assert!(states_any(
        "Item: Roof repair; Crew: North; Repair cost: 1250",
        &money
    ));
    assert!(states_any("Rent: 900 a month, heat included", &money));
    assert!(!states_any("Crew size: 12; Repair cost: pending", &money));
    assert!(!states_any("Note: 12 crews asked about the cost", &money));
    assert!(states_any(
        "Agent: Brightline, 12% of the first year's rent",
        &money
    ));
    assert!(states_any(
        "The broker keeps 3 percent of the sale price.",
        &money
    ));
    assert!(!states_any("Prices rise 7% from May.", &money));
    let phone = [AnswerKind::Phone, AnswerKind::Email];
    assert!(states_any("Call Odile at 713-555-0142.", &phone));
    assert!(states_any("Write to odile@example.org instead.", &phone));
    assert!(!states_any("Call Odile at the office.", &phone));
    assert!(states_any(
        "Questions go to the front desk at extension 3-1177.",
        &phone
    ));
    assert!(states_any("Odile is on x31177 this week.", &phone));
    assert!(!states_any("Odile moved to room 12 on floor 3.", &phone));
    assert!(!states_any("Odile joined the desk in 2001.", &phone));
    assert!(states_any("Odile's direct line is 713 555 0142.", &phone));
    assert!(states_any("From abroad dial +44 20 7946 0958.", &phone));
    assert!(states_any("Her cell: (415) 555 0187", &phone));
    assert!(!states_any("We met in 1998 1999 2000 and 2001.", &phone));
    assert!(!states_any(
        "Scores were 12 34 56 78 in the four rounds.",
        &phone
    ));
}

fn kinds(text: &str) -> Vec<(AnswerKind, String)> {
    let known: HashSet<String> = ["mira"].iter().map(|s| s.to_string()).collect();
    find_all(text, &known)
        .into_iter()
        .map(|f| (f.kind, text[f.span].to_string()))
        .collect()
}

#[test]
fn dates_times_and_money() {
    let k = kinds("The audit is now Wednesday, October 9 at 10:30am and costs $2,500.");
    assert!(k.contains(&(AnswerKind::Date, "Wednesday".into())), "{k:?}");
    assert!(k.contains(&(AnswerKind::Date, "October 9".into())), "{k:?}");
    assert!(k.contains(&(AnswerKind::Time, "10:30am".into())), "{k:?}");
    assert!(k.contains(&(AnswerKind::Money, "$2,500".into())), "{k:?}");
    let k = kinds("Doors open at 6:45 PM, the talk starts at 7 pm.");
    assert!(k.contains(&(AnswerKind::Time, "6:45 PM".into())), "{k:?}");
    assert!(k.contains(&(AnswerKind::Time, "7 pm".into())), "{k:?}");
    let k = kinds("We shipped 4,200 MMBtu and 3 units, up 15%, due 8/27/03.");
    assert!(
        k.contains(&(AnswerKind::Quantity, "4,200 MMBtu".into())),
        "{k:?}"
    );
    assert!(k.contains(&(AnswerKind::Quantity, "15%".into())), "{k:?}");
    assert!(k.contains(&(AnswerKind::Date, "8/27/03".into())), "{k:?}");
    // "may" the verb is no date.
    assert!(!kinds("You may call me.")
        .iter()
        .any(|(k, _)| *k == AnswerKind::Date));
}

#[test]
fn contacts_and_codes() {
    let k = kinds("Call Mira at 415-555-0187 or write mira.k@example.com about suite KX27D4.");
    assert!(
        k.contains(&(AnswerKind::Phone, "415-555-0187".into())),
        "{k:?}"
    );
    assert!(
        k.contains(&(AnswerKind::Email, "mira.k@example.com".into())),
        "{k:?}"
    );
    assert!(k.contains(&(AnswerKind::Code, "KX27D4".into())), "{k:?}");
    assert!(k.contains(&(AnswerKind::Person, "Mira".into())), "{k:?}");
    let k = kinds("Her desk is on 713 555 0142, from 9 to 5.");
    assert!(
        k.contains(&(AnswerKind::Phone, "713 555 0142".into())),
        "{k:?}"
    );
}

#[test]
fn names_people_organisations_and_places() {
    let k = kinds("We met with Maria Lopez of Acme Holdings in Denver last week.");
    assert!(
        k.contains(&(AnswerKind::Person, "Maria Lopez".into())),
        "{k:?}"
    );
    assert!(
        k.contains(&(AnswerKind::Organization, "Acme Holdings".into())),
        "{k:?}"
    );
    assert!(k.contains(&(AnswerKind::Place, "Denver".into())), "{k:?}");
    let k = kinds("Lunch is on the terrace of Café Mistral, then coffee at the Cedar Lodge and a stroll down Quarry Road.");
    for place in ["Café Mistral", "Cedar Lodge", "Quarry Road"] {
        assert!(
            k.contains(&(AnswerKind::Place, place.into())),
            "{place}: {k:?}"
        );
    }
    // The writer's "I'm" is no name, even past the sentence's start.
    let k = kinds("Sorry, but I'm running late and I've told Mira.");
    assert!(!k.iter().any(|(_, v)| v.starts_with('I')), "{k:?}");
}

#[test]
fn normalises_numbers_and_finds_names() {
    assert_eq!(numbers("$1,250.50 for 3 units"), vec!["1250.50", "3"]);
    assert_eq!(
        proper_names("Ask Nora Threlkeld in Tulsa."),
        vec!["Nora", "Threlkeld", "Tulsa"]
    );
}
