//! `quoth serve [--http ADDR] [--allow-remote] [--idle-exit SECONDS]`

use anyhow::{Context, Result};
use quoth::serve::ServeOptions;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// Serve the HTTP/JSON API on this address too (loopback unless --allow-remote),
    /// for example 127.0.0.1:8087; port 0 picks a free one.
    #[arg(long)]
    pub http: Option<SocketAddr>,
    /// Allow an --http address beyond this machine.
    #[arg(long)]
    pub allow_remote: bool,
    /// Exit after this many seconds without a client (a background server).
    #[arg(long)]
    pub idle_exit: Option<u64>,
}

/// Serves the data directory in the foreground, or, with an idle limit, as the
/// background server a command started (which must not stop another that won the
/// race for the data directory; a foreground one takes over).
pub fn run_server(data_dir: &Path, args: ServeArgs) -> Result<i32> {
    let take_over = args.idle_exit.is_none();
    let opts = ServeOptions {
        data_dir: data_dir.to_path_buf(),
        http: args.http,
        allow_remote: args.allow_remote,
        idle_exit: args.idle_exit.map(Duration::from_secs),
    };
    quoth::serve::host::serve(data_dir, take_over, opts, |l| {
        eprintln!("quoth serve: listening on {}", l.socket.display());
        if let Some(addr) = l.http {
            // Scripts read the bound address from this line (port 0 picks one).
            outln!("http://{addr}/v1/");
            eprintln!(
                "quoth serve: HTTP API on http://{addr}/v1/ (token in {})",
                data_dir.join("api-token").display()
            );
        }
    })
    .context("serving the data directory")?;
    Ok(0)
}
