//! `mayan-judge grade`: compile and run submissions on a package's tests.

use super::progress::Progress;
use crate::cli::GradeArgs;
use crate::judge::grading::{GradeReport, Grader, SCHEMA_VERSION, SubmissionReport};
use crate::judge::runner::Sandboxed;
use crate::judge::submission::{default_cache_dir, prepare};
use crate::package::embedded::Embedded;
use crate::package::languages::LanguageTable;
use crate::package::{Problem, TestCase};
use crate::report::{ReportFormat, Text};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// The package to use: `--problem`, else `problems/mayan` found from the
/// current folder upwards, else the bundled copy (kept alive by the guard).
pub fn find_problem(arg: Option<&Path>) -> Result<(Problem, Option<Embedded>)> {
    if let Some(dir) = arg {
        let p = Problem::load(dir).with_context(|| format!("loading the package {}", dir.display()))?;
        return Ok((p, None));
    }
    let cwd = std::env::current_dir().context("reading the current folder")?;
    for dir in cwd.ancestors() {
        let candidate = dir.join("problems/mayan");
        if candidate.join(crate::package::PROBLEM_FILE).is_file() {
            return Ok((Problem::load(&candidate)?, None));
        }
    }
    let bundled = Embedded::extract().context("writing out the bundled package")?;
    let p = Problem::load(&bundled.package_dir())?;
    Ok((p, Some(bundled)))
}

/// Expands folders into the source files they hold (natural order).
fn expand(paths: &[PathBuf], languages: &LanguageTable) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut found = Vec::new();
            for entry in walkdir::WalkDir::new(p).sort_by(|a, b| {
                natord::compare(&a.file_name().to_string_lossy(), &b.file_name().to_string_lossy())
            }) {
                let entry = entry.with_context(|| format!("reading {}", p.display()))?;
                let is_source =
                    entry.path().extension().is_some() && languages.detect(entry.path()).is_some();
                if entry.file_type().is_file() && is_source {
                    found.push(entry.into_path());
                }
            }
            if found.is_empty() {
                bail!("{}: no source files in this folder", p.display());
            }
            out.extend(found);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            bail!("{}: no such file or folder", p.display());
        }
    }
    Ok(out)
}

/// Runs `grade`; returns the exit code (0 all AC, 1 not all AC, 2 judge error).
pub fn run(args: &GradeArgs) -> Result<i32> {
    let (problem, _bundled) = find_problem(args.problem.as_deref())?;
    let languages = LanguageTable::for_package(&problem.dir)?;
    let mut cases: Vec<TestCase> = problem.tests()?;
    if let Some(pattern) = &args.tests {
        let glob = glob::Pattern::new(pattern).with_context(|| format!("--tests `{pattern}`"))?;
        cases.retain(|t| glob.matches(&t.name));
        if cases.is_empty() {
            bail!("--tests `{pattern}` matches no test of {}", problem.config.name);
        }
    }
    let sources = expand(&args.submissions, &languages)?;
    let sandbox = super::untrusted_sandbox(&args.sandbox)?;
    let runner = Sandboxed(&sandbox);
    let grader = Grader::new(&problem, &runner, cases).context("reading the tests")?;
    let progress = Progress::new(args.quiet, grader.len() * sources.len(), "tests");
    let cache = default_cache_dir();
    let mut report = GradeReport {
        schema_version: SCHEMA_VERSION,
        problem: problem.config.name.clone(),
        protections: sandbox.protections(),
        submissions: Vec::new(),
    };
    for source in &sources {
        let shown = source.display().to_string();
        progress.phase(&format!("grading {shown}"));
        let language = super::pick_language(&languages, args.lang.as_deref(), source)?;
        let mut entry = SubmissionReport::new(shown.clone(), &language.name, grader.max_score());
        match prepare(&sandbox, source, language, &cache) {
            Err(e) => {
                entry.judge_error = Some(e.to_string());
                progress.skip(grader.len());
            }
            Ok(Err(ce)) => {
                entry.compile_error = Some(ce.message);
                progress.skip(grader.len());
            }
            Ok(Ok(prepared)) => {
                entry.compiled_from_cache = prepared.cached;
                entry.tests = grader.grade(&prepared, args.jobs, &|r| {
                    progress.step(|| format!("{}: {} ({} ms)", r.test, r.verdict, r.time_ms))
                });
                entry.score = grader.score(&entry.tests).0;
            }
        }
        report.submissions.push(entry);
    }
    progress.finish();
    print!("{}", Text.grade(&report));
    super::write_reports(&args.reports, |e| e.grade(&report))?;
    let code = if report.submissions.iter().any(SubmissionReport::judge_failed) {
        2
    } else if report.submissions.iter().all(SubmissionReport::all_accepted) {
        0
    } else {
        1
    };
    Ok(code)
}
