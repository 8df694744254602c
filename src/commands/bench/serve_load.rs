//! `mayan-judge bench --only serve`: the online judge under load. A real
//! `mayan-judge serve` (this executable, a temporary contest, a private
//! compile cache) gets a burst of submissions from many contestants over
//! the loopback while other clients keep loading pages and calling the API;
//! every acknowledged submission must be stored and judged, nothing may
//! answer 5xx, and the latencies under load are reported against the same
//! requests on the idle server, measured in the same run.

use super::super::progress::Progress;
use super::busy::{Busy, Listener, Mark};
use super::client::{Http, Kind, Phase, Stats};
use crate::package::Problem;
use crate::package::embedded::Embedded;
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What the load is.
pub struct LoadOptions {
    /// Contestants who submit.
    pub contestants: usize,
    /// Submissions in the burst, spread evenly over the contestants.
    pub submissions: usize,
    /// The server's `--jobs`.
    pub jobs: usize,
    /// Concurrent submitting clients.
    pub clients: usize,
    /// Only the first so many tests of the bundled problem (natural order);
    /// `None`: the server's own package, every test.
    pub tests: Option<usize>,
    /// How long the idle baseline is measured.
    pub idle: Duration,
    /// No progress.
    pub quiet: bool,
    /// The server searches failing submissions' counterexamples (serve's
    /// default; off: `[counterexamples] search = false`).
    pub counterexamples: bool,
    /// The programs are C++ as a NOIP class writes them
    /// (`#include <bits/stdc++.h>`: compile-bound), not C.
    pub cpp: bool,
}

impl LoadOptions {
    /// A quiet server of the bundled package at `--jobs jobs`, searching
    /// counterexamples, for a part of `bench` that submits on its own (no
    /// burst of `submissions` clients, no idle baseline).
    pub fn quiet_server(contestants: usize, submissions: usize, jobs: usize) -> LoadOptions {
        LoadOptions {
            contestants,
            submissions,
            jobs,
            clients: 1,
            tests: None,
            idle: Duration::ZERO,
            quiet: true,
            counterexamples: true,
            cpp: false,
        }
    }
}

/// The accepted reference program, built in so the benchmark runs anywhere.
pub(super) const ACCEPTED_C: &str = include_str!("../../../reference/mayan/accepted/solution.c");

/// An accepted C++ reference program, for `--cpp`.
const ACCEPTED_CPP: &str = include_str!("../../../reference/mayan/accepted/backtrack.cpp");

/// Contestants who only measure (pages and API), besides the teacher.
const PROBES: usize = 3;
/// Submissions of each probe before the burst (the idle submit latency).
const IDLE_SUBMISSIONS: usize = 5;
/// The pause between two requests of one measuring client: about 8 requests
/// a second each, under the default per-user limit of 20.
const PROBE_PAUSE: Duration = Duration::from_millis(120);
/// The teacher's password in the benchmark's contest.
pub(super) const ADMIN_PASSWORD: &str = "bench-teacher-pw";
/// The latency target at the 99th percentile.
const TARGET: Duration = Duration::from_millis(200);

/// Runs the benchmark and prints its report.
pub fn run(o: &LoadOptions) -> Result<()> {
    anyhow::ensure!(o.contestants > 0 && o.submissions > 0, "nothing to submit");
    let progress = Progress::new(o.quiet, o.submissions, "judged");
    progress.phase("starting mayan-judge serve");
    let server = Server::start(o)?;
    let stats = Stats::default();
    let url = server.url.as_str();
    let setup = Setup::new(url, o, &stats, &progress)?;
    progress.phase("idle baseline");
    probe_for(&setup, Phase::Idle, o.idle);
    let load = burst(&server, o, &setup, &stats, &progress)?;
    progress.finish();
    let check = verify(url, &setup, &load, &stats)?;
    print_report(o, &server, &setup, &load, &check, &stats);
    Ok(())
}

/// What `bench --only scaling` takes of one burst.
pub(super) struct Throughput {
    /// Burst submissions judged per second (from the first sent to the
    /// last judged).
    pub rate: f64,
    /// Burst submissions judged.
    pub judged: usize,
    /// Burst submissions sent.
    pub sent: usize,
    /// Judged submissions with another verdict than their program's.
    pub unexpected: usize,
    /// The whole machine's busy share over the burst (the load generator
    /// and anything else running included; `server` is the server's own).
    pub machine_busy: Option<f64>,
    /// The server's own figures (its process and everything below it),
    /// when its verdicts were heard.
    pub server: Option<Busy>,
    /// The CPU time of the load generator (this process) over the burst.
    pub generator_cpu: Duration,
}

