//! `mayan-judge bench --only search`: what the counterexample search costs
//! the judging of others. A real `serve` (`--jobs`, the search on) judges
//! one contestant's accepted program one submission at a time on the idle
//! server, then again while the searches of `--contestants` failing
//! programs run, every one of whose search runs sleeps until the wall
//! limit (the attack of issue 56: a search run that held its slot made the
//! next submissions wait for it). The accepted program's latency, from
//! submitted to judged: the medians, their difference against the target
//! (0.1 s), and their ratio. The burst with the search on against off is
//! `--only serve` with and without `--no-counterexamples`.

use super::client::{Http, Phase, Stats};
use super::serve_load::{ACCEPTED_C, ADMIN_PASSWORD, LoadOptions, Server, password, submit};
use anyhow::{Context, Result, ensure};
use std::time::{Duration, Instant};

/// What the benchmark does.
pub struct SearchOptions {
    /// Contestants whose failing programs are searched meanwhile.
    pub sleepers: usize,
    /// The server's `--jobs`.
    pub jobs: usize,
    /// Accepted submissions timed, idle and again during the searches (one
    /// more first, untimed: at most 10 in all, the submission rate limit).
    pub samples: usize,
    /// No progress lines.
    pub quiet: bool,
}

/// How much slower the accepted program may be judged while searches run.
const TARGET: Duration = Duration::from_millis(100);

/// A program that answers `-1` (wrong on most tests), except on boards of
/// at most two blocks (the search's first boards; every test of the
/// bundled package has more), where it sleeps until the wall limit.
const SLEEPS_ON_SMALL_BOARDS_C: &str = "#include <stdio.h>\n#include <unistd.h>\nint main(void){ int n, x, blocks = 0, cols = 0; if (scanf(\"%d\", &n) != 1) return 0; while (cols < 5 && scanf(\"%d\", &x) == 1) { if (x == 0) cols++; else blocks++; } if (blocks <= 2) sleep(100); puts(\"-1\"); return 0; }\n";

/// How long one submission may take to be judged.
const JUDGED_WITHIN: Duration = Duration::from_secs(300);

/// Runs the benchmark and prints its report.
pub fn run(o: &SearchOptions) -> Result<()> {
    ensure!(o.samples > 0, "no samples to time");
    let progress = super::super::progress::Progress::new(o.quiet, 0, "steps");
    let load = LoadOptions::quiet_server(o.sleepers + 1, 0, o.jobs.max(1));
    progress.phase(&format!("starting mayan-judge serve --jobs {}", load.jobs));
    let server = Server::start(&load)?;
    let stats = Stats::default();
    let mut timed = Http::new(server.url(), &stats);
    timed.api_sign_in("c1", &password("c1"))?;
    progress.phase("timing the accepted program on the idle server");
    // Once first, untimed: its compilation is cached for every sample.
    latencies(&timed, 1)?;
    let idle = latencies(&timed, o.samples)?;
    progress.phase(&format!(
        "{} failing programs judged, their searches started",
        o.sleepers
    ));
    let mut admin = Http::new(server.url(), &stats);
    admin.api_sign_in("admin", ADMIN_PASSWORD)?;
    for k in 0..o.sleepers {
        let who = format!("c{}", k + 2);
        let mut h = Http::new(server.url(), &stats);
        h.api_sign_in(&who, &password(&who))?;
        let program = ("mayan.c".to_string(), SLEEPS_ON_SMALL_BOARDS_C.to_string());
        let id = submit(&h, &program, Phase::Idle)?.context("a failing submission was refused")?;
        let v = judged(&admin, id, Instant::now())?;
        ensure!(
            v["verdict"] == "WA",
            "the failing program was judged {}",
            v["verdict"]
        );
    }
    // Their searches' runs are asleep by now.
    std::thread::sleep(Duration::from_secs(2));
    progress.phase("timing the accepted program while the searches run");
    let during = latencies(&timed, o.samples)?;
    progress.finish();
    println!("{}", report(o, &idle, &during));
    Ok(())
}

/// The accepted program submitted `n` times, one after another: how long
/// each took from submitted to judged.
fn latencies(h: &Http, n: usize) -> Result<Vec<Duration>> {
    (0..n)
        .map(|_| {
            let start = Instant::now();
            let program = ("mayan.c".to_string(), ACCEPTED_C.to_string());
            let id = submit(h, &program, Phase::Idle)?.context("the accepted submission was refused")?;
            let v = judged(h, id, start)?;
            ensure!(
                v["verdict"] == "AC",
                "the accepted program was judged {}",
                v["verdict"]
            );
            Ok(start.elapsed())
        })
        .collect()
}

/// Submission `id` once judged, polled every 50 ms from `since`.
fn judged(h: &Http, id: i64, since: Instant) -> Result<serde_json::Value> {
    loop {
        let v = h.get(&format!("/api/v1/submissions/{id}"))?.json();
        if v["final"] == true {
            return Ok(v);
        }
        ensure!(
            since.elapsed() < JUDGED_WITHIN,
            "submission {id} not judged within {JUDGED_WITHIN:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The median of some durations (not empty).
fn median(d: &[Duration]) -> Duration {
    let mut d = d.to_vec();
    d.sort();
    d[d.len() / 2]
}

/// The report: both medians, their difference against the target, their
/// ratio.
fn report(o: &SearchOptions, idle: &[Duration], during: &[Duration]) -> String {
    let (a, b) = (median(idle), median(during));
    let worse = b.saturating_sub(a);
    let met = if worse <= TARGET { "met" } else { "MISSED" };
    format!(
        "counterexample search, serve --jobs {}: an accepted program judged {} times idle, {} times while {} \
         failing programs' searches run (each run asleep to the wall limit)\n  \
         idle: median {:.3} s\n  during the searches: median {:.3} s\n  \
         {met}     {:.3} s slower (<= {:.1} s); during / idle {:.2}",
        o.jobs.max(1),
        idle.len(),
        during.len(),
        o.sleepers,
        a.as_secs_f64(),
        b.as_secs_f64(),
        worse.as_secs_f64(),
        TARGET.as_secs_f64(),
        b.as_secs_f64() / a.as_secs_f64().max(1e-9),
    )
}
