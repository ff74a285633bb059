//! Clients on the server's socket: one of another protocol version is told so, and an
//! attached front end gets its results and hears of a lost server.

use super::*;
use common::demo_mailbox;
use std::io::Write;
use std::time::{Duration, Instant};

#[test]
fn a_client_of_another_protocol_version_is_told_so() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().to_path_buf();
    let listener = std::os::unix::net::UnixListener::bind(dir.join("server.sock")).expect("binds");
    let greeter = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().expect("a client connects");
        stream
            .write_all(b"{\"quoth\":\"server\",\"protocol\":99,\"version\":\"9.0.0\"}\n")
            .expect("greets");
        std::thread::sleep(Duration::from_millis(200));
    });
    let out = quoth(&dir).arg("status").output().expect("runs");
    greeter.join().expect("greeter");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("speaks protocol 99"), "{err}");
    assert!(err.contains("this program speaks 1"), "{err}");
}

/// A front end attached to a server (the UI of a second terminal) sends the engine
/// handle's requests over the socket and gets their results, with its own request
/// ids, and the mailbox's news; when the server is killed it says so.
#[test]
fn an_attached_front_end_gets_its_results_and_hears_of_a_lost_server() {
    use quoth::engine::handle::{EngineEvent, EngineRequest, SendRequest};
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("data");
    let out = quoth(&dir)
        .args(["ingest", "--no-embed"])
        .arg(demo_mailbox())
        .output()
        .expect("ingest runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // This process finds the socket where the server puts it: the same environment.
    let mut server = Command::new(env!("CARGO_BIN_EXE_quoth"))
        .arg("--data-dir")
        .arg(&dir)
        .arg("serve")
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let deadline = Instant::now() + Duration::from_secs(60);
    let no_new_server: quoth::serve::attach::StartServer =
        std::sync::Arc::new(|| Err("this test starts no server".to_string()));
    let (engine, mut events, greeting) = loop {
        match rt.block_on(quoth::serve::attach::attach(&dir, no_new_server.clone())) {
            Ok(Some(attached)) => break attached,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(50)),
            other => panic!("no server to attach to: {:?}", other.err()),
        }
    };
    assert_eq!(greeting.pid, server.id());
    let next = |events: &mut tokio::sync::mpsc::Receiver<EngineEvent>| {
        rt.block_on(async {
            tokio::time::timeout(Duration::from_secs(60), events.recv())
                .await
                .expect("an event within a minute")
                .expect("the link is open")
        })
    };

    assert!(engine.send(EngineRequest::Threads));
    let mut threads = Vec::new();
    loop {
        if let EngineEvent::ThreadList {
            threads: batch,
            complete,
            ..
        } = next(&mut events)
        {
            threads.extend(batch);
            if complete {
                break;
            }
        }
    }
    let listed = json_of(&dir, &["stats"])["threads"]
        .as_u64()
        .expect("threads");
    assert_eq!(threads.len() as u64, listed, "the whole thread list");

    let leak = threads
        .iter()
        .find(|t| t.subject.to_lowercase().contains("water damage"))
        .expect("a thread about the water damage");
    assert!(engine.send(EngineRequest::Thread {
        req: 5,
        id: leak.id,
        show: None
    }));
    assert!(engine.send(EngineRequest::Search {
        req: 6,
        query: "water damage".into(),
        limit: 10,
        order: Default::default(),
    }));
    let (mut thread_seen, mut search_seen) = (false, false);
    while !(thread_seen && search_seen) {
        match next(&mut events) {
            EngineEvent::ThreadMessages {
                req,
                id,
                messages,
                attachments,
                ..
            } => {
                assert_eq!((req, id), (5, leak.id));
                assert_eq!(messages.len(), leak.email_count());
                // How far each attachment has been read travels with its message.
                assert!(messages
                    .iter()
                    .filter(|m| !m.attachments.is_empty())
                    .all(|m| attachments[&m.key].len() == m.attachments.len()));
                assert!(attachments
                    .keys()
                    .all(|k| messages.iter().any(|m| m.key == *k)));
                thread_seen = true;
            }
            EngineEvent::SearchResults { req, hits, .. } => {
                assert_eq!(req, 6, "the front end's own request id");
                assert!(
                    hits.iter().any(|h| h.thread_id == leak.id.to_hex()),
                    "the water damage thread is found: {hits:?}"
                );
                search_seen = true;
            }
            EngineEvent::Error { message, .. } => panic!("{message}"),
            _ => {}
        }
    }

    // Tags on a thread through the server: the thread's tags come back for the
    // list, a count of `tag:` queries follows at once, and the name is in use.
    assert!(engine.send(EngineRequest::Tag {
        req: 7,
        target: quoth::engine::mailbox::tagging::TagTarget::Thread(leak.id),
        add: vec!["insurance".into()],
        remove: vec![],
    }));
    let (mut listed_tags, mut report) = (None, None);
    while listed_tags.is_none() || report.is_none() {
        match next(&mut events) {
            EngineEvent::ThreadTags { tags, every } => {
                assert!(!every);
                listed_tags = Some(tags);
            }
            EngineEvent::Tagged { req, report: r } => {
                assert_eq!(req, 7);
                report = Some(r);
            }
            EngineEvent::Error { message, .. } => panic!("{message}"),
            _ => {}
        }
    }
    assert_eq!(
        listed_tags,
        Some(vec![(leak.id, vec!["insurance".to_string()])])
    );
    let report = report.expect("a report");
    assert_eq!(
        report.changed,
        leak.messages.len(),
        "every copy of its mail"
    );
    assert!(engine.send(EngineRequest::Count {
        req: 8,
        queries: vec!["tag:insurance".into(), "tag:insurance AND (".into()],
    }));
    assert!(engine.send(EngineRequest::Tags { req: 9 }));
    let (mut counts, mut names) = (None, None);
    while counts.is_none() || names.is_none() {
        match next(&mut events) {
            EngineEvent::Counts { req: 8, counts: c } => counts = Some(c),
            EngineEvent::TagList { req: 9, tags } => names = Some(tags),
            EngineEvent::Error { message, .. } => panic!("{message}"),
            _ => {}
        }
    }
    let counts = counts.expect("counts");
    assert_eq!(counts[0], Ok(leak.messages.len() as u64));
    assert!(
        counts[1]
            .as_ref()
            .is_err_and(|e| e.contains("invalid query")),
        "{counts:?}"
    );
    assert_eq!(
        names,
        Some(vec![("insurance".to_string(), leak.messages.len())])
    );

    server.kill().ok();
    server.wait().ok();
    let mut said = Vec::new();
    while said.len() < 2 {
        if let EngineEvent::Error { req: None, message } = next(&mut events) {
            said.push(message);
        }
    }
    assert!(said[0].contains("stopped; starting another"), "{said:?}");
    assert!(said[1].contains("this test starts no server"), "{said:?}");
}
