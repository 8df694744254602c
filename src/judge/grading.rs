//! Grading: run a prepared submission on every test of a package in the
//! sandbox and judge each output with the checker.
//!
//! Every run of a submission, in `grade`, `ci`, `stress` and `bench`, takes
//! the one path of [`Judge::test`]: run under limits (through a
//! [`Runner`]), turn how the run ended into a verdict, check the output,
//! and give a [`TestResult`].
//!
//! The reference answer of each test is computed once per grading session
//! (and checked against the stored `.ans`), however many submissions are
//! graded; a test whose stored answer is wrong gives `FAIL` to everyone, is
//! listed once in [`GradeReport::broken_tests`], and the other tests are
//! graded as usual.
//!
//! Under NOIP file I/O ([`Judge::io`]) the program reads its input from a
//! file in its work folder and only its output file is judged. A TLE close
//! to the limit can be run again ([`Judge::retry_tle`]), so that a loaded
//! machine does not change verdicts.

use crate::judge::pool::{Item, Pool, Work};
use crate::judge::reason::{JudgeProblem, NoProgram, Notes, RunReason};
use crate::judge::runner::{RunError, Runner};
use crate::judge::sandbox::{Limits, RunResult, Status};
use crate::judge::submission::{Prepared, Program, SubmissionError};
use crate::package::{FileIo, Problem, ProblemLimits, TestCase};
use crate::puzzle::checker::{self, Judgement, Reference};
use crate::puzzle::sim::{Move, Puzzle};
use crate::puzzle::solver::format_moves;
use crate::puzzle::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The result of one test.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestResult {
    /// Test name (e.g. `secret/3`).
    pub test: String,
    /// The puzzle (the test's input), so reports can draw it.
    pub input: String,
    /// Verdict.
    pub verdict: Verdict,
    /// CPU time, ms.
    pub time_ms: u64,
    /// Wall time, ms.
    pub wall_ms: u64,
    /// Peak memory, KiB.
    pub memory_kib: u64,
    /// The checker's (or the runner's) one-line reason, in English (the
    /// words of `judgement` or `run_reason`, with `notes`).
    pub reason: String,
    /// For checked outputs, the checker's full judgement.
    pub judgement: Option<Judgement>,
    /// For outputs not checked, how the run ended, as data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_reason: Option<RunReason>,
    /// What the reason adds to the run's or the checker's words, as data.
    #[serde(default, skip_serializing_if = "Notes::is_empty")]
    pub notes: Notes,
    /// For WA: a short diff of the output against the reference answer.
    pub diff: Option<String>,
    /// Points scored.
    pub points: u32,
    /// How many times the program ran on this test: more than 1 when a TLE
    /// close to the limit was run again (the result is the last run's).
    pub runs: u32,
    /// The program's time over every run on this test, retries included:
    /// each run's CPU time, or its wall time where that is longer, ms
    /// (what the counterexample search's budget counts). Not part of
    /// reports (0 when read back).
    #[serde(skip)]
    pub spent_ms: u64,
    /// What the program printed and the reference answer, for showing a
    /// failure (`stress`); not part of reports (empty when read back).
    #[serde(skip)]
    pub transcript: Transcript,
}

/// A transcript of a run, what a failure is shown with: what the program
/// printed and the reference it was judged against.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// What the program printed: its output file under file I/O, else stdout.
    pub stdout: Vec<u8>,
    /// What it printed on stderr.
    pub stderr: Vec<u8>,
    /// The reference answer (computed even when the output was not checked).
    pub reference: Reference,
}

impl TestResult {
    /// A result before anything ran: FAIL, no reason yet.
    pub fn new(test: String, input: &[u8]) -> TestResult {
        TestResult {
            test,
            input: String::from_utf8_lossy(input).into_owned(),
            verdict: Verdict::Fail,
            time_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            reason: String::new(),
            judgement: None,
            run_reason: None,
            notes: Notes::default(),
            diff: None,
            points: 0,
            runs: 1,
            spent_ms: 0,
            transcript: Transcript::default(),
        }
    }

    /// Sets how the run ended, and the reason to its English words.
    pub fn set_run_reason(&mut self, why: RunReason) {
        self.reason = why.to_string();
        self.run_reason = Some(why);
    }

    /// What a run of this result cost the program: its CPU time, or its
    /// wall time where longer (a program asleep until the wall limit
    /// costs as much as one that computes).
    fn cost_ms(&self) -> u64 {
        self.time_ms.max(self.wall_ms)
    }

    /// Whether it is accepted with more than 80% of `limit_ms` used: a
    /// verdict a slower or busier machine may turn into TLE.
    pub fn near_limit(&self, limit_ms: u64) -> bool {
        self.verdict == Verdict::Accepted && limit_ms > 0 && self.time_ms * 5 > limit_ms * 4
    }
}

/// With `--retry-tle`, the CPU time a run may use, in % of the time limit:
/// a run that finishes within it but over the limit is a TLE close enough
/// to run again; one still running at it is stopped there, TLE for good.
/// 105, not 110: the watchdog looks every 10 ms and the kill takes a few
/// more, so a run stopped here has used under 1.1x the limit.
pub const RETRY_CAP_PERCENT: u64 = 105;

/// The one judging path: runs a program on an input under a problem's
/// limits and judges what it printed.
#[derive(Clone, Copy)]
pub struct Judge<'a> {
    /// How programs are run.
    pub runner: &'a dyn Runner,
    /// Limits of a run.
    pub limits: ProblemLimits,
    /// How the checker reads the rules.
    pub options: checker::Options,
    /// NOIP file I/O: the program reads `io.input` in its work folder (its
    /// stdin is empty) and only `io.output` is judged; `None`: stdin and
    /// stdout.
    pub io: Option<&'a FileIo>,
    /// How many times a TLE close to the limit is run again. With any
    /// retry, a run may use up to [`RETRY_CAP_PERCENT`] of the time limit
    /// of CPU time (past the limit it is still TLE), so a run stops under
    /// 1.1x its limit; a TLE that finished within that cap (its CPU time
    /// at most 5% over the limit: a verdict a quieter machine might have
    /// made AC), or ran out of wall time while computing (CPU time at
    /// least half the limit: starved by a busy machine, not sleeping), is
    /// run again, and the last run's result stands. A run killed at the cap
    /// is over by more than noise and is not run again: an endless loop
    /// costs under 1.1x its limit, once. 0: every run stops at the limit.
    pub retry_tle: u32,
}

