//! `mayan-judge bench --only scaling`: whether judging uses every core. A
//! class (16 copies of the accepted reference program, compiled once with
//! gcc outside the sandbox and graded as ready executables on every test)
//! is graded by this executable's `grade` with `--jobs 1, 2, 4, ...` up to
//! the cores; then a fresh `serve` with as many slots judges a burst
//! (`serve_load`'s machinery). Every figure is a ratio to `--jobs 1`
//! measured in the same run (the class's: in each of three rounds of the
//! whole ladder, the median shown), with the share of the machine's cores busy
//! meanwhile (`/proc/stat`: run it on a machine doing nothing else; the
//! runs' CPU time is not all reaped by the judge, so its own rusage would
//! miss part of it).

use super::Targets;
use super::serve_load::{self, ACCEPTED_C, LoadOptions};
use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What is measured.
pub struct ScalingOptions {
    /// Programs in the class.
    pub class: usize,
    /// Submissions in each server burst.
    pub burst: usize,
    /// The largest `--jobs`.
    pub most_jobs: usize,
    /// Only the first so many tests of the bundled problem (`None`: the
    /// package `grade` finds, every test); the server's bursts use at
    /// most 10.
    pub tests: Option<usize>,
    /// No progress.
    pub quiet: bool,
    /// The launch part: runs per path and size.
    pub launch_runs: usize,
    /// The launch part: MiB the judge holds in its second series.
    pub hold_mib: usize,
}

/// The `--jobs` values measured: 1, 2, 4, ... and `most` itself.
pub fn jobs_ladder(most: usize) -> Vec<usize> {
    let most = most.max(1);
    let mut out: Vec<usize> = std::iter::successors(Some(1usize), |j| j.checked_mul(2))
        .take_while(|&j| j < most)
        .collect();
    out.push(most);
    out
}

/// One measurement: wall time and the machine's busy share meanwhile.
struct Figure {
    wall: Duration,
    busy: Option<f64>,
}

/// The class at one `--jobs`: graded, and the same runs bare on as many
/// threads (the machine's ceiling).
struct ClassFigure {
    graded: Figure,
    bare: Duration,
}

/// Rounds of the class's ladder. The whole ladder is measured once per
/// round, so a change in the host's speed (a neighbour's load, the
/// hypervisor's steal) falls on one round's ratios, not on one `--jobs`:
/// the ratios are each round's, and the median of the rounds' is shown.
const CLASS_ROUNDS: usize = 3;

/// The class at one `--jobs` over the rounds: medians.
#[derive(Debug, PartialEq)]
struct ClassRow {
    /// The wall time `grade` took.
    wall: Duration,
    /// The machine's busy share meanwhile.
    busy: Option<f64>,
    /// Against `--jobs 1` of the same round.
    speedup: f64,
    /// The same runs bare, against one thread of the same round.
    bare_up: f64,
}

/// The ladder's rows from `rounds[r][k]` (round `r`, `--jobs` the `k`th of
/// the ladder): each figure the median of the rounds'.
fn class_rows(rounds: &[Vec<ClassFigure>]) -> Vec<ClassRow> {
    let ladder = rounds.first().map_or(0, Vec::len);
    (0..ladder)
        .map(|k| {
            let each = |f: &dyn Fn(&[ClassFigure]) -> f64| median(rounds.iter().map(|r| f(r)).collect());
            let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-9);
            let busy: Vec<f64> = rounds.iter().filter_map(|r| r[k].graded.busy).collect();
            ClassRow {
                wall: Duration::from_secs_f64(each(&|r| r[k].graded.wall.as_secs_f64())),
                busy: (!busy.is_empty()).then(|| median(busy)),
                speedup: each(&|r| ratio(r[0].graded.wall, r[k].graded.wall)),
                bare_up: each(&|r| ratio(r[0].bare, r[k].bare)),
            }
        })
        .collect()
}

