//! The judge side of a run: watch the child, read its output, enforce the
//! time and output limits, kill everything at the end, and reap.
//!
//! One loop in the calling thread (no helper threads) polls the stdout and
//! stderr pipes and a pidfd of the child, waking at least every
//! [`CPU_CHECK`] to compare CPU usage against the limit and the clock
//! against the wall deadline. The child's exit is observed through the
//! pidfd *without reaping it*: while the zombie exists its pid cannot be
//! reused, so killing its process group afterwards cannot hit a stranger.

use std::io::{self, Read};
use std::os::fd::AsFd;
use std::path::Path;
use std::process::{ChildStderr, ChildStdout};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use rustix::event::{PollFd, PollFlags, Timespec, poll};

use super::cgroup::RunCgroup;
use super::procscan;

/// How often CPU usage is compared with the limit.
const CPU_CHECK: Duration = Duration::from_millis(10);
/// After the child exits, how long to wait for its pipes to close before
/// hunting for escaped holders (no-cgroup mode only).
const ESCAPEE_GRACE: Duration = Duration::from_millis(50);
/// After the child exits, how long to keep reading before giving up.
const DRAIN_LIMIT: Duration = Duration::from_secs(2);

/// What the supervisor needs to know about a started child.
pub(crate) struct Watch<'a> {
    pub(crate) pid: i32,
    pub(crate) stdout: ChildStdout,
    pub(crate) stderr: ChildStderr,
    pub(crate) cgroup: Option<&'a RunCgroup>,
    pub(crate) cpu_limit_ms: u64,
    pub(crate) wall_limit: Duration,
    pub(crate) stdout_cap: u64,
    pub(crate) stderr_keep: usize,
    pub(crate) output_limit: u64,
    pub(crate) clk_tck: u64,
    /// Without a cgroup: uid whose processes may be escapees of this run.
    pub(crate) escapee_uid: Option<u32>,
    pub(crate) workdir: &'a Path,
    /// Reap orphans of this run (the judge is a child subreaper).
    pub(crate) reap_orphans: bool,
    /// Sample the child's `VmHWM`: only when it is the program itself (a
    /// run's init is a fork of the judge that never execs, so its figure
    /// is the judge's).
    pub(crate) sample_hwm: bool,
}

/// Everything observed during a run.
#[derive(Debug)]
pub(crate) struct Observed {
    pub(crate) status: Ended,
    pub(crate) rusage: nix::libc::rusage,
    pub(crate) wall: Duration,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr: Vec<u8>,
    pub(crate) output_exceeded: bool,
    pub(crate) killed_for_cpu: bool,
    pub(crate) killed_for_wall: bool,
    /// Highest CPU figure seen from the cgroup or /proc while running, ms.
    pub(crate) cpu_seen_ms: u64,
    /// Highest `VmHWM` sampled from `/proc/<pid>/status` while running, KiB.
    pub(crate) hwm_seen_kib: u64,
}

/// One output pipe being drained.
struct Pipe<R> {
    r: Option<R>,
    total: u64,
}

impl<R: Read + AsFd> Pipe<R> {
    /// Reads once; appends up to `keep` bytes in total to `buf`.
    fn read_into(&mut self, chunk: &mut [u8], buf: &mut Vec<u8>, keep: u64) {
        let Some(r) = self.r.as_mut() else { return };
        match r.read(chunk) {
            Ok(0) => self.r = None,
            Ok(n) => {
                self.total += n as u64;
                let room = keep.saturating_sub(buf.len() as u64).min(n as u64) as usize;
                buf.extend_from_slice(&chunk[..room]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => self.r = None,
        }
    }
}

fn inode(fd: &impl AsFd) -> Option<u64> {
    nix::sys::stat::fstat(fd.as_fd()).ok().map(|s| s.st_ino)
}

/// Waits for the child while enforcing limits; see the module docs.
pub(crate) fn supervise(w: Watch<'_>, start: Instant) -> io::Result<Observed> {
    let pid = Pid::from_raw(w.pid);
    let pidfd = rustix::process::Pid::from_raw(w.pid)
        .and_then(|p| rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()).ok());
    let pipe_inodes: Vec<u64> = [inode(&w.stdout), inode(&w.stderr)]
        .into_iter()
        .flatten()
        .collect();
    let mut out = Pipe {
        r: Some(w.stdout),
        total: 0,
    };
    let mut err = Pipe {
        r: Some(w.stderr),
        total: 0,
    };
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];

