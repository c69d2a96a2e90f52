//! The `faan` binary: parses the command line and hands over to the library.

use clap::Parser;
use faan::config::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Command::Serve(cli.serve));
    if !matches!(command, Command::Serve(_)) {
        // A command's output piped into `head` ends quietly when the reader
        // goes, as other command-line tools do, rather than panicking in
        // `println!`. The server keeps Rust's default (SIGPIPE ignored),
        // so a closed client socket is an error it handles.
        // SAFETY: at start-up, before any thread; SIG_DFL is a valid handler.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        }
    }
    match command {
        Command::Serve(args) => faan::startup::serve(args),
        Command::Score(args) => faan::cli::run_score(&args),
        Command::Ledger(args) => faan::cli::run_ledger(&args),
        Command::Rulesets(args) => faan::cli::run_rulesets(&args),
        Command::Analyze(args) => faan::cli::run_analyze(&args),
        Command::Openapi => {
            println!("{}", faan::http::openapi::spec_json());
            ExitCode::SUCCESS
        }
        Command::Healthcheck(args) => faan::startup::healthcheck(&args),
    }
}