impl Judge<'_> {
    /// Runs `program` on `input` (the text of `puzzle`) and judges it against
    /// `reference` (the solver's answer, `None` for `-1`), again after a TLE
    /// close to the limit (see [`Judge::retry_tle`]). `Err` only when the
    /// program could not be run at all (the judge's fault); a checker FAIL
    /// is a result with the verdict [`Verdict::Fail`].
    pub fn test(
        &self,
        program: &Program,
        test: String,
        input: &[u8],
        puzzle: &Puzzle,
        reference: &Option<Vec<Move>>,
    ) -> Result<TestResult, RunError> {
        let (mut result, mut again) = self.attempt(program, test.clone(), input, puzzle, reference)?;
        let mut earlier = Vec::new();
        let mut spent_ms = result.cost_ms();
        while again && earlier.len() < self.retry_tle as usize {
            earlier.push(result.time_ms);
            (result, again) = self.attempt(program, test.clone(), input, puzzle, reference)?;
            spent_ms = spent_ms.saturating_add(result.cost_ms());
        }
        result.spent_ms = spent_ms;
        if !earlier.is_empty() {
            result.runs = earlier.len() as u32 + 1;
            result.notes.earlier_runs_ms = earlier;
            result.reason = result.notes.again(&result.reason);
        }
        Ok(result)
    }

    /// One run and its verdict; `true` with a TLE worth running again.
    fn attempt(
        &self,
        program: &Program,
        test: String,
        input: &[u8],
        puzzle: &Puzzle,
        reference: &Option<Vec<Move>>,
    ) -> Result<(TestResult, bool), RunError> {
        let mut result = TestResult::new(test, input);
        let mut limits = run_limits(self.limits);
        limits.cpu_ms = self.cpu_kill_ms();
        let mut spec = program.spec(input.to_vec(), limits);
        if let Some(io) = self.io {
            spec.input_file = Some(io.input.clone());
            spec.output_file = Some(io.output.clone());
        }
        let run = self.runner.run(&spec)?;
        result.time_ms = run.cpu_ms;
        result.wall_ms = run.wall_ms;
        result.memory_kib = run.peak_memory_kib;
        result.transcript.reference = Reference::of(reference);
        let output = match self.io {
            Some(_) => run.output_file.clone().unwrap_or_default(),
            None => run.stdout.clone(),
        };
        let again = self.retry_tle > 0 && self.close_tle(&run);
        if let Some((v, why)) = run_verdict(&run, self.limits) {
            result.verdict = v;
            result.set_run_reason(why);
        } else if let Some(why) = self.missing_output(&run) {
            result.verdict = Verdict::NoOutputFile;
            result.set_run_reason(why);
        } else {
            let j = checker::judge(puzzle, &output, reference, self.options);
            result.verdict = j.verdict;
            result.reason = j.message.clone();
            if j.verdict == Verdict::WrongAnswer {
                result.diff = Some(short_diff(&output, &format_moves(reference.as_deref())));
            }
            if j.verdict == Verdict::PresentationError && self.io.is_none() && is_blank(&output) {
                result.notes.opens_input = program.opened_input_file();
                result.reason.push_str(&result.notes.hint());
            }
            result.judgement = Some(j);
        }
        result.transcript.stdout = output;
        result.transcript.stderr = run.stderr;
        Ok((result, again))
    }

    /// The CPU time a run is stopped at: [`RETRY_CAP_PERCENT`] of the time
    /// limit when TLEs are run again, so that a run just over the limit is
    /// told from an endless one (the wall-time limit stays the time
    /// limit's).
    fn cpu_kill_ms(&self) -> u64 {
        if self.retry_tle > 0 {
            self.limits.time_ms.saturating_mul(RETRY_CAP_PERCENT) / 100
        } else {
            self.limits.time_ms
        }
    }

    /// Whether a run is a TLE close enough to the limit to run again.
    fn close_tle(&self, run: &RunResult) -> bool {
        let limit = self.limits.time_ms;
        match run.status {
            // Stopped at the cap: over by more than noise, no doubt.
            Status::TimeLimit { wall: false } => false,
            Status::TimeLimit { wall: true } => run.cpu_ms.saturating_mul(2) >= limit,
            _ => run.cpu_ms > limit,
        }
    }

    /// Under file I/O, why there is no output to judge: no output file
    /// (and whether the program wrote to stdout instead).
    fn missing_output(&self, run: &RunResult) -> Option<RunReason> {
        let io = self.io?;
        if run.output_file.is_some() {
            return None;
        }
        Some(RunReason::NoOutputFile {
            file: io.output.clone(),
            wrote_stdout: !is_blank(&run.stdout),
        })
    }
}

/// Whether an output holds nothing but whitespace.
fn is_blank(output: &[u8]) -> bool {
    output.iter().all(u8::is_ascii_whitespace)
}

/// A test with what the judge needs of it, loaded once.
struct Loaded {
    case: TestCase,
    input: Vec<u8>,
    /// The reference answer, or the FAIL judgement explaining why there is
    /// none (invalid input, stored answer that disagrees with the solver).
    reference: Result<(Puzzle, Option<Vec<Move>>), Box<Judgement>>,
    /// What the test scores when accepted ([`Scoring::test_points`](crate::package::Scoring::test_points)).
    points: u32,
    /// Its number among the package's tests, from 1.
    number: usize,
}

