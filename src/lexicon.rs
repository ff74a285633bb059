//! Every word list Quoth reads text with, in one place.
//!
//! These are general facts about English and about email, not about any mailbox or
//! question set: the months, how a question asks for a date or a sum, which words
//! mark a greeting or a request, what a forwarded header says. Nothing here may be
//! added because one question needed it; what a list is for is written above it, and
//! a word belongs only when it is a plain instance of that. Where a decision needs
//! weighing (is this sentence the answer?), the lists only give the learned selector
//! its features; the weighing is learned from data (src/answer/select).
//!
//! Words are lowercase; matching is on whole words unless a list says otherwise.

/// Words that carry no topic: articles, prepositions, auxiliaries, pronouns, question
/// words and the verbs of writing mail ("sent", "email"). Left out of a question's
/// content words, so "what did Greta say about the budget" searches for "greta
/// budget".
#[rustfmt::skip]
pub const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "at", "by",
    "from", "about", "is", "are", "was", "were", "be", "been", "being", "it", "its", "that",
    "this", "these", "those", "what", "whats", "who", "whom", "whose", "when", "where",
    "which", "how", "why", "did", "do", "does", "i", "me", "my", "we", "us", "our", "you",
    "your", "he", "him", "she", "they", "them", "his", "her", "their", "say", "said",
    "says", "tell", "told", "any", "there", "have", "has", "had", "will", "would", "can",
    "could", "should", "much", "many", "not", "no", "yes", "send", "sent", "email",
    "emails", "mail", "message", "mention", "mentioned", "write", "wrote", "written", "ask",
    "asked", "according", "as", "if", "so", "than", "then", "into", "also", "some", "all",
    "get", "got", "one", "else", "other", "exactly", "please", "know", "think", "kind",
    "sort", "thing", "things", "anything", "someone", "somebody", "just", "only", "s", "t",
    "per", "up", "out", "going", "go", "am", "among", "between", "folder", "messages",
    "whos", "wheres", "whens", "hows", "whys",
];

/// Month names and their usual abbreviations, with the month number.
#[rustfmt::skip]
pub const MONTHS: &[(&str, u32)] = &[
    ("january", 1), ("jan", 1), ("february", 2), ("feb", 2), ("march", 3), ("mar", 3),
    ("april", 4), ("apr", 4), ("may", 5), ("june", 6), ("jun", 6), ("july", 7),
    ("jul", 7), ("august", 8), ("aug", 8), ("september", 9), ("sept", 9), ("sep", 9),
    ("october", 10), ("oct", 10), ("november", 11), ("nov", 11), ("december", 12),
    ("dec", 12),
];

/// Holidays a question may date itself by, with their (usual) month and day.
#[rustfmt::skip]
pub const HOLIDAYS: &[(&str, u32, u32)] = &[
    ("christmas", 12, 25), ("thanksgiving", 11, 22), ("new year", 1, 1),
    ("halloween", 10, 31), ("independence day", 7, 4), ("july 4th", 7, 4),
];

/// Words that name a day or a time of day without digits ("on Friday", "tomorrow
/// morning"): a sentence holding one states when.
#[rustfmt::skip]
pub const TIME_WORDS: &[&str] = &[
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mon",
    "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun", "today", "tomorrow",
    "tonight", "yesterday", "noon", "midnight", "morning", "afternoon", "evening", "week",
    "weekend", "month", "year", "quarter",
];

/// Words that may join the parts of one date or time expression ("Friday, May 3
/// at 9:00", "May 3 from 2 pm"): a short answer keeps the whole expression.
pub const DATE_JOINERS: &[&str] = &["at", "from", "to", "until", "till", "on", "of", "the"];

/// Time words too vague to be a short answer when a date is also given.
pub const VAGUE_TIME_WORDS: &[&str] = &["week", "weekend", "month", "year", "quarter"];

/// Units and scale words that make a number a quantity ("5,000 MMBtu", "2 million").
#[rustfmt::skip]
pub const QUANTITY_UNITS: &[&str] = &[
    "million", "billion", "thousand", "hundred", "percent", "dollars", "cents", "mm",
    "mmbtu", "mw", "mwh", "kw", "kwh", "bcf", "mmcf", "dth", "k", "bps", "shares", "units",
    "miles", "acres", "feet", "sq", "sf", "hours", "days", "weeks", "months", "years",
    "people", "employees",
];