/// The median of `v` (the mean of the middle two for an even count; 0 for
/// none).
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Runs the benchmark and prints its report.
pub fn run(o: &ScalingOptions) -> Result<()> {
    let dir = tempfile::Builder::new()
        .prefix("mayan-bench-scaling-")
        .tempdir()?;
    let Some(class) = write_class(dir.path(), o.class)? else {
        println!("gcc not found: the scaling benchmark needs it to build the class.");
        return Ok(());
    };
    let package = o.tests.map(serve_load::narrowed_package).transpose()?;
    let problem = package.as_ref().map(|p| p.package_dir());
    let ladder = jobs_ladder(o.most_jobs);
    let cache = dir.path().join("cache");
    // Unmeasured: the cache holds the class's program afterwards.
    grade_class(
        &class,
        problem.as_deref(),
        &cache,
        1,
        Some("sample/1"),
        Expect::AllAccepted,
    )?;
    let inputs = test_inputs(o.tests)?;
    let mut rounds = Vec::new();
    for round in 1..=CLASS_ROUNDS {
        let mut grading = Vec::new();
        for &jobs in &ladder {
            if !o.quiet {
                eprintln!(
                    "round {round} of {CLASS_ROUNDS}: grading the class with --jobs {jobs}, then running it bare"
                );
            }
            let graded = grade_class(
                &class,
                problem.as_deref(),
                &cache,
                jobs,
                None,
                Expect::AllAccepted,
            )?;
            let bare = run_bare(&class, &inputs, jobs)?;
            grading.push(ClassFigure { graded, bare });
        }
        rounds.push(grading);
    }
    let grading = class_rows(&rounds);
    let mut serving = Vec::new();
    for &jobs in &ladder {
        let load = LoadOptions {
            contestants: o.burst.div_ceil(10).max(1),
            submissions: o.burst,
            jobs,
            clients: 8,
            tests: Some(o.tests.unwrap_or(10).min(10)),
            idle: Duration::ZERO,
            quiet: o.quiet,
            counterexamples: true,
            cpp: false,
        };
        let t = serve_load::throughput(&load)?;
        if t.judged != t.sent || t.unexpected > 0 {
            bail!(
                "serve --jobs {jobs}: {} of {} judged, {} unexpected verdicts",
                t.judged,
                t.sent,
                t.unexpected
            );
        }
        serving.push(t);
    }
    let loops = endless_loops(dir.path(), &class, o, &ladder, &cache)?;
    print_report(o, &ladder, &grading, &serving, &loops);
    super::launch::run(o.launch_runs, o.hold_mib)
}

/// Programs in the class with an endless loop (one of them loops).
pub const LOOP_CLASS: usize = 8;
/// Tests the class with an endless loop is graded on (the bundled
/// problem's first ones, at its own time limit).
pub const LOOP_TESTS: usize = 5;

/// An endless loop: TLE on every test, whatever the machine.
const ENDLESS_C: &str = "int main(void) { for (volatile unsigned long i = 0;; i++) {} }\n";

/// The class with an endless loop, graded with each `--jobs`.
struct Loops {
    /// Its lower bound per `--jobs` and the time taken.
    figures: Vec<(Duration, Duration)>,
    /// TLE runs it must burn, and the time limit each burns.
    runs: usize,
    limit: Duration,
}

/// Grades [`LOOP_CLASS`] programs, one an endless loop (the rest the
/// class's accepted program), on [`LOOP_TESTS`] tests with every `--jobs`
/// of the ladder. The lower bound with J slots: the loop's runs, each
/// burning the time limit, as few rounds of J as they fit in
/// (`ceil(runs / J)` limits).
fn endless_loops(
    dir: &Path,
    class: &Path,
    o: &ScalingOptions,
    ladder: &[usize],
    cache: &Path,
) -> Result<Loops> {
    let tests = o.tests.unwrap_or(LOOP_TESTS).min(LOOP_TESTS);
    let package = serve_load::narrowed_package(tests)?;
    let problem = package.package_dir();
    let limit = crate::package::Problem::load(&problem)?.config.limits.time_ms;
    let looping = dir.join("looping");
    std::fs::create_dir(&looping)?;
    let source = dir.join("endless.c");
    std::fs::write(&source, ENDLESS_C)?;
    let built = Command::new("gcc")
        .args(["-O0", "-o"])
        .arg(looping.join("p00-endless"))
        .arg(&source)
        .status()?;
    if !built.success() {
        bail!("gcc failed on the endless loop ({built})");
    }
    let accepted = class.join("p01");
    for i in 1..LOOP_CLASS {
        std::fs::copy(&accepted, looping.join(format!("p{i:02}")))?;
    }
    let runs = tests;
    let mut figures = Vec::new();
    for &jobs in ladder {
        if !o.quiet {
            eprintln!("grading the class with an endless loop with --jobs {jobs}");
        }
        let g = grade_class(
            &looping,
            Some(&problem),
            cache,
            jobs,
            None,
            Expect::SomeNotAccepted,
        )?;
        let rounds = runs.div_ceil(jobs) as u32;
        figures.push((Duration::from_millis(limit) * rounds, g.wall));
    }
    Ok(Loops {
        figures,
        runs,
        limit: Duration::from_millis(limit),
    })
}

