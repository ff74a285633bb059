//! The extractive answerer (the default; offline): every sentence of the evidence
//! and every fact of its messages' headers is a candidate; the learned selector
//! scores each one, then judges whether the evidence answers the question at all.
//! When it does (its calibrated probability reaches the threshold chosen on the dev
//! split), the best candidate answers, quoted verbatim with its `[n]` marker and led
//! by the short answer; otherwise it says it does not know.

use super::asked_role::fit_role;
use super::candidates::{candidates, Candidate};
use super::compose::{compose, Selection};
use super::field_answer::{
    answers_by_form, card_field_first, labelled_line_first, labels_something_else,
    names_nothing_asked,
};
use super::heading::heading_not_first;
use super::message_asks::answer_first;
use super::reader_input::reader_input;
use super::select::features::{features, Context};
use super::select::reading::Fusion;
use super::select::{judge, shipped_model, Judgement};
use super::sent_date::sent_date;
use super::unasked_kind::unasked_kind;
use super::{AnswerError, AnswerRequest, Answerer, Draft, ReaderInput};
use crate::query::asks::MessageAsk;
use std::collections::HashMap;

#[derive(Debug, Clone, Default)]
pub struct ExtractiveAnswerer;

/// The candidates of a request with their features, as the selector sees them (for
/// training dumps and `--explain`).
pub struct Featurized {
    pub candidates: Vec<Candidate>,
    pub features: Vec<Vec<f32>>,
}

/// Most candidates embedded for their cosine with the question: the cost of an
/// answer is mostly this. The rest get [`UNKNOWN_SIMILARITY`], as in training.
pub const EMBEDDED_CANDIDATES: usize = 24;
/// The similarity of a candidate that was not embedded.
pub const UNKNOWN_SIMILARITY: f32 = -1.0;

impl ExtractiveAnswerer {
    /// Which candidates to embed: those sharing most of the question's words, from
    /// the best-ranked messages first (a cost cap, not a judgement: the selector
    /// weighs every candidate).
    fn to_embed(request: &AnswerRequest<'_>, cands: &[Candidate]) -> Vec<usize> {
        let stems: std::collections::HashSet<&str> =
            request.question.stems.iter().map(String::as_str).collect();
        let mut order: Vec<(f32, usize)> = cands
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let shared = crate::query::terms::content_words(&c.text)
                    .iter()
                    .filter(|w| stems.contains(crate::query::terms::stem(w).as_str()))
                    .count() as f32;
                let rank = request.pack.items.get(c.item).map_or(99, |it| it.rank) as f32;
                (shared + 1.0 / rank, i)
            })
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        order
            .into_iter()
            .take(EMBEDDED_CANDIDATES)
            .map(|(_, i)| i)
            .collect()
    }

    /// The cosine of the question with each candidate (embedded ones; the rest
    /// [`UNKNOWN_SIMILARITY`]), and the mean over each candidate's window of
    /// neighbouring sentences; None without the model.
    fn similarities(
        request: &AnswerRequest<'_>,
        cands: &[Candidate],
    ) -> Option<(Vec<f32>, Vec<f32>)> {
        let (q, embed) = (request.question_vector?, request.embed?);
        let chosen = Self::to_embed(request, cands);
        let texts: Vec<&str> = chosen.iter().map(|&i| cands[i].text.as_str()).collect();
        let vectors = embed(&texts)?;
        if vectors.len() != chosen.len() {
            return None;
        }
        let mut sims = vec![UNKNOWN_SIMILARITY; cands.len()];
        for (&i, v) in chosen.iter().zip(&vectors) {
            sims[i] = v.iter().zip(q).map(|(a, b)| a * b).sum();
        }
        let windows = cands
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let same = |j: usize| cands[j].item == c.item && cands[j].kind == c.kind && j != i;
                if sims[i] == UNKNOWN_SIMILARITY {
                    return UNKNOWN_SIMILARITY;
                }
                let mut sum = sims[i];
                let mut n = 1.0;
                for j in [i.wrapping_sub(1), i + 1] {
                    if j < cands.len() && same(j) && sims[j] != UNKNOWN_SIMILARITY {
                        sum += sims[j];
                        n += 1.0;
                    }
                }
                sum / n
            })
            .collect();
        Some((sims, windows))
    }

    fn context<'a>(
        request: &'a AnswerRequest<'a>,
        sims: Option<&'a (Vec<f32>, Vec<f32>)>,
        weights: &'a HashMap<String, f32>,
    ) -> Context<'a> {
        Context {
            question: request.question,
            pack: request.pack,
            weights,
            known_people: request.known_people,
            scoped: request.scoped,
            similarity: sims.map(|s| s.0.as_slice()),
            window_similarity: sims.map(|s| s.1.as_slice()),
        }
    }

    /// The candidates and their feature vectors.
    pub fn featurize(&self, request: &AnswerRequest<'_>) -> Featurized {
        let cands = candidates(request.pack);
        let sims = Self::similarities(request, &cands);
        let ctx = Self::context(request, sims.as_ref(), request.term_weights);
        let features = features(&ctx, &cands);
        Featurized {
            candidates: cands,
            features,
        }
    }

    /// Every candidate scored (best first), and the question judged.
    pub fn judge(&self, request: &AnswerRequest<'_>) -> Result<Judgement, AnswerError> {
        let model = shipped_model().map_err(|e| AnswerError::Selector(e.to_string()))?;
        let cands = candidates(request.pack);
        let sims = Self::similarities(request, &cands);
        let ctx = Self::context(request, sims.as_ref(), request.term_weights);
        Ok(judge(&ctx, cands, model))
    }
}

