//! The demo mailbox's messages whose facts are only in office attachments: a
//! spreadsheet and an invitation, generated here so that the committed files can
//! be checked against their source.

/// The demo mailbox's headcount plan: facts that only its sheet states.
pub fn demo_headcount_plan() -> Vec<u8> {
    use rust_xlsxwriter::{DocProperties, ExcelDateTime, Format, Workbook};
    let mut book = Workbook::new();
    let created = ExcelDateTime::from_ymd(2024, 3, 26).expect("date");
    book.set_properties(&DocProperties::new().set_creation_datetime(&created));
    let hires = book.add_worksheet();
    hires.set_name("Hires").expect("name");
    hires
        .merge_range(0, 0, 0, 3, "Headcount plan 2024", &Format::new())
        .expect("title");
    let rows: [(&str, &str, &str, f64); 3] = [
        ("Data engineer", "Analytics", "Q2", 148_000.0),
        ("Support analyst", "Customer success", "Q3", 72_000.0),
        ("Security engineer", "IT", "Q3", 156_000.0),
    ];
    for (c, h) in ["Role", "Team", "Quarter", "Salary budget"]
        .iter()
        .enumerate()
    {
        hires.write_string(1, c as u16, *h).expect("header");
    }
    for (r, (role, team, quarter, budget)) in rows.iter().enumerate() {
        let r = r as u32 + 2;
        hires.write_string(r, 0, *role).expect("cell");
        hires.write_string(r, 1, *team).expect("cell");
        hires.write_string(r, 2, *quarter).expect("cell");
        hires.write_number(r, 3, *budget).expect("cell");
    }
    let notes = book.add_worksheet();
    notes.set_name("Notes").expect("name");
    for (r, (item, detail)) in [
        ("Item", "Detail"),
        ("Recruiter", "Talentbridge, 18% of first-year salary"),
    ]
    .iter()
    .enumerate()
    {
        notes.write_string(r as u32, 0, *item).expect("cell");
        notes.write_string(r as u32, 1, *detail).expect("cell");
    }
    book.save_to_buffer().expect("xlsx")
}

pub const DEMO_SHEET_MAIL: &str = "Message-ID: <20240326101500.7f3a2c9e41@northwind.example>\n\
    Date: Tue, 26 Mar 2024 10:15:00 -0400\n\
    From: Marcus Lee <marcus.lee@northwind.example>\n\
    To: Alex Morgan <alex@northwind.example>\n\
    Subject: Headcount plan for Q2 and Q3\n\
    MIME-Version: 1.0\n\
    Content-Type: text/plain; charset=utf-8\n\
    Content-Transfer-Encoding: 7bit\n\
    \n\
    Alex,\n\
    \n\
    Here is the headcount plan we talked about; the numbers are in the sheet.\n\
    \n\
    Marcus\n";

pub const DEMO_INVITE_MAIL: &str = "Message-ID: <20240327090000.2b6d8e1f07@northwind.example>\r\n\
    Date: Wed, 27 Mar 2024 09:00:00 -0400\r\n\
    From: Priya Natarajan <priya.natarajan@northwind.example>\r\n\
    To: Alex Morgan <alex@northwind.example>\r\n\
    Subject: Invitation: Q2 all-hands\r\n\
    MIME-Version: 1.0\r\n\
    Content-Type: multipart/alternative; boundary=\"=_invite_3c81\"\r\n\
    \r\n\
    --=_invite_3c81\r\n\
    Content-Type: text/plain; charset=utf-8\r\n\
    \r\n\
    Priya Natarajan has invited you to an event.\r\n\
    --=_invite_3c81\r\n\
    Content-Type: text/calendar; charset=utf-8; method=REQUEST\r\n\
    \r\n\
    BEGIN:VCALENDAR\r\n\
    VERSION:2.0\r\n\
    PRODID:-//Northwind//Calendar//EN\r\n\
    METHOD:REQUEST\r\n\
    BEGIN:VEVENT\r\n\
    UID:q2-all-hands-2024@northwind.example\r\n\
    SEQUENCE:0\r\n\
    DTSTAMP:20240327130000Z\r\n\
    DTSTART;TZID=America/New_York:20240411T150000\r\n\
    DTEND;TZID=America/New_York:20240411T160000\r\n\
    SUMMARY:Q2 all-hands\r\n\
    LOCATION:Harbor Room\\, third floor\r\n\
    ORGANIZER;CN=Priya Natarajan:mailto:priya.natarajan@northwind.example\r\n\
    ATTENDEE;CN=Alex Morgan;PARTSTAT=NEEDS-ACTION:mailto:alex@northwind.example\r\n\
    DESCRIPTION:Agenda: first-quarter results\\, the new office lease and hiring.\r\n\
    END:VEVENT\r\n\
    END:VCALENDAR\r\n\
    --=_invite_3c81--\r\n";
