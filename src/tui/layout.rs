//! Where the panes go: which are shown, how wide each is, and what happens on a
//! narrow terminal.
//!
//! Three panes side by side need about 100 columns to be readable. Below that the
//! layout shows the focused pane and one neighbour (chat, or the thread list when chat
//! has the focus); below 50 columns, only the focused pane. Hidden panes stay hidden
//! at any width, but the focused pane is always shown, so the keyboard never points at
//! something invisible.

use super::command::Pane;
use ratatui::layout::{Constraint, Layout, Rect};

/// Narrower than this, at most two panes are shown.
pub const THREE_PANES_MIN: u16 = 100;
/// Narrower than this, only the focused pane is shown.
pub const TWO_PANES_MIN: u16 = 50;
/// Smallest share of the width a pane can be shrunk to, in percent.
const MIN_WEIGHT: u16 = 15;
/// How much grow/shrink moves, in percent.
const STEP: u16 = 5;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaneLayout {
    pub focus: Pane,
    /// Relative widths of threads, chat, evidence.
    weights: [u16; 3],
    hidden: [bool; 3],
}

impl Default for PaneLayout {
    fn default() -> Self {
        Self {
            focus: Pane::Threads,
            weights: [40, 30, 30],
            hidden: [false; 3],
        }
    }
}

fn idx(p: Pane) -> usize {
    match p {
        Pane::Threads => 0,
        Pane::Chat => 1,
        Pane::Evidence => 2,
    }
}

impl PaneLayout {
    pub fn weight(&self, p: Pane) -> u16 {
        self.weights[idx(p)]
    }

    pub fn is_hidden(&self, p: Pane) -> bool {
        self.hidden[idx(p)]
    }

    /// Hides or shows a pane; the last visible pane cannot be hidden. Hiding the
    /// focused pane moves the focus to the next visible one.
    pub fn toggle(&mut self, p: Pane) {
        let i = idx(p);
        if !self.hidden[i] && self.hidden.iter().filter(|h| !**h).count() == 1 {
            return;
        }
        self.hidden[i] = !self.hidden[i];
        if self.hidden[i] && self.focus == p {
            self.focus = self.neighbour(p, 1);
        }
    }

    /// Moves the focus to `p`, showing it if it was hidden.
    pub fn focus_on(&mut self, p: Pane) {
        self.hidden[idx(p)] = false;
        self.focus = p;
    }

    /// The next (`dir` = 1) or previous (`dir` = -1) visible pane after `from`.
    pub fn neighbour(&self, from: Pane, dir: isize) -> Pane {
        let mut i = idx(from) as isize;
        for _ in 0..3 {
            i = (i + dir).rem_euclid(3);
            let p = Pane::ALL[i as usize];
            if !self.hidden[i as usize] {
                return p;
            }
        }
        from
    }

    /// Widens the focused pane at the expense of the others.
    pub fn grow(&mut self) {
        let f = idx(self.focus);
        for i in 0..3 {
            if i != f && !self.hidden[i] && self.weights[i] >= MIN_WEIGHT + STEP / 2 {
                let take = (STEP / 2).max(1);
                self.weights[i] -= take;
                self.weights[f] += take;
            }
        }
    }

    /// Narrows the focused pane, giving the room to the others.
    pub fn shrink(&mut self) {
        let f = idx(self.focus);
        let others: Vec<usize> = (0..3).filter(|&i| i != f && !self.hidden[i]).collect();
        if others.is_empty() {
            return;
        }
        let give = (STEP / 2).max(1);
        if self.weights[f] < MIN_WEIGHT + give * others.len() as u16 {
            return;
        }
        for i in others {
            self.weights[i] += give;
            self.weights[f] -= give;
        }
    }

    /// The panes shown at `width` columns, left to right.
    pub fn shown(&self, width: u16) -> Vec<Pane> {
        let visible: Vec<Pane> = Pane::ALL
            .into_iter()
            .filter(|p| !self.is_hidden(*p) || *p == self.focus)
            .collect();
        let max = if width >= THREE_PANES_MIN {
            3
        } else if width >= TWO_PANES_MIN {
            2
        } else {
            1
        };
        if visible.len() <= max {
            return visible;
        }
        if max == 1 {
            return vec![self.focus];
        }
        // Two of three: the focused pane and the chat, or the threads beside the chat.
        let partner = if self.focus == Pane::Chat {
            if self.is_hidden(Pane::Threads) {
                Pane::Evidence
            } else {
                Pane::Threads
            }
        } else {
            Pane::Chat
        };
        Pane::ALL
            .into_iter()
            .filter(|p| *p == self.focus || *p == partner)
            .collect()
    }

    /// The rectangle of each shown pane inside `area`.
    pub fn areas(&self, area: Rect) -> Vec<(Pane, Rect)> {
        let shown = self.shown(area.width);
        let total: u32 = shown.iter().map(|p| u32::from(self.weight(*p))).sum();
        let constraints: Vec<Constraint> = shown
            .iter()
            .map(|p| Constraint::Ratio(u32::from(self.weight(*p)), total.max(1)))
            .collect();
        let rects = Layout::horizontal(constraints).split(area);
        shown.into_iter().zip(rects.iter().copied()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_terminals_show_fewer_panes() {
        let mut l = PaneLayout::default();
        assert_eq!(l.shown(120).len(), 3);
        assert_eq!(l.shown(80), vec![Pane::Threads, Pane::Chat]);
        l.focus = Pane::Evidence;
        assert_eq!(l.shown(80), vec![Pane::Chat, Pane::Evidence]);
        l.focus = Pane::Chat;
        assert_eq!(l.shown(80), vec![Pane::Threads, Pane::Chat]);
        assert_eq!(l.shown(40), vec![Pane::Chat]);
    }

    #[test]
    fn hiding_and_resizing() {
        let mut l = PaneLayout::default();
        l.toggle(Pane::Threads);
        assert_eq!(l.focus, Pane::Chat);
        assert_eq!(l.shown(120), vec![Pane::Chat, Pane::Evidence]);
        l.toggle(Pane::Chat);
        l.toggle(Pane::Evidence);
        assert_eq!(l.shown(120), vec![Pane::Evidence], "the last pane stays");
        let before = l.weight(Pane::Evidence);
        l.toggle(Pane::Threads);
        l.grow();
        assert!(l.weight(Pane::Evidence) > before);
        l.shrink();
        assert_eq!(l.weight(Pane::Evidence), before);
        let areas = l.areas(Rect::new(0, 0, 120, 10));
        assert_eq!(areas.iter().map(|a| a.1.width).sum::<u16>(), 120);
    }
}