/// A counterexample as stored and shown (serve's database, reports): the
/// board, how the program failed on it (the result's `input` is the board,
/// its `reason` the checker's words, its `judgement` the reason as data,
/// the program's legal moves and the smallest solution), and what the
/// search spent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    /// The failing run, named `counterexample`.
    pub result: TestResult,
    /// What the program printed (cut to 4 KiB).
    pub output: String,
    /// The smallest solution, as the answer file writes it (`-1`: none).
    pub answer: String,
    /// Boards tested before one failed.
    pub boards: usize,
    /// Runs in all.
    pub runs: usize,
    /// The program's CPU time in all, ms.
    pub cpu_ms: u64,
}

/// Everything about one graded submission (its JSON, as the JSON report
/// writes it, reads back into an equal value).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmissionReport {
    /// The file graded.
    pub submission: String,
    /// Its language.
    pub language: String,
    /// Whether the compiled program came from the cache (no compilation).
    pub compiled_from_cache: bool,
    /// The compiler's message when it did not compile (every test is then CE).
    pub compile_error: Option<String>,
    /// Why the judge could not grade it (a missing compiler, say): the
    /// judge's problem, not the contestant's.
    pub judge_error: Option<String>,
    /// The same, as data, where a person can act on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_problem: Option<JudgeProblem>,
    /// Per-test results, in test order.
    pub tests: Vec<TestResult>,
    /// Points scored.
    pub score: u32,
    /// Points possible.
    pub max_score: u32,
    /// In a contest folder, the contestant (the folder's name).
    pub contestant: Option<String>,
    /// Why a contestant has nothing graded: no program, or more than one
    /// (a contest folder's contestant; `submission` is then their folder),
    /// in English.
    pub no_program: Option<String>,
    /// The same, as data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub no_program_reason: Option<NoProgram>,
    /// The smallest board found that it fails on (`grade --counterexamples`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Box<Counterexample>>,
}

impl SubmissionReport {
    /// A report for a submission not graded yet.
    pub fn new(submission: String, language: &str, max_score: u32) -> SubmissionReport {
        SubmissionReport {
            submission,
            language: language.to_string(),
            compiled_from_cache: false,
            compile_error: None,
            judge_error: None,
            judge_problem: None,
            tests: Vec::new(),
            score: 0,
            max_score,
            contestant: None,
            no_program: None,
            no_program_reason: None,
            counterexample: None,
        }
    }

    /// Sets why it has nothing graded, and its English words.
    pub fn set_no_program(&mut self, why: NoProgram) {
        self.no_program = Some(why.to_string());
        self.no_program_reason = Some(why);
    }

    /// The name shown for it: the contestant, else the file.
    pub fn name(&self) -> &str {
        self.contestant.as_deref().unwrap_or(&self.submission)
    }

    /// Whether every test is accepted.
    pub fn all_accepted(&self) -> bool {
        self.no_program.is_none()
            && self.compile_error.is_none()
            && self.judge_error.is_none()
            && self.tests.iter().all(|t| t.verdict == Verdict::Accepted)
    }

    /// Verdict counts such as `8 AC, 2 WA` (`CE`, or `FAIL (judge error)`,
    /// for a submission that did not run).
    pub fn verdict_counts(&self) -> String {
        if self.judge_error.is_some() {
            return "FAIL (judge error)".into();
        }
        if self.no_program.is_some() {
            return "no program".into();
        }
        if self.compile_error.is_some() {
            return "CE".into();
        }
        let mut counts: BTreeMap<Verdict, usize> = BTreeMap::new();
        for t in &self.tests {
            *counts.entry(t.verdict).or_default() += 1;
        }
        counts
            .iter()
            .map(|(v, n)| format!("{n} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The submission's overall verdict: `AC` when every test is, else
    /// `FAIL` (judge error), `CE`, or the first test's verdict that is not AC.
    pub fn overall_verdict(&self) -> &'static str {
        if self.judge_error.is_some() {
            return Verdict::Fail.code();
        }
        if self.compile_error.is_some() {
            return Verdict::CompileError.code();
        }
        self.tests
            .iter()
            .map(|t| t.verdict)
            .find(|&v| v != Verdict::Accepted)
            .unwrap_or(Verdict::Accepted)
            .code()
    }

    /// Whether some test failed through the judge's fault.
    pub fn judge_failed(&self) -> bool {
        self.judge_error.is_some() || self.tests.iter().any(|t| t.verdict == Verdict::Fail)
    }
}

/// A grading session: one problem, one or more submissions. Its JSON (the
/// JSON report) reads back into an equal value, from which every report
/// format renders as it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GradeReport {
    /// Version of this JSON layout; bumped on any incompatible change.
    pub schema_version: u32,
    /// The problem's name.
    pub problem: String,
    /// The problem's title, in each language the package gives.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<crate::package::Title>,
    /// Which sandbox protections were active, in English.
    pub protections: String,
    /// The same, as data (a report of `grade`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<crate::judge::sandbox::Protections>,
    /// The CPU time limit of a test, ms.
    pub time_limit_ms: u64,
    /// NOIP file I/O, when the programs were graded with it.
    pub file_io: Option<FileIo>,
    /// The contest folder graded (`grade --contest`), with its layout, in
    /// English.
    pub contest: Option<String>,
    /// The same, as data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contest_folder: Option<ContestFolder>,
    /// The tests graded, in order.
    pub tests: Vec<String>,
    /// Each test's number as a person reads it (`#N`, its place among the
    /// package's tests), where that is not its place in `tests` (`grade
    /// --tests` grades a subset); empty: `tests`' own order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub numbers: Vec<usize>,
    /// Tests that cannot be judged (a stored answer that disagrees with the
    /// solver, an invalid input): FAIL for every submission, listed once.
    pub broken_tests: Vec<BrokenTest>,
    /// The submissions, in the order graded.
    pub submissions: Vec<SubmissionReport>,
}

impl GradeReport {
    /// A report with no submission yet, for a problem (its name) and a
    /// sandbox (its protections).
    pub fn new(problem: &str, protections: String) -> GradeReport {
        GradeReport {
            schema_version: SCHEMA_VERSION,
            problem: problem.to_string(),
            title: None,
            protections,
            sandbox: None,
            time_limit_ms: 0,
            file_io: None,
            contest: None,
            contest_folder: None,
            tests: Vec::new(),
            numbers: Vec::new(),
            broken_tests: Vec::new(),
            submissions: Vec::new(),
        }
    }