/// One burst on a fresh server, for its throughput and the cores it kept
/// busy; no idle baseline, no report.
pub(super) fn throughput(o: &LoadOptions) -> Result<Throughput> {
    let progress = Progress::new(o.quiet, o.submissions, "judged");
    progress.phase(&format!("starting mayan-judge serve --jobs {}", o.jobs));
    let server = Server::start(o)?;
    let stats = Stats::default();
    let url = server.url.as_str();
    let setup = Setup::new(url, o, &stats, &progress)?;
    let load = burst(&server, o, &setup, &stats, &progress)?;
    progress.finish();
    let check = verify(url, &setup, &load, &stats)?;
    Ok(Throughput {
        rate: load.rate(),
        judged: check.judged,
        sent: o.submissions,
        unexpected: check.unexpected.len(),
        machine_busy: load.cpu.map(|(busy, _)| busy),
        server: load.busy,
        generator_cpu: load.generator_cpu,
    })
}

/// The server under test: a child process, killed when dropped.
pub(super) struct Server {
    child: Child,
    url: String,
    dir: tempfile::TempDir,
    /// What it printed before `listening on`: the contest and the problem.
    banner: String,
    /// The narrowed package (`--tests`), removed on drop.
    package: Option<Embedded>,
    /// The server's compile cache, removed on drop.
    cache: tempfile::TempDir,
}

/// The bundled problem written out with only its first `n` tests.
pub(super) fn narrowed_package(n: usize) -> Result<Embedded> {
    let package = Embedded::extract().context("writing out the bundled problem")?;
    let tests = Problem::load(&package.package_dir())?.tests()?;
    for t in tests.iter().skip(n.max(1)) {
        std::fs::remove_file(&t.input)?;
        std::fs::remove_file(&t.answer)?;
    }
    Ok(package)
}

impl Server {
    /// Writes the contest and starts `serve` on it, waiting for its
    /// `listening on` line.
    pub(super) fn start(o: &LoadOptions) -> Result<Server> {
        let dir = tempfile::Builder::new().prefix("mayan-bench-serve-").tempdir()?;
        write_contest(dir.path(), o.contestants, o.counterexamples)?;
        // The compile cache out of /tmp, where a user's is: a compilation's
        // sandbox mounts its own /tmp, where no precompiled header could be
        // shown to it.
        let base = crate::judge::submission::default_cache_dir();
        crate::judge::submission::check_cache_dir(&base)?;
        let cache = tempfile::Builder::new()
            .prefix("bench-serve-")
            .tempdir_in(&base)
            .with_context(|| format!("making a folder in {}", base.display()))?;
        let package = o.tests.map(narrowed_package).transpose()?;
        let (child, url, banner) = spawn(dir.path(), cache.path(), package.as_ref(), o.jobs)?;
        Ok(Server {
            child,
            url,
            dir,
            banner,
            package,
            cache,
        })
    }

    /// Stops the server, keeping its contest and database.
    pub(super) fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Starts `serve` again on the same contest (after [`Server::stop`]).
    pub(super) fn restart(&mut self, jobs: usize) -> Result<()> {
        self.stop();
        let (child, url, banner) = spawn(self.dir.path(), self.cache.path(), self.package.as_ref(), jobs)?;
        (self.child, self.url, self.banner) = (child, url, banner);
        Ok(())
    }

    /// The contest's folder (contest.toml, the database `mayan-judge.db`).
    pub(super) fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The server's process id.
    pub(super) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's URL.
    pub(super) fn url(&self) -> &str {
        &self.url
    }

    /// The server's peak resident memory (`VmHWM`), bytes.
    pub(super) fn peak_memory(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib << 10)
    }

    /// The server's resident memory now (`VmRSS`), bytes.
    pub(super) fn resident_memory(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib << 10)
    }

    /// What the server wrote on stderr (errors).
    fn errors(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("server.stderr")).unwrap_or_default()
    }
}

