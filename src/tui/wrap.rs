//! Word wrapping of styled text into screen lines.
//!
//! The panes wrap text themselves instead of leaving it to `Paragraph::wrap`, because
//! they need to know on which screen line a given piece of text lands: the evidence
//! and reader panes scroll a cited quote into view, and the chat pane keeps the
//! newest answer at the bottom.

use crate::terminal_text::{for_terminal, one_line_for_terminal};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

/// A run of text with one style. `tag` marks runs a caller wants to find again
/// (say, the cited quote); [`Wrapped::first_line_of`] tells where it landed.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub text: String,
    pub style: Style,
    pub tag: u32,
}

impl Run {
    pub fn new(text: impl Into<String>, style: Style) -> Run {
        Run {
            text: text.into(),
            style,
            tag: 0,
        }
    }

    pub fn tagged(text: impl Into<String>, style: Style, tag: u32) -> Run {
        Run {
            text: text.into(),
            style,
            tag,
        }
    }
}

/// Wrapped lines, with the first line of each tag.
#[derive(Debug, Default)]
pub struct Wrapped {
    pub lines: Vec<Line<'static>>,
    tags: Vec<(u32, usize)>,
}

impl Wrapped {
    /// The screen line where text tagged `tag` starts.
    pub fn first_line_of(&self, tag: u32) -> Option<usize> {
        self.tags.iter().find(|(t, _)| *t == tag).map(|(_, l)| *l)
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Appends another wrapped block below this one.
    pub fn extend(&mut self, other: Wrapped) {
        let base = self.lines.len();
        self.tags
            .extend(other.tags.into_iter().map(|(t, l)| (t, l + base)));
        self.lines.extend(other.lines);
    }

    /// Keeps the first `n` lines (and the tags on them).
    pub fn truncate(&mut self, n: usize) {
        self.lines.truncate(n);
        self.tags.retain(|(_, l)| *l < n);
    }

    pub fn push_line(&mut self, line: Line<'static>) {
        self.lines.push(line);
    }
}

/// Wraps runs to `width` columns, breaking at spaces where possible and inside a word
/// only when it is longer than a line. `\n` starts a new line. The text passes the
/// terminal sanitiser first: control characters show as placeholders and tabs expand.
pub fn wrap(runs: &[Run], width: u16) -> Wrapped {
    wrap_hanging(runs, width, None)
}

/// [`wrap`], with `hang` (a quote marker and its style) starting every screen line
/// that a long line wraps onto; a marker wider than half the line is not repeated.
pub fn wrap_hanging(runs: &[Run], width: u16, hang: Option<(&str, Style)>) -> Wrapped {
    let width = usize::from(width.max(1));
    let hang = hang.filter(|(h, _)| !h.is_empty() && text_width(h) * 2 <= width);
    let mut out = Wrapped::default();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut col = 0usize;
    // A line the text wraps onto (not one a line break starts) begins with the marker.
    let wrap_line = |out: &mut Wrapped, line: &mut Vec<Span<'static>>, col: &mut usize| {
        out.lines.push(Line::from(std::mem::take(line)));
        *col = 0;
        if let Some((h, style)) = hang {
            push(line, h, style);
            *col = text_width(h);
        }
    };
    for run in runs {
        let mut pending = (run.tag != 0 && out.first_line_of(run.tag).is_none()).then_some(run.tag);
        let text = for_terminal(&run.text);
        for (i, piece) in text.split('\n').enumerate() {
            if i > 0 {
                out.lines.push(Line::from(std::mem::take(&mut line)));
                col = 0;
            }
            for word in split_keep_space(piece) {
                let w = text_width(word);
                let start = hang.map_or(0, |(h, _)| text_width(h));
                if col + w > width && col > start {
                    wrap_line(&mut out, &mut line, &mut col);
                    if word.trim().is_empty() {
                        continue;
                    }
                }
                if let Some(tag) = pending.take() {
                    out.tags.push((tag, out.lines.len()));
                }
                if w <= width - col {
                    push(&mut line, word, run.style);
                    col += w;
                    continue;
                }
                // A word longer than the line: cut it.
                let mut chunk = String::new();
                for c in word.chars() {
                    let cw = c.width().unwrap_or(0);
                    if col + cw > width && col > 0 {
                        push(&mut line, &chunk, run.style);
                        chunk.clear();
                        wrap_line(&mut out, &mut line, &mut col);
                    }
                    chunk.push(c);
                    col += cw;
                }
                push(&mut line, &chunk, run.style);
            }
        }
    }
    if !line.is_empty() || out.lines.is_empty() {
        out.lines.push(Line::from(line));
    }
    out
}

fn push(line: &mut Vec<Span<'static>>, text: &str, style: Style) {
    if text.is_empty() {
        return;
    }
    match line.last_mut() {
        Some(last) if last.style == style => last.content.to_mut().push_str(text),
        _ => line.push(Span::styled(text.to_string(), style)),
    }
}

/// Splits into words, each keeping the spaces that follow it.
fn split_keep_space(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_space = false;
    for (i, c) in s.char_indices() {
        let space = c == ' ' || c == '\t';
        if !space && in_space {
            out.push(&s[start..i]);
            start = i;
        }
        in_space = space;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

/// Display width in terminal columns (control characters count as nothing).
pub fn text_width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// Cuts or pads `s` to exactly `width` columns, marking a cut with `…`. The text
/// passes the terminal sanitiser first, on one line.
pub fn fit(s: &str, width: usize) -> String {
    let s = &*one_line_for_terminal(s);
    let mut out = String::new();
    let mut col = 0;
    let total = text_width(s);
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if total > width && col + cw + 1 > width {
            if width > 0 {
                out.push('…');
                col += 1;
            }
            break;
        }
        if col + cw > width {
            break;
        }
        out.push(if c == '\t' || c == '\n' { ' ' } else { c });
        col += cw;
    }
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(col)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(w: &Wrapped) -> Vec<String> {
        w.lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn wraps_at_spaces_and_finds_tags() {
        let runs = vec![
            Run::new("one two three ", Style::new()),
            Run::tagged("four five", Style::new(), 7),
            Run::new("\nsix", Style::new()),
        ];
        let w = wrap(&runs, 9);
        assert_eq!(texts(&w), ["one two ", "three ", "four five", "six"]);
        assert_eq!(w.first_line_of(7), Some(2));
    }

    #[test]
    fn cuts_long_words_and_fits() {
        let w = wrap(&[Run::new("abcdefghij", Style::new())], 4);
        assert_eq!(texts(&w), ["abcd", "efgh", "ij"]);
        assert_eq!(fit("hello world", 6), "hello…");
        assert_eq!(fit("hi", 4), "hi  ");
        assert_eq!(fit("日本語", 4), "日… ");
    }
}
