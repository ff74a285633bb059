//! The help overlay: a centered popup listing the keys of the current mode.
//!
//! It is built from the live [`Keymap`], not from a fixed text, so it always shows the
//! keys the user actually has after their keymap file was applied, and the first line
//! tells how to ask a question using whatever key `ask` is bound to.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, StatefulWidget, Widget};

use super::command::Command;
use super::keymap::{Keymap, Mode};
use super::theme::Theme;

/// Scroll position of the help overlay, kept by the caller between frames.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HelpState {
    scroll: usize,
    /// How far the last render allowed scrolling; lets `scroll_by` stop at the end
    /// instead of accumulating invisible scroll the user would have to undo.
    max_scroll: Option<usize>,
}

impl HelpState {
    /// The first content line shown.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// Scrolls by `delta` lines (negative is up), within the content.
    pub fn scroll_by(&mut self, delta: isize) {
        let next = self.scroll.saturating_add_signed(delta);
        self.scroll = match self.max_scroll {
            Some(max) => next.min(max),
            None => next,
        };
    }

    /// Back to the first line.
    pub fn scroll_to_top(&mut self) {
        self.scroll = 0;
    }

    /// To the last page; the exact position is settled at the next render.
    pub fn scroll_to_bottom(&mut self) {
        self.scroll = self.max_scroll.unwrap_or(usize::MAX);
    }
}

/// The help popup for one mode. Render it last, over the rest of the screen.
#[derive(Debug, Clone)]
pub struct HelpOverlay<'a> {
    keymap: &'a Keymap,
    mode: Mode,
    theme: Theme,
}

/// One row of the key table: all keys of one command and its description.
struct Row {
    keys: String,
    desc: String,
}

impl<'a> HelpOverlay<'a> {
    /// The overlay for `mode` of `keymap`, drawn with `theme`.
    pub fn new(keymap: &'a Keymap, mode: Mode, theme: Theme) -> HelpOverlay<'a> {
        HelpOverlay {
            keymap,
            mode,
            theme,
        }
    }

    /// The first line of the overlay. In the chat input the user is already asking, so
    /// it names the submit key; elsewhere it names the key of `ask` in this mode, or in
    /// the thread list when this mode has none.
    pub fn ask_hint(keymap: &Keymap, mode: Mode) -> String {
        const TAIL: &str = "answers cite [n] quotes";
        if mode == Mode::Chat {
            if let Some(k) = keymap.mode(Mode::Chat).keys_for(&Command::Submit).next() {
                return format!("Type your question and press {k} to ask; {TAIL}");
            }
        }
        let key = keymap
            .mode(mode)
            .keys_for(&Command::Ask)
            .next()
            .or_else(|| keymap.mode(Mode::Threads).keys_for(&Command::Ask).next());
        match key {
            Some(k) => format!("Press {k} to ask a question about your mail; {TAIL}"),
            None => format!("Bind `ask` in your keymap to ask about your mail; {TAIL}"),
        }
    }

    /// One row per command, in keymap order, with all of its keys.
    fn rows(&self) -> Vec<Row> {
        let mut rows: Vec<(Command, Row)> = Vec::new();
        for b in self.keymap.mode(self.mode).bindings() {
            match rows.iter_mut().find(|(c, _)| *c == b.command) {
                Some((_, row)) => {
                    row.keys.push_str(", ");
                    row.keys.push_str(&b.keys.to_string());
                }
                None => rows.push((
                    b.command,
                    Row {
                        keys: b.keys.to_string(),
                        desc: b.desc.clone(),
                    },
                )),
            }
        }
        rows.into_iter().map(|(_, r)| r).collect()
    }

    /// The content lines; the key column is `key_width` characters wide.
    fn lines(&self, rows: &[Row], key_width: usize) -> Vec<Line<'static>> {
        let mut lines = vec![
            Line::from(Span::styled(
                HelpOverlay::ask_hint(self.keymap, self.mode),
                self.theme.hint,
            )),
            Line::default(),
        ];
        for row in rows {
            lines.push(Line::from(vec![
                Span::styled(fit(&row.keys, key_width), self.theme.key),
                Span::raw("  "),
                Span::styled(row.desc.clone(), self.theme.text),
            ]));
        }
        if rows.is_empty() {
            lines.push(Line::from(Span::styled(
                "No keys are bound in this mode.",
                self.theme.text,
            )));
        }
        lines
    }
}

/// Pads or cuts `s` to exactly `width` characters, marking a cut with `…`, so the
/// description column stays aligned even for very long key lists.
fn fit(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n <= width {
        format!("{s:width$}")
    } else if width == 0 {
        String::new()
    } else {
        let mut cut: String = s.chars().take(width - 1).collect();
        cut.push('…');
        cut
    }
}

