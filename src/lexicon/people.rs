//! Names of people, places and organisations, and the words that tie a name to a message.

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

/// Words that continue a street address after a comma ("Suite 4", "Floor 3").
pub const ADDRESS_UNITS: &[&str] = &["suite", "ste", "floor", "fl", "unit", "room", "apt"];

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

/// The full first names a nickname stands for ("liz" → "elizabeth").
pub fn full_names(nick: &str) -> impl Iterator<Item = &'static str> + '_ {
    NICKNAMES
        .iter()
        .filter(move |(n, _)| *n == nick)
        .map(|(_, full)| *full)
}

/// Words that head a job title on a card or signature line ("Site Manager", "Vice
/// President, Gas Trading", "Office Coordinator").
#[rustfmt::skip]
pub const JOB_TITLE_WORDS: &[&str] = &[
    "manager", "director", "president", "vp", "svp", "evp", "avp", "ceo", "cfo", "coo",
    "cto", "cio", "chairman", "chairwoman", "chair", "officer", "analyst", "associate",
    "engineer", "coordinator", "lead", "head", "specialist", "assistant", "counsel",
    "attorney", "lawyer", "trader", "consultant", "administrator", "chief", "partner",
    "executive", "representative", "supervisor", "secretary", "scientist", "designer",
    "developer", "architect", "advisor", "adviser", "accountant", "controller",
    "treasurer", "editor", "planner", "principal", "professor", "recruiter",
    "scheduler", "originator", "economist", "strategist", "founder", "agent",
    "paralegal", "clerk", "technician", "intern", "receptionist", "broker",
    "underwriter", "auditor", "instructor", "superintendent", "foreman", "manageress",
];

/// How a card labels a telephone line, by the kind of line it is.
#[rustfmt::skip]
pub const MOBILE_PHONE_LABELS: &[&str] = &["cell", "mobile", "mob", "cellular", "c", "m"];
#[rustfmt::skip]
pub const FAX_LABELS: &[&str] = &["fax", "facsimile", "f"];
#[rustfmt::skip]
pub const DESK_PHONE_LABELS: &[&str] = &[
    "phone", "tel", "telephone", "office", "direct", "work", "desk", "ph", "p", "t", "o", "w",
];
