//! Package CI: every package under `problems/` is validated, and each of its
//! reference programs is graded and compared with the verdict its folder
//! promises. A broken package is reported and the others still run.
//!
//! The work is a list of units (one validation per package, one grading per
//! reference program) in a fixed order, so `--shard K/N` can split it across
//! the machines of a CI matrix: shard K takes the units whose index is K-1
//! modulo N. Every unit's work (validations, compilations, runs) draws
//! from the command's one pool of `--jobs` slots (`judge::pool`); the
//! checks keep the units' order.

use crate::judge::grading::{Grader, SubmissionReport, TestResult};
use crate::judge::pool::{Item, Pool, Work};
use crate::judge::runner::Sandboxed;
use crate::judge::sandbox::Sandbox;
use crate::judge::submission::{SourceLimit, prepare};
use crate::package::expected::Expected;
use crate::package::languages::LanguageTable;
use crate::package::{PROBLEM_FILE, PackageError, Problem};
use crate::puzzle::verdict::Verdict;
use crate::workflows::validate::{self, reference_programs};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// The current [`CiReport::schema_version`].
pub const SCHEMA_VERSION: u32 = 1;

/// problemtools' `time_multiplier`: the time limit must be at least this many
/// times the slowest time of any accepted reference program on any test.
pub const TIME_MULTIPLIER: u64 = 2;

/// problemtools' `time_safety_margin`: a time_limit_exceeded reference
/// program must still run out of time under this many times the limit, so
/// that it is slow by design, not by a hair.
pub const TIME_SAFETY_MARGIN: u64 = 2;

/// What a CI check expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expectation {
    /// A package's validation: no problems.
    ValidPackage,
    /// A reference program: the verdict its folder names.
    Verdict(Expected),
}

/// `valid package`, or the folder name (`accepted`, `wrong_answer`, ...);
/// padding and width apply, for tables.
impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expectation::ValidPackage => f.pad("valid package"),
            Expectation::Verdict(e) => f.pad(&e.to_string()),
        }
    }
}

/// In JSON, the words of [`fmt::Display`].
impl Serialize for Expectation {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One unit of CI work and how it went.
#[derive(Clone, Debug, Serialize)]
pub struct Check {
    /// The package's name (or folder, when it does not load).
    pub package: String,
    /// `validate`, or the reference program's path under the package's
    /// reference folder (e.g. `accepted/backtrack.cpp`).
    pub name: String,
    /// What was expected (in words in the reports).
    pub expected: Expectation,
    /// What happened, in words (e.g. `13 AC, 1 WA`).
    pub result: String,
    /// `None` when it matched; otherwise why not.
    pub failure: Option<String>,
    /// Wall time of the check, ms.
    pub wall_ms: u64,
    /// For a reference program: the package's time limit, ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit_ms: Option<u64>,
    /// For a reference program: the full grading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grading: Option<SubmissionReport>,
    /// For a validation: problems and coverage.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation: Option<validate::Validation>,
}

impl Check {
    /// A check of `name` in `package` not run yet: nothing found, nothing failed.
    pub fn new(package: String, name: String, expected: Expectation) -> Check {
        Check {
            package,
            name,
            expected,
            result: String::new(),
            failure: None,
            wall_ms: 0,
            limit_ms: None,
            grading: None,
            validation: None,
        }
    }
}

/// The whole CI run.
#[derive(Clone, Debug, Serialize)]
pub struct CiReport {
    /// Version of this JSON layout.
    pub schema_version: u32,
    /// The shard run, as `K/N`.
    pub shard: String,
    /// Which sandbox protections were active.
    pub protections: String,
    /// Every check, in order.
    pub checks: Vec<Check>,
}

impl CiReport {
    /// Number of checks that did not match.
    pub fn failures(&self) -> usize {
        self.checks.iter().filter(|c| c.failure.is_some()).count()
    }
}

/// A shard `K/N` (1 <= K <= N).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based index.
    pub k: usize,
    /// Number of shards.
    pub n: usize,
}

/// A `--shard` that is not `K/N` with 1 <= K <= N.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// No `/`.
    #[error("`{0}`: expected K/N, e.g. 1/2")]
    NoSlash(String),
    /// K does not parse.
    #[error("`{0}`: K is not a number")]
    BadK(String),
    /// N does not parse.
    #[error("`{0}`: N is not a number")]
    BadN(String),
    /// K or N out of range.
    #[error("`{0}`: need 1 <= K <= N")]
    OutOfRange(String),
}

