//! `mayan-judge grade`: compile and run submissions on a package's tests:
//! files given, or every contestant of a contest folder (`--contest`, a
//! ranking on the terminal). Every compilation and every run of every
//! submission draws from one pool of `--jobs` slots (`judge::pool`), with
//! no wait between one submission and the next.

use super::Saying;
use super::progress::Progress;
use crate::cli::GradeArgs;
use crate::cli::ReportArgs;
use crate::i18n::{Arg, Locale, Said};
use crate::judge::grading::{ContestFolder, GradeReport, Grader, SubmissionReport};
use crate::judge::pool::{Item, Pool, Work};
use crate::judge::reason::NoProgram;
use crate::judge::runner::Sandboxed;
use crate::judge::sandbox::Sandbox;
use crate::judge::submission::{SourceLimit, default_cache_dir, prepare};
use crate::package::embedded::Embedded;
use crate::package::languages::{Language, LanguageTable};
use crate::package::{FileIo, Problem, TestCase};
use crate::report::{Csv, Html, Ranking, ReportFormat, Text, marks_workbook, write_atomic};
use crate::workflows::contest::Contest;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The package to use: `--problem`, else `problems/mayan` found from the
/// current folder upwards, else the bundled copy (kept alive by the guard).
pub fn find_problem(arg: Option<&Path>) -> Result<(Problem, Option<Embedded>)> {
    if let Some(dir) = arg {
        let p = Problem::load(dir).said(|| Said::new("error-loading-package").arg("path", dir.display()))?;
        return Ok((p, None));
    }
    let cwd = std::env::current_dir().said(|| Said::new("error-reading-cwd"))?;
    for dir in cwd.ancestors() {
        let candidate = dir.join("problems/mayan");
        if candidate.join(crate::package::PROBLEM_FILE).is_file() {
            return Ok((Problem::load(&candidate)?, None));
        }
    }
    let bundled = Embedded::extract().said(|| Said::new("error-bundled-package"))?;
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
                let entry = entry.said(|| Said::new("error-reading").arg("path", p.display()))?;
                let is_source =
                    entry.path().extension().is_some() && languages.detect(entry.path()).is_some();
                if entry.file_type().is_file() && is_source {
                    found.push(entry.into_path());
                }
            }
            if found.is_empty() {
                return Err(Said::new("error-no-sources").arg("path", p.display()).into());
            }
            out.extend(found);
        } else if p.is_file() {
            out.push(p.clone());
        } else {
            return Err(Said::new("error-no-such-path").arg("path", p.display()).into());
        }
    }
    Ok(out)
}

/// What is graded: a file, or a contestant and their program (or why
/// they have none).
struct Entry {
    /// The submission as shown: the file, or the contestant's folder.
    shown: String,
    /// In a contest, the contestant.
    contestant: Option<String>,
    /// The program, or why there is none to grade.
    source: Result<PathBuf, NoProgram>,
}

/// The tests to grade: the package's, narrowed by `--tests`.
fn select_tests(problem: &Problem, pattern: Option<&str>) -> Result<Vec<TestCase>> {
    let mut cases: Vec<TestCase> = problem.tests()?;
    if let Some(pattern) = pattern {
        let glob =
            glob::Pattern::new(pattern).said(|| Said::new("error-tests-pattern").arg("pattern", pattern))?;
        cases.retain(|t| glob.matches(&t.name));
        if cases.is_empty() {
            return Err(Said::new("error-tests-match-none")
                .arg("pattern", pattern)
                .arg("problem", &problem.config.name)
                .into());
        }
    }
    Ok(cases)
}

/// A contest folder as the report names it: in English, and as data (its
/// folder and its layout's code).
type ContestShown = (String, ContestFolder);

