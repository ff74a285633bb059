//! Writing mail: a draft file for the user's editor, then sending it through the
//! user's sendmail command and keeping it in the Sent folder, or keeping it in
//! Drafts for later.
//!
//! Drafts being edited are files in `<data dir>/drafts/` (private, like the rest
//! of the data dir). A draft file is removed only once its message is sent or
//! kept in Drafts, or when the user discards it: an editor that fails, a sendmail
//! that fails and a crash all leave it where it was.

use crate::config::ComposeConfig;
use crate::engine::mailbox::draft_parts::{attachments_of, keep_parts_of, parts_dir, remove_parts};
use crate::engine::mailbox::moves::{maildir_root, special_folder};
use crate::engine::{EngineError, Result};
use crate::mail::compose::{Draft, DraftKind, Original};
use crate::mail::model::MessageKey;
use crate::source::imap::AccountConfig;
use crate::source::maildir::is_maildir;
use crate::source::{read_location, SourceLocation};
use crate::store::imap_appends::{AppendTo, ImapAppends, PendingAppend};
use crate::store::{Store, StoredMessage};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The sendmail command when neither the account nor `[compose]` names one.
pub const DEFAULT_SENDMAIL: &str = "sendmail -t -oi";
const DEFAULT_TIMEOUT_S: u64 = 120;

/// Folder names taken for sent mail and drafts (without case or a Maildir++ dot);
/// the first is made when none exists.
pub(in crate::engine) const SENT_NAMES: &[&str] =
    &["sent", "sent items", "sent messages", "sent mail"];
pub(in crate::engine) const DRAFT_NAMES: &[&str] = &["drafts", "draft"];

/// How mail is written: `[compose]` and the accounts' own From and sendmail.
#[derive(Debug, Clone, Default)]
pub struct ComposeSettings {
    pub compose: ComposeConfig,
    /// (account name, from, sendmail) of each IMAP account.
    pub accounts: Vec<(String, Option<String>, Option<String>)>,
}

impl ComposeSettings {
    pub fn new(compose: ComposeConfig, accounts: &[AccountConfig]) -> ComposeSettings {
        ComposeSettings {
            compose,
            accounts: accounts
                .iter()
                .map(|a| (a.name.clone(), a.from.clone(), a.sendmail.clone()))
                .collect(),
        }
    }

    fn account_of(
        &self,
        msg: Option<&StoredMessage>,
    ) -> Option<&(String, Option<String>, Option<String>)> {
        let SourceLocation::Imap { account, .. } = &msg?.location else {
            return None;
        };
        self.accounts.iter().find(|a| &a.0 == account)
    }

    /// The From of mail written to `msg` (or of a new message).
    fn sender(&self, msg: Option<&StoredMessage>) -> Option<String> {
        self.account_of(msg)
            .and_then(|a| a.1.clone())
            .or_else(|| self.compose.from.clone())
            .or_else(|| std::env::var("EMAIL").ok())
            .filter(|f| !f.trim().is_empty())
    }

    fn sendmail(&self, msg: Option<&StoredMessage>) -> String {
        self.account_of(msg)
            .and_then(|a| a.2.clone())
            .or_else(|| self.compose.sendmail.clone())
            .filter(|c| !c.trim().is_empty())
            .unwrap_or_else(|| DEFAULT_SENDMAIL.to_string())
    }

    /// The IMAP account whose server keeps the Sent and Drafts of mail written
    /// to `msg`: the original's own; for a new message, the account whose From is
    /// the draft's sender.
    fn server_of(&self, msg: Option<&StoredMessage>, sender: Option<&str>) -> Option<String> {
        if let Some(m) = msg {
            return match &m.location {
                SourceLocation::Imap { account, .. } => Some(account.clone()),
                _ => None,
            };
        }
        let sender = sender?;
        self.accounts
            .iter()
            .find(|(_, from, _)| {
                from.as_deref().is_some_and(|f| {
                    crate::mail::parse::address_header(f)
                        .iter()
                        .any(|m| m.address.eq_ignore_ascii_case(sender))
                })
            })
            .map(|a| a.0.clone())
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs(self.compose.timeout_s.unwrap_or(DEFAULT_TIMEOUT_S).max(1))
    }
}

/// A draft ready for the editor.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct DraftStarted {
    pub path: PathBuf,
    pub kind: DraftKind,
    /// The message it replies to or forwards.
    pub original: Option<MessageKey>,
}

/// What sending did.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SentMail {
    pub recipients: Vec<String>,
    /// The folder (as the store names folders) the sent copy was kept in.
    pub kept_in: Option<String>,
    /// The Maildir holding it, to be read again.
    pub root: Option<PathBuf>,
    /// The IMAP account whose server keeps the copy (appended by the next sync).
    pub to_server: Option<String>,
    /// What went wrong after the message was sent (keeping a copy, flagging).
    pub warning: Option<String>,
}