impl Answerer for ExtractiveAnswerer {
    fn name(&self) -> &'static str {
        "extractive"
    }

    fn answer(
        &self,
        request: &AnswerRequest<'_>,
        on_delta: &mut dyn FnMut(&str),
    ) -> Result<Draft, AnswerError> {
        let model = shipped_model().map_err(|e| AnswerError::Selector(e.to_string()))?;
        let mut j = self.judge(request)?;
        if j.scored.is_empty() {
            return Ok(Draft::NoAnswer("the evidence holds no passage".to_string()));
        }
        card_field_first(&mut j.scored, request.pack, request.question);
        labelled_line_first(&mut j.scored, request.pack, request.question);
        let fusion = Fusion::shipped().filter(|_| request.read.is_some());
        let threshold = j.threshold * fusion.map_or(1.0, |f| f.trust);
        let of_message = request.question.asks_of_the_message();
        let when_sent = request.question.asks_when_sent();
        // Asked of one thread what it asks for or attaches, or when it was sent, the
        // trees have no words of the question to judge by: it answers when its
        // message has such a sentence, or a date.
        if j.answerable < threshold && !((of_message.is_some() || when_sent) && request.scoped) {
            return Ok(Draft::NoAnswer(format!(
                "the evidence does not answer it (answerable {:.2}, under {:.2})",
                j.answerable, threshold
            )));
        }
        if let Some(ask) = of_message {
            if !answer_first(&mut j.scored, request.pack, ask) {
                return Ok(Draft::NoAnswer(format!(
                    "the message it would come from has no sentence of its {}",
                    match ask {
                        MessageAsk::Request => "request",
                        MessageAsk::Attachment => "attachment",
                    }
                )));
            }
        } else if let Some(why) = fusion.and_then(|f| read_again(&f, &mut j, request)) {
            return Ok(Draft::NoAnswer(why));
        } else {
            // The reader's ranking knows nothing of a card's fields.
            card_field_first(&mut j.scored, request.pack, request.question);
        }
        heading_not_first(&mut j.scored, request.pack, request.question);
        if when_sent {
            match sent_date(&j.scored, request.pack, request.question) {
                Ok(Some(selection)) => {
                    on_delta(&selection.text);
                    return Ok(Draft::Selected(selection));
                }
                Ok(None) => {}
                Err(why) => return Ok(Draft::NoAnswer(why)),
            }
        }
        if let Err(why) = fit_role(
            &mut j.scored,
            request.pack,
            request.question,
            request.known_people,
        ) {
            return Ok(Draft::NoAnswer(why));
        }
        // Further quotes need the candidate stage's own threshold.
        let floor = model.candidate.threshold.min(
            j.scored
                .first()
                .map_or(model.candidate.threshold, |b| b.probability),
        );
        match compose(
            &j.scored,
            request.question,
            request.pack,
            floor,
            request.known_people,
            request.span,
        ) {
            Some(mut selection) => {
                if let Some(why) = lacks_needed_value(&j, request.question, &selection.text) {
                    return Ok(Draft::NoAnswer(why));
                }
                if let Some(why) = leads_with_an_unasked_kind(&j, request, &selection) {
                    return Ok(Draft::NoAnswer(why));
                }
                if let Some(why) = leads_with_another_things_line(&j, request) {
                    return Ok(Draft::NoAnswer(why));
                }
                if let Some(why) = leads_on_another_day(&j, request) {
                    return Ok(Draft::NoAnswer(why));
                }
                if leads_with_an_unnamed_row(&j, request) {
                    return Ok(Draft::NoAnswer(
                        "the table row found names nothing the question asks about".to_string(),
                    ));
                }
                selection.probability = j.answerable;
                on_delta(&selection.text);
                Ok(Draft::Selected(selection))
            }
            None => Ok(Draft::NoAnswer("no candidate can be quoted".to_string())),
        }
    }
}

