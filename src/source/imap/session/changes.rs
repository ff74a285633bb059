//! The commands that change the server: APPEND, flag and keyword stores, moves,
//! expunges and folder creation.

use super::{timed, ImapSession};
use crate::source::imap::flags::imap_flag_list;
use crate::source::imap::ImapError;

/// A folder name as an IMAP quoted string.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
}

impl ImapSession {
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
}
