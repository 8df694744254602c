//! `mayan-judge bench`: the solver's speed, reported as ratios against C++
//! baselines measured in the same run on the same boards (plain backtracking,
//! and an exhaustive search with a memo of dead states), so the figures mean
//! something on a shared, noisy machine; the solver's peak memory, and a
//! solve under a small memory cap; the grader's and the stress loop's cost;
//! with `--only serve`, the online judge under load (`bench/serve_load.rs`);
//! with `--only scaling`, judging on every core (`bench/scaling.rs`);
//! with `--only launch`, what starting a run costs as the judge grows
//! (`bench/launch.rs`);
//! with `--only similar`, the copy detector against its peers (`bench/similar.rs`);
//! with `--only compile`, a compile-bound C++ class with and without the
//! precompiled standard header (`bench/compile.rs`); with `--only analysis`,
//! the teacher's analysis page of a large class (`bench/analysis.rs`);
//! with `--only contest-scale`, every read of a contest as it grows to
//! 20,000 submissions (`bench/contest_scale.rs`);
//! with `--only search`, an accepted program's latency while failing
//! programs' counterexample searches run (`bench/search.rs`).

use crate::cli::{BenchArgs, BenchPart};
use crate::judge::grading::{Judge, run_limits};
use crate::judge::runner::{Bare, Runner, Sandboxed};
use crate::judge::sandbox::Sandbox;
use crate::judge::submission::Program;
use crate::package::ProblemLimits;
use crate::puzzle::boards::{BoardGen, Shape};
use crate::puzzle::checker;
use crate::puzzle::sim::{Board, Puzzle};
use crate::puzzle::solver::{Bound, Limits, MemorySize, Reading, solve, solve_with};
use crate::puzzle::verdict::Verdict;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use super::solve::measured;

mod analysis;
mod busy;
mod client;
mod compile;
mod contest_scale;
mod fanout;
mod launch;
mod scaling;
mod search;
mod serve_load;
mod similar;

/// The `--only serve` options.
fn load_options(args: &BenchArgs) -> Result<serve_load::LoadOptions> {
    let cores = crate::judge::pool::available_cores();
    let submissions = args.submissions.unwrap_or(1000);
    if submissions > 10 * args.contestants {
        bail!("--submissions: at most 10 per contestant (the default submission rate limit)");
    }
    Ok(serve_load::LoadOptions {
        contestants: args.contestants,
        submissions,
        jobs: args.jobs.unwrap_or(cores).max(1),
        clients: args.clients.max(1),
        tests: args.tests,
        idle: Duration::from_secs(args.idle_secs),
        quiet: args.quiet,
        counterexamples: !args.no_counterexamples,
        cpp: args.cpp,
    })
}

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
    if args.only == Some(BenchPart::Serve) {
        serve_load::run(&load_options(args)?)?;
    }
    if args.only == Some(BenchPart::Scaling) {
        scaling::run(&scaling::ScalingOptions {
            class: args.class.max(1),
            burst: args.burst.max(1),
            most_jobs: args.jobs.unwrap_or_else(crate::judge::pool::available_cores),
            tests: args.tests,
            quiet: args.quiet,
            launch_runs: args.runs.min(60),
            hold_mib: args.hold_mib,
        })?;
    }
    if args.only == Some(BenchPart::Launch) {
        launch::run(args.runs, args.hold_mib)?;
    }
    if args.only == Some(BenchPart::Compile) {
        compile::run(&compile::CompileOptions {
            class: args.class.max(1),
            jobs: args.jobs.unwrap_or(2).max(1),
            quiet: args.quiet,
        })?;
    }
    if args.only == Some(BenchPart::Similar) {
        similar::run(Path::new("."))?;
    }
    if args.only == Some(BenchPart::Search) {
        search::run(&search::SearchOptions {
            sleepers: args.submissions.unwrap_or(4).max(1),
            jobs: args.jobs.unwrap_or(1).max(1),
            samples: 4,
            quiet: args.quiet,
        })?;
    }
    if args.only == Some(BenchPart::ContestScale) {
        let most = args.submissions.unwrap_or(20_000).max(200);
        contest_scale::run(&contest_scale::ScaleOptions {
            contestants: args.contestants.max(4),
            sizes: vec![100, most / 2, most],
            rounds: 25,
            quiet: args.quiet,
        })?;
    }
    if args.only == Some(BenchPart::Analysis) {
        analysis::run(&analysis::AnalysisOptions {
            contestants: args.contestants.max(1),
            submissions: args.submissions.unwrap_or(2000),
            quiet: args.quiet,
        })?;
    }
    Ok(0)
}

