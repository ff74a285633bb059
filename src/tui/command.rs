//! Named commands that keys are bound to.
//!
//! Keymap files refer to commands by a stable snake_case name (`run = "page_down"`),
//! optionally followed by one argument (`run = "focus chat"`, `run = "jump_citation 3"`).
//! The names are part of the user-facing configuration format, so they must never be
//! renamed; [`Command::name`] and [`Command::from_str`] are the single source of truth.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One of the three panes of the main screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pane {
    /// The thread list (or the search results that replace it).
    Threads,
    /// The conversation with the question-answering engine.
    Chat,
    /// The quotes cited by the current answer.
    Evidence,
}

impl Pane {
    /// Every pane, in left-to-right screen order.
    pub const ALL: [Pane; 3] = [Pane::Threads, Pane::Chat, Pane::Evidence];

    /// The name used in keymap files (`focus chat`, `toggle_pane evidence`).
    pub fn name(self) -> &'static str {
        match self {
            Pane::Threads => "threads",
            Pane::Chat => "chat",
            Pane::Evidence => "evidence",
        }
    }

    fn parse(s: &str) -> Option<Pane> {
        Pane::ALL.into_iter().find(|p| p.name() == s)
    }
}

/// Where `focus` moves the keyboard focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FocusTarget {
    /// A specific pane.
    Pane(Pane),
    /// The next visible pane, wrapping around.
    Next,
    /// The previous visible pane, wrapping around.
    Prev,
}

impl FocusTarget {
    /// Every target, in the order the help screen lists them.
    pub const ALL: [FocusTarget; 5] = [
        FocusTarget::Pane(Pane::Threads),
        FocusTarget::Pane(Pane::Chat),
        FocusTarget::Pane(Pane::Evidence),
        FocusTarget::Next,
        FocusTarget::Prev,
    ];

