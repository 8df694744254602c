//! `mayan-judge serve`: the online judge. Reads the contest file and the
//! package, makes the sandbox `grade` uses, and hands them to `server`.
//! Or, instead of serving: `backup COPY` (a consistent copy of the
//! database) and `--dry-run` (what starting would change in the
//! contestants).

use super::Saying;
use crate::cli::{ServeAction, ServeArgs};
use crate::i18n::{Arg, Locale, Said};
use crate::package::languages::LanguageTable;
use crate::server::contest::ContestConfig;
use crate::server::{Options, Rates};
use anyhow::Result;
use std::path::{Path, PathBuf};

/// Runs `serve` until Ctrl-C or SIGTERM; returns the exit code.
pub fn run(args: &ServeArgs) -> Result<i32> {
    if let Some(ServeAction::Backup { copy }) = &args.action {
        let db = args.db.clone().unwrap_or_else(|| default_db(args));
        crate::server::backup(&db, copy)?;
        if !args.quiet {
            let l = Locale::from_env().unwrap_or_default();
            let paths = [
                ("db", Arg::from(db.display().to_string())),
                ("copy", Arg::from(copy.display().to_string())),
            ];
            println!("{}", l.text("console-serve-backup", &paths));
        }
        return Ok(0);
    }
    let contest = match &args.contest {
        Some(path) => {
            ContestConfig::load(path).said(|| Said::new("error-reading").arg("path", path.display()))?
        }
        None => ContestConfig::default_practice(),
    };
    if args.dry_run {
        let db = args.db.clone().unwrap_or_else(|| default_db(args));
        print!("{}", crate::server::contestant_changes(&db, &contest)?);
        return Ok(0);
    }
    let package = args.problem.clone().or_else(|| contest.problem.clone());
    let (problem, bundled) = super::grade::find_problem(package.as_deref())?;
    let languages = LanguageTable::for_package(&problem.dir)?;
    contest
        .check_languages(&languages.names())
        .said(|| Said::new("error-contest-languages").arg("path", problem.dir.display()))?;
    let cases = problem
        .tests()
        .said(|| Said::new("error-reading-package-tests"))?;
    let db = args.db.clone().unwrap_or_else(|| default_db(args));
    // The database holds every contestant's sources and the password
    // hashes: out of every run's sight, with the contest's folder.
    let db_dir = db
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let hidden: Vec<PathBuf> = [&problem.dir, &problem.tests_dir, &contest.dir, db_dir]
        .iter()
        .map(|p| p.canonicalize().unwrap_or_else(|_| p.to_path_buf()))
        .collect();
    let hidden: Vec<&Path> = hidden.iter().map(PathBuf::as_path).collect();
    let sandbox = super::untrusted_sandbox(&args.sandbox, &hidden)?;
    let options = Options {
        listen: args.listen,
        problem,
        cases,
        languages,
        contest,
        db,
        jobs: args.jobs.count(),
        tls: args.tls_cert.clone().zip(args.tls_key.clone()),
        behind_proxy: args.behind_proxy,
        quiet: args.quiet,
        sandbox,
        rates: Rates {
            per_address: args.rate_address,
            per_user: args.rate_user,
            submissions_per_minute: args.rate_submit,
        },
        connections: args.connections,
        connections_per_address: args.connections_per_address,
    };
    crate::server::serve(options)?;
    drop(bundled);
    Ok(0)
}

/// `mayan-judge.db` beside contest.toml, else in the current folder.
fn default_db(args: &ServeArgs) -> PathBuf {
    let dir = args
        .contest
        .as_ref()
        .and_then(|c| c.parent())
        .filter(|d| !d.as_os_str().is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("."));
    dir.join("mayan-judge.db")
}