/// Starts `serve` on the contest in `dir` with the compile cache `cache`;
/// the child, its URL and what it printed before it listened.
fn spawn(
    dir: &Path,
    cache: &Path,
    package: Option<&Embedded>,
    jobs: usize,
) -> Result<(Child, String, String)> {
    let exe = std::env::current_exe().context("finding this executable")?;
    let stderr = std::fs::File::create(dir.join("server.stderr"))?;
    let mut command = Command::new(exe);
    command.arg("serve");
    // The server dies with the benchmark, even one killed by a signal
    // (no destructor runs then).
    // SAFETY: only an async-signal-safe prctl between fork and exec.
    unsafe {
        use std::os::unix::process::CommandExt;
        command.pre_exec(|| {
            rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))
                .map_err(std::io::Error::from)
        });
    }
    if let Some(p) = package {
        command.arg("--problem").arg(p.package_dir());
    }
    let mut child = command
        .env("MAYAN_JUDGE_CACHE", cache)
        .arg("--contest")
        .arg(dir.join("contest.toml"))
        .args(["--listen", "127.0.0.1:0", "--jobs", &jobs.to_string()])
        // Every sign-in and connection comes from one loopback address.
        .args(["--rate-address", "100000", "--connections-per-address", "100000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .context("starting mayan-judge serve")?;
    let stdout = child.stdout.take().expect("piped");
    match wait_listening(stdout) {
        Some((url, banner)) => Ok((child, url, banner)),
        None => {
            let _ = child.kill();
            let _ = child.wait();
            let err = std::fs::read_to_string(dir.join("server.stderr")).unwrap_or_default();
            bail!("mayan-judge serve did not start:\n{err}")
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads the server's stdout on a thread of its own (to the end, so it never
/// blocks on a full pipe); the URL and what came before, once it listens.
fn wait_listening(stdout: std::process::ChildStdout) -> Option<(String, String)> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut banner = String::new();
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            match line.strip_prefix("listening on ") {
                Some(url) => drop(tx.send(Some((url.trim().to_string(), banner.clone())))),
                None => banner.push_str(&format!("{line}\n")),
            }
        }
        let _ = tx.send(None);
    });
    rx.recv_timeout(Duration::from_secs(300)).ok().flatten()
}

/// The contest: an open practice, the contestants `c1..cN` and the measuring
/// `probe1..` with known passwords, default limits per user.
fn write_contest(dir: &Path, contestants: usize, counterexamples: bool) -> Result<()> {
    let mut csv = String::from("name,password\n");
    for name in contestant_names(contestants).chain(probe_names()) {
        csv.push_str(&format!("{name},{}\n", password(&name)));
    }
    std::fs::write(dir.join("students.csv"), csv)?;
    let mut toml = format!(
        "title = \"Load benchmark\"\ncontestants = \"students.csv\"\nadmin_password = \"{ADMIN_PASSWORD}\"\n"
    );
    if !counterexamples {
        toml.push_str("[counterexamples]\nsearch = false\n");
    }
    std::fs::write(dir.join("contest.toml"), toml)?;
    Ok(())
}

pub(super) fn contestant_names(n: usize) -> impl Iterator<Item = String> {
    (1..=n).map(|i| format!("c{i}"))
}

fn probe_names() -> impl Iterator<Item = String> {
    (1..=PROBES).map(|i| format!("probe{i}"))
}

pub(super) fn password(name: &str) -> String {
    format!("{name}-load-pw")
}

/// The signed-in clients, before the burst.
struct Setup<'a> {
    /// Each contestant's API token.
    tokens: Vec<String>,
    /// The measuring clients (probes and the teacher, last), each with a
    /// session, a token, and a submission to ask about.
    probes: Vec<(Http<'a>, i64)>,
    /// Time to get the contestants' tokens.
    sign_in: Duration,
    /// The submissions made before the burst (the probes'), judged before
    /// the idle baseline.
    before: usize,
    /// The package's tests (as a judged submission shows them).
    tests: usize,
}

impl<'a> Setup<'a> {
    /// Signs everyone in; each probe submits a few programs (the idle submit
    /// latency), judged before the idle baseline so that it is idle.
    fn new(url: &'a str, o: &LoadOptions, stats: &'a Stats, progress: &Progress) -> Result<Setup<'a>> {
        progress.phase(&format!("signing in {} contestants", o.contestants));
        let start = Instant::now();
        let tokens = sign_in_all(url, o, stats)?;
        let sign_in = start.elapsed();
        let mut probes = Vec::new();
        let admin = std::iter::once(("admin".to_string(), ADMIN_PASSWORD.to_string()));
        for (name, pw) in probe_names().map(|n| (n.clone(), password(&n))).chain(admin) {
            let mut h = Http::new(url, stats);
            h.api_sign_in(&name, &pw)?;
            h.form_sign_in(&name, &pw)?;
            probes.push((h, 0));
        }
        progress.phase("idle submissions");
        let mut first = 0;
        for (k, (h, id)) in probes.iter_mut().take(PROBES).enumerate() {
            for j in 0..IDLE_SUBMISSIONS {
                let i = o.submissions + k * IDLE_SUBMISSIONS + j;
                *id = submit(h, &program(i, o.cpp), Phase::Idle)?
                    .context("a probe's submission was refused")?;
            }
            first = if first == 0 { *id } else { first };
        }
        // The teacher asks about the first probe's submission.
        probes.last_mut().expect("the teacher").1 = first;
        let before = PROBES * IDLE_SUBMISSIONS;
        let admin = &probes.last().expect("the teacher").0;
        wait_judged(admin, before, Instant::now() + Duration::from_secs(600), &|_| {})?;
        let shown = admin.get(&format!("/api/v1/submissions/{first}"))?.json();
        let tests = shown["tests"].as_array().map_or(0, Vec::len);
        Ok(Setup {
            tokens,
            probes,
            sign_in,
            before,
            tests,
        })
    }
}