    /// The argument spelling used in keymap files.
    pub fn name(self) -> &'static str {
        match self {
            FocusTarget::Pane(p) => p.name(),
            FocusTarget::Next => "next",
            FocusTarget::Prev => "prev",
        }
    }

    fn parse(s: &str) -> Option<FocusTarget> {
        FocusTarget::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// Something the user can ask the TUI to do.
///
/// Commands are deliberately coarse and independent of the key that triggers them, so
/// the same command can be bound to different keys in the vim and emacs presets and in
/// user keymaps, and the help overlay can describe it without knowing the key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Command {
    /// Move the selection up one item.
    Up,
    /// Move the selection down one item.
    Down,
    /// Scroll the view up one line without moving the selection.
    ScrollUp,
    /// Scroll the view down one line without moving the selection.
    ScrollDown,
    /// Move up one page.
    PageUp,
    /// Move down one page.
    PageDown,
    /// Go to the first item.
    Top,
    /// Go to the last item.
    Bottom,
    /// Open the selected thread or item.
    Open,
    /// Close the reader or leave the current mode.
    Back,
    /// Open the search prompt.
    Search,
    /// Drop the search results and show the thread list again.
    ClearSearch,
    /// Move the keyboard focus.
    Focus(FocusTarget),
    /// Make the focused pane wider.
    GrowPane,
    /// Make the focused pane narrower.
    ShrinkPane,
    /// Hide or show a pane.
    TogglePane(Pane),
    /// Open the chat input to ask a question.
    Ask,
    /// Ask a follow-up question in the same conversation.
    FollowUp,
    /// Start a new conversation.
    NewConversation,
    /// Switch the question scope between the current thread and the whole mailbox.
    ToggleScope,
    /// Jump to citation `[n]` of the current answer (1-based).
    JumpCitation(u16),
    /// Jump to the next citation.
    NextCitation,
    /// Jump to the previous citation.
    PrevCitation,
    /// Open the cited message, scrolled to the quote.
    OpenMessage,
    /// Open the cited PDF page in the external viewer.
    OpenPdf,
    /// Go back in the jump list.
    JumpBack,
    /// Go forward in the jump list.
    JumpForward,
    /// Fold or unfold quoted history and signatures in the reader.
    ToggleQuoted,
    /// Mark the message (or, in the thread list, the thread) read or unread again.
    ToggleRead,
    /// Flag the message (or the thread's latest) as important, or clear the flag.
    ToggleFlag,
    /// Move the message (or the thread) to the archive folder.
    Archive,
    /// Move the message (or the thread) to the trash folder.
    Delete,
    /// Take back the last action on mail (a flag, an archive, a delete).
    Undo,
    /// Empty the trash folders for good (asked again before it happens).
    Expunge,
    /// Show the folder list with unread and total counts; choosing one filters the
    /// thread list.
    Folders,
    /// Keep the search listed as a saved view (asks for its name), in config.toml.
    SaveView,
    /// Add and remove tags on the thread selected or the message read.
    Tag,
    /// Mute the thread (read, archived, and so its new replies) or unmute it.
    Mute,
    /// Reply to the sender of the message (in the thread list, the thread's latest).
    Reply,
    /// Reply to the sender and everyone else on the message.
    ReplyAll,
    /// Forward the message.
    Forward,
    /// Accept the invitation the message carries (an iTIP reply to its organiser).
    Accept,
    /// Accept the invitation tentatively.
    Tentative,
    /// Decline the invitation.
    Decline,
    /// Write a new message.
    Compose,
    /// Move the message (or the thread) to a folder chosen from a list.
    Move,
    /// Show the message raw, with all its headers (again: as read).
    ViewRaw,
    /// Pipe the raw message to a shell command.
    Pipe,
    /// Save an attachment of the message to a file.
    SaveAttachment,
    /// Open an attachment of the message with the system's opener.
    OpenAttachment,
    /// Open a link of the message, chosen from a numbered list.
    OpenUrl,
    /// The thread's people (who joined when, who dropped off), organisations and
    /// dated facts; Enter jumps to the header or quote each comes from.
    People,
    /// Show ingest and sync status.
    Status,
    /// Synchronise the mailbox now.
    Sync,
    /// Show the help overlay.
    Help,
    /// Quit the program.
    Quit,
    /// Submit the text of the chat or search input.
    Submit,
    /// Discard the text of the chat or search input and leave it.
    Cancel,
    /// Insert a line break in the chat input.
    Newline,
    /// Do nothing; in a user keymap this removes a default binding.
    Noop,
}

/// The largest citation number `jump_citation` accepts. Answers cite far fewer quotes;
/// the bound only keeps typos such as `jump_citation 30000` from looking valid.
pub const MAX_CITATION: u16 = 999;

/// Why a `run = "..."` string is not a valid command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandParseError {
    /// `run` was empty or only whitespace.
    #[error("empty command")]
    Empty,
    /// The first word is not a command name.
    #[error("unknown command `{0}`")]
    Unknown(String),
    /// The command needs an argument that was not given.
    #[error("`{command}` needs an argument: {expected}")]
    MissingArgument {
        /// The command name.
        command: &'static str,
        /// What the argument may be.
        expected: &'static str,
    },
    /// The command takes no argument, or fewer than were given.
    #[error("`{command}` takes {takes}, but got `{extra}`")]
    UnexpectedArgument {
        /// The command name.
        command: &'static str,
        /// How many arguments it takes, in words.
        takes: &'static str,
        /// The first unexpected word.
        extra: String,
    },
    /// The argument is not one of the allowed values.
    #[error("bad argument `{arg}` for `{command}`: expected {expected}")]
    BadArgument {
        /// The command name.
        command: &'static str,
        /// The argument given.
        arg: String,
        /// What the argument may be.
        expected: &'static str,
    },
}

