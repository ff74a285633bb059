//! `quoth sync [ACCOUNT] [--watch]`: fetch mail from the IMAP accounts of the config
//! file; with `--watch`, stay connected (IDLE) and print each new-mail event.

use super::output::{print_json, safe_line};
use anyhow::{Context, Result};
use quoth::engine::{SyncEvent, SyncReport};
use quoth::serve::client::Client;
use quoth::serve::protocol::Op;
use quoth::source::imap::{load_accounts, select_accounts};
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct SyncArgs {
    /// The account to sync (default: every account of the config file).
    pub account: Option<String>,
    /// Stay connected and sync as mail arrives (IDLE), printing each event.
    #[arg(long)]
    pub watch: bool,
    /// The config file (default: $XDG_CONFIG_HOME/quoth/config.toml).
    #[arg(long, env = "QUOTH_CONFIG")]
    pub config: Option<PathBuf>,
    /// Messages fetched per batch.
    #[arg(long, default_value_t = 200)]
    pub batch: usize,
    /// Attempts after a network failure or timeout, with exponential backoff.
    #[arg(long, default_value_t = 3)]
    pub retries: u32,
}

pub fn run(data_dir: &Path, args: SyncArgs, json: bool) -> Result<i32> {
    let path = quoth::config::path(args.config.as_deref())
        .context("no config directory: pass --config or set QUOTH_CONFIG")?;
    let accounts = select_accounts(load_accounts(&path)?, args.account.as_deref())?;
    if accounts.is_empty() {
        anyhow::bail!("{} has no [[account]]", path.display());
    }
    // By the data directory's server (this command's own when none runs), so it
    // works beside an open UI, which then lists the new mail.
    let config =
        std::path::absolute(&path).with_context(|| format!("resolving {}", path.display()))?;
    let config = config.to_string_lossy().into_owned();
    let batch = Some(args.batch.max(1));
    let retries = Some(args.retries);
    let mut client = super::connect(data_dir)?;
    if args.watch {
        let op = Op::Watch {
            config,
            account: args.account,
            batch,
            retries,
        };
        return watch(&mut client, op, json);
    }
    let op = Op::Sync {
        config,
        account: args.account,
        batch,
        retries,
    };
    let value = client.call(op, &mut |_| {})?;
    let report: SyncReport = serde_json::from_value(value)?;
    if json {
        print_json(&report)?;
    } else {
        print_report(&report);
    }
    Ok(0)
}

/// Prints the watch's reports until the command is stopped, or the server is.
fn watch(client: &mut Client, op: Op, json: bool) -> Result<i32> {
    client.call(op, &mut |event| {
        let Ok(report) = serde_json::from_str::<SyncEvent>(&event.text) else {
            return;
        };
        if json {
            outln!("{}", event.text);
        } else {
            print_event(&report);
        }
    })?;
    anyhow::bail!("the Quoth server ended the watch")
}

fn print_event(event: &SyncEvent) {
    match event {
        SyncEvent::NewMail {
            account,
            folder,
            count,
        } => outln!("new mail: {account}/{}: {count}", safe_line(folder)),
        SyncEvent::Idling { account, folder } => {
            outln!("watching {account}/{}", safe_line(folder))
        }
        SyncEvent::Synced {
            account,
            added,
            seconds,
        } => outln!("synced {account}: {added} added in {seconds:.2} s"),
        SyncEvent::Error {
            account,
            message,
            retry_in_seconds,
        } => match retry_in_seconds {
            Some(s) => eprintln!("{account}: {} (retrying in {s:.0} s)", safe_line(message)),
            None => eprintln!("{account}: {}", safe_line(message)),
        },
    }
}

fn print_report(report: &SyncReport) {
    for a in &report.accounts {
        for f in &a.folders {
            let mut parts = vec![format!("{} new", f.fetched)];
            if f.known > 0 {
                parts.push(format!("{} already stored", f.known));
            }
            for (n, what) in [
                (f.quarantined, "quarantined"),
                (f.flags_changed, "flag changes"),
                (f.tags_changed, "tag changes"),
                (f.expunged, "expunged"),
                (f.removed, "removed"),
            ] {
                if n > 0 {
                    parts.push(format!("{n} {what}"));
                }
            }
            if f.resynced {
                parts.push("UIDVALIDITY changed: read again".into());
            }
            outln!(
                "{}/{}: {}",
                a.account,
                safe_line(&f.folder),
                parts.join(", ")
            );
        }
        for (folder, why) in &a.folders_skipped {
            outln!(
                "{}/{}: skipped: {}",
                a.account,
                safe_line(folder),
                safe_line(why)
            );
        }
        for gone in &a.folders_deleted {
            outln!(
                "{}/{}: deleted on the server, dropped",
                a.account,
                safe_line(gone)
            );
        }
        outln!(
            "{}: {} messages added in {:.2} s",
            a.account,
            a.added(),
            a.seconds
        );
    }
}
