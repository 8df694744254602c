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
//! graded; a test whose stored answer is wrong gives `FAIL` to everyone.

use crate::judge::runner::{RunError, Runner};
use crate::judge::sandbox::{Limits, RunResult, Status};
use crate::judge::submission::Program;
use crate::package::{Problem, ProblemLimits, TestCase};
use crate::puzzle::checker::{self, Judgement, Reference};
use crate::puzzle::sim::{Move, Puzzle};
use crate::puzzle::solver::format_moves;
use crate::puzzle::verdict::Verdict;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The result of one test.
#[derive(Clone, Debug, Serialize)]
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
    /// The checker's (or the runner's) one-line reason.
    pub reason: String,
    /// For checked outputs, the checker's full judgement.
    pub judgement: Option<Judgement>,
    /// For WA: a short diff of the output against the reference answer.
    pub diff: Option<String>,
    /// Points scored.
    pub points: u32,
    /// What the program printed and the reference answer, for showing a
    /// failure (`stress`); not part of reports.
    #[serde(skip)]
    pub transcript: Transcript,
}

/// A transcript of a run, what a failure is shown with: what the program
/// printed and the reference it was judged against.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    /// What the program printed.
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
            diff: None,
            points: 0,
            transcript: Transcript::default(),
        }
    }
}

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
}

impl Judge<'_> {
    /// Runs `program` on `input` (the text of `puzzle`) and judges it against
    /// `reference` (the solver's answer, `None` for `-1`). `Err` only when
    /// the program could not be run at all (the judge's fault); a checker
    /// FAIL is a result with the verdict [`Verdict::Fail`].
    pub fn test(
        &self,
        program: &Program,
        test: String,
        input: &[u8],
        puzzle: &Puzzle,
        reference: &Option<Vec<Move>>,
    ) -> Result<TestResult, RunError> {
        let mut result = TestResult::new(test, input);
        let run = self
            .runner
            .run(&program.spec(input.to_vec(), run_limits(self.limits)))?;
        result.time_ms = run.cpu_ms;
        result.wall_ms = run.wall_ms;
        result.memory_kib = run.peak_memory_kib;
        result.transcript.reference = Reference::of(reference);
        if let (Some(v), reason) = run_verdict(&run, self.limits) {
            result.verdict = v;
            result.reason = reason;
        } else {
            let j = checker::judge(puzzle, &run.stdout, reference, self.options);
            result.verdict = j.verdict;
            result.reason = j.message.clone();
            if j.verdict == Verdict::WrongAnswer {
                result.diff = Some(short_diff(&run.stdout, &format_moves(reference.as_deref())));
            }
            result.judgement = Some(j);
        }
        result.transcript.stdout = run.stdout;
        result.transcript.stderr = run.stderr;
        Ok(result)
    }
}

/// A test with what the judge needs of it, loaded once.
struct Loaded {
    case: TestCase,
    input: Vec<u8>,
    /// The reference answer, or the FAIL judgement explaining why there is
    /// none (invalid input, stored answer that disagrees with the solver).
    reference: Result<(Puzzle, Option<Vec<Move>>), Box<Judgement>>,
}

/// Everything about one graded submission.
#[derive(Clone, Debug, Serialize)]
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
    /// Per-test results, in test order.
    pub tests: Vec<TestResult>,
    /// Points scored.
    pub score: u32,
    /// Points possible.
    pub max_score: u32,
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
            tests: Vec::new(),
            score: 0,
            max_score,
        }
    }

    /// Whether every test is accepted.
    pub fn all_accepted(&self) -> bool {
        self.compile_error.is_none()
            && self.judge_error.is_none()
            && self.tests.iter().all(|t| t.verdict == Verdict::Accepted)
    }

    /// Verdict counts such as `8 AC, 2 WA` (`CE`, or `FAIL (judge error)`,
    /// for a submission that did not run).
    pub fn verdict_counts(&self) -> String {
        if self.judge_error.is_some() {
            return "FAIL (judge error)".into();
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

    /// Whether some test failed through the judge's fault.
    pub fn judge_failed(&self) -> bool {
        self.judge_error.is_some() || self.tests.iter().any(|t| t.verdict == Verdict::Fail)
    }
}

/// A grading session: one problem, one or more submissions.
#[derive(Clone, Debug, Serialize)]
pub struct GradeReport {
    /// Version of this JSON layout; bumped on any incompatible change.
    pub schema_version: u32,
    /// The problem's name.
    pub problem: String,
    /// Which sandbox protections were active.
    pub protections: String,
    /// The submissions, in the order graded.
    pub submissions: Vec<SubmissionReport>,
}

/// The current [`GradeReport::schema_version`].
pub const SCHEMA_VERSION: u32 = 1;

/// A package's tests, ready to grade any number of submissions.
pub struct Grader<'a> {
    problem: &'a Problem,
    judge: Judge<'a>,
    tests: Vec<Loaded>,
}

