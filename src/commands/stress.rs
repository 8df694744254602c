//! `mayan-judge stress`: compile a submission once, run it on random boards
//! until one fails, shrink that board, and print it as a ready test with both
//! answers, the checker's reason and the replays.

use crate::cli::StressArgs;
use crate::judge::grading::{GradeReport, Judge, SubmissionReport, TestResult};
use crate::judge::runner::Sandboxed;
use crate::judge::sandbox::Sandbox;
use crate::judge::stress::{
    BoardSpec, Budget, Effort, Failure, Hunt, ShrinkLimits, Shrunk, StressError, Tester, find_counterexample,
};
use crate::judge::submission::{Program, SourceLimit, default_cache_dir, prepare};
use crate::package::languages::{Language, LanguageTable};
use crate::package::{FileIo, ProblemLimits};
use crate::puzzle::checker::{self, Judgement};
use crate::puzzle::sim::{Move, Puzzle, Style, render, render_replay};
use crate::puzzle::solver::format_moves;
use crate::report::{Html, ReportFormat, write_atomic};
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Boards tried when neither `--count` nor `--time` is given.
const DEFAULT_COUNT: usize = 10_000;

/// Plain progress lines come every this many boards.
const LINE_EVERY: usize = 100;

/// Runs `stress`; returns the exit code (0 nothing failed, 1 a failure found,
/// 2 judge or configuration error).
pub fn run(args: &StressArgs) -> Result<i32> {
    let languages = LanguageTable::builtin();
    let source = &args.submission;
    if !source.is_file() {
        bail!("{}: no such file", source.display());
    }
    let language = super::pick_language(&languages, args.lang.as_deref(), source)?;
    let (budget, jobs) = (budget(args)?, jobs(args));
    let shrink_limits = shrink_limits(args)?;
    let sandbox = super::untrusted_sandbox(&args.sandbox, &[])?;
    let Some(program) = compile(&sandbox, source, language)? else {
        return Ok(2);
    };
    let runner = Sandboxed(&sandbox);
    let io = args.file_io.as_deref().map(FileIo::from_stem);
    let tester = Tester {
        judge: judge(args, &runner, io.as_ref()),
        program: &program,
    };
    let spec = BoardSpec {
        seed: args.seed,
        moves: args.n.0,
        max_blocks: args.max_blocks,
    };
    print_session(args, &language.name, &spec, jobs);
    let effort = Effort {
        boards: budget,
        shrink: shrink_limits,
        runs: usize::MAX,
        cpu: Duration::MAX,
    };
    let hunt = match hunt(&tester, &spec, effort, jobs, args.quiet) {
        Ok(h) => h,
        Err(e) => return judge_error(e),
    };
    let Some(found) = hunt.found else {
        return Ok(0);
    };
    let (index, shrunk) = (found.failure.index, found.shrunk);
    print_shrinking(&shrunk);
    let (input, answer) = print_shrunk(&shrunk);
    let name = format!("stress-{}-{index}", args.seed);
    if let Some(dir) = &args.save {
        save_test(dir, &name, &input, &answer)?;
    }
    if let Some(path) = &args.html {
        let report = html_report(&sandbox, args, &language.name, &name, &shrunk.outcome);
        write_atomic(path, Html.grade(&report).as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        println!("HTML report: {}", path.display());
    }
    Ok(1)
}

/// The source limit of `stress`: the default of a package's, since it
/// reads none.
const STRESS_SOURCE_LIMIT: &str = "the default of problem.toml [limits] source_kib: stress reads no package";

/// Compiles the submission once (or takes it from the cache); `None`, with
/// the compiler's message printed, when it does not compile (or its source
/// is over the default source limit).
fn compile(sandbox: &Sandbox, source: &Path, language: &Language) -> Result<Option<Program>> {
    let limit = SourceLimit {
        set_by: STRESS_SOURCE_LIMIT,
        ..SourceLimit::of(&ProblemLimits::default())
    };
    let prepared = prepare(sandbox, source, language, &default_cache_dir(), limit)
        .with_context(|| format!("preparing {}", source.display()))?;
    match prepared {
        Ok(program) => Ok(Some(program)),
        Err(ce) => {
            eprintln!(
                "mayan-judge: error: {} does not compile:\n{}",
                source.display(),
                ce.message
            );
            Ok(None)
        }
    }
}

/// How each board is judged: `--time-limit` per run, `--reading`, `--file-io`.
fn judge<'a>(args: &StressArgs, runner: &'a Sandboxed, io: Option<&'a FileIo>) -> Judge<'a> {
    Judge {
        runner,
        limits: ProblemLimits {
            time_ms: args.time_limit,
            ..ProblemLimits::default()
        },
        options: checker::Options {
            reading: args.reading,
            accept_any: false,
        },
        io,
        retry_tle: 0,
    }
}

/// When to stop trying boards: `--time`, else `--count`, else the default count.
fn budget(args: &StressArgs) -> Result<Budget> {
    Ok(match (args.count, args.time) {
        (_, Some(t)) if !(t.is_finite() && t >= 0.0) => bail!("--time {t}: not a number of seconds"),
        (_, Some(t)) => Budget::Time(Duration::from_secs_f64(t)),
        (Some(c), None) => Budget::Count(c),
        (None, None) => Budget::Count(DEFAULT_COUNT),
    })
}

/// Worker threads: `--jobs` (`auto`: one per core the judge may use).
fn jobs(args: &StressArgs) -> usize {
    args.jobs.count()
}

/// The caps on shrinking, from `--shrink-runs` and `--shrink-time`.
fn shrink_limits(args: &StressArgs) -> Result<ShrinkLimits> {
    if !(args.shrink_time.is_finite() && args.shrink_time >= 0.0) {
        bail!("--shrink-time {}: not a number of seconds", args.shrink_time);
    }
    Ok(ShrinkLimits {
        runs: args.shrink_runs,
        time: Duration::from_secs_f64(args.shrink_time),
    })
}

/// The session's settings, in one line.
fn print_session(args: &StressArgs, language: &str, spec: &BoardSpec, jobs: usize) {
    println!(
        "stress: {} ({language}), seed {}, n {}, up to {} blocks, reading {}, {} ms per run, {jobs} jobs",
        args.submission.display(),
        args.seed,
        spec.moves,
        spec.max_blocks,
        args.reading,
        args.time_limit
    );
}

/// Tests random boards until the budget is spent or one fails, then shrinks
/// the failing board (the one search, [`find_counterexample`]); prints the
/// summary and the failing board before shrinking.
fn hunt(
    tester: &Tester,
    spec: &BoardSpec,
    effort: Effort,
    jobs: usize,
    quiet: bool,
) -> Result<Hunt, StressError> {
    let progress = Progress::new(quiet, effort.boards);
    let limits = effort.shrink;
    let on_failure = |failure: &Failure| {
        progress.finish();
        print_summary(&progress);
        println!();
        println!(
            "FAILED on board #{}: {} ({})",
            failure.index, failure.outcome.verdict, failure.outcome.reason
        );
        println!("{}", describe("board before shrinking", &failure.puzzle));
        if !quiet {
            eprintln!(
                "shrinking (at most {} runs, {} s)...",
                limits.runs,
                limits.time.as_secs_f64()
            );
        }
    };
    let no_tests = Default::default();
    let hunt = find_counterexample(
        spec,
        effort,
        &no_tests,
        jobs,
        &|i, p| tester.test(i, p),
        &|_, p| progress.board(p),
        &on_failure,
    );
    progress.finish();
    let hunt = hunt?;
    if hunt.found.is_none() {
        print_summary(&progress);
        println!("no failure found");
    }
    Ok(hunt)
}

/// Says how shrinking went.
fn print_shrinking(shrunk: &Shrunk) {
    let cap = match shrunk.cap_hit {
        None => "no smaller board fails the same way".to_string(),
        Some(what) => format!("stopped at the {what} cap: a smaller board may still fail"),
    };
    println!(
        "shrinking: {} runs, {} steps, {:.1} s; {cap}",
        shrunk.runs,
        shrunk.steps,
        shrunk.elapsed.as_secs_f64()
    );
}

/// Prints the shrunk board as a ready test (input, answer, the submission's
/// output, the verdict and the replays); returns the input and the answer.
fn print_shrunk(shrunk: &Shrunk) -> (String, String) {
    let o = &shrunk.outcome;
    println!();
    println!("{}", describe("shrunk board", &shrunk.puzzle));
    let input = shrunk.puzzle.to_text();
    let answer = format_moves(o.transcript.reference.solution());
    println!("input (.in):\n{input}");
    println!("reference answer (.ans):\n{answer}");
    println!("submission's output:\n{}", shown_output(&o.transcript.stdout));
    if !o.transcript.stderr.is_empty() {
        println!("submission's stderr:\n{}", shown_output(&o.transcript.stderr));
    }
    println!("verdict: {} ({}, CPU {} ms)", o.verdict, o.reason, o.time_ms);
    if let Some(j) = &o.judgement
        && let (Some(k), Some(theirs)) = (j.first_wrong_move, &j.first_wrong_move_text)
    {
        println!("first wrong move: move {k}, `{theirs}`");
    }
    println!();
    print!("{}", replays(&shrunk.puzzle, o));
    (input, answer)
}

/// Writes the test as `NAME.in` and `NAME.ans` into `dir`.
fn save_test(dir: &Path, name: &str, input: &str, answer: &str) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    for (ext, text) in [("in", input), ("ans", answer)] {
        let path = dir.join(format!("{name}.{ext}"));
        write_atomic(&path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))?;
        println!("saved {}", path.display());
    }
    Ok(())
}

