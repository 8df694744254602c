//! Reaping leftover processes of runs.
//!
//! When a run's main process dies, its remaining descendants (killed by
//! the sandbox, or exited on their own) are re-parented to the nearest
//! "child subreaper" ancestor, else to PID 1. Where PID 1 does not reap
//! (containers without an init, some VMs), they would stay zombies
//! forever; so the judge makes itself a subreaper (see
//! `SandboxOptions::reap_orphans`) and sweeps its zombie children after
//! every run.
//!
//! A sweep must never reap a child that someone else will `wait` for:
//! * main processes of runs in progress are registered in [`ACTIVE`]
//!   (under the same lock as the `spawn` that creates them, so a sweep in
//!   another thread cannot see one before it is registered);
//! * only zombies outside the judge's own session are reaped: every
//!   sandboxed process starts in a new session (`setsid`), whereas
//!   children that other judge code spawns with `std::process::Command`
//!   stay in the judge's session.

use std::fs;
use std::io;
use std::process::{Child, Command};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rustix::process::{Pid, WaitOptions, waitpid};

/// Main pids of runs being supervised (spawned, not yet reaped).
static ACTIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn active() -> std::sync::MutexGuard<'static, Vec<i32>> {
    // A panic elsewhere cannot leave the Vec inconsistent.
    ACTIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Spawns `cmd` and registers the child as an active main process.
///
/// A program copied into its work folder moments ago can fail to start with
/// ETXTBSY ("text file busy"): while the copy was open for writing, another
/// thread forked, and that child holds the write descriptor until it execs a
/// moment later. So ETXTBSY is retried, briefly, as Go's runtime does.
pub(crate) fn spawn_registered(cmd: &mut Command) -> io::Result<Child> {
    let mut attempt = 0u64;
    loop {
        let mut guard = active();
        match cmd.spawn() {
            Ok(child) => {
                guard.push(child.id() as i32);
                return Ok(child);
            }
            Err(e) if e.raw_os_error() == Some(nix::libc::ETXTBSY) && attempt < 50 => {
                drop(guard);
                attempt += 1;
                std::thread::sleep(Duration::from_millis(2 * attempt));
            }
            Err(e) => return Err(e),
        }
    }
}

/// Unregisters a main process once it has been reaped.
pub(crate) fn unregister(pid: i32) {
    // One entry only: the pid may already belong to a newer run.
    let mut v = active();
    if let Some(i) = v.iter().position(|&p| p == pid) {
        v.swap_remove(i);
    }
}

/// Direct children of the judge (all threads).
fn children() -> Vec<i32> {
    let mut out = Vec::new();
    let mut found_file = false;
    if let Ok(tasks) = fs::read_dir("/proc/self/task") {
        for t in tasks.flatten() {
            if let Ok(s) = fs::read_to_string(t.path().join("children")) {
                found_file = true;
                out.extend(s.split_whitespace().filter_map(|p| p.parse::<i32>().ok()));
            }
        }
    }
    if !found_file {
        // Kernel without CONFIG_PROC_CHILDREN: scan every process's ppid.
        let me = std::process::id() as i32;
        for e in fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
                continue;
            };
            if stat_fields(pid).is_some_and(|f| f.ppid == me) {
                out.push(pid);
            }
        }
    }
    out
}

struct StatFields {
    state: char,
    ppid: i32,
    session: i32,
}

fn stat_fields(pid: i32) -> Option<StatFields> {
    let s = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let mut it = s[s.rfind(')')? + 1..].split_whitespace();
    let state = it.next()?.chars().next()?;
    let ppid = it.next()?.parse().ok()?;
    let _pgrp = it.next()?;
    let session = it.next()?.parse().ok()?;
    Some(StatFields { state, ppid, session })
}

/// Reaps every zombie child of the judge that is outside the judge's
/// session and not the main process of a run in progress.
pub(crate) fn sweep() {
    let Some(my_session) = stat_fields(std::process::id() as i32).map(|f| f.session) else {
        return;
    };
    let guard = active();
    for pid in children() {
        if guard.contains(&pid) {
            continue;
        }
        let Some(f) = stat_fields(pid) else { continue };
        if f.state == 'Z'
            && f.session != my_session
            && let Some(p) = Pid::from_raw(pid)
        {
            let _ = waitpid(Some(p), WaitOptions::NOHANG);
        }
    }
}

/// Sweeps until `done()` says every process of the run is gone, for at
/// most `timeout` (a process stuck in the kernel is left to a later sweep).
pub(crate) fn sweep_until(mut done: impl FnMut() -> bool, timeout: Duration) {
    let start = Instant::now();
    loop {
        sweep();
        if done() || start.elapsed() >= timeout {
            return;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[cfg(test)]
mod etxtbsy_tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_program_still_open_for_writing_is_started_once_it_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join("prog");
        let mut f = fs::File::create(&exe).unwrap();
        f.write_all(b"#!/bin/sh\nexit 0\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
        // Keep the write descriptor open for a moment, as a forked sibling
        // that has not exec'd yet would.
        let closer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            drop(f);
        });
        let mut child = spawn_registered(&mut Command::new(&exe)).expect("started after the retry");
        let pid = child.id() as i32;
        assert!(child.wait().unwrap().success());
        unregister(pid);
        closer.join().unwrap();
    }
}
