//! "What's Dana's cell number?", "what is Jo Lin's job title?": answered from the
//! person's card (see [`crate::mail::card`]): the signature of their own mail first,
//! newest first, then a card in any mail that names them, the newest. The answer
//! quotes the line that gives the detail (and the card's name line when the mail is
//! not theirs) and passes the citation validator like every answer. When no card
//! gives it, the question goes to the evidence selector as any other.

use super::answer::validated;
use crate::engine::ask::Answered;
use crate::engine::{Engine, Result, SearchOrder};
use crate::graph::organisation::capitalised;
use crate::mail::card::{cards, is_part_of_name, names_person, Card};
use crate::mail::model::MessageKey;
use crate::query::people::PersonMention;
use crate::query::person_detail::{Detail, DetailAsk};
use crate::query::question::Question;
use crate::store::StoredMessage;

/// The person's newest messages read for their signature, and the messages naming
/// them read for a card; addresses of theirs searched.
const OWN_MAIL: usize = 30;
const NAMING_MAIL: usize = 20;
const ADDRESSES: usize = 3;

impl Engine {
    /// The detail a card gives, cited, with a note on where it came from.
    pub(in crate::engine) fn person_detail(
        &self,
        plan: &Question,
        ask: &DetailAsk,
    ) -> Result<Option<(Answered, String)>> {
        let mut addresses = addresses_of(&plan.people, &ask.person);
        if addresses.is_empty() {
            // A name typed in lower case ("dana reyes cell"): the address book reads
            // names as written in a sentence, capitalised.
            let written: Vec<String> = ask.person.iter().map(|w| capitalised(w)).collect();
            let book = self.mailbox_context()?.book;
            addresses = addresses_of(&book.mentions(&written.join(" ")), &ask.person);
        }
        if ask.known_only && addresses.is_empty() {
            return Ok(None);
        }
        let now = chrono::Utc::now().timestamp();
        // Their own mail: a signature there is their card.
        for address in &addresses {
            let query = format!("from:{address}");
            let hits = self
                .search_in_order(&query, OWN_MAIL, now, SearchOrder::Newest)
                .unwrap_or_default();
            for hit in hits {
                let Some(msg) = self.hit_message(&hit.key)? else {
                    continue;
                };
                for card in cards(&msg.body, &msg.segments) {
                    let theirs = match card.name {
                        Some((a, b)) => {
                            let name = &msg.body[a..b];
                            names_person(name, &ask.person) || is_part_of_name(name, &ask.person)
                        }
                        None => card.signature,
                    };
                    if theirs {
                        if let Some(found) = self.cite_card(&msg, &card, ask.detail)? {
                            return Ok(Some(found));
                        }
                    }
                }
            }
        }
        // Any mail naming them: the newest card under their name that gives it.
        let hits = self
            .search(&ask.person.join(" "), NAMING_MAIL, now)
            .unwrap_or_default();
        let mut named: Vec<(Option<i64>, StoredMessage, Card)> = Vec::new();
        for hit in hits {
            let Some(msg) = self.hit_message(&hit.key)? else {
                continue;
            };
            for card in cards(&msg.body, &msg.segments) {
                let gives = detail_line(&card, ask.detail).is_some();
                let theirs = card
                    .name
                    .is_some_and(|(a, b)| names_person(&msg.body[a..b], &ask.person));
                if gives && theirs {
                    named.push((msg.date, msg.clone(), card));
                }
            }
        }
        named.sort_by_key(|(date, ..)| std::cmp::Reverse(*date));
        for (_, msg, card) in &named {
            if let Some(found) = self.cite_card(msg, card, ask.detail)? {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    fn hit_message(&self, key: &str) -> Result<Option<StoredMessage>> {
        Ok(MessageKey::from_hex(key)
            .map(|k| self.store.message(&k))
            .transpose()?
            .flatten())
    }

    /// The answer quoting the card's line for `detail`, validated; None when the
    /// card does not give it or the validator drops the claim.
    fn cite_card(
        &self,
        msg: &StoredMessage,
        card: &Card,
        detail: Detail,
    ) -> Result<Option<(Answered, String)>> {
        let Some(((a, b), short)) = detail_line(card, detail) else {
            return Ok(None);
        };
        let (start, end) = card.span();
        let mut item = self.header_item(msg)?;
        item.n = 1;
        item.cite_text = msg.body[start..end].to_string();
        item.start = start as u32;
        item.end = end as u32;
        let line = &msg.body[a..b];
        let sender = msg.from.first();
        let name = match card.name {
            Some((x, y)) => msg.body[x..y].trim_end_matches(',').to_string(),
            None => sender
                .and_then(|m| m.name.clone())
                .unwrap_or_else(|| sender.map(|m| m.address.clone()).unwrap_or_default()),
        };
        let what = match detail {
            Detail::Title => "title",
            Detail::Phone(_) => "number",
        };
        // The name line is quoted unless the headers already show the name.
        let text = if item.header_text().contains(&name) {
            format!("{name} gives this {what} in their signature: \u{201c}{line}\u{201d} [1]")
        } else {
            format!(
                "{name} has this {what} on a card in this email: \u{201c}{name}\u{201d} \u{201c}{line}\u{201d} [1]"
            )
        };
        let short = msg.body[short.0..short.1]
            .trim_end_matches([',', ';'])
            .to_string();
        Ok(validated(&text, vec![item], short)
            .map(|answered| (answered, format!("answered from {name}'s card in the mail"))))
    }
}

/// The addresses of the people mentioned whose mention names the person asked about.
fn addresses_of(mentions: &[PersonMention], person: &[String]) -> Vec<String> {
    mentions
        .iter()
        .filter(|m| names_person(&m.mention, person))
        .flat_map(|m| m.match_terms.iter().filter(|t| t.contains('@')).cloned())
        .take(ADDRESSES)
        .collect()
}

/// The byte range of the card line that gives `detail`, and of the short answer in
/// it (the number, or the whole title line).
fn detail_line(card: &Card, detail: Detail) -> Option<((usize, usize), (usize, usize))> {
    match detail {
        Detail::Title => card.title().map(|l| (l.range, l.range)),
        Detail::Phone(kind) => card.phone(kind).map(|(l, p)| (l.range, p.range)),
    }
}
