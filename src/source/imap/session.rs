//! One logged-in IMAP connection and the few commands sync needs. Every command runs
//! under a timeout, so a server that stops answering becomes a (transient) error
//! instead of a hang; every error names the account and the step.

use super::config::{AccountConfig, TlsMode};
use super::credentials::{credentials, xoauth2_response, Credentials};
use super::flags::{imap_flag_list, keywords, maildir_flags};
use super::ImapError;
use async_imap::types::{Flag, NameAttribute};
use async_imap::{Client, Session};
use futures_util::TryStreamExt;
use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::rustls;

/// A byte stream to the server: plain TCP or TLS over it.
pub trait Transport: AsyncRead + AsyncWrite + Unpin + Send + fmt::Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + fmt::Debug> Transport for T {}
type Stream = Box<dyn Transport>;

/// What SELECT said about a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FolderStatus {
    pub uidvalidity: u32,
    pub uidnext: Option<u32>,
    pub highest_modseq: Option<u64>,
    pub exists: u32,
    /// Whether the folder keeps keywords a client makes up (`\\*` among its
    /// PERMANENTFLAGS), which Quoth's tags become.
    pub keywords: bool,
}

/// One message as fetched: its UID, flags as Maildir letters, and its bytes (None
/// when the server sent the FETCH without a body: an odd server, quarantined).
#[derive(Debug, Clone)]
pub struct FetchedMessage {
    pub uid: u32,
    pub flags: String,
    /// Its keywords (flags without a backslash), sorted.
    pub keywords: Vec<String>,
    pub raw: Option<Vec<u8>>,
}

/// One message's flags as a FETCH FLAGS reports them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagsOf {
    pub uid: u32,
    /// System flags as Maildir letters.
    pub flags: String,
    /// Keywords, sorted.
    pub keywords: Vec<String>,
}

/// How an IDLE ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdleOutcome {
    /// The server reported a change in the folder.
    Changed,
    /// Nothing happened before the re-IDLE deadline.
    Timeout,
}

pub struct ImapSession {
    account: String,
    session: Session<Stream>,
    condstore: bool,
    /// The server has MOVE (RFC 6851) and UIDPLUS (UID EXPUNGE, RFC 4315).
    can_move: bool,
    uidplus: bool,
    timeout: Duration,
}

/// The TLS settings for IMAP and for the OAuth token endpoint: rustls with the ring
/// provider and Mozilla's root certificates, so no system OpenSSL is involved.
pub fn tls_config() -> Result<rustls::ClientConfig, rustls::Error> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// Runs `fut` under the session timeout, naming `step` if it expires.
async fn timed<T>(
    account: &str,
    step: &str,
    limit: Duration,
    fut: impl Future<Output = Result<T, ImapError>>,
) -> Result<T, ImapError> {
    match tokio::time::timeout(limit, fut).await {
        Ok(r) => r,
        Err(_) => Err(ImapError::Timeout {
            account: account.to_string(),
            step: step.to_string(),
            secs: limit.as_secs(),
        }),
    }
}

struct XOAuth2(String);

impl async_imap::Authenticator for XOAuth2 {
    type Response = String;
    fn process(&mut self, _challenge: &[u8]) -> String {
        std::mem::take(&mut self.0)
    }
}

