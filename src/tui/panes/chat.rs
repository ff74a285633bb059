//! The chat pane: the conversation, the answer streaming in as it is written with its
//! `[n]` markers highlighted, the standalone rewrite of a follow-up shown quietly, and
//! the text input below.

use crate::answer::conversation::Conversation;
use crate::engine::handle::RequestId;
use crate::engine::AskOutcome;
use crate::terminal_text::one_line_for_terminal;
use crate::tui::theme::Theme;
use crate::tui::wrap::{wrap, Run, Wrapped};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;
use tui_textarea::TextArea;

/// Where a question looks first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    #[default]
    Mailbox,
    /// The thread open in the reader, or selected in the list.
    Thread,
}

#[derive(Debug, Clone)]
pub struct ChatTurn {
    pub req: RequestId,
    pub question: String,
    pub rewrite: Option<String>,
    /// Text streamed so far (before validation).
    pub draft: String,
    pub outcome: Option<Box<AskOutcome>>,
    pub error: Option<String>,
}

impl ChatTurn {
    pub fn is_pending(&self) -> bool {
        self.outcome.is_none() && self.error.is_none()
    }
}

#[derive(Clone)]
pub struct ChatState {
    pub turns: Vec<ChatTurn>,
    pub conversation: Conversation,
    pub input: TextArea<'static>,
    pub scope: Scope,
    /// Lines scrolled up from the bottom of the conversation.
    pub scroll_back: usize,
    pub height: usize,
    pub lines: usize,
}

impl ChatState {
    pub fn new(theme: &Theme) -> Self {
        Self {
            turns: Vec::new(),
            conversation: Conversation::default(),
            input: new_input(theme),
            scope: Scope::Mailbox,
            scroll_back: 0,
            height: 0,
            lines: 0,
        }
    }

    /// Nothing is typed in the question box.
    pub fn input_is_empty(&self) -> bool {
        self.input.lines().iter().all(|l| l.is_empty())
    }

    /// The latest answered turn, whose citations the evidence pane shows.
    pub fn current_answer(&self) -> Option<&AskOutcome> {
        self.turns.iter().rev().find_map(|t| t.outcome.as_deref())
    }

    pub fn scroll_by(&mut self, delta: isize) {
        let max = self.lines.saturating_sub(self.height.max(1));
        self.scroll_back = (self.scroll_back as isize)
            .saturating_sub(delta)
            .clamp(0, max as isize) as usize;
    }

    /// The text typed, emptied.
    pub fn take_input(&mut self, theme: &Theme) -> String {
        let text = self.input.lines().join("\n");
        self.input = new_input(theme);
        text
    }
}

pub fn new_input(theme: &Theme) -> TextArea<'static> {
    let mut t = TextArea::default();
    t.set_cursor_line_style(Style::default());
    t.set_placeholder_text("Ask about your mail…");
    t.set_placeholder_style(theme.dim);
    t.set_cursor_style(theme.selected);
    t
}

/// Answer text with `[n]` and `[n, m]` markers in the cited style.
pub fn answer_runs(text: &str, theme: &Theme) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(len) = rest[open..].find(']') else {
            break;
        };
        let inner = &rest[open + 1..open + len];
        let is_marker = !inner.is_empty()
            && inner
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == ' ');
        if is_marker {
            runs.push(Run::new(&rest[..open], theme.text));
            runs.push(Run::new(&rest[open..=open + len], theme.cited));
        } else {
            runs.push(Run::new(&rest[..=open + len], theme.text));
        }
        rest = &rest[open + len + 1..];
    }
    runs.push(Run::new(rest, theme.text));
    runs
}

fn turn_runs(t: &ChatTurn, theme: &Theme) -> Vec<Run> {
    let mut runs = vec![Run::new(format!("› {}\n", t.question), theme.key)];
    if let Some(r) = &t.rewrite {
        runs.push(Run::new(format!("  searched as: {r}\n"), theme.dim));
    }
    match (&t.outcome, &t.error) {
        (Some(o), _) => {
            runs.extend(answer_runs(&o.display_text(), theme));
            runs.push(Run::new("\n", theme.text));
        }
        (None, Some(e)) => runs.push(Run::new(format!("error: {e}\n"), theme.error)),
        (None, None) if t.draft.is_empty() => runs.push(Run::new("searching…\n", theme.dim)),
        (None, None) => {
            runs.extend(answer_runs(&t.draft, theme));
            runs.push(Run::new(" …\n", theme.dim));
        }
    }
    runs.push(Run::new("\n", theme.text));
    runs
}

pub struct ChatView<'a> {
    pub theme: &'a Theme,
    pub focused: bool,
    /// The "how to ask" line for an empty conversation.
    pub hint: &'a str,
    /// What the scope toggle points at, e.g. the thread's subject.
    pub scope_label: &'a str,
}

pub fn render(f: &mut Frame, area: Rect, state: &mut ChatState, view: &ChatView<'_>) {
    let theme = view.theme;
    let scope = match state.scope {
        Scope::Mailbox => "whole mailbox".to_string(),
        Scope::Thread => format!("thread: {}", one_line_for_terminal(view.scope_label)),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if view.focused {
            theme.focus
        } else {
            theme.border
        })
        .title(Span::styled(format!(" Chat · {scope} "), theme.title));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let input_h = (state.input.lines().len() as u16 + 2).clamp(3, 6);
    let [talk, input] =
        Layout::vertical([Constraint::Min(0), Constraint::Length(input_h)]).areas(inner);
    let mut all = Wrapped::default();
    if state.turns.is_empty() {
        all.extend(wrap(&[Run::new(view.hint, theme.hint)], talk.width));
    }
    for t in &state.turns {
        all.extend(wrap(&turn_runs(t, theme), talk.width));
    }
    state.height = usize::from(talk.height);
    state.lines = all.len();
    let max_back = state.lines.saturating_sub(state.height);
    state.scroll_back = state.scroll_back.min(max_back);
    let skip = max_back - state.scroll_back;
    let lines: Vec<Line> = all
        .lines
        .into_iter()
        .skip(skip)
        .take(state.height)
        .collect();
    f.render_widget(Paragraph::new(lines), talk);

    let title = if view.focused {
        " Enter asks · Esc leaves "
    } else {
        " i to ask "
    };
    let mut input_box = state.input.clone();
    input_box.set_block(
        Block::default()
            .borders(Borders::TOP)
            .border_style(if view.focused {
                theme.focus
            } else {
                theme.border
            })
            .title(Span::styled(title, theme.dim)),
    );
    if !view.focused {
        input_box.set_cursor_style(Style::default());
    }
    f.render_widget(&input_box, input);
}
