//! The reader: a thread's messages, authored text in full, quoted history, signatures
//! and disclaimers folded to one line each (toggle), attachments listed. The evidence
//! pane shows a cited message with the same code.

use crate::engine::handle::RequestId;
use crate::engine::mailbox::copies::AlsoIn;
use crate::engine::{AttachmentState, AttachmentStates};
use crate::mail::clean::SegmentKind;
use crate::mail::model::{display_list, MessageKey, ThreadId};
use crate::store::StoredMessage;
use crate::terminal_text::one_line_for_terminal;
use crate::tui::panes::threads::day;
use crate::tui::theme::Theme;
use crate::tui::wrap::{wrap, Run, Wrapped};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// Tag of the highlighted span in a wrapped message, to scroll it into view.
pub const HIGHLIGHT_TAG: u32 = 1;
/// Tags of message starts in the reader: `MESSAGE_TAG + index`.
const MESSAGE_TAG: u32 = 1000;

/// A byte span of one message to highlight (a cited quote).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlight {
    pub key: MessageKey,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone)]
pub struct ReaderState {
    pub thread: ThreadId,
    pub subject: String,
    pub req: RequestId,
    pub messages: Vec<StoredMessage>,
    /// How far each message's attachments have been read.
    pub attachments: AttachmentStates,
    /// The folders of each message's other copies.
    pub also_in: AlsoIn,
    /// The message to open at (a search hit, a cited message).
    pub show: Option<MessageKey>,
    pub loading: bool,
    /// The message the view is on.
    pub current: usize,
    pub scroll: usize,
    /// Quoted history and signatures folded.
    pub fold: bool,
    pub highlight: Option<Highlight>,
    /// Scroll to the highlight (or the current message) at the next draw.
    pub follow: bool,
    pub height: usize,
    pub lines: usize,
    /// A message shown raw (headers and all, as its source holds it) instead.
    pub raw: Option<(MessageKey, String)>,
}

impl ReaderState {
    pub fn new(thread: ThreadId, subject: String, req: RequestId) -> Self {
        Self {
            thread,
            subject,
            req,
            messages: Vec::new(),
            attachments: AttachmentStates::new(),
            also_in: AlsoIn::new(),
            show: None,
            loading: true,
            current: 0,
            scroll: 0,
            fold: true,
            highlight: None,
            follow: true,
            raw: None,
            height: 0,
            lines: 0,
        }
    }

    /// The thread's messages arrived: go to the message asked for, else the first
    /// unread.
    pub fn loaded(
        &mut self,
        messages: Vec<StoredMessage>,
        attachments: AttachmentStates,
        also_in: AlsoIn,
    ) {
        self.also_in = also_in;
        if !self.loading {
            return self.refreshed(messages, attachments);
        }
        self.messages = messages;
        self.attachments = attachments;
        self.loading = false;
        self.current = match self.show {
            Some(k) => self.messages.iter().position(|m| m.key == k),
            None => self.messages.iter().position(|m| m.is_unread()),
        }
        .unwrap_or(0);
        self.follow = true;
    }

    /// The thread was read again (background work changed it): keep the view where
    /// the user left it.
    fn refreshed(&mut self, messages: Vec<StoredMessage>, attachments: AttachmentStates) {
        let current = self.messages.get(self.current).map(|m| m.key);
        self.messages = messages;
        self.attachments = attachments;
        self.current = current
            .and_then(|k| self.messages.iter().position(|m| m.key == k))
            .unwrap_or(0)
            .min(self.messages.len().saturating_sub(1));
    }

    /// Some attachment's text is still to be read by background work.
    pub fn awaits_attachments(&self) -> bool {
        self.attachments
            .values()
            .flatten()
            .any(|a| a.status == "pending")
    }

    pub fn scroll_by(&mut self, delta: isize) {
        self.scroll = scrolled(self.scroll, delta, self.lines, self.height);
    }

    pub fn page(&self) -> isize {
        page_step(self.height)
    }

    pub fn go_to_message(&mut self, delta: isize) {
        let last = self.messages.len().saturating_sub(1) as isize;
        self.current = (self.current as isize)
            .saturating_add(delta)
            .clamp(0, last.max(0)) as usize;
        self.highlight = None;
        self.follow = true;
    }
}

/// A message whose own text is shorter than this is a note on what it forwards.
const FORWARD_NOTE_WORDS: usize = 20;

