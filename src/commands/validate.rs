//! `mayan-judge validate`: check a package's test data, or loose input files.

use super::grade::find_problem;
use super::progress::Progress;
use crate::cli::ValidateArgs;
use crate::package::{PROBLEM_FILE, Problem, TestsIssue, answer_of};
use crate::puzzle::sim::unsupported_max_n;
use crate::report::{ReportFormat, Text};
use crate::workflows::validate::{
    Finding, Rules, SCHEMA_VERSION, Validation, ValidationReport, validate, validate_package,
};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;

/// Runs `validate`; returns the exit code (0 valid, 1 problems found).
pub fn run(args: &ValidateArgs) -> Result<i32> {
    let (target, v) = if args.paths.is_empty() {
        let (problem, _bundled) = find_problem(None)?;
        (problem.dir.display().to_string(), package(&problem, args.quiet))
    } else if args.paths.len() == 1 && args.paths[0].join(PROBLEM_FILE).is_file() {
        let problem = Problem::load(&args.paths[0])?;
        (problem.dir.display().to_string(), package(&problem, args.quiet))
    } else {
        ("files".to_string(), files(args)?)
    };
    let report = ValidationReport {
        schema_version: SCHEMA_VERSION,
        target,
        problems: v.problems,
        coverage: v.coverage,
    };
    print!("{}", Text.validation(&report));
    super::write_reports(&args.reports, |e| e.validation(&report))?;
    Ok(if report.problems.is_empty() { 0 } else { 1 })
}

fn package(problem: &Problem, quiet: bool) -> Validation {
    let total = crate::package::scan_tests(&problem.tests_dir).0.len();
    let progress = Progress::new(quiet, total, "tests");
    progress.phase(&format!("validating {}", problem.dir.display()));
    let v = validate_package(problem, || progress.step(String::new));
    progress.finish();
    v
}

/// Loose files: each `.in` (a folder means every `.in` under it), with the
/// answer beside it (`.ans` or `.out`) checked when there is one.
fn files(args: &ValidateArgs) -> Result<Validation> {
    if let Some(why) = unsupported_max_n(args.max_n) {
        bail!("--max-n {}: {why}", args.max_n);
    }
    let mut inputs: Vec<PathBuf> = Vec::new();
    for p in &args.paths {
        if p.is_dir() {
            for e in walkdir::WalkDir::new(p).sort_by(|a, b| {
                natord::compare(&a.file_name().to_string_lossy(), &b.file_name().to_string_lossy())
            }) {
                let e = e.with_context(|| format!("reading {}", p.display()))?;
                if e.path().extension().is_some_and(|x| x == "in") {
                    inputs.push(e.into_path());
                }
            }
        } else if p.is_file() {
            inputs.push(p.clone());
        } else {
            bail!("{}: no such file or folder", p.display());
        }
    }
    let mut two_answers = Vec::new();
    let mut pairs: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    for input in inputs {
        match answer_of(&input) {
            Ok(answer) => pairs.push((input, Some(answer))),
            Err(issue @ TestsIssue::TwoAnswers(..)) => {
                two_answers.push(Finding::file(&input, issue.to_string()));
            }
            Err(_) => pairs.push((input, None)),
        }
    }
    let rules = Rules {
        max_n: args.max_n,
        reading: args.reading,
        allow_sensitive: args.allow_sensitive,
    };
    let progress = Progress::new(args.quiet, pairs.len(), "files");
    let mut v = validate(&pairs, &rules, || progress.step(String::new));
    progress.finish();
    two_answers.append(&mut v.problems);
    v.problems = two_answers;
    Ok(v)
}