/// Every contestant's API token, `clients` sign-ins at a time, or as many
/// as the server admits at once, if fewer (more are refused with a 503,
/// as a class signing in at once would be told to try again).
fn sign_in_all(url: &str, o: &LoadOptions, stats: &Stats) -> Result<Vec<String>> {
    let names: Vec<String> = contestant_names(o.contestants).collect();
    let tokens = Mutex::new(vec![String::new(); names.len()]);
    let at_once = o
        .clients
        .min(names.len())
        .min(crate::server::sign_in_checks_admitted())
        .max(1);
    std::thread::scope(|s| {
        let threads: Vec<_> = (0..at_once)
            .map(|t| {
                let (names, tokens) = (&names, &tokens);
                s.spawn(move || -> Result<()> {
                    for i in (t..names.len()).step_by(at_once) {
                        let mut h = Http::new(url, stats);
                        h.api_sign_in(&names[i], &password(&names[i]))?;
                        tokens.lock().unwrap_or_else(|p| p.into_inner())[i] = h.token.unwrap_or_default();
                    }
                    Ok(())
                })
            })
            .collect();
        threads
            .into_iter()
            .try_for_each(|t| t.join().expect("sign-in thread"))
    })?;
    Ok(tokens.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// Program `i` of the burst, as (file name, source); every one distinct (a
/// comment), so each is compiled: most print `-1` (wrong answer on most
/// tests, fast), one in ten is the accepted reference, one in ten does not
/// compile.
/// With `cpp`, the same three kinds in C++, each starting with
/// `#include <bits/stdc++.h>` as most of a NOIP class's programs do.
pub(super) fn program(i: usize, cpp: bool) -> (String, String) {
    let tag = format!("/* load benchmark, program {i} */\n");
    if cpp {
        let bits = "#include <bits/stdc++.h>\n";
        let source = match i % 10 {
            3 => format!("{tag}{bits}{ACCEPTED_CPP}"),
            7 => format!("{tag}{bits}int main() {{ return missing_{i}; }}\n"),
            _ => format!("{tag}{bits}int main() {{ std::cout << -1 << std::endl; }}\n"),
        };
        return (format!("load{i}.cpp"), source);
    }
    let source = match i % 10 {
        3 => format!("{tag}{ACCEPTED_C}"),
        7 => format!("{tag}int main(void) {{ return missing_{i}; }}\n"),
        _ => format!("{tag}#include <stdio.h>\nint main(void) {{ puts(\"-1\"); return 0; }}\n"),
    };
    (format!("load{i}.c"), source)
}

/// The verdict program `i` must get.
fn expected(i: usize) -> &'static str {
    match i % 10 {
        3 => "AC",
        7 => "CE",
        _ => "WA",
    }
}

/// Submits through the API; the number, or `None` when refused (not 201).
pub(super) fn submit(h: &Http, (file_name, source): &(String, String), phase: Phase) -> Result<Option<i64>> {
    let r = h.post_json(
        "/api/v1/submissions",
        &json!({"file_name": file_name, "source": source}),
    )?;
    h.stats.record(Kind::Submit, phase, r.elapsed);
    Ok(if r.status == 201 {
        r.json()["id"].as_i64()
    } else {
        None
    })
}

/// Polls the teacher's list of submissions until `total` are done or the
/// deadline passes; calls `seen` with the count done at each poll.
pub(super) fn wait_judged(
    admin: &Http,
    total: usize,
    deadline: Instant,
    seen: &dyn Fn(usize),
) -> Result<usize> {
    loop {
        let r = admin.get("/api/v1/submissions")?;
        let done = r
            .json()
            .as_array()
            .map_or(0, |rows| rows.iter().filter(|s| s["state"] == "done").count());
        seen(done);
        if done >= total || Instant::now() > deadline {
            return Ok(done);
        }
        std::thread::sleep(Duration::from_millis(500));
    }
}

/// The measuring clients, `phase` until `stop`: pages (/ranking,
/// /submissions, /) on their sessions, API calls (a submission, the list,
/// the ranking) on their tokens.
fn probe(setup: &Setup, phase: Phase, stop: &AtomicBool) {
    std::thread::scope(|s| {
        for (h, id) in &setup.probes {
            s.spawn(move || {
                let paths = [
                    (Kind::Page, "/ranking".to_string()),
                    (Kind::Api, format!("/api/v1/submissions/{id}")),
                    (Kind::Page, "/submissions".to_string()),
                    (Kind::Api, "/api/v1/ranking".to_string()),
                    (Kind::Page, "/".to_string()),
                    (Kind::Api, "/api/v1/submissions".to_string()),
                ];
                for (kind, path) in paths.iter().cycle() {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    if let Ok(r) = h.get(path) {
                        h.stats.record(*kind, phase, r.elapsed);
                    }
                    std::thread::sleep(PROBE_PAUSE);
                }
            });
        }
    });
}

/// The probes for a fixed time.
fn probe_for(setup: &Setup, phase: Phase, time: Duration) {
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| probe(setup, phase, &stop));
        std::thread::sleep(time);
        stop.store(true, Ordering::Relaxed);
    });
}