/// Words that make a number a sum of money ("750 dollars").
#[rustfmt::skip]
pub const MONEY_WORDS: &[&str] = &[
    "dollars", "dollar", "cents", "usd", "bucks", "euros", "euro", "pounds", "eur", "gbp",
];

/// Number words, for quantities written out ("three brokerage firms").
#[rustfmt::skip]
pub const NUMBER_WORDS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "fifteen", "twenty", "thirty", "forty", "fifty", "hundred", "dozen", "half",
];

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

/// Words a question uses about an attachment, and words that say a message or a
/// passage refers to one.
#[rustfmt::skip]
pub const ATTACHMENT_WORDS: &[&str] = &[
    "attachment", "attachments", "attached", "attach", "attaching", "pdf", "spreadsheet",
    "document", "file", "enclosed", "page",
];

/// Verbs that open a sentence in the imperative, a request of its reader ("Look at
/// the draft", "Send me the figures").
#[rustfmt::skip]
pub const IMPERATIVE_VERBS: &[&str] = &[
    "add", "advise", "approve", "ask", "attach", "bring", "call", "check", "complete",
    "confirm", "contact", "correct", "email", "e-mail", "fax", "fill", "find", "fix",
    "forward", "get", "give", "have", "help", "include", "inform", "keep", "let", "look",
    "mail", "make", "note", "notify", "pass", "print", "provide", "put", "read", "remember",
    "remind", "remove", "reply", "respond", "return", "review", "rsvp", "schedule", "see",
    "send", "set", "sign", "submit", "take", "tell", "update", "verify",
];

/// Phrases that make a request a courtesy offered in case of need ("call me if you
/// have any questions", "let me know of any problems"), not something asked.
#[rustfmt::skip]
pub const COURTESY_OFFERS: &[&str] = &[
    "any question", "any questions", "any problem", "any problems", "any comments",
    "any concerns", "any issues", "if you experience", "should you have", "should you need",
    "if you need anything", "if you need any",
];

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

/// Phrases that make a sentence a request of its reader ("please send", "could you",
/// "let me know").
#[rustfmt::skip]
pub const REQUEST_CUES: &[&str] = &[
    "please", "could you", "can you", "would you", "will you", "let me know", "need you",
    "i need", "we need", "kindly", "i would like", "we would like", "i'd like", "asap",
    "make sure", "be sure",
];

/// How a line that says nothing begins: greetings and sign-offs ("Thanks, John").
#[rustfmt::skip]
pub const GREETINGS_AND_SIGNOFFS: &[&str] = &[
    "thanks", "thank you", "regards", "best regards", "cheers", "hi", "hello", "dear",
    "sincerely", "best", "talk soon", "see you",
];

/// Words that end an organisation's name.
pub const ORG_SUFFIXES: &[&str] = &[
    "inc",
    "corp",
    "corporation",
    "co",
    "company",
    "llc",
    "llp",
    "ltd",
    "lp",
    "plc",
    "group",
    "bank",
    "partners",
    "associates",
    "university",
    "institute",
    "association",
    "agency",
    "commission",
    "department",
    "council",
    "services",
    "holdings",
    "trust",
    "foundation",
];

/// Mail domains that give addresses to anyone: an address there names no
/// organisation.
#[rustfmt::skip]
pub const PERSONAL_MAIL_DOMAINS: &[&str] = &[
    "gmail.com", "googlemail.com", "yahoo.com", "hotmail.com", "outlook.com", "live.com",
    "msn.com", "aol.com", "icloud.com", "me.com", "mac.com", "proton.me", "protonmail.com",
    "gmx.com", "gmx.net", "gmx.de", "web.de", "mail.com", "yandex.com", "yandex.ru",
    "zoho.com", "fastmail.com", "hey.com", "comcast.net", "earthlink.net", "att.net",
    "sbcglobal.net", "verizon.net", "juno.com", "netzero.net", "prodigy.net", "compuserve.com",
];

