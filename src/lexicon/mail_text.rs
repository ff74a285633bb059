//! How mail is written: requests, greetings, quoted headers, footers, signatures and text that addresses a machine.

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

/// Header names that label lines of a quoted or forwarded header block, not facts.
#[rustfmt::skip]
pub const HEADER_LABELS: &[&str] = &[
    "from", "to", "cc", "bcc", "sent", "date", "subject", "re", "fw", "fwd", "reply-to",
    "importance", "attachments", "attachment",
];

/// Abbreviations after which a period does not end a sentence.
#[rustfmt::skip]
pub const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "st", "jr", "sr", "inc", "corp", "co", "ltd", "vs", "etc",
    "e.g", "i.e", "no", "approx", "dept", "est", "jan", "feb", "mar", "apr", "jun", "jul",
    "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat",
    "sun", "a.m", "p.m", "u.s", "ave", "blvd", "ft", "mt", "ph", "tel", "ext", "fig",
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
