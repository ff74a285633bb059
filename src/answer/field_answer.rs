//! The short answer of a record of named fields (a spreadsheet row,
//! "Course: Weaving; Spring Fee: 120; Seats: 8"): the value of the field whose
//! name the question uses, leaving out values the question already gives.

use crate::lexicon::{focus_type, FocusType};
use crate::query::question::{Question, QuestionType};
use crate::query::terms::stem;

/// The short answer of a line of an invitation card ("When: Friday 7 March 2025,
/// 14:00 to 16:00 UTC"): the line's value when its field is what the question's
/// kind asks for (when, where, who).
pub fn card_answer(line: &str, question: &Question) -> Option<String> {
    let (field, value) = line.split_once(": ")?;
    let fits = match question.qtype {
        QuestionType::When => field == "When",
        QuestionType::Where => field == "Where",
        QuestionType::Who => field == "Organizer" || field == "Attendees",
        _ => false,
    };
    let value = value.lines().next().unwrap_or("").trim();
    (fits && !value.is_empty()).then(|| value.to_string())
}

/// Whether an evidence item is a line of an invitation card.
pub fn is_card(item: &crate::answer::evidence::EvidenceItem) -> bool {
    item.attachment.is_some()
        && item
            .place
            .as_deref()
            .is_some_and(|p| p == "event" || p.starts_with("event "))
}

/// Whether a line of an invitation's card answers the question by its form: its
/// field is what the question asks for, and the question names the invitation's
/// event ("where is the glaze workshop?" of "Invitation: Glaze workshop").
pub fn card_field_answers(
    item: &crate::answer::evidence::EvidenceItem,
    line: &str,
    question: &Question,
) -> bool {
    is_card(item)
        && card_answer(line, question).is_some()
        && crate::query::terms::stems(&item.subject)
            .iter()
            .any(|w| question.stems.contains(w))
}

/// Whether a line answers by its form: a card's field or a message's labelled line
/// that is what the question asks for.
pub fn answers_by_form(
    item: &crate::answer::evidence::EvidenceItem,
    line: &str,
    question: &Question,
) -> bool {
    card_field_answers(item, line, question) || labelled_line_answers(item, line, question)
}

/// Whether a labelled line of a message's own text ("- Venue: Tern Island Inn,
/// ...", "Deadline: May 2") answers the question by its form, as a card's field
/// does: its label names the kind of thing the question asks for (a place for
/// "where", a day or time for "when", a sum for "how much", or the question's focus
/// noun), and every word the question says of its topic is in the line or the
/// message's subject ("where is the retreat?" of "Spring retreat - first plan";
/// not "where is the retreat dinner?"). Quoted and forwarded passages do not count.
pub fn labelled_line_answers(
    item: &crate::answer::evidence::EvidenceItem,
    line: &str,
    question: &Question,
) -> bool {
    if item.attachment.is_some() || item.origin.is_some() {
        return false;
    }
    let Some((label, value)) = labelled(line) else {
        return false;
    };
    let Some(head) = label.split_whitespace().last().map(str::to_lowercase) else {
        return false;
    };
    if !label_fits(&head, question) || value.is_empty() {
        return false;
    }
    let said: Vec<String> = crate::query::terms::stems(&format!("{} {line}", item.subject));
    !question.stems.is_empty() && question.stems.iter().all(|w| said.contains(w))
}

/// Whether a label's head noun names what the question asks for: a place for
/// "where", a day or time for "when", a sum for "how much", or its focus noun.
fn label_fits(head: &str, question: &Question) -> bool {
    let kind = focus_type(head);
    let of_kind = match question.qtype {
        QuestionType::Where => kind == Some(FocusType::Place),
        QuestionType::When => matches!(kind, Some(FocusType::Date | FocusType::Time)),
        QuestionType::HowMuch => kind == Some(FocusType::Money),
        _ => false,
    };
    of_kind || question.focus.last().is_some_and(|f| *f == stem(head))
}

/// Whether a labelled line gives what is asked of another thing: its label's head
/// names the kind asked for, and the words before it name something the question
/// does not ("Booking date: March 3" for "when was the inspection?").
pub fn labels_something_else(line: &str, question: &Question) -> bool {
    let Some((label, _)) = labelled(line) else {
        return false;
    };
    let words: Vec<String> = label.split_whitespace().map(str::to_lowercase).collect();
    let Some((head, before)) = words.split_last() else {
        return false;
    };
    !before.is_empty()
        && label_fits(head, question)
        && before.iter().all(|w| !question.stems.contains(&stem(w)))
}

