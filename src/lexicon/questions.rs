//! How a question asks: the kind of value it wants, the part of a message it asks about, and where it looks.

/// Words of a question that ask for a sum of money rather than a count ("how much
/// did we pay", "what did it cost").
#[rustfmt::skip]
pub const MONEY_QUESTION_WORDS: &[&str] = &[
    "pay", "paid", "paying", "cost", "costs", "price", "priced", "spend", "spent", "bid",
    "pledge", "pledged", "fee", "fees", "owe", "owed", "charge", "charged", "worth",
    "salary", "fine", "payoff", "rent", "sell", "sold", "buy", "bought", "offer", "offered",
    "invoice", "budget", "money", "dollars", "bonus", "raise", "premium", "deposit",
];

/// What kind of value a question's focus noun asks for: "what was the price" wants
/// money, "which day" a date, "what room" a place. The noun is the head of the
/// phrase after "what" or "which".
#[rustfmt::skip]
pub const FOCUS_NOUN_TYPES: &[(&str, FocusType)] = &[
    ("price", FocusType::Money), ("cost", FocusType::Money), ("fee", FocusType::Money),
    ("salary", FocusType::Money), ("budget", FocusType::Money), ("bid", FocusType::Money),
    ("rent", FocusType::Money), ("payment", FocusType::Money), ("amount", FocusType::Money),
    ("value", FocusType::Money), ("premium", FocusType::Money), ("balance", FocusType::Money),
    ("total", FocusType::Quantity), ("number", FocusType::Quantity),
    ("count", FocusType::Quantity), ("rate", FocusType::Quantity),
    ("volume", FocusType::Quantity), ("figure", FocusType::Quantity),
    ("score", FocusType::Quantity), ("percentage", FocusType::Quantity),
    ("size", FocusType::Quantity), ("capacity", FocusType::Quantity),
    ("date", FocusType::Date), ("day", FocusType::Date), ("deadline", FocusType::Date),
    ("time", FocusType::Time), ("hour", FocusType::Time),
    ("room", FocusType::Place), ("hotel", FocusType::Place),
    ("restaurant", FocusType::Place), ("location", FocusType::Place),
    ("venue", FocusType::Place), ("building", FocusType::Place),
    ("place", FocusType::Place), ("city", FocusType::Place), ("office", FocusType::Place),
    ("floor", FocusType::Place), ("address", FocusType::Place),
    ("country", FocusType::Place), ("state", FocusType::Place),
    ("phone", FocusType::Phone), ("fax", FocusType::Phone), ("cell", FocusType::Phone),
    ("extension", FocusType::Phone),
    ("company", FocusType::Organization), ("firm", FocusType::Organization),
    ("bank", FocusType::Organization), ("organization", FocusType::Organization),
    ("vendor", FocusType::Organization), ("client", FocusType::Organization),
    ("customer", FocusType::Organization), ("contractor", FocusType::Organization),
    ("person", FocusType::Person), ("name", FocusType::Person),
];

/// Words that, before "number", name a line to call ("her cell number", "the fax
/// number"): the number asked for is a phone number.
pub const PHONE_LINE_WORDS: &[&str] = &["cell", "mobile", "fax", "cellular", "pager"];

/// The kinds of value a question may ask for, as named by [`FOCUS_NOUN_TYPES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FocusType {
    Money,
    Quantity,
    Date,
    Time,
    Place,
    Phone,
    Organization,
    Person,
}

/// Words after "what" or "which" that name no thing ("what was wrong", "what
/// happened"): such a question has no focus noun.
#[rustfmt::skip]
pub const NOT_FOCUS_NOUNS: &[&str] = &[
    "wrong", "happened", "happening", "decided", "agreed", "said", "up", "missing",
    "different", "done", "else",
];

/// Words that end a focus phrase: verbs, prepositions and pronouns ("which hotel did
/// they use" → hotel).
#[rustfmt::skip]
pub const FOCUS_PHRASE_ENDS: &[&str] = &[
    "is", "was", "are", "were", "did", "does", "do", "will", "would", "has", "have", "had",
    "should", "can", "could", "in", "on", "at", "for", "of", "to", "from", "with", "about",
    "by", "that", "which", "who", "we", "i", "he", "she", "they", "you", "it", "my", "our",
    "his", "her", "their", "and", "or", "when", "where", "if", "per",
];

/// Words a question uses about a message's sender ("who sent it", "who wrote the
/// note", "where is it from").
#[rustfmt::skip]
pub const SENDER_CUES: &[&str] = &[
    "sent", "send", "sender", "wrote", "write", "writer", "author", "from", "signed",
];

/// Words a question uses about a message's recipients ("who received it", "who was
/// copied", "who is it addressed to").
#[rustfmt::skip]
pub const RECIPIENT_CUES: &[&str] = &[
    "received", "receive", "recipient", "recipients", "addressed", "cc", "cc'd", "copied",
    "to",
];