/// What `grade` must say of a class.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// Every test accepted (exit 0).
    AllAccepted,
    /// Some verdict not AC (exit 1).
    SomeNotAccepted,
}

/// Builds the accepted program with gcc and copies it `n` times into
/// `DIR/class` (`None` without gcc).
fn write_class(dir: &Path, n: usize) -> Result<Option<PathBuf>> {
    let source = dir.join("solution.c");
    std::fs::write(&source, ACCEPTED_C)?;
    let exe = dir.join("solution");
    let built = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&source)
        .arg("-lm")
        .status();
    match built {
        Ok(s) if s.success() => {}
        Ok(s) => bail!("gcc failed on the accepted program ({s})"),
        Err(_) => return Ok(None),
    }
    let class = dir.join("class");
    std::fs::create_dir(&class)?;
    for i in 1..=n.max(1) {
        std::fs::copy(&exe, class.join(format!("p{i:02}")))?;
    }
    Ok(Some(class))
}

/// `grade --lang exe --jobs J` of every program in `class`: its wall time
/// and the machine's busy share meanwhile; `grade` must answer as `expect`.
fn grade_class(
    class: &Path,
    problem: Option<&Path>,
    cache: &Path,
    jobs: usize,
    tests: Option<&str>,
    expect: Expect,
) -> Result<Figure> {
    let exe = std::env::current_exe().context("finding this executable")?;
    let programs = programs_in(class)?;
    let mut command = Command::new(exe);
    command
        .args(["grade", "--lang", "exe", "--quiet", "--jobs", &jobs.to_string()])
        .env("MAYAN_JUDGE_CACHE", cache);
    if let Some(p) = problem {
        command.arg("--problem").arg(p);
    }
    if let Some(t) = tests {
        command.args(["--tests", t]);
    }
    command.args(&programs);
    let cpu_before = serve_load::cpu_times();
    let start = Instant::now();
    let out = command.output().context("running grade")?;
    let wall = start.elapsed();
    let want = match expect {
        Expect::AllAccepted => 0,
        Expect::SomeNotAccepted => 1,
    };
    if out.status.code() != Some(want) {
        bail!(
            "grade --jobs {jobs} of the class did not exit {want} ({}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let busy = cpu_before
        .zip(serve_load::cpu_times())
        .map(|(a, b)| serve_load::cpu_share(&a, &b).0);
    Ok(Figure { wall, busy })
}

/// The inputs of the tests the class is graded on (the bundled problem's,
/// the first `tests` of them).
fn test_inputs(tests: Option<usize>) -> Result<Vec<Vec<u8>>> {
    let package = serve_load::narrowed_package(tests.unwrap_or(usize::MAX))?;
    let problem = crate::package::Problem::load(&package.package_dir())?;
    problem
        .tests()?
        .iter()
        .map(|t| std::fs::read(&t.input).with_context(|| format!("reading {}", t.input.display())))
        .collect()
}

/// The class run bare: every program on every input, no judge and no
/// sandbox, its output thrown away, on `jobs` threads. What the machine
/// itself gives these runs with `jobs` at once: the ceiling of `grade`'s
/// speed-up (a machine whose cores share execution units, or a virtual
/// machine's, scales these runs less than its core count).
fn run_bare(class: &Path, inputs: &[Vec<u8>], jobs: usize) -> Result<Duration> {
    let programs = programs_in(class)?;
    let work: Vec<(&PathBuf, &Vec<u8>)> = programs
        .iter()
        .flat_map(|p| inputs.iter().map(move |i| (p, i)))
        .collect();
    let next = AtomicUsize::new(0);
    let one_worker = || -> Result<()> {
        while let Some(&(program, input)) = work.get(next.fetch_add(1, Ordering::Relaxed)) {
            run_one_bare(program, input)?;
        }
        Ok(())
    };
    let start = Instant::now();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..jobs.max(1)).map(|_| s.spawn(one_worker)).collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().map_err(|_| anyhow!("a bare worker panicked"))?)
    })?;
    Ok(start.elapsed())
}