/// The runs of one message: its header lines, its body by segment, and its
/// attachments, each laid out its own way.
#[derive(Debug, Default)]
pub struct MessageRuns {
    pub head: Vec<Run>,
    /// Mail text, a block per segment (or per folded-segment note), each
    /// reflowed on its own with quote markers kept on wrapped lines.
    pub body: Vec<Vec<Run>>,
    pub tail: Vec<Run>,
}

impl MessageRuns {
    /// The message as screen lines `width` columns wide.
    pub fn wrap(&self, width: u16) -> Wrapped {
        let mut all = wrap(&self.head, width);
        for block in &self.body {
            all.extend(crate::tui::reflow::wrap_mail(block, width));
        }
        if !self.tail.is_empty() {
            all.extend(wrap(&self.tail, width));
        }
        all
    }
}

/// The runs of one message: a header, its body by segment, its attachments. With
/// `copies` (the folders of its other copies), the header names its folders.
pub fn message_runs(
    msg: &StoredMessage,
    attachments: &[AttachmentState],
    highlight: Option<(usize, usize)>,
    fold: bool,
    copies: Option<&[String]>,
    theme: &Theme,
) -> MessageRuns {
    let mut runs = vec![
        Run::new(format!("From: {}\n", display_list(&msg.from)), theme.title),
        Run::new(
            format!("Date: {}   To: {}\n", day(msg.date), display_list(&msg.to)),
            theme.dim,
        ),
        Run::new(format!("Subject: {}\n", msg.subject), theme.dim),
    ];
    if let Some(copies) = copies.filter(|_| !msg.folder.is_empty()) {
        let mut line = format!("Folder: {}", one_line_for_terminal(&msg.folder));
        if !copies.is_empty() {
            let names: Vec<_> = copies.iter().map(|c| one_line_for_terminal(c)).collect();
            line.push_str(&format!(" · also in {}", names.join(", ")));
        }
        if msg.is_flagged() {
            line.push_str(" · ⚑ flagged");
        }
        if msg.is_unread() {
            line.push_str(" · unread");
        }
        runs.push(Run::new(line + "\n", theme.dim));
    }
    // A blank line between the header and the text.
    runs.push(Run::new("\n", theme.dim));
    let mut out = MessageRuns {
        head: runs,
        ..MessageRuns::default()
    };
    // A forward with a line or two of its own shows what it forwards: that is the
    // message's content. A cited passage is never folded away.
    let own_words: usize = msg
        .segments
        .iter()
        .filter(|s| s.kind == SegmentKind::Authored)
        .map(|s| msg.segment_text(s).split_whitespace().count())
        .sum();
    let forward_is_content = own_words < FORWARD_NOTE_WORDS;
    for seg in &msg.segments {
        let text = msg.segment_text(seg);
        let cited = highlight.is_some_and(|(hs, he)| hs < seg.end && he > seg.start);
        let shown = seg.kind == SegmentKind::Authored
            || cited
            || (seg.kind == SegmentKind::Forwarded && forward_is_content);
        if !shown && fold {
            let n = text.lines().filter(|l| !l.trim().is_empty()).count();
            if n > 0 {
                out.body.push(vec![Run::new(
                    format!("┆ {} {} folded (z shows)\n", n, seg.kind.label()),
                    theme.dim,
                )]);
            }
            continue;
        }
        let mut runs = Vec::new();
        let style = if seg.kind == SegmentKind::Authored {
            theme.text
        } else {
            theme.dim
        };
        match highlight {
            Some((hs, he)) if hs < seg.end && he > seg.start => {
                let a = hs.max(seg.start);
                let b = he.min(seg.end);
                let body = &msg.body;
                match (body.get(seg.start..a), body.get(a..b), body.get(b..seg.end)) {
                    (Some(before), Some(mid), Some(after)) => {
                        runs.push(Run::new(before, style));
                        runs.push(Run::tagged(mid, theme.cited, HIGHLIGHT_TAG));
                        runs.push(Run::new(after, style));
                    }
                    _ => runs.push(Run::new(text, style)),
                }
            }
            _ => runs.push(Run::new(text, style)),
        }
        out.body.push(runs);
    }
    let runs = &mut out.tail;
    for a in &msg.attachments {
        runs.push(Run::new(
            format!(
                "@ {} ({}, {} KB)\n",
                a.name.as_deref().unwrap_or("unnamed"),
                a.mime_type,
                a.size.div_ceil(1024)
            ),
            theme.key,
        ));
        if let Some(state) = attachments.iter().find(|s| s.index == a.index) {
            runs.push(Run::new(
                format!("  {}\n", state.message),
                attachment_style(&state.status, theme),
            ));
            if let Some(card) = &state.card {
                let card: String = card.lines().map(|l| format!("  │ {l}\n")).collect();
                runs.push(Run::new(card, theme.text));
            }
        }
    }
    out
}

