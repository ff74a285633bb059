//! A real Dovecot on a loopback port for the IMAP tests, and helpers to play the
//! other side: append, flag, expunge, recreate folders, snapshot what the server has.
#![allow(dead_code)]

use quoth::mail::identity::content_key;
use quoth::source::imap::config::parse_accounts;
use quoth::source::imap::{connect, AccountConfig, ImapSession};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub const USER: &str = "alice";
pub const PASSWORD: &str = "s3cret";

/// Folder name → sorted (content key hex, flags) of its messages.
pub type Snapshot = BTreeMap<String, Vec<(String, String)>>;

pub struct Dovecot {
    pub dir: tempfile::TempDir,
    pub port: u16,
    child: Child,
    bin: PathBuf,
}

fn spawn(bin: &Path, conf: &Path) -> Child {
    Command::new(bin)
        .arg("-F")
        .arg("-c")
        .arg(conf)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("dovecot starts")
}

/// The dovecot binary, or None (with the skip-or-fail rule of tests/common).
pub fn dovecot_binary() -> Option<PathBuf> {
    let found = ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists());
    let is_root = unsafe { libc::geteuid() } == 0;
    if found.is_some() && is_root {
        return found;
    }
    let why = if found.is_none() {
        "dovecot is not installed (apt-get install dovecot-imapd)"
    } else {
        "the Dovecot tests run as root (dovecot switches to a mail user)"
    };
    if std::env::var_os("QUOTH_REQUIRE_SHARED").is_some() {
        panic!("{why}, and QUOTH_REQUIRE_SHARED is set");
    }
    eprintln!("SKIP: {why}");
    None
}

/// A loopback port no other server of this test process was given: the kernel may
/// hand a port that was just let go to the next caller, so the ports handed out are
/// remembered.
fn free_port() -> u16 {
    static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free loopback port");
        if given.insert(port) {
            return port;
        }
    }
}

/// Why a started Dovecot does not serve.
#[derive(Debug)]
enum NotListening {
    /// The master exited (its port was taken between choosing and binding it).
    Exited(std::process::ExitStatus),
    /// Nothing of ours answered in time.
    Timeout,
}

