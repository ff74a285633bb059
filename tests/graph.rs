//! The knowledge graph on invented mail, through the real engine (sled, tantivy):
//! who joined a thread and who dropped off, one person across two addresses and
//! spellings, a value a later message replaced (both kept), participation questions
//! answered by quoting header lines, and honest abstentions when the headers do not
//! show what is asked. Then a kill -9 in the middle of the graph jobs, resumed: the
//! graph ends the same as an uninterrupted run's.

mod common;

use common::{ask, ingest, open, shared};
use quoth::engine::Engine;
use quoth::graph::thread_people::PartRole;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const MAIL: &[(&str, &str)] = &[
    (
        "1741000000.1.test:2,S",
        "From: Ines Abara <ines@quill.example>\r\nTo: Tomas Reyes <tomas@quill.example>\r\n\
         Cc: Oda Berg <oda@quill.example>\r\nSubject: Tamarind lease renewal\r\n\
         Date: Mon, 3 Mar 2025 09:00:00 +0000\r\nMessage-ID: <lease-1@quill.example>\r\n\r\n\
         Hi Tomas,\r\n\r\nThe renewal deadline is March 14. Can you review the draft before then?\r\n\r\nInes\r\n",
    ),
    (
        "1741200000.2.test:2,S",
        "From: Tomas Reyes <tomas@quill.example>\r\nTo: Ines Abara <ines@quill.example>, \
         Oda Berg <oda@quill.example>\r\nCc: Wen Li <wen.li@larch-realty.example>\r\n\
         Subject: Re: Tamarind lease renewal\r\nDate: Wed, 5 Mar 2025 10:00:00 +0000\r\n\
         Message-ID: <lease-2@quill.example>\r\nIn-Reply-To: <lease-1@quill.example>\r\n\r\n\
         Adding Wen from the landlord's agency.\r\n\r\nThe monthly rent is $4,200 in the draft.\r\n\r\nTomas\r\n",
    ),
    (
        "1741400000.3.test:2,S",
        "From: \"Li, Wen\" <wli@larch-realty.example>\r\nTo: Ines Abara <ines@quill.example>\r\n\
         Cc: Tomas Reyes <tomas@quill.example>\r\nSubject: Re: Tamarind lease renewal\r\n\
         Date: Fri, 7 Mar 2025 11:00:00 +0000\r\nMessage-ID: <lease-3@quill.example>\r\n\
         In-Reply-To: <lease-2@quill.example>\r\n\r\nThanks both.\r\n\r\n\
         The renewal deadline has moved to March 21, and the monthly rent is $4,350 after the survey.\r\n\r\nWen\r\n",
    ),
    (
        "1740100000.5.test:2,S",
        "From: Rafa Ortiz <rafa.ortiz@gmail.com>\r\nTo: Oda Berg <oda@quill.example>\r\n\
         Reply-To: Saffron Bookings <bookings@saffron-kitchen.example>\r\n\
         Subject: Re: Orchard party\r\nDate: Sun, 2 Feb 2025 08:00:00 +0000\r\n\
         Message-ID: <party-2@quill.example>\r\nIn-Reply-To: <party-1@quill.example>\r\n\r\n\
         Noon works for us.\r\n\r\n-- \r\nRafa Ortiz\r\nSaffron Kitchen LLC\r\n",
    ),
    (
        "1740000000.4.test:2,S",
        "From: Oda Berg <oda@quill.example>\r\nTo: Ines Abara <ines@quill.example>\r\n\
         Subject: Orchard party\r\nDate: Sat, 1 Feb 2025 08:00:00 +0000\r\n\
         Message-ID: <party-1@quill.example>\r\n\r\nThe caterer is Saffron Kitchen, booked for noon.\r\n",
    ),
];

fn maildir(dir: &Path) -> PathBuf {
    let root = dir.join("mail");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(root.join(sub)).expect("maildir");
    }
    for (name, raw) in MAIL {
        std::fs::write(root.join("cur").join(name), raw).expect("write mail");
    }
    root
}

fn ready(dir: &Path) -> Engine {
    let mut engine = open(&dir.join("data"));
    ingest(&mut engine, &[maildir(dir)]);
    let stop = AtomicBool::new(false);
    let report = engine
        .extract_graph(&stop, &mut |_| {})
        .expect("graph jobs run");
    assert_eq!(report.messages, 5, "{report:?}");
    assert_eq!(report.failed, 0);
    let again = engine
        .extract_graph(&stop, &mut |_| {})
        .expect("graph jobs run");
    assert_eq!(again.messages, 0, "every job was done once");
    engine
}

fn thread_of(engine: &Engine, subject_word: &str) -> String {
    let now = chrono::Utc::now().timestamp();
    engine
        .search(subject_word, 1, now)
        .expect("search")
        .first()
        .expect("a hit")
        .thread_id
        .clone()
}

