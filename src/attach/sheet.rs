//! Spreadsheets (`.xlsx`, `.xls`, `.ods`) as one part per row, each value named by
//! its column's header: "Region: West; Q1 revenue: 1200; Owner: Dana". A row read
//! alone then still says what each of its numbers is, which is what retrieval, the
//! reader and a citation `[budget.xlsx, Sheet1, row 14]` need.
//!
//! The header is the first row with two or more distinct values (a title merged
//! across the columns above it is not one). Merged cells give their value to every
//! cell they cover, so a group header merged over two columns ("Q1" over "Revenue"
//! and "Cost") names both, and the row under it joins in: "Q1 Revenue", "Q1 Cost".

use crate::attach::located::{check_zip, Deadline, LocatedPart, LocatedText, OfficeLimits};
use crate::attach::pdf::PdfStatus;
use calamine::{open_workbook_auto_from_rs, Data, Dimensions, Reader, Sheets};
use std::io::Cursor;

/// Header rows at most: a group header and up to two rows under it.
const MAX_HEADER_ROWS: usize = 3;

/// How a sheet's header row is written: "Columns: " and its column names. It names
/// what the rows hold and states nothing itself.
pub const COLUMNS: &str = "Columns: ";

/// Reads every sheet of a workbook. Never panics on the file's account (calamine
/// runs under the caller's `catch_unwind` as well).
pub fn extract_sheets(bytes: &[u8], limits: &OfficeLimits) -> LocatedText {
    if bytes.len() > limits.max_bytes {
        return LocatedText::failed(PdfStatus::TooLarge {
            bytes: bytes.len(),
            limit: limits.max_bytes,
        });
    }
    if bytes.starts_with(b"PK") {
        if let Err(status) = check_zip(bytes, limits) {
            return LocatedText::failed(status);
        }
    }
    let deadline = Deadline::after(limits.timeout);
    let mut book = match open_workbook_auto_from_rs(Cursor::new(bytes)) {
        Ok(book) => book,
        Err(e) => {
            return LocatedText::failed(PdfStatus::Corrupt(format!(
                "not a readable spreadsheet: {e}"
            )))
        }
    };
    let names = book.sheet_names();
    let mut out = LocatedText {
        parts: Vec::new(),
        units: names.len() as u32,
        status: PdfStatus::Ok,
    };
    let mut failed = Vec::new();
    for (i, name) in names.iter().enumerate() {
        if deadline.passed() {
            out.status = PdfStatus::Timeout;
            return out;
        }
        let Ok(range) = book.worksheet_range(name) else {
            failed.push(i as u32 + 1);
            continue;
        };
        let merges = merged_cells(&mut book, name);
        let grid = Grid::new(&range, &merges);
        for part in grid.parts(name) {
            if out.parts.len() >= limits.max_parts {
                out.status = PdfStatus::TooManyPages {
                    pages: out.parts.len() as u32 + 1,
                    limit: limits.max_parts as u32,
                };
                return out;
            }
            out.parts.push(part);
        }
    }
    if !failed.is_empty() {
        out.status = if failed.len() == names.len() {
            PdfStatus::Corrupt("no sheet could be read".into())
        } else {
            PdfStatus::Partial {
                failed_pages: failed,
            }
        };
    }
    out
}

