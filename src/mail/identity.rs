//! Content identity of a raw message, independent of how a mailbox format stored it.

use super::model::MessageKey;

/// Hashes a raw message after undoing what mailbox formats do to it: CRLF line ends,
/// mbox `>From ` escaping (mboxo and mboxrd alike) and trailing blank lines. A message
/// read from a Maildir file and the same message read from an mbox get the same key.
pub fn content_key(raw: &[u8]) -> MessageKey {
    let mut hasher = blake3::Hasher::new();
    let mut end = raw.len();
    while end > 0 && matches!(raw[end - 1], b'\n' | b'\r' | b' ' | b'\t') {
        end -= 1;
    }
    for line in raw[..end].split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let unescaped = strip_from_escape(line);
        hasher.update(unescaped);
        hasher.update(b"\n");
    }
    let digest = hasher.finalize();
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest.as_bytes()[..16]);
    MessageKey(key)
}

/// `>>From x` and `>From x` both hash as `From x`.
fn strip_from_escape(line: &[u8]) -> &[u8] {
    let quotes = line.iter().take_while(|&&b| b == b'>').count();
    if quotes > 0 && line[quotes..].starts_with(b"From ") {
        &line[quotes..]
    } else {
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_mail_in_different_containers_has_one_key() {
        let maildir = b"Subject: x\n\nhello\n>From here\n";
        let mbox = b"Subject: x\r\n\r\nhello\r\n>>From here\r\n\r\n";
        assert_eq!(content_key(maildir), content_key(mbox));
    }

    #[test]
    fn different_mail_has_different_keys() {
        assert_ne!(
            content_key(b"Subject: a\n\nx"),
            content_key(b"Subject: b\n\nx")
        );
        assert_ne!(content_key(b"a\n\nb"), content_key(b"a\nb"));
    }
}
