//! PDF attachment text: generated documents, real-world samples from the
//! shared data, damaged files, scans read by OCR, and attachments inside a
//! real Enron message.

mod common;
mod support {
    pub mod pdf_mail;
}

use std::time::{Duration, Instant};

use mail_parser::MimeHeaders;

use common::shared;
use quoth::attach::poppler_text::PdfToText;
use quoth::attach::{
    attachment_text_with, extract_pdf, AttachmentText, OcrEngine, PageSource, PdfLimits, PdfStatus,
};
use support::pdf_mail::{
    attach_to_message, flate_bomb_pdf, mime_parts, multi_page_pdf, scanned_page_pdf,
    self_painting_form_pdf,
};

fn sample(rel: &str) -> Option<Vec<u8>> {
    let path = shared(&format!("data/fixtures/pdf-samples/{rel}"))?;
    Some(std::fs::read(path).expect("read sample"))
}

fn no_ocr() -> PdfLimits {
    PdfLimits {
        ocr: None,
        ..PdfLimits::default()
    }
}

const FACTS: [&str; 4] = [
    "The invoice total is 4,210 dollars.",
    "Delivery moved to Tuesday (gate 7).",
    "Contact Priya at extension 5531.",
    "Contract renewal: \\\\ March 2002 \\\\",
];

#[test]
fn generated_four_page_pdf_keeps_each_fact_on_its_page() {
    let pages: Vec<String> = FACTS
        .iter()
        .enumerate()
        .map(|(i, f)| format!("Page {} of 4\n{f}", i + 1))
        .collect();
    let refs: Vec<&str> = pages.iter().map(String::as_str).collect();
    let out = extract_pdf(&multi_page_pdf(&refs), &no_ocr());
    assert_eq!(out.status, PdfStatus::Ok);
    assert_eq!(out.page_count, 4);
    assert_eq!(out.pages.len(), 4);
    for (i, page) in out.pages.iter().enumerate() {
        assert_eq!(page.number, i as u32 + 1);
        assert_eq!(page.source, PageSource::TextLayer);
        for (j, fact) in FACTS.iter().enumerate() {
            assert_eq!(
                page.text.contains(fact),
                i == j,
                "page {} / fact {j}: {:?}",
                i + 1,
                page.text
            );
        }
    }
}

#[test]
fn geotopo_has_117_pages_with_text_on_the_right_page() {
    let Some(bytes) = sample("009-pdflatex-geotopo/GeoTopo-komprimiert.pdf") else {
        return;
    };
    let out = extract_pdf(&bytes, &no_ocr());
    assert_eq!(out.page_count, 117);
    assert_eq!(out.pages.len(), 117);
    // Page 14 uses a font pdf-extract cannot decode; it must fail alone.
    assert_eq!(
        out.status,
        PdfStatus::Partial {
            failed_pages: vec![14]
        }
    );
    let text = |n: usize| out.pages[n - 1].text.as_str();
    assert!(text(1).contains("Geometrie und Topologie"));
    assert!(
        text(1).contains("Auflage"),
        "ligature spelled out: {:?}",
        text(1)
    );
    assert!(text(2).contains("Vorwort") && text(2).contains("Danksagungen"));
    assert!(!text(1).contains("Vorwort") && !text(3).contains("Vorwort"));
    assert!(text(23).starts_with("20 1.6. WEGE UND KNOTEN"));
    assert!(text(50).starts_with("47 3.1. HOMOTOPIE VON WEGEN"));
    assert!(text(80).starts_with("77 4.2. WEITERE EIGENSCHAFTEN EINER EUKLIDISCHEN EBENE"));
    assert!(text(117).contains("Retraktion, 47"));
    // Body pages carry their printed number (PDF page - 3) in the running
    // head; any shift of text between pages would break this.
    let aligned = (10..=117)
        .filter(|&n| {
            let first = text(n).lines().next().unwrap_or("");
            let printed = (n - 3).to_string();
            first.starts_with(&format!("{printed} ")) || first.ends_with(&format!(" {printed}"))
        })
        .count();
    assert!(
        aligned >= 95,
        "only {aligned} running heads match their page"
    );
}

