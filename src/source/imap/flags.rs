//! IMAP system flags as the Maildir letters the store keeps (and back, for tests and
//! tools that set flags on a server).

use async_imap::types::Flag;

/// The keyword clients set on mail they forwarded (RFC 5788's registry), which is
/// Maildir's P (passed).
pub const FORWARDED: &str = "$Forwarded";

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
            // IMAP has no system flag for mail passed on: clients set this keyword.
            Flag::Custom(k) if k.eq_ignore_ascii_case(FORWARDED) => Some('P'),
            _ => None,
        })
        .collect();
    letters.sort_unstable();
    letters.dedup();
    letters.into_iter().collect()
}

/// The keywords among a message's flags, sorted, without repeats.
pub fn keywords<'a>(flags: impl Iterator<Item = Flag<'a>>) -> Vec<String> {
    let mut names: Vec<String> = flags
        .filter_map(|f| match f {
            Flag::Custom(name) => Some(name.into_owned()),
            _ => None,
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// Whether a tag can be an IMAP keyword: an atom of printable ASCII (RFC 3501),
/// which a tag with other letters is not; such a tag stays in Quoth.
pub fn is_keyword(tag: &str) -> bool {
    !tag.is_empty()
        && tag
            .bytes()
            .all(|b| b.is_ascii_graphic() && !b"(){%*\"]\\".contains(&b))
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
            'P' => Some(FORWARDED),
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
        let forwarded = [Flag::Seen, Flag::Custom("$forwarded".into())];
        assert_eq!(maildir_flags(forwarded.into_iter()), "PS");
        assert_eq!(imap_flag_list("PS"), "($Forwarded \\Seen)");
    }

    #[test]
    fn keywords_are_the_flags_without_a_backslash() {
        let flags = vec![
            Flag::Seen,
            Flag::Custom("work".into()),
            Flag::Custom("$Forwarded".into()),
            Flag::Custom("client/acme".into()),
            Flag::Custom("work".into()),
            Flag::MayCreate,
        ];
        assert_eq!(
            keywords(flags.into_iter()),
            ["$Forwarded", "client/acme", "work"]
        );
        assert!(is_keyword("to-read"));
        assert!(!is_keyword("café"), "an atom is ASCII");
        assert!(!is_keyword(""));
    }
}
