//! The evidence pane: the quotes the current answer cites, and below them the message
//! of the selected quote with the quote highlighted and scrolled into view (or, for a
//! citation of a PDF page, which page of which attachment).

use super::reader::{message_runs, page_step, scroll_to, scrolled, HIGHLIGHT_TAG};
use crate::engine::handle::RequestId;
use crate::engine::{AttachmentPage, AttachmentState, Citation, ClosestMail};
use crate::store::StoredMessage;
use crate::tui::theme::Theme;
use crate::tui::wrap::{wrap, Run, Wrapped};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

#[derive(Debug, Clone, Default)]
pub struct EvidenceState {
    pub selected: usize,
    /// The message of the selected citation, once loaded.
    pub message: Option<StoredMessage>,
    /// How far that message's attachments have been read.
    pub attachments: Vec<AttachmentState>,
    /// The attachment page of the selected citation, once loaded (page citations).
    pub page: Option<AttachmentPage>,
    /// The open request for it.
    pub pending: Option<RequestId>,
    pub scroll: usize,
    pub follow: bool,
    pub height: usize,
    pub lines: usize,
}

impl EvidenceState {
    pub fn scroll_by(&mut self, delta: isize) {
        self.scroll = scrolled(self.scroll, delta, self.lines, self.height);
    }

    pub fn page(&self) -> isize {
        page_step(self.height)
    }

    /// Forgets the shown message, for a new answer or conversation.
    pub fn reset(&mut self) {
        *self = EvidenceState::default();
    }
}

/// The bytes of `msg.body` to highlight for a citation: the quote itself where it is
/// found inside the cited chunk (line breaks in the mail may stand where the quote has
/// spaces), else the whole chunk.
pub fn quote_span(msg: &StoredMessage, c: &Citation) -> (usize, usize) {
    let (start, end) = (c.start as usize, c.end as usize);
    if let Some(chunk) = msg.body.get(start..end) {
        if let Some((a, b)) = find_loose(chunk, c.quote.trim().trim_matches('"')) {
            return (start + a, start + b);
        }
    }
    (start, end)
}

/// Finds `needle` in `hay` where any run of whitespace matches any other.
fn find_loose(hay: &str, needle: &str) -> Option<(usize, usize)> {
    let words: Vec<&str> = needle.split_whitespace().collect();
    let first = *words.first()?;
    'candidates: for (at, _) in hay.match_indices(first) {
        let mut pos = at + first.len();
        for w in &words[1..] {
            let rest = &hay[pos..];
            let trimmed = rest.trim_start();
            if trimmed.len() == rest.len() || !trimmed.starts_with(w) {
                continue 'candidates;
            }
            pos += rest.len() - trimmed.len() + w.len();
        }
        return Some((at, pos));
    }
    None
}

