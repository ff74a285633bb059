//! `quoth` with no subcommand: the terminal UI. With `--maildir PATH` it opens that
//! Maildir (ingested in the background into the data dir); without a mailbox it opens
//! the data dir, or the demo mailbox, set up on first run the way `quoth demo` does,
//! when there is neither mail there nor an IMAP account in the config file. The IMAP
//! accounts of the config file are synced at start and watched (IDLE) while it runs.

use anyhow::{Context, Result};
use quoth::answer::Answerer;
use quoth::config::{ComposeConfig, Config};
use quoth::engine::handle::{EngineRequest, HandleOptions, SendRequest};
use quoth::mail::model::MessageKey;
use quoth::serve::attach::StartServer;
use quoth::source::imap::AccountConfig;
use quoth::tui::terminal::TerminalGuard;
use quoth::tui::{
    self, App, AppEvent, AppOptions, EngineLink, ExternalJob, Keymap, LoopOptions, Preset, Theme,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How the UI was asked to start.
pub struct TuiArgs {
    /// `--data-dir` or QUOTH_DATA_DIR, when given.
    pub data_dir: Option<PathBuf>,
    pub maildir: Option<PathBuf>,
    pub llm: bool,
    pub keymap: Preset,
    /// `--config` or QUOTH_CONFIG, when given.
    pub config: Option<PathBuf>,
    /// A message to show at once (`quoth open`): a Message-ID or key.
    pub open: Option<String>,
}

/// Where the store lives and what to ingest first.
pub struct Plan {
    pub data_dir: PathBuf,
    pub ingest: Option<PathBuf>,
    pub demo: bool,
    /// What the user should know about the plan.
    pub note: Option<String>,
}

/// Decides the data dir: a given Maildir goes into the given (or default) data dir; a
/// data dir that already holds mail, or will receive it from IMAP accounts, is opened
/// as it is; otherwise the demo mailbox.
pub fn plan(args: &TuiArgs, has_accounts: bool) -> Result<Plan> {
    if let Some(maildir) = &args.maildir {
        anyhow::ensure!(maildir.is_dir(), "no Maildir at {}", maildir.display());
        return Ok(Plan {
            data_dir: super::data_dir(args.data_dir.clone())?,
            ingest: Some(maildir.clone()),
            demo: false,
            note: None,
        });
    }
    let default = super::data_dir(args.data_dir.clone())?;
    if default.join("store").is_dir() || has_accounts {
        return Ok(Plan {
            data_dir: default,
            ingest: None,
            demo: false,
            note: None,
        });
    }
    let data_dir = super::demo::demo_data_dir(args.data_dir.clone())?;
    let note = super::demo::retire_shared_demo_store(&data_dir)?
        .map(|aside| format!("the earlier demo data is kept at {}", aside.display()));
    let fresh = !data_dir.join("store").is_dir();
    let mailbox = super::demo::demo_mailbox_copy(&data_dir)?;
    Ok(Plan {
        data_dir,
        ingest: fresh.then_some(mailbox),
        demo: true,
        note,
    })
}

/// The answerer asked for (the library's choice, shared with the server).
pub fn answerer(llm: bool) -> Result<Box<dyn Answerer + Send + Sync>> {
    quoth::serve::api::answerer(llm).map_err(anyhow::Error::msg)
}

pub fn keymap(preset: Preset) -> Result<Keymap> {
    let user = dirs::config_dir().map(|d| d.join("quoth").join(tui::keymap::USER_FILE_NAME));
    Ok(Keymap::load(preset, user.as_deref())?)
}

/// The config file, read once: a missing file means the defaults; a file that
/// cannot be used is reported in the UI, which goes on with the local mail and the
/// default settings.
fn load_config(given: Option<&Path>) -> (Config, Option<String>) {
    let Some(path) = quoth::config::path(given) else {
        return (Config::default(), None);
    };
    if given.is_none() && !path.exists() {
        return (Config::default(), None);
    }
    match quoth::config::load(&path) {
        Ok(config) => (config, None),
        Err(e) => (
            Config::default(),
            Some(format!("IMAP accounts and settings not loaded: {e}")),
        ),
    }
}

pub fn run(args: TuiArgs) -> Result<i32> {
    let (config, config_error) = load_config(args.config.as_deref());
    let views = config.views();
    let Config {
        accounts,
        reader,
        compose,
        ..
    } = config;
    let plan = plan(&args, !accounts.is_empty())?;
    let keymap = keymap(args.keymap)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let mut errors: Vec<String> = config_error.into_iter().collect();
    let needs_own_engine = !accounts.is_empty() || args.llm;
    let (mut link, alongside) = match attach(&args, &plan.data_dir, &runtime, needs_own_engine)? {
        Some(attached) => {
            errors.extend(attached.notes);
            (attached.link, None)
        }
        None => {
            let owned = own_engine(&args, &plan.data_dir, &runtime, accounts, compose)?;
            errors.extend(owned.notes);
            (owned.link, owned.alongside)
        }
    };
    let app_options = AppOptions {
        mark_read: reader.mark_read,
        views,
        config_file: quoth::config::path(args.config.as_deref()),
        ..AppOptions::default()
    };
    let mut app = App::new(keymap, Theme::from_env(), app_options);
    match &plan.ingest {
        Some(path) => app.start_background(EngineRequest::Ingest {
            paths: vec![path.clone()],
            embed: true,
        }),
        None => app.start_background(EngineRequest::Embed),
    }
    if plan.demo {
        app.status
            .note("demo mailbox: press i to ask, e.g. what was the strike price? (? for keys)");
    }
    if let Some(note) = &plan.note {
        app.status.note(note.clone());
    }
    for e in errors {
        app.status.error(e);
    }
    let mut guard = TerminalGuard::enter().context("opening the terminal")?;
    let result = runtime.block_on(run_ui(&mut app, &mut guard, &mut link));
    drop(guard);
    // The socket goes first: a server another terminal's UI starts once this one has
    // let go of the data directory binds a socket of the same name.
    drop(alongside);
    drop(link);
    // Background work may hold the engine; do not wait for it to finish.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    result.context("running the terminal UI")?;
    Ok(0)
}

/// The UI's engine, and what the user should be told about it.
struct Started {
    link: EngineLink,
    notes: Vec<String>,
}

/// The UI as a front end of the data directory's running server (another terminal's
/// UI, or a server): `None` when none runs, or when it is a background server and
/// this UI needs an engine of its own (IMAP accounts to watch, a language model),
/// which it then stops.
fn attach(
    args: &TuiArgs,
    data_dir: &Path,
    runtime: &tokio::runtime::Runtime,
    needs_own_engine: bool,
) -> Result<Option<Started>> {
    let dir = data_dir.to_path_buf();
    let start_server: StartServer = Arc::new(move || {
        // A server in this process would be the UI's own: a UI that serves itself
        // opens its engine instead.
        if super::server_start::inline() {
            return Err("no Quoth server runs for this data directory".into());
        }
        super::server_start::connect_or_start(&dir)
            .map(drop)
            .map_err(|e| format!("{e:#}"))
    });
    let Some((remote, events, greeting)) =
        runtime.block_on(quoth::serve::attach::attach(data_dir, start_server))?
    else {
        return Ok(None);
    };
    if greeting.background && needs_own_engine {
        drop(remote);
        return Ok(None);
    }
    // What the server found and did since its last client (a repaired file).
    let mut notes = greeting.notes.clone();
    if args.llm {
        notes.push(format!(
            "answers come from the answerer of the Quoth that runs this data directory (process {})",
            greeting.pid
        ));
    }
    if let Some(id) = args.open.as_deref() {
        match reveal_key(data_dir, id) {
            Ok(key) => {
                remote.send(EngineRequest::Reveal { key });
            }
            Err(e) => notes.push(format!("cannot open that message: {e:#}")),
        }
    }
    let link = EngineLink {
        requests: Box::new(remote),
        events,
    };
    Ok(Some(Started { link, notes }))
}

/// The key of a message named by Message-ID or key, asked of the running server.
fn reveal_key(data_dir: &Path, id: &str) -> Result<MessageKey> {
    let mut client =
        quoth::serve::client::Client::connect(data_dir)?.context("the Quoth server stopped")?;
    let found = client.call(
        quoth::serve::protocol::Op::Message {
            message: id.to_string(),
        },
        &mut |_| {},
    )?;
    found
        .get("key")
        .and_then(|k| k.as_str())
        .and_then(MessageKey::from_hex)
        .context("the Quoth server named no key for the message")
}

/// The UI with the engine in this process, serving the socket for other clients.
struct Owned {
    link: EngineLink,
    alongside: Option<quoth::serve::Alongside>,
    notes: Vec<String>,
}

fn own_engine(
    args: &TuiArgs,
    data_dir: &Path,
    runtime: &tokio::runtime::Runtime,
    accounts: Vec<AccountConfig>,
    compose: ComposeConfig,
) -> Result<Owned> {
    let options = HandleOptions {
        accounts,
        compose,
        ..HandleOptions::default()
    };
    let own = quoth::serve::host::own_front_end(
        data_dir,
        runtime.handle(),
        answerer(args.llm)?,
        options,
        args.open.as_deref(),
    )?;
    Ok(Owned {
        link: EngineLink::local(own.handle, own.events),
        alongside: own.alongside,
        notes: own.notes,
    })
}

/// Runs the UI until it quits, handing the terminal to the editor whenever the UI
/// asks for it. Engine events that arrive while the editor runs are taken in (not
/// drawn), so background work never waits on a UI that is away.
async fn run_ui(
    app: &mut App,
    guard: &mut TerminalGuard,
    link: &mut EngineLink,
) -> std::io::Result<()> {
    loop {
        // A fresh input stream each time: the old one must not read the keys typed
        // into the editor.
        let input = crossterm::event::EventStream::new();
        tui::run(
            app,
            &mut guard.terminal,
            input,
            link,
            &LoopOptions::default(),
        )
        .await?;
        let job = match app.take_external() {
            Some(job) => job,
            None => return Ok(()),
        };
        guard.suspend()?;
        let (is_edit, work): (bool, Box<dyn FnOnce() -> Result<String, String> + Send>) = match job
        {
            ExternalJob::Edit { path } => {
                let editor = tui::editor::editor_command();
                (
                    true,
                    Box::new(move || {
                        tui::editor::edit(&editor, &path)
                            .map(|changed| if changed { "changed" } else { "" }.to_string())
                    }),
                )
            }
            ExternalJob::Pipe { command, input } => {
                (false, Box::new(move || tui::editor::pipe(&command, &input)))
            }
        };
        let mut editing = tokio::task::spawn_blocking(work);
        let result = loop {
            tokio::select! {
                done = &mut editing => break done.unwrap_or_else(|e| Err(e.to_string())),
                ev = link.events.recv() => match ev {
                    Some(ev) => app.handle(AppEvent::Engine(ev)),
                    None => break (&mut editing).await.unwrap_or_else(|e| Err(e.to_string())),
                },
            }
        };
        guard.resume()?;
        if is_edit {
            app.editor_done(result.map(|changed| !changed.is_empty()));
        } else {
            app.pipe_done(result);
        }
    }
}