    /// The broken test of this name, if it is one.
    pub fn broken(&self, test: &str) -> Option<&BrokenTest> {
        self.broken_tests.iter().find(|b| b.test == test)
    }

    /// The test's number as a person reads it, `#1` to `#N` in test order
    /// as Chinese judges number them (its place among [`GradeReport::tests`],
    /// from 1); `None` for a name not among them.
    pub fn test_number(&self, test: &str) -> Option<usize> {
        let i = self.tests.iter().position(|n| n == test)?;
        Some(self.numbers.get(i).copied().unwrap_or(i + 1))
    }
}

/// A contest folder graded, as data.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ContestFolder {
    /// The folder.
    pub dir: String,
    /// Its layout's code: `plain`, `lemonlime`, `arbiter`.
    pub layout: String,
}

/// A test no submission can be judged on (the judge's fault).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct BrokenTest {
    /// Its name.
    pub test: String,
    /// Why (the checker's FAIL reason), in English.
    pub reason: String,
    /// The checker's FAIL judgement, the reason as data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judgement: Option<Judgement>,
}

/// The current [`GradeReport::schema_version`].
pub const SCHEMA_VERSION: u32 = 1;

/// A package's tests, ready to grade any number of submissions.
pub struct Grader<'a> {
    problem: &'a Problem,
    judge: Judge<'a>,
    tests: Vec<Loaded>,
}

/// Each of `cases`' points and number (`#N`, from 1) as the package gives
/// them among all its tests (`grade --tests` grades a subset: each test
/// keeps its points and its number, a `total` is not shared again among the
/// few); the cases alone where the package's tests cannot be listed.
fn package_points(problem: &Problem, cases: &[TestCase]) -> Vec<(u32, usize)> {
    let scoring = &problem.config.scoring;
    let all = problem.tests().unwrap_or_else(|_| cases.to_vec());
    let names: Vec<&str> = all.iter().map(|c| c.name.as_str()).collect();
    let points = scoring.test_points(&names);
    cases
        .iter()
        .enumerate()
        .map(|(k, c)| match names.iter().position(|n| *n == c.name) {
            Some(i) => (points[i], i + 1),
            None => (0, k + 1),
        })
        .collect()
}

/// Sandbox limits of a test run from a package's limits.
pub fn run_limits(l: ProblemLimits) -> Limits {
    Limits {
        cpu_ms: l.time_ms,
        wall_ms: l.time_ms.saturating_mul(2).saturating_add(1000),
        memory_kib: l.memory_mib.saturating_mul(1024),
        output_bytes: l.output_bytes(),
        file_size_bytes: 16 << 20,
        processes: 64,
    }
}

