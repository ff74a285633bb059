//! Maildir conventions: `cur/` and `new/` hold messages, `tmp/` is in-flight, and the
//! flags follow `:2,` in the file name (D draft, F flagged, P passed, R replied,
//! S seen, T trashed).

use std::path::Path;

/// True when `dir` looks like a Maildir (has `cur/` or `new/`).
pub fn is_maildir(dir: &Path) -> bool {
    dir.join("cur").is_dir() || dir.join("new").is_dir()
}

/// The flag letters of a Maildir file name, sorted; empty when there are none.
pub fn parse_flags(file_name: &str) -> String {
    // ":2," is the standard separator; ";2," and "!2," are used where ':' is not allowed.
    let Some(info) = [":2,", ";2,", "!2,"]
        .iter()
        .find_map(|sep| file_name.rsplit_once(sep).map(|(_, info)| info))
    else {
        return String::new();
    };
    let mut flags: Vec<char> = info.chars().filter(|c| c.is_ascii_uppercase()).collect();
    flags.sort_unstable();
    flags.dedup();
    flags.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_from_file_names() {
        assert_eq!(parse_flags("1.enron:2,S"), "S");
        assert_eq!(parse_flags("123.host:2,SRF"), "FRS");
        assert_eq!(parse_flags("123.host"), "");
        assert_eq!(parse_flags("123.host:2,"), "");
        assert_eq!(parse_flags("1491941793.M4.mx1,S=10956;2,STln"), "ST");
    }
}