/// What the burst did.
struct Load {
    /// The acknowledged submissions: (number, program index, contestant).
    acknowledged: Vec<(i64, usize, usize)>,
    /// Refused (not 201) or failed submit requests.
    refused: usize,
    /// Time to send the whole burst.
    sent: Duration,
    /// Time from the first submission to the last judged.
    judged: Duration,
    /// Submissions done when the wait ended.
    done: usize,
    /// The machine's CPU while judging: (busy, at nice > 0), fractions.
    cpu: Option<(f64, f64)>,
    /// The server's CPU over the burst, from its verdicts heard on
    /// `/events` (`None`: not all were heard).
    busy: Option<Busy>,
    /// The CPU time of the load generator (this process) over the burst.
    generator_cpu: Duration,
}

impl Load {
    /// Burst submissions judged per second: to the last verdict heard, or
    /// to the poll that saw it.
    fn rate(&self) -> f64 {
        match &self.busy {
            Some(b) => b.verdicts as f64 / b.whole.wall.as_secs_f64().max(1e-9),
            None => self.done as f64 / self.judged.as_secs_f64().max(1e-9),
        }
    }
}

/// The burst: `clients` threads submit every program as fast as the server
/// takes them, while the probes measure; then waits until all are judged.
fn burst(
    server: &Server,
    o: &LoadOptions,
    setup: &Setup,
    stats: &Stats,
    progress: &Progress,
) -> Result<Load> {
    progress.phase(&format!("burst: {} submissions", o.submissions));
    let url = server.url.as_str();
    let pid = server.child.id();
    let first = probe_names().next().expect("a probe");
    let listener = Listener::start(url, &first, &password(&first), pid, o.jobs)?;
    let stop = AtomicBool::new(false);
    let cpu_before = cpu_times();
    let generator_before = super::busy::own_cpu();
    let mark = Mark::now(pid);
    let start = mark.at;
    let result = std::thread::scope(|s| {
        s.spawn(|| probe(setup, Phase::Load, &stop));
        let sent = send_all(url, o, setup, stats);
        listener.expect(sent.0.len());
        let sent_in = start.elapsed();
        let total = setup.before + sent.0.len();
        let shown = AtomicU64::new(setup.before as u64);
        let deadline = start + Duration::from_secs(3600);
        let admin = &setup.probes.last().expect("the teacher").0;
        let done = wait_judged(admin, total, deadline, &|d| {
            show_judged(progress, &shown, d, total, start)
        });
        stop.store(true, Ordering::Relaxed);
        (sent, sent_in, done)
    });
    let ((acknowledged, refused), sent, done) = result;
    let judged = start.elapsed();
    let cpu = cpu_before.zip(cpu_times()).map(|(a, b)| cpu_share(&a, &b));
    let generator_cpu = super::busy::own_cpu().saturating_sub(generator_before);
    let done = done?.saturating_sub(setup.before);
    let verdicts = listener.verdicts(done, Duration::from_secs(10));
    Ok(Load {
        busy: (verdicts.len() == done && done == acknowledged.len())
            .then(|| Busy::of(&mark, &verdicts, o.jobs))
            .flatten(),
        acknowledged,
        refused,
        sent,
        judged,
        done,
        cpu,
        generator_cpu,
    })
}

/// Progress of the judging: the bar, or a line every tenth.
fn show_judged(progress: &Progress, shown: &AtomicU64, done: usize, total: usize, start: Instant) {
    let before = shown.swap(done as u64, Ordering::Relaxed) as usize;
    for _ in before..done {
        progress.step(String::new);
    }
    let tenth = total.div_ceil(10).max(1);
    if done / tenth > before / tenth || done == total && before < total {
        progress.phase(&format!(
            "{done}/{total} judged after {:.0} s",
            start.elapsed().as_secs_f64()
        ));
    }
}

