//! `mayan-judge bench`: the solver's speed, reported as ratios against a plain
//! C++ backtracking solution measured in the same run on the same boards, so
//! the figures mean something on a shared, noisy machine.

use crate::cli::{BenchArgs, BenchPart};
use crate::judge::grading::{Judge, run_limits};
use crate::judge::runner::{Bare, Runner, Sandboxed};
use crate::judge::sandbox::Sandbox;
use crate::judge::submission::Program;
use crate::package::ProblemLimits;
use crate::puzzle::boards::{BoardGen, Shape};
use crate::puzzle::checker;
use crate::puzzle::sim::Puzzle;
use crate::puzzle::solver::{Reading, solve};
use crate::puzzle::verdict::Verdict;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs `bench`; returns the exit code.
pub fn run(args: &BenchArgs) -> Result<i32> {
    if args.only.is_none() || args.only == Some(BenchPart::Solver) {
        solver(args)?;
    }
    if args.only.is_none() || args.only == Some(BenchPart::Grader) {
        grader_overhead(args)?;
    }
    if args.only.is_none() || args.only == Some(BenchPart::Stress) {
        stress_rate(args)?;
    }
    Ok(0)
}

/// The solver's figures.
fn solver(args: &BenchArgs) -> Result<()> {
    official(&args.official)?;
    let boards = hard_boards(args.seed, args.boards);
    if let Some(dir) = &args.save_boards {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (i, p) in boards.iter().enumerate() {
            let path = dir.join(format!("hard{}.in", i + 1));
            std::fs::write(&path, p.to_text()).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    let baseline = compile_baseline(&args.baseline)?;
    println!();
    println!(
        "Hard boards: no solution, 25..35 blocks, every colour at least 3 blocks (seed {}).",
        args.seed
    );
    for n in if args.quick { vec![5] } else { vec![5, 7] } {
        println!();
        println!("n = {n}");
        println!("board  blocks  colours   mayan-judge   nodes      baseline        ratio");
        let (mut slowest, mut worst_ratio) = (Duration::ZERO, f64::INFINITY);
        for (i, board) in boards.iter().enumerate() {
            let puzzle = Puzzle { n, ..*board };
            let reps = if n <= 5 { 3 } else { 1 };
            let (ours, nodes) = best_of(reps, || {
                let a = solve(&puzzle, Reading::LITERAL);
                assert!(a.moves.is_none(), "hard boards have no solution");
                a.stats.nodes
            });
            // The baseline gets one run at n = 5 (about a second), and none at
            // n = 7, where plain backtracking takes hours.
            let base = match (&baseline, n) {
                (Some(exe), 5) => Some(time_baseline(exe, &puzzle)?),
                _ => None,
            };
            slowest = slowest.max(ours);
            let counts = board.board.colour_counts();
            let colours = counts.iter().filter(|&&c| c > 0).count();
            print!(
                "{:<6} {:<7} {:<9} {:>9.2} ms  {:<10}",
                i + 1,
                board.board.block_count(),
                colours,
                ms(ours),
                nodes
            );
            match base {
                Some(b) => {
                    let ratio = b.as_secs_f64() / ours.as_secs_f64();
                    worst_ratio = worst_ratio.min(ratio);
                    println!(" {:>9.1} ms  {:>8.0}x", ms(b), ratio);
                }
                None => println!(" {:>12}  {:>9}", "-", "-"),
            }
        }
        let target = if n <= 5 { "target < 20 ms" } else { "target < 2 s" };
        print!("slowest board: {:.2} ms ({target})", ms(slowest));
        if worst_ratio.is_finite() {
            print!("; smallest ratio to the baseline: {worst_ratio:.0}x (target >= 50x)");
        }
        println!();
    }
    Ok(())
}

/// The judge's own cost per test (sandbox setup, limits, capture, checking)
/// against running the same compiled program bare on the same input, both
/// measured here through the one [`Runner`] trait, alternating, so machine
/// noise hits both sides alike.
fn grader_overhead(args: &BenchArgs) -> Result<()> {
    println!();
    let Some(exe) = compile_baseline(&args.baseline)? else {
        return Ok(());
    };
    let input = b"3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n".to_vec();
    let puzzle = Puzzle::parse(&input)?;
    let reference =
        checker::reference(&puzzle, None, Reading::LITERAL).map_err(|j| anyhow::anyhow!(j.message))?;
    let sandbox = Sandbox::detect();
    let sandboxed = Sandboxed(&sandbox);
    let program = baseline_program(&exe);
    let judge = Judge {
        runner: &sandboxed,
        limits: ProblemLimits::default(),
        options: checker::Options::default(),
        io: None,
        retry_tle: 0,
    };
    let bare_spec = program.spec(input.clone(), run_limits(judge.limits));
    let (mut bare, mut judged) = (Vec::new(), Vec::new());
    for _ in 0..args.runs {
        let start = Instant::now();
        let run = Bare.run(&bare_spec)?;
        bare.push(start.elapsed());
        anyhow::ensure!(!run.stdout.is_empty(), "the bare run printed nothing");

        let start = Instant::now();
        let result = judge.test(&program, "bench".into(), &input, &puzzle, &reference)?;
        judged.push(start.elapsed());
        anyhow::ensure!(
            result.verdict == Verdict::Accepted,
            "judged run: {}",
            result.reason
        );
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    let (b, j) = (median(&mut bare), median(&mut judged));
    println!(
        "Grader overhead ({} runs each, sandbox: {}):",
        args.runs,
        sandbox.protections()
    );
    println!("  bare run (spawn, pipe, wait):         {:>7.2} ms median", ms(b));
    println!(
        "  judged run (sandbox + limits + check): {:>7.2} ms median",
        ms(j)
    );
    println!(
        "  overhead per test: {:.2} ms (target < 5 ms); ratio {:.2}x",
        ms(j.saturating_sub(b)),
        j.as_secs_f64() / b.as_secs_f64()
    );
    sandbox_layers(args.runs, &bare_spec)
}

/// What each layer of the sandbox costs: the same run with all layers, and
/// with one turned off, in alternating rounds; the cost of a layer is the
/// difference of the medians.
fn sandbox_layers(runs: usize, spec: &crate::judge::sandbox::RunSpec) -> Result<()> {
    use crate::judge::sandbox::SandboxOptions;
    let all = SandboxOptions::default();
    let variants = [
        ("all layers", all.clone()),
        (
            "private root + namespaces + uid per run",
            SandboxOptions {
                isolation: false,
                ..all.clone()
            },
        ),
        (
            "Landlock rules",
            SandboxOptions {
                landlock: false,
                ..all.clone()
            },
        ),
        (
            "seccomp filter",
            SandboxOptions {
                seccomp: false,
                ..all.clone()
            },
        ),
        (
            "cgroups",
            SandboxOptions {
                cgroups: false,
                ..all.clone()
            },
        ),
    ];
    let sandboxes: Vec<Sandbox> = variants
        .iter()
        .map(|(_, o)| Sandbox::detect_with(o.clone()))
        .collect();
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); sandboxes.len()];
    for _ in 0..runs.div_ceil(2) {
        for (sb, t) in sandboxes.iter().zip(&mut times) {
            let start = Instant::now();
            Sandboxed(sb).run(spec)?;
            t.push(start.elapsed());
        }
    }
    let medians: Vec<Duration> = times
        .iter_mut()
        .map(|v| {
            v.sort();
            v[v.len() / 2]
        })
        .collect();
    println!("Sandbox layers ({} runs each, alternating):", runs.div_ceil(2));
    println!(
        "  {:<42} {:>7.2} ms median",
        "sandboxed run, all layers",
        ms(medians[0])
    );
    for ((name, _), m) in variants.iter().zip(&medians).skip(1) {
        println!(
            "  cost of the {:<30} {:>7.2} ms",
            name,
            ms(medians[0].saturating_sub(*m))
        );
    }
    Ok(())
}

/// The `stress` loop's rate on one thread (small boards, the C++ baseline)
/// against the same boards run bare (spawn, pipe, wait) and run in the sandbox
/// alone, in alternating rounds: the loop's own cost is generation, solving
/// and checking on top of the sandboxed run.
fn stress_rate(args: &BenchArgs) -> Result<()> {
    use crate::judge::stress::{BoardSpec, Budget, Tester, board, search};
    println!();
    let Some(exe) = compile_baseline(&args.baseline)? else {
        return Ok(());
    };
    let sandbox = Sandbox::detect();
    let sandboxed = Sandboxed(&sandbox);
    let program = baseline_program(&exe);
    let tester = Tester {
        judge: Judge {
            runner: &sandboxed,
            limits: ProblemLimits::default(),
            options: checker::Options::default(),
            io: None,
            retry_tle: 0,
        },
        program: &program,
    };
    let limits = run_limits(tester.judge.limits);
    let spec = BoardSpec {
        seed: args.seed,
        moves: crate::puzzle::generate::Span { lo: 1, hi: 5 },
        max_blocks: 8,
    };
    let per_round = args.runs.max(4) / 4;
    let inputs: Vec<Vec<u8>> = (0..per_round)
        .map(|i| board(&spec, i).to_text().into_bytes())
        .collect();
    let (mut bare, mut boxed, mut looped) = (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    for _ in 0..4 {
        for (runner, total) in [(&Bare as &dyn Runner, &mut bare), (&sandboxed, &mut boxed)] {
            let start = Instant::now();
            for input in &inputs {
                runner.run(&program.spec(input.clone(), limits))?;
            }
            *total += start.elapsed();
        }
        let s = search(
            &spec,
            Budget::Count(per_round),
            1,
            &|i, p| tester.test(i, p),
            &|_, _| {},
        )?;
        anyhow::ensure!(s.failure.is_none(), "the baseline failed a stress board");
        looped += s.elapsed;
    }
    let total = 4 * per_round;
    let rate = |d: Duration| total as f64 / d.as_secs_f64();
    println!("Stress loop ({total} boards of 1..8 blocks each way, one thread):");
    println!("  bare runs (spawn, pipe, wait):  {:>7.0} boards/s", rate(bare));
    println!("  sandboxed runs only:            {:>7.0} boards/s", rate(boxed));
    println!(
        "  stress loop (generate, sandbox, solve, check): {:>7.0} boards/s",
        rate(looped)
    );
    println!(
        "  the loop's own overhead over the sandboxed runs: {:.1}% (target < 20%); over bare runs: {:.1}x",
        100.0 * (looped.as_secs_f64() / boxed.as_secs_f64() - 1.0),
        looped.as_secs_f64() / bare.as_secs_f64()
    );
    Ok(())
}

/// The compiled baseline as a program to run (already compiled: "cached").
fn baseline_program(exe: &Path) -> Program {
    Program {
        program: PathBuf::from("solution"),
        args: Vec::new(),
        files: vec![(exe.to_path_buf(), "solution".into())],
        cached: true,
        source: None,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs `f` `reps` times; the fastest time, and what `f` returned.
fn best_of<T>(reps: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..reps {
        let start = Instant::now();
        let v = f();
        best = best.min(start.elapsed());
        out = Some(v);
    }
    (best, out.expect("reps >= 1"))
}

/// The 10 official cases together, best of 20 runs.
fn official(dir: &Path) -> Result<()> {
    let mut puzzles = Vec::new();
    for i in 1..=10 {
        let path = dir.join(format!("mayan{i}.in"));
        let Ok(text) = std::fs::read(&path) else {
            println!("Official cases: {} not found, skipped.", dir.display());
            return Ok(());
        };
        puzzles.push(Puzzle::parse(&text).with_context(|| format!("parsing {}", path.display()))?);
    }
    let (t, nodes) = best_of(20, || {
        puzzles
            .iter()
            .map(|p| solve(p, Reading::LITERAL).stats.nodes)
            .sum::<u64>()
    });
    println!(
        "Official cases: all 10 solved in {:.2} ms ({} nodes; best of 20 runs; target < 5 ms).",
        ms(t),
        nodes
    );
    Ok(())
}

/// Impossible boards with n = 5 on which no cheap pruning applies.
fn hard_boards(seed: u64, count: usize) -> Vec<Puzzle> {
    let mut g = BoardGen::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let blocks = 25 + g.rng().usize(0..=10);
        let colours = 5 + g.rng().usize(0..=(blocks / 3 - 5).min(5));
        let shape = Shape {
            blocks,
            colours,
            min_three_each: true,
        };
        let Some(board) = g.board(shape) else { continue };
        let puzzle = Puzzle { n: 5, board };
        if solve(&puzzle, Reading::LITERAL).moves.is_none() {
            out.push(puzzle);
        }
    }
    out
}

/// Compiles the C++ baseline with `g++ -O2`; `None` (with a note) when g++
/// or the source is missing.
fn compile_baseline(src: &Path) -> Result<Option<PathBuf>> {
    if !src.exists() {
        println!("Baseline {} not found: ratios skipped.", src.display());
        return Ok(None);
    }
    let exe = std::env::temp_dir().join(format!("mayan-bench-baseline-{}", std::process::id()));
    let status = Command::new("g++")
        .args(["-O2", "-std=c++17", "-o"])
        .arg(&exe)
        .arg(src)
        .status();
    match status {
        Ok(s) if s.success() => Ok(Some(exe)),
        Ok(s) => bail!("g++ failed on {} ({s})", src.display()),
        Err(_) => {
            println!("g++ not found: ratios against the C++ baseline skipped.");
            Ok(None)
        }
    }
}

/// Wall time of one baseline run on a puzzle (its answer must be `-1`).
fn time_baseline(exe: &Path, puzzle: &Puzzle) -> Result<Duration> {
    let spec = baseline_program(exe).spec(
        puzzle.to_text().into_bytes(),
        run_limits(ProblemLimits::default()),
    );
    let start = Instant::now();
    let run = Bare.run(&spec)?;
    let elapsed = start.elapsed();
    let text = String::from_utf8_lossy(&run.stdout);
    if text.trim() != "-1" {
        bail!(
            "the baseline answered {:?} on a board with no solution",
            text.trim()
        );
    }
    Ok(elapsed)
}