/// Prints a judge error and gives exit code 2.
fn judge_error(e: StressError) -> Result<i32> {
    eprintln!("mayan-judge: error: {e}");
    Ok(2)
}

fn print_summary(progress: &Progress) {
    let tried = progress.done.load(Ordering::Relaxed);
    let secs = progress.start.elapsed().as_secs_f64();
    println!(
        "tried {tried} boards in {:.1} s ({:.0} boards/s), largest {} blocks",
        secs,
        tried as f64 / secs.max(1e-9),
        progress.largest.load(Ordering::Relaxed)
    );
}

/// A puzzle's heading (moves, blocks, colours) and picture.
fn describe(title: &str, p: &Puzzle) -> String {
    let counts = p.board.colour_counts();
    let colours = counts[1..].iter().filter(|&&c| c > 0).count();
    format!(
        "{title}: n = {}, {} blocks, {colours} colours\n{}",
        p.n,
        p.board.block_count(),
        render(&p.board, None, Style::default())
    )
}

/// The output as printed, cut to 40 lines.
fn shown_output(stdout: &[u8]) -> String {
    let text = String::from_utf8_lossy(stdout);
    if text.trim().is_empty() {
        return "(nothing)\n".into();
    }
    let mut out: String = text.lines().take(40).map(|l| format!("{l}\n")).collect();
    if text.lines().count() > 40 {
        out.push_str("...\n");
    }
    out
}