impl Dovecot {
    /// Starts Dovecot from a config written into a temp dir: plaintext login on
    /// loopback only, Maildir storage as the `nobody` user, a passwd-file user.
    ///
    /// The port is chosen free, but another process may bind it before Dovecot
    /// does: the server greets with a line of its own, and a start whose greeting is
    /// not heard (another server answers, or the master exits) is tried again on
    /// another port.
    pub fn start() -> Option<Self> {
        let bin = dovecot_binary()?;
        let dir = tempfile::tempdir().expect("temp dir");
        let root_buf = dir.path().to_path_buf();
        let root = root_buf.as_path();
        // Dovecot's unprivileged processes must reach their sockets and the mail.
        std::fs::set_permissions(root, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .expect("chmod");
        let mail = root.join("mail");
        std::fs::create_dir_all(&mail).expect("mail dir");
        let (uid, gid) = (65534u32, 65534u32);
        std::os::unix::fs::chown(&mail, Some(uid), Some(gid)).expect("chown mail dir");
        std::fs::write(
            root.join("passwd"),
            format!(
                "{USER}:{{PLAIN}}{PASSWORD}:{uid}:{gid}::{}::\n",
                mail.join(USER).display()
            ),
        )
        .expect("passwd");
        let conf_path = root.join("dovecot.conf");
        let mut failures = Vec::new();
        for _ in 0..5 {
            let port = free_port();
            std::fs::write(&conf_path, config(root, port, uid, gid)).expect("dovecot.conf");
            let mut child = spawn(&bin, &conf_path);
            match wait_listening(&mut child, port) {
                Ok(()) => {
                    return Some(Dovecot {
                        dir,
                        port,
                        child,
                        bin,
                    })
                }
                Err(why) => {
                    failures.push(format!("port {port}: {why:?}"));
                    stop(&mut child);
                }
            }
        }
        panic!(
            "dovecot did not listen: {failures:?}\n{}",
            std::fs::read_to_string(root.join("dovecot.log")).unwrap_or_default()
        );
    }

    /// An account as the user would configure it.
    pub fn account_toml(&self, name: &str, password: &str, port: u16) -> String {
        format!(
            "[[account]]\nname = \"{name}\"\nhost = \"127.0.0.1\"\nport = {port}\n\
             tls = \"plain\"\nuser = \"{USER}\"\npassword_cmd = \"printf '%s\\\\n' '{password}'\"\n"
        )
    }

    /// Writes a config file with one account and returns its path.
    pub fn write_config(&self, name: &str, password: &str, port: u16) -> PathBuf {
        let path = self.dir.path().join(format!("{name}-{port}.toml"));
        let mut f = std::fs::File::create(&path).expect("config");
        f.write_all(self.account_toml(name, password, port).as_bytes())
            .expect("config");
        path
    }

    pub fn account(&self) -> AccountConfig {
        parse_accounts(&self.account_toml("admin", PASSWORD, self.port))
            .expect("account")
            .remove(0)
    }

    pub async fn session(&self) -> ImapSession {
        connect(&self.account(), Duration::from_secs(30))
            .await
            .expect("admin login")
    }
}

/// The line a server greets with: its port, so a greeting from another server on
/// the same port is told apart.
fn greeting(port: u16) -> String {
    format!("Test Dovecot on port {port} ready")
}

/// Dovecot's configuration: plaintext login on one loopback port only, Maildir
/// storage as the `nobody` user, a passwd-file user.
fn config(root: &Path, port: u16, uid: u32, gid: u32) -> String {
    let r = root.display();
    let hello = greeting(port);
    format!(
        "protocols = imap\nlisten = 127.0.0.1\nbase_dir = {r}/run\nstate_dir = {r}/state\n\
         log_path = {r}/dovecot.log\nssl = no\ndisable_plaintext_auth = no\n\
         auth_mechanisms = plain login\nmail_location = maildir:~/Maildir\n\
         mail_fsync = never\nfirst_valid_uid = {uid}\nfirst_valid_gid = {gid}\n\
         auth_failure_delay = 0\nlogin_greeting = {hello}\n\
         passdb {{\n  driver = passwd-file\n  args = {r}/passwd\n}}\n\
         userdb {{\n  driver = passwd-file\n  args = {r}/passwd\n}}\n\
         service imap-login {{\n  chroot =\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n  inet_listener imaps {{\n    port = 0\n  }}\n}}\n\
         service anvil {{\n  chroot =\n}}\n"
    )
}

/// Whether the server on `port` greets as the one configured for it.
fn greets(port: u16) -> bool {
    let Ok(stream) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return false;
    };
    if stream
        .set_read_timeout(Some(Duration::from_secs(2)))
        .is_err()
    {
        return false;
    }
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line).is_ok() && line.contains(&greeting(port))
}

