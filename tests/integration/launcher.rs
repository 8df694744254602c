//! The launcher (`src/judge/sandbox/launcher.rs`): runs are started from a
//! small process made at start, not forked from the grown judge; the
//! server gives back the memory of sign-ins and judging. The attack suite
//! (`attacks.rs`) runs through the launcher, the binary's only path.

use crate::serve_util::{Server, accepted_c};
use crate::util::{have, judge_within};

/// The server's resident memory, KiB (`VmRSS` of `/proc/PID/status`).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no VmRSS in {status}"))
}

/// The names (`comm`) of a process's children.
fn children(pid: u32) -> Vec<String> {
    let mut names = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap().flatten() {
        let kids = std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
        for kid in kids.split_whitespace() {
            if let Ok(comm) = std::fs::read_to_string(format!("/proc/{kid}/comm")) {
                names.push(comm.trim().to_string());
            }
        }
    }
    names
}

#[test]
fn the_server_starts_runs_from_its_launcher_and_gives_back_the_memory_of_sign_ins() {
    const CONTESTANTS: usize = 12;
    const SIGN_INS: usize = 60;
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
    // on whichever of the runtime's blocking threads.
    std::thread::scope(|s| {
        for t in 0..4 {
            let (server, names) = (&server, &names);
            s.spawn(move || {
                for i in (t..SIGN_INS).step_by(4) {
                    let name = &names[i % CONTESTANTS];
                    server.signed_in(name, &format!("{name}-pw"));
                }
            });
        }
    });
    if have("gcc") {
        let c = server.signed_in("c0", "c0-pw");
        let mut ids = Vec::new();
        for _ in 0..3 {
            let page = c.submit("solution.c", &accepted_c());
            ids.push(crate::serve_util::submission_number(&page));
        }
        let mut api = server.client();
        api.api_sign_in("c0", "c0-pw");
        for id in ids {
            let v = api.wait_judged(id, 600);
            assert_eq!(v["verdict"], "AC", "{v}");
        }
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
