//! `/proc` scans used when no cgroup is available.
//!
//! Without a cgroup the judge cannot list "every process of this run". Two
//! best-effort substitutes live here: counting a user's tasks (so that
//! `RLIMIT_NPROC`, which is per user, can be set relative to what that user
//! already runs) and finding processes that escaped the run's process group
//! (`setsid`/`setpgid`) but still hold one of its pipes or sit in its work
//! directory.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// Whether a process `pid` exists (of any user: `EPERM` is an answer too),
/// so that a later judge leaves a live judge's runs alone and removes only
/// what a dead one left.
pub(crate) fn exists(pid: i32) -> bool {
    !matches!(kill(Pid::from_raw(pid), None), Err(nix::errno::Errno::ESRCH))
}

/// Pids listed in `/proc`, with the uid owning each.
fn processes() -> impl Iterator<Item = (i32, u32)> {
    fs::read_dir("/proc").into_iter().flatten().filter_map(|e| {
        let e = e.ok()?;
        let pid: i32 = e.file_name().to_str()?.parse().ok()?;
        let uid = e.metadata().ok()?.uid();
        Some((pid, uid))
    })
}

/// Number of tasks (threads count, as for `RLIMIT_NPROC`) owned by `uid`.
pub(crate) fn count_tasks(uid: u32) -> u64 {
    processes()
        .filter(|&(_, u)| u == uid)
        .map(|(pid, _)| {
            fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| {
                    // Field 20 (num_threads), counted after the ")" of comm.
                    let rest = &s[s.rfind(')')? + 1..];
                    rest.split_whitespace().nth(17)?.parse::<u64>().ok()
                })
                .unwrap_or(1)
        })
        .sum()
}

/// Kills processes owned by `uid` (other than the judge) that hold a pipe
/// with one of `pipe_inodes` or whose working directory is inside
/// `workdir`. Returns the pids killed.
pub(crate) fn kill_escapees(uid: u32, pipe_inodes: &[u64], workdir: &Path) -> Vec<i32> {
    let me = std::process::id() as i32;
    let exe_id = |p: &str| fs::metadata(p).ok().map(|m| (m.dev(), m.ino()));
    // A child another judge thread forked and has not exec'd yet is a copy
    // of the judge: it briefly holds every judge fd, including this run's
    // pipes. It runs the judge's executable; an escapee never does.
    let judge_exe = exe_id("/proc/self/exe");
    let pipes: Vec<String> = pipe_inodes.iter().map(|i| format!("pipe:[{i}]")).collect();
    let mut killed = Vec::new();
    for (pid, u) in processes() {
        if u != uid || pid == me {
            continue;
        }
        if judge_exe.is_some() && exe_id(&format!("/proc/{pid}/exe")) == judge_exe {
            continue;
        }
        let in_workdir = fs::read_link(format!("/proc/{pid}/cwd"))
            .map(|cwd| cwd.starts_with(workdir))
            .unwrap_or(false);
        let holds_pipe = !in_workdir
            && !pipes.is_empty()
            && fs::read_dir(format!("/proc/{pid}/fd"))
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .any(|fd| {
                    fs::read_link(fd.path())
                        .map(|t| pipes.iter().any(|p| t.as_os_str() == p.as_str()))
                        .unwrap_or(false)
                });
        if (in_workdir || holds_pipe) && kill(Pid::from_raw(pid), Signal::SIGKILL).is_ok() {
            killed.push(pid);
        }
    }
    killed
}

/// CPU time of `pid` and its reaped children, in ms, from `/proc/<pid>/stat`.
pub(crate) fn cpu_ms(pid: i32, clk_tck: u64) -> Option<u64> {
    let s = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &s[s.rfind(')')? + 1..];
    // After comm: state is field 3, utime..cstime are fields 14..=17.
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .filter_map(|v| v.parse::<u64>().ok())
        .sum();
    Some(ticks.saturating_mul(1000) / clk_tck.max(1))
}

/// A `kB` field (e.g. `VmHWM`, `VmRSS`) of `/proc/<pid>/status`.
pub(crate) fn status_kib(pid: &str, field: &str) -> Option<u64> {
    let s = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find_map(|l| {
        let v = l.strip_prefix(field)?.strip_prefix(':')?;
        v.trim().trim_end_matches("kB").trim().parse().ok()
    })
}

/// This process's resident memory in KiB (`VmRSS`), from
/// `/proc/self/statm`: a line of seven numbers, where `status` is fifty
/// formatted fields (read twice a run, on the way to its answer).
pub(crate) fn own_rss_kib() -> Option<u64> {
    let s = fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    let page = nix::unistd::sysconf(nix::unistd::SysconfVar::PAGE_SIZE).ok()??;
    Some(pages.saturating_mul(page as u64) / 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_own_tasks() {
        let uid = nix::unistd::getuid().as_raw();
        // At least this test thread's process.
        assert!(count_tasks(uid) >= 1);
        assert!(cpu_ms(std::process::id() as i32, 100).is_some());
        assert!(status_kib("self", "VmRSS").is_some_and(|k| k > 0));
        // The two ways of reading the resident size agree (it moves a little
        // between the reads).
        let (statm, status) = (own_rss_kib().unwrap(), status_kib("self", "VmRSS").unwrap());
        assert!(
            statm.abs_diff(status) < 1024,
            "statm {statm} KiB, status {status} KiB"
        );
        assert!(status_kib("self", "VmHWM").is_some_and(|k| k > 0));
    }
}