#[test]
fn joined_and_dropped_participants_and_one_person_at_two_addresses() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let engine = ready(tmp.path());
    let thread = thread_of(&engine, "tamarind");
    let g = engine
        .thread_graph(&thread)
        .expect("lookup")
        .expect("the thread");
    assert_eq!(g.emails.len(), 3);
    assert_eq!(g.pending, 0);
    let who = |name: &str| {
        g.participants
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("{name} in {:?}", g.participants))
    };
    let wen = who("Wen Li");
    assert_eq!((wen.first, wen.joined_as), (1, PartRole::Cc));
    assert_eq!(wen.added_by.as_deref(), Some("Tomas Reyes"));
    assert_eq!(
        wen.addresses,
        vec!["wen.li@larch-realty.example", "wli@larch-realty.example"],
        "\"Li, Wen\" at another address is the same person"
    );
    assert_eq!(wen.emails, 2);
    let oda = who("Oda Berg");
    assert_eq!((oda.first, oda.last, oda.dropped_at), (0, 1, Some(2)));
    assert_eq!(who("Ines Abara").dropped_at, None);
    let larch = g
        .organisations
        .iter()
        .find(|o| o.domain == "larch-realty.example")
        .expect("the agency");
    assert_eq!(larch.name, "Larch Realty");
    assert_eq!(larch.people, vec!["Wen Li"]);
}

#[test]
fn reply_to_and_a_signed_organisation_are_read() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let engine = ready(tmp.path());
    let thread = thread_of(&engine, "orchard");
    let g = engine
        .thread_graph(&thread)
        .expect("lookup")
        .expect("the thread");
    let desk = g
        .participants
        .iter()
        .find(|p| p.address == "bookings@saffron-kitchen.example")
        .unwrap_or_else(|| panic!("{:#?}", g.participants));
    assert_eq!(desk.roles, vec![PartRole::ReplyTo]);

    // Ingest kept Reply-To from the headers: rebuilt with the sources gone, the
    // graph still has it.
    std::fs::remove_dir_all(tmp.path().join("mail")).expect("remove the sources");
    engine.rebuild_graph().expect("rebuild");
    let stop = AtomicBool::new(false);
    let rebuilt = engine
        .extract_graph(&stop, &mut |_| {})
        .expect("graph jobs run");
    assert_eq!((rebuilt.messages, rebuilt.failed), (5, 0));
    let again = engine
        .thread_graph(&thread)
        .expect("lookup")
        .expect("the thread");
    assert!(
        again
            .participants
            .iter()
            .any(|p| p.address == "bookings@saffron-kitchen.example"
                && p.roles == vec![PartRole::ReplyTo]),
        "{:#?}",
        again.participants
    );
    let signed = g
        .organisations
        .iter()
        .find(|o| o.name == "Saffron Kitchen LLC")
        .unwrap_or_else(|| panic!("{:#?}", g.organisations));
    assert_eq!(signed.domain, "", "named by a signature, not a domain");
    assert_eq!(signed.people, vec!["Rafa Ortiz"]);
    assert!(
        !g.organisations.iter().any(|o| o.domain == "gmail.com"),
        "a personal provider names no organisation"
    );
}

#[test]
fn a_later_value_supersedes_and_every_fact_quotes_its_text() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let engine = ready(tmp.path());
    let thread = thread_of(&engine, "tamarind");
    let view = engine.facts(&thread).expect("facts");
    assert_eq!(view.thread.as_deref(), Some(thread.as_str()));
    let find = |attribute: &str, value: &str| {
        view.facts
            .iter()
            .position(|f| f.fact.attribute == attribute && f.fact.value.contains(value))
            .unwrap_or_else(|| panic!("{attribute} = {value} in {:#?}", view.facts))
    };
    let (early, late) = (
        find("renewal deadline", "March 14"),
        find("renewal deadline", "March 21"),
    );
    assert_eq!(view.facts[early].superseded_by, Some(late));
    assert_eq!(view.facts[late].superseded_by, None);
    let (rent, new_rent) = (
        find("monthly rent", "$4,200"),
        find("monthly rent", "$4,350"),
    );
    assert_eq!(view.facts[rent].superseded_by, Some(new_rent));
    for f in &view.facts {
        assert!(f.quote.contains(&f.fact.value), "{f:?}");
    }
    assert_eq!(view.facts[late].author, "Wen Li");
    // What the thread names, each at its first naming.
    let g = engine
        .thread_graph(&thread)
        .expect("lookup")
        .expect("the thread");
    let rent = g
        .entities
        .iter()
        .find(|e| e.kind == "money" && e.text == "$4,350")
        .unwrap_or_else(|| panic!("{:#?}", g.entities));
    assert_eq!(rent.mentions, 1);
    let key = quoth::mail::model::MessageKey::from_hex(&rent.message).expect("key");
    let msg = engine.store().message(&key).expect("read").expect("stored");
    assert_eq!(&msg.body[rent.start as usize..rent.end as usize], "$4,350");
    // By words: the attribute is found across the mailbox.
    let by_words = engine.facts("what is the monthly rent").expect("facts");
    assert!(by_words
        .facts
        .iter()
        .any(|f| f.fact.value == "$4,350" && f.superseded_by.is_none()));
}

