//! The user's editor on a draft file, with the terminal handed over to it.

use std::path::Path;
use std::process::Command;

/// The editor command: `$VISUAL`, else `$EDITOR`, else `vi`.
pub fn editor_command() -> String {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|e| !e.trim().is_empty())
        .unwrap_or_else(|| "vi".to_string())
}

/// Runs `editor` (a command line, as `$EDITOR` may hold arguments) on `path` and
/// waits; `Ok(true)` when the file changed, or why the editor failed.
pub fn edit(editor: &str, path: &Path) -> Result<bool, String> {
    let before = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!("{editor} \"$1\""))
        .arg("quoth-editor")
        .arg(path)
        .status()
        .map_err(|e| format!("cannot run {editor}: {e}"))?;
    if !status.success() {
        return Err(format!("{editor} exited with {status}"));
    }
    let after = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(after != before)
}

/// Runs `command` through `sh -c` with `input` on its stdin and the terminal as
/// its output, then waits for Enter so its output can be read; says how it ended.
pub fn pipe(command: &str, input: &[u8]) -> Result<String, String> {
    use std::io::{BufRead, Write};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {command}: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // A command that stops reading early (head, a pager that quits) is fine.
        let _ = stdin.write_all(input);
    }
    let status = child.wait().map_err(|e| format!("{command}: {e}"))?;
    print!("\n[{command} ended: {status}] press Enter to go back to Quoth ");
    let _ = std::io::stdout().flush();
    let mut line = String::new();
    let _ = std::io::stdin().lock().read_line(&mut line);
    if status.success() {
        Ok(format!("piped to {command}"))
    } else {
        Err(format!("{command} ended with {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_editor_gets_the_file_and_a_change_is_seen() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("draft with space.eml");
        std::fs::write(&path, "To: a@x.example\n\nhi\n").expect("write");
        assert_eq!(edit("true", &path), Ok(false));
        assert_eq!(edit("sh -c 'echo more >> \"$0\"'", &path), Ok(true));
        assert!(std::fs::read_to_string(&path)
            .expect("read")
            .ends_with("hi\nmore\n"));
        assert!(edit("false", &path).is_err());
    }
}
