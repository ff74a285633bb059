//! Actions on mail from the UI: read and unread, flagged. The engine writes them to
//! the mail's source and answers with each copy's flags, which the panes then show.

use super::app::App;
use super::keymap::Mode;
use crate::engine::handle::{EngineRequest, RequestId};
use crate::engine::mailbox::expunge::ExpungeReport;
use crate::engine::mailbox::flags::FlagOutcome;
use crate::engine::mailbox::moves::{MoveOutcome, MoveTarget};
use crate::mail::model::MessageKey;
use std::collections::HashSet;

/// How to take back the last action on mail: one step per message it changed.
#[derive(Debug, Clone, Default)]
pub struct UndoLog {
    steps: Vec<UndoStep>,
    /// The requests of the last action, whose outcomes add steps.
    action: HashSet<RequestId>,
}

#[derive(Debug, Clone)]
enum UndoStep {
    Flag {
        key: MessageKey,
        flag: char,
        on: bool,
    },
    Move {
        key: MessageKey,
        back: MoveTarget,
    },
}

const SEEN: char = 'S';
const FLAGGED: char = 'F';

impl App {
    /// `toggle_read`: the message shown, the search hit selected, or the thread
    /// selected (all of it read, or its latest message unread again).
    pub(super) fn toggle_read(&mut self, mode: Mode) {
        self.toggle(mode, SEEN, "no message here to mark");
    }

    /// `toggle_flag`: the message shown or the hit selected; on a thread, its
    /// latest message, or every message when some are flagged.
    pub(super) fn toggle_flag(&mut self, mode: Mode) {
        self.toggle(mode, FLAGGED, "no message here to flag");
    }

    /// Sets `flag` on a message where it is clear, and clears it where it is set. On
    /// a thread with some mail in the state the key takes it out of (unread, or
    /// flagged), every message leaves that state; otherwise its latest enters it.
    fn toggle(&mut self, mode: Mode, flag: char, nothing: &str) {
        match self.action_target(mode) {
            Some(Target::Message(key, flags)) => {
                self.new_action();
                self.user_flag(key, flag, !flags.contains(flag));
            }
            Some(Target::Thread {
                keys,
                unread,
                flagged,
            }) => {
                self.new_action();
                // Unread mail leaves its state when S is set; flagged mail when F
                // is cleared.
                let (some_left, leave_by_setting) = match flag {
                    SEEN => (unread > 0, true),
                    _ => (flagged > 0, false),
                };
                if some_left {
                    for key in keys {
                        self.user_flag(key, flag, leave_by_setting);
                    }
                } else if let Some(latest) = keys.last() {
                    self.user_flag(*latest, flag, !leave_by_setting);
                }
            }
            None => self.status.note(nothing),
        }
    }

    /// Marks the message shown in the reader read, when reading does that.
    pub(super) fn mark_shown_read(&mut self) {
        if !self.options.mark_read {
            return;
        }
        let shown = self
            .reader
            .as_ref()
            .filter(|r| !r.loading)
            .and_then(|r| r.messages.get(r.current))
            .filter(|m| m.is_unread())
            .map(|m| m.key);
        if let Some(key) = shown {
            self.set_flag(key, SEEN, true);
        }
    }

    fn set_flag(&mut self, key: MessageKey, flag: char, on: bool) -> RequestId {
        self.request(|req| EngineRequest::SetFlag { req, key, flag, on })
    }

    /// A flag the user set: undo sets it back.
    pub(super) fn user_flag(&mut self, key: MessageKey, flag: char, on: bool) {
        let req = self.set_flag(key, flag, on);
        self.undo.action.insert(req);
        self.undo.steps.push(UndoStep::Flag { key, flag, on: !on });
    }

    /// A new action on mail: undo takes back this one, not the one before.
    pub(super) fn new_action(&mut self) {
        self.undo = UndoLog::default();
    }

    /// `archive` and `delete`: the message shown, the hit selected, or every
    /// message of the thread selected.
    pub(super) fn move_to(&mut self, mode: Mode, target: MoveTarget) {
        let keys = match self.action_target(mode) {
            Some(Target::Message(key, _)) => vec![key],
            Some(Target::Thread { keys, .. }) => keys,
            None => return self.status.note("no message here to move"),
        };
        self.move_keys(keys, target);
    }

    /// Moves messages as one action (undo takes it back).
    pub(super) fn move_keys(&mut self, keys: Vec<MessageKey>, target: MoveTarget) {
        self.new_action();
        for key in keys {
            let target = target.clone();
            let req = self.request(|req| EngineRequest::Move { req, key, target });
            self.undo.action.insert(req);
        }
    }

    /// `undo`: takes back the last action's steps.
    pub(super) fn undo_last(&mut self) {
        let steps = std::mem::take(&mut self.undo.steps);
        if steps.is_empty() {
            return self.status.note("nothing to undo");
        }
        self.undo = UndoLog::default();
        for step in steps.into_iter().rev() {
            match step {
                UndoStep::Flag { key, flag, on } => {
                    self.set_flag(key, flag, on);
                }
                UndoStep::Move { key, back } => {
                    let target = back;
                    self.request(|req| EngineRequest::Move { req, key, target });
                }
            }
        }
        self.status.note("undone");
    }