const FOCUS_ARGS: &str = "threads, chat, evidence, next or prev";
const PANE_ARGS: &str = "threads, chat or evidence";
const CITATION_ARGS: &str = "a citation number from 1 to 999";

/// Commands without an argument, with their names. Kept as one table so that parsing
/// and naming cannot drift apart.
const SIMPLE: &[(Command, &str)] = &[
    (Command::Up, "up"),
    (Command::Down, "down"),
    (Command::ScrollUp, "scroll_up"),
    (Command::ScrollDown, "scroll_down"),
    (Command::PageUp, "page_up"),
    (Command::PageDown, "page_down"),
    (Command::Top, "top"),
    (Command::Bottom, "bottom"),
    (Command::Open, "open"),
    (Command::Back, "back"),
    (Command::Search, "search"),
    (Command::ClearSearch, "clear_search"),
    (Command::GrowPane, "grow_pane"),
    (Command::ShrinkPane, "shrink_pane"),
    (Command::Ask, "ask"),
    (Command::FollowUp, "follow_up"),
    (Command::NewConversation, "new_conversation"),
    (Command::ToggleScope, "toggle_scope"),
    (Command::NextCitation, "next_citation"),
    (Command::PrevCitation, "prev_citation"),
    (Command::OpenMessage, "open_message"),
    (Command::OpenPdf, "open_pdf"),
    (Command::JumpBack, "jump_back"),
    (Command::JumpForward, "jump_forward"),
    (Command::ToggleQuoted, "toggle_quoted"),
    (Command::ToggleRead, "toggle_read"),
    (Command::ToggleFlag, "toggle_flag"),
    (Command::Archive, "archive"),
    (Command::Delete, "delete"),
    (Command::Undo, "undo"),
    (Command::Expunge, "expunge"),
    (Command::Folders, "folders"),
    (Command::SaveView, "save_view"),
    (Command::Tag, "tag"),
    (Command::Mute, "mute"),
    (Command::Reply, "reply"),
    (Command::ReplyAll, "reply_all"),
    (Command::Forward, "forward"),
    (Command::Accept, "accept"),
    (Command::Tentative, "tentative"),
    (Command::Decline, "decline"),
    (Command::Compose, "compose"),
    (Command::Move, "move"),
    (Command::ViewRaw, "view_raw"),
    (Command::Pipe, "pipe"),
    (Command::SaveAttachment, "save_attachment"),
    (Command::OpenAttachment, "open_attachment"),
    (Command::OpenUrl, "open_url"),
    (Command::People, "people"),
    (Command::Status, "status"),
    (Command::Sync, "sync"),
    (Command::Help, "help"),
    (Command::Quit, "quit"),
    (Command::Submit, "submit"),
    (Command::Cancel, "cancel"),
    (Command::Newline, "newline"),
    (Command::Noop, "noop"),
];

