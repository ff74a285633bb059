//! Office files and invitations end to end through the real engine: invented mail
//! carrying a spreadsheet (several sheets, merged header cells), an OpenDocument
//! spreadsheet, a Word and an OpenDocument text, two invitations with an update and
//! a cancellation, and a damaged file of each kind is ingested into sled and tantivy,
//! the attachment jobs and the embedding run, and questions are answered with
//! citations by sheet and row, by paragraph, and by event.

mod common;
mod support {
    pub mod office_mail;
    pub mod pdf_mail;
}

use common::{ask, embed_all, ingest, models, open};
use quoth::attach::PdfLimits;
use quoth::engine::{AskOutcome, Engine};
use std::io::Write;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use support::office_mail::{demo_headcount_plan, DEMO_INVITE_MAIL, DEMO_SHEET_MAIL};
use support::pdf_mail::attach_to_message;

/// A plain message from the studio, to carry attachments.
fn message(n: u32, from: &str, subject: &str, date: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\nTo: Members <members@clayworks.example>\nSubject: {subject}\n\
         Date: {date}\nMessage-ID: <office-{n}@clayworks.example>\n\
         Content-Type: text/plain; charset=us-ascii\n\n{body}\n"
    )
    .into_bytes()
}

/// A zip archive of (name, text) members.
fn zipped(members: &[(&str, &str)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default();
    for (name, text) in members {
        zip.start_file(*name, options).expect("zip member");
        zip.write_all(text.as_bytes()).expect("zip write");
    }
    zip.finish().expect("zip finish").into_inner()
}

/// A workbook with a title merged over its columns, a group header merged over two
/// columns with a header merged down beside it, and a second sheet.
fn course_workbook() -> Vec<u8> {
    use rust_xlsxwriter::{Format, Workbook};
    let mut book = Workbook::new();
    let plain = Format::new();
    let courses = book.add_worksheet();
    courses.set_name("Courses").expect("name");
    courses
        .merge_range(0, 0, 0, 2, "Clayworks courses", &plain)
        .expect("title");
    courses
        .merge_range(1, 0, 2, 0, "Course", &plain)
        .expect("course");
    courses
        .merge_range(1, 1, 1, 2, "Spring", &plain)
        .expect("spring");
    courses.write_string(2, 1, "Fee").expect("fee");
    courses.write_string(2, 2, "Seats").expect("seats");
    for (row, (name, fee, seats)) in [("Pottery", 85.0, 12.0), ("Weaving", 120.0, 8.0)]
        .into_iter()
        .enumerate()
    {
        let r = 3 + row as u32;
        courses.write_string(r, 0, name).expect("cell");
        courses.write_number(r, 1, fee).expect("cell");
        courses.write_number(r, 2, seats).expect("cell");
    }
    let rooms = book.add_worksheet();
    rooms.set_name("Rooms").expect("name");
    for (r, cells) in [
        ["Course", "Room", "Day"],
        ["Pottery", "Studio 2", "Tuesday"],
        ["Weaving", "Loom room", "Thursday"],
    ]
    .iter()
    .enumerate()
    {
        for (c, v) in cells.iter().enumerate() {
            rooms.write_string(r as u32, c as u16, *v).expect("cell");
        }
    }
    book.save_to_buffer().expect("xlsx")
}

fn stock_ods() -> Vec<u8> {
    let row = |cells: &[&str]| {
        let cells: String = cells
            .iter()
            .map(|c| {
                format!(
                    "<table:table-cell office:value-type=\"string\"><text:p>{c}</text:p></table:table-cell>"
                )
            })
            .collect();
        format!("<table:table-row>{cells}</table:table-row>")
    };
    let content = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
         xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" \
         xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\">\
         <office:body><office:spreadsheet><table:table table:name=\"Stock\">{}{}</table:table>\
         </office:spreadsheet></office:body></office:document-content>",
        row(&["Material", "Bags left"]),
        row(&["Stoneware clay", "36"]),
    );
    zipped(&[
        ("mimetype", "application/vnd.oasis.opendocument.spreadsheet"),
        (
            "META-INF/manifest.xml",
            &manifest("application/vnd.oasis.opendocument.spreadsheet"),
        ),
        ("content.xml", &content),
    ])
}