/// Sends every program of the burst; the acknowledged ones and the count
/// refused.
fn send_all(url: &str, o: &LoadOptions, setup: &Setup, stats: &Stats) -> (Vec<(i64, usize, usize)>, usize) {
    let acknowledged = Mutex::new(Vec::new());
    let refused = AtomicU64::new(0);
    std::thread::scope(|s| {
        for t in 0..o.clients.min(o.submissions) {
            let (acknowledged, refused) = (&acknowledged, &refused);
            s.spawn(move || {
                let mut h = Http::new(url, stats);
                for i in (t..o.submissions).step_by(o.clients) {
                    let who = i % setup.tokens.len();
                    h.token = Some(setup.tokens[who].clone());
                    match submit(&h, &program(i, o.cpp), Phase::Load) {
                        Ok(Some(id)) => acknowledged
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .push((id, i, who)),
                        _ => drop(refused.fetch_add(1, Ordering::Relaxed)),
                    }
                }
            });
        }
    });
    let mut acknowledged = acknowledged.into_inner().unwrap_or_else(|p| p.into_inner());
    acknowledged.sort();
    (acknowledged, refused.into_inner() as usize)
}

/// The machine's CPU times from `/proc/stat`: user, nice, system, idle, …
pub(super) fn cpu_times() -> Option<Vec<u64>> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    let line = text.lines().next()?.strip_prefix("cpu ")?;
    line.split_whitespace().map(|f| f.parse().ok()).collect()
}

/// Busy and niced shares of the CPU between two readings.
pub(super) fn cpu_share(a: &[u64], b: &[u64]) -> (f64, f64) {
    let d: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(x, y)| y.saturating_sub(*x) as f64)
        .collect();
    let total: f64 = d.iter().take(8).sum::<f64>().max(1.0);
    let idle = d.get(3).copied().unwrap_or(0.0) + d.get(4).copied().unwrap_or(0.0);
    (1.0 - idle / total, d.get(1).copied().unwrap_or(0.0) / total)
}

/// What was found after the burst.
struct Check {
    /// Acknowledged submissions the teacher's list holds.
    stored: usize,
    /// Acknowledged submissions whose result is final.
    judged: usize,
    /// Judged submissions with another verdict than their program's.
    unexpected: Vec<String>,
    /// Count of each verdict.
    verdicts: std::collections::BTreeMap<String, usize>,
}

/// Asks about every acknowledged submission, as its contestant.
fn verify(url: &str, setup: &Setup, load: &Load, stats: &Stats) -> Result<Check> {
    let admin = &setup.probes.last().expect("the teacher").0;
    let listed: std::collections::HashSet<i64> = admin
        .get("/api/v1/submissions")?
        .json()
        .as_array()
        .map(|rows| rows.iter().filter_map(|s| s["id"].as_i64()).collect())
        .unwrap_or_default();
    let mut check = Check {
        stored: load.acknowledged.iter().filter(|a| listed.contains(&a.0)).count(),
        judged: 0,
        unexpected: Vec::new(),
        verdicts: Default::default(),
    };
    let mut h = Http::new(url, stats);
    for &(id, i, who) in &load.acknowledged {
        h.token = Some(setup.tokens[who].clone());
        let v = h.get(&format!("/api/v1/submissions/{id}"))?.json();
        if v["final"] != true {
            continue;
        }
        check.judged += 1;
        let verdict = v["verdict"].as_str().unwrap_or("none").to_string();
        if verdict != expected(i) {
            check
                .unexpected
                .push(format!("#{id} (program {i}): {verdict}, not {}", expected(i)));
        }
        *check.verdicts.entry(verdict).or_default() += 1;
    }
    Ok(check)
}

/// The 50th, 90th, 99th percentiles and the maximum, ms.
pub(super) fn percentiles(v: &[Duration]) -> Option<[f64; 4]> {
    let at = |q: f64| {
        let k = ((q * v.len() as f64).ceil() as usize).clamp(1, v.len());
        v[k - 1].as_secs_f64() * 1e3
    };
    (!v.is_empty()).then(|| [at(0.50), at(0.90), at(0.99), at(1.0)])
}

/// Prints the report of a load run: the setup, the burst, what was found
/// after it, the server's health, the latencies and the targets met.
fn print_report(o: &LoadOptions, server: &Server, setup: &Setup, load: &Load, check: &Check, stats: &Stats) {
    let n = load.acknowledged.len();
    println!();
    print_setup(o, server, setup);
    print_burst(o, load, n);
    print_outcome(check, stats, n);
    let resident = print_server_health(server);
    let p99 = latency_table(stats);
    print_targets(o, load, check, stats, &p99, resident);
}

