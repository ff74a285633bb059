//! Normalisation for comparing a quote with the stored text: models and people retype
//! quotes with curly quotes, other dashes, non-breaking spaces, ligatures and different
//! line breaks; none of that changes what was said, so none of it may fail a citation.

/// The comparable form of a text: look-alike characters folded to ASCII, ligatures
/// expanded, all whitespace runs collapsed to one space, lowercased, trimmed.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        let folded: &str = match c {
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '`' | '\u{00B4}' => {
                "'"
            }
            // A double quote inside a quote is retyped as a single one.
            '"' | '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}'
            | '\u{00BB}' => "'",
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
            | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => "-",
            '\u{2026}' => "...",
            '\u{FB00}' => "ff",
            '\u{FB01}' => "fi",
            '\u{FB02}' => "fl",
            '\u{FB03}' => "ffi",
            '\u{FB04}' => "ffl",
            '\u{FB05}' | '\u{FB06}' => "st",
            '\u{00AD}' | '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{FEFF}' => "",
            c if c.is_whitespace() => " ",
            _ => {
                if space && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.extend(c.to_lowercase());
                continue;
            }
        };
        if folded == " " {
            space = true;
            continue;
        }
        if folded.is_empty() {
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push_str(folded);
    }
    out
}

/// Whether `quote` occurs in `source` once both are normalised. An empty quote
/// never does.
pub fn occurs_verbatim(quote: &str, source: &str) -> bool {
    let q = normalize(quote);
    let q = q.trim_matches(|c: char| c == '.' || c == ',' || c == ' ' || c == '\'');
    !q.is_empty() && normalize(source).contains(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_look_alikes_and_whitespace() {
        assert_eq!(
            normalize("\u{201C}It\u{2019}s\u{00A0}due\u{2014}Friday\u{201D}\n  ok"),
            "'it's due-friday' ok"
        );
        assert_eq!(normalize("e\u{FB03}cient"), "efficient");
        assert_eq!(normalize("  a \t\r\n b  "), "a b");
    }

    #[test]
    fn verbatim_match_survives_retyping_but_not_rewording() {
        let source = "The strike price is $25.00 \u{2013} final.\r\nCall me.";
        assert!(occurs_verbatim("strike price is $25.00 - final", source));
        assert!(occurs_verbatim("\u{201C}The  strike price\u{201D}", source));
        assert!(!occurs_verbatim("strike price is $26.00", source));
        assert!(!occurs_verbatim("", source));
        assert!(!occurs_verbatim("  .  ", source));
    }
}