fn minutes_docx(paragraphs: &[&str]) -> Vec<u8> {
    let body: String = paragraphs
        .iter()
        .map(|p| format!("<w:p><w:r><w:t xml:space=\"preserve\">{p}</w:t></w:r></w:p>"))
        .collect();
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document \
         xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>{body}</w:body></w:document>"
    );
    zipped(&[("word/document.xml", &xml)])
}

fn notes_odt(paragraphs: &[&str]) -> Vec<u8> {
    let body: String = paragraphs
        .iter()
        .map(|p| format!("<text:p>{p}</text:p>"))
        .collect();
    let xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content \
         xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
         xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\">\
         <office:body><office:text>{body}</office:text></office:body></office:document-content>"
    );
    zipped(&[
        ("mimetype", "application/vnd.oasis.opendocument.text"),
        (
            "META-INF/manifest.xml",
            &manifest("application/vnd.oasis.opendocument.text"),
        ),
        ("content.xml", &xml),
    ])
}

/// An OpenDocument package's manifest.
fn manifest(mime: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><manifest:manifest \
         xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" manifest:version=\"1.2\">\
         <manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"{mime}\"/>\
         <manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>\
         </manifest:manifest>"
    )
}

/// An invitation as calendar programs send it: a text part and the `text/calendar`
/// part side by side in multipart/alternative, no file name.
fn invitation(n: u32, subject: &str, date: &str, method: &str, event: &str) -> Vec<u8> {
    let calendar = format!(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Clayworks//Calendar//EN\r\nMETHOD:{method}\r\n\
         BEGIN:VEVENT\r\n{event}ORGANIZER;CN=Noor Haddad:mailto:noor@clayworks.example\r\n\
         ATTENDEE;CN=Ines Prado;PARTSTAT=NEEDS-ACTION:mailto:ines@clayworks.example\r\n\
         END:VEVENT\r\nEND:VCALENDAR\r\n"
    );
    format!(
        "From: Noor Haddad <noor@clayworks.example>\r\nTo: Ines Prado <ines@clayworks.example>\r\n\
         Subject: {subject}\r\nDate: {date}\r\nMessage-ID: <invite-{n}@clayworks.example>\r\n\
         MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"inv\"\r\n\r\n\
         --inv\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nYou have been invited.\r\n\
         --inv\r\nContent-Type: text/calendar; charset=utf-8; method={method}\r\n\r\n{calendar}\
         --inv--\r\n"
    )
    .into_bytes()
}

const GLAZE_FIRST: &str = "UID:glaze-workshop-1@clayworks.example\r\nSEQUENCE:0\r\n\
    DTSTAMP:20250301T100000Z\r\nDTSTART:20250306T100000Z\r\nDTEND:20250306T120000Z\r\n\
    SUMMARY:Glaze workshop\r\nLOCATION:Studio 2\r\n";
const GLAZE_MOVED: &str = "UID:glaze-workshop-1@clayworks.example\r\nSEQUENCE:1\r\n\
    DTSTAMP:20250303T080000Z\r\nDTSTART:20250307T140000Z\r\nDTEND:20250307T160000Z\r\n\
    SUMMARY:Glaze workshop\r\nLOCATION:Studio 3\r\n";
const RAKU: &str = "UID:raku-firing-7@clayworks.example\r\nSEQUENCE:0\r\n\
    DTSTAMP:20250301T100000Z\r\nDTSTART:20250315T090000Z\r\nDTEND:20250315T150000Z\r\n\
    SUMMARY:Raku firing\r\nLOCATION:Back yard kiln\r\n";
const RAKU_CANCELLED: &str = "UID:raku-firing-7@clayworks.example\r\nSEQUENCE:1\r\n\
    DTSTAMP:20250304T080000Z\r\nDTSTART:20250315T090000Z\r\nDTEND:20250315T150000Z\r\n\
    SUMMARY:Raku firing\r\nLOCATION:Back yard kiln\r\nSTATUS:CANCELLED\r\n";

struct Fixture {
    tmp: tempfile::TempDir,
    engine: Engine,
}