/// The solver's figures: the official cases, generated hard boards against
/// plain backtracking, the five-colour boards against a memoised search, and
/// a solve under a small memory cap.
fn solver(args: &BenchArgs) -> Result<()> {
    let mut targets = Targets::default();
    if let Some(t) = official(&args.official)? {
        targets.add(
            "official cases, all 10",
            ms(t) < 5.0,
            format!("{:.2} ms (< 5 ms)", ms(t)),
        );
    }
    // The displacement table is built on first use: not part of any figure.
    let _ = Bound::of(&Board::EMPTY);
    let boards = hard_boards(args.seed, args.boards);
    if let Some(dir) = &args.save_boards {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (i, p) in boards.iter().enumerate() {
            let path = dir.join(format!("hard{}.in", i + 1));
            std::fs::write(&path, p.to_text()).with_context(|| format!("writing {}", path.display()))?;
        }
    }
    let baseline = compile_baseline(&args.baseline, "backtrack")?;
    println!();
    println!(
        "Hard boards: no solution, 25..35 blocks, every colour at least 3 blocks (seed {}); \
         baseline {} (plain backtracking, g++ -O2).",
        args.seed,
        args.baseline.display()
    );
    let mut slowest_n8 = None;
    for n in if args.quick { vec![5] } else { vec![5, 8] } {
        // Plain backtracking takes about a second at n = 5, and hours at n = 8.
        let base = if n == 5 { baseline.as_deref() } else { None };
        let rows = table(&boards, n, base)?;
        let s = summary(&rows);
        let most = if n == 5 { 20.0 } else { 500.0 };
        let what = format!("hard boards, n = {n}, slowest");
        targets.add(
            &what,
            ms(s.slowest) < most,
            format!("{:.2} ms (< {most} ms)", ms(s.slowest)),
        );
        if let Some(r) = s.ratio {
            targets.add(
                "hard boards, n = 5, smallest ratio to backtracking",
                r >= 50.0,
                format!("{r:.0}x (>= 50x)"),
            );
        }
        if n == 8 {
            slowest_n8 = rows.iter().max_by_key(|r| r.ours).map(|r| r.puzzle);
        }
    }
    five_colours(args, &mut targets)?;
    if let Some(puzzle) = slowest_n8 {
        memory_cap(&puzzle, args.memory_cap.0, &mut targets)?;
    }
    targets.print();
    Ok(())
}

/// The targets of the solver's figures, met or not, printed together last.
#[derive(Default)]
struct Targets(Vec<(String, bool, String)>);

impl Targets {
    fn add(&mut self, what: &str, met: bool, figure: String) {
        self.0.push((what.to_string(), met, figure));
    }

    fn print(&self) {
        println!();
        println!("Targets:");
        for (what, met, figure) in &self.0 {
            println!("  {:<7} {what}: {figure}", if *met { "met" } else { "MISSED" });
        }
    }
}

/// One board's figures.
struct Row {
    puzzle: Puzzle,
    ours: Duration,
    nodes: u64,
    /// Peak resident memory of the process during the solve, bytes.
    peak: Option<u64>,
    baseline: Option<Duration>,
}

impl Row {
    fn ratio(&self) -> Option<f64> {
        self.baseline.map(|b| b.as_secs_f64() / self.ours.as_secs_f64())
    }
}

