//! Named conversations kept in the data directory (`sessions/NAME.json`), so a
//! follow-up asked from another command or another client can lean on them.

use crate::answer::conversation::Conversation;
use crate::engine::{Engine, EngineError, Result};
use std::path::{Path, PathBuf};

/// Where a named conversation is kept; a name is letters, digits, '-', '_' and '.'.
pub fn session_path(data_dir: &Path, name: &str) -> Result<PathBuf> {
    let valid = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.');
    if !valid {
        return Err(EngineError::Session(format!(
            "a session name is letters, digits, '-', '_' and '.' only: {name:?}"
        )));
    }
    Ok(data_dir.join("sessions").join(format!("{name}.json")))
}

impl Engine {
    /// The named conversation, empty when it does not exist yet.
    pub fn load_session(&self, name: &str) -> Result<Conversation> {
        let path = session_path(self.data_dir(), name)?;
        match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| {
                EngineError::Session(format!(
                    "the session file {} is not readable: {e}",
                    path.display()
                ))
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Conversation::default()),
            Err(e) => Err(EngineError::Session(format!(
                "reading {}: {e}",
                path.display()
            ))),
        }
    }

    /// Keeps the named conversation (written whole, then renamed into place).
    pub fn save_session(&self, name: &str, conversation: &Conversation) -> Result<()> {
        let path = session_path(self.data_dir(), name)?;
        let fail =
            |e: std::io::Error| EngineError::Session(format!("writing {}: {e}", path.display()));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(fail)?;
        }
        let tmp = path.with_extension("json.tmp");
        let bytes = serde_json::to_vec_pretty(conversation)
            .map_err(|e| EngineError::Session(e.to_string()))?;
        std::fs::write(&tmp, bytes).map_err(fail)?;
        std::fs::rename(&tmp, &path).map_err(fail)?;
        Ok(())
    }

    /// A thread given as a thread id (16 hex digits), a message key or a Message-ID.
    pub fn resolve_thread(&self, id: &str) -> Result<String> {
        let hex = id.trim().to_ascii_lowercase();
        if hex.len() == 16 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Ok(hex);
        }
        let msg = self.find_message(id)?;
        Ok(self
            .thread_of(&msg.key)?
            .map(|t| t.to_hex())
            .unwrap_or_else(|| crate::mail::model::ThreadId::of_root(&msg.key).to_hex()))
    }
}
