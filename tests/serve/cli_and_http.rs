//! The CLI and the HTTP API sharing one server: same answers, tokens required, and
//! a killed server leaving the CLI working.

use super::*;
use common::demo_mailbox;
use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use std::time::{Duration, Instant};

/// What must agree between two answers to one question (timings differ).
fn answer_part(v: &Value) -> Value {
    serde_json::json!({
        "answer": v["answer"],
        "abstained": v["abstained"],
        "short_answer": v["short_answer"],
        "citations": v["citations"],
    })
}

fn hit_keys(v: &Value) -> Vec<String> {
    v["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| h["key"].as_str().expect("key").to_string())
        .collect()
}

const QUESTION: &str = "when is the roofer coming?";

#[test]
fn the_cli_and_the_http_api_share_one_server() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("data");
    let ingest = quoth(&dir)
        .args(["ingest", "--no-embed"])
        .arg(demo_mailbox())
        .output()
        .expect("ingest runs");
    assert!(
        ingest.status.success(),
        "{}",
        String::from_utf8_lossy(&ingest.stderr)
    );
    // The graph jobs run with the background work (embedding may fail without the
    // model: the graph is read first either way).
    quoth(&dir).arg("embed").output().expect("embed runs");
    // In process, before any server runs.
    let asked = json_of(&dir, &["ask", QUESTION]);
    assert_eq!(asked["abstained"], false, "{asked}");
    let searched = json_of(&dir, &["search", "--mode", "lexical", "roof inspection"]);
    assert!(!hit_keys(&searched).is_empty());
    let cited = asked["citations"][0]["message_id"]
        .as_str()
        .expect("cited id")
        .to_string();
    let shown = json_of(&dir, &["show", &cited]);

    // A non-loopback address needs --allow-remote.
    let remote = quoth(&dir)
        .args(["serve", "--http", "0.0.0.0:0"])
        .output()
        .expect("serve runs");
    assert!(!remote.status.success());
    assert!(String::from_utf8_lossy(&remote.stderr).contains("--allow-remote"));

    let (mut server, base) = start_server(&dir);
    let token = std::fs::read_to_string(dir.join("api-token")).expect("token written");
    let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
    assert_eq!(mode(&dir.join("api-token")), 0o600);
    assert_eq!(mode(&dir.join("server.sock")), 0o600);

    // The CLI now goes through the server, which holds the data directory.
    assert_eq!(
        answer_part(&json_of(&dir, &["ask", QUESTION])),
        answer_part(&asked)
    );
    assert_eq!(json_of(&dir, &["show", &cited]), shown);
    let text = quoth(&dir)
        .args(["show", &cited])
        .output()
        .expect("show runs");
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("──── authored"));
    let status = json_of(&dir, &["status"]);
    assert!(status["embedding"]["total"].as_u64().is_some(), "{status}");
    let stats = json_of(&dir, &["stats"]);
    assert!(stats["messages"].as_u64().unwrap_or(0) > 0, "{stats}");
    // The quarantine and a reindex go through the server; a rebuild, which needs
    // the data directory to itself, says why it cannot run.
    let quarantined = json_of(&dir, &["quarantine"]);
    assert!(quarantined.is_array(), "{quarantined}");
    let reindexed = json_of(&dir, &["reindex"]);
    assert_eq!(reindexed["indexed"], stats["messages"], "{reindexed}");
    let rebuild = quoth(&dir).args(["rebuild"]).output().expect("runs");
    assert!(!rebuild.status.success());
    assert!(
        String::from_utf8_lossy(&rebuild.stderr).contains("in use by a running Quoth"),
        "{}",
        String::from_utf8_lossy(&rebuild.stderr)
    );
    // A question set is asked and scored by the server, each item shown as it is
    // scored.
    let set = tmp.path().join("set.jsonl");
    std::fs::write(
        &set,
        format!(
            "{}\n{}\n",
            json!({"id": "r1", "kind": "fact", "question": QUESTION,
                   "gold_message_ids": [format!("<{}>", cited.trim_matches(['<', '>']))],
                   "answer_any": []}),
            json!({"id": "n1", "kind": "abstain",
                   "question": "what is the wifi password of the lighthouse?"}),
        ),
    )
    .expect("set written");
    let eval = quoth(&dir)
        .arg("--json")
        .arg("eval")
        .arg(&set)
        .arg("--verbose")
        .output()
        .expect("runs");
    assert!(
        eval.status.success(),
        "{}",
        String::from_utf8_lossy(&eval.stderr)
    );
    let report: Value = serde_json::from_slice(&eval.stdout).expect("JSON report");
    assert_eq!(
        (
            report["answerable"].as_u64(),
            report["unanswerable"].as_u64()
        ),
        (Some(1), Some(1)),
        "{report}"
    );
    assert_eq!(report["citation_accuracy"], 1.0, "{report}");
    let listed = quoth(&dir)
        .arg("eval")
        .arg(&set)
        .arg("--verbose")
        .output()
        .expect("runs");
    let lines = String::from_utf8_lossy(&listed.stderr).into_owned();
    assert!(lines.contains("r1") && lines.contains("n1"), "{lines}");
    // A server without a UI cannot show a message, and says so.
    let open = quoth(&dir).args(["open", &cited]).output().expect("runs");
    assert!(!open.status.success());
    assert!(
        String::from_utf8_lossy(&open.stderr).contains("no UI open"),
        "{}",
        String::from_utf8_lossy(&open.stderr)
    );
    let bad = quoth(&dir)
        .args(["search", "from:("])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("invalid query"));

    let http = reqwest::blocking::Client::new();
    for auth in [None, Some("Bearer wrong"), Some(token.as_str())] {
        let mut req = http.get(format!("{base}status"));
        if let Some(a) = auth {
            req = req.header(
                "Authorization",
                if a == token {
                    format!("Bearer {a}")
                } else {
                    a.to_string()
                },
            );
        }
        let code = req.send().expect("HTTP answers").status().as_u16();
        assert_eq!(
            code,
            if auth == Some(token.as_str()) {
                200
            } else {
                401
            }
        );
    }
    let bearer = format!("Bearer {token}");
    let body = serde_json::json!({ "question": QUESTION });
    let over_http: Value = http
        .post(format!("{base}ask"))
        .header("Authorization", &bearer)
        .json(&body)
        .send()
        .expect("ask answers")
        .json()
        .expect("JSON");
    assert_eq!(answer_part(&over_http), answer_part(&asked));

    let stream = http
        .post(format!("{base}ask"))
        .header("Authorization", &bearer)
        .header("Accept", "text/event-stream")
        .json(&body)
        .send()
        .expect("ask streams")
        .text()
        .expect("stream ends");
    let events = server_sent_events(&stream);
    let (last_name, last_data) = events.last().expect("events");
    assert_eq!(last_name, "final", "{stream}");
    let final_answer: Value = serde_json::from_str(last_data).expect("final holds JSON");
    assert_eq!(answer_part(&final_answer), answer_part(&asked));
    assert!(events.iter().any(|(n, _)| n == "delta"), "{stream}");

    let hits: Value = http
        .get(format!("{base}search"))
        .query(&[("q", "roof inspection"), ("mode", "lexical")])
        .header("Authorization", &bearer)
        .send()
        .expect("search answers")
        .json()
        .expect("JSON");
    assert_eq!(hit_keys(&hits), hit_keys(&searched));
    let cited = asked["citations"][0]["message_id"]
        .as_str()
        .expect("cited id");
    let message: Value = http
        .get(format!("{base}messages/{cited}"))
        .header("Authorization", &bearer)
        .send()
        .expect("message answers")
        .json()
        .expect("JSON");
    assert_eq!(message, shown);
    let missing = http
        .get(format!("{base}messages/no-such-message"))
        .header("Authorization", &bearer)
        .send()
        .expect("answers");
    assert_eq!(missing.status().as_u16(), 404);
    let threads: Value = http
        .get(format!("{base}threads?limit=3"))
        .header("Authorization", &bearer)
        .send()
        .expect("threads answer")
        .json()
        .expect("JSON");
    assert_eq!(threads["threads"].as_array().map(Vec::len), Some(3));

    // The graph: people and facts answer over HTTP as the CLI prints them.
    for (path, command, query) in [
        ("people", "people", "harbor"),
        ("facts", "facts", "strike price"),
    ] {
        let over_http: Value = http
            .get(format!("{base}{path}"))
            .query(&[("q", query)])
            .header("Authorization", &bearer)
            .send()
            .expect("the graph answers")
            .json()
            .expect("JSON");
        assert_eq!(over_http, json_of(&dir, &[command, query]), "{path}");
    }
    let people: Value = json_of(&dir, &["people", "harbor"]);
    assert_eq!(
        people["organisation"]["domain"], "harbor-properties.example",
        "{people}"
    );
    assert!(
        people["people"][0]["name"]
            .as_str()
            .is_some_and(|n| n.contains("Dana")),
        "{people}"
    );
    let facts = json_of(&dir, &["facts", "strike price"]);
    assert!(
        facts["facts"]
            .as_array()
            .expect("facts")
            .iter()
            .any(|f| f["value"] == "$14.50"),
        "{facts}"
    );
    let no_thread = http
        .get(format!("{base}threads/0000000000000000/graph"))
        .header("Authorization", &bearer)
        .send()
        .expect("answers");
    assert_eq!(no_thread.status().as_u16(), 404);

    // An ingest from the CLI runs in the server's background; its mail becomes
    // searchable for every client.
    let more = tmp.path().join("more");
    common::maildir_with_one(
        &more,
        "From: Dana Reyes <dana@example.com>\r\nTo: you@example.com\r\n\
         Subject: Greenhouse permit approved\r\nMessage-ID: <permit-1@example.com>\r\n\
         Date: Tue, 12 Mar 2024 09:30:00 +0000\r\n\r\nThe greenhouse permit came through.\r\n",
    );
    let queued = json_of(
        &dir,
        &["ingest", "--no-embed", more.to_str().expect("utf-8 path")],
    );
    assert_eq!(queued["queued"], true, "{queued}");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found = json_of(&dir, &["search", "--mode", "lexical", "greenhouse permit"]);
        if !hit_keys(&found).is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the ingested mail never became searchable"
        );
        std::thread::sleep(Duration::from_millis(200));
    }

    // Killed: the CLI finds no server behind the socket and opens the store itself.
    server.kill().expect("kill -9");
    server.wait().expect("reaped");
    let after = json_of(&dir, &["search", "--mode", "lexical", "roof inspection"]);
    assert_eq!(hit_keys(&after), hit_keys(&searched));
}

/// (event name, data) pairs of a text/event-stream body.
fn server_sent_events(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
        let mut name = String::from("message");
        let mut data = Vec::new();
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("event:") {
                name = v.trim().to_string();
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push(v.strip_prefix(' ').unwrap_or(v).to_string());
            }
        }
        out.push((name, data.join("\n")));
    }
    out
}