    // None: a wall limit too large to represent, i.e. no wall limit.
    let deadline = start.checked_add(w.wall_limit);
    let mut exited_at: Option<Instant> = None;
    let mut killed = false;
    let (mut output_exceeded, mut killed_for_cpu, mut killed_for_wall) = (false, false, false);
    let mut cpu_seen_ms = 0u64;
    let mut hwm_seen_kib = 0u64;
    let pid_str = w.pid.to_string();
    let mut last_cpu_check = start;
    let mut last_hunt: Option<Instant> = None;
    let mut orphans: Vec<i32> = Vec::new();

    let kill_all = |cg: Option<&RunCgroup>| {
        // The group leader is either alive or an unreaped zombie here, so
        // the group id still belongs to this run.
        let _ = killpg(pid, Signal::SIGKILL);
        if let Some(cg) = cg {
            cg.kill_all();
        }
    };

    loop {
        let now = Instant::now();
        if exited_at.is_none() {
            if !killed && deadline.is_some_and(|d| now >= d) {
                killed_for_wall = true;
                killed = true;
                kill_all(w.cgroup);
            }
            if !killed && now.duration_since(last_cpu_check) >= CPU_CHECK {
                last_cpu_check = now;
                let used = match w.cgroup {
                    Some(cg) => cg.cpu_ns().map(|ns| ns / 1_000_000),
                    None => None,
                }
                .or_else(|| procscan::cpu_ms(w.pid, w.clk_tck));
                // Post-exec peak RSS (rusage's maxrss can include the judge's
                // RSS inherited through fork; see `Sandbox::execute_in`).
                if let Some(k) = procscan::status_kib(&pid_str, "VmHWM").filter(|_| w.sample_hwm) {
                    hwm_seen_kib = hwm_seen_kib.max(k);
                }
                if let Some(ms) = used {
                    cpu_seen_ms = cpu_seen_ms.max(ms);
                    if ms > w.cpu_limit_ms {
                        killed_for_cpu = true;
                        killed = true;
                        kill_all(w.cgroup);
                    }
                }
            }
        }
        if let Some(t) = exited_at {
            if out.r.is_none() && err.r.is_none() {
                break;
            }
            let since = now.duration_since(t);
            if since >= DRAIN_LIMIT {
                break; // something we cannot kill holds the pipes; stop reading
            }
            if w.cgroup.is_none()
                && since >= ESCAPEE_GRACE
                && last_hunt.is_none_or(|h| now.duration_since(h) >= Duration::from_millis(200))
                && let Some(uid) = w.escapee_uid
            {
                last_hunt = Some(now);
                orphans.extend(procscan::kill_escapees(uid, &pipe_inodes, w.workdir));
            }
        }

        // Sleep until something happens or the next check is due.
        let mut timeout = if exited_at.is_some() || killed {
            Duration::from_millis(20)
        } else {
            deadline.map_or(CPU_CHECK, |d| CPU_CHECK.min(d.saturating_duration_since(now)))
        };
        if pidfd.is_none() && exited_at.is_none() {
            timeout = timeout.min(Duration::from_millis(2));
        }
        let ts = Timespec {
            tv_sec: timeout.as_secs() as _,
            tv_nsec: timeout.subsec_nanos() as _,
        };
        let (out_ready, err_ready, exited_now) = {
            let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(3);
            let mut idx = [usize::MAX; 3];
            if let Some(r) = out.r.as_ref() {
                idx[0] = fds.len();
                fds.push(PollFd::new(r, PollFlags::IN));
            }
            if let Some(r) = err.r.as_ref() {
                idx[1] = fds.len();
                fds.push(PollFd::new(r, PollFlags::IN));
            }
            if let (Some(p), None) = (pidfd.as_ref(), exited_at) {
                idx[2] = fds.len();
                fds.push(PollFd::new(p, PollFlags::IN));
            }
            match poll(&mut fds, Some(&ts)) {
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
            let ready = |i: usize| i != usize::MAX && !fds[i].revents().is_empty();
            (ready(idx[0]), ready(idx[1]), ready(idx[2]))
        };
        if out_ready {
            out.read_into(&mut chunk, &mut stdout, w.stdout_cap);
        }
        if err_ready {
            err.read_into(&mut chunk, &mut stderr, w.stderr_keep as u64);
        }
        if !output_exceeded && (out.total > w.stdout_cap || err.total > w.output_limit) {
            output_exceeded = true;
            if !killed {
                killed = true;
                kill_all(w.cgroup);
            }
        }
        if exited_at.is_none() {
            let exited = if pidfd.is_some() {
                exited_now
            } else {
                // No pidfd (kernel < 5.3): peek without reaping.
                use rustix::process::{WaitId, WaitIdOptions, waitid};
                rustix::process::Pid::from_raw(w.pid).is_none_or(|p| {
                    !matches!(
                        waitid(
                            WaitId::Pid(p),
                            WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT
                        ),
                        Ok(None)
                    )
                })
            };
            if exited {
                exited_at = Some(Instant::now());
                // Whatever the program left behind dies with it.
                kill_all(w.cgroup);
            }
        }
    }
    let exited_at = exited_at.unwrap_or_else(Instant::now);
    if let Some(ns) = w.cgroup.and_then(RunCgroup::cpu_ns) {
        cpu_seen_ms = cpu_seen_ms.max(ns / 1_000_000);
    }
    let waited = wait4(pid);
    super::reaper::unregister(w.pid);
    let (status, rusage) = waited?;
    // Kill whatever is left, then reap what was re-parented to the judge.
    if let Some(cg) = w.cgroup {
        cg.kill_all_and_wait(Duration::from_secs(2));
        if w.reap_orphans {
            super::reaper::sweep_until(|| cg.all_released(), Duration::from_millis(500));
        }
    } else {
        if let Some(uid) = w.escapee_uid {
            orphans.extend(procscan::kill_escapees(uid, &pipe_inodes, w.workdir));
        }
        if w.reap_orphans {
            // Gone = the group and every escapee killed no longer exist
            // (zombies still do, until a sweep reaps them).
            let gone = |p: Pid, group: bool| {
                let r = if group {
                    killpg(p, None)
                } else {
                    nix::sys::signal::kill(p, None)
                };
                r == Err(nix::errno::Errno::ESRCH)
            };
            super::reaper::sweep_until(
                || gone(pid, true) && orphans.iter().all(|&o| gone(Pid::from_raw(o), false)),
                Duration::from_millis(500),
            );
        }
    }
    Ok(Observed {
        status,
        rusage,
        wall: exited_at.duration_since(start),
        stdout,
        stderr,
        output_exceeded,
        killed_for_cpu,
        killed_for_wall,
        cpu_seen_ms,
        hwm_seen_kib,
    })
}

/// How the main process ended, decoded from a raw wait status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ended {
    /// Exit code.
    Exited(i32),
    /// Terminating signal number (any, including real-time ones).
    Signaled(i32),
}

/// `wait4(pid)`: reaps the child and returns how it ended and its resource
/// usage (its own, plus that of the descendants it waited for).
///
/// Neither nix nor rustix wraps `wait4`, and `getrusage(RUSAGE_CHILDREN)`
/// would mix in every other child of the judge (parallel runs), so this is
/// the one direct libc call outside the child setup.
fn wait4(pid: Pid) -> io::Result<(Ended, nix::libc::rusage)> {
    use nix::libc;
    let mut raw = 0;
    // SAFETY: rusage is plain old data; all-zero is a valid value.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both pointers are to live, writable locals.
        let r = unsafe { libc::wait4(pid.as_raw(), &mut raw, libc::__WALL, &mut ru) };
        if r == pid.as_raw() {
            break;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    Ok((decode_status(raw), ru))
}

/// Decodes a raw wait status (without WUNTRACED/WCONTINUED only "exited"
/// and "signaled" can occur).
pub(crate) fn decode_status(raw: i32) -> Ended {
    use nix::libc;
    if libc::WIFSIGNALED(raw) {
        Ended::Signaled(libc::WTERMSIG(raw))
    } else {
        Ended::Exited(libc::WEXITSTATUS(raw))
    }
}