/// What was run: the load, the server and its rate limits, the tests, the
/// programs, and the sign-ins' time.
fn print_setup(o: &LoadOptions, server: &Server, setup: &Setup) {
    println!(
        "The online judge under load: {} contestants submit {} programs in a burst ({} clients), \
         mayan-judge serve --jobs {} (judging at nice 10) on 127.0.0.1.",
        o.contestants, o.submissions, o.clients, o.jobs
    );
    println!(
        "  Rate limits: the defaults per contestant (requests, submissions); --rate-address 100000, \
         as {} sign-ins come from one address.",
        o.contestants
    );
    println!("  Server: {}", server.banner.lines().next().unwrap_or("?"));
    match o.tests {
        Some(_) => println!(
            "  Tests: {}, the first of the bundled problem (--tests).",
            setup.tests
        ),
        None => println!("  Tests: {}, every test of the package.", setup.tests),
    }
    println!(
        "  Programs: every one distinct (each compiled): 80% print -1, 10% accepted, 10% do not compile."
    );
    println!(
        "  Sign-in: {} API tokens in {:.1} s.",
        o.contestants,
        setup.sign_in.as_secs_f64()
    );
}

/// The burst ([`Load`]): what was acknowledged and refused, how fast it was
/// sent and judged, and the CPU while judging; `n` submissions acknowledged.
fn print_burst(o: &LoadOptions, load: &Load, n: usize) {
    println!(
        "  Burst: {n} acknowledged, {} refused, sent in {:.1} s; all judged {:.1} s after the first ({:.1} submissions/s).",
        load.refused,
        load.sent.as_secs_f64(),
        load.judged.as_secs_f64(),
        load.rate()
    );
    if let Some((busy, nice)) = load.cpu {
        println!(
            "  CPU while judging (the whole machine): {:.0}% busy, {:.0}% at nice > 0.",
            busy * 100.0,
            nice * 100.0
        );
    }
    print_server_busy(load.busy.as_ref(), o.jobs, load.generator_cpu);
}