/// Sandbox limits of a test run from a package's limits.
pub fn run_limits(l: ProblemLimits) -> Limits {
    Limits {
        cpu_ms: l.time_ms,
        wall_ms: l.time_ms.saturating_mul(2).saturating_add(1000),
        memory_kib: l.memory_mib.saturating_mul(1024),
        output_bytes: l.output_kib.saturating_mul(1024),
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
        for case in cases {
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
            });
        }
        let judge = Judge {
            runner,
            limits: problem.config.limits,
            options: problem.checker,
        };
        Ok(Grader {
            problem,
            judge,
            tests,
        })
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

    /// Runs a prepared submission on every test, `jobs` at a time, calling
    /// `on_result` as each test finishes. Results come back in test order.
    pub fn grade(
        &self,
        program: &Program,
        jobs: usize,
        on_result: &(dyn Fn(&TestResult) + Sync),
    ) -> Vec<TestResult> {
        self.grade_tests(program, jobs, false, on_result)
    }

    /// Like [`Grader::grade`], but stops at the first test (in test order)
    /// that is not accepted, as Kattis judges a submission: the results are
    /// the accepted tests before it and that test, whatever else finished
    /// meanwhile on other threads, so they do not depend on timing.
    pub fn grade_until_failure(
        &self,
        program: &Program,
        jobs: usize,
        on_result: &(dyn Fn(&TestResult) + Sync),
    ) -> Vec<TestResult> {
        self.grade_tests(program, jobs, true, on_result)
    }

    fn grade_tests(
        &self,
        program: &Program,
        jobs: usize,
        stop_at_failure: bool,
        on_result: &(dyn Fn(&TestResult) + Sync),
    ) -> Vec<TestResult> {
        let next = AtomicUsize::new(0);
        // The index of the first failing test seen so far: no test after it
        // is started.
        let first_failure = AtomicUsize::new(usize::MAX);
        let results: Mutex<Vec<Option<TestResult>>> = Mutex::new(vec![None; self.tests.len()]);
        std::thread::scope(|s| {
            for _ in 0..jobs.clamp(1, self.tests.len().max(1)) {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(test) = self.tests.get(i) else { break };
                        if i > first_failure.load(Ordering::Relaxed) {
                            break;
                        }
                        let r = self.grade_one(program, test);
                        if stop_at_failure && r.verdict != Verdict::Accepted {
                            first_failure.fetch_min(i, Ordering::Relaxed);
                        }
                        on_result(&r);
                        results.lock().expect("no panics while held")[i] = Some(r);
                    }
                });
            }
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
                result.reason = format!("judge error: {e}");
                return result;
            }
        };
        // Reports never show raw outputs: do not keep them for every test.
        result.transcript = Transcript::default();
        if result.verdict == Verdict::Accepted && self.problem.config.scoring.groups.is_empty() {
            result.points = self.problem.config.scoring.points_per_test;
        }
        result
    }
}

/// The verdict a run earns before its output is read (`None`: it exited
/// normally, so the checker decides).
pub fn run_verdict(run: &RunResult, limits: ProblemLimits) -> (Option<Verdict>, String) {
    match run.status {
        Status::Exited(0) => (None, String::new()),
        Status::Exited(code) => (Some(Verdict::RuntimeError), format!("exit code {code}")),
        Status::Signaled(_) => (Some(Verdict::RuntimeError), run.status.to_string()),
        Status::TimeLimit { wall: false } => (
            Some(Verdict::TimeLimit),
            format!("CPU time over {} ms", limits.time_ms),
        ),
        Status::TimeLimit { wall: true } => (
            Some(Verdict::TimeLimit),
            format!(
                "wall time over the limit (CPU {} ms): sleeping or blocked?",
                run.cpu_ms
            ),
        ),
        Status::MemoryLimit => (
            Some(Verdict::MemoryLimit),
            format!("memory over {} MiB", limits.memory_mib),
        ),
        Status::OutputLimit => (
            Some(Verdict::OutputLimit),
            format!("output over {} KiB (or a file over its limit)", limits.output_kib),
        ),
    }
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
