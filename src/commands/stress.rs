//! `mayan-judge stress`: compile a submission once, run it on random boards
//! until one fails, shrink that board, and print it as a ready test with both
//! answers, the checker's reason and the replays.

use crate::checker::Judgement;
use crate::cli::StressArgs;
use crate::grading::{GradeReport, SCHEMA_VERSION, SubmissionReport, TestResult, short_diff};
use crate::package::languages::LanguageTable;
use crate::report::{Html, ReportFormat, write_atomic};
use crate::sandbox::Sandbox;
use crate::sim::{Move, Puzzle, Style, render, render_replay};
use crate::solver::format_moves;
use crate::stress::{BoardSpec, Budget, Outcome, Search, ShrinkLimits, StressError, Tester, search, shrink};
use crate::submission::{Prepared, default_cache_dir, prepare};
use crate::verdict::Verdict;
use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;
use std::io::IsTerminal;
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
    let budget = match (args.count, args.time) {
        (_, Some(t)) if !(t.is_finite() && t >= 0.0) => bail!("--time {t}: not a number of seconds"),
        (_, Some(t)) => Budget::Time(Duration::from_secs_f64(t)),
        (Some(c), None) => Budget::Count(c),
        (None, None) => Budget::Count(DEFAULT_COUNT),
    };
    if !(args.shrink_time.is_finite() && args.shrink_time >= 0.0) {
        bail!("--shrink-time {}: not a number of seconds", args.shrink_time);
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let sandbox = Sandbox::detect();
    let prepared = prepare(&sandbox, source, language, &default_cache_dir())
        .with_context(|| format!("preparing {}", source.display()))?;
    if let Prepared::CompileError(message) = &prepared {
        eprintln!(
            "mayan-judge: error: {} does not compile:\n{message}",
            source.display()
        );
        return Ok(2);
    }
    let tester = Tester {
        sandbox: &sandbox,
        prepared: &prepared,
        limits: crate::package::ProblemLimits {
            time_ms: args.time_limit,
            ..crate::package::ProblemLimits::default()
        },
        reading: args.reading,
    };
    let spec = BoardSpec {
        seed: args.seed,
        moves: args.n.0,
        max_blocks: args.max_blocks,
    };
    println!(
        "stress: {} ({}), seed {}, n {}, up to {} blocks, reading {}, {} ms per run, {jobs} jobs",
        source.display(),
        language.name,
        args.seed,
        spec.moves,
        spec.max_blocks,
        args.reading,
        args.time_limit
    );
    let progress = Progress::new(args.quiet, budget);
    let found = search(&spec, budget, jobs, &|i, p| tester.test(i, p), &|_, p| {
        progress.board(p)
    });
    progress.finish();
    let found = match found {
        Ok(s) => s,
        Err(e) => return judge_error(e),
    };
    print_summary(&found, &progress);
    let Some(failure) = found.failure else {
        println!("no failure found");
        return Ok(0);
    };
    let index = failure.index;
    println!();
    println!(
        "FAILED on board #{index}: {} ({})",
        failure.outcome.verdict, failure.outcome.reason
    );
    println!("{}", describe("board before shrinking", &failure.puzzle));
    let limits = ShrinkLimits {
        runs: args.shrink_runs,
        time: Duration::from_secs_f64(args.shrink_time),
    };
    if !args.quiet {
        eprintln!(
            "shrinking (at most {} runs, {} s)...",
            limits.runs, args.shrink_time
        );
    }
    let shrunk = match shrink(failure.puzzle, failure.outcome, limits, &mut |p| {
        tester.test(index, p)
    }) {
        Ok(s) => s,
        Err(e) => return judge_error(e),
    };
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
    println!();
    println!("{}", describe("shrunk board", &shrunk.puzzle));
    let input = shrunk.puzzle.to_text();
    let answer = format_moves(shrunk.outcome.reference.as_deref());
    println!("input (.in):\n{input}");
    println!("reference answer (.ans):\n{answer}");
    println!("submission's output:\n{}", shown_output(&shrunk.outcome.stdout));
    if !shrunk.outcome.stderr.is_empty() {
        println!("submission's stderr:\n{}", shown_output(&shrunk.outcome.stderr));
    }
    println!(
        "verdict: {} ({}, CPU {} ms)",
        shrunk.outcome.verdict, shrunk.outcome.reason, shrunk.outcome.cpu_ms
    );
    if let Some(j) = &shrunk.outcome.judgement
        && let (Some(k), Some(theirs)) = (j.first_wrong_move, &j.first_wrong_move_text)
    {
        println!("first wrong move: move {k}, `{theirs}`");
    }
    println!();
    print!("{}", replays(&shrunk.puzzle, &shrunk.outcome));
    let name = format!("stress-{}-{index}", args.seed);
    if let Some(dir) = &args.save {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (ext, text) in [("in", &input), ("ans", &answer)] {
            let path = dir.join(format!("{name}.{ext}"));
            write_atomic(&path, text.as_bytes()).with_context(|| format!("writing {}", path.display()))?;
            println!("saved {}", path.display());
        }
    }
    if let Some(path) = &args.html {
        let report = html_report(&sandbox, args, &language.name, &name, &input, &shrunk.outcome);
        write_atomic(path, Html.grade(&report).as_bytes())
            .with_context(|| format!("writing {}", path.display()))?;
        println!("HTML report: {}", path.display());
    }
    Ok(1)
}

/// Prints a judge error and gives exit code 2.
fn judge_error(e: StressError) -> Result<i32> {
    eprintln!("mayan-judge: error: {e}");
    Ok(2)
}

fn print_summary(found: &Search, progress: &Progress) {
    let secs = found.elapsed.as_secs_f64();
    println!(
        "tried {} boards in {:.1} s ({:.0} boards/s), largest {} blocks",
        found.tried,
        secs,
        found.tried as f64 / secs.max(1e-9),
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
fn replays(p: &Puzzle, o: &Outcome) -> String {
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
    match &o.reference {
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
    input: &str,
    o: &Outcome,
) -> GradeReport {
    let diff = (o.verdict == Verdict::WrongAnswer)
        .then(|| short_diff(&o.stdout, &format_moves(o.reference.as_deref())));
    let test = TestResult {
        test: name.to_string(),
        input: input.to_string(),
        verdict: o.verdict,
        time_ms: o.cpu_ms,
        wall_ms: o.wall_ms,
        memory_kib: o.memory_kib,
        reason: o.reason.clone(),
        judgement: o.judgement.clone(),
        diff,
        points: 0,
    };
    GradeReport {
        schema_version: SCHEMA_VERSION,
        problem: format!("stress (seed {}, reading {})", args.seed, args.reading),
        protections: sandbox.protections(),
        submissions: vec![SubmissionReport {
            submission: args.submission.display().to_string(),
            language: language.to_string(),
            compiled_from_cache: false,
            compile_error: None,
            judge_error: None,
            tests: vec![test],
            score: 0,
            max_score: 10,
        }],
    }
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