/// Second-level labels under which a country's registries give names
/// ("acme.co.uk"): the organisation's name is the label before them.
#[rustfmt::skip]
pub const SECOND_LEVEL_SUFFIXES: &[&str] = &[
    "co", "com", "org", "net", "ac", "gov", "edu", "ltd", "plc", "or", "ne", "go",
];

/// Verbs that join a named thing to its value in a statement of fact ("the strike
/// price is $14.50", "the review has been moved to Friday"): a value they link to
/// the words before them is that thing's value.
#[rustfmt::skip]
pub const FACT_VERBS: &[&str] = &[
    "is", "was", "are", "were", "be", "been", "remains", "remain", "stays", "becomes",
    "became", "moved", "changed", "set", "pushed", "rescheduled", "revised", "raised",
    "lowered", "reduced", "increased", "updated", "equals", "totals", "comes",
];

/// Little words that may stand between a fact's verb and its value ("moved to",
/// "is now", "will be at", "has been set for").
#[rustfmt::skip]
pub const FACT_LINK_WORDS: &[&str] = &[
    "now", "still", "to", "at", "for", "on", "by", "until", "from", "of", "in", "will",
    "has", "have", "had", "would", "should", "be", "been", "back", "out", "up", "down",
    "going", "currently", "then", "also", "actually", "approximately", "about", "around",
];

/// Header names that label lines of a quoted or forwarded header block, not facts.
#[rustfmt::skip]
pub const HEADER_LABELS: &[&str] = &[
    "from", "to", "cc", "bcc", "sent", "date", "subject", "re", "fw", "fwd", "reply-to",
    "importance", "attachments", "attachment",
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

/// Words that end the name of a place ("Pine Lodge", "Birch Room", "Elm Street").
#[rustfmt::skip]
pub const PLACE_ENDS: &[&str] = &[
    "lodge", "hotel", "inn", "resort", "room", "hall", "suite", "floor", "building",
    "tower", "center", "centre", "street", "st", "avenue", "ave", "road", "rd",
    "boulevard", "blvd", "lane", "drive", "square", "plaza", "park", "campus",
    "airport", "station", "terminal", "office", "library", "restaurant", "cafe", "café",
    "bar", "club", "arena", "stadium", "theater", "theatre", "museum", "church",
    "hospital", "clinic", "school", "college",
];

/// Words that begin the name of a place ("Café Aurora", "Hotel Adlon").
pub const PLACE_STARTS: &[&str] = &[
    "hotel",
    "café",
    "cafe",
    "restaurant",
    "lake",
    "mount",
    "fort",
    "port",
];

/// Titles that go before a name and may be left out where the name is given.
#[rustfmt::skip]
pub const TITLES: &[&str] = &[
    "mr", "mrs", "ms", "dr", "chancellor", "president", "chairman", "ceo", "senator",
    "governor", "mayor", "professor", "judge", "father", "secretary", "minister",
    "ambassador", "director", "vice",
];

/// Common first-name nicknames and the names they stand for.
#[rustfmt::skip]
pub const NICKNAMES: &[(&str, &str)] = &[
    ("phil", "phillip"), ("phil", "philip"), ("ken", "kenneth"), ("kenny", "kenneth"),
    ("bob", "robert"), ("rob", "robert"), ("bobby", "robert"), ("jim", "james"),
    ("jimmy", "james"), ("mike", "michael"), ("bill", "william"), ("will", "william"),
    ("tom", "thomas"), ("dave", "david"), ("steve", "steven"), ("steve", "stephen"),
    ("chris", "christopher"), ("jeff", "jeffrey"), ("rick", "richard"),
    ("dick", "richard"), ("rich", "richard"), ("liz", "elizabeth"), ("beth", "elizabeth"),
    ("kate", "katherine"), ("kathy", "katherine"), ("sue", "susan"), ("tim", "timothy"),
    ("joe", "joseph"), ("greg", "gregory"), ("andy", "andrew"), ("dan", "daniel"),
    ("danny", "daniel"), ("matt", "matthew"), ("sam", "samuel"), ("tony", "anthony"),
    ("ben", "benjamin"), ("pat", "patricia"), ("pat", "patrick"), ("jenny", "jennifer"),
    ("jen", "jennifer"), ("ed", "edward"), ("ted", "edward"), ("larry", "lawrence"),
    ("ron", "ronald"), ("don", "donald"), ("jack", "john"), ("johnny", "john"),
    ("vince", "vincent"), ("ray", "raymond"), ("fred", "frederick"), ("gene", "eugene"),
];

/// Words before a name that make its bearer the sender or a recipient ("did I ask
/// Greta", "the note from Bob").
#[rustfmt::skip]
pub const WRITES_TO: &[&str] = &[
    "ask", "asked", "tell", "told", "email", "emailed", "mail", "mailed", "send", "sent",
    "from", "cc", "forward", "forwarded", "remind", "reminded", "thank", "thanked",
    "reply", "replied", "answer", "answered", "write", "wrote", "inform", "informed",
];

/// Words after a name that make its bearer the writer of a message ("what did Greta
/// say").
#[rustfmt::skip]
pub const WRITES: &[&str] = &[
    "say", "said", "says", "write", "wrote", "writes", "send", "sent", "sends", "ask",
    "asked", "asks", "tell", "told", "tells", "reply", "replied", "email", "emailed",
    "mention", "mentioned", "suggest", "suggested", "propose", "proposed", "offer",
    "offered", "promise", "promised", "confirm", "confirmed", "recommend", "recommended",
    "agree", "agreed", "report", "reported", "quote", "quoted", "explain", "explained",
];

/// Adverbs that may stand between a name and its verb ("Oona first said").
#[rustfmt::skip]
pub const NAME_VERB_ADVERBS: &[&str] = &[
    "first", "last", "ever", "originally", "finally", "actually", "also",
];

/// Abbreviations after which a period does not end a sentence.
#[rustfmt::skip]
pub const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "st", "jr", "sr", "inc", "corp", "co", "ltd", "vs", "etc",
    "e.g", "i.e", "no", "approx", "dept", "est", "jan", "feb", "mar", "apr", "jun", "jul",
    "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat",
    "sun", "a.m", "p.m", "u.s", "ave", "blvd", "ft", "mt", "ph", "tel", "ext", "fig",
];