/// A draft kept in the Drafts folder.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct PostponedDraft {
    pub kept_in: String,
    /// The Maildir holding it, to be read again (none: it waits for a server).
    pub root: Option<PathBuf>,
    /// The IMAP account whose server keeps it (appended by the next sync).
    pub to_server: Option<String>,
}

/// Where drafts being edited live.
pub fn drafts_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("drafts")
}

pub(in crate::engine) fn compose_error(e: impl std::fmt::Display) -> EngineError {
    EngineError::Compose(e.to_string())
}

/// Writes a draft of `kind` (to `of`, for a reply or forward) to a new file.
pub fn start_draft(
    store: &Store,
    data_dir: &Path,
    settings: &ComposeSettings,
    kind: DraftKind,
    of: Option<&MessageKey>,
) -> Result<DraftStarted> {
    let msg = match of {
        Some(key) => Some(
            store
                .message(key)?
                .ok_or_else(|| EngineError::NoSuchMessage(key.to_hex()))?,
        ),
        None => None,
    };
    let from = settings.sender(msg.as_ref()).unwrap_or_default();
    let draft = match (&msg, kind) {
        (Some(m), DraftKind::Reply | DraftKind::ReplyAll) => {
            let mine: Vec<String> = crate::mail::parse::address_header(&from)
                .into_iter()
                .map(|m| m.address)
                .collect();
            Draft::reply(&original(m), &from, &mine, kind == DraftKind::ReplyAll)
        }
        (Some(m), DraftKind::Forward) => Draft::forward(&original(m), &from),
        (Some(m), DraftKind::Answer(_)) => Draft::reply(&original(m), &from, &[], false),
        _ => Draft::new_message(&from),
    };
    let dir = drafts_dir(data_dir);
    crate::engine::mailbox::privacy::create_private_dir_all(&dir).map_err(compose_error)?;
    let path = dir.join(format!("{}.eml", unique_name()));
    let mut draft = draft;
    if let (Some(m), DraftKind::Forward) = (&msg, kind) {
        // A forward carries the original's attachments: copies beside the draft,
        // named on its Attach: lines, so the user can drop or add some.
        draft.attach = keep_parts_of(store, m, &parts_dir(&path))?;
    }
    if let (Some(m), DraftKind::Answer(answer)) = (&msg, kind) {
        draft = crate::engine::mailbox::invitation::answer_draft(store, m, draft, answer, &path)?;
    }
    crate::engine::mailbox::privacy::write_private(&path, draft.to_text().as_bytes())
        .map_err(compose_error)?;
    Ok(DraftStarted {
        path,
        kind: if msg.is_some() { kind } else { DraftKind::New },
        original: msg.map(|m| m.key),
    })
}

/// The message a draft answers, as [`Draft`] reads it (Reply-To from its raw
/// headers, when they can still be read).
fn original(m: &StoredMessage) -> Original {
    let reply_to = read_location(&m.location)
        .map(|raw| crate::mail::parse::reply_to(&raw))
        .unwrap_or_default();
    Original {
        message_id: m.message_id.clone(),
        references: m.references.clone(),
        in_reply_to: m.in_reply_to.clone(),
        date: m.date,
        from: m.from.clone(),
        reply_to,
        to: m.to.clone(),
        cc: m.cc.clone(),
        subject: m.subject.clone(),
        body: m.body.clone(),
    }
}

/// The draft file `path`, refused unless it is one of this data dir's drafts (a
/// client of the server names only its own drafts).
fn own_draft(data_dir: &Path, path: &Path) -> Result<PathBuf> {
    let not_ours = || {
        compose_error(format!(
            "{} is not a draft of this data directory",
            path.display()
        ))
    };
    let dir = std::fs::canonicalize(drafts_dir(data_dir)).map_err(|_| not_ours())?;
    let file = std::fs::canonicalize(path)
        .map_err(|e| compose_error(format!("the draft {}: {e}", path.display())))?;
    if file.parent() != Some(dir.as_path()) {
        return Err(not_ours());
    }
    Ok(file)
}

fn read_draft(data_dir: &Path, path: &Path) -> Result<(PathBuf, Draft)> {
    let file = own_draft(data_dir, path)?;
    let bytes = std::fs::read(&file).map_err(compose_error)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| compose_error("the draft is not UTF-8 text; save it as UTF-8"))?;
    let draft = Draft::from_text(&text).map_err(compose_error)?;
    Ok((file, draft))
}