/// A labelled line that answers by its form ([`labelled_line_answers`]) moves up to
/// where its message's first candidate was: the trees weigh a line by the question's
/// words, and "where" is not a word that "Venue:" shares.
pub fn labelled_line_first(
    scored: &mut [crate::answer::select::Scored],
    pack: &crate::answer::evidence::EvidencePack,
    question: &Question,
) {
    let key = |s: &crate::answer::select::Scored| {
        pack.items
            .get(s.candidate.item)
            .map(|i| i.key.as_str())
            .unwrap_or("")
    };
    let answers = |s: &crate::answer::select::Scored| {
        pack.items
            .get(s.candidate.item)
            .is_some_and(|i| labelled_line_answers(i, &s.candidate.text, question))
    };
    let mut i = 0;
    while i < scored.len() {
        if !answers(&scored[i]) {
            let here = key(&scored[i]);
            if let Some(j) =
                (i + 1..scored.len()).find(|&j| key(&scored[j]) == here && answers(&scored[j]))
            {
                scored[i..=j].rotate_right(1);
            }
        }
        i += 1;
    }
}

/// A line's label and value, a leading bullet left out
/// ([`label_and_value`](super::sentences::label_and_value)).
fn labelled(line: &str) -> Option<(&str, &str)> {
    super::sentences::label_and_value(
        line.trim_start_matches(|c: char| c.is_whitespace() || "-*•>".contains(c)),
    )
}

/// Whether a record names nothing the question asks about: no field the question
/// names and no value it names whole ("who is the CEO?" of a row of a hiring plan;
/// "who keeps the gallery's books?" of a row whose room is "Gallery B").
pub fn names_nothing_asked(record: &str, question: &Question) -> bool {
    field_answer(record, question).is_none() && !names_a_value(record, question)
}

/// Whether the question holds every word of one of the record's values: a value
/// of several words is not named by one of them.
fn names_a_value(record: &str, question: &Question) -> bool {
    fields(record).any(|(_, value)| {
        let words = word_stems(value);
        !words.is_empty() && words.iter().all(|w| question.stems.contains(w))
    })
}

/// A record's fields, "Name: value" pairs joined by "; ".
fn fields(record: &str) -> impl Iterator<Item = (&str, &str)> {
    record.split("; ").filter_map(|f| f.split_once(": "))
}

/// The stems of every word of a field's name or value, lowercased.
fn word_stems(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| stem(&w.to_lowercase()))
        .collect()
}

/// Of an invitation card's lines, the one whose field the question's kind asks for
/// (When for "when", Where for "where") goes first among the card's lines, and the
/// lines of the other such fields go last: a "where" question is not answered by
/// the card's time. The trees score a card's lines by their words, and "where" is
/// not a word they weigh.
pub fn card_field_first(
    scored: &mut Vec<crate::answer::select::Scored>,
    pack: &crate::answer::evidence::EvidencePack,
    question: &Question,
) {
    if !matches!(
        question.qtype,
        QuestionType::When | QuestionType::Where | QuestionType::Who
    ) {
        return;
    }
    let card_line = |s: &crate::answer::select::Scored| {
        pack.items.get(s.candidate.item).is_some_and(is_card)
            && s.candidate
                .text
                .split_once(": ")
                .is_some_and(|(f, _)| matches!(f, "When" | "Where" | "Organizer" | "Attendees"))
    };
    let (mut keep, off): (Vec<_>, Vec<_>) = std::mem::take(scored)
        .into_iter()
        .partition(|s| !card_line(s) || card_answer(&s.candidate.text, question).is_some());
    // A fitting line moves up to where its card's first line was.
    let mut i = 0;
    while i < keep.len() {
        let item = keep[i].candidate.item;
        if pack.items.get(item).is_some_and(is_card) {
            if let Some(j) = (i..keep.len()).find(|&j| {
                keep[j].candidate.item == item
                    && card_answer(&keep[j].candidate.text, question).is_some()
            }) {
                keep[i..=j].rotate_right(1);
            }
        }
        i += 1;
    }
    keep.extend(off);
    *scored = keep;
}

/// How many of the question's words a record's values hold (its field names
/// left out): a record is about what its values name, so of two rows of one table
/// the question that names "pottery" is about the pottery row.
pub fn value_overlap(record: &str, question: &Question) -> usize {
    let mut seen: Vec<String> = Vec::new();
    for (_, value) in fields(record) {
        for s in word_stems(value) {
            if question.stems.contains(&s) && !seen.contains(&s) {
                seen.push(s);
            }
        }
    }
    seen.len()
}