/// Words a question uses about an email address or other contact details.
#[rustfmt::skip]
pub const ADDRESS_CUES: &[&str] = &["address", "email", "e-mail", "contact", "reach"];

/// Words a question uses about what a message is about.
#[rustfmt::skip]
pub const SUBJECT_CUES: &[&str] = &["subject", "topic", "title", "about", "regarding", "re"];

/// Words of a question that ask what is asked for ("what is requested?", "what
/// does she want?").
#[rustfmt::skip]
pub const ASKING_WORDS: &[&str] = &[
    "request", "requests", "requested", "requesting", "ask", "asks", "asked", "asking",
    "want", "wants", "wanted", "wanting", "need", "needs", "needed", "needing",
];

/// Words of a question that ask what a message attaches ("what is attached?").
#[rustfmt::skip]
pub const ATTACHED_WORDS: &[&str] = &[
    "attached", "attachment", "attachments", "attach", "enclosed", "file", "files",
];

/// Words of a question that ask who a message's text names ("who is mentioned?"),
/// not who sent or got it.
#[rustfmt::skip]
pub const MENTION_WORDS: &[&str] = &[
    "mentioned", "mention", "mentions", "named", "referred", "referenced",
];

/// Words of a question that ask for the one recipient a message is for ("who is
/// its main recipient?"), not all of them.
pub const MAIN_WORDS: &[&str] = &["main", "primary", "principal"];

/// Verbs that, with a closing "to", ask whom a message went to ("who was it sent
/// to?").
#[rustfmt::skip]
pub const SENT_TO_VERBS: &[&str] = &[
    "sent", "send", "addressed", "written", "forwarded", "mailed", "emailed", "directed",
];

/// Verbs of sending a message, as "did" takes them ("when did she email it?") and
/// as participles ("when was it sent?").
pub const SENDING_BASE: &[&str] = &["send", "email", "mail", "forward", "write", "reply"];
pub const SENT_PARTICIPLES: &[&str] = &["sent", "emailed", "mailed", "forwarded", "written"];

/// The forms of "get": with a mail it got ("who got the memo?") a question asks
/// who received it, not who was moved or given something.
pub const GETTING_WORDS: &[&str] = &["got", "gets", "get", "getting"];

/// Words of a question that ask who got a message.
#[rustfmt::skip]
pub const RECEIVED_WORDS: &[&str] = &[
    "received", "receive", "receives", "recipient", "recipients", "addressed", "addressee",
    "addressees", "cc", "cc'd", "cced", "copied", "bcc", "bcc'd",
];

/// Words of a question that name the message it is about, or its writer.
#[rustfmt::skip]
pub const MESSAGE_WORDS: &[&str] = &[
    "email", "emails", "mail", "message", "note", "memo", "letter", "sender", "writer",
    "author",
];

/// Words a question uses about who was on a mail ("who was cc'd", "who else got
/// it", "who was on the thread").
#[rustfmt::skip]
pub const PARTICIPATION_CUES: &[&str] = &[
    "cc", "cc'd", "cced", "ccd", "copied", "copy", "bcc", "bcc'd", "included", "recipients",
    "recipient", "received", "addressed", "participants", "involved",
];

/// Words a question uses about someone joining a conversation ("who was looped in",
/// "when was Dana added").
#[rustfmt::skip]
pub const JOINING_CUES: &[&str] = &[
    "looped", "loop", "added", "joined", "join", "brought", "pulled", "roped",
];

/// Words that name a conversation rather than its topic ("the budget thread").
#[rustfmt::skip]
pub const CONVERSATION_WORDS: &[&str] = &[
    "thread", "threads", "email", "emails", "mail", "note", "chain", "conversation",
    "discussion", "message", "messages", "exchange", "correspondence", "memo", "invite",
    "invitation", "notice", "announcement",
];

/// Folder phrases a question may restrict itself with, and the folder they mean.
#[rustfmt::skip]
pub const FOLDER_PHRASES: &[(&str, &str)] = &[
    ("sent items", "sent_items"), ("sent mail", "sent"), ("my sent", "sent"),
    ("in my inbox", "inbox"), ("in the inbox", "inbox"), ("deleted items", "deleted_items"),
    ("in my drafts", "drafts"),
];

/// Words that ask for a value rather than name a topic ("when is it due", "what
/// price"): a follow-up's topic leaves them out.
pub const VALUE_WORDS: &[&str] = &["due", "else", "price", "date", "time"];

/// The kind of value a focus noun (lowercase, singular or plural) asks for.
pub fn focus_type(noun: &str) -> Option<FocusType> {
    let singular = noun
        .strip_suffix('s')
        .filter(|s| s.len() > 2)
        .unwrap_or(noun);
    FOCUS_NOUN_TYPES
        .iter()
        .find(|(n, _)| *n == noun || *n == singular)
        .map(|(_, t)| *t)
}
