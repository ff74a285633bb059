//! The `quoth` binary: parses the command line and hands off to a subcommand.

mod cli;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => std::process::exit(code),
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::exit(1);
        }
    }
}