impl<'a> Grader<'a> {
    /// Loads the tests (reads inputs and answers, solves every puzzle).
    pub fn new(
        problem: &'a Problem,
        runner: &'a dyn Runner,
        cases: Vec<TestCase>,
    ) -> std::io::Result<Grader<'a>> {
        let mut tests = Vec::with_capacity(cases.len());
        let points = package_points(problem, &cases);
        for (case, (points, number)) in cases.into_iter().zip(points) {
            let input = std::fs::read(&case.input)?;
            let answer = std::fs::read(&case.answer)?;
            let reference = match Puzzle::parse(&input) {
                // The checker turns an invalid puzzle into its FAIL judgement.
                Err(_) => Err(Box::new(checker::check(&input, b"", None, problem.checker))),
                Ok(p) => checker::reference(&p, Some(&answer), problem.checker.reading).map(|r| (p, r)),
            };
            tests.push(Loaded {
                case,
                input,
                reference,
                points,
                number,
            });
        }
        let judge = Judge {
            runner,
            limits: problem.config.limits,
            options: problem.checker,
            io: problem.config.io.as_ref(),
            retry_tle: 0,
        };
        Ok(Grader {
            problem,
            judge,
            tests,
        })
    }

    /// Runs a TLE close to the limit again, up to `n` times (see
    /// [`Judge::retry_tle`]).
    pub fn retry_tle(mut self, n: u32) -> Self {
        self.judge.retry_tle = n;
        self
    }

    /// How this grader runs and judges a program (also on boards of its
    /// own: `stress`'s counterexample search).
    pub fn judge(&self) -> Judge<'a> {
        self.judge
    }

    /// The puzzles of the tests that parse (a counterexample is never one).
    pub fn puzzles(&self) -> Vec<Puzzle> {
        self.tests
            .iter()
            .filter_map(|t| t.reference.as_ref().ok().map(|(p, _)| *p))
            .collect()
    }

    /// The tests' names, in order.
    pub fn test_names(&self) -> Vec<String> {
        self.tests.iter().map(|t| t.case.name.clone()).collect()
    }

    /// Each test's number among the package's tests (`#N`, from 1), in
    /// the order of [`Grader::test_names`]: 1 to N unless a subset is graded.
    pub fn test_numbers(&self) -> Vec<usize> {
        self.tests.iter().map(|t| t.number).collect()
    }

    /// The tests no submission can be judged on, and why.
    pub fn broken_tests(&self) -> Vec<BrokenTest> {
        self.tests
            .iter()
            .filter_map(|t| {
                let fail = t.reference.as_ref().err()?;
                Some(BrokenTest {
                    test: t.case.name.clone(),
                    reason: fail.message.clone(),
                    judgement: Some((**fail).clone()),
                })
            })
            .collect()
    }

    /// Number of tests.
    pub fn len(&self) -> usize {
        self.tests.len()
    }

    /// Whether there are no tests.
    pub fn is_empty(&self) -> bool {
        self.tests.is_empty()
    }

    /// Most points a submission can score.
    pub fn max_score(&self) -> u32 {
        self.score(&[]).1
    }

    /// `(score, most possible)` of a submission's results, by the package's
    /// scoring (per test, or by groups).
    pub fn score(&self, results: &[TestResult]) -> (u32, u32) {
        let accepted = |name: &str| {
            results
                .iter()
                .any(|r| r.test == name && r.verdict == Verdict::Accepted)
        };
        if self.problem.config.scoring.groups.is_empty() {
            // Each test's own points (a subset of the tests keeps them).
            let max = self.tests.iter().map(|t| t.points).sum();
            let score = self
                .tests
                .iter()
                .filter(|t| accepted(&t.case.name))
                .map(|t| t.points)
                .sum();
            return (score, max);
        }
        let passed: Vec<(&str, bool)> = self
            .tests
            .iter()
            .map(|t| {
                let ok = results
                    .iter()
                    .any(|r| r.test == t.case.name && r.verdict == Verdict::Accepted);
                (t.case.name.as_str(), ok)
            })
            .collect();
        self.problem.config.scoring.score(&passed)
    }

    /// Runs a prepared submission on every test, each run holding a slot of
    /// `pool` (as submission `group`: see [`Item`]), calling `on_result` as
    /// each test finishes. Results come back in test order.
    pub fn grade(
        &self,
        program: &Program,
        pool: &Pool,
        group: u64,
        on_result: &(dyn Fn(&TestResult) + Sync),
    ) -> Vec<TestResult> {
        self.grade_tests(program, pool, group, false, on_result)
    }

    /// Grades a prepared submission into its report entry: the judge's
    /// error, the compilation error, or every test's result and the score
    /// (the runs drawing on `pool`, as submission `group`). Returns whether
    /// the tests ran.
    pub fn grade_prepared(
        &self,
        prepared: Result<Prepared, SubmissionError>,
        entry: &mut SubmissionReport,
        pool: &Pool,
        group: u64,
        on_result: &(dyn Fn(&TestResult) + Sync),
    ) -> bool {
        match prepared {
            Err(e) => {
                entry.judge_error = Some(e.to_string());
                entry.judge_problem = e.problem();
            }
            Ok(Err(ce)) => entry.compile_error = Some(ce.message),
            Ok(Ok(program)) => {
                entry.compiled_from_cache = program.cached;
                entry.tests = self.grade(&program, pool, group, on_result);
                entry.score = self.score(&entry.tests).0;
                return true;
            }
        }
        false
    }

    /// Like [`Grader::grade`], but stops at the first test (in test order)
    /// that is not accepted, as Kattis judges a submission: the results are
    /// the accepted tests before it and that test, whatever else finished
    /// meanwhile on other threads, so they do not depend on timing.
    pub fn grade_until_failure(
        &self,
        program: &Program,
        pool: &Pool,
        group: u64,
        on_result: &(dyn Fn(&TestResult) + Sync),
    ) -> Vec<TestResult> {
        self.grade_tests(program, pool, group, true, on_result)
    }

    /// Every test (up to the first failure with `stop_at_failure`), on up
    /// to one thread per slot of `pool`, each run holding a slot: no thread
    /// of its own beyond the slots, and no slot held while waiting.
    fn grade_tests(
        &self,
        program: &Program,
        pool: &Pool,
        group: u64,
        stop_at_failure: bool,
        on_result: &(dyn Fn(&TestResult) + Sync),
    ) -> Vec<TestResult> {
        let next = AtomicUsize::new(0);
        // The index of the first failing test seen so far: no test after it
        // is started.
        let first_failure = AtomicUsize::new(usize::MAX);
        let results: Mutex<Vec<Option<TestResult>>> = Mutex::new(vec![None; self.tests.len()]);
        let work = || {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(test) = self.tests.get(i) else { break };
                let item = Item {
                    group,
                    work: Work::Test(i),
                };
                let r = pool.run(item, || {
                    // Checked once the slot is ours: a failure found while
                    // this test waited stops it too.
                    (i <= first_failure.load(Ordering::Relaxed)).then(|| self.grade_one(program, test))
                });
                let Some(r) = r else { break };
                if stop_at_failure && r.verdict != Verdict::Accepted {
                    first_failure.fetch_min(i, Ordering::Relaxed);
                }
                on_result(&r);
                results.lock().expect("no panics while held")[i] = Some(r);
            }
        };
        let threads = pool.size().clamp(1, self.tests.len().max(1));
        std::thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(work);
            }
            // The calling thread is one of them.
            work();
        });
        let results = results.into_inner().expect("no panics while held");
        let cut = first_failure.into_inner().saturating_add(1).min(results.len());
        results
            .into_iter()
            .take(cut)
            .map(|r| r.expect("every test up to the first failure graded"))
            .collect()
    }

    fn grade_one(&self, program: &Program, test: &Loaded) -> TestResult {
        let name = test.case.name.clone();
        let (puzzle, reference) = match &test.reference {
            Ok(r) => r,
            Err(fail) => {
                let mut result = TestResult::new(name, &test.input);
                result.reason = fail.message.clone();
                result.judgement = Some((**fail).clone());
                return result;
            }
        };
        let mut result = match self
            .judge
            .test(program, name.clone(), &test.input, puzzle, reference)
        {
            Ok(r) => r,
            Err(e) => {
                let mut result = TestResult::new(name, &test.input);
                result.set_run_reason(RunReason::JudgeError {
                    detail: e.to_string(),
                });
                return result;
            }
        };
        // Reports never show raw outputs: do not keep them for every test
        // (nor what only a budget of runs counts).
        result.transcript = Transcript::default();
        result.spent_ms = 0;
        if result.verdict == Verdict::Accepted {
            result.points = test.points;
        }
        result
    }
}