/// Connects, secures and logs in. The secret is fetched first, so a broken
/// password command fails before the server is bothered.
pub async fn connect(account: &AccountConfig, timeout: Duration) -> Result<ImapSession, ImapError> {
    account.validate()?;
    let name = account.name.as_str();
    let creds = credentials(account).await?;
    let (host, port) = (account.host.as_str(), account.port());
    let tcp = timed(name, "connect", timeout, async {
        TcpStream::connect((host, port))
            .await
            .map_err(|source| ImapError::Connect {
                account: name.to_string(),
                host: host.to_string(),
                port,
                source,
            })
    })
    .await?;
    let _ = tcp.set_nodelay(true);
    let stream: Stream = match account.tls {
        TlsMode::Plain => Box::new(tcp),
        TlsMode::Implicit => {
            Box::new(timed(name, "TLS handshake", timeout, tls(account, tcp)).await?)
        }
        TlsMode::Starttls => {
            let mut client = Client::new(tcp);
            timed(name, "greeting", timeout, greeting(name, &mut client)).await?;
            timed(name, "STARTTLS", timeout, async {
                client
                    .run_command_and_check_ok("STARTTLS", None)
                    .await
                    .map_err(|e| ImapError::protocol(name, "STARTTLS", e))
            })
            .await?;
            let tcp = client.into_inner();
            Box::new(timed(name, "TLS handshake", timeout, tls(account, tcp)).await?)
        }
    };
    let mut client = Client::new(stream);
    if account.tls != TlsMode::Starttls {
        timed(name, "greeting", timeout, greeting(name, &mut client)).await?;
    }
    let auth_err = |e: async_imap::error::Error| match e {
        async_imap::error::Error::No(reason) | async_imap::error::Error::Bad(reason) => {
            ImapError::Auth {
                account: name.to_string(),
                user: account.user.clone(),
                reason,
            }
        }
        other => ImapError::protocol(name, "login", other),
    };
    let mut session = timed(name, "login", timeout, async {
        match creds {
            Credentials::Password(pw) => client
                .login(&account.user, pw.expose())
                .await
                .map_err(|(e, _)| auth_err(e)),
            Credentials::AccessToken(token) => client
                .authenticate("XOAUTH2", XOAuth2(xoauth2_response(&account.user, &token)))
                .await
                .map_err(|(e, _)| auth_err(e)),
        }
    })
    .await?;
    let caps = timed(name, "CAPABILITY", timeout, async {
        session
            .capabilities()
            .await
            .map_err(|e| ImapError::protocol(name, "CAPABILITY", e))
    })
    .await?;
    Ok(ImapSession {
        account: name.to_string(),
        condstore: caps.has_str("CONDSTORE"),
        can_move: caps.has_str("MOVE"),
        uidplus: caps.has_str("UIDPLUS"),
        session,
        timeout,
    })
}

async fn greeting<T: Transport>(account: &str, client: &mut Client<T>) -> Result<(), ImapError> {
    match client.read_response().await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(ImapError::protocol(
            account,
            "greeting",
            async_imap::error::Error::ConnectionLost,
        )),
        Err(e) => Err(ImapError::protocol(account, "greeting", e.into())),
    }
}

