//! How busy a server keeps the cores while it judges a burst, counted
//! from the server's side: the CPU time of the server's process and every
//! process below it (its launcher, the launcher's runners, every
//! compilation and run: `/proc/PID/stat`, with the children each has
//! reaped), not the whole machine's, so that the load generator's own CPU
//! is not needed to reach the figure and other work on the machine does
//! not count for it. The moments come from the server itself: a
//! contestant's event stream (`/events`) hears a `ranking` event after
//! the results are stored, carrying how many changes it coalesces (at
//! most one event each 250 ms per stream: a verdict is heard at once
//! after a quiet spell, within 250 ms in a burst), so the window ends
//! at the last verdict heard, not at the next poll.
//!
//! Two windows, both from the first submission sent: to the last verdict
//! (the whole burst), and to the verdict after which fewer submissions
//! than slots remain (the steady part: in the tail there is not enough
//! work left for every slot, whatever the server does). The target is on
//! the steady part; both are printed.
//!
//! Each window's share is counted of the time the cores ran (the
//! target's): their whole time less the hypervisor's steal (a virtual
//! machine's `steal` in `/proc/stat`, the time its virtual CPUs did not
//! run at all, which no process could use), and printed with the share of
//! their whole time and what the load generator used (this process: it
//! sends the burst, polls and listens, and reads `/proc` at the verdicts
//! that end a window, on the same machine, where a class's browsers are
//! elsewhere; it counts against the server). The kernel's own threads
//! count against the server too: most of their work in a burst is its
//! runs' (namespaces freed, RCU callbacks).

use super::client::{Http, Stats};
use std::io::{BufRead, BufReader};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// The CPU time of process `root` and every process below it, now (user
/// and system, its and its reaped children's); `None` when `/proc` cannot
/// be read.
pub fn tree_cpu(root: u32) -> Option<Duration> {
    let mut procs = Vec::new();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        // A process gone meanwhile: its time is in its parent's by now.
        if let Some((ppid, ticks)) = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .as_deref()
            .and_then(parse_stat)
        {
            procs.push((pid, ppid, ticks));
        }
    }
    Some(ticks_to_time(sum_below(root, &procs)))
}

/// A `/proc/PID/stat` line's parent and CPU ticks (utime + stime + cutime
/// + cstime: fields 14 to 17, counted after the name in parentheses).
fn parse_stat(line: &str) -> Option<(u32, u64)> {
    let rest = &line[line.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ppid = fields.get(1)?.parse().ok()?;
    let ticks = fields
        .get(11..15)?
        .iter()
        .map(|f| f.parse::<i64>().ok().map(|t| t.max(0) as u64))
        .sum::<Option<u64>>()?;
    Some((ppid, ticks))
}

/// The ticks of `root` and everything below it in `(pid, ppid, ticks)`.
fn sum_below(root: u32, procs: &[(u32, u32, u64)]) -> u64 {
    let mut total = 0;
    let mut frontier = vec![root];
    let mut seen = std::collections::HashSet::new();
    while let Some(p) = frontier.pop() {
        if !seen.insert(p) {
            continue;
        }
        for &(pid, ppid, ticks) in procs {
            if pid == p {
                total += ticks;
            }
            if ppid == p {
                frontier.push(pid);
            }
        }
    }
    total
}

fn ticks_to_time(ticks: u64) -> Duration {
    let per_second = nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK)
        .ok()
        .flatten()
        .and_then(|t| u64::try_from(t).ok())
        .filter(|&t| t > 0)
        .unwrap_or(100);
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000 / per_second))
}

/// The CPU time this process (the load generator) has used so far.
pub fn own_cpu() -> Duration {
    use nix::sys::resource::{UsageWho, getrusage};
    getrusage(UsageWho::RUSAGE_SELF).map_or(Duration::ZERO, |u| {
        let t = |v: nix::sys::time::TimeVal| {
            Duration::from_secs(v.tv_sec().max(0) as u64) + Duration::from_micros(v.tv_usec().max(0) as u64)
        };
        t(u.user_time()) + t(u.system_time())
    })
}