#[test]
fn password_protected_pdf_is_encrypted() {
    let Some(bytes) = sample("005-libreoffice-writer-password/libreoffice-writer-password.pdf")
    else {
        return;
    };
    let out = extract_pdf(&bytes, &no_ocr());
    assert_eq!(out.status, PdfStatus::Encrypted);
    assert!(out.pages.is_empty());
    assert!(out.status.to_string().contains("password"));
}

#[test]
fn truncated_pdf_is_reported_without_panicking() {
    let Some(bytes) = sample("009-pdflatex-geotopo/GeoTopo-komprimiert.pdf") else {
        return;
    };
    let out = extract_pdf(&bytes[..bytes.len() / 2], &no_ocr());
    assert!(
        matches!(out.status, PdfStatus::Truncated | PdfStatus::Corrupt(_)),
        "{:?}",
        out.status
    );
    let small = multi_page_pdf(&["one", "two"]);
    let out = extract_pdf(&small[..small.len() / 2], &no_ocr());
    assert!(
        matches!(out.status, PdfStatus::Truncated | PdfStatus::Corrupt(_)),
        "{:?}",
        out.status
    );
}

#[test]
fn garbage_is_corrupt() {
    let garbage: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    assert!(matches!(
        extract_pdf(&garbage, &no_ocr()).status,
        PdfStatus::Corrupt(_)
    ));
    let mut fake = b"%PDF-1.7\n".to_vec();
    fake.extend_from_slice(&garbage);
    fake.extend_from_slice(b"\n%%EOF\n");
    assert!(matches!(
        extract_pdf(&fake, &no_ocr()).status,
        PdfStatus::Corrupt(_)
    ));
}

#[test]
fn image_only_pdf_needs_ocr_when_ocr_is_disabled() {
    let Some(bytes) = sample("007-imagemagick-images/imagemagick-images.pdf") else {
        return;
    };
    let out = extract_pdf(&bytes, &no_ocr());
    assert_eq!(out.page_count, 6);
    assert_eq!(
        out.status,
        PdfStatus::NeedsOcr {
            pages: (1..=6).collect()
        }
    );
    assert!(out
        .pages
        .iter()
        .all(|p| p.source == PageSource::NoTextLayer));
    let message = out.status.to_string();
    assert!(
        message.contains("tesseract-ocr") && message.contains("poppler-utils"),
        "{message}"
    );
}

#[test]
fn scanned_page_is_read_by_ocr() {
    let Some(engine) = OcrEngine::detect() else {
        eprintln!("SKIP: OCR needs tesseract-ocr and poppler-utils");
        return;
    };
    let scan = scanned_page_pdf("Quarterly gas storage report\nPipeline capacity rises in Houston")
        .expect("pdftoppm is installed, so the scanned page must render");
    let blind = extract_pdf(&scan, &no_ocr());
    assert_eq!(blind.status, PdfStatus::NeedsOcr { pages: vec![1] });

    let out = extract_pdf(
        &scan,
        &PdfLimits {
            ocr: Some(engine),
            ..PdfLimits::default()
        },
    );
    assert_eq!(out.status, PdfStatus::Ok);
    assert_eq!(out.pages[0].source, PageSource::Ocr);
    let text = out.pages[0].text.to_lowercase();
    for word in [
        "quarterly",
        "storage",
        "report",
        "pipeline",
        "capacity",
        "houston",
    ] {
        assert!(
            text.contains(word),
            "{word:?} missing from OCR text {text:?}"
        );
    }
}

#[test]
fn self_painting_drawing_fails_its_page_only() {
    let out = extract_pdf(&self_painting_form_pdf(), &no_ocr());
    assert_eq!(
        out.status,
        PdfStatus::Partial {
            failed_pages: vec![1]
        }
    );
    assert!(out.pages[1].text.contains("Second page survives"));
}