async fn tls(
    account: &AccountConfig,
    tcp: TcpStream,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>, ImapError> {
    let err = |reason: String| ImapError::Tls {
        account: account.name.clone(),
        host: account.host.clone(),
        reason,
    };
    let host = account.host.trim_start_matches('[').trim_end_matches(']');
    let server_name = rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(|e| err(format!("not a valid server name: {e}")))?;
    let config = tls_config().map_err(|e| err(e.to_string()))?;
    tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(server_name, tcp)
        .await
        .map_err(|e| err(e.to_string()))
}

/// A folder name as an IMAP quoted string.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `1:3,7,9:10` for the UIDs 1 2 3 7 9 10 (sorted, no duplicates).
pub fn uid_set(uids: &[u32]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < uids.len() {
        let start = uids[i];
        let mut end = start;
        while i + 1 < uids.len() && uids[i + 1] == end.wrapping_add(1) {
            i += 1;
            end = uids[i];
        }
        if !out.is_empty() {
            out.push(',');
        }
        if start == end {
            out.push_str(&start.to_string());
        } else {
            out.push_str(&format!("{start}:{end}"));
        }
        i += 1;
    }
    out
}

impl ImapSession {
    pub fn condstore(&self) -> bool {
        self.condstore
    }

    /// Every selectable folder (LIST "" "*", less \Noselect and \NonExistent).
    pub async fn folders(&mut self) -> Result<Vec<String>, ImapError> {
        let (account, limit) = (self.account.clone(), self.timeout);
        timed(&account, "LIST", limit, async {
            let names: Vec<_> = self
                .session
                .list(Some(""), Some("*"))
                .await
                .map_err(|e| ImapError::protocol(&account, "LIST", e))?
                .try_collect()
                .await
                .map_err(|e| ImapError::protocol(&account, "LIST", e))?;
            let mut out: Vec<String> = names
                .iter()
                .filter(|n| {
                    !n.attributes().iter().any(|a| match a {
                        NameAttribute::NoSelect => true,
                        NameAttribute::Extension(x) => x.eq_ignore_ascii_case("\\NonExistent"),
                        _ => false,
                    })
                })
                .map(|n| n.name().to_string())
                .collect();
            out.sort();
            out.dedup();
            Ok(out)
        })
        .await
    }

    /// SELECT (with CONDSTORE when the server has it, to learn HIGHESTMODSEQ).
    pub async fn select(&mut self, folder: &str) -> Result<FolderStatus, ImapError> {
        let step = format!("SELECT {folder}");
        let (account, limit) = (self.account.clone(), self.timeout);
        let mailbox = timed(&account, &step, limit, async {
            let r = if self.condstore {
                self.session.select_condstore(folder).await
            } else {
                self.session.select(folder).await
            };
            r.map_err(|e| ImapError::protocol(&account, &step, e))
        })
        .await?;
        let uidvalidity = mailbox.uid_validity.ok_or_else(|| ImapError::Protocol {
            account: self.account.clone(),
            step: format!("SELECT {folder}"),
            reason: "the server sent no UIDVALIDITY".into(),
            transient: false,
        })?;
        Ok(FolderStatus {
            uidvalidity,
            uidnext: mailbox.uid_next,
            highest_modseq: mailbox.highest_modseq,
            exists: mailbox.exists,
            keywords: mailbox.permanent_flags.contains(&Flag::MayCreate),
        })
    }

    /// Every UID in the selected folder (UID SEARCH ALL).
    pub async fn all_uids(&mut self, folder: &str) -> Result<HashSet<u32>, ImapError> {
        let step = format!("UID SEARCH {folder}");
        let (account, limit) = (self.account.clone(), self.timeout);
        timed(&account, &step, limit, async {
            self.session
                .uid_search("ALL")
                .await
                .map_err(|e| ImapError::protocol(&account, &step, e))
        })
        .await
    }

    /// The bodies (BODY.PEEK[], so \Seen is never set by reading) and flags of `uids`.
    pub async fn fetch_messages(
        &mut self,
        folder: &str,
        uids: &[u32],
    ) -> Result<Vec<FetchedMessage>, ImapError> {
        if uids.is_empty() {
            return Ok(Vec::new());
        }
        let step = format!("FETCH {folder}");
        let (account, limit) = (self.account.clone(), self.timeout);
        let wanted: HashSet<u32> = uids.iter().copied().collect();
        let fetches: Vec<_> = timed(&account, &step, limit, async {
            self.session
                .uid_fetch(uid_set(uids), "(UID FLAGS BODY.PEEK[])")
                .await
                .map_err(|e| ImapError::protocol(&account, &step, e))?
                .try_collect()
                .await
                .map_err(|e| ImapError::protocol(&account, &step, e))
        })
        .await?;
        Ok(fetches
            .iter()
            .filter_map(|f| {
                let uid = f.uid.filter(|u| wanted.contains(u))?;
                Some(FetchedMessage {
                    uid,
                    flags: maildir_flags(f.flags()),
                    keywords: keywords(f.flags()),
                    raw: f.body().map(<[u8]>::to_vec),
                })
            })
            .collect())
    }

    /// Flags of the messages up to `last_uid`: only those changed since `modseq`
    /// when the server has CONDSTORE and a mod-sequence is known, else all of them.
    pub async fn flags(
        &mut self,
        folder: &str,
        last_uid: u32,
        changed_since: Option<u64>,
    ) -> Result<Vec<FlagsOf>, ImapError> {
        if last_uid == 0 {
            return Ok(Vec::new());
        }
        let query = match changed_since.filter(|_| self.condstore) {
            Some(m) => format!("(UID FLAGS) (CHANGEDSINCE {m})"),
            None => "(UID FLAGS)".to_string(),
        };
        let step = format!("FETCH FLAGS {folder}");
        let (account, limit) = (self.account.clone(), self.timeout);
        let fetches: Vec<_> = timed(&account, &step, limit, async {
            self.session
                .uid_fetch(format!("1:{last_uid}"), query)
                .await
                .map_err(|e| ImapError::protocol(&account, &step, e))?
                .try_collect()
                .await
                .map_err(|e| ImapError::protocol(&account, &step, e))
        })
        .await?;
        Ok(fetches
            .iter()
            .filter_map(|f| {
                Some(FlagsOf {
                    uid: f.uid?,
                    flags: maildir_flags(f.flags()),
                    keywords: keywords(f.flags()),
                })
            })
            .filter(|f| f.uid <= last_uid)
            .collect())
    }

    /// Waits in IDLE on the selected folder until the server reports a change or
    /// `max` passes (RFC 2177 asks clients to re-IDLE at least every 29 minutes).
    pub async fn idle(self, max: Duration) -> Result<(Self, IdleOutcome), ImapError> {
        let ImapSession {
            account,
            session,
            condstore,
            can_move,
            uidplus,
            timeout,
        } = self;
        // Whatever the server said before this IDLE has been acted on already.
        while session.unsolicited_responses.try_recv().is_ok() {}
        let mut handle = session.idle();
        timed(&account, "IDLE", timeout, async {
            handle
                .init()
                .await
                .map_err(|e| ImapError::protocol(&account, "IDLE", e))
        })
        .await?;
        let outcome = {
            let (wait, _interrupt) = handle.wait_with_timeout(max);
            match wait.await {
                Ok(async_imap::extensions::idle::IdleResponse::NewData(_)) => IdleOutcome::Changed,
                Ok(_) => IdleOutcome::Timeout,
                Err(e) => return Err(ImapError::protocol(&account, "IDLE", e)),
            }
        };
        let session = timed(&account, "IDLE DONE", timeout, async {
            handle
                .done()
                .await
                .map_err(|e| ImapError::protocol(&account, "IDLE DONE", e))
        })
        .await?;
        // A change announced while IDLE was being ended still counts.
        let mut outcome = outcome;
        while let Ok(r) = session.unsolicited_responses.try_recv() {
            use async_imap::types::UnsolicitedResponse as U;
            if matches!(r, U::Exists(_) | U::Expunge(_) | U::Recent(_)) {
                outcome = IdleOutcome::Changed;
            }
        }
        Ok((
            ImapSession {
                account,
                session,
                condstore,
                can_move,
                uidplus,
                timeout,
            },
            outcome,
        ))
    }

    /// APPENDs a message with IMAP `flags` (`(\Seen)`): a sent copy or a draft, or
    /// in tests and the benchmark, mail from a sender.
    pub async fn append(
        &mut self,
        folder: &str,
        flags: Option<&str>,
        raw: &[u8],
    ) -> Result<(), ImapError> {
        let step = format!("APPEND {folder}");
        let (account, limit) = (self.account.clone(), self.timeout);
        timed(&account, &step, limit, async {
            self.session
                .append(folder, flags, None, raw)
                .await
                .map_err(|e| ImapError::protocol(&account, &step, e))
        })
        .await
    }

    /// Runs a command that answers only OK/NO (CREATE, DELETE, UID STORE, EXPUNGE...).
    pub async fn command(&mut self, command: &str) -> Result<(), ImapError> {
        let (account, limit) = (self.account.clone(), self.timeout);
        timed(&account, command, limit, async {
            self.session
                .run_command_and_check_ok(command)
                .await
                .map_err(|e| ImapError::protocol(&account, command, e))
        })
        .await
    }

    /// Adds and removes flags (Maildir letters) on a UID of the selected folder.
    pub async fn store_flags(
        &mut self,
        uid: u32,
        add: &str,
        remove: &str,
    ) -> Result<(), ImapError> {
        if !add.is_empty() {
            self.command(&format!(
                "UID STORE {uid} +FLAGS.SILENT {}",
                imap_flag_list(add)
            ))
            .await?;
        }
        if !remove.is_empty() {
            self.command(&format!(
                "UID STORE {uid} -FLAGS.SILENT {}",
                imap_flag_list(remove)
            ))
            .await?;
        }
        Ok(())
    }

    /// Adds and removes keywords on a UID of the selected folder.
    pub async fn store_keywords(
        &mut self,
        uid: u32,
        add: &[String],
        remove: &[String],
    ) -> Result<(), ImapError> {
        for (sign, names) in [('+', add), ('-', remove)] {
            if !names.is_empty() {
                self.command(&format!(
                    "UID STORE {uid} {sign}FLAGS.SILENT ({})",
                    names.join(" ")
                ))
                .await?;
            }
        }
        Ok(())
    }

    /// Moves a UID of the selected folder to `to`: MOVE where the server has it,
    /// else COPY, then `\Deleted` and (with UIDPLUS) UID EXPUNGE of that UID alone;
    /// without UIDPLUS the original stays, marked `\Deleted`, as a plain EXPUNGE
    /// would remove other mail marked so.
    pub async fn move_uid(&mut self, uid: u32, to: &str) -> Result<(), ImapError> {
        let to = quoted(to);
        if self.can_move {
            return self.command(&format!("UID MOVE {uid} {to}")).await;
        }
        self.command(&format!("UID COPY {uid} {to}")).await?;
        self.command(&format!("UID STORE {uid} +FLAGS.SILENT (\\Deleted)"))
            .await?;
        if self.uidplus {
            self.command(&format!("UID EXPUNGE {uid}")).await?;
        }
        Ok(())
    }

    /// Removes for good the UIDs of the selected folder that are marked `\Deleted`:
    /// UID EXPUNGE of those alone where the server has UIDPLUS; else, with
    /// `whole_folder`, a plain EXPUNGE (which also removes other mail marked so),
    /// else nothing (they stay marked).
    pub async fn expunge_uids(
        &mut self,
        uids: &[u32],
        whole_folder: bool,
    ) -> Result<(), ImapError> {
        if uids.is_empty() {
            return Ok(());
        }
        if self.uidplus {
            let set: Vec<String> = uids.iter().map(u32::to_string).collect();
            return self
                .command(&format!("UID EXPUNGE {}", set.join(",")))
                .await;
        }
        if whole_folder {
            return self.command("EXPUNGE").await;
        }
        Ok(())
    }

    /// Creates a folder, unless the server has it already.
    pub async fn create_folder(&mut self, folder: &str) -> Result<(), ImapError> {
        if self.folders().await?.iter().any(|f| f == folder) {
            return Ok(());
        }
        self.command(&format!("CREATE {}", quoted(folder))).await
    }

    pub async fn logout(mut self) {
        let _ = tokio::time::timeout(self.timeout, self.session.logout()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::uid_set;

    #[test]
    fn uid_sets_compress_runs() {
        assert_eq!(uid_set(&[1, 2, 3, 7, 9, 10]), "1:3,7,9:10");
        assert_eq!(uid_set(&[5]), "5");
        assert_eq!(uid_set(&[]), "");
        assert_eq!(
            uid_set(&[u32::MAX - 1, u32::MAX]),
            format!("{}:{}", u32::MAX - 1, u32::MAX)
        );
    }
}