/// The verdict a run earns before its output is read (`None`: it exited
/// normally, so the checker decides).
pub fn run_verdict(run: &RunResult, limits: ProblemLimits) -> Option<(Verdict, RunReason)> {
    // Over the limit, however it ended (a run may go on past it when TLEs
    // are run again, or finish between two looks of the watchdog, or be
    // stopped by the wall clock on a loaded machine after using more CPU
    // time than the limit): a CPU time TLE, whatever stopped it.
    let limit_ms = limits.time_ms;
    if run.cpu_ms > limit_ms && !matches!(run.status, Status::TimeLimit { wall: false }) {
        let time_ms = Some(run.cpu_ms);
        return Some((Verdict::TimeLimit, RunReason::CpuOver { limit_ms, time_ms }));
    }
    Some(match run.status {
        Status::Exited(0) => return None,
        Status::Exited(code) => (Verdict::RuntimeError, RunReason::ExitCode { code }),
        Status::Signaled(s) => {
            let signal = run
                .status
                .signal_name()
                .map_or(format!("signal {s}"), str::to_string);
            (Verdict::RuntimeError, RunReason::Killed { signal })
        }
        Status::TimeLimit { wall: false } => (
            Verdict::TimeLimit,
            RunReason::CpuOver {
                limit_ms,
                time_ms: None,
            },
        ),
        Status::TimeLimit { wall: true } => (Verdict::TimeLimit, RunReason::WallOver { cpu_ms: run.cpu_ms }),
        Status::MemoryLimit => {
            let limit_mib = limits.memory_mib;
            (Verdict::MemoryLimit, RunReason::MemoryOver { limit_mib })
        }
        Status::OutputLimit => {
            let limit_kib = limits.output_kib;
            (Verdict::OutputLimit, RunReason::OutputOver { limit_kib })
        }
    })
}

