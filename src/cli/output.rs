//! Shared text output: the one writer of standard output, JSON printing, dates,
//! highlighting.
//!
//! Every subcommand prints through [`emit`] (the `outln!` macro): a
//! reader that goes away (`quoth ask … | head -c 10`) ends the process quietly
//! instead of a panic, and no control character reaches the terminal except the
//! colour codes this module writes itself. Mail text is made safe field by field with
//! [`safe`] before it is formatted (so its own colour codes show as placeholders);
//! JSON stays verbatim: it is data, and its consumer escapes it.

use anyhow::Result;
use quoth::terminal_text::{for_terminal, is_unsafe, one_line_for_terminal};
use serde::Serialize;
use std::borrow::Cow;
use std::io::{IsTerminal, Write};

/// Writes formatted text to standard output. When the reader has gone away the
/// process ends quietly (exit 0), as Unix filters do.
pub fn emit(args: std::fmt::Arguments<'_>, newline: bool) {
    let text = args.to_string();
    let text = only_own_escapes(&text);
    let mut out = std::io::stdout().lock();
    let written = out
        .write_all(text.as_bytes())
        .and_then(|()| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        // Nowhere left to report to but standard error.
        eprintln!("error: writing the output: {e}");
        std::process::exit(1);
    }
}

/// The last guard: drops every control character except newline and the colour
/// codes (`ESC [ digits ; m`) this module writes. Mail text was made safe with
/// [`safe`] already, which turned its escapes into visible placeholders.
fn only_own_escapes(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\x1b' {
            if let Some(len) = sgr_len(rest) {
                out.push_str(&rest[..len]);
                rest = &rest[len..];
                continue;
            }
        } else if !is_unsafe(c) || c == '\t' {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Cow::Owned(out)
}

/// The length of a colour code at the start of `s`: `ESC [`, digits and `;`, `m`.
fn sgr_len(s: &str) -> Option<usize> {
    let body = s.strip_prefix("\x1b[")?;
    let params = body
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b';')
        .count();
    (body.as_bytes().get(params) == Some(&b'm')).then_some(2 + params + 1)
}

/// Mail text made safe for the terminal (several lines allowed).
pub fn safe(text: &str) -> Cow<'_, str> {
    for_terminal(text)
}

/// A mail field made safe for the terminal, on one line.
pub fn safe_line(text: &str) -> Cow<'_, str> {
    one_line_for_terminal(text)
}

/// Prints why a query was refused, with the line that points at the place; returns
/// the exit code of a bad query.
pub fn bad_query(message: &str, caret: Option<&str>) -> i32 {
    eprintln!("error: {message}");
    if let Some(caret) = caret {
        eprintln!("{caret}");
    }
    2
}

pub fn print_json<T: Serialize>(value: &T) -> Result<()> {
    emit(
        format_args!("{}", serde_json::to_string_pretty(value)?),
        true,
    );
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
        out.push_str(&safe_line(&text[pos..start]));
        out.push_str(open);
        out.push_str(&safe_line(&text[start..end]));
        out.push_str(close);
        pos = end;
    }
    out.push_str(&safe_line(&text[pos..]));
    out
}

/// Cuts a string to `width` characters, with an ellipsis (made safe, on one line).
pub fn fit(s: &str, width: usize) -> String {
    let s = &*safe_line(s);
    if s.chars().count() <= width {
        return format!("{s:width$}");
    }
    let cut: String = s.chars().take(width.saturating_sub(1)).collect();
    format!("{cut}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_modules_colour_codes_pass() {
        let ours = "\x1b[1;33mhit\x1b[0m";
        assert_eq!(only_own_escapes(ours), ours);
        assert_eq!(only_own_escapes("a\x1b]0;t\x07b\u{9b}c"), "a]0;tbc");
        assert_eq!(highlight("x\x1b[2Jy", &[(0, 1)], false), "[x]␛[2Jy");
        assert_eq!(
            fit("Re: \x1b]52;c;Zm9v\x07", 40).trim_end(),
            "Re: ␛]52;c;Zm9v␇"
        );
    }
}
