//! `quoth bench imap`: IMAP sync figures against a Dovecot started on a loopback port
//! for the run: initial sync rate, a no-change sync, and the time from an APPEND on
//! the server to the message being stored and searchable while IDLE runs.

use super::tempfile_dir;
use crate::cli::output::print_json;
use anyhow::{bail, Context, Result};
use quoth::engine::SyncOptions;
use quoth::source::imap::config::parse_accounts;
use quoth::source::imap::{connect, AccountConfig};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const PASSWORD: &str = "bench";

pub fn run(maildir: &Path, runs: usize, work_dir: Option<PathBuf>, json: bool) -> Result<i32> {
    let work = tempfile_dir(work_dir)?;
    let server = LocalDovecot::start(&work.join("dovecot"))?;
    let account = server.account()?;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let folders = maildir_folders(maildir)?;
    let total: usize = folders.iter().map(|(_, m)| m.len()).sum();
    rt.block_on(async {
        let mut s = connect(&account, Duration::from_secs(30)).await?;
        for (folder, msgs) in &folders {
            if folder != "INBOX" {
                s.command(&format!("CREATE \"{folder}\"")).await?;
            }
            for m in msgs {
                s.append(folder, None, m).await?;
            }
        }
        s.logout().await;
        anyhow::Ok(())
    })?;

    let opts = SyncOptions::default();
    let mut initial = Vec::new();
    let data = work.join("data");
    for _ in 0..runs {
        let _ = std::fs::remove_dir_all(&data);
        let mut engine = super::open_engine(&data)?;
        let t = Instant::now();
        engine.sync(std::slice::from_ref(&account), &opts)?;
        initial.push(t.elapsed().as_secs_f64());
    }
    let mut no_change = Vec::new();
    {
        let mut engine = super::open_engine(&data)?;
        for _ in 0..5 {
            let t = Instant::now();
            engine.sync(std::slice::from_ref(&account), &opts)?;
            no_change.push(t.elapsed().as_secs_f64());
        }
    }
    let push = rt.block_on(push_latency(&server, &account, &data, 5))?;

    let initial_s = median(initial);
    let (no_change_s, push_s) = (median(no_change), median(push));
    let figures = json!({
        "messages": total,
        "initial_sync_seconds": initial_s,
        "initial_sync_messages_per_second": total as f64 / initial_s,
        "no_change_sync_seconds": no_change_s,
        "append_to_searchable_seconds": push_s,
        "runs": runs,
    });
    if json {
        print_json(&figures)?;
    } else {
        outln!(
            "initial sync: {total} messages in {initial_s:.2} s ({:.0} messages/s, median of {runs})",
            total as f64 / initial_s
        );
        outln!("no-change sync: {no_change_s:.3} s (median of 5)");
        outln!("APPEND to searchable with IDLE: {push_s:.3} s (median of 5)");
    }
    let _ = std::fs::remove_dir_all(&work);
    Ok(0)
}

/// Runs `quoth sync --watch` and times each APPEND until its new-mail event, which
/// comes after the message is committed to the search index.
async fn push_latency(
    server: &LocalDovecot,
    account: &AccountConfig,
    data: &Path,
    count: usize,
) -> Result<Vec<f64>> {
    let mut child = Command::new(std::env::current_exe()?)
        .arg("--data-dir")
        .arg(data)
        .args(["--json", "sync", "--watch", "--config"])
        .arg(&server.config)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let stdout = child.stdout.take().context("watch output")?;
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let wait = |what: &str| -> Result<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = rx.recv_timeout(left).context("the watch loop went quiet")?;
            if line.contains(&format!("\"event\":\"{what}\"")) {
                return Ok(());
            }
        }
    };
    wait("idling")?;
    let mut out = Vec::new();
    let mut s = connect(account, Duration::from_secs(30)).await?;
    for i in 0..count {
        let msg = format!(
            "From: bench@example.com\r\nTo: alice@example.com\r\nSubject: push {i}\r\n\
             Message-ID: <push-{i}-{}@example.com>\r\n\r\nPushed message {i}.\r\n",
            std::process::id()
        );
        s.append("INBOX", None, msg.as_bytes()).await?;
        let t = Instant::now();
        wait("new_mail")?;
        out.push(t.elapsed().as_secs_f64());
    }
    s.logout().await;
    let _ = child.kill();
    let _ = child.wait();
    Ok(out)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// The messages of a Maildir tree by IMAP folder (`inbox` becomes INBOX).