fn fixture() -> Option<Fixture> {
    let models = models()?;
    std::env::set_var("QUOTH_MODELS_DIR", &models);
    let tmp = tempfile::tempdir().expect("tempdir");
    let maildir = tmp.path().join("mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    const DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    let noor = "Noor Haddad <noor@clayworks.example>";
    let mails: Vec<Vec<u8>> = vec![
        attach_to_message(
            &message(
                1,
                noor,
                "Course sheet for the new term",
                "Mon, 3 Feb 2025 09:00:00 +0000",
                "The course sheet is attached.",
            ),
            &[("fees.xlsx", XLSX, &course_workbook())],
        ),
        attach_to_message(
            &message(
                2,
                noor,
                "Stock count",
                "Tue, 4 Feb 2025 09:00:00 +0000",
                "This week's stock count.",
            ),
            &[("stock.ods", "application/octet-stream", &stock_ods())],
        ),
        attach_to_message(
            &message(
                3,
                noor,
                "Minutes of the studio meeting",
                "Wed, 5 Feb 2025 09:00:00 +0000",
                "Minutes attached.",
            ),
            &[(
                "minutes.docx",
                DOCX,
                &minutes_docx(&[
                    "Studio meeting minutes",
                    "The committee approved a kiln budget of 2,400 euros.",
                    "Ines Prado will order the new shelves before April.",
                ]),
            )],
        ),
        attach_to_message(
            &message(
                4,
                "Ines Prado <ines@clayworks.example>",
                "Glaze notes",
                "Thu, 6 Feb 2025 09:00:00 +0000",
                "My notes from the test tiles.",
            ),
            &[(
                "glaze-notes.odt",
                "application/vnd.oasis.opendocument.text",
                &notes_odt(&["Glaze notes", "The celadon glaze fires best at cone 10."]),
            )],
        ),
        invitation(
            5,
            "Invitation: Glaze workshop",
            "Sat, 1 Mar 2025 10:00:00 +0000",
            "REQUEST",
            GLAZE_FIRST,
        ),
        invitation(
            6,
            "Updated invitation: Glaze workshop",
            "Mon, 3 Mar 2025 08:00:00 +0000",
            "REQUEST",
            GLAZE_MOVED,
        ),
        invitation(
            7,
            "Invitation: Raku firing",
            "Sat, 1 Mar 2025 10:05:00 +0000",
            "REQUEST",
            RAKU,
        ),
        invitation(
            8,
            "Cancelled: Raku firing",
            "Tue, 4 Mar 2025 08:00:00 +0000",
            "CANCEL",
            RAKU_CANCELLED,
        ),
        attach_to_message(
            &message(
                9,
                noor,
                "Files from the old laptop",
                "Fri, 7 Feb 2025 09:00:00 +0000",
                "Here are the files from the old laptop.",
            ),
            &[
                ("old-budget.xlsx", XLSX, b"PK\x03\x04 truncated"),
                (
                    "old-minutes.docx",
                    DOCX,
                    &zipped(&[("word/other.xml", "<x/>")]),
                ),
                (
                    "old-stock.ods",
                    "application/vnd.oasis.opendocument.spreadsheet",
                    b"\x00\x01 not a spreadsheet",
                ),
                (
                    "old-invite.ics",
                    "text/calendar",
                    b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:cut",
                ),
            ],
        ),
    ];
    for (n, raw) in mails.iter().enumerate() {
        std::fs::write(maildir.join(format!("cur/{n}.test:2,S")), raw).expect("write");
    }
    let mut engine = open(&tmp.path().join("data"));
    let report = ingest(&mut engine, &[maildir]);
    assert_eq!(report.added, mails.len(), "{report:?}");
    let attach = engine
        .extract_attachments(&PdfLimits::default(), &AtomicBool::new(false), &mut |_| {})
        .expect("attachment jobs run");
    // Damaged files are read to a status, not failed jobs: the ingest goes on.
    assert_eq!(attach.failed, 0, "{attach:?}");
    assert_eq!(attach.extracted, 12, "{attach:?}");
    embed_all(&mut engine);
    Some(Fixture { tmp, engine })
}

/// The first citation's file and place, and the answer's text.
fn cited(out: &AskOutcome) -> (Option<String>, Option<String>, String) {
    let first = out.citations.first();
    (
        first.and_then(|c| c.attachment.clone()),
        first.and_then(|c| c.place.clone()),
        said(out),
    )
}

/// The answer's text, or the abstention.
fn said(out: &AskOutcome) -> String {
    out.answer
        .clone()
        .unwrap_or_else(|| "(I don't know)".to_string())
}

#[test]
fn office_files_and_invitations_are_read_cited_and_quarantined() {
    let Some(fx) = fixture() else { return };
    let engine = &fx.engine;

    // A value under a group header merged over two columns, on the first sheet.
    let (file, place, answer) = cited(&ask(engine, "What does the weaving course cost in spring?"));
    assert_eq!(file.as_deref(), Some("fees.xlsx"), "{answer}");
    assert_eq!(place.as_deref(), Some("Courses, row 5"), "{answer}");
    assert!(answer.contains("Spring Fee: 120"), "{answer}");

    // Of two rows the trees find alike, the one whose values the question names.
    let (_, place, answer) = cited(&ask(
        engine,
        "How many seats are there in the pottery course?",
    ));
    assert_eq!(place.as_deref(), Some("Courses, row 4"), "{answer}");
    assert!(answer.starts_with("12 — "), "{answer}");

    // A row answers only a question that names its field or one of its values.
    let out = ask(engine, "Who is the studio's accountant?");
    assert!(
        out.citations.iter().all(|c| c.place.is_none()),
        "{}",
        said(&out)
    );

    // The second sheet.
    let (file, place, answer) = cited(&ask(engine, "Which room is the weaving class held in?"));
    assert_eq!(file.as_deref(), Some("fees.xlsx"), "{answer}");
    assert_eq!(place.as_deref(), Some("Rooms, row 3"), "{answer}");
    assert!(answer.contains("Loom room"), "{answer}");

    // An OpenDocument spreadsheet that arrived as a bare octet stream.
    let (file, place, answer) = cited(&ask(
        engine,
        "How many bags of stoneware clay do we have left?",
    ));
    assert_eq!(file.as_deref(), Some("stock.ods"), "{answer}");
    assert_eq!(place.as_deref(), Some("Stock, row 2"), "{answer}");
    assert!(answer.contains("36"), "{answer}");

    // Documents are cited by paragraph.
    let (file, place, answer) = cited(&ask(
        engine,
        "How much money did the committee approve for the kiln?",
    ));
    assert_eq!(file.as_deref(), Some("minutes.docx"), "{answer}");
    assert_eq!(place.as_deref(), Some("paragraph 2"), "{answer}");
    assert!(answer.contains("2,400 euros"), "{answer}");
    let (file, place, answer) = cited(&ask(engine, "What cone should celadon be fired to?"));
    assert_eq!(file.as_deref(), Some("glaze-notes.odt"), "{answer}");
    assert_eq!(place.as_deref(), Some("paragraph 2"), "{answer}");

    // An updated invitation: the latest version answers, the first is superseded.
    let out = ask(engine, "When is the glaze workshop?");
    let first = out.citations.first().expect("a citation");
    assert_eq!(
        first.message_id.as_deref(),
        Some("invite-6@clayworks.example"),
        "{}",
        said(&out)
    );
    assert_eq!(first.place.as_deref(), Some("event"));
    assert!(
        said(&out).contains("Friday 7 March 2025, 14:00"),
        "{}",
        said(&out)
    );
    assert!(
        out.citations
            .iter()
            .any(|c| c.superseded && c.message_id.as_deref() == Some("invite-5@clayworks.example")),
        "{}\n{:?}",
        said(&out),
        out.citations
    );

    // A "where" question is answered by the card's place, never by its time nor by
    // the earlier version.
    let out = ask(engine, "Where is the glaze workshop?");
    assert!(said(&out).starts_with("Studio 3 — "), "{}", said(&out));
    assert!(!said(&out).contains("When:"), "{}", said(&out));

    // What no invitation says is not answered from one.
    let out = ask(engine, "Which hotel is booked for the glaze workshop?");
    assert!(out.answer.is_none(), "{}", said(&out));

    // A cancelled event is answered from its cancellation.
    let out = ask(engine, "When is the raku firing?");
    let first = out.citations.first().expect("a citation");
    assert_eq!(
        first.message_id.as_deref(),
        Some("invite-8@clayworks.example"),
        "{}",
        said(&out)
    );
    assert!(said(&out).contains("cancelled"), "{}", said(&out));

    // Each damaged file is quarantined with its reason; its message is kept and found.
    let hits = engine.search("laptop", 5, 0).expect("search runs");
    assert!(!hits.is_empty());
    let data = fx.tmp.path().join("data");
    drop(fx.engine);
    let out = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .env("QUOTH_INLINE", "1")
        .arg("--data-dir")
        .arg(&data)
        .args(["quarantine", "--json"])
        .output()
        .expect("quoth runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let entries = list.as_array().expect("a list");
    for (name, says) in [
        ("old-budget.xlsx", "spreadsheet is damaged"),
        ("old-minutes.docx", "no word/document.xml"),
        ("old-stock.ods", "spreadsheet is damaged"),
        ("old-invite.ics", "invitation is damaged"),
    ] {
        let entry = entries
            .iter()
            .find(|e| e["source"].as_str().is_some_and(|s| s.contains(name)))
            .unwrap_or_else(|| panic!("{name} is not quarantined: {list}"));
        assert!(
            entry["reason"].as_str().is_some_and(|r| r.contains(says)),
            "{name}: {entry}"
        );
    }
}

/// The demo mailbox's office messages are what these generators make, and read as
/// the README's demo questions expect.
#[test]
fn demo_office_messages_match_the_generator() {
    const XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
    let root = common::demo_mailbox();
    let sheet = attach_to_message(
        DEMO_SHEET_MAIL.as_bytes(),
        &[("headcount-plan.xlsx", XLSX, &demo_headcount_plan())],
    );
    for (file, eml) in [
        ("inbox/cur/1711462500.45.demo:2,S", sheet),
        (
            "inbox/cur/1711544400.46.demo:2,S",
            DEMO_INVITE_MAIL.as_bytes().to_vec(),
        ),
    ] {
        let path = root.join(file);
        if std::env::var_os("QUOTH_WRITE_DEMO_OFFICE").is_some() {
            std::fs::write(&path, &eml).expect("write demo message");
        }
        let committed = std::fs::read(&path).expect("demo message is committed");
        assert!(committed == eml, "{file} differs from the generator");
    }
    let rows = quoth::attach::sheet::extract_sheets(
        &demo_headcount_plan(),
        &quoth::attach::OfficeLimits::default(),
    );
    let texts: Vec<(&str, &str)> = rows
        .parts
        .iter()
        .map(|p| (p.place.as_str(), p.text.as_str()))
        .collect();
    assert!(
        texts.contains(&(
            "Hires, row 4",
            "Role: Support analyst; Team: Customer success; Quarter: Q3; Salary budget: 72000"
        )),
        "{texts:?}"
    );
}

/// `quoth demo`, as the README runs it, answers each of its questions from the
/// attachment that holds the answer, cited by page, by sheet and row, and by event.
#[test]
fn the_demo_answers_its_questions_from_their_attachments() {
    let Some(models) = models() else { return };
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .env("QUOTH_INLINE", "1")
        .env("QUOTH_MODELS_DIR", &models)
        .env("NO_COLOR", "1")
        .arg("demo")
        .arg("--data-dir")
        .arg(tmp.path().join("data"))
        .output()
        .expect("quoth demo runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Each question's answer, up to the next command the demo prints.
    let answers: Vec<&str> = text.split("$ quoth ask ").skip(1).collect();
    assert_eq!(answers.len(), 3, "{text}");
    for (answer, value, citation) in [
        ("How much", "$18,400", "[vendor-review.pdf, page 3]"),
        (
            "What is the salary",
            "72000",
            "[headcount-plan.xlsx, Hires, row 4]",
        ),
        ("When is", "11 April 2024", "[invite.ics, event]"),
    ]
    .iter()
    .map(|(q, v, c)| {
        let a = answers
            .iter()
            .find(|a| a.trim_start_matches('\'').starts_with(q))
            .unwrap_or_else(|| panic!("no answer to {q}: {text}"));
        (*a, *v, *c)
    }) {
        let said = answer.lines().nth(1).unwrap_or_default();
        assert!(said.contains(value), "{answer}");
        assert!(answer.contains(citation), "{answer}");
        assert!(!answer.contains("I don't know"), "{answer}");
    }
}
