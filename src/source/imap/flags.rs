//! IMAP system flags as the Maildir letters the store keeps (and back, for tests and
//! tools that set flags on a server).

use async_imap::types::Flag;

/// `\Draft`→D, `\Flagged`→F, `\Answered`→R, `\Seen`→S, `\Deleted`→T, in Maildir's
/// alphabetical order; keywords and `\Recent` have no letter and are dropped.
pub fn maildir_flags<'a>(flags: impl Iterator<Item = Flag<'a>>) -> String {
    let mut letters: Vec<char> = flags
        .filter_map(|f| match f {
            Flag::Seen => Some('S'),
            Flag::Answered => Some('R'),
            Flag::Flagged => Some('F'),
            Flag::Deleted => Some('T'),
            Flag::Draft => Some('D'),
            _ => None,
        })
        .collect();
    letters.sort_unstable();
    letters.dedup();
    letters.into_iter().collect()
}

/// The IMAP flag list for Maildir letters, e.g. `(\Seen \Flagged)` for "FS".
pub fn imap_flag_list(maildir: &str) -> String {
    let names: Vec<&str> = maildir
        .chars()
        .filter_map(|c| match c {
            'S' => Some("\\Seen"),
            'R' => Some("\\Answered"),
            'F' => Some("\\Flagged"),
            'T' => Some("\\Deleted"),
            'D' => Some("\\Draft"),
            _ => None,
        })
        .collect();
    format!("({})", names.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_sorted_and_keywords_dropped() {
        let flags = vec![
            Flag::Seen,
            Flag::Flagged,
            Flag::Recent,
            Flag::Custom("$Junk".into()),
            Flag::Answered,
        ];
        assert_eq!(maildir_flags(flags.into_iter()), "FRS");
        assert_eq!(imap_flag_list("FS"), "(\\Flagged \\Seen)");
    }
}