impl std::str::FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (k, n) = s.split_once('/').ok_or_else(|| ShardError::NoSlash(s.into()))?;
        let k: usize = k.trim().parse().map_err(|_| ShardError::BadK(s.into()))?;
        let n: usize = n.trim().parse().map_err(|_| ShardError::BadN(s.into()))?;
        if n == 0 || k == 0 || k > n {
            return Err(ShardError::OutOfRange(s.into()));
        }
        Ok(Shard { k, n })
    }
}

impl Shard {
    /// Every unit.
    pub const ALL: Shard = Shard { k: 1, n: 1 };

    fn takes(&self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

/// A package folder and what loading it gave.
pub struct Found {
    /// The folder.
    pub dir: PathBuf,
    /// The package, or why it does not load.
    pub problem: Result<Problem, PackageError>,
}

/// Every folder directly under `ROOT/problems`, loaded (a folder without a
/// `problem.toml` is reported as an empty package). Sorted by name.
pub fn find_packages(root: &Path) -> Result<Vec<Found>, PackageError> {
    let problems = root.join("problems");
    let entries = std::fs::read_dir(&problems).map_err(|cause| PackageError::Io {
        path: problems.clone(),
        cause,
    })?;
    let mut dirs: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    Ok(dirs
        .into_iter()
        .map(|dir| {
            let problem = if dir.join(PROBLEM_FILE).is_file() {
                Problem::load(&dir)
            } else {
                Err(PackageError::NoProblemFile { path: dir.clone() })
            };
            Found { dir, problem }
        })
        .collect())
}

/// One unit of work.
pub enum Unit<'a> {
    /// Validate a package (or report that it does not load).
    Validate(&'a Found),
    /// Grade a reference program.
    Program(&'a Problem, Expected, PathBuf),
}

/// The units of all packages, in order.
pub fn units(found: &[Found]) -> Vec<Unit<'_>> {
    let mut out = Vec::new();
    for f in found {
        out.push(Unit::Validate(f));
        let Ok(problem) = &f.problem else { continue };
        for folder in crate::package::expected::FOLDERS {
            let expected: Expected = folder.parse().expect("known folder");
            for program in reference_programs(&problem.reference_dir.join(folder)) {
                out.push(Unit::Program(problem, expected, program));
            }
        }
    }
    out
}

/// The units this shard takes.
pub fn shard_units<'a>(units: Vec<Unit<'a>>, shard: Shard) -> Vec<Unit<'a>> {
    units
        .into_iter()
        .enumerate()
        .filter(|(i, _)| shard.takes(*i))
        .map(|(_, u)| u)
        .collect()
}

/// Runs one unit, as the `group`-th work of `pool`: a validation holds a
/// slot; a reference program's compilation and runs each hold one.
pub fn run_unit(unit: &Unit, sandbox: &Sandbox, cache: &Path, pool: &Pool, group: u64) -> Check {
    let start = std::time::Instant::now();
    let whole = Item {
        group,
        work: Work::Compile,
    };
    let mut check = match unit {
        Unit::Validate(found) => pool.run(whole, || validate_unit(found)),
        Unit::Program(problem, expected, program) => {
            program_unit(problem, *expected, program, sandbox, cache, (pool, group))
        }
    };
    check.wall_ms = start.elapsed().as_millis() as u64;
    check
}

fn validate_unit(found: &Found) -> Check {
    let mut check = Check::new(
        found
            .dir
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned(),
        "validate".into(),
        Expectation::ValidPackage,
    );
    match &found.problem {
        Err(e) => {
            check.result = "does not load".into();
            check.failure = Some(e.to_string());
        }
        Ok(problem) => {
            check.package = problem.config.name.clone();
            let v = validate::validate_package(problem, || {});
            check.result = format!("{} tests, {} problems", v.coverage.tests, v.problems.len());
            if !v.problems.is_empty() {
                let list: Vec<String> = v.problems.iter().map(|p| p.to_string()).collect();
                check.failure = Some(list.join("\n"));
            }
            check.validation = Some(v);
        }
    }
    check
}