/// One program on one input, bare: fed through a pipe, output discarded.
fn run_one_bare(program: &Path, input: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut child = Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .with_context(|| format!("running {} bare", program.display()))?;
    // A program may exit before reading all of it: a failed write is its
    // business, its exit status is checked below.
    let _ = child.stdin.take().map(|mut s| s.write_all(input));
    let status = child.wait()?;
    if !status.success() {
        bail!("{} failed bare ({status})", program.display());
    }
    Ok(())
}

/// The programs of a class folder, sorted.
fn programs_in(class: &Path) -> Result<Vec<PathBuf>> {
    let mut programs: Vec<PathBuf> = std::fs::read_dir(class)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    programs.sort();
    Ok(programs)
}

fn print_report(
    o: &ScalingOptions,
    ladder: &[usize],
    grading: &[ClassRow],
    serving: &[serve_load::Throughput],
    loops: &Loops,
) {
    let cores = crate::judge::pool::available_cores();
    let mut targets = Targets::default();
    print_ladder(o, ladder, grading, serving, cores, &mut targets);
    print_ladder_notes(serving);
    print_loops(ladder, loops, &mut targets);
    targets.print();
}

/// The ladder's table: per `--jobs`, the class graded and the burst served,
/// with the targets they are held to.
fn print_ladder(
    o: &ScalingOptions,
    ladder: &[usize],
    grading: &[ClassRow],
    serving: &[serve_load::Throughput],
    cores: usize,
    targets: &mut Targets,
) {
    println!();
    println!(
        "Judging on every core: {} submissions (the accepted program, ready executables) graded \
         with --jobs J (the medians of {CLASS_ROUNDS} rounds of the ladder, each ratio within its round), \
         then serve --jobs J judging a burst of {} submissions; the judge may use {cores} cores.",
        o.class, o.burst
    );
    println!(
        "  J   class wall  speed-up  machine busy  bare speed-up   serve rate  speed-up  server busy (whole)  CPU-s/sub  machine busy"
    );
    let pct = |b: Option<f64>| b.map_or("?".into(), |b| format!("{:.0}%", b * 100.0));
    for (k, &jobs) in ladder.iter().enumerate() {
        let (g, s) = (&grading[k], &serving[k]);
        let rate_up = s.rate / serving[0].rate;
        let steady = s.server.and_then(|b| b.steady).map(|w| w.share(cores));
        let whole = s.server.map(|b| b.whole.share(cores));
        let per_sub = s.server.map_or("?".into(), |b| {
            format!("{:.3}", b.cpu_per_submission().as_secs_f64())
        });
        println!(
            "  {jobs:<3} {:>8.2} s  {:>7.2}x  {:>12}  {:>12.2}x  {:>9.2}/s  {rate_up:>7.2}x  {:>11} ({:>4})  {per_sub:>9}  {:>12}",
            g.wall.as_secs_f64(),
            g.speedup,
            pct(g.busy),
            g.bare_up,
            s.rate,
            pct(steady),
            pct(whole),
            pct(s.machine_busy),
        );
        let most = k + 1 == ladder.len();
        ladder_targets(jobs, most, g, s, rate_up, cores, targets);
    }
}

