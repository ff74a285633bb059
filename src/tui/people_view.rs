//! The people-and-facts view of a thread (`people`): who is on it with their roles,
//! when each joined (and who added them) and when each dropped off, the
//! organisations, and the dated facts its mail states, a replaced value marked.
//! Enter on a person opens the message where they joined; on a fact, its quote.

use super::app::App;
use super::keymap::Mode;
use super::panes::picker::{ItemPicker, PickFor};
use crate::engine::handle::EngineRequest;
use crate::engine::ThreadGraph;
use crate::graph::facts::flowed;
use crate::graph::thread_people::PartRole;
use crate::mail::model::{MessageKey, ThreadId};

impl App {
    /// Asks the engine for the graph of the thread in view (the reader's, else the
    /// selected one).
    pub(super) fn people_of_thread(&mut self, mode: Mode) {
        let thread = match (mode, self.reader.as_ref()) {
            (Mode::Reader, Some(r)) => Some(r.thread),
            _ => self.threads.selected_thread(),
        };
        let Some(thread) = thread else {
            return self.status.note("no thread here");
        };
        let thread = thread.to_hex();
        self.request(|req| EngineRequest::ThreadGraph { req, thread });
    }

    /// Shows a thread's graph as a list to jump from.
    pub(super) fn show_people(&mut self, graph: ThreadGraph) {
        let Some(thread) = ThreadId::from_hex(&graph.thread) else {
            return;
        };
        let (rows, targets) = rows(&graph);
        if rows.is_empty() {
            return self.status.note("no one is on this thread");
        }
        let title = format!("People and facts \u{b7} {}", graph.subject);
        self.item_picker = Some(ItemPicker::new(
            title,
            rows,
            PickFor::Graph {
                thread,
                subject: graph.subject,
                targets,
            },
        ));
    }
}

use super::panes::picker::GraphTarget as Target;

fn day(ts: Option<i64>) -> String {
    ts.and_then(|t| chrono::DateTime::from_timestamp(t, 0))
        .map(|d| d.format("%Y-%m-%d").to_string())
        .unwrap_or_else(|| "undated".into())
}

fn role_word(r: PartRole) -> &'static str {
    match r {
        PartRole::From => "from",
        PartRole::ReplyTo => "reply-to",
        PartRole::To => "to",
        PartRole::Cc => "cc",
        PartRole::Bcc => "bcc",
    }
}

/// The view's rows and where each leads.
fn rows(g: &ThreadGraph) -> (Vec<String>, Vec<Target>) {
    let mut rows = Vec::new();
    let mut targets = Vec::new();
    let email_key = |i: usize| {
        g.emails
            .get(i)
            .and_then(|e| e.keys.first())
            .and_then(|k| MessageKey::from_hex(k))
    };
    for p in &g.participants {
        let roles: Vec<&str> = p.roles.iter().map(|r| role_word(*r)).collect();
        let date = |i: usize| day(g.emails.get(i).and_then(|e| e.date));
        let joined = match (p.first, &p.added_by) {
            (0, _) => "from the start".to_string(),
            (i, Some(by)) => format!("joined {} (added by {by})", date(i)),
            (i, None) => format!("joined {}", date(i)),
        };
        let dropped = p
            .dropped_at
            .map(|i| format!(" \u{b7} dropped off {}", date(i)))
            .unwrap_or_default();
        rows.push(format!(
            "person \u{b7} {} <{}> \u{b7} {} \u{b7} {joined}{dropped}",
            p.name,
            p.address,
            roles.join(", ")
        ));
        targets.push(email_key(p.first).map(|k| (k, None)));
    }
    for o in &g.organisations {
        rows.push(format!(
            "organisation \u{b7} {} \u{b7} {}",
            o.name,
            o.people.join(", ")
        ));
        targets.push(None);
    }
    for f in &g.facts {
        let replaced = if f.superseded_by.is_some() {
            " (superseded)"
        } else {
            ""
        };
        rows.push(format!(
            "fact \u{b7} {} \u{b7} {}: {}{replaced} \u{b7} {}",
            day(f.date),
            flowed(&f.fact.attribute),
            flowed(&f.fact.value),
            f.author
        ));
        targets.push(
            MessageKey::from_hex(&f.message)
                .map(|k| (k, Some((f.fact.start as usize, f.fact.end as usize)))),
        );
    }
    for e in &g.entities {
        rows.push(format!(
            "named \u{b7} {} \u{b7} {} \u{b7} {} email{} \u{b7} first {}",
            e.kind,
            e.text,
            e.mentions,
            if e.mentions == 1 { "" } else { "s" },
            day(e.date)
        ));
        targets.push(
            MessageKey::from_hex(&e.message).map(|k| (k, Some((e.start as usize, e.end as usize)))),
        );
    }
    if g.pending > 0 {
        rows.push(format!(
            "still reading {} of the thread's messages: try again in a moment",
            g.pending
        ));
        targets.push(None);
    }
    (rows, targets)
}