/// The time stolen by the hypervisor so far on `cores` (`/proc/stat`'s
/// `steal` of each `cpuN` line; zero on a machine of its own), `None`
/// when `/proc/stat` cannot be read.
fn stolen(cores: &[usize]) -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    Some(ticks_to_time(steal_ticks(&text, cores)))
}

/// The `steal` ticks (the eighth number) of the `cpuN` lines of `stat`
/// whose N is in `cores`.
fn steal_ticks(stat: &str, cores: &[usize]) -> u64 {
    stat.lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let n: usize = fields.next()?.strip_prefix("cpu")?.parse().ok()?;
            cores.contains(&n).then(|| fields.nth(7)?.parse::<u64>().ok())?
        })
        .sum()
}

/// A moment of the burst: the server's CPU time then, and what was not
/// the server's to use so far.
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    /// When.
    pub at: Instant,
    /// The server's CPU time ([`tree_cpu`]).
    pub cpu: Option<Duration>,
    /// The time the hypervisor stole from the judge's cores ([`stolen`]:
    /// this process's, which the server it started inherited).
    pub stolen: Option<Duration>,
    /// The load generator's CPU time ([`own_cpu`]).
    pub generator: Duration,
}

impl Mark {
    /// Now, for the server `pid`.
    pub fn now(pid: u32) -> Mark {
        Mark {
            cpu: tree_cpu(pid),
            stolen: stolen(&crate::judge::pool::thread_cores()),
            generator: own_cpu(),
            at: Instant::now(),
        }
    }

    /// Now, the time alone: no walk of `/proc`, for a verdict that ends
    /// no window.
    fn time_only() -> Mark {
        Mark {
            cpu: None,
            stolen: None,
            generator: own_cpu(),
            at: Instant::now(),
        }
    }
}

/// Hears each stored verdict on a signed-in contestant's `/events`.
///
/// Only the verdicts that can end a window ([`Busy::of`]: the last `jobs`
/// of the burst) are marked with the server's CPU time; the others with
/// the time alone, so that the load generator does not walk `/proc` at
/// every verdict (more than half of its CPU in a burst, on the cores the
/// server is measured on). Until the burst's size is known ([`Listener::expect`])
/// every verdict is marked in full.
pub struct Listener {
    marks: mpsc::Receiver<Mark>,
    /// The burst's size, once known (0 until then).
    expected: Arc<AtomicUsize>,
}

impl Listener {
    /// Signs `name` in (a session of its own, with no time limit on the
    /// stream) and listens on the server `pid`, judging with `jobs`
    /// slots, at `url`; returns once the stream is open.
    pub fn start(url: &str, name: &str, password: &str, pid: u32, jobs: usize) -> anyhow::Result<Listener> {
        let (ready_tx, ready) = mpsc::channel::<anyhow::Result<()>>();
        let (tx, marks) = mpsc::channel();
        let expected = Arc::new(AtomicUsize::new(0));
        let (url, name, password) = (url.to_string(), name.to_string(), password.to_string());
        let total = Arc::clone(&expected);
        // Not joined: it ends when the server closes the stream.
        std::thread::spawn(move || {
            let stats = Stats::default();
            let http = Http::streaming(&url, &stats);
            let open = http
                .form_sign_in(&name, &password)
                .and_then(|()| http.open("/events"));
            let body = match open {
                Ok(body) => {
                    let _ = ready_tx.send(Ok(()));
                    body
                }
                Err(e) => return drop(ready_tx.send(Err(e))),
            };
            let (mut heard, mut counted) = (0, None);
            for line in BufReader::new(body).lines().map_while(Result::ok) {
                let Some(changes) = ranking_changes(&line) else {
                    continue;
                };
                // The first count is the stream's at its opening.
                let Some(before) = counted.replace(changes) else {
                    continue;
                };
                let new = changes.saturating_sub(before) as usize;
                heard += new;
                let mark = if (heard + 1 - new..=heard)
                    .any(|h| ends_a_window(h, total.load(Ordering::Acquire), jobs))
                {
                    Mark::now(pid)
                } else {
                    Mark::time_only()
                };
                if (0..new).any(|_| tx.send(mark).is_err()) {
                    return;
                }
            }
        });
        ready.recv_timeout(Duration::from_secs(120))??;
        Ok(Listener { marks, expected })
    }

