//! The short answer inside a sentence: the span head gives each token of the chosen
//! sentence a start and an end logit, and the short answer is the span of at most
//! [`MAX_SPAN_TOKENS`] tokens whose start and end score best together, or, when the
//! question asks for a kind of value the sentence holds, the value the head scores
//! best among them.

use super::reader_input::ReaderInput;
use std::ops::Range;

/// Longest short answer, in tokens (as the head was trained).
pub const MAX_SPAN_TOKENS: usize = 16;

/// The span head's reading of one sentence: each of its tokens as a byte range of the
/// sentence (`ReaderInput::sentence`), with its start and end logits.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SpanLogits {
    pub tokens: Vec<Range<usize>>,
    pub start: Vec<f32>,
    pub end: Vec<f32>,
}

/// Reads the question with one sentence; None when the span head is not available.
pub type SpanFn<'a> = &'a dyn Fn(&str, &ReaderInput) -> Option<SpanLogits>;

impl SpanLogits {
    /// The best span: byte range in the sentence and its score (start + end logit).
    pub fn best(&self) -> Option<(Range<usize>, f32)> {
        let n = self.tokens.len().min(self.start.len()).min(self.end.len());
        let mut best: Option<(usize, usize, f32)> = None;
        for i in 0..n {
            for j in i..n.min(i + MAX_SPAN_TOKENS) {
                let s = self.start[i] + self.end[j];
                if s.is_finite() && best.is_none_or(|(_, _, b)| s > b) {
                    best = Some((i, j, s));
                }
            }
        }
        best.map(|(i, j, s)| (self.tokens[i].start..self.tokens[j].end, s))
    }

    /// The score of a byte range of the sentence: the start logit of its first token
    /// and the end logit of its last (the tokens that overlap it); None when no token
    /// does or it is longer than a short answer.
    pub fn score_of(&self, range: &Range<usize>) -> Option<f32> {
        let overlapping: Vec<usize> = (0..self.tokens.len())
            .filter(|&t| self.tokens[t].start < range.end && self.tokens[t].end > range.start)
            .collect();
        let (&i, &j) = (overlapping.first()?, overlapping.last()?);
        if j - i >= MAX_SPAN_TOKENS {
            return None;
        }
        Some(self.start.get(i)? + self.end.get(j)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logits(words: &[(&str, f32, f32)]) -> (String, SpanLogits) {
        let mut text = String::new();
        let mut out = SpanLogits::default();
        for (w, s, e) in words {
            if !text.is_empty() {
                text.push(' ');
            }
            out.tokens.push(text.len()..text.len() + w.len());
            text.push_str(w);
            out.start.push(*s);
            out.end.push(*e);
        }
        (text, out)
    }

    #[test]
    fn the_best_span_joins_the_best_start_with_the_best_end_after_it() {
        let (text, l) = logits(&[
            ("Pay", 0.0, 0.0),
            ("the", 0.0, 0.0),
            ("ferry", 3.0, 0.5),
            ("deposit", 0.5, 4.0),
            ("by", -1.0, 9.0),
        ]);
        let (range, score) = l.best().expect("a span");
        assert_eq!(&text[range], "ferry deposit by");
        assert!((score - 12.0).abs() < 1e-6);

        let (text, l) = logits(&[("a", 0.0, 5.0), ("b", 5.0, 0.0), ("c", 0.0, 1.0)]);
        let (range, _) = l.best().expect("a span");
        assert_eq!(&text[range], "b c", "an end never comes before its start");
    }

    #[test]
    fn a_value_scores_from_its_first_and_last_tokens() {
        let (text, l) = logits(&[
            ("due", 0.0, 0.0),
            ("May", 2.0, 0.5),
            ("8", 0.1, 3.0),
            ("or", 0.0, 0.0),
            ("June", 1.0, 0.0),
            ("2", 0.0, 1.0),
        ]);
        let may = text.find("May 8").map(|a| a..a + 5).expect("May 8");
        let june = text.find("June 2").map(|a| a..a + 6).expect("June 2");
        assert_eq!(l.score_of(&may), Some(5.0));
        assert_eq!(l.score_of(&june), Some(2.0));
        assert_eq!(l.score_of(&(100..120)), None, "outside the sentence");
    }

    #[test]
    fn a_span_longer_than_a_short_answer_is_never_chosen() {
        let words: Vec<(&str, f32, f32)> = (0..40)
            .map(|i| {
                (
                    "w",
                    if i == 0 { 9.0 } else { 0.0 },
                    if i == 39 { 9.0 } else { 0.0 },
                )
            })
            .collect();
        let (_, l) = logits(&words);
        let (range, _) = l.best().expect("a span");
        let tokens = l.tokens.iter().filter(|t| range.contains(&t.start)).count();
        assert!(tokens <= MAX_SPAN_TOKENS, "{tokens} tokens");
        assert_eq!(l.score_of(&(0..l.tokens[39].end)), None);
    }
}