fn program_unit(
    problem: &Problem,
    expected: Expected,
    program: &Path,
    sandbox: &Sandbox,
    cache: &Path,
    (pool, group): (&Pool, u64),
) -> Check {
    let name = program
        .strip_prefix(&problem.reference_dir)
        .unwrap_or(program)
        .to_string_lossy()
        .into_owned();
    let mut check = Check::new(problem.config.name.clone(), name, Expectation::Verdict(expected));
    let languages = match LanguageTable::for_package(&problem.dir) {
        Ok(l) => l,
        Err(e) => return not_graded(check, e.to_string()),
    };
    let Some(language) = languages.detect(program) else {
        return not_graded(check, format!("{}: no known language", program.display()));
    };
    let tests = match problem.tests() {
        Ok(t) => t,
        Err(e) => return not_graded(check, e.to_string()),
    };
    check.limit_ms = Some(problem.config.limits.time_ms);
    let runner = Sandboxed(sandbox);
    let graded_as = graded_problem(problem, expected);
    let grader = match Grader::new(&graded_as, &runner, tests) {
        Ok(g) => g,
        Err(e) => return not_graded(check, format!("reading the tests: {e}")),
    };
    let mut report = SubmissionReport::new(program.display().to_string(), &language.name, grader.max_score());
    let compile = Item {
        group,
        work: Work::Compile,
    };
    let limit = SourceLimit::of(&problem.config.limits);
    match pool.run(compile, || prepare(sandbox, program, language, cache, limit)) {
        Err(e) => return not_graded(check, e.to_string()),
        Ok(Err(ce)) => {
            check.result = "CE".into();
            check.failure = Some(format!("does not compile:\n{}", ce.message));
            report.compile_error = Some(ce.message);
        }
        Ok(Ok(prepared)) => {
            report.compiled_from_cache = prepared.cached;
            // Kattis semantics: a program expected to fail is judged on its
            // first failing test and stopped there.
            report.tests = if expected == Expected::Accepted {
                grader.grade(&prepared, pool, group, &|_| {})
            } else {
                grader.grade_until_failure(&prepared, pool, group, &|_| {})
            };
            report.score = grader.score(&report.tests).0;
            judged(&mut check, &report, grader.len(), expected, problem, &graded_as);
        }
    }
    check.grading = Some(report);
    check
}

/// `check`, a program not graded: `why`.
fn not_graded(mut check: Check, why: String) -> Check {
    check.result = "not graded".into();
    check.failure = Some(why);
    check
}

/// Fills in `check`'s result and failure from the grading `report` of a
/// package of `tests` tests, graded as `graded_as` (the package `problem`
/// with the limits the `expected` verdict is held to).
fn judged(
    check: &mut Check,
    report: &SubmissionReport,
    tests: usize,
    expected: Expected,
    problem: &Problem,
    graded_as: &Problem,
) {
    let verdicts: Vec<Verdict> = report.tests.iter().map(|t| t.verdict).collect();
    check.result = report.verdict_counts();
    if report.tests.len() < tests {
        check
            .result
            .push_str(&format!(" (stopped at {})", report.tests.len()));
    }
    if expected == Expected::TimeLimitExceeded {
        check.result.push_str(&format!(
            " under {TIME_SAFETY_MARGIN}x the limit ({} ms)",
            graded_as.config.limits.time_ms
        ));
    }
    check.failure = expected
        .check(&verdicts)
        .err()
        .map(|m| m.to_string())
        .or_else(|| time_margin_failure(expected, &report.tests, problem.config.limits.time_ms));
}

/// The package as a reference program is graded on it: a time_limit_exceeded
/// program runs under [`TIME_SAFETY_MARGIN`] times the limit (it must run out
/// of time even then); every other program under the package's own limits.
fn graded_problem(problem: &Problem, expected: Expected) -> Problem {
    let mut graded = problem.clone();
    if expected == Expected::TimeLimitExceeded {
        graded.config.limits.time_ms = graded.config.limits.time_ms.saturating_mul(TIME_SAFETY_MARGIN);
    }
    graded
}

/// The time limits a package's reference programs support, from one CI run:
/// problemtools' rules, so the limit is derived, not guessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeLimitSupport {
    /// The package.
    pub package: String,
    /// Its time limit, ms.
    pub limit_ms: u64,
    /// The slowest accepted run: program, test, CPU ms.
    pub slowest_accepted: Option<(String, String, u64)>,
    /// The time_limit_exceeded programs graded, and whether each still ran
    /// out of time under [`TIME_SAFETY_MARGIN`] x the limit.
    pub too_slow: Vec<(String, bool)>,
}