/// A short line diff of an output against the reference answer: at most
/// 12 lines, each cut to 80 characters.
pub fn short_diff(output: &[u8], expected: &str) -> String {
    let theirs = String::from_utf8_lossy(&output[..output.len().min(4096)]).into_owned();
    let diff = similar::TextDiff::from_lines(expected, theirs.as_str());
    let mut out = Vec::new();
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => "-",
            similar::ChangeTag::Insert => "+",
            similar::ChangeTag::Equal => " ",
        };
        let line: String = change.value().trim_end().chars().take(80).collect();
        out.push(format!("{sign}{line}"));
        if out.len() == 12 {
            out.push(" ...".into());
            break;
        }
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::sandbox::RunSpec;

    const CASE4: &str = "3\n1 2 2 3 2 0\n1 4 1 3 4 0\n5 1 4 1 3 3 0\n1 5 3 5 3 5 0\n4 4 3 4 4 0\n";
    const ANSWER: &[u8] = b"2 0 1\n1 1 1\n3 4 -1\n";

    /// A runner that gives the runs it was handed, in order, and keeps the
    /// specs it was asked to run.
    struct Scripted {
        runs: Mutex<Vec<RunResult>>,
        specs: Mutex<Vec<RunSpec>>,
    }

    impl Scripted {
        fn new(runs: Vec<RunResult>) -> Scripted {
            Scripted {
                runs: Mutex::new(runs),
                specs: Mutex::new(Vec::new()),
            }
        }
    }

    impl Runner for Scripted {
        fn run(&self, spec: &RunSpec) -> Result<RunResult, RunError> {
            self.specs.lock().unwrap().push(spec.clone());
            Ok(self.runs.lock().unwrap().remove(0))
        }
    }

    fn run(status: Status, cpu_ms: u64, stdout: &[u8], file: Option<&[u8]>) -> RunResult {
        RunResult {
            status,
            cpu_ms,
            wall_ms: cpu_ms,
            peak_memory_kib: 1024,
            stdout: stdout.to_vec(),
            stderr: Vec::new(),
            output_file: file.map(<[u8]>::to_vec),
        }
    }

    fn program(source: Option<std::path::PathBuf>) -> Program {
        Program {
            program: "solution".into(),
            args: Vec::new(),
            files: Vec::new(),
            cached: true,
            source,
            facts: Default::default(),
        }
    }

    /// Judges CASE4 with a 1000 ms limit through `runner`.
    fn judge_case4(
        runner: &Scripted,
        io: Option<&FileIo>,
        retry_tle: u32,
        source: Option<std::path::PathBuf>,
    ) -> TestResult {
        let judge = Judge {
            runner,
            limits: ProblemLimits {
                time_ms: 1000,
                ..ProblemLimits::default()
            },
            options: checker::Options::default(),
            io,
            retry_tle,
        };
        let puzzle = Puzzle::parse(CASE4.as_bytes()).unwrap();
        let reference = checker::reference(&puzzle, Some(ANSWER), judge.options.reading).unwrap();
        judge
            .test(
                &program(source),
                "t".into(),
                CASE4.as_bytes(),
                &puzzle,
                &reference,
            )
            .unwrap()
    }

    #[test]
    fn a_tle_close_to_the_limit_is_run_again_and_the_last_run_stands() {
        let r = Scripted::new(vec![
            run(Status::Exited(0), 1040, ANSWER, None),
            run(Status::Exited(0), 900, ANSWER, None),
        ]);
        let t = judge_case4(&r, None, 1, None);
        assert_eq!((t.verdict, t.runs, t.time_ms), (Verdict::Accepted, 2, 900));
        assert!(
            t.reason.contains("run 2 times") && t.reason.contains("1040 ms"),
            "{}",
            t.reason
        );
        // With retries a run may go to 1.05x the limit, no further.
        assert!(r.specs.lock().unwrap().iter().all(|s| s.limits.cpu_ms == 1050));

        // Over the limit each time, up to N runs: TLE.
        let r = Scripted::new(vec![run(Status::Exited(0), 1040, ANSWER, None); 3]);
        let t = judge_case4(&r, None, 2, None);
        assert_eq!((t.verdict, t.runs), (Verdict::TimeLimit, 3));
        assert!(
            t.reason.starts_with("CPU time over 1000 ms (1040 ms)"),
            "{}",
            t.reason
        );
    }

    #[test]
    fn a_run_stopped_by_the_wall_clock_after_the_cpu_limit_is_a_cpu_tle() {
        // A loaded machine: the retry (allowed 1.05x the CPU limit) reached
        // the wall limit first, with more CPU time than the limit.
        let r = Scripted::new(vec![run(Status::TimeLimit { wall: true }, 1017, b"", None)]);
        let t = judge_case4(&r, None, 0, None);
        assert_eq!(t.verdict, Verdict::TimeLimit);
        assert!(
            t.reason.starts_with("CPU time over 1000 ms (1017 ms)"),
            "{}",
            t.reason
        );
    }

    #[test]
    fn a_tle_far_over_the_limit_or_asleep_is_not_run_again() {
        for first in [
            // An endless loop, stopped at the cap: once is enough.
            run(Status::TimeLimit { wall: false }, 1060, b"", None),
            run(Status::TimeLimit { wall: true }, 10, b"", None),
        ] {
            let r = Scripted::new(vec![first]);
            let t = judge_case4(&r, None, 1, None);
            assert_eq!((t.verdict, t.runs), (Verdict::TimeLimit, 1));
        }
        // Starved by a busy machine while computing: run again.
        let r = Scripted::new(vec![
            run(Status::TimeLimit { wall: true }, 700, b"", None),
            run(Status::Exited(0), 700, ANSWER, None),
        ]);
        assert_eq!(judge_case4(&r, None, 1, None).verdict, Verdict::Accepted);
        // No retries: every run stops at the limit, and a TLE stays.
        let r = Scripted::new(vec![run(Status::Exited(0), 1010, ANSWER, None)]);
        let t = judge_case4(&r, None, 0, None);
        assert_eq!((t.verdict, t.runs), (Verdict::TimeLimit, 1));
        assert_eq!(r.specs.lock().unwrap()[0].limits.cpu_ms, 1000);
    }

    #[test]
    fn under_file_io_only_the_output_file_is_judged() {
        let io = FileIo::from_stem("mayan");
        let r = Scripted::new(vec![run(Status::Exited(0), 5, b"garbage", Some(ANSWER))]);
        assert_eq!(judge_case4(&r, Some(&io), 0, None).verdict, Verdict::Accepted);
        let spec = r.specs.lock().unwrap().remove(0);
        assert_eq!(spec.input_file.as_deref(), Some("mayan.in"));
        assert_eq!(spec.output_file.as_deref(), Some("mayan.out"));
        assert_eq!(spec.stdin, CASE4.as_bytes());

        let r = Scripted::new(vec![run(Status::Exited(0), 5, ANSWER, None)]);
        let t = judge_case4(&r, Some(&io), 0, None);
        assert_eq!(t.verdict, Verdict::NoOutputFile);
        assert!(t.reason.starts_with("no mayan.out was written"), "{}", t.reason);
        assert!(t.reason.ends_with("it wrote to stdout instead"), "{}", t.reason);
        let r = Scripted::new(vec![run(Status::Exited(0), 5, b" \n", None)]);
        assert!(!judge_case4(&r, Some(&io), 0, None).reason.contains("stdout"));
    }

    #[test]
    fn a_test_is_numbered_by_its_place_among_the_packages_tests_even_in_a_subset() {
        let mut report = GradeReport::new("p", String::new());
        report.tests = vec!["secret/none-2".into(), "secret/none-3".into()];
        assert_eq!(report.test_number("secret/none-3"), Some(2));
        report.numbers = vec![30, 31];
        assert_eq!(report.test_number("secret/none-3"), Some(31));
        assert_eq!(
            crate::report::test_label(&report, "secret/none-2"),
            "#30 secret/none-2"
        );
        assert_eq!(report.test_number("secret/1"), None);
    }

    #[test]
    fn under_file_io_no_output_file_is_its_own_outcome_and_a_malformed_file_is_pe() {
        let io = FileIo::from_stem("mayan");
        let r = Scripted::new(vec![run(Status::Exited(0), 5, b"", None)]);
        let t = judge_case4(&r, Some(&io), 0, None);
        assert_eq!((t.verdict, t.verdict.code()), (Verdict::NoOutputFile, "NOF"));
        assert_eq!(serde_json::to_value(t.verdict).unwrap(), "NOF");
        for malformed in [&b""[..], b"one two\n"] {
            let r = Scripted::new(vec![run(Status::Exited(0), 5, b"", Some(malformed))]);
            assert_eq!(
                judge_case4(&r, Some(&io), 0, None).verdict,
                Verdict::PresentationError
            );
        }
    }

    #[test]
    fn an_empty_output_of_a_program_that_opens_its_input_file_suggests_file_io() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("mayan.cpp");
        std::fs::write(&source, "int main() { freopen(\"mayan.in\", \"r\", stdin); }\n").unwrap();
        let r = Scripted::new(vec![run(Status::Exited(0), 5, b"", None)]);
        let t = judge_case4(&r, None, 0, Some(source));
        assert_eq!(t.verdict, Verdict::PresentationError);
        assert!(t.reason.starts_with("empty output"), "{}", t.reason);
        assert!(
            t.reason.contains("opens mayan.in") && t.reason.contains("--file-io mayan"),
            "{}",
            t.reason
        );
        // Without such a source, the reason is the checker's alone.
        let r = Scripted::new(vec![run(Status::Exited(0), 5, b"", None)]);
        assert!(!judge_case4(&r, None, 0, None).reason.contains("--file-io"));
    }

    /// The bundled package's first `n` tests.
    fn mayan(n: usize) -> (Problem, Vec<TestCase>) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/mayan");
        let problem = Problem::load(&dir).unwrap();
        let mut cases = problem.tests().unwrap();
        cases.truncate(n);
        (problem, cases)
    }

    fn named(name: &str) -> Program {
        Program {
            program: name.into(),
            ..program(None)
        }
    }

    /// Holds the run of `slow` on the first test until every run of the
    /// other programs has ended (60 s at most: then it says so); every run
    /// prints `-1`.
    struct Gate {
        first_input: Vec<u8>,
        others_left: Mutex<usize>,
        ended: std::sync::Condvar,
        waited_in_vain: std::sync::atomic::AtomicBool,
    }

    impl Runner for Gate {
        fn run(&self, spec: &RunSpec) -> Result<RunResult, RunError> {
            let mut left = self.others_left.lock().unwrap();
            if spec.program != std::path::Path::new("slow") {
                *left -= 1;
                self.ended.notify_all();
            } else if spec.stdin == self.first_input {
                let (left, timeout) = self
                    .ended
                    .wait_timeout_while(left, std::time::Duration::from_secs(60), |l| *l > 0)
                    .unwrap();
                drop(left);
                if timeout.timed_out() {
                    self.waited_in_vain.store(true, Ordering::Relaxed);
                }
            }
            Ok(run(Status::Exited(0), 5, b"-1\n", None))
        }
    }

    /// Grades `slow` and two other programs on 3 tests with 2 slots, the
    /// slow one's first test held by the gate until every other run has
    /// started; the pool's trace.
    fn slow_beside_others() -> Vec<crate::judge::pool::Occupancy> {
        let (problem, cases) = mayan(3);
        let first_input = std::fs::read(&cases[0].input).unwrap();
        let gate = Gate {
            first_input,
            others_left: Mutex::new(2 * cases.len()),
            ended: std::sync::Condvar::new(),
            waited_in_vain: Default::default(),
        };
        let grader = Grader::new(&problem, &gate, cases).unwrap();
        let programs = [named("slow"), named("a"), named("b")];
        // Two slots: while `slow`'s first test holds one, every other run
        // (its own other tests, then the other submissions') takes the other.
        let pool = Pool::traced(2);
        let results = pool.each(programs.len(), |k| {
            grader.grade(&programs[k], &pool, k as u64, &|_| {})
        });
        assert!(
            !gate.waited_in_vain.load(Ordering::Relaxed),
            "the other submissions waited for the slow test"
        );
        for r in &results {
            assert_eq!(
                r.iter().map(|t| t.test.as_str()).collect::<Vec<_>>(),
                grader.test_names()
            );
        }
        pool.trace()
    }

    #[test]
    fn a_slow_test_of_one_submission_does_not_hold_up_the_others() {
        let slow_first = Item {
            group: 0,
            work: Work::Test(0),
        };
        crate::testing::retried(5, "the slow test started after every other run", || {
            let trace = slow_beside_others();
            let at = |start| {
                trace
                    .iter()
                    .position(|o| o.item == slow_first && o.start == start)
                    .unwrap()
            };
            let (slow_start, slow_end) = (at(true), at(false));
            let others: Vec<usize> = (0..trace.len()).filter(|&i| trace[i].item.group > 0).collect();
            assert_eq!(others.len(), 2 * 2 * 3, "a start and an end per run: {trace:?}");
            // The others ran while it ran: each started before it ended
            // (the gate held it until every other run had started).
            assert!(
                others.iter().filter(|&&i| trace[i].start).all(|&i| i < slow_end),
                "the other runs beside the slow one: {trace:?}"
            );
            // A slot holds one run at a time, and there are two.
            let mut busy = [None; 2];
            for o in &trace {
                if o.start {
                    assert_eq!(busy[o.slot].replace(o.item), None, "{trace:?}");
                } else {
                    assert_eq!(busy[o.slot].take(), Some(o.item), "{trace:?}");
                }
            }
            // And they went on after it started, unless the thread of the
            // slow test reached the pool only once every other run was
            // over (not scheduled in time on a loaded machine): then
            // nothing was beside it, and another try.
            if others.iter().any(|&i| i > slow_start) {
                Ok(())
            } else {
                Err(format!("{trace:?}"))
            }
        });
    }

    /// Answers `-1` for `minus`, nothing for anything else.
    struct Fixed;

    impl Runner for Fixed {
        fn run(&self, spec: &RunSpec) -> Result<RunResult, RunError> {
            let out: &[u8] = if spec.program == std::path::Path::new("minus") {
                b"-1\n"
            } else {
                b""
            };
            Ok(run(Status::Exited(0), 7, out, None))
        }
    }

    #[test]
    fn results_do_not_depend_on_the_slots() {
        let (problem, cases) = mayan(8);
        let grader = Grader::new(&problem, &Fixed, cases).unwrap();
        let programs = [named("minus"), named("silent"), named("minus")];
        let grade_all = |slots: usize, until_failure: bool| {
            let pool = Pool::new(slots);
            pool.each(programs.len(), |k| {
                if until_failure {
                    grader.grade_until_failure(&programs[k], &pool, k as u64, &|_| {})
                } else {
                    grader.grade(&programs[k], &pool, k as u64, &|_| {})
                }
            })
        };
        for until_failure in [false, true] {
            let one = grade_all(1, until_failure);
            assert_eq!(one, grade_all(3, until_failure));
            assert_eq!(one, grade_all(8, until_failure));
        }
        let whole = grade_all(4, false);
        assert!(whole.iter().all(|r| r.len() == 8));
        // `silent` fails its first test: stopped there.
        assert_eq!(grade_all(4, true)[1].len(), 1);
    }

    #[test]
    fn the_diff_marks_reference_lines_with_minus_and_output_lines_with_plus() {
        let d = short_diff(b"2 0 1\n1 1 -1\n", "2 0 1\n1 1 1\n");
        assert_eq!(d, " 2 0 1\n-1 1 1\n+1 1 -1");
    }

    #[test]
    fn the_diff_stays_short() {
        let out = "9 9 9\n".repeat(1000);
        assert!(short_diff(out.as_bytes(), "-1\n").lines().count() <= 13);
    }
}