impl Command {
    /// The stable snake_case name used in keymap files, without the argument.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Focus(_) => "focus",
            Command::TogglePane(_) => "toggle_pane",
            Command::JumpCitation(_) => "jump_citation",
            other => SIMPLE
                .iter()
                .find(|(c, _)| c == other)
                .map(|(_, n)| *n)
                .unwrap_or("noop"),
        }
    }

    /// Every command name a keymap file may use, for error messages and completion.
    pub fn names() -> impl Iterator<Item = &'static str> {
        SIMPLE
            .iter()
            .map(|(_, n)| *n)
            .chain(["focus", "toggle_pane", "jump_citation"])
    }

    /// Every command a keymap should bind, with the arguments a key can sensibly carry
    /// (citations 1 to 9, one per digit key). `noop` is left out: it is not an action.
    pub fn all() -> Vec<Command> {
        let mut all: Vec<Command> = SIMPLE
            .iter()
            .map(|(c, _)| *c)
            .filter(|c| *c != Command::Noop)
            .collect();
        all.extend(FocusTarget::ALL.into_iter().map(Command::Focus));
        all.extend(Pane::ALL.into_iter().map(Command::TogglePane));
        all.extend((1..=9).map(Command::JumpCitation));
        all.sort();
        all
    }

    /// A description for the help overlay when a binding has no `desc` of its own,
    /// so user keymaps may leave `desc` out and still get a readable help screen.
    pub fn default_desc(&self) -> String {
        let s = match self {
            Command::Up => "Move up",
            Command::Down => "Move down",
            Command::ScrollUp => "Scroll up one line",
            Command::ScrollDown => "Scroll down one line",
            Command::PageUp => "Page up",
            Command::PageDown => "Page down",
            Command::Top => "Go to top",
            Command::Bottom => "Go to bottom",
            Command::Open => "Open selected item",
            Command::Back => "Go back",
            Command::Search => "Search the mailbox",
            Command::ClearSearch => "Clear search results",
            Command::Focus(FocusTarget::Next) => "Focus next pane",
            Command::Focus(FocusTarget::Prev) => "Focus previous pane",
            Command::Focus(FocusTarget::Pane(p)) => return format!("Focus {} pane", p.name()),
            Command::GrowPane => "Grow pane",
            Command::ShrinkPane => "Shrink pane",
            Command::TogglePane(p) => return format!("Hide/show {} pane", p.name()),
            Command::Ask => "Ask a question",
            Command::FollowUp => "Ask a follow-up question",
            Command::NewConversation => "Start a new conversation",
            Command::ToggleScope => "Toggle scope: thread / mailbox",
            Command::JumpCitation(n) => return format!("Jump to citation [{n}]"),
            Command::NextCitation => "Next citation",
            Command::PrevCitation => "Previous citation",
            Command::OpenMessage => "Open cited message at the quote",
            Command::OpenPdf => "Open the cited attachment",
            Command::JumpBack => "Jump back",
            Command::JumpForward => "Jump forward",
            Command::ToggleQuoted => "Fold/unfold quoted text",
            Command::ToggleRead => "Mark read/unread",
            Command::ToggleFlag => "Flag/unflag",
            Command::Archive => "Archive",
            Command::Delete => "Delete (to the trash folder)",
            Command::Undo => "Undo the last action on mail",
            Command::Expunge => "Empty the trash for good",
            Command::Folders => "Folders",
            Command::SaveView => "Save the search as a view",
            Command::Tag => "Tag (+name -name)",
            Command::Mute => "Mute or unmute the thread",
            Command::Reply => "Reply",
            Command::ReplyAll => "Reply to all",
            Command::Forward => "Forward",
            Command::Accept => "Accept the invitation",
            Command::Tentative => "Accept the invitation tentatively",
            Command::Decline => "Decline the invitation",
            Command::Compose => "Write a new message",
            Command::Move => "Move to a folder",
            Command::ViewRaw => "Show the raw message",
            Command::Pipe => "Pipe the message to a command",
            Command::SaveAttachment => "Save an attachment",
            Command::OpenAttachment => "Open an attachment",
            Command::OpenUrl => "Open a link of the message",
            Command::People => "People and facts of the thread",
            Command::Status => "Show sync status",
            Command::Sync => "Sync now (local and IMAP)",
            Command::Help => "Show help",
            Command::Quit => "Quit",
            Command::Submit => "Submit",
            Command::Cancel => "Cancel",
            Command::Newline => "Insert newline",
            Command::Noop => "Do nothing",
        };
        s.to_string()
    }
}

impl fmt::Display for Command {
    /// Writes the command as it is spelled in a keymap file, argument included, so
    /// that `cmd.to_string().parse()` gives `cmd` back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self {
            Command::Focus(t) => write!(f, " {}", t.name()),
            Command::TogglePane(p) => write!(f, " {}", p.name()),
            Command::JumpCitation(n) => write!(f, " {n}"),
            _ => Ok(()),
        }
    }
}

