//! The jump list: where the user was before following a citation or opening a
//! message, so `jump_back` and `jump_forward` can return, as in vim.

use super::panes::reader::Highlight;
use crate::mail::model::ThreadId;

/// A place the view can return to.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// The thread list with this row selected.
    Threads { selected: usize },
    /// A thread open in the reader at a message (and a highlighted quote).
    Reader {
        thread: ThreadId,
        subject: String,
        message: usize,
        highlight: Option<Highlight>,
    },
    /// The evidence pane on a citation.
    Evidence { citation: usize },
}

/// Vim's jump list, without its size limit's subtleties: a new jump drops the
/// forward history.
#[derive(Debug, Clone, Default)]
pub struct JumpList {
    back: Vec<Place>,
    forward: Vec<Place>,
}

/// Older places are forgotten beyond this.
const MAX: usize = 100;

impl JumpList {
    /// Records `from` before jumping somewhere else.
    pub fn push(&mut self, from: Place) {
        if self.back.last() != Some(&from) {
            self.back.push(from);
            if self.back.len() > MAX {
                self.back.remove(0);
            }
        }
        self.forward.clear();
    }

    /// The place to go back to; `current` becomes the way forward.
    pub fn back(&mut self, current: Place) -> Option<Place> {
        let to = self.back.pop()?;
        self.forward.push(current);
        Some(to)
    }

    pub fn forward(&mut self, current: Place) -> Option<Place> {
        let to = self.forward.pop()?;
        self.back.push(current);
        Some(to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_and_forward() {
        let mut j = JumpList::default();
        let a = Place::Threads { selected: 1 };
        let b = Place::Evidence { citation: 0 };
        let c = Place::Evidence { citation: 1 };
        j.push(a.clone());
        j.push(b.clone());
        assert_eq!(j.back(c.clone()), Some(b.clone()));
        assert_eq!(j.back(b.clone()), Some(a.clone()));
        assert_eq!(j.back(a.clone()), None);
        assert_eq!(j.forward(a.clone()), Some(b.clone()));
        assert_eq!(j.forward(b), Some(c));
    }
}
