//! Login and connection errors that are clear and leave the store intact, and a
//! watch loop that reconnects after the server restarts.

use super::*;
use crate::imap::{append_all, PASSWORD};

#[test]
fn login_and_connection_errors_are_clear_and_leave_the_store_intact() {
    let Some(server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    rt.block_on(async {
        let mut s = server.session().await;
        let msgs: Vec<Vec<u8>> = (0..5).map(|i| fresh_message(i, "errors")).collect();
        append_all(&mut s, "INBOX", &msgs).await;
        s.logout().await;
    });
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    run_ok(quoth(
        &data,
        &server.write_config(ACCOUNT, PASSWORD, server.port),
        &[],
    ));
    let stored = || {
        quoth::engine::Engine::open(&data)
            .expect("open")
            .stats()
            .expect("stats")
            .messages
    };
    assert_eq!(stored(), 5);

    let fail = |config: &Path| -> String {
        let out = quoth(&data, config, &["--retries", "0"])
            .output()
            .expect("runs");
        assert!(!out.status.success(), "sync should fail");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };

    let wrong = server.write_config(ACCOUNT, "not-the-password", server.port);
    let err = fail(&wrong);
    assert!(
        err.contains("account 'test'") && err.contains("refused the login of 'alice'"),
        "{err}"
    );
    assert!(
        !err.contains("not-the-password"),
        "the password is never shown: {err}"
    );
    assert_eq!(stored(), 5, "a refused login leaves the store as it was");

    let closed_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let unreachable = server.write_config(ACCOUNT, PASSWORD, closed_port);
    let err = fail(&unreachable);
    assert!(
        err.contains("account 'test'")
            && err.contains(&format!("cannot connect to 127.0.0.1:{closed_port}")),
        "{err}"
    );

    let tls = work.path().join("tls.toml");
    std::fs::write(
        &tls,
        server
            .account_toml(ACCOUNT, PASSWORD, server.port)
            .replace("tls = \"plain\"", "tls = \"implicit\""),
    )
    .expect("config");
    let err = fail(&tls);
    assert!(
        err.contains("account 'test'") && err.contains("TLS with 127.0.0.1 failed"),
        "{err}"
    );

    let remote = work.path().join("remote.toml");
    std::fs::write(
        &remote,
        server
            .account_toml(ACCOUNT, PASSWORD, server.port)
            .replace("127.0.0.1", "imap.example.com"),
    )
    .expect("config");
    let err = fail(&remote);
    assert!(err.contains("only for a server on this machine"), "{err}");
    assert_eq!(stored(), 5);
    let _ = rt;
}

#[test]
fn the_watch_loop_reconnects_after_the_server_restarts() {
    let Some(mut server) = Dovecot::start() else {
        return;
    };
    let rt = runtime();
    let config = server.write_config(ACCOUNT, PASSWORD, server.port);
    let work = tempfile::tempdir().expect("work dir");
    let data = work.path().join("data");
    let (mut watch, rx) = start_watch(&data, &config);
    next_event(&rx, "idling");
    server.restart();
    // The IDLE connection breaks, is reported, and comes back after a backoff.
    next_event(&rx, "error");
    next_event(&rx, "idling");
    rt.block_on(async {
        let mut s = server.session().await;
        s.append("INBOX", None, &fresh_message(1, "after-restart"))
            .await
            .expect("append");
        s.logout().await;
    });
    let event = next_event(&rx, "new_mail");
    assert_eq!(event["count"], 1);
    let _ = watch.kill();
    let _ = watch.wait();
    assert_matches(&rt, &server, &data, "after a server restart");
}