#[test]
fn a_decompression_bomb_fails_its_page_within_the_stream_cap() {
    // 512 MB of drawing instructions in about half a megabyte of file.
    let pdf = flate_bomb_pdf(512 << 20, "The second page is read as usual");
    assert!(pdf.len() < 2 << 20, "{} bytes", pdf.len());
    let limits = PdfLimits {
        max_stream_bytes: 16 << 20,
        ..no_ocr()
    };
    let out = extract_pdf(&pdf, &limits);
    assert_eq!(
        out.status,
        PdfStatus::Partial {
            failed_pages: vec![1]
        }
    );
    match &out.pages[0].source {
        PageSource::Failed(reason) => {
            assert!(reason.contains("decompress to more than 16 MB"), "{reason}")
        }
        other => panic!("page 1 should fail, got {other:?}"),
    }
    assert!(out.pages[1]
        .text
        .contains("The second page is read as usual"));

    // Under the cap the same page is read (it is blank).
    let roomy = PdfLimits {
        max_stream_bytes: 1 << 30,
        ..no_ocr()
    };
    let small = flate_bomb_pdf(1 << 20, "Second");
    let out = extract_pdf(&small, &roomy);
    assert!(
        !matches!(out.pages[0].source, PageSource::Failed(_)),
        "{:?}",
        out.pages[0].source
    );
}

#[test]
fn limits_are_enforced() {
    let pdf = multi_page_pdf(&["a", "b", "c"]);
    let small = PdfLimits {
        max_bytes: 100,
        ..no_ocr()
    };
    assert_eq!(
        extract_pdf(&pdf, &small).status,
        PdfStatus::TooLarge {
            bytes: pdf.len(),
            limit: 100
        }
    );
    let few = PdfLimits {
        max_pages: 2,
        ..no_ocr()
    };
    assert_eq!(
        extract_pdf(&pdf, &few).status,
        PdfStatus::TooManyPages { pages: 3, limit: 2 }
    );

    let Some(bytes) = sample("009-pdflatex-geotopo/GeoTopo-komprimiert.pdf") else {
        return;
    };
    let hasty = PdfLimits {
        timeout: Duration::from_millis(50),
        ..no_ocr()
    };
    let started = Instant::now();
    let out = extract_pdf(&bytes, &hasty);
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(out.status, PdfStatus::Timeout);
    assert!(out.pages.len() < 117);
}

#[test]
fn attachments_in_an_enron_message_round_trip() {
    let Some(path) = shared("data/enron/maildir/lay-k/inbox/cur/1.enron:2,S") else {
        return;
    };
    let raw = std::fs::read(path).expect("read message");
    let pdf = multi_page_pdf(&["Storage report", "Second page: Houston"]);
    let csv = b"region,volume\nHouston,\"1,200\"\n";
    let message = attach_to_message(
        &raw,
        &[
            ("report.pdf", "application/octet-stream", &pdf),
            ("volumes.csv", "text/csv", csv),
        ],
    );
    let text = String::from_utf8_lossy(&message);
    assert!(text.starts_with("Message-ID: <7081033.1075845190654.JavaMail.evans@thyme>\n"));
    assert!(text.contains("Subject: Update - May 25, 2001\n"));
    assert_eq!(text.matches("MIME-Version: 1.0").count(), 1);
    assert_eq!(text.to_ascii_lowercase().matches("mime-version").count(), 1);

    let parts = mime_parts(&message);
    assert_eq!(parts.len(), 3);
    assert!(parts[0].0.contains("text/plain") && parts[0].0.contains("quoted-printable"));
    assert!(String::from_utf8_lossy(&parts[0].1).contains("you were repaid"));
    assert_eq!(parts[1].1, pdf);
    let limits = no_ocr();
    let Some(AttachmentText::Pdf(out)) = attachment_text_with(
        "application/octet-stream",
        "report.pdf",
        &parts[1].1,
        &limits,
    ) else {
        panic!("a .pdf attachment must take the PDF path");
    };
    assert_eq!(out.page_count, 2);
    assert!(out.pages[1].text.contains("Houston"));
    let table = attachment_text_with("text/csv", "volumes.csv", &parts[2].1, &limits);

    // A real MIME parser (the one Quoth reads mail with) sees the same.
    let parsed = mail_parser::MessageParser::default()
        .parse(&message)
        .expect("parse");
    assert_eq!(parsed.subject(), Some("Update - May 25, 2001"));
    assert!(parsed
        .body_text(0)
        .is_some_and(|b| b.contains("you were repaid $2,535,786.72")));
    let found: Vec<(Option<&str>, &[u8])> = parsed
        .attachments()
        .map(|a| (a.attachment_name(), a.contents()))
        .collect();
    assert_eq!(
        found,
        vec![
            (Some("report.pdf"), &pdf[..]),
            (Some("volumes.csv"), &csv[..])
        ]
    );
    assert_eq!(
        table.map(|t| t.text().into_owned()).as_deref(),
        Some("region | volume\nHouston | 1,200\n")
    );
}

