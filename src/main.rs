//! The `quoth` binary: parses the command line and hands off to a subcommand.

#[macro_use]
mod cli;
mod bench;

use clap::Parser;

fn main() {
    // Everything Quoth writes (the store, indexes, sessions, attachment copies) is
    // the user's mail: nobody else may read it, whatever the login umask.
    quoth::engine::mailbox::privacy::restrict_umask();
    quoth::index::embed::disable_runtime_telemetry();
    // A damaged store can make sled panic while it opens; that panic is caught and
    // reported as an error naming the fix, so its backtrace would only be noise.
    let report_panic = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(quoth::engine::STORE_OPEN_THREAD) {
            report_panic(info);
        }
    }));
    let args = cli::Cli::parse();
    let result = cli::run(args);
    cli::finish();
    quoth::engine::mailbox::privacy::remove_viewer_copies();
    match result {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(1);
        }
    }
}
