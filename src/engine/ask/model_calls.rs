//! The model calls of one question, kept for its later tries: a wider try holds
//! mostly the messages of the narrower one, so its sentences are embedded and read
//! once per question, not once per try. Each model's time is summed for the
//! question's timings.

use crate::answer::{ReaderInput, SpanLogits};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::Hash;
use std::time::Instant;

/// One question's model results, by the text each model read.
#[derive(Default)]
pub(in crate::engine) struct ModelCalls {
    vectors: RefCell<HashMap<String, Vec<f32>>>,
    logits: RefCell<HashMap<ReaderInput, f32>>,
    spans: RefCell<HashMap<ReaderInput, Option<SpanLogits>>>,
    embed_ms: Cell<f64>,
    read_ms: Cell<f64>,
    span_ms: Cell<f64>,
}

fn timed<T>(total: &Cell<f64>, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    total.set(total.get() + t.elapsed().as_secs_f64() * 1000.0);
    out
}

/// The model's output for each of `keys`, in order: those in `known` from there,
/// the others from one call of `model` (timed into `total`) and kept. None when the
/// model fails or gives another count (nothing is kept then).
fn once_each<K: Hash + Eq + Clone, V: Clone>(
    known: &RefCell<HashMap<K, V>>,
    total: &Cell<f64>,
    keys: &[K],
    model: impl FnOnce(&[K]) -> Option<Vec<V>>,
) -> Option<Vec<V>> {
    let mut missing: Vec<K> = Vec::new();
    for k in keys {
        if !known.borrow().contains_key(k) && !missing.contains(k) {
            missing.push(k.clone());
        }
    }
    if !missing.is_empty() {
        let values = timed(total, || model(&missing))?;
        if values.len() != missing.len() {
            return None;
        }
        known.borrow_mut().extend(missing.into_iter().zip(values));
    }
    let known = known.borrow();
    keys.iter().map(|k| known.get(k).cloned()).collect()
}

impl ModelCalls {
    /// The vectors of `texts`, in order, embedding only those not seen before; None
    /// when the model failed (nothing is kept then).
    pub(in crate::engine) fn embed(
        &self,
        texts: &[&str],
        model: impl FnOnce(&[&str]) -> Option<Vec<Vec<f32>>>,
    ) -> Option<Vec<Vec<f32>>> {
        let keys: Vec<String> = texts.iter().map(|t| (*t).to_string()).collect();
        once_each(&self.vectors, &self.embed_ms, &keys, |missing| {
            let missing: Vec<&str> = missing.iter().map(String::as_str).collect();
            model(&missing)
        })
    }

    /// The reader's logit of each input, in order, reading only those not read
    /// before; None when the reader is not available.
    pub(in crate::engine) fn read(
        &self,
        inputs: &[ReaderInput],
        model: impl FnOnce(&[ReaderInput]) -> Option<Vec<f32>>,
    ) -> Option<Vec<f32>> {
        once_each(&self.logits, &self.read_ms, inputs, model)
    }

    /// The span head's reading of `input`, read once.
    pub(in crate::engine) fn span(
        &self,
        input: &ReaderInput,
        model: impl FnOnce(&ReaderInput) -> Option<SpanLogits>,
    ) -> Option<SpanLogits> {
        if let Some(known) = self.spans.borrow().get(input) {
            return known.clone();
        }
        let read = timed(&self.span_ms, || model(input));
        self.spans.borrow_mut().insert(input.clone(), read.clone());
        read
    }

    /// Milliseconds spent in each model, by stage name.
    pub(in crate::engine) fn timings(&self) -> [(&'static str, f64); 3] {
        [
            ("answer_embed", self.embed_ms.get()),
            ("answer_read", self.read_ms.get()),
            ("answer_span", self.span_ms.get()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(sentence: &str) -> ReaderInput {
        ReaderInput {
            subject: "Hall booking".into(),
            sender: "Dana Reyes".into(),
            prev: String::new(),
            sentence: sentence.into(),
            next: String::new(),
        }
    }

    #[test]
    fn a_text_is_embedded_once_across_calls() {
        let calls = ModelCalls::default();
        let seen = RefCell::new(Vec::<String>::new());
        let model = |texts: &[&str]| {
            seen.borrow_mut()
                .extend(texts.iter().map(|t| t.to_string()));
            Some(texts.iter().map(|t| vec![t.len() as f32]).collect())
        };
        let first = calls.embed(&["the hall", "a deposit"], model).unwrap();
        let second = calls
            .embed(&["a deposit", "the keys", "the hall"], model)
            .unwrap();
        assert_eq!(first, vec![vec![8.0], vec![9.0]]);
        assert_eq!(second, vec![vec![9.0], vec![8.0], vec![8.0]]);
        assert_eq!(*seen.borrow(), vec!["the hall", "a deposit", "the keys"]);
    }

    #[test]
    fn a_failed_model_keeps_nothing() {
        let calls = ModelCalls::default();
        assert!(calls.embed(&["the hall"], |_| None).is_none());
        assert!(calls
            .embed(&["the hall"], |t| Some(vec![vec![1.0]; t.len() + 1]))
            .is_none());
        let again = calls.embed(&["the hall"], |t| Some(vec![vec![2.0]; t.len()]));
        assert_eq!(again, Some(vec![vec![2.0]]));
    }

    #[test]
    fn a_pair_is_read_once_and_answers_in_the_asked_order() {
        let calls = ModelCalls::default();
        let runs = Cell::new(0);
        let model = |inputs: &[ReaderInput]| {
            runs.set(runs.get() + inputs.len());
            Some(inputs.iter().map(|i| i.sentence.len() as f32).collect())
        };
        let (a, b) = (input("The deposit is $400."), input("Keys at noon."));
        assert_eq!(
            calls.read(std::slice::from_ref(&a), model),
            Some(vec![20.0])
        );
        assert_eq!(
            calls.read(&[b.clone(), a.clone(), b.clone()], model),
            Some(vec![13.0, 20.0, 13.0])
        );
        assert_eq!(runs.get(), 2, "each pair is read once");
        assert_eq!(calls.read(&[input("new")], |_| None), None);
    }

    #[test]
    fn a_span_is_read_once_even_when_the_head_has_none() {
        let calls = ModelCalls::default();
        let runs = Cell::new(0);
        let model = |_: &ReaderInput| {
            runs.set(runs.get() + 1);
            None
        };
        let a = input("The deposit is $400.");
        assert_eq!(calls.span(&a, model), None);
        assert_eq!(calls.span(&a, model), None);
        assert_eq!(runs.get(), 1);
    }
}
