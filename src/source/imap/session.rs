//! One logged-in IMAP connection and the few commands sync needs. Every command runs
//! under a timeout, so a server that stops answering becomes a (transient) error
//! instead of a hang; every error names the account and the step.

mod changes;
mod login;

pub use login::{connect, tls_config};

use super::flags::{keywords, maildir_flags};
use super::ImapError;
use async_imap::types::{Flag, NameAttribute};
use async_imap::Session;
use futures_util::TryStreamExt;
use std::collections::HashSet;
use std::fmt;
use std::future::Future;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

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
