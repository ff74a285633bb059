//! Reading a keymap file: the TOML shape, checked entry by entry, every problem
//! reported with the line and column where it is.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use super::{InvalidReason, KeymapError, Mode};
use crate::tui::command::{Command, CommandParseError};
use crate::tui::key::{Key, KeySeq};

/// A checked entry of a keymap file, ready to apply.
pub(super) struct Entry {
    pub(super) mode: Mode,
    pub(super) keys: KeySeq,
    pub(super) command: Command,
    pub(super) desc: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMode {
    #[serde(default)]
    keymap: Vec<RawBinding>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBinding {
    on: Spanned<RawKeys>,
    run: Spanned<String>,
    #[serde(default)]
    desc: Option<String>,
}

/// `on` is either one key (`on = "j"`) or a list (`on = ["g", "g"]`); list items keep
/// their own spans so a bad key is reported where it is.
enum RawKeys {
    One(String),
    Many(Vec<Spanned<String>>),
}

impl<'de> Deserialize<'de> for RawKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeysVisitor;

        impl<'de> Visitor<'de> for KeysVisitor {
            type Value = RawKeys;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key or a list of keys, e.g. [\"g\", \"g\"]")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawKeys, E> {
                Ok(RawKeys::One(v.to_string()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawKeys, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = seq.next_element::<Spanned<String>>()? {
                    keys.push(k);
                }
                Ok(RawKeys::Many(keys))
            }
        }

        deserializer.deserialize_any(KeysVisitor)
    }
}

/// Maps byte offsets of one source text to 1-based line and column.
struct Locator<'a> {
    src: &'a str,
    origin: &'a str,
}

impl Locator<'_> {
    fn position(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.src.len());
        while !self.src.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &self.src[..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        (line, column)
    }

    fn error(&self, span: Range<usize>, reason: InvalidReason) -> KeymapError {
        let (line, column) = self.position(span.start);
        KeymapError::Invalid {
            origin: self.origin.to_string(),
            line,
            column,
            reason,
        }
    }
}

pub(super) fn parse_entries(src: &str, origin: &str) -> Result<Vec<Entry>, KeymapError> {
    let loc = Locator { src, origin };
    let raw: BTreeMap<Spanned<String>, RawMode> = toml::from_str(src).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        // toml's messages may span lines; keep the report on one line per error.
        let message = e.message().trim().lines().collect::<Vec<_>>().join("; ");
        loc.error(span, InvalidReason::Toml(message))
    })?;

    // Check modes in file order so the first error reported is the first in the file.
    let mut tables: Vec<(Spanned<String>, RawMode)> = raw.into_iter().collect();
    tables.sort_by_key(|(name, _)| name.span().start);

    let mut entries = Vec::new();
    for (name, table) in tables {
        let mode: Mode = name
            .get_ref()
            .parse()
            .map_err(|m| loc.error(name.span(), InvalidReason::UnknownMode(m)))?;
        let mut seen: BTreeMap<KeySeq, usize> = BTreeMap::new();
        for raw in table.keymap {
            let on_span = raw.on.span();
            let keys = match raw.on.into_inner() {
                RawKeys::One(s) => vec![s
                    .parse::<Key>()
                    .map_err(|e| loc.error(on_span.clone(), e.into()))?],
                RawKeys::Many(list) => list
                    .into_iter()
                    .map(|s| {
                        s.get_ref()
                            .parse::<Key>()
                            .map_err(|e| loc.error(s.span(), e.into()))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            };
            if keys.is_empty() {
                return Err(loc.error(on_span, InvalidReason::EmptySequence));
            }
            let keys = KeySeq(keys);
            let command: Command = raw
                .run
                .get_ref()
                .parse()
                .map_err(|e: CommandParseError| loc.error(raw.run.span(), e.into()))?;
            let line = loc.position(on_span.start).0;
            if let Some(first_line) = seen.insert(keys.clone(), line) {
                return Err(loc.error(
                    on_span,
                    InvalidReason::Duplicate {
                        keys: keys.to_string(),
                        mode,
                        first_line,
                    },
                ));
            }
            entries.push(Entry {
                mode,
                keys,
                command,
                desc: raw.desc,
            });
        }
    }
    Ok(entries)
}