/// Sends the draft at `path` (written for `original`, of `kind`) through the
/// sendmail command, keeps a copy in the Sent folder and marks the original
/// replied or passed on. The draft file stays when sending fails.
pub fn send_draft(
    store: &Store,
    data_dir: &Path,
    settings: &ComposeSettings,
    path: &Path,
    original: Option<(&MessageKey, DraftKind)>,
) -> Result<SentMail> {
    let (file, draft) = read_draft(data_dir, path)?;
    let msg = match original {
        Some((key, _)) => store.message(key)?,
        None => None,
    };
    let now = chrono::Utc::now().timestamp();
    let sender = draft.sender().map_err(compose_error)?;
    let id = message_id(&sender.address);
    let files = attachments_of(&draft)?;
    let raw = draft.build(now, &id, true, &files).map_err(compose_error)?;
    let recipients: Vec<String> = draft
        .recipients()
        .map_err(compose_error)?
        .into_iter()
        .map(|m| m.address)
        .collect();
    let cmd = settings.sendmail(msg.as_ref());
    let limit = settings.timeout();
    let finished = crate::shell_command::run(&cmd, Some(&raw), limit)
        .map_err(|e| compose_error(format!("cannot run `{cmd}`: {e}; the draft is kept")))?
        .ok_or_else(|| {
            compose_error(format!(
                "`{cmd}` did not finish within {} s and was stopped; the draft is kept",
                limit.as_secs()
            ))
        })?;
    if !finished.status.success() {
        let said = crate::shell_command::tail_of(&finished.stderr);
        return Err(compose_error(format!(
            "`{cmd}` failed ({}){}; the draft is kept",
            finished.status,
            if said.is_empty() {
                String::new()
            } else {
                format!(": {said}")
            }
        )));
    }
    // Sent: whatever follows must not lose the message or send it twice.
    let mut warnings = Vec::new();
    let to_server = settings.server_of(msg.as_ref(), Some(&sender.address));
    let kept = match &to_server {
        Some(account) => keep_on_server(store, account, AppendTo::Sent, "(\\Seen)", &raw)
            .map(|folder| (folder, None)),
        None => keep_in_folder(
            store,
            data_dir,
            settings,
            msg.as_ref(),
            SENT_NAMES,
            &raw,
            "S",
        )
        .map(|(folder, root)| (folder, Some(root))),
    };
    let (kept_in, root) = match kept {
        Ok((folder, root)) => (Some(folder), root),
        Err(e) => {
            warnings.push(format!("sent, but no copy was kept: {e}"));
            (None, None)
        }
    };
    if let Some((_, DraftKind::Answer(answer))) = original {
        if let Err(e) = crate::engine::mailbox::invitation::remember_answer(store, &files, answer) {
            warnings.push(format!("the answer was not kept on the invitation: {e}"));
        }
    }
    if let (Some((key, kind)), Some(_)) = (original, &msg) {
        if let Some(flag) = kind.flag_on_original() {
            if let Err(e) = crate::engine::mailbox::flags::set_flag(store, key, flag, true) {
                warnings.push(format!("the original was not marked: {e}"));
            }
        }
    }
    if let Err(e) = std::fs::remove_file(&file) {
        warnings.push(format!("the draft file {} stays: {e}", file.display()));
    }
    remove_parts(&file);
    Ok(SentMail {
        recipients,
        kept_in,
        root,
        to_server,
        warning: (!warnings.is_empty()).then(|| warnings.join("; ")),
    })
}

/// Keeps the draft at `path` in the Drafts folder (flag `D`) and removes the file.
pub fn postpone_draft(
    store: &Store,
    data_dir: &Path,
    settings: &ComposeSettings,
    path: &Path,
    original: Option<&MessageKey>,
) -> Result<PostponedDraft> {
    let (file, draft) = read_draft(data_dir, path)?;
    let msg = match original {
        Some(key) => store.message(key)?,
        None => None,
    };
    let domain = draft
        .sender()
        .map(|s| s.address)
        .unwrap_or_else(|_| "localhost".into());
    let files = attachments_of(&draft)?;
    let raw = draft
        .build(
            chrono::Utc::now().timestamp(),
            &message_id(&domain),
            false,
            &files,
        )
        .map_err(compose_error)?;
    let sender = draft.sender().ok().map(|s| s.address);
    let to_server = settings.server_of(msg.as_ref(), sender.as_deref());
    let (kept_in, root) = match &to_server {
        Some(account) => (
            keep_on_server(store, account, AppendTo::Drafts, "(\\Draft \\Seen)", &raw)?,
            None,
        ),
        None => {
            let (folder, root) = keep_in_folder(
                store,
                data_dir,
                settings,
                msg.as_ref(),
                DRAFT_NAMES,
                &raw,
                "DS",
            )?;
            (folder, Some(root))
        }
    };
    std::fs::remove_file(&file).map_err(compose_error)?;
    remove_parts(&file);
    Ok(PostponedDraft {
        kept_in,
        root,
        to_server,
    })
}