impl FromStr for Command {
    type Err = CommandParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words = s.split_whitespace();
        let name = words.next().ok_or(CommandParseError::Empty)?;
        let arg = words.next();
        let extra = words.next();
        let (command, expected): (&'static str, &'static str) = match name {
            "focus" => ("focus", FOCUS_ARGS),
            "toggle_pane" => ("toggle_pane", PANE_ARGS),
            "jump_citation" => ("jump_citation", CITATION_ARGS),
            _ => {
                let cmd = SIMPLE
                    .iter()
                    .find(|(_, n)| *n == name)
                    .map(|(c, _)| *c)
                    .ok_or_else(|| CommandParseError::Unknown(name.to_string()))?;
                return match arg {
                    Some(extra) => Err(CommandParseError::UnexpectedArgument {
                        command: cmd.name(),
                        takes: "no argument",
                        extra: extra.to_string(),
                    }),
                    None => Ok(cmd),
                };
            }
        };
        if let Some(extra) = extra {
            return Err(CommandParseError::UnexpectedArgument {
                command,
                takes: "one argument",
                extra: extra.to_string(),
            });
        }
        let arg = arg.ok_or(CommandParseError::MissingArgument { command, expected })?;
        let parsed = match command {
            "focus" => FocusTarget::parse(arg).map(Command::Focus),
            "toggle_pane" => Pane::parse(arg).map(Command::TogglePane),
            _ => arg
                .parse::<u16>()
                .ok()
                .filter(|n| (1..=MAX_CITATION).contains(n))
                .map(Command::JumpCitation),
        };
        parsed.ok_or_else(|| CommandParseError::BadArgument {
            command,
            arg: arg.to_string(),
            expected,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_round_trips_through_its_name() {
        for cmd in Command::all().into_iter().chain([Command::Noop]) {
            let text = cmd.to_string();
            assert_eq!(text.parse::<Command>(), Ok(cmd), "{text}");
        }
    }

    #[test]
    fn names_are_unique_and_snake_case() {
        let names: Vec<_> = Command::names().collect();
        let mut sorted = names.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), names.len());
        for n in names {
            assert!(n.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{n}");
        }
    }

    #[test]
    fn arguments_are_parsed() {
        assert_eq!("jump_citation 3".parse(), Ok(Command::JumpCitation(3)));
        assert_eq!(
            "  focus   chat ".parse(),
            Ok(Command::Focus(FocusTarget::Pane(Pane::Chat)))
        );
        assert_eq!("focus next".parse(), Ok(Command::Focus(FocusTarget::Next)));
        assert_eq!(
            "toggle_pane evidence".parse(),
            Ok(Command::TogglePane(Pane::Evidence))
        );
    }

    #[test]
    fn bad_commands_are_rejected_with_a_reason() {
        assert_eq!("".parse::<Command>(), Err(CommandParseError::Empty));
        assert_eq!(
            "page_dwn".parse::<Command>(),
            Err(CommandParseError::Unknown("page_dwn".into()))
        );
        assert!(matches!(
            "focus".parse::<Command>(),
            Err(CommandParseError::MissingArgument { .. })
        ));
        assert!(matches!(
            "focus sideways".parse::<Command>(),
            Err(CommandParseError::BadArgument { .. })
        ));
        assert!(matches!(
            "jump_citation 0".parse::<Command>(),
            Err(CommandParseError::BadArgument { .. })
        ));
        assert!(matches!(
            "jump_citation x".parse::<Command>(),
            Err(CommandParseError::BadArgument { .. })
        ));
        assert_eq!(
            "quit now".parse::<Command>(),
            Err(CommandParseError::UnexpectedArgument {
                command: "quit",
                takes: "no argument",
                extra: "now".into()
            })
        );
        assert!(matches!(
            "focus chat evidence".parse::<Command>(),
            Err(CommandParseError::UnexpectedArgument { .. })
        ));
    }
}