/// Waits until the started master's own greeting is heard on `port`.
fn wait_listening(child: &mut Child, port: u16) -> Result<(), NotListening> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if greets(port) {
            return Ok(());
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(NotListening::Exited(status));
        }
        if Instant::now() > deadline {
            return Err(NotListening::Timeout);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Stops a master; SIGTERM lets it take its login and mail processes down with it.
fn stop(child: &mut Child) {
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl Dovecot {
    /// Stops the server and starts it again on the same port with the same mail.
    pub fn restart(&mut self) {
        stop(&mut self.child);
        // The port may linger for a moment after the master exits.
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpListener::bind(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "the port stays busy");
            std::thread::sleep(Duration::from_millis(50));
        }
        self.child = spawn(&self.bin, &self.dir.path().join("dovecot.conf"));
        if let Err(why) = wait_listening(&mut self.child, self.port) {
            panic!(
                "dovecot did not listen again on {}: {why:?}\n{}",
                self.port,
                std::fs::read_to_string(self.dir.path().join("dovecot.log")).unwrap_or_default()
            );
        }
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        stop(&mut self.child);
    }
}

/// Messages of the allen-p Maildir by IMAP folder (`inbox` becomes INBOX).
pub fn maildir_messages(root: &Path) -> BTreeMap<String, Vec<Vec<u8>>> {
    let mut out: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    let mut dirs: Vec<_> = std::fs::read_dir(root)
        .expect("maildir")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .collect();
    dirs.sort_by_key(|e| e.file_name());
    for d in dirs {
        let name = d.file_name().to_string_lossy().into_owned();
        let folder = if name == "inbox" {
            "INBOX".to_string()
        } else {
            name
        };
        let mut files = Vec::new();
        for sub in ["cur", "new"] {
            if let Ok(rd) = std::fs::read_dir(d.path().join(sub)) {
                files.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()));
            }
        }
        files.sort();
        let msgs = out.entry(folder).or_default();
        for f in files {
            msgs.push(std::fs::read(f).expect("message file"));
        }
    }
    out
}

pub async fn append_all(s: &mut ImapSession, folder: &str, msgs: &[Vec<u8>]) {
    if folder != "INBOX" {
        let _ = s.command(&format!("CREATE \"{folder}\"")).await;
    }
    for m in msgs {
        s.append(folder, None, m).await.expect("append");
    }
}

/// What the server holds, folder by folder.
pub async fn server_snapshot(s: &mut ImapSession) -> Snapshot {
    let mut snap = Snapshot::new();
    for folder in s.folders().await.expect("LIST") {
        let status = s.select(&folder).await.expect("SELECT");
        let mut rows = Vec::new();
        if status.exists > 0 {
            let mut uids: Vec<u32> = s
                .all_uids(&folder)
                .await
                .expect("SEARCH")
                .into_iter()
                .collect();
            uids.sort_unstable();
            for m in s.fetch_messages(&folder, &uids).await.expect("FETCH") {
                let raw = m.raw.unwrap_or_default();
                rows.push((content_key(&raw).to_hex(), m.flags));
            }
        }
        rows.sort();
        snap.insert(folder, rows);
    }
    snap
}

/// What the local store says each folder holds (from the UID maps), and checks
/// that the store holds exactly those messages, each once, each searchable.
pub fn local_snapshot(data_dir: &Path, account: &str) -> Snapshot {
    // A handle just dropped lets the store go once its last background task ends.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let engine = loop {
        match quoth::engine::Engine::open(data_dir) {
            Err(quoth::engine::EngineError::Store(quoth::store::StoreError::Locked(_)))
                if std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(100))
            }
            other => break other.expect("engine opens"),
        }
    };
    let state = quoth::store::sync_state::SyncState::open(engine.store().db()).expect("state");
    let mut snap = Snapshot::new();
    let mut keys = std::collections::HashSet::new();
    for folder in state.folders(account).expect("folders") {
        let mut rows: Vec<(String, String)> = state
            .folder_uids(account, &folder)
            .expect("uids")
            .into_values()
            .map(|e| {
                keys.insert(e.key);
                (e.key.to_hex(), e.flags)
            })
            .collect();
        rows.sort();
        snap.insert(folder, rows);
    }
    let stats = engine.stats().expect("stats");
    let quarantined_keys = keys
        .iter()
        .filter(|k| !engine.store().contains_message(k).unwrap_or(false))
        .count();
    assert_eq!(
        stats.messages + quarantined_keys,
        keys.len(),
        "every mapped message is stored (or quarantined), and nothing else is"
    );
    assert_eq!(
        stats.lexical_docs as usize, stats.messages,
        "one search document per stored message"
    );
    snap
}