/// Removes the draft at `path`, as the user asked.
pub fn discard_draft(data_dir: &Path, path: &Path) -> Result<()> {
    let file = own_draft(data_dir, path)?;
    std::fs::remove_file(&file).map_err(compose_error)?;
    remove_parts(&file);
    Ok(())
}

/// The drafts left from an earlier run (an editor or a program that ended first).
pub fn unfinished_drafts(data_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(drafts_dir(data_dir)) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    found.sort();
    found
}

/// Writes `raw` into a new file of the mail home's folder named one of `names`,
/// with Maildir flags `flags`; returns the folder as the store names it and the
/// Maildir root.
fn keep_in_folder(
    store: &Store,
    data_dir: &Path,
    settings: &ComposeSettings,
    msg: Option<&StoredMessage>,
    names: &[&str],
    raw: &[u8],
    flags: &str,
) -> Result<(String, PathBuf)> {
    let root = mail_home(store, data_dir, settings, msg)?;
    let folder = special_folder(&root, names)?;
    let name = unique_name();
    let tmp = folder.join("tmp").join(&name);
    crate::engine::mailbox::privacy::write_private(&tmp, raw).map_err(compose_error)?;
    let kept = folder.join("cur").join(format!("{name}:2,{flags}"));
    std::fs::rename(&tmp, &kept).map_err(compose_error)?;
    if let Ok(dir) = std::fs::File::open(folder.join("cur")) {
        let _ = dir.sync_all();
    }
    let root_name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let rel = folder
        .strip_prefix(&root)
        .map(|r| r.to_string_lossy().trim_start_matches('.').to_string())
        .unwrap_or_default();
    let shown = if rel.is_empty() {
        root_name
    } else {
        format!("{root_name}/{rel}")
    };
    Ok((shown, root))
}

/// Records `raw` for the Sent or Drafts folder of `account`'s server, appended by
/// the next sync; returns the folder as the user reads it.
fn keep_on_server(
    store: &Store,
    account: &str,
    to: AppendTo,
    flags: &str,
    raw: &[u8],
) -> Result<String> {
    ImapAppends::open(store.db())?.queue(
        account,
        &PendingAppend {
            to,
            flags: flags.to_string(),
            raw: raw.to_vec(),
        },
    )?;
    let folder = match to {
        AppendTo::Sent => "Sent",
        AppendTo::Drafts => "Drafts",
    };
    Ok(format!("{account}/{folder} (with the next sync)"))
}

/// The Maildir whose Sent and Drafts keep mail written to `msg`: its own; else
/// `[compose] maildir`; else the first Maildir Quoth reads; else one of its own in
/// the data dir.
fn mail_home(
    store: &Store,
    data_dir: &Path,
    settings: &ComposeSettings,
    msg: Option<&StoredMessage>,
) -> Result<PathBuf> {
    if let Some(m) = msg {
        if let SourceLocation::File { path } = &m.location {
            let folder_dir = Path::new(path).parent().and_then(Path::parent);
            if let Some(root) = folder_dir
                .filter(|d| is_maildir(d))
                .and_then(|d| maildir_root(d, &m.folder))
            {
                return Ok(root);
            }
        }
    }
    if let Some(dir) = &settings.compose.maildir {
        let dir = crate::engine::mailbox::message_files::expand_home(dir);
        if !dir.is_dir() {
            return Err(compose_error(format!(
                "[compose] maildir = {}: no such directory",
                dir.display()
            )));
        }
        return Ok(dir);
    }
    for root in store.roots()? {
        let root = PathBuf::from(root);
        if root.is_dir() && (is_maildir(&root) || has_maildir_child(&root)) {
            return Ok(root);
        }
    }
    let own = data_dir.join("mail");
    crate::engine::mailbox::privacy::create_private_dir_all(&own).map_err(compose_error)?;
    Ok(own)
}

fn has_maildir_child(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|entries| entries.flatten().any(|e| is_maildir(&e.path())))
        .unwrap_or(false)
}

/// A name no other file of this program gets: time, process, a counter.
fn unique_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    format!(
        "{}.M{}P{}Q{}.quoth",
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    )
}

/// A new Message-ID (without brackets) in the sender's domain.
fn message_id(sender: &str) -> String {
    let domain = sender
        .rsplit_once('@')
        .map(|(_, d)| d)
        .filter(|d| !d.is_empty())
        .unwrap_or("localhost");
    let hash = blake3::hash(unique_name().as_bytes());
    format!("{}.quoth@{domain}", &hash.to_hex()[..20])
}
