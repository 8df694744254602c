//! The `mayan-judge` binary: parse the command line, run the subcommand,
//! exit with its code. All logic lives in the library.

use clap::Parser;
use mayan_judge::cli::{Cli, Command};
use mayan_judge::commands;

fn main() {
    restore_sigpipe();
    let cli = Cli::parse_from(mayan_judge::cli::args());
    if matches!(
        cli.command,
        Command::Grade(_)
            | Command::Ci(_)
            | Command::Stress(_)
            | Command::Bench(_)
            | Command::Doctor(_)
            | Command::Serve(_)
    ) {
        // While the judge is one thread: its cgroup, its user namespace.
        mayan_judge::judge::sandbox::host::prepare();
    }
    let result = match &cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Check(args) => commands::check::run(args),
        Command::Grade(args) => commands::grade::run(args),
        Command::Validate(args) => commands::validate::run(args),
        Command::Ci(args) => commands::ci::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Gen(args) => commands::r#gen::run(args),
        Command::Export(args) => commands::export::run(args),
        Command::Stress(args) => commands::stress::run(args),
        Command::Doctor(args) => commands::doctor::run(args),
        Command::Serve(args) => commands::serve::run(args),
        Command::Similar(args) => commands::similar::run(args),
    };
    match result {
        Ok(code) => std::process::exit(code),
        Err(err) => {
            eprintln!("mayan-judge: error: {err:#}");
            std::process::exit(2);
        }
    }
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`... | head`) would
/// panic; like other Unix tools, let the signal end the process quietly.
/// The judge never writes into a submission's pipe (stdin comes from a
/// file), so this cannot be turned against it.
fn restore_sigpipe() {
    use nix::sys::signal::{SigHandler, Signal, signal};
    // SAFETY: installs the default disposition, no handler code runs; called
    // first thing in main, before any thread exists.
    let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
}