pub fn render(
    f: &mut Frame,
    area: Rect,
    citations: &[Citation],
    closest: Option<&ClosestMail>,
    state: &mut EvidenceState,
    theme: &Theme,
    focused: bool,
) {
    let title = match closest {
        Some(_) if citations.is_empty() => " Evidence: the closest mail ".to_string(),
        _ => format!(" Evidence ({}) ", citations.len()),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(if focused { theme.focus } else { theme.border })
        .title(Span::styled(title, theme.title));
    let inner = block.inner(area);
    f.render_widget(block, area);
    if citations.is_empty() {
        state.height = usize::from(inner.height);
        let view = match closest {
            Some(c) => closest_view(c, state, inner.width, theme),
            None => {
                let hint = "Cited quotes of the answer show here. 1-9 jumps to a citation.";
                wrap(&[Run::new(hint, theme.dim)], inner.width)
            }
        };
        state.lines = view.len();
        show_scrolled(f, inner, view, state);
        return;
    }
    state.selected = state.selected.min(citations.len() - 1);
    let list = list_lines(citations, state.selected, inner.width, theme);
    let list_h = (list.len() as u16 + 1).min(inner.height / 2).max(1);
    let [top, bottom] =
        Layout::vertical([Constraint::Length(list_h), Constraint::Min(0)]).areas(inner);
    // Keep the selected quote's header in view in the list.
    let sel_line = list.first_line_of(100 + state.selected as u32).unwrap_or(0);
    let list_scroll = sel_line.saturating_sub(usize::from(top.height.saturating_sub(2)));
    let list: Vec<Line> = list
        .lines
        .into_iter()
        .skip(list_scroll)
        .take(usize::from(top.height))
        .collect();
    f.render_widget(Paragraph::new(list), top);

    state.height = usize::from(bottom.height);
    let c = &citations[state.selected];
    let mut view = Wrapped::default();
    view.push_line(Line::from(Span::styled(
        "─".repeat(usize::from(bottom.width)),
        theme.border,
    )));
    match (&state.message, c.page) {
        (_, Some(page))
            if state.page.as_ref().is_some_and(|p| {
                p.page == page && Some(p.name.as_str()) == c.attachment.as_deref()
            }) =>
        {
            if let Some(p) = &state.page {
                let value = c
                    .answer_span
                    .and_then(|(a, b)| c.quote.get(a..b))
                    .filter(|v| !v.trim().is_empty());
                view.extend(wrap(&page_runs(p, value, theme), bottom.width));
            }
        }
        (_, Some(page)) => {
            let name = c.attachment.as_deref().unwrap_or("attachment");
            let place = c.place.clone().unwrap_or_else(|| format!("page {page}"));
            view.extend(wrap(
                &[
                    Run::new(format!("{name}, {place}\n\n"), theme.title),
                    Run::tagged(c.quote.clone(), theme.cited, HIGHLIGHT_TAG),
                    Run::new("\n\np opens the page in the PDF viewer.", theme.dim),
                ],
                bottom.width,
            ));
        }
        (Some(msg), None) if msg.key.to_hex() == c.key => {
            let span = quote_span(msg, c);
            view.extend(
                message_runs(msg, &state.attachments, Some(span), true, None, theme)
                    .wrap(bottom.width),
            );
        }
        _ => view.push_line(Line::from(Span::styled("Loading the message…", theme.dim))),
    }
    state.lines = view.len();
    if state.follow {
        if let Some(line) = view.first_line_of(HIGHLIGHT_TAG) {
            state.scroll = scroll_to(line, state.height, state.lines);
            state.follow = false;
        }
    }
    show_scrolled(f, bottom, view, state);
}

/// Draws the lines of `view` in view at the pane's scroll (kept within them).
fn show_scrolled(f: &mut Frame, area: Rect, view: Wrapped, state: &mut EvidenceState) {
    state.scroll = state.scroll.min(state.lines.saturating_sub(1));
    let lines: Vec<Line> = view
        .lines
        .into_iter()
        .skip(state.scroll)
        .take(state.height)
        .collect();
    f.render_widget(Paragraph::new(lines), area);
}

/// The message that came closest to a question the mail does not answer, under a
/// line that says so; nothing in it is highlighted, as nothing in it answers.
fn closest_view(c: &ClosestMail, state: &EvidenceState, width: u16, theme: &Theme) -> Wrapped {
    let mut view = wrap(
        &[Run::new(
            "The mail does not say. This message came closest:\n",
            theme.dim,
        )],
        width,
    );
    match &state.message {
        Some(msg) if msg.key.to_hex() == c.key => {
            view.extend(message_runs(msg, &state.attachments, None, true, None, theme).wrap(width))
        }
        _ => view.push_line(Line::from(Span::styled("Loading the message…", theme.dim))),
    }
    view
}

/// A cited attachment page (a PDF page, a spreadsheet row with its column names, an
/// invitation card): its name and place, then its whole text with the quote
/// highlighted and, inside it, the value that answers (or, when the quote cannot be
/// placed, the quote under the text).
fn page_runs(p: &AttachmentPage, value: Option<&str>, theme: &Theme) -> Vec<Run> {
    let title = match &p.place {
        Some(place) => format!("{}, {place}\n\n", p.name),
        None => format!("{}, page {} of {}\n\n", p.name, p.page, p.page_count),
    };
    let mut runs = vec![Run::new(title, theme.title)];
    match p
        .highlight
        .and_then(|(s, e)| Some((p.text.get(..s)?, p.text.get(s..e)?, p.text.get(e..)?)))
    {
        Some((before, quote, after)) => {
            runs.push(Run::new(before.to_string(), theme.text));
            let split = value.and_then(|v| Some((quote.find(v)?, v.len())));
            match split {
                Some((at, len)) => {
                    let strong = theme.cited.add_modifier(ratatui::style::Modifier::REVERSED);
                    runs.push(Run::tagged(
                        quote[..at].to_string(),
                        theme.cited,
                        HIGHLIGHT_TAG,
                    ));
                    runs.push(Run::tagged(
                        quote[at..at + len].to_string(),
                        strong,
                        HIGHLIGHT_TAG,
                    ));
                    runs.push(Run::tagged(
                        quote[at + len..].to_string(),
                        theme.cited,
                        HIGHLIGHT_TAG,
                    ));
                }
                None => runs.push(Run::tagged(quote.to_string(), theme.cited, HIGHLIGHT_TAG)),
            }
            runs.push(Run::new(after.to_string(), theme.text));
        }
        None => runs.push(Run::new(p.text.clone(), theme.text)),
    }
    let hint = if p.place.is_some() {
        "\n\no or p opens the file."
    } else {
        "\n\np opens the page in the PDF viewer."
    };
    runs.push(Run::new(hint.to_string(), theme.dim));
    runs
}

/// `[1] Dana Whitfield · 2024-03-04 · Roof` then the quote, at most three lines.
fn list_lines(citations: &[Citation], selected: usize, width: u16, theme: &Theme) -> Wrapped {
    let mut out = Wrapped::default();
    for (i, c) in citations.iter().enumerate() {
        let date = c
            .date
            .as_deref()
            .map(|d| d.get(..10).unwrap_or(d))
            .unwrap_or("");
        let where_ = match (&c.attachment, c.place.as_deref(), c.page) {
            (Some(a), Some(place), _) => format!(" · {a}, {place}"),
            (Some(a), None, Some(p)) => format!(" · {a} p.{p}"),
            _ => String::new(),
        };
        let head_style = if i == selected {
            theme.selected
        } else {
            theme.key
        };
        let mut head = wrap(
            &[Run::tagged(
                format!("[{}] {} · {date} · {}{where_}", c.n, c.from, c.subject),
                head_style,
                100 + i as u32,
            )],
            width,
        );
        head.truncate(1);
        out.extend(head);
        // The quote, indented under its header, at most three lines, with the
        // short answer inside it highlighted, and who wrote it when it was
        // forwarded or quoted; a superseded value says so.
        let mut runs = Vec::new();
        if c.superseded {
            runs.push(Run::new("(superseded) ", theme.dim));
        }
        if let Some(author) = &c.author {
            let when = c
                .author_date
                .as_deref()
                .map(|d| format!(", {d}"))
                .unwrap_or_default();
            let how = c.passed_on.as_deref().unwrap_or("quoted");
            runs.push(Run::new(
                format!("{author}{when}, {how} by {}: ", c.from),
                theme.dim,
            ));
        }
        let quote_text = c.quote.trim();
        match c.answer_span.filter(|(a, b)| {
            a < b
                && *b <= c.quote.len()
                && c.quote.is_char_boundary(*a)
                && c.quote.is_char_boundary(*b)
        }) {
            Some((a, b)) => {
                runs.push(Run::new(format!("“{}", &c.quote[..a]), theme.text));
                runs.push(Run::new(c.quote[a..b].to_string(), theme.cited));
                runs.push(Run::new(format!("{}”", &c.quote[b..]), theme.text));
            }
            None => runs.push(Run::new(format!("“{quote_text}”"), theme.text)),
        }
        let quote = wrap(&runs, width.saturating_sub(2));
        let n = quote.len();
        for (j, line) in quote.lines.into_iter().take(3).enumerate() {
            let mut spans = vec![Span::raw("  ")];
            if j == 2 && n > 3 {
                spans.push(Span::styled("…", theme.dim));
            } else {
                spans.extend(line.spans);
            }
            out.push_line(Line::from(spans));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::find_loose;

    #[test]
    fn quotes_match_across_line_breaks() {
        let hay = "price is $14.50\nper share, and";
        assert_eq!(find_loose(hay, "is $14.50 per share"), Some((6, 25)));
        assert_eq!(find_loose(hay, "is $14.50 a share"), None);
        assert_eq!(find_loose(hay, ""), None);
    }
}
