//! The `mayan-judge` binary: parse the command line, run the subcommand,
//! exit with its code. All logic lives in the library.

use clap::Parser;
use mayan_judge::cli::{Cli, Command};
use mayan_judge::commands;

fn main() {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Check(args) => commands::check::run(args),
        Command::Grade(args) => commands::grade::run(args),
        Command::Gen(args) => commands::r#gen::run(args),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(err) => {
            eprintln!("mayan-judge: error: {err:#}");
            std::process::exit(2);
        }
    }
}
