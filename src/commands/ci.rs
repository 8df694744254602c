//! `mayan-judge ci`: validate every package and grade its reference programs.

use super::progress::Progress;
use crate::cli::CiArgs;
use crate::judge::pool::Pool;
use crate::judge::submission::default_cache_dir;
use crate::report::{ReportFormat, Text};
use crate::workflows::ci::{CiReport, SCHEMA_VERSION, find_packages, run_unit, shard_units, units};
use anyhow::Result;

/// Runs `ci`; returns the exit code (0 as expected, 1 otherwise).
pub fn run(args: &CiArgs) -> Result<i32> {
    let found = find_packages(&args.root)?;
    let work = shard_units(units(&found), args.shard);
    let sandbox = super::untrusted_sandbox(&args.sandbox, &[&args.root])?;
    let cache = default_cache_dir();
    let progress = Progress::new(args.quiet, work.len(), "checks");
    let mut report = CiReport {
        schema_version: SCHEMA_VERSION,
        shard: format!("{}/{}", args.shard.k, args.shard.n),
        protections: sandbox.protections(),
        checks: Vec::new(),
    };
    // Every unit's runs draw from one pool; checks keep the units' order.
    let pool = Pool::new(args.jobs.count());
    report.checks = pool.each(work.len(), |k| {
        let check = run_unit(&work[k], &sandbox, &cache, &pool, k as u64);
        progress.step(|| {
            let status = if check.failure.is_some() { "MISMATCH" } else { "ok" };
            format!("{} {}: {status} ({})", check.package, check.name, check.result)
        });
        check
    });
    progress.finish();
    print!("{}", Text.ci(&report));
    super::write_reports(&args.reports, |e| e.ci(&report))?;
    Ok(if report.failures() == 0 { 0 } else { 1 })
}