/// What to grade: the files given, or the contestants of `--contest`
/// (with the folder and its layout, for the report).
fn entries(
    args: &GradeArgs,
    problem: &Problem,
    languages: &LanguageTable,
) -> Result<(Vec<Entry>, Option<ContestShown>)> {
    let Some(dir) = &args.contest else {
        let files = expand(&args.submissions, languages)?;
        let entries = files
            .into_iter()
            .map(|f| Entry {
                shown: f.display().to_string(),
                contestant: None,
                source: Ok(f),
            })
            .collect();
        return Ok((entries, None));
    };
    let contest = Contest::find(dir, &problem.config.name, languages)
        .said(|| Said::new("error-reading-contest").arg("path", dir.display()))?;
    let entries = contest
        .contestants
        .into_iter()
        .map(|c| Entry {
            shown: match &c.program {
                Ok(p) => p.display().to_string(),
                Err(_) => c.dir.display().to_string(),
            },
            contestant: Some(c.name),
            source: c.program,
        })
        .collect();
    let folder = ContestFolder {
        dir: contest.dir.display().to_string(),
        layout: contest.layout.code().to_string(),
    };
    let shown = format!("{} ({})", folder.dir, contest.layout);
    Ok((entries, Some((shown, folder))))
}

/// The smallest failing board of a graded program (compiled again: from
/// the cache), searched through `pool` as submission `group`
/// (`judge::stress::find_counterexample`, its default bounds).
fn counterexample(
    sandbox: &crate::judge::sandbox::Sandbox,
    grader: &Grader,
    pool: &Pool,
    (group, source, language): (u64, &Path, &crate::package::languages::Language),
    cache: &Path,
    limit: SourceLimit,
) -> Result<Option<crate::judge::grading::Counterexample>> {
    use crate::judge::stress::{
        DEFAULT_BOARDS, DEFAULT_CPU, DEFAULT_RUNS, Effort, Tester, find_counterexample,
    };
    let item = Item {
        group,
        work: Work::Compile,
    };
    let prepared = pool.run(item, || prepare(sandbox, source, language, cache, limit))?;
    let Ok(program) = prepared else {
        return Ok(None);
    };
    let tester = Tester {
        judge: grader.judge(),
        program: &program,
    };
    let excluded = grader.puzzles().into_iter().collect();
    let step = |i: usize, p: &crate::puzzle::sim::Puzzle| {
        pool.run(
            Item {
                group,
                work: Work::Test(i),
            },
            || tester.test(i, p),
        )
    };
    let hunt = find_counterexample(
        &DEFAULT_BOARDS,
        Effort::bounded(DEFAULT_RUNS, DEFAULT_CPU),
        &excluded,
        1,
        &step,
        &|_, _| (),
        &|_| (),
    )?;
    Ok(crate::judge::grading::Counterexample::of(&hunt))
}

/// Runs `grade`; returns the exit code (0 all AC, 1 not all AC, 2 judge error).
pub fn run(args: &GradeArgs) -> Result<i32> {
    let (mut problem, _bundled) = find_problem(args.problem.as_deref())?;
    if let Some(stem) = &args.file_io {
        problem.config.io = Some(FileIo::from_stem(stem));
    } else if args.stdio {
        problem.config.io = None;
    }
    let languages = LanguageTable::for_package(&problem.dir)?;
    let cases = select_tests(&problem, args.tests.as_deref())?;
    let (entries, contest) = entries(args, &problem, &languages)?;
    let programs = programs(&entries, &languages, args.lang.as_deref())?;
    let sandbox = super::untrusted_sandbox(&args.sandbox, &[&problem.dir, &problem.tests_dir])?;
    let runner = Sandboxed(&sandbox);
    let grader = Grader::new(&problem, &runner, cases)
        .said(|| Said::new("error-reading-tests"))?
        .retry_tle(args.retry_tle);
    let mut report = blank_report(&problem, &sandbox, &grader, &entries, contest);
    let progress = Progress::new(args.quiet, grader.len() * programs.len(), "tests");
    let session = Session {
        sandbox: &sandbox,
        grader: &grader,
        pool: Pool::new(args.jobs.count()),
        cache: default_cache_dir(),
        limit: SourceLimit::of(&problem.config.limits),
        language: terminal_language(args),
    };
    session.grade_all(&programs, &entries, &mut report, &progress);
    progress.finish();
    if args.counterexamples {
        session.add_counterexamples(&programs, &entries, &mut report)?;
    }
    show_and_write(args, &report)?;
    Ok(exit_code(&report))
}

/// A program to grade: its entry's index, its source and its language.
type Program<'a> = (usize, &'a Path, &'a Language);