    /// `expunge`: the first press asks what the trash holds and says so; pressing
    /// it again at once empties it for good.
    pub(super) fn expunge(&mut self) {
        let confirm = std::mem::take(&mut self.expunge_armed);
        self.request(|req| EngineRequest::Expunge { req, confirm });
    }

    /// What the trash holds, or that it was emptied.
    pub(super) fn expunged(&mut self, report: ExpungeReport) {
        let folders = report.folders.join(", ");
        let left = match report.left {
            0 => String::new(),
            n => format!("; {n} in mbox files stay"),
        };
        match (report.done, report.removed) {
            (_, 0) => self.status.note(format!("the trash is empty{left}")),
            (true, n) => self
                .status
                .note(format!("deleted {n} emails from {folders} for good{left}")),
            (false, n) => {
                self.expunge_armed = true;
                let again = self
                    .keymap
                    .mode(self.mode())
                    .keys_for(&super::command::Command::Expunge)
                    .next()
                    .map(|k| k.to_string())
                    .unwrap_or_else(|| "expunge".into());
                self.status.note(format!(
                    "{n} emails in {folders} would be deleted for good: {again} again deletes them{left}"
                ));
            }
        }
    }

    /// The engine moved a message: the panes show its folder now.
    pub(super) fn moved(&mut self, req: RequestId, mut outcome: MoveOutcome) {
        if let Some(summary) = outcome.thread.take() {
            self.threads.update_thread(summary);
        }
        if let Some(r) = self.reader.as_mut() {
            for m in r.messages.iter_mut().filter(|m| m.key == outcome.key) {
                m.folder = outcome.to_folder.clone();
            }
        }
        if let Some(s) = self.threads.search.as_mut() {
            for h in s.hits.iter_mut().filter(|h| h.key == outcome.key.to_hex()) {
                h.folder = outcome.to_folder.clone();
            }
        }
        if self.undo.action.contains(&req) {
            self.undo.steps.push(UndoStep::Move {
                key: outcome.key,
                back: outcome.back.clone(),
            });
            let undo = self
                .keymap
                .mode(self.mode())
                .keys_for(&super::command::Command::Undo)
                .next()
                .map(|k| format!(" ({k} undoes)"))
                .unwrap_or_default();
            self.status
                .note(format!("moved to {}{undo}", outcome.to_folder));
        }
    }

    /// The engine set a flag (`ours`: this UI asked): every pane shows the copies'
    /// flags now.
    pub(super) fn flagged(&mut self, outcome: FlagOutcome, ours: bool) {
        if let Some(r) = self.reader.as_mut() {
            for m in r.messages.iter_mut() {
                if let Some((_, f)) = outcome.messages.iter().find(|(k, _)| *k == m.key) {
                    m.flags = f.clone();
                }
            }
        }
        if let Some(m) = self.evidence.message.as_mut() {
            if let Some((_, f)) = outcome.messages.iter().find(|(k, _)| *k == m.key) {
                m.flags = f.clone();
            }
        }
        if let Some(s) = self.threads.search.as_mut() {
            for h in s.hits.iter_mut() {
                if let Some((_, f)) = outcome.messages.iter().find(|(k, _)| k.to_hex() == h.key) {
                    h.flags = f.clone();
                }
            }
        }
        if let Some(summary) = outcome.thread {
            self.threads.update_thread(summary);
        }
        // Marking read on opening is what reading does: it needs no word.
        if !ours || outcome.flag == SEEN && outcome.on && self.options.mark_read {
            return;
        }
        let what = match (outcome.flag, outcome.on) {
            (SEEN, true) => "marked read",
            (SEEN, false) => "marked unread",
            (FLAGGED, true) => "flagged",
            (FLAGGED, false) => "flag cleared",
            _ => "flags changed",
        };
        if outcome.kept_in_quoth > 0 {
            self.status.note(format!(
                "{what} (kept in Quoth: this mail's source holds no flags)"
            ));
        } else {
            self.status.note(what);
        }
    }

    fn action_target(&self, mode: Mode) -> Option<Target> {
        if self.threads.picker.is_some() {
            return None;
        }
        match mode {
            Mode::Reader => {
                let r = self.reader.as_ref().filter(|r| !r.loading)?;
                let m = r.messages.get(r.current)?;
                Some(Target::Message(m.key, m.flags.clone()))
            }
            Mode::Threads => match &self.threads.search {
                Some(s) => {
                    let h = s.hits.get(self.threads.selected)?;
                    Some(Target::Message(
                        MessageKey::from_hex(&h.key)?,
                        h.flags.clone(),
                    ))
                }
                None => {
                    let t = self.threads.threads.get(self.threads.selected)?;
                    Some(Target::Thread {
                        keys: t.messages.clone(),
                        unread: t.unread,
                        flagged: t.flagged,
                    })
                }
            },
            _ => None,
        }
    }
}

/// What a mail action applies to.
enum Target {
    /// One message (and the other copies of its email), with its flags.
    Message(MessageKey, String),
    /// A thread: its messages oldest first, its unread and flagged emails.
    Thread {
        keys: Vec<MessageKey>,
        unread: u32,
        flagged: u32,
    },
}