/// Space between the popup and the screen edge, so the popup reads as an overlay.
const MARGIN_X: u16 = 2;
const MARGIN_Y: u16 = 1;
/// Borders plus one column of padding on each side.
const CHROME_X: u16 = 4;
const CHROME_Y: u16 = 2;

impl StatefulWidget for HelpOverlay<'_> {
    type State = HelpState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut HelpState) {
        if area.width < CHROME_X + 2 || area.height < CHROME_Y + 1 {
            return;
        }
        let max_w = area.width.saturating_sub(2 * MARGIN_X).max(CHROME_X + 2);
        let max_h = area.height.saturating_sub(2 * MARGIN_Y).max(CHROME_Y + 1);
        let inner_w = usize::from(max_w - CHROME_X);

        let rows = self.rows();
        let widest_keys = rows
            .iter()
            .map(|r| r.keys.chars().count())
            .max()
            .unwrap_or(0);
        // Keys may take at most 40% of the width; descriptions matter more.
        let key_width = widest_keys.min(inner_w * 2 / 5).max(1);
        let lines = self.lines(&rows, key_width);

        let content_w = lines.iter().map(Line::width).max().unwrap_or(0);
        let width = u16::try_from(content_w)
            .unwrap_or(u16::MAX)
            .saturating_add(CHROME_X)
            .clamp(CHROME_X + 2, max_w);
        let height = u16::try_from(lines.len())
            .unwrap_or(u16::MAX)
            .saturating_add(CHROME_Y)
            .min(max_h);
        let popup = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + (area.height - height) / 2,
            width,
            height,
        };

        let visible = usize::from(height - CHROME_Y);
        let max_scroll = lines.len().saturating_sub(visible);
        state.max_scroll = Some(max_scroll);
        state.scroll = state.scroll.min(max_scroll);

        let mut block = Block::default()
            .borders(Borders::ALL)
            .border_style(self.theme.border)
            .padding(Padding::horizontal(1))
            .title(Span::styled(
                format!(" Keys: {} ", self.mode.name()),
                self.theme.title,
            ));
        if max_scroll > 0 {
            let first = state.scroll + 1;
            let last = (state.scroll + visible).min(lines.len());
            block = block.title_bottom(
                Line::from(Span::styled(
                    format!(" {first}-{last}/{} ", lines.len()),
                    self.theme.title,
                ))
                .alignment(Alignment::Right),
            );
        }

        let scroll = u16::try_from(state.scroll).unwrap_or(u16::MAX);
        Clear.render(popup, buf);
        Paragraph::new(lines)
            .block(block)
            .scroll((scroll, 0))
            .render(popup, buf);
    }
}