/// Solves each board with `n` moves (the fastest of several runs, see
/// [`fastest`]; peak memory of the first run), runs the baseline once when
/// there is one, and prints a table.
fn table(boards: &[Puzzle], n: u32, baseline: Option<&Path>) -> Result<Vec<Row>> {
    println!();
    println!("n = {n}");
    println!("board  blocks  colours  mayan-judge  nodes      peak memory     baseline     ratio");
    let mut rows = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        let puzzle = Puzzle { n, ..*board };
        let (answer, peak) = measured(|| solve(&puzzle, Reading::LITERAL));
        if answer.moves.is_some() {
            bail!(
                "board {} has a solution with n = {n}: not a benchmark board",
                i + 1
            );
        }
        let (ours, _) = fastest(|| solve(&puzzle, Reading::LITERAL));
        let baseline = baseline.map(|exe| time_baseline(exe, &puzzle)).transpose()?;
        let row = Row {
            puzzle,
            ours: ours.min(answer.stats.elapsed),
            nodes: answer.stats.nodes,
            peak,
            baseline,
        };
        let colours = board.board.colour_counts().iter().filter(|&&c| c > 0).count();
        print!(
            "{:<6} {:<7} {:<8} {:>8.2} ms  {:<10} {:>11}",
            i + 1,
            board.board.block_count(),
            colours,
            ms(row.ours),
            row.nodes,
            row.peak.map_or("-".into(), mib)
        );
        match (row.baseline, row.ratio()) {
            (Some(b), Some(r)) => println!(" {:>10.1} ms {:>8.0}x", ms(b), r),
            _ => println!(" {:>13} {:>9}", "-", "-"),
        }
        rows.push(row);
    }
    Ok(rows)
}

/// A table's extremes: slowest board, most memory, smallest ratio.
struct Extremes {
    slowest: Duration,
    most: Option<u64>,
    ratio: Option<f64>,
}

/// Prints and returns the extremes of a table.
fn summary(rows: &[Row]) -> Extremes {
    let s = Extremes {
        slowest: rows.iter().map(|r| r.ours).max().unwrap_or_default(),
        most: rows.iter().filter_map(|r| r.peak).max(),
        ratio: rows.iter().filter_map(Row::ratio).reduce(f64::min),
    };
    print!("slowest board: {:.2} ms", ms(s.slowest));
    if let Some(m) = s.most {
        print!("; most memory: {}", mib(m));
    }
    if let Some(r) = s.ratio {
        print!("; smallest ratio to the baseline: {r:.0}x");
    }
    println!();
    s
}

/// The family where the column bound has least to say: five colours of six
/// or seven blocks, no solution, from `--family` (the bundled boards),
/// against a plain exhaustive search with a memo of dead states.
fn five_colours(args: &BenchArgs, targets: &mut Targets) -> Result<()> {
    let boards = family_boards(&args.family)?;
    if boards.is_empty() {
        println!();
        println!("Five-colour boards: none in {}, skipped.", args.family.display());
        return Ok(());
    }
    let memo = compile_baseline(&args.memo_baseline, "memo")?;
    println!();
    println!(
        "Five colours of six or seven blocks, no solution ({}, {} boards); baseline {} \
         (exhaustive search with a memo of dead states, g++ -O2).",
        args.family.display(),
        boards.len(),
        args.memo_baseline.display()
    );
    for n in if args.quick { vec![5] } else { vec![5, 6, 7] } {
        // The memoised search takes about a minute a board at n = 7.
        let base = if n <= 6 { memo.as_deref() } else { None };
        let s = summary(&table(&boards, n, base)?);
        if let (6, Some(r)) = (n, s.ratio) {
            targets.add(
                "five colours, n = 6, smallest ratio to the memoised search",
                r >= 50.0,
                format!("{r:.0}x (>= 50x)"),
            );
        }
        if n == 7 {
            let t = s.slowest;
            targets.add(
                "five colours, n = 7, slowest",
                t < Duration::from_millis(1500),
                format!("{:.2} ms (< 1.5 s)", ms(t)),
            );
            if let Some(m) = s.most {
                targets.add(
                    "five colours, n = 7, most memory",
                    m < 256 << 20,
                    format!("{} (< 256 MiB)", mib(m)),
                );
            }
        }
    }
    Ok(())
}

/// The `*.in` boards of a folder, in natural name order.
fn family_boards(dir: &Path) -> Result<Vec<Puzzle>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    paths.sort_by(|a, b| natord::compare(&a.to_string_lossy(), &b.to_string_lossy()));
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read(p).with_context(|| format!("reading {}", p.display()))?;
            Puzzle::parse(&text).with_context(|| format!("parsing {}", p.display()))
        })
        .collect()
}