fn maildir_folders(root: &Path) -> Result<Vec<(String, Vec<Vec<u8>>)>> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .with_context(|| format!("reading {}", root.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        let name = d
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let folder = if name == "inbox" {
            "INBOX".to_string()
        } else {
            name
        };
        let mut files = Vec::new();
        for sub in ["cur", "new"] {
            if let Ok(rd) = std::fs::read_dir(d.join(sub)) {
                files.extend(rd.filter_map(|e| e.ok().map(|e| e.path())));
            }
        }
        files.sort();
        let msgs = files.iter().filter_map(|f| std::fs::read(f).ok()).collect();
        out.push((folder, msgs));
    }
    Ok(out)
}

/// A Dovecot for the run: plaintext login on loopback, Maildir storage as `nobody`.
struct LocalDovecot {
    child: Child,
    port: u16,
    config: PathBuf,
}

impl LocalDovecot {
    fn start(dir: &Path) -> Result<Self> {
        let bin = Path::new("/usr/sbin/dovecot");
        if !bin.exists() {
            bail!("the IMAP bench needs Dovecot: apt-get install dovecot-imapd");
        }
        if unsafe { libc::geteuid() } != 0 {
            bail!("the IMAP bench runs Dovecot as root (it switches to the mail user)");
        }
        let _ = std::fs::remove_dir_all(dir);
        let mail = dir.join("mail");
        std::fs::create_dir_all(&mail)?;
        for d in [dir.parent().unwrap_or(dir), dir] {
            std::fs::set_permissions(d, std::os::unix::fs::PermissionsExt::from_mode(0o755))?;
        }
        std::os::unix::fs::chown(&mail, Some(65534), Some(65534))?;
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let r = dir.display();
        std::fs::write(
            dir.join("passwd"),
            format!("alice:{{PLAIN}}{PASSWORD}:65534:65534::{r}/mail/alice::\n"),
        )?;
        let conf = format!(
            "protocols = imap\nlisten = 127.0.0.1\nbase_dir = {r}/run\nstate_dir = {r}/state\n\
             log_path = {r}/dovecot.log\nssl = no\ndisable_plaintext_auth = no\n\
             mail_location = maildir:~/Maildir\nmail_fsync = never\n\
             first_valid_uid = 65534\nfirst_valid_gid = 65534\n\
             passdb {{\n  driver = passwd-file\n  args = {r}/passwd\n}}\n\
             userdb {{\n  driver = passwd-file\n  args = {r}/passwd\n}}\n\
             service imap-login {{\n  chroot =\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n  inet_listener imaps {{\n    port = 0\n  }}\n}}\n\
             service anvil {{\n  chroot =\n}}\n"
        );
        std::fs::write(dir.join("dovecot.conf"), conf)?;
        let child = Command::new(bin)
            .args(["-F", "-c"])
            .arg(dir.join("dovecot.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        let config = dir.join("quoth.toml");
        std::fs::write(
            &config,
            format!(
                "[[account]]\nname = \"bench\"\nhost = \"127.0.0.1\"\nport = {port}\n\
                 tls = \"plain\"\nuser = \"alice\"\npassword_env = \"QUOTH_BENCH_IMAP_PASSWORD\"\n"
            ),
        )?;
        std::env::set_var("QUOTH_BENCH_IMAP_PASSWORD", PASSWORD);
        let server = LocalDovecot {
            child,
            port,
            config,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", server.port)).is_err() {
            if Instant::now() > deadline {
                bail!("Dovecot did not start; see {r}/dovecot.log");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(server)
    }

    fn account(&self) -> Result<AccountConfig> {
        let text = std::fs::read_to_string(&self.config)?;
        parse_accounts(&text)
            .map_err(anyhow::Error::msg)?
            .into_iter()
            .next()
            .context("bench account")
    }
}

impl Drop for LocalDovecot {
    fn drop(&mut self) {
        // SIGTERM: the master stops its login and mail processes with it.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        let _ = self.child.wait();
    }
}
