//! The state of a message as its flags say (Maildir's letters, which IMAP's system
//! flags map to): read or not, flagged, replied, passed on, a draft, trashed. The
//! query language asks for it with `is:` (and mu's `flag:`).

/// A state a message is in or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailState {
    Unread,
    Read,
    Flagged,
    Replied,
    Passed,
    Draft,
    Trashed,
}

impl MailState {
    /// Every state, in the order the query language lists them.
    pub const ALL: [MailState; 7] = [
        MailState::Unread,
        MailState::Read,
        MailState::Flagged,
        MailState::Replied,
        MailState::Passed,
        MailState::Draft,
        MailState::Trashed,
    ];

    /// The state a query word names: notmuch's and Quoth's names, and mu's
    /// (`seen`, `new` is unread, `forwarded` is passed, `deleted` is trashed).
    pub fn named(name: &str) -> Option<MailState> {
        Some(match name.to_ascii_lowercase().as_str() {
            "unread" | "new" | "unseen" => MailState::Unread,
            "read" | "seen" => MailState::Read,
            "flagged" | "starred" => MailState::Flagged,
            "replied" | "answered" => MailState::Replied,
            "passed" | "forwarded" => MailState::Passed,
            "draft" => MailState::Draft,
            "trashed" | "deleted" => MailState::Trashed,
            _ => return None,
        })
    }

    /// Its name in the query language.
    pub fn name(self) -> &'static str {
        match self {
            MailState::Unread => "unread",
            MailState::Read => "read",
            MailState::Flagged => "flagged",
            MailState::Replied => "replied",
            MailState::Passed => "passed",
            MailState::Draft => "draft",
            MailState::Trashed => "trashed",
        }
    }

    /// The Maildir flag letter whose presence (or, for unread, absence) is the state.
    fn letter(self) -> char {
        match self {
            MailState::Unread | MailState::Read => 'S',
            MailState::Flagged => 'F',
            MailState::Replied => 'R',
            MailState::Passed => 'P',
            MailState::Draft => 'D',
            MailState::Trashed => 'T',
        }
    }

    /// Whether a message with these Maildir flags is in this state.
    pub fn holds(self, flags: &str) -> bool {
        let has = flags.contains(self.letter());
        match self {
            MailState::Unread => !has,
            _ => has,
        }
    }

    /// The state whose messages are exactly those not in this one, when that is
    /// the cheaper set to keep: read mail is all mail but the unread.
    pub fn complement(self) -> Option<MailState> {
        match self {
            MailState::Read => Some(MailState::Unread),
            _ => None,
        }
    }

    /// One byte that names the state in a store key.
    pub fn code(self) -> u8 {
        match self {
            MailState::Unread => b'U',
            other => other.letter() as u8,
        }
    }

    /// The states a store keeps sets of: all but those kept as a complement.
    pub fn kept() -> impl Iterator<Item = MailState> {
        Self::ALL.into_iter().filter(|s| s.complement().is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_reads_its_flag_letter() {
        assert!(MailState::Unread.holds(""));
        assert!(MailState::Unread.holds("F"));
        assert!(!MailState::Unread.holds("RS"));
        assert!(MailState::Read.holds("S"));
        assert!(MailState::Flagged.holds("FS"));
        assert!(MailState::Replied.holds("RS"));
        assert!(MailState::Passed.holds("P"));
        assert!(MailState::Draft.holds("DS"));
        assert!(MailState::Trashed.holds("ST"));
        assert!(!MailState::Trashed.holds("S"));
    }

    #[test]
    fn names_of_notmuch_and_mu_are_read() {
        for s in MailState::ALL {
            assert_eq!(MailState::named(s.name()), Some(s));
        }
        assert_eq!(MailState::named("seen"), Some(MailState::Read));
        assert_eq!(MailState::named("New"), Some(MailState::Unread));
        assert_eq!(MailState::named("forwarded"), Some(MailState::Passed));
        assert_eq!(MailState::named("deleted"), Some(MailState::Trashed));
        assert_eq!(MailState::named("important"), None);
    }

    #[test]
    fn kept_states_have_distinct_codes_and_read_is_a_complement() {
        let codes: std::collections::HashSet<u8> = MailState::kept().map(|s| s.code()).collect();
        assert_eq!(codes.len(), MailState::kept().count());
        assert!(MailState::kept().all(|s| s != MailState::Read));
        assert_eq!(MailState::Read.complement(), Some(MailState::Unread));
    }
}
