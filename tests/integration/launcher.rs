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
    // outlast a few quick runs: 7 were seen in `.ci/run`), plus one idle:
    // how many depends on the machine's load, so the bound is only far
    // below one kept per run (a batch is three submissions, each a
    // compilation and every test: some 96 runs). That they are kept at
    // all is the caller's check, across two batches.
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

/// The most runners a `--jobs 2` server may keep after a batch: a quarter
/// of one batch's runs.
const RUNNERS_BOUND: usize = 24;

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