    /// The burst has `n` verdicts to come in all (every submission
    /// acknowledged).
    pub fn expect(&self, n: usize) {
        self.expected.store(n, Ordering::Release);
    }

    /// The verdicts heard so far, waiting up to `wait` for the `n`th.
    pub fn verdicts(&self, n: usize, wait: Duration) -> Vec<Mark> {
        let deadline = Instant::now() + wait;
        let mut out: Vec<Mark> = self.marks.try_iter().collect();
        while out.len() < n {
            match self
                .marks
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            {
                Ok(m) => out.push(m),
                Err(_) => break,
            }
        }
        out
    }
}

/// The count of the ranking's changes an `/events` line carries: the
/// comment a stream opens with (`: changes N`), or a `ranking` event's
/// data (`"changes": N`; the server coalesces a burst's verdicts into a
/// few events, each counting its own).
fn ranking_changes(line: &str) -> Option<u64> {
    if let Some(n) = line.strip_prefix(":changes ").or(line.strip_prefix(": changes ")) {
        return n.trim().parse().ok();
    }
    let data: serde_json::Value = serde_json::from_str(line.strip_prefix("data:")?.trim()).ok()?;
    data.get("changes")?.as_u64()
}

/// Whether verdict number `heard` (from 1) of a burst of `expected` (0:
/// not known yet) may end one of [`Busy::of`]'s windows with `jobs` slots:
/// the one after which fewer than `jobs` remain, or a later one.
fn ends_a_window(heard: usize, expected: usize, jobs: usize) -> bool {
    expected == 0 || heard + jobs.max(1) > expected
}

/// What the server used over one window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Window {
    /// Its length.
    pub wall: Duration,
    /// The server's CPU time in it.
    pub cpu: Duration,
    /// The hypervisor's steal on the judge's cores in it.
    pub stolen: Duration,
    /// The load generator's CPU time in it.
    pub generator: Duration,
}

impl Window {
    /// Between two marks (`None` without CPU times; no steal counted
    /// where `/proc/stat` could not be read).
    pub fn between(a: &Mark, b: &Mark) -> Option<Window> {
        let stolen = a
            .stolen
            .zip(b.stolen)
            .map_or(Duration::ZERO, |(a, b)| b.saturating_sub(a));
        Some(Window {
            wall: b.at.saturating_duration_since(a.at),
            cpu: b.cpu?.saturating_sub(a.cpu?),
            stolen,
            generator: b.generator.saturating_sub(a.generator),
        })
    }

    /// The cores' whole time over the window.
    fn cores_time(&self, cores: usize) -> f64 {
        self.wall.as_secs_f64() * cores.max(1) as f64
    }

    /// The share of `cores` it kept busy.
    pub fn share(&self, cores: usize) -> f64 {
        self.cpu.as_secs_f64() / self.cores_time(cores).max(1e-9)
    }

    /// The share of the time `cores` ran: their whole time less the
    /// hypervisor's steal, when they did not run at all (the target's).
    /// The load generator's CPU counts against the server.
    pub fn share_ran(&self, cores: usize) -> f64 {
        self.cpu.as_secs_f64() / (self.cores_time(cores) - self.stolen.as_secs_f64()).max(1e-9)
    }