#[test]
fn participation_questions_quote_header_lines_or_abstain() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let engine = ready(tmp.path());

    let looped = ask(&engine, "who was looped in on the tamarind lease?");
    assert!(!looped.abstained, "{:?}", looped.notes);
    let wen = looped
        .citations
        .iter()
        .find(|c| c.quote == "Cc: Wen Li <wen.li@larch-realty.example>")
        .unwrap_or_else(|| panic!("{:#?}", looped.citations));
    assert_eq!(wen.source, "header");
    assert_eq!(wen.message_id.as_deref(), Some("lease-2@quill.example"));
    assert!(looped
        .answer
        .as_deref()
        .unwrap_or("")
        .contains("added by Tomas Reyes"));

    let copied = ask(&engine, "who was cc'd on the tamarind lease renewal?");
    let quotes: Vec<&str> = copied.citations.iter().map(|c| c.quote.as_str()).collect();
    assert!(
        quotes.contains(&"Cc: Oda Berg <oda@quill.example>"),
        "{quotes:?}"
    );
    assert!(quotes.iter().all(|q| q.starts_with("Cc: ")), "{quotes:?}");

    let at = ask(&engine, "who have I dealt with at Larch Realty?");
    assert!(
        at.short_answer.as_deref().unwrap_or("").contains("Wen Li"),
        "{at:#?}"
    );

    // Those who got its mail, not those who only sent it.
    let got = ask(&engine, "who received the orchard party emails?");
    let quotes: Vec<&str> = got.citations.iter().map(|c| c.quote.as_str()).collect();
    assert!(
        quotes.contains(&"To: Ines Abara <ines@quill.example>")
            && quotes.contains(&"To: Oda Berg <oda@quill.example>"),
        "{quotes:?}"
    );
    assert!(quotes.iter().all(|q| !q.contains("Rafa")), "{quotes:?}");

    // The thread is found, and the headers do not show what is asked.
    for question in [
        "who was cc'd on the orchard party?",
        "when was Priya added to the tamarind lease thread?",
    ] {
        let out = ask(&engine, question);
        assert!(out.abstained, "{question}: {:?}", out.answer);
        assert!(out.citations.is_empty());
    }
}

fn graph_sizes(dir: &Path) -> (usize, (usize, usize, usize)) {
    let engine = open(dir);
    let store = engine.store();
    (store.graph_message_count(), store.graph_index_sizes())
}

#[test]
fn kill_nine_during_the_graph_jobs_resumes_to_the_same_graph() {
    let Some(maildir) = shared("data/enron/maildir/allen-p") else {
        return;
    };
    let tmp = tempfile::tempdir().expect("tempdir");
    let bin = env!("CARGO_BIN_EXE_quoth");
    let run = |data: &Path, args: &[&str]| {
        let mut command = Command::new(bin);
        command
            .env("QUOTH_INLINE", "1")
            .arg("--data-dir")
            .arg(data)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    };
    let source = maildir.display().to_string();
    let (whole, crashed) = (tmp.path().join("whole"), tmp.path().join("crashed"));
    for data in [&whole, &crashed] {
        let ok = run(data, &["ingest", "--no-embed", &source])
            .status()
            .expect("runs");
        assert!(ok.success());
    }
    let messages = open(&whole).store().message_count().expect("count");
    {
        let engine = open(&whole);
        let stop = AtomicBool::new(false);
        let report = engine.extract_graph(&stop, &mut |_| {}).expect("graph");
        eprintln!(
            "uninterrupted: {} messages, {} facts in {:.1} s ({:.0} messages/s)",
            report.messages,
            report.facts,
            report.seconds,
            report.messages as f64 / report.seconds.max(1e-9)
        );
    }
    let expected = graph_sizes(&whole);
    assert_eq!(expected.0, messages);

    // `quoth embed` runs the graph jobs first: kill it part way, twice.
    for delay_ms in [300u64, 500] {
        let mut child = run(&crashed, &["embed"]).spawn().expect("starts");
        std::thread::sleep(Duration::from_millis(delay_ms));
        child.kill().expect("kill -9");
        child.wait().expect("reaped");
        let (done, _) = graph_sizes(&crashed);
        eprintln!("killed after {delay_ms} ms: {done} of {messages} messages in the graph");
    }
    let engine = open(&crashed);
    let stop = AtomicBool::new(false);
    let rest = engine
        .extract_graph(&stop, &mut |_| {})
        .expect("graph resumes");
    eprintln!("resumed: {} messages left", rest.messages);
    assert_eq!(rest.failed, 0);
    assert_eq!(rest.counts.pending + rest.counts.running, 0);
    drop(engine);
    assert_eq!(
        graph_sizes(&crashed),
        expected,
        "the resumed graph holds exactly what an uninterrupted run stored"
    );
}
