//! The selector's features on invented questions and mail.

use super::*;
use crate::answer::candidates::candidates;
use crate::answer::evidence::item;
use crate::query::people::AddressBook;

fn feature(name: &str, v: &[f32]) -> f32 {
    v[FEATURE_NAMES
        .iter()
        .position(|n| *n == name)
        .expect("a feature")]
}

fn vectors(question: &str, text: &str) -> Vec<Vec<f32>> {
    let q = Question::read(question, &AddressBook::default(), 0);
    let pack = EvidencePack::build(vec![item(text, "Lee")], 1000);
    let cands = candidates(&pack);
    let weights = HashMap::new();
    let known = HashSet::new();
    let ctx = Context {
        question: &q,
        pack: &pack,
        weights: &weights,
        known_people: &known,
        scoped: false,
        similarity: None,
        window_similarity: None,
    };
    features(&ctx, &cands)
}

#[test]
fn every_vector_has_every_feature() {
    for v in vectors(
        "When is the audit?",
        "The audit is on May 8. Bring the binder.",
    ) {
        assert_eq!(v.len(), FEATURE_NAMES.len());
    }
}

#[test]
fn the_sentence_with_the_asked_kind_of_value_fits() {
    let v = vectors(
        "When is the audit?",
        "The audit is on May 8. The audit needs binders.",
    );
    assert_eq!(feature("type_fit", &v[0]), 1.0);
    assert_eq!(feature("type_fit", &v[1]), 0.0);
    assert!(feature("lex", &v[0]) > 0.0);
}

#[test]
fn another_code_of_the_kind_asked_contradicts_the_question() {
    let v = vectors(
        "What is the rent for unit #1?",
        "Rent for #2 is $900. Rent for #1 is $850.",
    );
    assert_eq!(feature("slots_contradicted", &v[0]), 1.0);
    assert_eq!(feature("slots_contradicted", &v[1]), 0.0);
    assert_eq!(feature("slots_present", &v[1]), 1.0);
}