/// What was found after the burst ([`Check`]) of the `n` acknowledged, and
/// the requests' counts.
fn print_outcome(check: &Check, stats: &Stats, n: usize) {
    println!(
        "  Stored: {}/{n}; judged: {}/{n}; verdicts: {}.",
        check.stored,
        check.judged,
        check
            .verdicts
            .iter()
            .map(|(v, c)| format!("{v} {c}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    for u in check.unexpected.iter().take(5) {
        println!("  UNEXPECTED verdict: {u}");
    }
    println!(
        "  Requests: {}; 5xx: {}; 429: {}; failed (no answer): {}.",
        stats.requests.load(Ordering::Relaxed),
        stats.server_errors.load(Ordering::Relaxed),
        stats.too_many.load(Ordering::Relaxed),
        stats.failures.load(Ordering::Relaxed)
    );
}

/// The server's peak and resident memory and its stderr; returns the
/// resident memory (everything is judged and checked by now: what the
/// server keeps).
fn print_server_health(server: &Server) -> Option<u64> {
    if let Some(peak) = server.peak_memory() {
        println!(
            "  The server's peak memory: {:.0} MiB.",
            peak as f64 / f64::from(1 << 20)
        );
    }
    let resident = server.resident_memory();
    if let Some(rss) = resident {
        println!(
            "  The server's resident memory after the sign-ins and the burst: {:.0} MiB.",
            rss as f64 / f64::from(1 << 20)
        );
    }
    let errors = server.errors();
    if !errors.trim().is_empty() {
        let first = errors.lines().next().unwrap_or_default();
        println!(
            "  The server's stderr: {} lines; the first: {first}",
            errors.lines().count()
        );
    }
    resident
}

/// The server's own CPU over the burst ([`super::busy`]), and the load
/// generator's.
fn print_server_busy(busy: Option<&Busy>, jobs: usize, generator: Duration) {
    let cores = crate::judge::pool::available_cores();
    println!("{}", server_busy_line(busy, jobs, cores, generator));
}

/// [`print_server_busy`]'s line: the steady window once, in
/// [`super::busy::Window::ran_in_words`] (its share of the time the cores
/// ran, then of their whole time), and the whole burst's share beside it.
fn server_busy_line(busy: Option<&Busy>, jobs: usize, cores: usize, generator: Duration) -> String {
    let Some(b) = busy else {
        return "  The server and its runs: not measured (not every verdict was heard on /events).".into();
    };
    format!(
        "  The server and its runs (--jobs {jobs}, {cores} cores), while at least {jobs} submissions \
         remained ({:.2} s): {}; {:.1}% over the whole burst ({:.2} s); {:.3} CPU-s per submission; \
         the load generator used {:.2} CPU-s. Counted: {}.",
        b.steady.map_or(0.0, |w| w.wall.as_secs_f64()),
        b.steady.as_ref().map_or("-".into(), |w| w.ran_in_words(cores)),
        b.whole.share(cores) * 100.0,
        b.whole.wall.as_secs_f64(),
        b.cpu_per_submission().as_secs_f64(),
        generator.as_secs_f64(),
        super::busy::HOW
    )
}

/// What the server may keep after the sign-ins and the burst (the
/// argon2 buffers, the solver's tables and the runs' outputs given back).
pub(super) const RESIDENT_TARGET_MIB: u64 = 128;

/// Prints the latency table; the p99 under load of each kind.
fn latency_table(stats: &Stats) -> Vec<(Kind, Option<f64>)> {
    println!();
    println!(
        "Latency, ms        {:^33}   {:^33}   p99 load/idle",
        "idle: p50 p90 p99 max (n)", "under load: p50 p90 p99 max (n)"
    );
    let cell = |p: Option<[f64; 4]>, n: usize| match p {
        Some([a, b, c, d]) => format!("{a:>6.1} {b:>6.1} {c:>6.1} {d:>6.1} ({n:>5})"),
        None => format!("{:^33}", "-"),
    };
    let mut out = Vec::new();
    for (kind, name) in [
        (Kind::Page, "pages"),
        (Kind::Api, "API calls"),
        (Kind::Submit, "submissions"),
    ] {
        let (idle, busy) = (
            stats.latencies(kind, Phase::Idle),
            stats.latencies(kind, Phase::Load),
        );
        let (pi, pb) = (percentiles(&idle), percentiles(&busy));
        let ratio = pi
            .zip(pb)
            .map_or("-".into(), |(i, b)| format!("{:.1}x", b[2] / i[2]));
        println!(
            "  {name:<16} {}   {}   {ratio:>8}",
            cell(pi, idle.len()),
            cell(pb, busy.len())
        );
        out.push((kind, pb.map(|p| p[2])));
    }
    out
}

fn print_targets(
    o: &LoadOptions,
    load: &Load,
    check: &Check,
    stats: &Stats,
    p99: &[(Kind, Option<f64>)],
    resident: Option<u64>,
) {
    let n = load.acknowledged.len();
    let mut rows = vec![
        (
            check.stored == o.submissions && check.judged == o.submissions,
            format!(
                "every submission acknowledged, stored and judged: {}/{}/{} of {}",
                n, check.stored, check.judged, o.submissions
            ),
        ),
        (
            stats.server_errors.load(Ordering::Relaxed) == 0,
            format!("no 5xx: {}", stats.server_errors.load(Ordering::Relaxed)),
        ),
    ];
    let limit = TARGET.as_secs_f64() * 1e3;
    for (kind, p) in p99 {
        let name = match kind {
            Kind::Page => "pages",
            Kind::Api => "API calls",
            Kind::Submit => "submissions",
        };
        if let Some(p) = p {
            rows.push((
                *p < limit,
                format!("{name}, p99 under load < {limit:.0} ms: {p:.1} ms"),
            ));
        }
    }
    if let Some(rss) = resident {
        let mib = rss as f64 / f64::from(1 << 20);
        rows.push((
            rss < RESIDENT_TARGET_MIB << 20,
            format!(
                "the server's resident memory after {} sign-ins and {} judged submissions < {RESIDENT_TARGET_MIB} MiB: {mib:.0} MiB",
                o.contestants, check.judged
            ),
        ));
    }
    println!();
    println!("Targets:");
    for (met, what) in rows {
        println!("  {:<7} {what}", if met { "met" } else { "MISSED" });
    }
}

#[cfg(test)]
mod tests {
    use super::super::busy::Window;
    use super::*;

    fn window(wall_s: u64, cpu_s: u64) -> Window {
        Window {
            wall: Duration::from_secs(wall_s),
            cpu: Duration::from_secs(cpu_s),
            stolen: Duration::ZERO,
            generator: Duration::ZERO,
        }
    }

    #[test]
    fn the_server_line_gives_each_share_once() {
        let busy = Busy {
            whole: window(10, 15),
            steady: Some(window(8, 14)),
            verdicts: 100,
        };
        let line = server_busy_line(Some(&busy), 2, 2, Duration::from_millis(100));
        // The steady window: 14 of 16 core-seconds, no steal.
        assert_eq!(line.matches("87.5%").count(), 2, "{line}");
        assert!(line.contains("87.5% of the time the 2 cores ran"), "{line}");
        assert!(line.contains("75.0% over the whole burst (10.00 s)"), "{line}");
        assert!(!line.contains(" busy while"), "{line}");
    }
}
