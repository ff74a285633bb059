//! Tests of reading a question: its type, focus, slots, cues and search query.

use super::*;

#[test]
fn the_focus_noun_sets_the_kinds_of_answer() {
    let book = AddressBook::default();
    let q = Question::read("What was the winning bid at the auction?", &book, 0);
    assert_eq!(q.focus, vec![stem("winning"), stem("bid")]);
    assert_eq!(q.expects, vec![AnswerKind::Money]);
    let q = Question::read("In which room is the training?", &book, 0);
    assert_eq!(q.expects[0], AnswerKind::Place);
    let q = Question::read("What email address does Mara Quint use now?", &book, 0);
    assert_eq!(q.expects[0], AnswerKind::Email);
    assert!(q.cues.address);
    let q = Question::read("Who sent the email?", &book, 0);
    assert!(q.cues.sender && !q.cues.recipient);
    assert_eq!(
        q.expects,
        vec![AnswerKind::Person, AnswerKind::Organization]
    );
}

#[test]
fn a_question_for_a_value_of_one_form_needs_it() {
    let book = AddressBook::default();
    let needs = |q: &str| Question::read(q, &book, 0).needs;
    assert_eq!(
        needs("what time does the ferry leave?"),
        vec![AnswerKind::Time]
    );
    // A day named after the focus noun does not take its place.
    assert_eq!(
        needs("what time saturday march 2 is the choir rehearsal?"),
        vec![AnswerKind::Time]
    );
    assert_eq!(
        needs("what price tomorrow for the kayak rental?"),
        vec![AnswerKind::Money]
    );
    assert_eq!(
        needs("What's the price of the kayak?"),
        vec![AnswerKind::Money]
    );
    assert_eq!(
        needs("How much did the roof repair cost?"),
        vec![AnswerKind::Money]
    );
    assert_eq!(
        needs("what is Odile's phone number?"),
        vec![AnswerKind::Phone]
    );
    // A number of a line to call is a phone number; other numbers are not.
    for q in [
        "what cell number did Odile switch to?",
        "Odile's mobile number",
        "fax number for the depot",
    ] {
        assert_eq!(needs(q), vec![AnswerKind::Phone], "{q}");
    }
    assert_ne!(
        needs("what number of cells did the lab order?"),
        vec![AnswerKind::Phone]
    );
    assert_eq!(
        needs("What email address does Mara Quint use now?"),
        vec![AnswerKind::Email]
    );
    // A day, a name or a place may be written many ways: nothing is needed.
    for q in [
        "when is the ferry?",
        "which day is the recital?",
        "who fixed the roof?",
        "where is the kayak stored?",
        "how many chairs did we rent?",
    ] {
        assert!(needs(q).is_empty(), "{q}");
    }
}

#[test]
fn slots_are_the_numbers_codes_and_names_it_gives() {
    let s =
        slots("What is the rent of unit #4 in building C12 that Maria Lopez owns, with 250 units?");
    let got: Vec<(&str, SlotKind)> = s.iter().map(|s| (s.text.as_str(), s.kind)).collect();
    assert_eq!(
        got,
        vec![
            ("#4", SlotKind::Code),
            ("C12", SlotKind::Code),
            ("Maria", SlotKind::Name),
            ("Lopez", SlotKind::Name),
            ("250", SlotKind::Number),
        ]
    );
}

#[test]
fn a_word_is_searched_in_both_its_spellings() {
    let q = Question::read("who organised the picnic?", &AddressBook::default(), 0);
    assert_eq!(
        q.search_query(true, &[]),
        Query::And(vec![
            Query::Or(vec![
                Query::Term("organised".into()),
                Query::Term("organized".into())
            ]),
            Query::Term("picnic".into()),
        ])
    );
}

#[test]
fn the_query_keeps_words_and_sure_filters() {
    let mut pairs = vec![("", "tomasbrandt@example.net"); 3];
    pairs.extend(vec![("Ana Sofia", "ana.sofia@example.com"); 5]);
    let book = AddressBook::build(pairs.into_iter());
    let q = Question::read(
        "Where did I ask Tomas Brandt to mail the floor drawings?",
        &book,
        992_606_400,
    );
    match q.search_query(true, &[]) {
        Query::And(parts) => {
            assert_eq!(parts[0], Query::Term("tomas".into()));
            assert!(matches!(parts.last(), Some(Query::Or(any)) if any.len() == 3));
        }
        other => panic!("{other:?}"),
    }
    assert!(q.filters_may_hide());
    let q = Question::read("When will Ana Sofia come to Lisbon?", &book, 992_606_400);
    assert!(!q.filters_may_hide());
    let q = Question::read(
        "What did they say in March 2001 about gas storage in my sent mail?",
        &book,
        992_606_400,
    );
    assert_eq!(q.text, "gas storage");
    match q.search_query(true, &["00ff".into()]) {
        Query::And(parts) => {
            assert!(parts.contains(&Query::Field(TextField::Thread, "00ff".into())));
            assert!(parts.contains(&Query::Field(TextField::Folder, "sent".into())));
            assert!(parts.iter().any(|p| matches!(p, Query::Date { .. })));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_folder_named_before_the_word_folder_scopes_the_question() {
    let folder = |q: &str| named_folder(&q.to_lowercase()).map(|f| (f.folder, f.phrase));
    assert_eq!(
        folder("In Ann's family folder, what did the lawyer advise?"),
        Some(("family".into(), "ann's family folder".into()))
    );
    assert_eq!(folder("Did I file it in a folder?"), None);
    assert_eq!(folder("Which folder did I put it in?"), None);
}