/// Read text is plain, work still to do is dim, and anything that keeps the text
/// out of reach (encrypted, corrupt, too large, no text layer) stands out.
fn attachment_style(status: &str, theme: &Theme) -> ratatui::style::Style {
    match status {
        "ok" => theme.text,
        "pending" | "no_text_view" => theme.dim,
        _ => theme.error,
    }
}

/// A scroll offset moved by `delta` lines, kept within a view of `height` lines over
/// `lines` lines of text.
pub fn scrolled(scroll: usize, delta: isize, lines: usize, height: usize) -> usize {
    let max = lines.saturating_sub(height.max(1));
    (scroll as isize)
        .saturating_add(delta)
        .clamp(0, max as isize) as usize
}

/// Lines a page key moves: a view's height less one line of context.
pub fn page_step(height: usize) -> isize {
    height.max(2) as isize - 1
}

/// Scroll offset that puts line `line` near the top of a view of `height` lines.
pub fn scroll_to(line: usize, height: usize, total: usize) -> usize {
    line.saturating_sub(height / 4)
        .min(total.saturating_sub(height))
}

pub fn render(
    f: &mut Frame,
    area: Rect,
    state: &mut ReaderState,
    tags: &[String],
    theme: &Theme,
    focused: bool,
) {
    let fold = if state.fold { "folded" } else { "shown" };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused { theme.focus } else { theme.border })
        .title(Span::styled(
            format!(
                " {} ({}){} ",
                one_line_for_terminal(&state.subject),
                state.messages.len(),
                tag_marks(tags)
            ),
            theme.title,
        ))
        .title_bottom(Span::styled(format!(" quotes {fold} (z) "), theme.dim));
    let inner = block.inner(area);
    f.render_widget(block, area);
    state.height = usize::from(inner.height);
    if state.loading {
        f.render_widget(Paragraph::new(Span::styled("Loading…", theme.dim)), inner);
        return;
    }
    let mut all = Wrapped::default();
    for (i, msg) in state.messages.iter().enumerate() {
        let hl = state
            .highlight
            .filter(|h| h.key == msg.key)
            .map(|h| (h.start, h.end));
        let marker = if i == state.current { "▶ " } else { "  " };
        let number = Run::tagged(
            format!("{marker}{}/{}\n", i + 1, state.messages.len()),
            theme.key,
            MESSAGE_TAG + i as u32,
        );
        let attachments = state
            .attachments
            .get(&msg.key)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let copies = state
            .also_in
            .get(&msg.key)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let runs = match state.raw.as_ref().filter(|(k, _)| *k == msg.key) {
            // The raw message as it is: no reflow.
            Some((_, raw)) => MessageRuns {
                head: vec![
                    number,
                    Run::new(
                        crate::terminal_text::for_terminal(raw).into_owned(),
                        ratatui::style::Style::default(),
                    ),
                ],
                ..MessageRuns::default()
            },
            None => {
                let mut runs = message_runs(msg, attachments, hl, state.fold, Some(copies), theme);
                runs.head.insert(0, number);
                runs
            }
        };
        all.extend(runs.wrap(inner.width));
        all.push_line(Line::from(Span::styled(
            "─".repeat(usize::from(inner.width)),
            theme.border,
        )));
    }
    state.lines = all.len();
    if state.follow {
        let target = all
            .first_line_of(HIGHLIGHT_TAG)
            .or_else(|| all.first_line_of(MESSAGE_TAG + state.current as u32))
            .unwrap_or(0);
        state.scroll = if all.first_line_of(HIGHLIGHT_TAG).is_some() {
            scroll_to(target, state.height, state.lines)
        } else {
            target.min(state.lines.saturating_sub(state.height))
        };
        state.follow = false;
    }
    state.scroll = state.scroll.min(state.lines.saturating_sub(1));
    let visible: Vec<Line> = all
        .lines
        .into_iter()
        .skip(state.scroll)
        .take(state.height)
        .collect();
    f.render_widget(Paragraph::new(visible), inner);
}

/// ` +work +later`: tags as shown beside a subject.
pub fn tag_marks(tags: &[String]) -> String {
    tags.iter()
        .map(|t| format!(" +{}", one_line_for_terminal(t)))
        .collect()
}