    /// [`Window::share_ran`] in words, with what the hypervisor and the
    /// load generator took and the share of the whole time, e.g. `92.5% of
    /// the time the 2 cores ran (the hypervisor stole 1.4% of their whole
    /// time, the load generator used 1.1%; 91.2% of the whole time)`.
    pub fn ran_in_words(&self, cores: usize) -> String {
        let (stolen, generator) = self.taken(cores);
        format!(
            "{:.1}% of the time the {cores} cores ran (the hypervisor stole {:.1}% of their whole time, \
             the load generator used {:.1}%; {:.1}% of the whole time)",
            self.share_ran(cores) * 100.0,
            stolen * 100.0,
            generator * 100.0,
            self.share(cores) * 100.0,
        )
    }

    /// What the hypervisor and the load generator took, as shares of
    /// `cores`' whole time.
    fn taken(&self, cores: usize) -> (f64, f64) {
        let whole = self.cores_time(cores).max(1e-9);
        (
            self.stolen.as_secs_f64() / whole,
            self.generator.as_secs_f64() / whole,
        )
    }
}

/// The server's figures of a burst.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Busy {
    /// From the first submission sent to the last verdict.
    pub whole: Window,
    /// From the first submission sent to the verdict after which fewer
    /// submissions than `jobs` remain (`None` when fewer than `jobs`
    /// verdicts were heard: no steady part).
    pub steady: Option<Window>,
    /// Verdicts heard.
    pub verdicts: usize,
}

impl Busy {
    /// From the burst's start and its verdicts' marks (in order), with
    /// `jobs` slots.
    pub fn of(start: &Mark, verdicts: &[Mark], jobs: usize) -> Option<Busy> {
        let whole = Window::between(start, verdicts.last()?)?;
        // After verdict number n - jobs + 1, jobs - 1 remain.
        let steady = verdicts
            .len()
            .checked_sub(jobs.max(1))
            .and_then(|k| Window::between(start, &verdicts[k]));
        Some(Busy {
            whole,
            steady,
            verdicts: verdicts.len(),
        })
    }

    /// The server's CPU time per judged submission.
    pub fn cpu_per_submission(&self) -> Duration {
        self.whole.cpu / u32::try_from(self.verdicts.max(1)).unwrap_or(u32::MAX)
    }
}