/// Damaged copies (cut short, or with bytes overwritten) of a generated and
/// a real document: every one must come back with a status, never a crash
/// or a hang.
#[test]
fn damaged_pdfs_never_crash() {
    let mut originals = vec![multi_page_pdf(&["alpha\nbeta", "gamma", "delta"])];
    originals.extend(sample("004-pdflatex-4-pages/pdflatex-4-pages.pdf"));
    let limits = PdfLimits {
        timeout: Duration::from_secs(10),
        ..no_ocr()
    };
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for original in &originals {
        for i in 0..100 {
            let mut bytes = original.clone();
            if i % 3 == 0 {
                bytes.truncate(next() as usize % bytes.len());
            } else {
                for _ in 0..1 + next() % 20 {
                    let at = next() as usize % bytes.len();
                    bytes[at] = next() as u8;
                }
            }
            let out = extract_pdf(&bytes, &limits);
            assert_ne!(out.status, PdfStatus::Timeout, "damaged copy {i} hung");
            assert!(out.pages.len() as u32 <= out.page_count.max(1));
        }
    }
}

#[test]
fn every_shared_sample_gets_a_status_and_poppler_reads_broken_tables() {
    let Some(dir) = shared("data/fixtures/pdf-samples") else {
        return;
    };
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(&dir)
        .expect("list samples")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .flat_map(|e| {
            std::fs::read_dir(e.path())
                .expect("list sample")
                .filter_map(Result::ok)
        })
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "pdf"))
        .collect();
    files.sort();
    assert!(files.len() >= 26, "{} samples", files.len());
    let fallback = PdfToText::detect();
    let mut rescued = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).expect("read sample");
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let alone = extract_pdf(
            &bytes,
            &PdfLimits {
                fallback: None,
                ..no_ocr()
            },
        );
        let with = extract_pdf(&bytes, &no_ocr());
        println!(
            "{name}: {} alone, {} with poppler",
            alone.status.label(),
            with.status.label()
        );
        if matches!(alone.status, PdfStatus::Corrupt(_)) && fallback.is_some() {
            assert!(
                !matches!(with.status, PdfStatus::Corrupt(_)),
                "{name}: poppler should read what lopdf cannot"
            );
            // A rescued document has pages; those without a text layer are
            // left to OCR like any scan.
            assert!(with.page_count > 0, "{name}");
            assert!(
                with.status == PdfStatus::Ok || matches!(with.status, PdfStatus::NeedsOcr { .. }),
                "{name}: {:?}",
                with.status
            );
            rescued.push(name);
        } else {
            assert_eq!(with.status, alone.status, "{name}");
        }
    }
    println!("read by poppler: {rescued:?}");
}