/// Lets the reader rank the trees' best candidates again ([`Fusion`]); returns why
/// nothing may be quoted when the reader finds no best sentence answering.
fn read_again(fusion: &Fusion, j: &mut Judgement, request: &AnswerRequest<'_>) -> Option<String> {
    let read = request.read?;
    let n = fusion.reads(j);
    let by_form = |s: &crate::answer::select::Scored| {
        request
            .pack
            .items
            .get(s.candidate.item)
            .is_some_and(|item| answers_by_form(item, &s.candidate.text, request.question))
    };
    // A line of an invitation's card, or a labelled line of a message, whose field
    // is what the question asks for ("Where: ..." for "where is it?") answers by its
    // form; the reader, which learnt from prose, reads the rest.
    let inputs: Vec<Option<ReaderInput>> = j.scored[..n]
        .iter()
        .map(|s| {
            let item = request.pack.items.get(s.candidate.item)?;
            (!by_form(s))
                .then(|| reader_input(item, &s.candidate))
                .flatten()
        })
        .collect();
    let batch: Vec<ReaderInput> = inputs.iter().flatten().cloned().collect();
    let mut scores = read(&request.question.question, &batch)?.into_iter();
    let logits: Vec<Option<f32>> = inputs
        .iter()
        .map(|i| i.as_ref().and_then(|_| scores.next()))
        .collect();
    let quotable = fusion.apply(j, &logits);
    // A line that answers by its form, among those read, leads.
    if let Some(at) = j.scored[..n.min(j.scored.len())].iter().position(by_form) {
        j.scored[..=at].rotate_right(1);
        return None;
    }
    if quotable {
        None
    } else {
        Some("the reader finds no sentence of the evidence that answers it".to_string())
    }
}

