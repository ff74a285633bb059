//! PDF attachments end to end through the real engine: real Enron messages with PDFs
//! attached (generated multi-page documents whose pages carry different facts, a page
//! that is only a picture of text, the 117-page GeoTopo lecture notes and a
//! password-protected document) are ingested into sled and tantivy, the attachment
//! jobs and the embedding run, and questions are answered with page citations.

mod common;
mod support {
    pub mod pdf_mail;
}

use common::{ask, embed_all, ingest, models, open, shared};
use quoth::answer::conversation::Conversation;
use quoth::answer::extract::ExtractiveAnswerer;
use quoth::attach::{OcrEngine, PageSource, PdfLimits};
use quoth::engine::{AskOptions, Engine, RetrieveOptions, SearchMode};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use support::pdf_mail::{attach_to_message, multi_page_pdf, scanned_page_pdf};

const PLAN: &str = "storage-plan.pdf";
const PLAN_PAGES: [&str; 4] = [
    "Storage plan 2001\nThis plan covers the gas storage fields of the northern region.",
    "Injection season\nInjections at the Bammel field start on April 2 at 400 MMcf per day.",
    "Compressor work\nThe Wharton compressor station will be recommissioned on October 14.\n\
     The overhaul budget for Wharton is 3.7 million dollars.",
    "Contacts\nQuestions about the plan go to the storage desk at extension 3-1177.",
];
const SCAN: &str = "inspection-scan.pdf";
const SCAN_TEXT: &str =
    "Keystone terminal inspection\nThe inspectors found eleven corroded valves at Keystone.";
const GEOTOPO: &str = "GeoTopo-komprimiert.pdf";
const LOCKED: &str = "locked-minutes.pdf";

/// Enron messages that receive the attachments, in order.
const CARRIERS: [&str; 4] = [
    "data/enron/maildir/lay-k/inbox/cur/1.enron:2,S",
    "data/enron/maildir/lay-k/inbox/cur/10.enron:2,S",
    "data/enron/maildir/lay-k/inbox/cur/100.enron:2,S",
    "data/enron/maildir/lay-k/inbox/cur/1000.enron:2,S",
];

struct Fixture {
    _tmp: tempfile::TempDir,
    engine: Engine,
    ocr: bool,
}