/// The value the question asks for, when one field's name shares a word with the
/// question and its value is not itself in the question.
pub fn field_answer(record: &str, question: &Question) -> Option<String> {
    let asked: Vec<&String> = question.stems.iter().collect();
    fields(record)
        .find(|(name, value)| {
            let names = word_stems(name);
            let values = word_stems(value);
            names.iter().any(|n| asked.contains(&n))
                && !values.is_empty()
                && !values.iter().all(|v| asked.contains(&v))
        })
        .map(|(_, value)| value.trim().to_string())
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::people::AddressBook;

    fn analyze(q: &str) -> Question {
        Question::read(q, &AddressBook::default(), 0)
    }

    #[test]
    fn the_named_field_answers_and_values_the_question_gives_are_skipped() {
        let row = "Trail: Ridge loop; Length km: 14; Start: North car park";
        let q = analyze("How long is the ridge loop trail in km?");
        assert_eq!(field_answer(row, &q).as_deref(), Some("14"));
        let q = analyze("Where does the ridge loop start?");
        assert_eq!(field_answer(row, &q).as_deref(), Some("North car park"));
        let q = analyze("Who maintains the ridge loop?");
        assert_eq!(field_answer(row, &q), None);
    }

    #[test]
    fn a_card_line_answers_the_kind_of_question_its_field_is_for() {
        let when = "When: Monday 2 June 2025, 09:00 to 10:00 UTC";
        assert_eq!(
            card_answer(when, &analyze("When is the trail briefing?")).as_deref(),
            Some("Monday 2 June 2025, 09:00 to 10:00 UTC")
        );
        assert_eq!(
            card_answer(when, &analyze("Where is the trail briefing?")),
            None
        );
        assert_eq!(
            card_answer("Where: Ranger hut", &analyze("Where is the briefing?")).as_deref(),
            Some("Ranger hut")
        );
    }

    #[test]
    fn a_labelled_line_answers_what_its_label_names_of_its_subject() {
        let mut item = crate::answer::evidence::item("", "Mira");
        item.subject = "Re: Spring retreat plans".into();
        let venue = "- Venue: Tern Island Inn, a short ferry ride away";
        let answers = |line: &str, q: &str| labelled_line_answers(&item, line, &analyze(q));
        assert!(answers(venue, "where is the retreat?"));
        assert!(answers("Dates: May 12-13", "when is the retreat?"));
        assert!(answers(
            "* Budget: $9,400 all-in",
            "how much is the retreat budget?"
        ));
        assert!(answers(venue, "what's the retreat venue?"));
        // The label is not what is asked, or the question says more than the line
        // and its subject do.
        assert!(!answers(venue, "when is the retreat?"));
        assert!(!answers(venue, "where is the retreat dinner?"));
        assert!(!answers("Note: bring boots", "where is the retreat?"));
        // Not a label: a clock time, or a sentence before its colon.
        assert!(!answers(
            "At 3:15 we met at the inn",
            "when is the retreat?"
        ));
        assert!(!answers(
            "The venue for the whole spring retreat is: Tern Island Inn",
            "where is the retreat?"
        ));
        // Quoted or forwarded text is not the message's own.
        let mut forwarded = item.clone();
        forwarded.origin = Some(crate::answer::evidence::Attribution {
            author: "Someone".into(),
            date: None,
            timestamp: None,
            how: "forwarded".into(),
        });
        assert!(!labelled_line_answers(
            &forwarded,
            venue,
            &analyze("where is the retreat?")
        ));
    }

    #[test]
    fn a_label_naming_another_thing_gives_its_value_not_the_one_asked() {
        let booking = "- Booking date: March 3, 2025";
        assert!(labels_something_else(
            booking,
            &analyze("when was the inspection done?")
        ));
        assert!(!labels_something_else(
            booking,
            &analyze("when was the hall's booking made?")
        ));
        // A bare kind noun, or a label of another kind, names no other thing.
        assert!(!labels_something_else(
            "Date: March 3",
            &analyze("when is the fair?")
        ));
        assert!(!labels_something_else(
            booking,
            &analyze("where is the fair?")
        ));
        assert!(!labels_something_else(
            "The fair is on March 3",
            &analyze("when is the fair?")
        ));
    }

    #[test]
    fn values_not_field_names_tell_rows_apart() {
        let q = analyze("How long is the ridge loop trail?");
        let ridge = "Trail: Ridge loop; Length km: 14";
        let lake = "Trail: Lake path; Length km: 6";
        assert_eq!(value_overlap(ridge, &q), 2);
        assert_eq!(value_overlap(lake, &q), 0);
    }

    #[test]
    fn a_row_is_named_by_a_whole_value_or_a_field() {
        let row = "Class: Glazing; Room: Gallery Annex; Teacher: Noor Haddad";
        assert!(!names_nothing_asked(row, &analyze("who teaches glazing?")));
        assert!(!names_nothing_asked(
            row,
            &analyze("what is in the gallery annex on mondays?")
        ));
        assert!(!names_nothing_asked(row, &analyze("which room is it in?")));
        assert!(names_nothing_asked(
            row,
            &analyze("who keeps the gallery's books?")
        ));
        assert!(names_nothing_asked(
            row,
            &analyze("what does the bakery charge?")
        ));
    }
}
