//! `bench --only launch`: what starting a run costs as the judge grows.
//!
//! The same tiny run (`/bin/true`, every protection on) is started through
//! the launcher and forked from the judge itself (the path of every run
//! before the launcher), first with the judge holding nothing, then holding
//! `--hold-mib` of touched heap. Each figure is a ratio to the same path
//! with the judge holding nothing, measured in the same run; the target is
//! the launcher's ratio (a run's start does not grow with the judge's
//! memory).
//!
//! The two paths are timed in separate blocks, never alternated: a run
//! forked from a judge holding 1 GiB leaves the kernel tearing down its
//! copy of the judge's page tables after the judge has seen it end, and
//! that teardown, on another core, slowed the launcher's next run 3-4x
//! (a cost of the forked path, not of the launcher's). Each block is
//! followed by a pause, for such work to end before the next.
//!
//! The two sizes are measured in [`ROUNDS`] alternating rounds (holding
//! nothing, then holding the heap, again and again), each figure the
//! median of every round's runs: measured as one block each, a change of
//! the machine's load between the first and the second block moved the
//! launcher's ratio from 0.9x to 1.37x on a shared virtual machine.

use crate::judge::sandbox::{self, Limits, RunSpec, Sandbox, Status};
use anyhow::{Result, ensure};
use std::time::{Duration, Instant};

/// Runs the part: `runs` runs per path and size.
pub(super) fn run(runs: usize, hold_mib: usize) -> Result<()> {
    let sandbox = Sandbox::detect();
    let spec = RunSpec {
        program: "/bin/true".into(),
        limits: Limits::with_cpu_ms(1000),
        ..RunSpec::default()
    };
    let runs = runs.max(ROUNDS);
    println!();
    println!(
        "Starting a run as the judge grows ({runs} runs per path and size; sandbox: {}):",
        sandbox.protections()
    );
    if sandbox::launcher::pid().is_none() {
        println!("  (no launcher in this process: both paths fork from the judge)");
    }
    let (mut small, mut large) = (Series::default(), Series::default());
    let (mut rss_small, mut rss_large) = (0, 0);
    for round in 0..ROUNDS {
        // The runs left over go to the first rounds.
        let k = runs / ROUNDS + usize::from(round < runs % ROUNDS);
        small.add(&sandbox, &spec, k)?;
        rss_small = rss_small.max(rss_mib());
        let ballast = hold(hold_mib);
        std::thread::sleep(PAUSE);
        large.add(&sandbox, &spec, k)?;
        rss_large = rss_large.max(rss_mib());
        drop(ballast);
    }
    let (small, large) = (small.medians(), large.medians());
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-9);
    let launcher = ratio(large.launcher, small.launcher);
    let forked = ratio(large.forked, small.forked);
    println!(
        "  {:<34} {:>9} {:>9} {:>7}",
        "median per run",
        format!("{rss_small} MiB"),
        format!("{rss_large} MiB"),
        "ratio"
    );
    for (name, s, l, r) in [
        ("through the launcher", small.launcher, large.launcher, launcher),
        (
            "forked from the judge (before)",
            small.forked,
            large.forked,
            forked,
        ),
    ] {
        println!(
            "  {name:<34} {:>6.2} ms {:>6.2} ms {r:>6.2}x",
            super::ms(s),
            super::ms(l)
        );
    }
    println!();
    println!("Targets:");
    println!(
        "  {:<7} a run's start with the judge holding {hold_mib} MiB, through the launcher: {launcher:.2}x the judge holding nothing (<= 1.15x)",
        if launcher <= 1.15 { "met" } else { "MISSED" }
    );
    Ok(())
}

/// Rounds of the two sizes, alternated.
const ROUNDS: usize = 4;
/// The pause after each block and after the heap is touched.
const PAUSE: Duration = Duration::from_millis(100);

/// Medians of one size.
struct Medians {
    launcher: Duration,
    forked: Duration,
}

/// The times of one size's runs through each path, over the rounds.
#[derive(Default)]
struct Series {
    launcher: Vec<Duration>,
    forked: Vec<Duration>,
}

impl Series {
    /// `runs` more runs through each path, the launcher's block first (see
    /// the module's comment for why the paths are not alternated).
    fn add(&mut self, sandbox: &Sandbox, spec: &RunSpec, runs: usize) -> Result<()> {
        block(runs, &mut self.launcher, || sandbox.run(spec))?;
        block(runs, &mut self.forked, || sandbox.run_forked_from_judge(spec))
    }

    fn medians(self) -> Medians {
        Medians {
            launcher: median(self.launcher),
            forked: median(self.forked),
        }
    }
}

/// Times `runs` runs of `run` into `times`, each checked to exit 0, then
/// pauses.
fn block(
    runs: usize,
    times: &mut Vec<Duration>,
    mut run: impl FnMut() -> Result<sandbox::RunResult, sandbox::SandboxError>,
) -> Result<()> {
    for _ in 0..runs {
        let start = Instant::now();
        let r = run()?;
        times.push(start.elapsed());
        ensure!(r.status == Status::Exited(0), "/bin/true: {}", r.status);
    }
    std::thread::sleep(PAUSE);
    Ok(())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// `mib` MiB of heap, every page touched (so it is resident, and its page
/// tables are there to copy).
fn hold(mib: usize) -> Vec<u8> {
    let mut v = vec![0u8; mib << 20];
    for i in (0..v.len()).step_by(4096) {
        v[i] = 1;
    }
    std::hint::black_box(&mut v);
    v
}

/// The judge's resident memory, MiB.
fn rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kib| kib / 1024)
}
