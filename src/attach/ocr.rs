//! OCR of PDF pages that carry no text layer, such as scanned letters.
//!
//! Rather than link an OCR library (a large C++ dependency and model files
//! that many users never need), this shells out to two common programs:
//! `pdftoppm` from poppler-utils renders one page to PNG and `tesseract`
//! reads it. When either is missing, OCR is simply unavailable and the
//! caller tells the user which packages to install.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use thiserror::Error;

/// Why one page could not be read by OCR.
#[derive(Debug, Error)]
pub enum OcrError {
    #[error("could not run {tool}: {source}")]
    Spawn {
        tool: &'static str,
        source: io::Error,
    },
    #[error("{tool} failed ({status}): {stderr}")]
    Tool {
        tool: &'static str,
        status: ExitStatus,
        stderr: String,
    },
    #[error("{tool} took longer than {} s", .limit.as_secs())]
    Timeout { tool: &'static str, limit: Duration },
    #[error("stopped")]
    Cancelled,
    #[error("temporary file: {0}")]
    Io(#[from] io::Error),
}

/// The external OCR programs, found on `PATH`.
#[derive(Debug, Clone)]
pub struct OcrEngine {
    pdftoppm: PathBuf,
    tesseract: PathBuf,
    /// Rendering resolution; 200 dpi is where tesseract reads ordinary
    /// 10–12 pt print reliably without slow, huge images.
    pub dpi: u32,
    /// Limit for each program run on each page.
    pub page_timeout: Duration,
    /// Tesseract language codes such as "eng" or "deu+eng"; `None` uses
    /// tesseract's default (English).
    pub language: Option<String>,
}

impl OcrEngine {
    /// Finds `pdftoppm` and `tesseract` on `PATH`. The search runs once per
    /// process: installing the tools needs a restart of the reader.
    pub fn detect() -> Option<OcrEngine> {
        static DETECTED: OnceLock<Option<OcrEngine>> = OnceLock::new();
        DETECTED
            .get_or_init(|| {
                let pdftoppm = find_on_path("pdftoppm")?;
                let tesseract = find_on_path("tesseract")?;
                Some(OcrEngine::with_tools(pdftoppm, tesseract))
            })
            .clone()
    }

    /// Uses the given program paths, for installations outside `PATH`.
    pub fn with_tools(pdftoppm: PathBuf, tesseract: PathBuf) -> OcrEngine {
        OcrEngine {
            pdftoppm,
            tesseract,
            dpi: 200,
            page_timeout: Duration::from_secs(30),
            language: None,
        }
    }

    /// Prepares to read pages of one PDF: the programs need it as a file.
    pub fn session(&self, pdf: &[u8]) -> Result<OcrSession<'_>, OcrError> {
        let dir = TempDir::new()?;
        let path = dir.path().join("attachment.pdf");
        fs::write(&path, pdf)?;
        Ok(OcrSession {
            engine: self,
            dir,
            pdf: path,
        })
    }
}

/// One PDF written to a private temporary directory, removed on drop.
pub struct OcrSession<'a> {
    engine: &'a OcrEngine,
    dir: TempDir,
    pdf: PathBuf,
}

impl OcrSession<'_> {
    /// Renders page `number` (1-based) and returns the recognised text.
    /// Setting `cancel` stops the running program within a few milliseconds.
    pub fn read_page(&self, number: u32, cancel: &AtomicBool) -> Result<String, OcrError> {
        let engine = self.engine;
        let prefix = self.dir.path().join(format!("page-{number}"));
        let mut render = Command::new(&engine.pdftoppm);
        render
            .arg("-r")
            .arg(engine.dpi.to_string())
            .arg("-f")
            .arg(number.to_string())
            .arg("-l")
            .arg(number.to_string())
            .args(["-png", "-gray", "-singlefile"])
            .arg(&self.pdf)
            .arg(&prefix);
        self.run("pdftoppm", render, cancel)?;

        let image = prefix.with_extension("png");
        let mut read = Command::new(&engine.tesseract);
        // Tesseract's OpenMP threads spin and contend; on a small or busy
        // machine one thread is several times faster (10.5 s vs 2.7 s for a
        // dense page here), and the reader runs other work besides.
        read.env("OMP_THREAD_LIMIT", "1").arg(&image).arg("stdout");
        if let Some(lang) = &engine.language {
            read.arg("-l").arg(lang);
        }
        let text = self.run("tesseract", read, cancel);
        // The image is large and of no further use; failing to remove it is
        // harmless because the whole directory goes on drop.
        let _ = fs::remove_file(&image);
        text
    }

    fn run(
        &self,
        tool: &'static str,
        cmd: Command,
        cancel: &AtomicBool,
    ) -> Result<String, OcrError> {
        run_tool(self.dir.path(), tool, cmd, cancel, self.engine.page_timeout)
    }
}

/// Runs a program with stdout and stderr in files under `dir`, so that nothing
/// reaches the terminal and no pipe can fill up and stall it. Setting `cancel`
/// or passing `limit` kills it.
pub(crate) fn run_tool(
    dir: &Path,
    tool: &'static str,
    mut cmd: Command,
    cancel: &AtomicBool,
    limit: Duration,
) -> Result<String, OcrError> {
    let out_path = dir.join(format!("{tool}.out"));
    let err_path = dir.join(format!("{tool}.err"));
    cmd.stdin(Stdio::null())
        .stdout(File::create(&out_path)?)
        .stderr(File::create(&err_path)?);
    let mut child = cmd
        .spawn()
        .map_err(|source| OcrError::Spawn { tool, source })?;
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        let cancelled = cancel.load(Ordering::Relaxed);
        if cancelled || started.elapsed() > limit {
            // The child may exit on its own in between; either way it
            // must be reaped, and its outcome no longer matters.
            let _ = child.kill();
            let _ = child.wait();
            return Err(if cancelled {
                OcrError::Cancelled
            } else {
                OcrError::Timeout { tool, limit }
            });
        }
        thread::sleep(Duration::from_millis(10));
    };
    if !status.success() {
        let stderr = fs::read(&err_path).unwrap_or_default();
        let stderr = String::from_utf8_lossy(&stderr).trim().to_string();
        return Err(OcrError::Tool {
            tool,
            status,
            stderr,
        });
    }
    let out = fs::read(&out_path)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

pub(crate) fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// A directory only this user can read, because it holds a copy of a
/// private attachment.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new() -> io::Result<TempDir> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        for _ in 0..16 {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let name = format!("quoth-ocr-{}-{n}-{nanos}", std::process::id());
            let path = std::env::temp_dir().join(name);
            match create_private_dir(&path) {
                Ok(()) => return Ok(TempDir(path)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free temporary directory name",
        ))
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[cfg(unix)]
fn create_private_dir(path: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new().mode(0o700).create(path)
}

#[cfg(not(unix))]
fn create_private_dir(path: &Path) -> io::Result<()> {
    fs::create_dir(path)
}