/// Pronouns and demonstratives that point back to an earlier turn's topic.
#[rustfmt::skip]
pub const THING_PRONOUNS: &[&str] = &[
    "it", "its", "that", "this", "they", "them", "their", "those", "these", "there",
];

/// Pronouns that point back to a person of an earlier turn.
#[rustfmt::skip]
pub const PERSON_PRONOUNS: &[&str] = &["he", "she", "him", "her", "his", "hers"];

/// How a follow-up that leans on the previous question begins ("and when?", "what
/// about the second one?").
#[rustfmt::skip]
pub const FOLLOW_UP_OPENERS: &[&str] = &[
    "and ", "also ", "what about", "how about", "what else", "anything else", "and what",
    "then ",
];

/// How a correction of the previous question begins ("no, I meant ...").
#[rustfmt::skip]
pub const CORRECTION_OPENERS: &[&str] = &[
    "no,", "no ", "nope", "not that", "not the", "i meant", "i mean ", "actually,",
    "wrong",
];

/// Phrases that address an AI system rather than a person ("ignore previous
/// instructions", "SYSTEM:"). Mail is untrusted: a sentence holding one is never
/// evidence, and a claim citing one is dropped. Matched as substrings of the
/// lowercased sentence.
#[rustfmt::skip]
pub const INJECTION_CUES: &[&str] = &[
    "ignore all previous", "ignore previous", "ignore the previous", "ignore any previous",
    "ignore your instructions", "disregard all previous", "disregard previous",
    "disregard the above", "disregard your", "forget your instructions",
    "forget all previous", "new instructions", "system prompt", "system:", "assistant:",
    "ai assistant", "as an ai", "language model", "you are an ai", "you are chatgpt",
    "note to ai", "attention ai", "dear ai", "if you are an ai", "include the string",
    "include the word", "in every reply", "in your answer", "in your reply",
    "in your response", "respond only with", "reply only with", "answer only with",
    "answer with only", "respond with only", "always answer", "always respond",
    "always say", "you must say", "you must reply", "you must answer", "you must include",
    "you must cite", "say that you don't know", "say you do not know",
    "say \"i don't know\"", "cite the following quote", "quote the following", "ai model",
    "ai agent", "ai system", "any ai", "ai reader", "when you cite", "quote it as saying",
    "quote this email as", "to your answer", "to your reply", "summarizing this",
    "summarising this", "the user's question", "output only",
];

