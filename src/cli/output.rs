//! Shared text output helpers: JSON printing, dates, highlighting.

use anyhow::Result;
use serde::Serialize;
use std::io::IsTerminal;

pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(value)?);
    Ok(())
}

/// Colour only on a terminal, and never when NO_COLOR is set.
pub fn use_color() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

pub fn date(ts: Option<i64>) -> String {
    ts.map(quoth::engine::format_date)
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "(no date)".to_string())
}

/// Marks the byte ranges of `text`: bold on a colour terminal, `[..]` otherwise.
pub fn highlight(text: &str, ranges: &[(usize, usize)], color: bool) -> String {
    let (open, close) = if color {
        ("\x1b[1;33m", "\x1b[0m")
    } else {
        ("[", "]")
    };
    let mut out = String::with_capacity(text.len() + ranges.len() * 8);
    let mut pos = 0;
    for &(start, end) in ranges {
        if start < pos
            || end > text.len()
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
        {
            continue;
        }
        out.push_str(&text[pos..start]);
        out.push_str(open);
        out.push_str(&text[start..end]);
        out.push_str(close);
        pos = end;
    }
    out.push_str(&text[pos..]);
    out.replace('\n', " ")
}

/// Cuts a string to `width` characters, with an ellipsis.
pub fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return format!("{s:width$}");
    }
    let cut: String = s.chars().take(width.saturating_sub(1)).collect();
    format!("{cut}…")
}