/// The merged regions of a sheet, where the format keeps them.
fn merged_cells(book: &mut Sheets<Cursor<&[u8]>>, name: &str) -> Vec<Dimensions> {
    match book {
        Sheets::Xlsx(x) => x.merge_cells_by_sheet_name(name).unwrap_or_default(),
        Sheets::Xls(x) => x.merge_cells_by_sheet_name(name).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// A sheet's cells as text, merged values filled in, with the sheet's origin.
struct Grid {
    rows: Vec<Vec<String>>,
    /// Absolute row and column of `rows[0][0]`.
    origin: (u32, u32),
    /// Merged regions by grid row: (first row, last row, spans several columns).
    merges: Vec<(usize, usize, bool)>,
}

impl Grid {
    fn new(range: &calamine::Range<Data>, merges: &[Dimensions]) -> Self {
        let origin = range.start().unwrap_or((0, 0));
        let mut rows: Vec<Vec<String>> = range
            .rows()
            .map(|row| row.iter().map(cell_text).collect())
            .collect();
        let mut spans = Vec::new();
        for m in merges {
            let (Some(r0), Some(c0)) = (
                m.start.0.checked_sub(origin.0),
                m.start.1.checked_sub(origin.1),
            ) else {
                continue;
            };
            let (r0, c0) = (r0 as usize, c0 as usize);
            let r1 = m.end.0.saturating_sub(origin.0) as usize;
            let c1 = m.end.1.saturating_sub(origin.1) as usize;
            spans.push((r0, r1.max(r0), c1 > c0));
            let Some(value) = rows.get(r0).and_then(|r| r.get(c0)).cloned() else {
                continue;
            };
            for row in rows.iter_mut().take(r1 + 1).skip(r0) {
                for cell in row.iter_mut().take(c1 + 1).skip(c0) {
                    if cell.is_empty() {
                        cell.clone_from(&value);
                    }
                }
            }
        }
        Grid {
            rows,
            origin,
            merges: spans,
        }
    }

    /// Every non-empty row as a part: rows above the header as they are, the
    /// header's own rows as a list of the columns, each row under it as named values.
    fn parts(&self, sheet: &str) -> Vec<LocatedPart> {
        let mut out = Vec::new();
        let Some(first) = self
            .rows
            .iter()
            .position(|r| r.iter().any(|c| !c.is_empty()))
        else {
            return out;
        };
        let header = (first..self.rows.len())
            .find(|&r| distinct_values(&self.rows[r]) >= 2)
            .unwrap_or(first);
        let last_header = self.header_end(header);
        let names = self.column_names(header, last_header);
        for (r, row) in self.rows.iter().enumerate() {
            let cells: Vec<(usize, &String)> = row
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.is_empty())
                .collect();
            if cells.is_empty() || (r > header && r <= last_header) {
                continue;
            }
            let text = if r < header {
                unique(cells.iter().map(|(_, c)| c.as_str())).join("; ")
            } else if r == header {
                format!("{COLUMNS}{}", names.join("; "))
            } else {
                cells
                    .iter()
                    .map(|(c, v)| format!("{}: {v}", names[*c]))
                    .collect::<Vec<_>>()
                    .join("; ")
            };
            out.push(LocatedPart {
                place: format!("{sheet}, row {}", self.origin.0 as usize + r + 1),
                text,
            });
        }
        out
    }

    /// The last row of the header that starts at `header`: a group header merged
    /// across columns has the row under it; a header cell merged down spans its rows.
    fn header_end(&self, header: usize) -> usize {
        let mut end = header;
        loop {
            let mut next = end;
            for &(r0, r1, across) in &self.merges {
                if (header..=end).contains(&r0) {
                    next = next.max(r1);
                    if across {
                        next = next.max(r0 + 1);
                    }
                }
            }
            next = next
                .min(header + MAX_HEADER_ROWS - 1)
                .min(self.rows.len().saturating_sub(1));
            if next == end {
                return end;
            }
            end = next;
        }
    }

    /// Each column's name: its header cells top to bottom, repeats dropped; a
    /// column without one is named by its letter.
    fn column_names(&self, header: usize, last: usize) -> Vec<String> {
        let width = self.rows.iter().map(Vec::len).max().unwrap_or(0);
        (0..width)
            .map(|c| {
                let cells = self.rows[header..=last]
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(String::as_str)
                    .filter(|v| !v.is_empty());
                let name = unique(cells).join(" ");
                if name.is_empty() {
                    format!("column {}", column_letters(self.origin.1 as usize + c))
                } else {
                    name
                }
            })
            .collect()
    }
}

fn distinct_values(row: &[String]) -> usize {
    unique(row.iter().map(String::as_str).filter(|c| !c.is_empty())).len()
}

/// Values in order with repeats dropped.
fn unique<'a>(values: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// `A`, `B`, ... `Z`, `AA`: a column as the spreadsheet names it.
fn column_letters(mut index: usize) -> String {
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (index % 26) as u8);
        if index < 26 {
            break;
        }
        index = index / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// A cell as the spreadsheet shows it, near enough: whole numbers without a
/// fraction, dates as ISO dates, text with its whitespace collapsed.
fn cell_text(cell: &Data) -> String {
    match cell {
        Data::Empty => String::new(),
        Data::Int(i) => i.to_string(),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        Data::Float(f) => f.to_string(),
        Data::String(s) => s.split_whitespace().collect::<Vec<_>>().join(" "),
        Data::Bool(b) => if *b { "TRUE" } else { "FALSE" }.to_string(),
        Data::DateTime(d) => match d.as_datetime() {
            Some(t) if t.time() == chrono::NaiveTime::MIN => t.format("%Y-%m-%d").to_string(),
            Some(t) => t.format("%Y-%m-%d %H:%M").to_string(),
            None => d.as_f64().to_string(),
        },
        Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
        Data::Error(e) => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&[&str]], merges: Vec<(usize, usize, bool)>) -> Grid {
        Grid {
            rows: rows
                .iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect(),
            origin: (0, 0),
            merges,
        }
    }

    #[test]
    fn a_title_above_the_header_is_its_own_part_and_rows_name_their_values() {
        let g = grid(
            &[
                &["Field trip costs", "Field trip costs"],
                &["Item", "Cost"],
                &["Bus", "310"],
                &["", ""],
                &["Lunch", ""],
            ],
            vec![(0, 0, true)],
        );
        let parts = g.parts("Trips");
        let texts: Vec<(&str, &str)> = parts
            .iter()
            .map(|p| (p.place.as_str(), p.text.as_str()))
            .collect();
        assert_eq!(
            texts,
            vec![
                ("Trips, row 1", "Field trip costs"),
                ("Trips, row 2", "Columns: Item; Cost"),
                ("Trips, row 3", "Item: Bus; Cost: 310"),
                ("Trips, row 5", "Item: Lunch"),
            ]
        );
    }

    #[test]
    fn a_group_header_names_the_columns_under_it() {
        // "Spring" merged over two columns, with "Fee" and "Seats" under it.
        let g = grid(
            &[
                &["Course", "Spring", "Spring"],
                &["Course", "Fee", "Seats"],
                &["Pottery", "85", "12"],
            ],
            vec![(0, 0, true), (0, 1, false)],
        );
        let parts = g.parts("S");
        assert_eq!(parts[0].text, "Columns: Course; Spring Fee; Spring Seats");
        assert_eq!(parts[1].place, "S, row 3");
        assert_eq!(
            parts[1].text,
            "Course: Pottery; Spring Fee: 85; Spring Seats: 12"
        );
    }

    #[test]
    fn columns_without_a_header_are_named_by_letter() {
        assert_eq!(column_letters(0), "A");
        assert_eq!(column_letters(25), "Z");
        assert_eq!(column_letters(26), "AA");
        assert_eq!(column_letters(27 * 26), "AAA");
        let g = grid(&[&["Name", "", "Age"], &["Ines", "x", "41"]], vec![]);
        assert_eq!(g.parts("S")[1].text, "Name: Ines; column B: x; Age: 41");
    }

    #[test]
    fn damaged_and_oversized_files_are_refused_with_a_reason() {
        let limits = OfficeLimits::default();
        let junk = extract_sheets(b"PK\x03\x04 not really a zip", &limits);
        assert!(
            matches!(junk.status, PdfStatus::Corrupt(_)),
            "{:?}",
            junk.status
        );
        let small = OfficeLimits {
            max_bytes: 4,
            ..OfficeLimits::default()
        };
        let big = extract_sheets(b"0123456789", &small);
        assert!(matches!(big.status, PdfStatus::TooLarge { .. }));
    }
}