/// The slowest n = 8 board again with a small memory cap: the same answer,
/// memory bounded by the cap, and what the forgotten states cost in time.
fn memory_cap(puzzle: &Puzzle, cap: u64, targets: &mut Targets) -> Result<()> {
    let (free, free_peak) = measured(|| solve(puzzle, Reading::LITERAL));
    let limits = Limits { memory: cap };
    let (capped, capped_peak) = measured(|| solve_with(puzzle, Reading::LITERAL, limits));
    println!();
    println!(
        "Memory cap: the slowest n = 8 board with --memory {}:",
        MemorySize(cap)
    );
    for (what, a, peak) in [
        ("default cap (1 GiB)", &free, free_peak),
        ("capped", &capped, capped_peak),
    ] {
        println!(
            "  {what:<20} {:>8.2} ms  {:>9} nodes  table {:>8}  {:>7} entries replaced  peak memory {}",
            ms(a.stats.elapsed),
            a.stats.nodes,
            MemorySize(a.stats.memo_bytes).to_string(),
            a.stats.memo_replaced,
            peak.map_or("-".into(), mib)
        );
    }
    let same = capped.moves == free.moves;
    println!(
        "  {}; the table never exceeds the cap (old and new table together while it grows)",
        if same { "same answer" } else { "THE ANSWER CHANGED" }
    );
    targets.add(
        "memory cap: same answer, table within the cap",
        same && capped.stats.memo_bytes <= cap,
        format!(
            "table {} under --memory {}",
            MemorySize(capped.stats.memo_bytes),
            MemorySize(cap)
        ),
    );
    Ok(())
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// The judge's own cost per test (sandbox setup, limits, capture, checking)
/// against running the same compiled program bare on the same input, both
/// measured here through the one [`Runner`] trait, alternating, so machine
/// noise hits both sides alike.
fn grader_overhead(args: &BenchArgs) -> Result<()> {
    println!();
    let Some(exe) = compile_baseline(&args.baseline, "backtrack")? else {
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
        "  overhead per test: {:.2} ms (target <= 2 ms); ratio {:.2}x",
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
    use crate::judge::stress::{BoardSpec, Budget, Effort, ShrinkLimits, Tester, board, find_counterexample};
    println!();
    let Some(exe) = compile_baseline(&args.baseline, "backtrack")? else {
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
        let effort = Effort {
            boards: Budget::Count(per_round),
            shrink: ShrinkLimits {
                runs: 0,
                time: Duration::ZERO,
            },
            runs: usize::MAX,
            cpu: Duration::MAX,
        };
        let s = find_counterexample(
            &spec,
            effort,
            &Default::default(),
            1,
            &|i, p| tester.test(i, p),
            &|_, _| {},
            &|_| {},
        )?;
        anyhow::ensure!(s.found.is_none(), "the baseline failed a stress board");
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
        facts: Default::default(),
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

/// The fastest of at least 3 runs of `f`, more for quick ones (until 20 runs
/// or 300 ms in all), so that a moment of load on a shared machine does not
/// count; and what `f` returned.
fn fastest<T>(mut f: impl FnMut() -> T) -> (Duration, T) {
    let (mut best, mut total, mut runs) = (Duration::MAX, Duration::ZERO, 0);
    loop {
        let start = Instant::now();
        let v = f();
        let t = start.elapsed();
        (best, total, runs) = (best.min(t), total + t, runs + 1);
        if runs >= 20 || (runs >= 3 && total >= Duration::from_millis(300)) {
            return (best, v);
        }
    }
}

/// The 10 official cases together, best of 20 runs; `None` when the folder
/// does not have them.
fn official(dir: &Path) -> Result<Option<Duration>> {
    let mut puzzles = Vec::new();
    for i in 1..=10 {
        let path = dir.join(format!("mayan{i}.in"));
        let Ok(text) = std::fs::read(&path) else {
            println!("Official cases: {} not found, skipped.", dir.display());
            return Ok(None);
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
    Ok(Some(t))
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

/// Compiles a C++ baseline with `g++ -O2` (a trusted program of ours, so
/// outside the sandbox) as `mayan-bench-<tag>-XXXXXX` in the temporary
/// folder, removed when the returned path is dropped; `None` (with a note)
/// when g++ or the source is missing.
fn compile_baseline(src: &Path, tag: &str) -> Result<Option<tempfile::TempPath>> {
    if !src.exists() {
        println!("Baseline {} not found: ratios skipped.", src.display());
        return Ok(None);
    }
    let exe = tempfile::Builder::new()
        .prefix(&format!("mayan-bench-{tag}-"))
        .tempfile()
        .context("a temporary file for the baseline")?
        .into_temp_path();
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