/// Folder phrases a question may restrict itself with, and the folder they mean.
#[rustfmt::skip]
pub const FOLDER_PHRASES: &[(&str, &str)] = &[
    ("sent items", "sent_items"), ("sent mail", "sent"), ("my sent", "sent"),
    ("in my inbox", "inbox"), ("in the inbox", "inbox"), ("deleted items", "deleted_items"),
    ("in my drafts", "drafts"),
];

/// Words that say a value replaces an earlier one ("the meeting has moved to ...",
/// "CORRECTION: ..."), a feature of the later sentence.
#[rustfmt::skip]
pub const REVISION_CUES: &[&str] = &[
    "correction", "corrected", "revised", "revision", "updated", "update", "moved",
    "rescheduled", "changed", "instead", "now", "new", "final", "postponed", "pushed",
];

/// Words that ask for a value rather than name a topic ("when is it due", "what
/// price"): a follow-up's topic leaves them out.
pub const VALUE_WORDS: &[&str] = &["due", "else", "price", "date", "time"];

/// Subject prefixes of replies and forwards, in the languages mail clients write.
#[rustfmt::skip]
pub const REPLY_PREFIXES: &[&str] = &["re", "fw", "fwd", "aw", "sv", "antw", "wg", "odp"];

/// What an `-----Original Message-----` rule says, in the languages of common clients.
#[rustfmt::skip]
pub const ORIGINAL_MESSAGE_PHRASES: &[&str] = &[
    "original message", "ursprüngliche nachricht", "message d'origine", "mensaje original",
];

/// Phrases typical of legal footers; a paragraph with several distinct ones is a
/// disclaimer.
#[rustfmt::skip]
pub const DISCLAIMER_PHRASES: &[&str] = &[
    "is the property of", "confidential and may also be privileged",
    "privileged and confidential", "confidential and privileged",
    "confidential and/or privileged", "legally privileged", "intended only for the use",
    "intended solely for the use", "for the sole use of", "not the intended recipient",
    "not an intended recipient", "designated recipient only", "in error, please",
    "strictly prohibited", "is prohibited", "delete all copies", "notify the sender",
    "delete the original", "dissemination, distribution",
    "binding and enforceable contract", "disclose this communication",
];

/// How a mobile client's signature line begins ("Sent from my iPhone").
#[rustfmt::skip]
pub const MOBILE_SIGNATURES: &[&str] = &[
    "sent from my ", "sent via ", "sent from blackberry", "get outlook for ",
];

pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

/// The month number of a month name or abbreviation.
pub fn month_number(word: &str) -> Option<u32> {
    MONTHS.iter().find(|(n, _)| *n == word).map(|(_, m)| *m)
}

/// The full first names a nickname stands for ("liz" → "elizabeth").
pub fn full_names(nick: &str) -> impl Iterator<Item = &'static str> + '_ {
    NICKNAMES
        .iter()
        .filter(move |(n, _)| *n == nick)
        .map(|(_, full)| *full)
}

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

/// Whether `text` (lowercase) holds one of `phrases` as whole words.
pub fn has_phrase(text: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| {
        text.match_indices(p).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + p.len()..].chars().next();
            let bound = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
            bound(before) && (p.ends_with(' ') || bound(after))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_match_whole_words_only() {
        assert!(has_phrase("could you send the plans", REQUEST_CUES));
        assert!(!has_phrase("the pleasant view", &["please"]));
        assert!(has_phrase("thanks, john", GREETINGS_AND_SIGNOFFS));
    }

    #[test]
    fn focus_nouns_name_a_kind_of_value() {
        assert_eq!(focus_type("prices"), Some(FocusType::Money));
        assert_eq!(focus_type("hotel"), Some(FocusType::Place));
        assert_eq!(focus_type("dog"), None);
        assert_eq!(full_names("liz").collect::<Vec<_>>(), ["elizabeth"]);
        assert_eq!(month_number("sept"), Some(9));
    }
}