impl TimeLimitSupport {
    /// The smallest limit the accepted programs support:
    /// [`TIME_MULTIPLIER`] x their slowest time, rounded up to 100 ms.
    pub fn lowest_supported_ms(&self) -> Option<u64> {
        let (_, _, ms) = self.slowest_accepted.as_ref()?;
        Some((ms * TIME_MULTIPLIER).div_ceil(100).max(1) * 100)
    }

    /// Whether the limit keeps both margins.
    pub fn holds(&self) -> bool {
        self.lowest_supported_ms().is_none_or(|low| self.limit_ms >= low)
            && self.too_slow.iter().all(|(_, tle)| *tle)
    }

    /// One line for the report, e.g. `mayan: limit 3000 ms; slowest accepted
    /// 812 ms (accepted/plain_dfs.c on secret/none-2), so the limit can be
    /// 1700 ms or more; under 6000 ms still TLE: time_limit_exceeded/brute.py`.
    pub fn line(&self) -> String {
        let mut out = format!("{}: limit {} ms", self.package, self.limit_ms);
        match (&self.slowest_accepted, self.lowest_supported_ms()) {
            (Some((program, test, ms)), Some(low)) => out.push_str(&format!(
                "; slowest accepted {ms} ms ({program} on {test}), so the limit can be {low} ms or more"
            )),
            _ => out.push_str("; no accepted program graded"),
        }
        if !self.too_slow.is_empty() {
            let list = |tle: bool| {
                self.too_slow
                    .iter()
                    .filter(|(_, t)| *t == tle)
                    .map(|(p, _)| p.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let bound = self.limit_ms.saturating_mul(TIME_SAFETY_MARGIN);
            let (still, not) = (list(true), list(false));
            if !still.is_empty() {
                out.push_str(&format!("; under {bound} ms still TLE: {still}"));
            }
            if !not.is_empty() {
                out.push_str(&format!("; under {bound} ms NOT TLE: {not}"));
            }
        }
        out
    }
}

impl CiReport {
    /// What each graded package's reference programs say about its time
    /// limit, in the order the packages were checked.
    pub fn time_limits(&self) -> Vec<TimeLimitSupport> {
        let mut out: Vec<TimeLimitSupport> = Vec::new();
        for check in &self.checks {
            let Some(grading) = &check.grading else { continue };
            let Some(limit_ms) = check.limit_ms else { continue };
            if out.last().is_none_or(|t| t.package != check.package) {
                out.push(TimeLimitSupport {
                    package: check.package.clone(),
                    limit_ms,
                    slowest_accepted: None,
                    too_slow: Vec::new(),
                });
            }
            let support = out.last_mut().expect("pushed above");
            match check.expected {
                Expectation::Verdict(Expected::Accepted) => {
                    for t in &grading.tests {
                        if support
                            .slowest_accepted
                            .as_ref()
                            .is_none_or(|(_, _, ms)| t.time_ms > *ms)
                        {
                            support.slowest_accepted = Some((check.name.clone(), t.test.clone(), t.time_ms));
                        }
                    }
                }
                Expectation::Verdict(Expected::TimeLimitExceeded) => {
                    let tle = grading.tests.iter().any(|t| t.verdict == Verdict::TimeLimit);
                    support.too_slow.push((check.name.clone(), tle));
                }
                _ => {}
            }
        }
        out
    }
}

/// The time margin a reference program must keep, so that its verdict does
/// not depend on the machine's load: an accepted program and a wrong-answer
/// program (which must fail by its bug, not by time) use at most half the
/// limit on every test they run (problemtools' `time_multiplier` of 2).
fn time_margin_failure(expected: Expected, tests: &[TestResult], limit_ms: u64) -> Option<String> {
    if !matches!(expected, Expected::Accepted | Expected::WrongAnswer) {
        return None;
    }
    let slowest = tests.iter().max_by_key(|t| t.time_ms)?;
    (slowest.time_ms.saturating_mul(2) > limit_ms).then(|| {
        let rule = match expected {
            Expected::Accepted => "the time limit must be at least 2x the slowest accepted time",
            _ => "a wrong_answer program must fail by its bug, not by time, so it must stay under half the limit",
        };
        format!(
            "{rule}: test {} took {} ms of the {limit_ms} ms limit",
            slowest.test, slowest.time_ms
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(test: &str, time_ms: u64) -> TestResult {
        TestResult {
            verdict: Verdict::Accepted,
            time_ms,
            wall_ms: time_ms,
            ..TestResult::new(test.into(), b"")
        }
    }

    #[test]
    fn accepted_and_wrong_answer_programs_keep_half_the_limit() {
        let tests = [timed("secret/1", 100), timed("secret/2", 1600)];
        for expected in [Expected::Accepted, Expected::WrongAnswer] {
            let why = time_margin_failure(expected, &tests, 3000).expect("1600 ms is over half of 3000");
            assert!(
                why.contains("test secret/2 took 1600 ms of the 3000 ms limit"),
                "{why}"
            );
            assert_eq!(time_margin_failure(expected, &tests, 3200), None);
        }
        // A program expected to run out of time or crash has no margin to keep.
        assert_eq!(
            time_margin_failure(Expected::TimeLimitExceeded, &tests, 1000),
            None
        );
        assert_eq!(time_margin_failure(Expected::RunTimeError, &tests, 1000), None);
    }

    fn graded(name: &str, expected: Expected, tests: Vec<TestResult>) -> Check {
        let mut report = SubmissionReport::new(name.into(), "c", 0);
        report.tests = tests;
        Check {
            limit_ms: Some(1000),
            grading: Some(report),
            ..Check::new("p".into(), name.into(), Expectation::Verdict(expected))
        }
    }

    #[test]
    fn the_supported_limit_is_twice_the_slowest_accepted_time_rounded_up() {
        let mut slow = timed("secret/9", 1000);
        slow.verdict = Verdict::TimeLimit;
        let report = CiReport {
            schema_version: SCHEMA_VERSION,
            shard: "1/1".into(),
            protections: String::new(),
            checks: vec![
                graded(
                    "accepted/a.c",
                    Expected::Accepted,
                    vec![timed("secret/1", 120), timed("secret/2", 401)],
                ),
                graded("accepted/b.c", Expected::Accepted, vec![timed("secret/1", 300)]),
                graded("time_limit_exceeded/t.c", Expected::TimeLimitExceeded, vec![slow]),
                graded(
                    "time_limit_exceeded/u.c",
                    Expected::TimeLimitExceeded,
                    vec![timed("secret/9", 900)],
                ),
            ],
        };
        let [support] = &report.time_limits()[..] else {
            panic!("one package")
        };
        assert_eq!(
            support.slowest_accepted,
            Some(("accepted/a.c".into(), "secret/2".into(), 401))
        );
        assert_eq!(support.lowest_supported_ms(), Some(900));
        // u.c did not run out of time under 2x the limit: the limit is broken.
        assert!(!support.holds());
        let line = support.line();
        assert!(line.contains("so the limit can be 900 ms or more"), "{line}");
        assert!(
            line.contains("under 2000 ms still TLE: time_limit_exceeded/t.c"),
            "{line}"
        );
        assert!(
            line.contains("under 2000 ms NOT TLE: time_limit_exceeded/u.c"),
            "{line}"
        );
    }

    #[test]
    fn a_time_limit_exceeded_program_is_graded_under_twice_the_limit() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/mayan");
        let problem = Problem::load(&dir).unwrap();
        let limit = problem.config.limits.time_ms;
        assert_eq!(
            graded_problem(&problem, Expected::TimeLimitExceeded)
                .config
                .limits
                .time_ms,
            limit * TIME_SAFETY_MARGIN
        );
        for other in [Expected::Accepted, Expected::WrongAnswer, Expected::RunTimeError] {
            assert_eq!(graded_problem(&problem, other).config.limits.time_ms, limit);
        }
    }

    #[test]
    fn shards_split_the_units_without_overlap() {
        let shards: Vec<Shard> = ["1/3", "2/3", "3/3"].iter().map(|s| s.parse().unwrap()).collect();
        for i in 0..10 {
            assert_eq!(shards.iter().filter(|s| s.takes(i)).count(), 1);
        }
        assert!("0/2".parse::<Shard>().is_err());
        assert!("3/2".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }
}
