//! The `mayan-judge` binary: parse the command line, run the subcommand,
//! exit with its code. All logic lives in the library.

use mayan_judge::cli::Command;
use mayan_judge::commands;

fn main() {
    restore_sigpipe();
    let cli = commands::help::parse(mayan_judge::cli::args());
    if matches!(cli.command, Command::Serve(_)) {
        give_large_blocks_back();
    }
    if matches!(
        cli.command,
        Command::Grade(_)
            | Command::Ci(_)
            | Command::Stress(_)
            | Command::Bench(_)
            | Command::Doctor(_)
            | Command::Serve(_)
    ) {
        // While the judge is one thread: its cgroup, its user namespace,
        // then the launcher every run is started from (before anything
        // grows the judge: runs are forked from that small copy).
        mayan_judge::judge::sandbox::host::prepare();
        if let Err(err) = mayan_judge::judge::sandbox::launcher::start() {
            eprintln!("mayan-judge: error: cannot start the launcher of runs: {err}");
            std::process::exit(2);
        }
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
            // An error may name a file or a contestant: no escape sequence reaches the terminal.
            let words = commands::error_in_words(&err, commands::error_locale(&cli.command));
            eprintln!("{}", mayan_judge::safe::terminal_safe(&words));
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

/// A server lives for days and must not keep what a moment needed: glibc
/// serves a large block from one of its per-thread arenas and keeps it
/// there once freed, as its mmap threshold rises to the largest block
/// freed so far (up to 32 MiB): argon2's 19 MiB per password check, on
/// whichever thread ran it, the solver's tables, a run's output. A fixed
/// threshold of 1 MiB maps every larger block on its own and unmaps it
/// when freed, so the server's memory falls back after sign-ins and
/// judging (`tests/integration/launcher.rs` holds it under 128 MiB).
fn give_large_blocks_back() {
    // SAFETY: sets an allocator parameter; called first thing in main,
    // before any thread exists.
    #[cfg(target_env = "gnu")]
    unsafe {
        nix::libc::mallopt(nix::libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}