/// The targets of one rung of the ladder (`most`: the highest `--jobs`).
fn ladder_targets(
    jobs: usize,
    most: bool,
    g: &ClassRow,
    s: &serve_load::Throughput,
    rate_up: f64,
    cores: usize,
    targets: &mut Targets,
) {
    let (speedup, bare_up) = (g.speedup, g.bare_up);
    if jobs == 2 || (most && jobs > 1) {
        // 2 cores: 1.85x; more: 13 of every 16 (13x on 16).
        let want = if jobs == 2 {
            1.85
        } else {
            jobs as f64 * 13.0 / 16.0
        };
        targets.add(
            &format!("class at --jobs {jobs}, ratio to --jobs 1"),
            speedup >= want,
            format!("{speedup:.2}x (>= {want:.2}x; the same runs bare: {bare_up:.2}x)"),
        );
    }
    if most && jobs > 2 {
        // More than 2 cores: the throughput, 12 of every 16 (12x on 16).
        let want = jobs as f64 * 12.0 / 16.0;
        targets.add(
            &format!("serve --jobs {jobs}: throughput, ratio to --jobs 1"),
            rate_up >= want,
            format!("{rate_up:.2}x (>= {want:.2}x)"),
        );
    }
    if most && jobs <= 2 {
        let window = s.server.and_then(|b| b.steady);
        targets.add(
            &format!(
                "serve --jobs {jobs}: the server and its runs use the cores while a burst is judged (a quiet machine)"
            ),
            window.is_some_and(|w| w.share_ran(cores) >= 0.9),
            window.map_or("not measured".into(), |w| {
                format!(
                    "{} while at least {jobs} submissions remained (>= 90%)",
                    w.ran_in_words(cores)
                )
            }),
        );
    }
}

/// What the ladder's columns mean, and what the load generator cost.
fn print_ladder_notes(serving: &[serve_load::Throughput]) {
    println!(
        "  bare speed-up: the class's runs without judge or sandbox (each program on each input, \
         output discarded) on J threads, against 1: what this machine gives these runs at once, \
         the ceiling of the class's speed-up."
    );
    println!(
        "  server busy: {}; in parentheses, over the whole burst (its tail included). \
         machine busy: /proc/stat, everything on the machine (this benchmark too).",
        super::busy::HOW
    );
    if let Some(generator) = serving.iter().map(|s| s.generator_cpu).max() {
        println!(
            "  The load generator (this process) used at most {:.2} CPU-s in a burst.",
            generator.as_secs_f64()
        );
    }
}

/// The class with an endless loop: its wall time per `--jobs` against its
/// lower bound, and the target each is held to.
fn print_loops(ladder: &[usize], loops: &Loops, targets: &mut Targets) {
    println!(
        "A class of {LOOP_CLASS} with an endless loop ({} TLE runs of {:.1} s each; lower bound: \
         ceil(runs / J) limits):",
        loops.runs,
        loops.limit.as_secs_f64()
    );
    println!("  J   lower bound   class wall   ratio");
    for (&jobs, &(bound, wall)) in ladder.iter().zip(&loops.figures) {
        let ratio = wall.as_secs_f64() / bound.as_secs_f64().max(1e-9);
        println!(
            "  {jobs:<3} {:>9.2} s  {:>9.2} s  {ratio:>5.2}x",
            bound.as_secs_f64(),
            wall.as_secs_f64()
        );
        targets.add(
            &format!("class with an endless loop at --jobs {jobs}, ratio to its lower bound"),
            ratio <= 1.15,
            format!("{ratio:.2}x (<= 1.15x)"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_moment_of_the_host_falls_on_one_rounds_ratios() {
        let figure = |wall: u64, bare: u64| ClassFigure {
            graded: Figure {
                wall: Duration::from_secs(wall),
                busy: Some(wall as f64 / 100.0),
            },
            bare: Duration::from_secs(bare),
        };
        // Round 2's --jobs 2 ran while the host was slow; round 3 is
        // slower throughout.
        let rounds = vec![
            vec![figure(10, 6), figure(5, 3)],
            vec![figure(10, 6), figure(8, 5)],
            vec![figure(12, 8), figure(6, 4)],
        ];
        let rows = class_rows(&rounds);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].speedup, 1.0);
        assert_eq!(rows[1].speedup, 2.0);
        assert_eq!(rows[1].bare_up, 2.0);
        assert_eq!(rows[1].wall, Duration::from_secs(6));
        assert_eq!(rows[1].busy, Some(0.06));
        assert_eq!(median(vec![3.0, 1.0]), 2.0);
        assert_eq!(median(Vec::new()), 0.0);
    }

    #[test]
    fn the_ladder_doubles_up_to_the_cores() {
        assert_eq!(jobs_ladder(1), [1]);
        assert_eq!(jobs_ladder(2), [1, 2]);
        assert_eq!(jobs_ladder(6), [1, 2, 4, 6]);
        assert_eq!(jobs_ladder(16), [1, 2, 4, 8, 16]);
    }
}