/// How the figures are counted, in words, for the reports.
pub const HOW: &str = "the server's process and everything below it (launcher, compilations, runs; \
     /proc), from the first submission sent to the last verdict (whole) or to the verdict after \
     which fewer submissions than slots remain (steady: the target's window), over the cores the \
     judge may use, less the hypervisor's steal (the time they ran: the target's)";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_reads_the_count_of_ranking_changes_from_the_opening_comment_and_each_ranking_event() {
        assert_eq!(ranking_changes(":changes 17"), Some(17));
        assert_eq!(
            ranking_changes(r#"data: {"lines":[],"removed":[],"frozen":false,"changes":23}"#),
            Some(23)
        );
        assert_eq!(ranking_changes(r#"data: {"id":3,"status":"AC"}"#), None);
        assert_eq!(ranking_changes("event: ranking"), None);
    }

    #[test]
    fn a_stat_line_gives_its_parent_and_every_cpu_tick() {
        let line = "42 (a (b) c) S 7 42 42 0 -1 4194560 100 0 0 0 11 22 33 44 20 0 1 0 5 0 0";
        assert_eq!(parse_stat(line), Some((7, 11 + 22 + 33 + 44)));
        assert_eq!(parse_stat("42 (x) S"), None);
    }

    #[test]
    fn the_tree_is_the_root_and_everything_below_it() {
        let procs = [(1, 0, 1000), (10, 1, 5), (11, 10, 7), (12, 11, 9), (20, 1, 100)];
        assert_eq!(sum_below(10, &procs), 5 + 7 + 9);
        assert_eq!(sum_below(99, &procs), 0);
        assert!(tree_cpu(std::process::id()).is_some());
    }

    #[test]
    fn only_the_verdicts_that_can_end_a_window_walk_proc() {
        // 10 verdicts, 2 slots: the steady window ends at the 9th.
        let full: Vec<usize> = (1..=10).filter(|&h| ends_a_window(h, 10, 2)).collect();
        assert_eq!(full, [9, 10]);
        let t0 = Instant::now();
        let marks: Vec<Mark> = (1..=10)
            .map(|h| Mark {
                at: t0 + Duration::from_millis(h as u64),
                cpu: ends_a_window(h, 10, 2).then(|| Duration::from_millis(h as u64)),
                stolen: None,
                generator: Duration::ZERO,
            })
            .collect();
        let start = Mark {
            at: t0,
            cpu: Some(Duration::ZERO),
            stolen: None,
            generator: Duration::ZERO,
        };
        let b = Busy::of(&start, &marks, 2).unwrap();
        assert_eq!(b.steady.unwrap().cpu, Duration::from_millis(9));
        assert_eq!(b.whole.cpu, Duration::from_millis(10));
        // The size not known yet: every verdict in full.
        assert!((1..=10).all(|h| ends_a_window(h, 0, 2)));
        assert!(ends_a_window(1, 1, 0));
        assert!(Mark::time_only().cpu.is_none());
    }

    #[test]
    fn steal_is_summed_over_the_judges_cores_only() {
        let stat = "cpu  10 0 10 100 0 0 0 9 0 0\n\
                    cpu0 5 0 5 50 0 0 0 4 0 0\n\
                    cpu1 5 0 5 50 0 0 0 5 0 0\n\
                    cpu12 1 0 1 1 0 0 0 7 0 0\n\
                    intr 1 2 3\n";
        assert_eq!(steal_ticks(stat, &[0, 1]), 9);
        assert_eq!(steal_ticks(stat, &[1, 12]), 12);
        assert_eq!(steal_ticks(stat, &[3]), 0);
        assert!(stolen(&[0]).is_some());
    }

    #[test]
    fn the_steady_window_ends_when_fewer_submissions_than_slots_remain() {
        let t0 = Instant::now();
        let mark = |ms: u64, cpu_ms: u64| Mark {
            at: t0 + Duration::from_millis(ms),
            cpu: Some(Duration::from_millis(cpu_ms)),
            stolen: Some(Duration::from_millis(ms / 20)),
            generator: Duration::from_millis(ms / 40),
        };
        let start = mark(0, 100);
        let verdicts = [mark(1000, 2000), mark(2000, 4000), mark(3000, 5000)];
        let b = Busy::of(&start, &verdicts, 2).unwrap();
        assert_eq!(b.whole.wall, Duration::from_millis(3000));
        assert_eq!(b.whole.cpu, Duration::from_millis(4900));
        // Two slots: after the second verdict one submission remains.
        let steady = b.steady.unwrap();
        assert_eq!(steady.wall, Duration::from_millis(2000));
        assert!((steady.share(2) - 0.975).abs() < 1e-9);
        // Of 4 s of the cores, the hypervisor took 0.1 s and the load
        // generator 0.05 s.
        assert_eq!(steady.taken(2), (0.025, 0.0125));
        // The cores ran 3.9 s of the 4; the load generator's CPU counts
        // against the server.
        assert!((steady.share_ran(2) - 3.9 / 3.9).abs() < 1e-9);
        assert!(
            steady
                .ran_in_words(2)
                .starts_with("100.0% of the time the 2 cores ran (the hypervisor stole 2.5%")
        );
        assert_eq!(b.cpu_per_submission(), Duration::from_nanos(4_900_000_000 / 3));
        // One slot: the steady part is the whole burst.
        assert_eq!(Busy::of(&start, &verdicts, 1).unwrap().steady, Some(b.whole));
        assert_eq!(Busy::of(&start, &verdicts[..1], 2).unwrap().steady, None);
        assert_eq!(Busy::of(&start, &[], 2), None);
    }
}
