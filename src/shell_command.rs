//! Runs a user's command line (`sh -c`) with a time limit: a password command, the
//! sendmail command. The command gets its own process group, so a limit that runs
//! out stops everything it started.

use std::io::{Read, Write};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How a command ended.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Runs `sh -c cmd` with `input` on its stdin (none: stdin is empty); returns its
/// status and output, or None when it ran past `limit` (then its whole process
/// group is killed).
pub fn run(cmd: &str, input: Option<&[u8]>, limit: Duration) -> std::io::Result<Option<Finished>> {
    #[cfg(unix)]
    use std::os::unix::process::CommandExt;
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(cmd)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    command.process_group(0);
    let mut child = command.spawn()?;
    let writer = match (child.stdin.take(), input) {
        (Some(mut stdin), Some(bytes)) => {
            let bytes = bytes.to_vec();
            // A command that exits without reading all of it is judged by its status.
            Some(std::thread::spawn(move || {
                let _ = stdin.write_all(&bytes);
            }))
        }
        _ => None,
    };
    let read_all = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let stdout = read_all(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read_all(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            if let Some(w) = writer {
                let _ = w.join();
            }
            return Ok(Some(Finished {
                status,
                stdout: stdout.join().unwrap_or_default(),
                stderr: stderr.join().unwrap_or_default(),
            }));
        }
        if started.elapsed() >= limit {
            #[cfg(unix)]
            // SAFETY: signalling the process group this function created.
            unsafe {
                libc::kill(-(child.id() as i32), libc::SIGKILL);
            }
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The last lines of a command's error output, for a message.
pub fn tail_of(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let start = lines.len().saturating_sub(3);
    crate::terminal_text::for_terminal(&lines[start..].join(" / ")).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_reaches_the_command_and_output_comes_back() {
        let done = run(
            "tr a-z A-Z; echo oops >&2; exit 3",
            Some(b"mail\n"),
            Duration::from_secs(10),
        )
        .expect("runs")
        .expect("finishes");
        assert_eq!(done.stdout, b"MAIL\n");
        assert_eq!(tail_of(&done.stderr), "oops");
        assert_eq!(done.status.code(), Some(3));
    }

    #[test]
    fn a_command_past_its_limit_is_stopped() {
        let started = Instant::now();
        let done = run("sleep 30 & sleep 30", None, Duration::from_millis(300)).expect("runs");
        assert!(done.is_none());
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