/// The entries that have a program, each with its language (`--lang`, else
/// detected from the file).
fn programs<'a>(
    entries: &'a [Entry],
    languages: &'a LanguageTable,
    forced: Option<&str>,
) -> Result<Vec<Program<'a>>> {
    let mut programs = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if let Ok(source) = &e.source {
            programs.push((
                i,
                source.as_path(),
                super::pick_language(languages, forced, source)?,
            ));
        }
    }
    Ok(programs)
}

/// The report before any grading: the package's settings, the tests, and
/// one empty submission per entry (with why it has no program, if so).
fn blank_report(
    problem: &Problem,
    sandbox: &Sandbox,
    grader: &Grader,
    entries: &[Entry],
    contest: Option<ContestShown>,
) -> GradeReport {
    let mut report = GradeReport::new(&problem.config.name, sandbox.protections());
    report.title = Some(problem.config.title.clone());
    report.sandbox = Some(sandbox.protection_details().clone());
    report.time_limit_ms = problem.config.limits.time_ms;
    report.file_io = problem.config.io.clone();
    (report.contest, report.contest_folder) = contest.unzip();
    report.tests = grader.test_names();
    let numbers = grader.test_numbers();
    if numbers.iter().enumerate().any(|(i, &n)| n != i + 1) {
        report.numbers = numbers;
    }
    report.broken_tests = grader.broken_tests();
    report.submissions = entries
        .iter()
        .map(|e| {
            let mut s = SubmissionReport::new(e.shown.clone(), "", grader.max_score());
            s.contestant = e.contestant.clone();
            if let Err(why) = &e.source {
                s.set_no_program(why.clone());
            }
            s
        })
        .collect();
    report
}

/// What every compilation and every run of one `grade` shares.
struct Session<'a> {
    /// The sandbox submissions compile and run in.
    sandbox: &'a Sandbox,
    /// The package's tests.
    grader: &'a Grader<'a>,
    /// The `--jobs` slots every compilation and run draws from.
    pool: Pool,
    /// Where compiled programs are cached.
    cache: PathBuf,
    /// The largest source accepted.
    limit: SourceLimit,
    /// The language of the progress lines (the terminal's).
    language: Locale,
}

impl Session<'_> {
    /// Grades every program into its entry of `report`. One pool for every
    /// compilation and every run: submissions overlap, and each report
    /// lands in its own entry, so the order is unchanged.
    fn grade_all(
        &self,
        programs: &[Program],
        entries: &[Entry],
        report: &mut GradeReport,
        progress: &Progress,
    ) {
        let several = programs.len() > 1;
        if several {
            let counts = [
                ("n", Arg::from(programs.len().to_string())),
                ("jobs", Arg::from(self.pool.size().to_string())),
            ];
            progress.phase(&self.language.text("console-grade-many", &counts));
        }
        let submissions = &report.submissions;
        let graded = self.pool.each(programs.len(), |k| {
            let (i, source, language) = programs[k];
            let name = entries[i].contestant.as_deref().unwrap_or(&entries[i].shown);
            let shown = Shown {
                name,
                several,
                progress,
            };
            let entry = self.grade_one(k as u64, (source, language), submissions[i].clone(), &shown);
            (i, entry)
        });
        for (i, entry) in graded {
            report.submissions[i] = entry;
        }
    }

    /// Compiles and tests one program as submission `group`, filling
    /// `entry`; reports each test on `shown`'s progress.
    fn grade_one(
        &self,
        group: u64,
        (source, language): (&Path, &Language),
        mut entry: SubmissionReport,
        shown: &Shown,
    ) -> SubmissionReport {
        entry.language = language.name.clone();
        let item = Item {
            group,
            work: Work::Compile,
        };
        let prepared = self.pool.run(item, || {
            prepare(self.sandbox, source, language, &self.cache, self.limit)
        });
        if !shown.several {
            let name = [("name", Arg::from(shown.name.to_string()))];
            shown
                .progress
                .phase(&self.language.text("console-grade-one", &name));
        }
        let ran = self
            .grader
            .grade_prepared(prepared, &mut entry, &self.pool, group, &|r| {
                shown.progress.step(|| {
                    let who = if shown.several {
                        format!("{} ", shown.name)
                    } else {
                        String::new()
                    };
                    // Numbered as the report numbers it (`#3 secret/2`).
                    let names = self.grader.test_names();
                    let i = names.iter().position(|t| *t == r.test).unwrap_or(0);
                    let n = self.grader.test_numbers().get(i).copied().unwrap_or(i + 1);
                    let test = [
                        ("n", Arg::from(n.to_string())),
                        ("test", Arg::from(r.test.clone())),
                        ("verdict", Arg::from(r.verdict.to_string())),
                        ("ms", Arg::from(r.time_ms.to_string())),
                    ];
                    format!("{who}{}", self.language.text("console-grade-test", &test))
                })
            });
        if !ran {
            shown.progress.skip(self.grader.len());
        }
        entry
    }

    /// `--counterexamples`: searches the smallest failing board of every
    /// program whose verdict is WA, PE, RE or TLE
    /// (`stress::SEARCHED_VERDICTS`), through the pool.
    fn add_counterexamples(
        &self,
        programs: &[Program],
        entries: &[Entry],
        report: &mut GradeReport,
    ) -> Result<()> {
        let failing: Vec<usize> = programs
            .iter()
            .map(|p| p.0)
            .filter(|&i| {
                crate::judge::stress::SEARCHED_VERDICTS.contains(&report.submissions[i].overall_verdict())
            })
            .collect();
        let found = self.pool.each(failing.len(), |k| {
            let (i, source, language) = *programs.iter().find(|p| p.0 == failing[k]).expect("graded");
            counterexample(
                self.sandbox,
                self.grader,
                &self.pool,
                (k as u64, source, language),
                &self.cache,
                self.limit,
            )
            .with_context(|| format!("searching a counterexample for {}", entries[i].shown))
        });
        for (k, c) in found.into_iter().enumerate() {
            report.submissions[failing[k]].counterexample = c?.map(Box::new);
        }
        Ok(())
    }
}