/// Step-by-step replays of the submission's moves (those that were legal)
/// and of the reference answer.
fn replays(p: &Puzzle, o: &TestResult) -> String {
    let mut out = String::new();
    let replay =
        |out: &mut String, moves: &[Move]| out.push_str(&render_replay(&p.board, moves, Style::default()));
    let theirs = o.judgement.as_ref().map(|j: &Judgement| j.moves.as_slice());
    match theirs {
        Some(m) if !m.is_empty() => {
            let _ = writeln!(out, "replay of the submission's legal moves:");
            replay(&mut out, m);
        }
        _ => {
            let _ = writeln!(out, "replay of the submission's moves: none to replay");
        }
    }
    out.push('\n');
    match o.transcript.reference.solution() {
        Some(m) => {
            let _ = writeln!(out, "replay of the reference answer:");
            replay(&mut out, m);
        }
        None => {
            let _ = writeln!(out, "reference answer: -1 (no solution)");
        }
    }
    out
}

/// A grade report holding the one failing test, for the HTML exporter.
fn html_report(
    sandbox: &Sandbox,
    args: &StressArgs,
    language: &str,
    name: &str,
    o: &TestResult,
) -> GradeReport {
    let test = TestResult {
        test: name.to_string(),
        points: 0,
        ..o.clone()
    };
    let mut report = GradeReport::new(
        &format!("stress (seed {}, reading {})", args.seed, args.reading),
        sandbox.protections(),
    );
    report.time_limit_ms = args.time_limit;
    report.tests = vec![name.to_string()];
    let mut submission = SubmissionReport::new(args.submission.display().to_string(), language, 10);
    submission.tests = vec![test];
    report.submissions.push(submission);
    report
}

/// Progress on stderr: a bar (or spinner, for a time budget) on a terminal
/// with boards per second and the largest board; a line every 100 boards
/// elsewhere; nothing when quiet.
struct Progress {
    bar: Option<ProgressBar>,
    lines: bool,
    done: AtomicUsize,
    largest: AtomicU32,
    start: Instant,
    last_line: Mutex<()>,
}

impl Progress {
    fn new(quiet: bool, budget: Budget) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        let bar = (!quiet && terminal).then(|| {
            let (bar, template) = match budget {
                Budget::Count(c) => (
                    ProgressBar::new(c as u64),
                    "{bar:30} {pos}/{len} boards  {per_sec}  {msg}",
                ),
                Budget::Time(_) => (
                    ProgressBar::new_spinner(),
                    "{spinner} {pos} boards  {per_sec}  {elapsed}  {msg}",
                ),
            };
            bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        Progress {
            bar,
            lines: !quiet && !terminal,
            done: AtomicUsize::new(0),
            largest: AtomicU32::new(0),
            start: Instant::now(),
            last_line: Mutex::new(()),
        }
    }

    fn board(&self, p: &Puzzle) {
        let blocks = p.board.block_count();
        let before = self.largest.fetch_max(blocks, Ordering::Relaxed);
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
            if blocks > before {
                bar.set_message(format!("largest {blocks} blocks"));
            }
        } else if self.lines && done.is_multiple_of(LINE_EVERY) {
            let _guard = self.last_line.lock();
            let secs = self.start.elapsed().as_secs_f64();
            eprintln!(
                "  {done} boards, {:.0}/s, largest {} blocks",
                done as f64 / secs.max(1e-9),
                self.largest.load(Ordering::Relaxed)
            );
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