impl Widget for HelpOverlay<'_> {
    /// Renders scrolled to the top, for callers that do not keep a [`HelpState`].
    fn render(self, area: Rect, buf: &mut Buffer) {
        StatefulWidget::render(self, area, buf, &mut HelpState::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::keymap::Preset;
    use ratatui::backend::TestBackend;
    use ratatui::style::Color;
    use ratatui::Terminal;

    fn render(
        keymap: &Keymap,
        mode: Mode,
        theme: Theme,
        w: u16,
        h: u16,
        state: &mut HelpState,
    ) -> Buffer {
        let mut term = Terminal::new(TestBackend::new(w, h)).expect("test backend");
        term.draw(|f| {
            f.render_stateful_widget(HelpOverlay::new(keymap, mode, theme), f.area(), state)
        })
        .expect("draw");
        term.backend().buffer().clone()
    }

    fn text(buf: &Buffer) -> Vec<String> {
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
            })
            .collect()
    }

    fn contains(rows: &[String], needle: &str) -> bool {
        rows.iter().any(|r| r.contains(needle))
    }

    fn vim() -> Keymap {
        Keymap::builtin(Preset::Vim).expect("preset")
    }

    #[test]
    fn renders_at_80x24_with_the_ask_line_and_descriptions() {
        let map = vim();
        let buf = render(
            &map,
            Mode::Threads,
            Theme::colored(),
            80,
            24,
            &mut HelpState::default(),
        );
        let rows = text(&buf);
        let all = rows.join("\n");
        assert!(
            contains(
                &rows,
                "Press i to ask a question about your mail; answers cite [n] quotes"
            ),
            "{all}"
        );
        assert!(contains(&rows, "Keys: threads"), "{all}");
        assert!(contains(&rows, "Move down"), "{all}");
        assert!(contains(&rows, "j, <Down>"), "{all}");
        assert!(contains(&rows, "Go to top"), "{all}");
        assert!(contains(&rows, "g g"), "{all}");
        assert!(contains(&rows, "<C-d>"), "{all}");
        // The popup is inside the screen with a margin on every side.
        assert!(
            rows[0].trim().is_empty() && rows[23].trim().is_empty(),
            "{all}"
        );
    }

    #[test]
    fn renders_at_120x40_and_scrolls_to_every_line() {
        let map = vim();
        let descs: Vec<String> = map
            .mode(Mode::Threads)
            .bindings()
            .iter()
            .map(|b| b.desc.clone())
            .collect();
        let mut state = HelpState::default();
        let buf = render(&map, Mode::Threads, Theme::colored(), 120, 40, &mut state);
        let rows = text(&buf);
        assert!(contains(&rows, "Press i to ask a question"));
        assert!(
            contains(&rows, "Open selected thread"),
            "{}",
            rows.join("\n")
        );

        // Every description is reachable by scrolling, at both sizes.
        for (w, h) in [(80, 24), (120, 40)] {
            let mut state = HelpState::default();
            let mut seen = Vec::new();
            for _ in 0..20 {
                let rows = text(&render(
                    &map,
                    Mode::Threads,
                    Theme::colored(),
                    w,
                    h,
                    &mut state,
                ));
                seen.extend(rows);
                state.scroll_by(5);
            }
            for d in &descs {
                assert!(contains(&seen, d), "{w}x{h}: `{d}` never shown");
            }
            let before = state.scroll();
            state.scroll_by(100);
            assert_eq!(state.scroll(), before, "scrolling stops at the end");
        }
    }

    #[test]
    fn lines_are_clipped_to_the_popup() {
        let map = vim();
        let buf = render(
            &map,
            Mode::Threads,
            Theme::colored(),
            40,
            12,
            &mut HelpState::default(),
        );
        let rows = text(&buf);
        let all = rows.join("\n");
        assert!(contains(&rows, "Keys: threads"), "{all}");
        // The hint is cut at the border, and nothing is drawn in the side margins.
        assert!(contains(&rows, "Press i to ask a"), "{all}");
        assert!(!contains(&rows, "answers cite"), "{all}");
        for r in &rows {
            let cells: Vec<char> = r.chars().collect();
            assert_eq!(cells.len(), 40);
            assert!(
                cells[..2].iter().chain(&cells[38..]).all(|c| *c == ' '),
                "{all}"
            );
        }
    }

    #[test]
    fn ask_hint_uses_the_bound_key() {
        let mut map = vim();
        assert_eq!(
            HelpOverlay::ask_hint(&map, Mode::Reader),
            "Press i to ask a question about your mail; answers cite [n] quotes"
        );
        assert!(HelpOverlay::ask_hint(&map, Mode::Chat).contains("press <Enter> to ask"));
        map.patch_toml(
            "[threads]\nkeymap = [ { on = \"i\", run = \"noop\" }, { on = \"<A-a>\", run = \"ask\" } ]\n",
            "user",
        )
        .expect("valid");
        assert!(HelpOverlay::ask_hint(&map, Mode::Threads).starts_with("Press <A-a> to ask"));
        assert!(HelpOverlay::ask_hint(&map, Mode::Search).starts_with("Press <A-a> to ask"));
        let emacs = Keymap::builtin(Preset::Emacs).expect("preset");
        let buf = render(
            &emacs,
            Mode::Threads,
            Theme::plain(),
            80,
            24,
            &mut HelpState::default(),
        );
        assert!(contains(
            &text(&buf),
            "Press a to ask a question about your mail"
        ));
    }

    #[test]
    fn no_color_renders_without_colours() {
        let map = vim();
        for mode in Mode::ALL {
            let buf = render(
                &map,
                mode,
                Theme::plain(),
                80,
                24,
                &mut HelpState::default(),
            );
            for cell in buf.content() {
                assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{mode}");
            }
        }
        let buf = render(
            &map,
            Mode::Threads,
            Theme::colored(),
            80,
            24,
            &mut HelpState::default(),
        );
        assert!(
            buf.content().iter().any(|c| c.fg != Color::Reset),
            "the coloured theme does colour"
        );
    }

    #[test]
    fn tiny_areas_do_not_panic() {
        let map = vim();
        for (w, h) in [(1, 1), (5, 2), (7, 3), (10, 4), (200, 3)] {
            render(
                &map,
                Mode::Threads,
                Theme::plain(),
                w,
                h,
                &mut HelpState::default(),
            );
        }
    }
}
