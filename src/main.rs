//! The `faan` binary: parses the command line and hands over to the library.

use clap::Parser;
use faan::config::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve(cli.serve)) {
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
