//! An answer as it arrives: the question as rewritten, the text streamed in, then
//! the outcome with its citations (the first one opened in the evidence pane).

use super::app::App;
use super::command::Pane;
use crate::engine::handle::EngineEvent;

impl App {
    pub(super) fn on_answer_event(&mut self, ev: EngineEvent) {
        match ev {
            EngineEvent::AnswerRewrite { req, text } => {
                if let Some(t) = self.chat.turns.last_mut().filter(|t| t.req == req) {
                    t.rewrite = Some(text);
                }
            }
            EngineEvent::AnswerDelta { req, text } => {
                if let Some(t) = self.chat.turns.last_mut().filter(|t| t.req == req) {
                    t.draft.push_str(&text);
                }
            }
            EngineEvent::Answer {
                req,
                outcome,
                conversation,
            } => {
                self.in_flight.remove(&req);
                if let Some(t) = self.chat.turns.last_mut().filter(|t| t.req == req) {
                    t.outcome = Some(outcome);
                    self.chat.conversation = conversation;
                    self.chat.scroll_back = 0;
                    self.evidence.reset();
                    let cited = !self.citations().is_empty();
                    if cited {
                        self.load_citation(0);
                    } else {
                        self.load_closest();
                    }
                    // Unless the next question is being typed, the answer's keys
                    // (digits for citations, ? for help) work at once.
                    if self.layout.focus == Pane::Chat && self.chat.input_is_empty() {
                        self.leave_chat();
                        if cited {
                            self.status.note("digits open the citations · i asks again");
                        } else if self.closest().is_some() {
                            self.status
                                .note("the evidence pane shows the closest mail · i asks again");
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