/// How one program's grading shows on the progress line.
struct Shown<'a> {
    /// The contestant, else the file.
    name: &'a str,
    /// Whether several programs are graded (each step then names its program).
    several: bool,
    /// The progress line.
    progress: &'a Progress,
}

/// The terminal's language: `--locale`, else the environment's.
fn terminal_language(args: &GradeArgs) -> Locale {
    args.locale.or_else(Locale::from_env).unwrap_or_default()
}

/// Prints the report on the terminal (a ranking for `--contest`) and writes
/// the report files asked for.
fn show_and_write(args: &GradeArgs, report: &GradeReport) -> Result<()> {
    // The terminal's language: --locale, else the environment's; files:
    // --locale only (a report handed on does not depend on who ran it).
    let on_terminal = terminal_language(args);
    match args.contest.is_some() {
        true => print!("{}", Ranking.grade_in(report, on_terminal)),
        false => print!("{}", Text.grade_in(report, on_terminal)),
    }
    let html = args.reports.html.as_ref();
    let others = ReportArgs {
        html: None,
        ..args.reports.clone()
    };
    super::write_reports(&others, |e| e.grade(report))?;
    if let Some(path) = html {
        let page = Html.grade_in(report, args.locale.unwrap_or_default());
        write_atomic(path, page.as_bytes())
            .said(|| Said::new("error-writing").arg("path", path.display()))?;
    }
    if let Some(path) = &args.csv {
        write_atomic(path, Csv.grade(report).as_bytes())
            .said(|| Said::new("error-writing").arg("path", path.display()))?;
    }
    if let Some(path) = &args.xlsx {
        let book = marks_workbook(report, args.locale.unwrap_or_default(), None)
            .said(|| Said::new("error-writing").arg("path", path.display()))?;
        write_atomic(path, &book).said(|| Said::new("error-writing").arg("path", path.display()))?;
    }
    Ok(())
}

/// The exit code: 2 if the judge failed on a submission or a test is
/// broken, else 0 if every submission is all AC, else 1.
fn exit_code(report: &GradeReport) -> i32 {
    if report.submissions.iter().any(SubmissionReport::judge_failed) || !report.broken_tests.is_empty() {
        2
    } else if report.submissions.iter().all(SubmissionReport::all_accepted) {
        0
    } else {
        1
    }
}
