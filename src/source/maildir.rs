//! Maildir conventions: `cur/` and `new/` hold messages, `tmp/` is in-flight, and the
//! flags follow `:2,` in the file name (D draft, F flagged, P passed, R replied,
//! S seen, T trashed).

use std::path::{Path, PathBuf};

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

/// Where a Maildir message file goes when its flags become `flags` (upper-case
/// letters): the same unique name with the info after `:2,` rewritten, keeping the
/// separator and any lower-case keyword letters, in `cur/` (a message leaves `new/`
/// once a client has seen it). `None` when the file is not in a Maildir's `cur/` or
/// `new/`.
pub fn path_with_flags(path: &Path, flags: &str) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let dir = path.parent()?;
    let sub = dir.file_name()?.to_str()?;
    if sub != "cur" && sub != "new" {
        return None;
    }
    let (unique, sep, keywords) = match [":2,", ";2,", "!2,"]
        .iter()
        .find_map(|sep| name.rsplit_once(sep).map(|(u, info)| (u, *sep, info)))
    {
        Some((u, sep, info)) => (
            u,
            sep,
            info.chars().filter(|c| !c.is_ascii_uppercase()).collect(),
        ),
        None => (name, ":2,", String::new()),
    };
    let mut letters: Vec<char> = flags.chars().filter(|c| c.is_ascii_uppercase()).collect();
    letters.extend(keywords.chars());
    letters.sort_unstable();
    letters.dedup();
    let info: String = letters.into_iter().collect();
    Some(
        dir.parent()?
            .join("cur")
            .join(format!("{unique}{sep}{info}")),
    )
}

/// The file a Maildir message `path` names now, after another client changed its
/// flags or moved it between `new/` and `cur/`: the file of the same unique name in
/// either.
pub fn find_renamed(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let unique = [":2,", ";2,", "!2,"]
        .iter()
        .find_map(|sep| name.rsplit_once(sep).map(|(u, _)| u))
        .unwrap_or(name);
    let folder = path.parent()?.parent()?;
    for sub in ["cur", "new"] {
        let Ok(entries) = std::fs::read_dir(folder.join(sub)) else {
            continue;
        };
        for entry in entries.flatten() {
            let n = entry.file_name();
            let Some(n) = n.to_str() else { continue };
            let same = n == unique
                || [":2,", ";2,", "!2,"].iter().any(|sep| {
                    n.strip_prefix(unique)
                        .is_some_and(|rest| rest.starts_with(sep))
                });
            if same {
                return Some(entry.path());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_flags_rename_within_cur_keeping_the_unique_part() {
        let p = |s: &str| PathBuf::from(s);
        assert_eq!(
            path_with_flags(&p("/m/inbox/cur/12.host:2,S"), "FS"),
            Some(p("/m/inbox/cur/12.host:2,FS"))
        );
        // Out of new/, with the separator a file system without ':' needs, keywords kept.
        assert_eq!(
            path_with_flags(&p("/m/inbox/new/12.host;2,ab"), "S"),
            Some(p("/m/inbox/cur/12.host;2,Sab"))
        );
        assert_eq!(
            path_with_flags(&p("/m/inbox/new/12.host"), ""),
            Some(p("/m/inbox/cur/12.host:2,"))
        );
        assert_eq!(path_with_flags(&p("/m/letters/12.eml"), "S"), None);
        // What a rename writes is what reading the name gives back.
        let renamed = path_with_flags(&p("/m/x/cur/9.h:2,RS"), "SRF").expect("maildir");
        assert_eq!(parse_flags(&renamed.to_string_lossy()), "FRS");
    }

    #[test]
    fn flags_from_file_names() {
        assert_eq!(parse_flags("1.enron:2,S"), "S");
        assert_eq!(parse_flags("123.host:2,SRF"), "FRS");
        assert_eq!(parse_flags("123.host"), "");
        assert_eq!(parse_flags("123.host:2,"), "");
        assert_eq!(parse_flags("1491941793.M4.mx1,S=10956;2,STln"), "ST");
    }
}