/// Builds the Maildir, ingests it and runs the attachment and embedding jobs.
fn fixture() -> Option<Fixture> {
    let carriers: Vec<PathBuf> = CARRIERS.iter().map(|c| shared(c)).collect::<Option<_>>()?;
    let geotopo = shared("data/fixtures/pdf-samples/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf")?;
    let locked = shared(
        "data/fixtures/pdf-samples/005-libreoffice-writer-password/libreoffice-writer-password.pdf",
    )?;
    let models = models()?;
    std::env::set_var("QUOTH_MODELS_DIR", &models);

    let tmp = tempfile::tempdir().expect("tempdir");
    let maildir = tmp.path().join("mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let read = |p: &Path| std::fs::read(p).expect("read fixture");
    let plan = multi_page_pdf(&PLAN_PAGES);
    let scan = scanned_page_pdf(SCAN_TEXT);
    let ocr = scan.is_some() && OcrEngine::detect().is_some();
    let notes = b"region,volume\nBammel,400\n".to_vec();
    // (carrier, [(name, type, bytes)])
    type Attachments<'a> = Vec<(&'a str, &'a str, Vec<u8>)>;
    let mut messages: Vec<(usize, Attachments)> = vec![
        (0, vec![(PLAN, "application/pdf", plan)]),
        (
            2,
            vec![(GEOTOPO, "application/octet-stream", read(&geotopo))],
        ),
        (
            3,
            vec![
                (LOCKED, "application/pdf", read(&locked)),
                ("volumes.csv", "text/csv", notes),
            ],
        ),
    ];
    if let Some(scan) = scan {
        messages.push((1, vec![(SCAN, "application/pdf", scan)]));
    } else {
        eprintln!("SKIP (scanned page): pdftoppm is not installed");
    }
    for (n, (carrier, attachments)) in messages.iter().enumerate() {
        let parts: Vec<(&str, &str, &[u8])> = attachments
            .iter()
            .map(|(name, mime, bytes)| (*name, *mime, bytes.as_slice()))
            .collect();
        let eml = attach_to_message(&read(&carriers[*carrier]), &parts);
        std::fs::write(maildir.join(format!("cur/{n}.test:2,S")), eml).expect("write");
    }

    let mut engine = open(&tmp.path().join("data"));
    let report = ingest(&mut engine, &[maildir]);
    assert_eq!(report.added, messages.len(), "{report:?}");
    let limits = PdfLimits {
        ocr: if ocr { OcrEngine::detect() } else { None },
        ..PdfLimits::default()
    };
    let attach = engine
        .extract_attachments(&limits, &AtomicBool::new(false), &mut |_| {})
        .expect("attachment jobs run");
    assert_eq!(attach.failed, 0, "{attach:?}");
    embed_all(&mut engine);
    Some(Fixture {
        _tmp: tmp,
        engine,
        ocr,
    })
}

/// One fixture for every check: the ingest, OCR and embedding take a while.
#[test]
fn pdf_attachments_are_cited_by_page() {
    let Some(fx) = fixture() else { return };
    let engine = &fx.engine;

    // A fact only page 3 states is answered from page 3.
    let out = ask(
        engine,
        "When will the Wharton compressor station be recommissioned?",
    );
    let answer = out.answer.clone().unwrap_or_default();
    assert!(answer.contains("October 14"), "{out:#?}");
    let cited = out
        .citations
        .iter()
        .find(|c| c.attachment.as_deref() == Some(PLAN))
        .unwrap_or_else(|| panic!("no citation of {PLAN}: {out:#?}"));
    assert_eq!(cited.page, Some(3), "{cited:?}");
    let page = engine
        .cited_page(cited)
        .expect("page lookup")
        .expect("the cited page is stored");
    let (s, e) = page.highlight.expect("the quote is on the page");
    assert!(page.text[s..e].contains("October 14"), "{page:?}");
    assert_eq!(page.page_count, 4);

    // Another page's fact comes from that page.
    let out = ask(
        engine,
        "What is the storage desk extension for questions about the plan?",
    );
    assert!(
        out.citations
            .iter()
            .any(|c| c.attachment.as_deref() == Some(PLAN) && c.page == Some(4)),
        "{out:#?}"
    );

    // The scanned page is read by OCR: searched as text of its page, and cited by
    // its page when asked about its message's thread.
    if fx.ocr {
        let found = engine
            .retrieve(
                "corroded valves Keystone",
                RetrieveOptions {
                    mode: SearchMode::Hybrid,
                    limit: 5,
                    rerank: false,
                    now: chrono::Utc::now().timestamp(),
                },
            )
            .expect("search runs");
        let hit = found
            .hits
            .iter()
            .find(|h| h.chunk.as_ref().and_then(|c| c.attachment.as_deref()) == Some(SCAN))
            .unwrap_or_else(|| panic!("the scan's page is not found: {found:#?}"));
        let chunk = hit.chunk.as_ref().expect("chunk");
        assert_eq!(chunk.page, Some(1));
        assert!(
            chunk.cite_text.to_lowercase().contains("corroded"),
            "{chunk:?}"
        );
        let out = engine
            .ask(
                "How many corroded valves did the inspectors find at Keystone?",
                &mut Conversation::default(),
                &ExtractiveAnswerer,
                &AskOptions {
                    thread: Some(hit.hit.thread_id.clone()),
                    ..AskOptions::default()
                },
                &mut |_| {},
            )
            .expect("ask runs");
        let cited = out
            .citations
            .iter()
            .find(|c| c.attachment.as_deref() == Some(SCAN))
            .unwrap_or_else(|| panic!("no citation of the scan: {out:#?}"));
        assert_eq!(cited.page, Some(1));
        assert!(cited.quote.to_lowercase().contains("corroded"), "{cited:?}");
    } else {
        eprintln!("SKIP (OCR): install tesseract-ocr and poppler-utils");
    }

    // GeoTopo: every page stored, text on the right page.
    let geo = message_with(engine, GEOTOPO);
    let states = engine.attachment_states(&geo).expect("states");
    let extract = states[0].extract.clone().expect("extracted");
    assert_eq!(extract.page_count, 117);
    let page = |n| {
        engine
            .attachment_page(&geo.key, GEOTOPO, n)
            .expect("lookup")
            .unwrap_or_else(|| panic!("page {n} stored"))
    };
    assert!(page(2).text.contains("Vorwort"));
    assert!(!page(3).text.contains("Vorwort"));
    assert!(
        page(23).text.starts_with("20 1.6. WEGE UND KNOTEN"),
        "{:?}",
        page(23).text
    );
    assert!(page(117).text.contains("Retraktion, 47"));
    // Page 14's font defeats the text layer; OCR reads it when installed.
    match page(14).source {
        PageSource::Ocr => assert!(fx.ocr),
        PageSource::Failed(_) => assert!(!fx.ocr),
        other => panic!("page 14 came from {other:?}"),
    }

    // The encrypted PDF has a clear status; the CSV beside it is indexed.
    let locked = message_with(engine, LOCKED);
    let states = engine.attachment_states(&locked).expect("states");
    assert_eq!(states[0].status, "encrypted");
    assert!(states[0].message.contains("password"), "{:?}", states[0]);
    assert_eq!(states[1].status, "ok");
    let hits = engine.search("Bammel", 10, 0).expect("search");
    assert!(
        hits.iter().any(|h| h.key == locked.key.to_hex()),
        "{hits:?}"
    );

    let stats = engine.stats().expect("stats");
    assert_eq!(stats.attachments.by_status.get("encrypted"), Some(&1));
    assert_eq!(stats.attachments.pending, 0);
    assert!(stats.attachments.pages >= 117 + 4);
}

fn message_with(engine: &Engine, attachment: &str) -> quoth::store::StoredMessage {
    engine
        .store()
        .messages()
        .map(|m| m.expect("message"))
        .find(|m| {
            m.attachments
                .iter()
                .any(|a| a.name.as_deref() == Some(attachment))
        })
        .unwrap_or_else(|| panic!("a message carries {attachment}"))
}

/// The demo mailbox's messages with PDF attachments: (file, headers and body, PDF
/// name, pages). The committed .eml files are exactly what the PDF tool makes of
/// these; `QUOTH_WRITE_DEMO_PDFS=1` writes them again after a change here.
const DEMO_PDF_MAIL: [(&str, &str, &str, &[&str]); 3] = [
    (
        "inbox/cur/1710423600.42.demo:2,S",
        "Message-ID: <20240314134000.5d1e0a9c42@northwind.example>\n\
         Date: Thu, 14 Mar 2024 09:40:00 -0400\n\
         From: Marcus Lee <marcus.lee@northwind.example>\n\
         To: Alex Morgan <alex@northwind.example>\n\
         Subject: Vendor review - report attached\n\
         MIME-Version: 1.0\n\
         Content-Type: text/plain; charset=utf-8\n\
         Content-Transfer-Encoding: 7bit\n\
         \n\
         Alex,\n\
         \n\
         The vendor review is attached. The Stratus numbers are on page 2 and\n\
         my recommendation is on the last page.\n\
         \n\
         Marcus\n",
        "vendor-review.pdf",
        &[
            "Vendor review 2024\nNorthwind Analytics, prepared by Marcus Lee in March 2024.\n\
             This review covers hosting, backup and network vendors.",
            "Hosting\nAfter the April price increase, Stratus Cloud hosting costs $7,850 a month.\n\
             The contract renews on September 1, 2024.",
            "Recommendation\nConsolidating backups with Cobalt Data Systems saves $18,400 a year.\n\
             The move can be finished by June 28, 2024.",
        ],
    ),
    (
        "inbox/cur/1710776700.43.demo:2,S",
        "Message-ID: <5b2e8c1d7f40.9e3a1c52@mail.harbor-properties.example>\n\
         Date: Mon, 18 Mar 2024 11:45:00 -0400\n\
         From: Dana Whitfield <dana.whitfield@harbor-properties.example>\n\
         To: Alex Morgan <alex@northwind.example>\n\
         Subject: Lease renewal - summary of terms\n\
         MIME-Version: 1.0\n\
         Content-Type: text/plain; charset=utf-8\n\
         Content-Transfer-Encoding: 7bit\n\
         \n\
         Hi Alex,\n\
         \n\
         Attached is the summary of the renewal terms we discussed. Please\n\
         look it over before we draw up the lease.\n\
         \n\
         Dana\n",
        "lease-summary.pdf",
        &[
            "Lease summary\nPremises: 120 Harbor Street, second floor, 6,400 square feet.\n\
             Landlord: Harbor Properties. Tenant: Northwind Analytics.",
            "Terms\nThe new lease runs five years from July 1, 2024.\n\
             Rent is $31.50 per square foot per year, with a 2% yearly step.",
        ],
    ),
    (
        "inbox/cur/1711371600.44.demo:2,S",
        "Message-ID: <20240325130000.c4a7e19b03@northwind.example>\n\
         Date: Mon, 25 Mar 2024 09:00:00 -0400\n\
         From: Sam Ortiz <sam.ortiz@northwind.example>\n\
         To: Alex Morgan <alex@northwind.example>\n\
         Subject: Lakeview Lodge programme (final)\n\
         MIME-Version: 1.0\n\
         Content-Type: text/plain; charset=utf-8\n\
         Content-Transfer-Encoding: 7bit\n\
         \n\
         Alex,\n\
         \n\
         Here is the final programme for the two days at Lakeview Lodge.\n\
         \n\
         Sam\n",
        "offsite-programme.pdf",
        &[
            "Day 1, April 18\nThe coach leaves the office at 8:00 am.\n\
             The strategy workshop starts at 11:00 in the Lake Room.",
            "Day 2, April 19\nThe customer panel starts at 9:30 in the Birch Room.\n\
             Lunch is served on the terrace at 12:30.",
        ],
    ),
];

/// The committed demo messages with PDFs are what the generator makes; they open
/// with the right number of pages.
#[test]
fn demo_pdf_messages_match_the_generator() {
    let root = common::demo_mailbox();
    for (file, message, name, pages) in DEMO_PDF_MAIL {
        let pdf = multi_page_pdf(pages);
        let eml = attach_to_message(message.as_bytes(), &[(name, "application/pdf", &pdf)]);
        let path = root.join(file);
        if std::env::var_os("QUOTH_WRITE_DEMO_PDFS").is_some() {
            std::fs::write(&path, &eml).expect("write demo message");
        }
        let committed = std::fs::read(&path).expect("demo message is committed");
        assert!(committed == eml, "{file} differs from the generator");
        let out = quoth::attach::extract_pdf(
            &pdf,
            &PdfLimits {
                ocr: None,
                ..PdfLimits::default()
            },
        );
        assert_eq!(out.page_count as usize, pages.len());
    }
}

/// A worker that died holding an attachment job leaves it running; the next run
/// takes it over, and running the jobs again changes nothing.
#[test]
fn attachment_jobs_resume_after_a_crash_and_are_idempotent() {
    use quoth::engine::ATTACH_JOB;
    use quoth::store::jobs::{JobQueue, QueueConfig};
    let tmp = tempfile::tempdir().expect("tempdir");
    let maildir = tmp.path().join("mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(maildir.join(sub)).expect("maildir");
    }
    let pdf = multi_page_pdf(&["First page", "Second page names the Bammel field."]);
    let base = b"Message-ID: <resume@test>\nSubject: plan\nFrom: a@example.com\n\
                 Content-Type: text/plain\n\nSee the plan.\n";
    let eml = attach_to_message(base, &[("plan.pdf", "application/pdf", &pdf)]);
    std::fs::write(maildir.join("cur/1.test:2,S"), eml).expect("write");

    let data = tmp.path().join("data");
    let mut engine = open(&data);
    ingest(&mut engine, &[maildir]);
    assert_eq!(engine.attachment_job_counts().expect("counts").pending, 1);
    // A worker claims the job and dies.
    let queue = JobQueue::open(engine.store().db(), QueueConfig::default()).expect("queue");
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    let claimed = queue.claim(ATTACH_JOB, 1, now_ms).expect("claim");
    assert_eq!(claimed.len(), 1);
    drop(queue);
    assert_eq!(engine.attachment_job_counts().expect("counts").running, 1);
    assert!(engine.search("Bammel", 10, 0).expect("search").is_empty());
    drop(engine);

    let mut engine = open(&data);
    let no_ocr = PdfLimits {
        ocr: None,
        ..PdfLimits::default()
    };
    let stop = AtomicBool::new(false);
    let report = engine
        .extract_attachments(&no_ocr, &stop, &mut |_| {})
        .expect("jobs run");
    assert_eq!((report.extracted, report.pages), (1, 2), "{report:?}");
    let counts = engine.attachment_job_counts().expect("counts");
    assert_eq!((counts.running, counts.pending, counts.done), (0, 0, 1));
    assert_eq!(engine.search("Bammel", 10, 0).expect("search").len(), 1);
    let msg = engine.find_message("resume@test").expect("found");
    let chunks = engine.store().chunks_of(&msg.key).expect("chunks");
    let on_pages: Vec<Option<u32>> = chunks
        .iter()
        .filter_map(|c| c.attachment.as_ref().map(|a| a.page))
        .collect();
    assert_eq!(on_pages, vec![Some(1), Some(2)]);

    // Nothing left to do; queueing again finds every attachment recorded.
    let again = engine
        .extract_attachments(&no_ocr, &stop, &mut |_| {})
        .expect("jobs run");
    assert_eq!(again.extracted + again.already_extracted, 0);
    assert_eq!(engine.queue_unread_attachments().expect("queue"), 0);
    assert_eq!(
        engine.store().chunks_of(&msg.key).expect("chunks").len(),
        chunks.len()
    );
    let states = engine.attachment_states(&msg).expect("states");
    assert_eq!(states[0].status, "ok");
}

/// The demo mailbox answers from its PDFs with page citations.
#[test]
fn demo_pdf_facts_are_cited_by_page() {
    let Some(models) = models() else { return };
    std::env::set_var("QUOTH_MODELS_DIR", &models);
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut engine = open(&tmp.path().join("data"));
    ingest(&mut engine, &[common::demo_mailbox()]);
    let no_ocr = PdfLimits {
        ocr: None,
        ..PdfLimits::default()
    };
    engine
        .extract_attachments(&no_ocr, &AtomicBool::new(false), &mut |_| {})
        .expect("jobs run");
    embed_all(&mut engine);
    for (question, file, page) in [
        (
            "How much does consolidating backups with Cobalt save a year?",
            "vendor-review.pdf",
            3,
        ),
        (
            "What is the rent per square foot in the new lease?",
            "lease-summary.pdf",
            2,
        ),
    ] {
        let out = ask(&engine, question);
        assert!(
            out.citations
                .iter()
                .any(|c| c.attachment.as_deref() == Some(file) && c.page == Some(page)),
            "{question}: {out:#?}"
        );
    }
}