/// Why an answer led by a sentence cannot answer a question that needs a value of
/// one form (a clock time, a sum, a phone number, an email address) when neither the
/// sentence, nor those beside it, nor the answer's quotes state one: the mail speaks
/// of the thing asked about without giving what is asked. None when it may answer.
fn lacks_needed_value(
    j: &Judgement,
    question: &crate::query::question::Question,
    answer: &str,
) -> Option<String> {
    let best = j.scored.first()?;
    if question.needs.is_empty()
        || best.candidate.kind != super::candidates::CandidateKind::Sentence
        || super::detect::states_any(&best.candidate.window, &question.needs)
        || super::detect::states_any(answer, &question.needs)
    {
        return None;
    }
    let kinds: Vec<String> = question
        .needs
        .iter()
        .map(|k| format!("{k:?}").to_lowercase())
        .collect();
    Some(format!(
        "the best evidence states no {} for it",
        kinds.join(" or ")
    ))
}

/// Why an answer led by a sentence may not be given when its short answer is a value
/// of a kind the question does not ask for ([`unasked_kind`]).
fn leads_with_an_unasked_kind(
    j: &Judgement,
    request: &AnswerRequest<'_>,
    selection: &Selection,
) -> Option<String> {
    let best = j.scored.first()?;
    if best.candidate.kind != super::candidates::CandidateKind::Sentence {
        return None;
    }
    let short = selection.short_answer.as_deref()?;
    let quoted = [best.candidate.window.as_str(), selection.text.as_str()];
    let kind = unasked_kind(short, &quoted, request.question, request.known_people)?;
    Some(format!(
        "the best evidence gives a {} where the question asks for another kind of value",
        format!("{kind:?}").to_lowercase()
    ))
}

/// Whether the answer would lead with a table row (which the reader does not read)
/// that neither has a field the question names nor holds a value it names: "who is
/// the CEO?" is not answered by a row of a hiring plan.
fn leads_with_an_unnamed_row(j: &Judgement, request: &AnswerRequest<'_>) -> bool {
    j.scored.first().is_some_and(|best| {
        let record = request
            .pack
            .items
            .get(best.candidate.item)
            .is_some_and(|i| i.fields);
        record && names_nothing_asked(&best.candidate.text, request.question)
    })
}

/// Why the answer may not lead with a labelled line of a message that gives the
/// asked kind of value of another thing ("Booking date: ..." for the inspection's date).
fn leads_with_another_things_line(j: &Judgement, request: &AnswerRequest<'_>) -> Option<String> {
    let best = j.scored.first()?;
    let item = request.pack.items.get(best.candidate.item)?;
    let prose = best.candidate.kind == super::candidates::CandidateKind::Sentence
        && !item.fields
        && !super::field_answer::is_card(item);
    (prose && labels_something_else(&best.candidate.text, request.question))
        .then(|| "the line found gives that of something the question does not name".to_string())
}

/// Why the answer may not lead with a sentence that names another day than the one
/// the question names, from a message that never names the asked day and was not sent
/// on it ([`super::other_day`]).
fn leads_on_another_day(j: &Judgement, request: &AnswerRequest<'_>) -> Option<String> {
    let asked = super::other_day::asked_day(request.question.date.as_ref())?;
    let best = j.scored.first()?;
    if best.candidate.kind != super::candidates::CandidateKind::Sentence {
        return None;
    }
    let item = request.pack.items.get(best.candidate.item)?;
    let message: Vec<&str> = std::iter::once(item.subject.as_str())
        .chain(
            request
                .pack
                .items
                .iter()
                .filter(|i| i.key == item.key)
                .map(|i| i.cite_text.as_str()),
        )
        .collect();
    super::other_day::names_another_day(asked, &best.candidate.text, &message.join("\n"), item.date)
        .then(|| "the passage found speaks of another day than the one asked".to_string())
}

/// Term weights (inverse document frequency) of stems, from a document-frequency
/// lookup by word.
pub fn idf_weights(
    terms: &[String],
    doc_freq: impl Fn(&str) -> u64,
    docs: u64,
) -> HashMap<String, f32> {
    terms
        .iter()
        .map(|t| {
            let df = doc_freq(t) as f32;
            let idf = ((docs as f32 + 1.0) / (df + 1.0)).ln().max(0.1);
            (crate::query::terms::stem(t), idf)
        })
        .collect()
}
