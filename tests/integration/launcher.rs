//! The launcher (`src/judge/sandbox/launcher.rs`): runs are started from a
//! small process made at start, not forked from the grown judge; the
//! server gives back the memory of sign-ins and judging. The attack suite
//! (`attacks.rs`) runs through the launcher, the binary's only path.

use crate::serve_util::{Server, accepted_c};
use crate::util::{have, judge_within, run_cgroups};

/// The server's resident memory, KiB (`VmRSS` of `/proc/PID/status`).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in {status}"))
}

/// A process's children: pid and name (`comm`).
fn child_processes(pid: u32) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap().flatten() {
        let kids = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for kid in kids.split_whitespace().filter_map(|k| k.parse::<u32>().ok()) {
            if let Ok(comm) = std::fs::read_to_string(format!("/proc/{kid}/comm")) {
                found.push((kid, comm.trim().to_string()));
            }
        }
    }
    found
}

/// The names (`comm`) of a process's children.
fn children(pid: u32) -> Vec<String> {
    child_processes(pid).into_iter().map(|(_, name)| name).collect()
}

/// The namespace of kind `kind` (`net`, `mnt`) a process is in.
fn namespace(pid: u32, kind: &str) -> String {
    std::fs::read_link(format!("/proc/{pid}/ns/{kind}"))
        .map(|l| l.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The launcher's runners, once the server has judged with `--jobs 2`: kept
/// for the next runs (not one forked per run and gone, nor one kept per
/// run), each in a network namespace of its own (its runs share it one
/// after another, never two at once), all in the launcher's mount
/// namespace (where the runs' folders are on a tmpfs), none the server's.
/// Returns their pids.
fn check_runners(server: u32) -> Vec<u32> {
    let Some((launcher, _)) = child_processes(server)
        .into_iter()
        .find(|(_, name)| name == "mayan-launcher")
    else {
        panic!("the server has no launcher child")
    };
    let runners: Vec<u32> = child_processes(launcher)
        .into_iter()
        .filter(|(_, name)| name == "mayan-launcher")
        .map(|(pid, _)| pid)
        .collect();
    // As many as runs at once, plus the runs before them still being
    // cleaned up (a runner answers before it cleans up, and under load a
    // cleanup, waiting for RCU grace periods as the run's mounts go, may
    // outlast a few quick runs), plus one idle, up to the launcher's cap:
    // two a slot and one. That they are kept at all is the caller's
    // check, across two batches.
    assert!(
        (1..=RUNNERS_BOUND).contains(&runners.len()),
        "after judging with --jobs 2, the launcher keeps {} runners (want 1 to {RUNNERS_BOUND})",
        runners.len()
    );
    let mut nets: Vec<String> = runners.iter().map(|&r| namespace(r, "net")).collect();
    nets.sort();
    nets.dedup();
    assert_eq!(nets.len(), runners.len(), "two runners share a network namespace");
    assert!(
        !nets.contains(&namespace(server, "net")),
        "a runner is in the server's network namespace"
    );
    let mount = namespace(launcher, "mnt");
    assert_ne!(
        mount,
        namespace(server, "mnt"),
        "the launcher has no mount namespace of its own"
    );
    for &r in &runners {
        assert_eq!(
            namespace(r, "mnt"),
            mount,
            "a runner left the launcher's mount namespace"
        );
    }
    runners
}

/// The most runners a `--jobs 2` server may keep: one running and one
/// cleaning up a slot, and one idle.
const RUNNERS_BOUND: usize = 5;

#[test]
fn the_server_starts_runs_from_its_launcher_and_gives_back_the_memory_of_sign_ins() {
    // The issue's 200 sign-ins, 8 an account (under the per-account burst).
    const CONTESTANTS: usize = 25;
    const SIGN_INS: usize = 200;
    let names: Vec<String> = (0..CONTESTANTS).map(|i| format!("c{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let server = Server::start(&refs, "", &["--jobs", "2", "--rate-address", "100000"]);
    let pid = server.child.id();
    assert!(
        children(pid).iter().any(|c| c == "mayan-launcher"),
        "the server has no launcher child: {:?}",
        children(pid)
    );
    // Sign-ins from four clients at once: argon2 takes 19 MiB per check,
    // on whichever of the runtime's blocking threads. Each client has
    // accounts of its own: two checks of one account at once would be
    // refused (one at a time per account), as a loaded machine let the
    // clients drift into.
    std::thread::scope(|s| {
        for t in 0..4 {
            let (server, names) = (&server, &names);
            s.spawn(move || {
                for _ in 0..SIGN_INS / CONTESTANTS {
                    for name in names.iter().skip(t).step_by(4) {
                        server.signed_in(name, &format!("{name}-pw"));
                    }
                }
            });
        }
    });
    if have("gcc") {
        let c = server.signed_in("c0", "c0-pw");
        let mut api = server.client();
        api.api_sign_in("c0", "c0-pw");
        let batch = || {
            let mut ids = Vec::new();
            for _ in 0..3 {
                let page = c.submit("solution.c", &accepted_c());
                ids.push(crate::serve_util::submission_number(&page));
            }
            for id in ids {
                let v = api.wait_judged(id, 600);
                assert_eq!(v["verdict"], "AC", "{v}");
            }
            check_runners(pid)
        };
        let first = batch();
        let second = batch();
        // Forked per run, no runner of the first batch would be left.
        assert!(
            first.iter().any(|r| second.contains(r)),
            "no runner was kept from one batch of runs to the next: {first:?}, then {second:?}"
        );
    }
    let rss = rss_kib(pid);
    assert!(
        rss < 128 * 1024,
        "the server holds {} MiB after {SIGN_INS} sign-ins (bound: 128 MiB)",
        rss / 1024
    );
}

#[test]
fn bench_measures_the_start_of_a_run_as_the_judge_grows() {
    let out = judge_within(600)
        .args(["bench", "--only", "launch", "--runs", "3", "--hold-mib", "64"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "through the launcher",
        "forked from the judge (before)",
        "a run's start with the judge holding 64 MiB, through the launcher",
    ] {
        assert!(stdout.contains(line), "no {line:?} in:\n{stdout}");
    }
    assert!(!stdout.contains("no launcher"), "{stdout}");
}

/// A judge that ends as commands do leaves no run cgroup behind: neither
/// its last runs' (removed after their answers) nor the one each idle
/// runner holds ready for its next run. Its exit lets the runners finish
/// (`launcher::stop`); killing them at once would leave those.
#[test]
fn a_judge_that_ends_leaves_no_run_cgroup_not_even_the_ones_its_runners_held_ready() {
    let judge = std::process::Command::new(env!("CARGO_BIN_EXE_mayan-judge"))
        .current_dir(crate::util::manifest())
        .args(["grade", "--quiet", "--jobs", "2", "--problem", "problems/mayan"])
        .arg("reference/mayan/accepted/solution.c")
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start the judge");
    let pid = judge.id();
    // Watched while it judges, so that the check below is not void.
    let mut seen = Vec::new();
    let mut judge = judge;
    while judge.try_wait().unwrap().is_none() {
        if seen.is_empty() {
            seen = run_cgroups(pid);
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert_eq!(judge.wait().unwrap().code(), Some(0), "the judge failed");
    let left = run_cgroups(pid);
    assert!(
        left.is_empty(),
        "the judge ended, its run cgroups stayed: {left:?}"
    );
    if std::path::Path::new("/sys/fs/cgroup/pids").is_dir() {
        assert!(
            !seen.is_empty(),
            "no run cgroup seen while it judged; the check is void"
        );
    }
}

/// A C program that answers `-1` (the answer of `secret/2` and `secret/4`)
/// when its affinity mask holds one core, and otherwise exits with the
/// number of cores in it.
const SAYS_ITS_CORES: &str = r#"#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
int main(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 99;
    int n = CPU_COUNT(&set);
    if (n == 1) { puts("-1"); return 0; }
    return n > 100 ? 100 : n;
}
"#;

/// Grades [`SAYS_ITS_CORES`] on the two tests with `--jobs JOBS`, `pin`
/// as `MAYAN_JUDGE_PIN` (`None`: unset); each test's verdict and reason.
fn cores_seen(dir: &std::path::Path, jobs: &str, pin: Option<&str>) -> Vec<String> {
    let src = crate::util::write_in(dir, "cores.c", SAYS_ITS_CORES);
    let json = dir.join(format!("cores-{jobs}-{}.json", pin.unwrap_or("unset")));
    let mut cmd = judge_within(300);
    cmd.args([
        "grade",
        "--quiet",
        "--tests",
        "secret/[24]",
        "--jobs",
        jobs,
        "--json",
    ])
    .arg(&json)
    .arg(&src)
    .env_remove("MAYAN_JUDGE_PIN");
    if let Some(pin) = pin {
        cmd.env("MAYAN_JUDGE_PIN", pin);
    }
    let out = cmd.output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap_or_default())
        .unwrap_or_else(|_| panic!("no report; stderr: {}", String::from_utf8_lossy(&out.stderr)));
    report["submissions"][0]["tests"]
        .as_array()
        .expect("the tests of the submission")
        .iter()
        .map(|t| format!("{} {}", t["verdict"].as_str().unwrap_or("?"), t["reason"]))
        .collect()
}

/// With a slot for every core, each slot is on a core of its own, and a
/// run started through the launcher is on its slot's core (the runner
/// takes the mask of the judge's thread that asks, as a fork from that
/// thread would). With fewer slots than cores, or `MAYAN_JUDGE_PIN=0`,
/// the run has the judge's whole mask.
#[test]
fn with_a_slot_per_core_each_run_is_on_its_slots_core() {
    if !have("gcc") {
        return;
    }
    // Placed only with a slot for every core of the mask: not on one core,
    // nor under a cgroup quota below the mask (`doctor` says which).
    let doctor = judge_within(120)
        .env_remove("MAYAN_JUDGE_PIN")
        .arg("doctor")
        .output()
        .unwrap();
    let doctor = String::from_utf8_lossy(&doctor.stdout).into_owned();
    let Some(cores) = doctor.lines().find(|l| l.contains("judging cores")) else {
        panic!("doctor names no judging cores:\n{doctor}")
    };
    if !cores.contains("each slot on a core of its own") {
        crate::util::skip(&format!(
            "the judge places no slot on this machine: {}",
            cores.trim()
        ));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let pinned = cores_seen(dir.path(), "auto", None);
    assert!(
        pinned.iter().all(|v| v.starts_with("AC")),
        "--jobs auto ({}): every run on one core, got {pinned:?}",
        cores.trim()
    );
    for (jobs, pin) in [("1", None), ("auto", Some("0"))] {
        let spread = cores_seen(dir.path(), jobs, pin);
        assert!(
            spread.iter().all(|v| !v.starts_with("AC")),
            "--jobs {jobs}, MAYAN_JUDGE_PIN={pin:?}: every run on the whole mask, got {spread:?}"
        );
    }
}

/// What a judge keeps for its runs at one moment: the launcher's runners,
/// its run cgroups (all hierarchies together) and the work folders on the
/// launcher's tmpfs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Kept {
    runners: usize,
    cgroups: usize,
    folders: usize,
}

impl Kept {
    /// What judge `pid` keeps now (`None`: it has no launcher yet).
    fn of(pid: u32) -> Option<Kept> {
        let (launcher, _) = child_processes(pid)
            .into_iter()
            .find(|(_, name)| name == "mayan-launcher")?;
        let runners = children(launcher)
            .iter()
            .filter(|name| *name == "mayan-launcher")
            .count();
        // The launcher's tmpfs for runs is in its own mount namespace.
        let runs = std::env::temp_dir().join(format!("mayan-judge-{pid}-runs"));
        let inside =
            std::path::Path::new(&format!("/proc/{launcher}/root")).join(runs.strip_prefix("/").ok()?);
        let folders = std::fs::read_dir(inside).map_or(0, |d| d.count());
        Some(Kept {
            runners,
            cgroups: run_cgroups(pid).len(),
            folders,
        })
    }

    fn max(self, other: Kept) -> Kept {
        Kept {
            runners: self.runners.max(other.runners),
            cgroups: self.cgroups.max(other.cgroups),
            folders: self.folders.max(other.folders),
        }
    }
}

/// The cgroup hierarchies a run's group is made in (v1: memory, pids,
/// cpuacct; v2: one).
fn hierarchies() -> usize {
    if std::path::Path::new("/sys/fs/cgroup/memory").is_dir() {
        ["memory", "pids", "cpuacct"]
            .iter()
            .filter(|h| std::path::Path::new("/sys/fs/cgroup").join(h).is_dir())
            .count()
    } else {
        1
    }
}

/// A steady class on two slots: accepted programs (each a new source, so
/// each is compiled), a compile error, a crash, a time-out, a wrong answer
/// and a Python program, on the eight numbered tests (some 130 runs and
/// compilations; the time-out alone holds a slot for half a minute). What
/// the judge keeps, sampled every 20 ms while it judges, never passes a
/// bound set by its slots: two runners a slot (one running, one cleaning
/// up after the run before) and one idle, one cgroup each in every
/// hierarchy, one work folder each. Unbounded, runners were forked
/// whenever none was idle and never ended: 15 kept, 19 groups per
/// hierarchy, for two slots.
#[test]
fn a_steady_class_keeps_runners_cgroups_and_folders_bounded_by_its_slots() {
    if !have("gcc") || !std::path::Path::new("/sys/fs/cgroup").is_dir() {
        eprintln!("SKIP: needs gcc and cgroups");
        return;
    }
    const SLOTS: usize = 2;
    let dir = tempfile::tempdir().unwrap();
    let accepted =
        std::fs::read_to_string(crate::util::manifest().join("reference/mayan/accepted/solution.c")).unwrap();
    let mut class = Vec::new();
    for i in 0..8 {
        let path = dir.path().join(format!("accepted{i}.c"));
        std::fs::write(&path, format!("/* contestant {i} */\n{accepted}")).unwrap();
        class.push(path);
    }
    for (name, code) in [
        ("compile_error.c", "int main(void) { return x; }\n"),
        ("crash.c", "int main(void) { volatile int *p = 0; return *p; }\n"),
        ("time_out.c", "int main(void) { for (;;) {} }\n"),
        (
            "wrong.c",
            "#include <stdio.h>\nint main(void) { puts(\"-1\"); return 0; }\n",
        ),
        ("wrong.py", "print(-1)\n"),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, code).unwrap();
        class.push(path);
    }
    let mut judge = std::process::Command::new(env!("CARGO_BIN_EXE_mayan-judge"))
        .current_dir(crate::util::manifest())
        .env("MAYAN_JUDGE_CACHE", dir.path().join("cache"))
        .args([
            "grade",
            "--quiet",
            "--jobs",
            &SLOTS.to_string(),
            "--tests",
            "secret/?",
        ])
        .args(["--problem", "problems/mayan", "--retry-tle", "0"])
        .args(&class)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("start the judge");
    let pid = judge.id();
    let mut samples = Vec::new();
    let start = std::time::Instant::now();
    while judge.try_wait().unwrap().is_none() {
        if let Some(kept) = Kept::of(pid) {
            samples.push(kept);
        }
        assert!(start.elapsed().as_secs() < 300, "the class took over 5 minutes");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        judge.wait().unwrap().code() == Some(1),
        "the judge failed (not 1: some verdict not AC)"
    );
    let runners = 2 * SLOTS + 1;
    let bound = Kept {
        runners,
        cgroups: runners * hierarchies(),
        folders: runners,
    };
    let half = samples.len() / 2;
    let most = |part: &[Kept]| part.iter().copied().fold(Kept::default(), Kept::max);
    let (first, second) = (most(&samples[..half]), most(&samples[half..]));
    assert!(samples.len() > 100, "too few samples: {}", samples.len());
    let over = first.max(second);
    assert!(
        over.runners <= bound.runners && over.cgroups <= bound.cgroups && over.folders <= bound.folders,
        "with {SLOTS} slots the judge kept more than {bound:?}: {first:?} in the first half of the class, {second:?} in the second"
    );
}

/// Every process below `pid` (its children, theirs, ...); one that ends
/// while they are counted counts as none.
fn descendants(pid: u32) -> usize {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .flat_map(|task| {
            let kids = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            kids.split_whitespace()
                .filter_map(|k| k.parse::<u32>().ok())
                .collect::<Vec<_>>()
        })
        .map(|kid| 1 + descendants(kid))
        .sum()
}

/// How long the soak below runs, seconds: `MAYAN_JUDGE_SOAK_SECS`, else
/// five minutes.
fn soak_secs() -> u64 {
    std::env::var("MAYAN_JUDGE_SOAK_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300)
}

/// A server with two slots judging a class for minutes (six contestants,
/// each submitting again as soon as the last one is judged: accepted
/// programs, each a new source, compile errors, crashes, wrong answers in
/// C and Python; the counterexample search on), sampled every 100 ms: its
/// runners, run cgroups and work folders never pass the bound its slots
/// set, in the first half of the time or the second, nor do the
/// processes below it; and once the class stops, it keeps no more than
/// that. `.ci/run` runs it (`cargo test -- --ignored`).
#[test]
#[ignore = "runs a class on a server for 5 minutes (MAYAN_JUDGE_SOAK_SECS): .ci/run runs it with cargo test -- --ignored"]
fn a_server_judging_a_class_for_minutes_keeps_what_it_holds_bounded_by_its_slots() {
    if !have("gcc") || !have("python3") || !std::path::Path::new("/sys/fs/cgroup").is_dir() {
        return;
    }
    const SLOTS: usize = 2;
    let names = ["c1", "c2", "c3", "c4", "c5", "c6"];
    let server = Server::start(&names, "", &["--jobs", "2", "--rate-submit", "1000"]);
    let pid = server.child.id();
    let accepted = accepted_c();
    let mix = |round: usize, who: usize| -> (&'static str, String) {
        match (round + who) % 6 {
            0 | 1 => ("mayan.c", format!("/* {who} {round} */\n{accepted}")),
            2 => ("mayan.c", format!("int main(void) {{ return x{round}; }}\n")),
            3 => (
                "mayan.c",
                format!("int main(void) {{ volatile int *p = 0; return *p + {round}; }}\n"),
            ),
            4 => (
                "mayan.c",
                format!("#include <stdio.h>\nint main(void) {{ puts(\"-{round}\"); return 0; }}\n"),
            ),
            _ => ("mayan.py", format!("print(-{round})\n")),
        }
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(soak_secs());
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (samples, judged) = std::thread::scope(|s| {
        let sampler = s.spawn(|| {
            let mut samples = Vec::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                if let Some(kept) = Kept::of(pid) {
                    samples.push((kept, descendants(pid)));
                }
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            samples
        });
        let class: Vec<_> = names
            .iter()
            .enumerate()
            .map(|(who, name)| {
                let (server, deadline) = (&server, deadline);
                s.spawn(move || {
                    let web = server.contestant(name);
                    let mut api = server.client();
                    api.api_sign_in(name, &format!("{name}-pw"));
                    let mut judged = 0;
                    for round in 0.. {
                        if std::time::Instant::now() >= deadline {
                            break;
                        }
                        let (file, code) = mix(round, who);
                        let id = crate::serve_util::submission_number(&web.submit(file, &code));
                        api.wait_judged(id, 600);
                        judged += 1;
                    }
                    judged
                })
            })
            .collect();
        let judged: usize = class.into_iter().map(|c| c.join().unwrap()).sum();
        // Quiet for a while: what it keeps once the class stops.
        std::thread::sleep(std::time::Duration::from_secs(5));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (sampler.join().unwrap(), judged)
    });
    let runners = 2 * SLOTS + 1;
    let bound = Kept {
        runners,
        cgroups: runners * hierarchies(),
        folders: runners,
    };
    // The launcher, its runners, and in each slot a run's init with a
    // compiler's few processes (driver, compiler proper, assembler, linker).
    let processes = 1 + runners + SLOTS * 6;
    assert!(samples.len() > 100, "too few samples: {}", samples.len());
    assert!(judged >= names.len() * 3, "only {judged} submissions judged");
    let half = samples.len() / 2;
    let most = |part: &[(Kept, usize)]| {
        part.iter().fold((Kept::default(), 0), |(k, p), (kept, procs)| {
            (k.max(*kept), p.max(*procs))
        })
    };
    let (first, second) = (most(&samples[..half]), most(&samples[half..]));
    for (when, (kept, procs)) in [("first half", first), ("second half", second)] {
        assert!(
            kept.runners <= bound.runners && kept.cgroups <= bound.cgroups && kept.folders <= bound.folders,
            "with {SLOTS} slots the server kept {kept:?} in the {when} of {judged} submissions, over {bound:?}"
        );
        assert!(
            procs <= processes,
            "{procs} processes below the server in the {when}, over {processes}"
        );
    }
    let (at_rest, _) = samples.last().copied().unwrap();
    assert!(
        at_rest.runners <= bound.runners
            && at_rest.cgroups <= bound.cgroups
            && at_rest.folders <= bound.folders,
        "at rest the server keeps {at_rest:?}"
    );
}
