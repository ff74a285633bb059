//! mbox files: messages separated by `From ` lines. Both mboxo and mboxrd escape body
//! lines that start with `From ` by prefixing `>`; reading undoes one level.

/// One message found in an mbox: its unescaped bytes and where its (escaped) bytes lie.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MboxMessage {
    pub raw: Vec<u8>,
    pub offset: usize,
    pub len: usize,
}

/// Splits an mbox into messages. A separator is a line starting with `From ` at the
/// start of the file or after an empty line; the empty line before a separator
/// belongs to the format, not to the message.
pub fn split_mbox(bytes: &[u8]) -> Vec<MboxMessage> {
    let mut starts = Vec::new(); // (separator line start, message body start)
    let mut pos = 0;
    let mut prev_blank = true;
    while pos < bytes.len() {
        let line_end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i + 1);
        let line = &bytes[pos..line_end];
        if prev_blank && line.starts_with(b"From ") {
            starts.push((pos, line_end));
        }
        prev_blank = line == b"\n" || line == b"\r\n";
        pos = line_end;
    }
    let mut out = Vec::with_capacity(starts.len());
    for (i, &(_, body_start)) in starts.iter().enumerate() {
        let next = starts.get(i + 1).map_or(bytes.len(), |&(sep, _)| sep);
        let mut end = next;
        // Drop the blank line that precedes the next separator.
        if i + 1 < starts.len() {
            if bytes[..end].ends_with(b"\r\n") && end - 2 > body_start {
                end -= 2;
            } else if bytes[..end].ends_with(b"\n") && end - 1 > body_start {
                end -= 1;
            }
        }
        let slice = &bytes[body_start..end.max(body_start)];
        if slice.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        out.push(MboxMessage {
            raw: unescape_from_lines(slice),
            offset: body_start,
            len: slice.len(),
        });
    }
    out
}

/// Removes one `>` from lines matching `^>+From `.
pub fn unescape_from_lines(slice: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(slice.len());
    let mut pos = 0;
    while pos < slice.len() {
        let line_end = memchr::memchr(b'\n', &slice[pos..]).map_or(slice.len(), |i| pos + i + 1);
        let line = &slice[pos..line_end];
        let quotes = line.iter().take_while(|&&b| b == b'>').count();
        if quotes > 0 && line[quotes..].starts_with(b"From ") {
            out.extend_from_slice(&line[1..]);
        } else {
            out.extend_from_slice(line);
        }
        pos = line_end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_messages_and_unescapes() {
        let mbox = b"From a@b Mon Jan 1 00:00:00 2001\nSubject: one\n\nhi\n>From the start\n\nFrom c@d Mon Jan 1 00:00:00 2001\nSubject: two\n\nbye\n";
        let msgs = split_mbox(mbox);
        assert_eq!(msgs.len(), 2);
        assert_eq!(msgs[0].raw, b"Subject: one\n\nhi\nFrom the start\n");
        assert_eq!(msgs[1].raw, b"Subject: two\n\nbye\n");
        let again = &mbox[msgs[1].offset..msgs[1].offset + msgs[1].len];
        assert_eq!(again, b"Subject: two\n\nbye\n");
    }

    #[test]
    fn from_inside_a_paragraph_is_not_a_separator() {
        let mbox = b"From x\nSubject: s\n\nline\nFrom here on it is text\n";
        assert_eq!(split_mbox(mbox).len(), 1);
    }

    #[test]
    fn mboxrd_double_escape_loses_one_level() {
        assert_eq!(unescape_from_lines(b">>From x\n"), b">From x\n");
    }

    #[test]
    fn empty_and_garbage_input() {
        assert!(split_mbox(b"").is_empty());
        assert!(split_mbox(b"From x\n\n").is_empty());
    }
}
