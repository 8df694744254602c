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
    /// The socket of the judge that asked for the run, in a launcher's
    /// runner: the run is killed (as at its wall limit) when the judge
    /// hangs it up, no longer wanting it (preempted idle work).
    pub(crate) asker: Option<std::os::fd::OwnedFd>,
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
    let mut s = Supervisor::new(w, start);
    loop {
        let now = Instant::now();
        if s.exited_at.is_none() {
            s.enforce_time_limits(now);
        } else if s.done_draining(now) {
            break;
        }
        let events = s.wait_for_events(now)?;
        s.read_output(&events);
        s.enforce_output_limit();
        if s.exited_at.is_none() && s.has_exited(&events) {
            s.exited_at = Some(Instant::now());
            // Whatever the program left behind dies with it.
            s.kill_all();
        }
    }
    s.finish()
}

/// What one wait for events saw.
struct Events {
    stdout: bool,
    stderr: bool,
    exited: bool,
}

/// The state of one supervised run, with one method per step of the loop.
struct Supervisor<'a> {
    pid: Pid,
    pid_str: String,
    pidfd: Option<std::os::fd::OwnedFd>,
    pipe_inodes: Vec<u64>,
    out: Pipe<ChildStdout>,
    err: Pipe<ChildStderr>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    chunk: Vec<u8>,
    /// None: a wall limit too large to represent, i.e. no wall limit.
    deadline: Option<Instant>,
    start: Instant,
    exited_at: Option<Instant>,
    killed: bool,
    output_exceeded: bool,
    killed_for_cpu: bool,
    killed_for_wall: bool,
    cpu_seen_ms: u64,
    hwm_seen_kib: u64,
    last_cpu_check: Instant,
    last_hunt: Option<Instant>,
    orphans: Vec<i32>,
    w: WatchLimits<'a>,
}

/// The parts of [`Watch`] the loop keeps reading.
struct WatchLimits<'a> {
    cgroup: Option<&'a RunCgroup>,
    cpu_limit_ms: u64,
    stdout_cap: u64,
    stderr_keep: usize,
    output_limit: u64,
    clk_tck: u64,
    escapee_uid: Option<u32>,
    workdir: &'a Path,
    reap_orphans: bool,
    sample_hwm: bool,
    asker: Option<std::os::fd::OwnedFd>,
}

/// Whether the judge hung up `asker` (a poll that does not wait).
fn hung_up(asker: &std::os::fd::OwnedFd) -> bool {
    let mut fds = [PollFd::new(asker, PollFlags::empty())];
    let zero = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    matches!(poll(&mut fds, Some(&zero)), Ok(n) if n > 0)
        && fds[0].revents().intersects(PollFlags::HUP | PollFlags::ERR)
}

impl<'a> Supervisor<'a> {
    fn new(w: Watch<'a>, start: Instant) -> Supervisor<'a> {
        let pidfd = rustix::process::Pid::from_raw(w.pid)
            .and_then(|p| rustix::process::pidfd_open(p, rustix::process::PidfdFlags::empty()).ok());
        let pipe_inodes = [inode(&w.stdout), inode(&w.stderr)]
            .into_iter()
            .flatten()
            .collect();
        Supervisor {
            pid: Pid::from_raw(w.pid),
            pid_str: w.pid.to_string(),
            pidfd,
            pipe_inodes,
            out: Pipe {
                r: Some(w.stdout),
                total: 0,
            },
            err: Pipe {
                r: Some(w.stderr),
                total: 0,
            },
            stdout: Vec::new(),
            stderr: Vec::new(),
            chunk: vec![0u8; 64 * 1024],
            deadline: start.checked_add(w.wall_limit),
            start,
            exited_at: None,
            killed: false,
            output_exceeded: false,
            killed_for_cpu: false,
            killed_for_wall: false,
            cpu_seen_ms: 0,
            hwm_seen_kib: 0,
            last_cpu_check: start,
            last_hunt: None,
            orphans: Vec::new(),
            w: WatchLimits {
                cgroup: w.cgroup,
                cpu_limit_ms: w.cpu_limit_ms,
                stdout_cap: w.stdout_cap,
                stderr_keep: w.stderr_keep,
                output_limit: w.output_limit,
                clk_tck: w.clk_tck,
                escapee_uid: w.escapee_uid,
                workdir: w.workdir,
                reap_orphans: w.reap_orphans,
                sample_hwm: w.sample_hwm,
                asker: w.asker,
            },
        }
    }

    /// Kills the run's process group and cgroup. The group leader is either
    /// alive or an unreaped zombie here, so the group id still belongs to
    /// this run.
    fn kill_all(&self) {
        let _ = killpg(self.pid, Signal::SIGKILL);
        if let Some(cg) = self.w.cgroup {
            cg.kill_all();
        }
    }

    /// Kills at the wall deadline, and (every [`CPU_CHECK`]) at the CPU
    /// limit; samples CPU time and peak memory on the way.
    fn enforce_time_limits(&mut self, now: Instant) {
        if !self.killed && self.deadline.is_some_and(|d| now >= d) {
            self.killed_for_wall = true;
            self.killed = true;
            self.kill_all();
        }
        if self.killed || now.duration_since(self.last_cpu_check) < CPU_CHECK {
            return;
        }
        self.last_cpu_check = now;
        if self.w.asker.as_ref().is_some_and(hung_up) {
            self.killed_for_wall = true;
            self.killed = true;
            self.kill_all();
            return;
        }
        let used = self
            .w
            .cgroup
            .and_then(|cg| cg.cpu_ns().map(|ns| ns / 1_000_000))
            .or_else(|| procscan::cpu_ms(self.pid.as_raw(), self.w.clk_tck));
        // Post-exec peak RSS (rusage's maxrss can include the judge's RSS
        // inherited through fork; see `Sandbox::measure`).
        if let Some(k) = procscan::status_kib(&self.pid_str, "VmHWM").filter(|_| self.w.sample_hwm) {
            self.hwm_seen_kib = self.hwm_seen_kib.max(k);
        }
        if let Some(ms) = used {
            self.cpu_seen_ms = self.cpu_seen_ms.max(ms);
            if ms > self.w.cpu_limit_ms {
                self.killed_for_cpu = true;
                self.killed = true;
                self.kill_all();
            }
        }
    }

    /// After the exit: whether reading can stop (both pipes closed, or
    /// something we cannot kill holds them); without a cgroup, hunts for
    /// escaped holders of the pipes now and then.
    fn done_draining(&mut self, now: Instant) -> bool {
        let Some(t) = self.exited_at else { return false };
        if self.out.r.is_none() && self.err.r.is_none() {
            return true;
        }
        let since = now.duration_since(t);
        if since >= DRAIN_LIMIT {
            return true;
        }
        if self.w.cgroup.is_none()
            && since >= ESCAPEE_GRACE
            && self
                .last_hunt
                .is_none_or(|h| now.duration_since(h) >= Duration::from_millis(200))
            && let Some(uid) = self.w.escapee_uid
        {
            self.last_hunt = Some(now);
            self.orphans
                .extend(procscan::kill_escapees(uid, &self.pipe_inodes, self.w.workdir));
        }
        false
    }

    /// Sleeps until output, the child's exit, or the next check is due.
    fn wait_for_events(&self, now: Instant) -> io::Result<Events> {
        let mut timeout = if self.exited_at.is_some() || self.killed {
            Duration::from_millis(20)
        } else {
            self.deadline
                .map_or(CPU_CHECK, |d| CPU_CHECK.min(d.saturating_duration_since(now)))
        };
        if self.pidfd.is_none() && self.exited_at.is_none() {
            timeout = timeout.min(Duration::from_millis(2));
        }
        let ts = Timespec {
            tv_sec: timeout.as_secs() as _,
            tv_nsec: timeout.subsec_nanos() as _,
        };
        let mut fds: Vec<PollFd<'_>> = Vec::with_capacity(3);
        let mut idx = [usize::MAX; 3];
        if let Some(r) = self.out.r.as_ref() {
            idx[0] = fds.len();
            fds.push(PollFd::new(r, PollFlags::IN));
        }
        if let Some(r) = self.err.r.as_ref() {
            idx[1] = fds.len();
            fds.push(PollFd::new(r, PollFlags::IN));
        }
        if let (Some(p), None) = (self.pidfd.as_ref(), self.exited_at) {
            idx[2] = fds.len();
            fds.push(PollFd::new(p, PollFlags::IN));
        }
        match poll(&mut fds, Some(&ts)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        let ready = |i: usize| i != usize::MAX && !fds[i].revents().is_empty();
        Ok(Events {
            stdout: ready(idx[0]),
            stderr: ready(idx[1]),
            exited: ready(idx[2]),
        })
    }

    fn read_output(&mut self, events: &Events) {
        if events.stdout {
            self.out
                .read_into(&mut self.chunk, &mut self.stdout, self.w.stdout_cap);
        }
        if events.stderr {
            self.err
                .read_into(&mut self.chunk, &mut self.stderr, self.w.stderr_keep as u64);
        }
    }

    /// Stops the run once stdout or stderr passes its cap.
    fn enforce_output_limit(&mut self) {
        if !self.output_exceeded
            && (self.out.total > self.w.stdout_cap || self.err.total > self.w.output_limit)
        {
            self.output_exceeded = true;
            if !self.killed {
                self.killed = true;
                self.kill_all();
            }
        }
    }

    /// Whether the child has exited, without reaping it.
    fn has_exited(&self, events: &Events) -> bool {
        if self.pidfd.is_some() {
            return events.exited;
        }
        // No pidfd (kernel < 5.3): peek without reaping.
        use rustix::process::{WaitId, WaitIdOptions, waitid};
        rustix::process::Pid::from_raw(self.pid.as_raw()).is_none_or(|p| {
            !matches!(
                waitid(
                    WaitId::Pid(p),
                    WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT
                ),
                Ok(None)
            )
        })
    }

    /// Reaps the child, kills and reaps whatever is left, and returns what
    /// was observed.
    fn finish(mut self) -> io::Result<Observed> {
        let exited_at = self.exited_at.unwrap_or_else(Instant::now);
        if let Some(ns) = self.w.cgroup.and_then(RunCgroup::cpu_ns) {
            self.cpu_seen_ms = self.cpu_seen_ms.max(ns / 1_000_000);
        }
        let waited = wait4(self.pid);
        super::reaper::unregister(self.pid.as_raw());
        let (status, rusage) = waited?;
        self.reap_leftovers();
        Ok(Observed {
            status,
            rusage,
            wall: exited_at.duration_since(self.start),
            stdout: self.stdout,
            stderr: self.stderr,
            output_exceeded: self.output_exceeded,
            killed_for_cpu: self.killed_for_cpu,
            killed_for_wall: self.killed_for_wall,
            cpu_seen_ms: self.cpu_seen_ms,
            hwm_seen_kib: self.hwm_seen_kib,
        })
    }

    /// Kills whatever is left, then reaps what was re-parented to the judge.
    fn reap_leftovers(&mut self) {
        if let Some(cg) = self.w.cgroup {
            cg.kill_all_and_wait(Duration::from_secs(2));
            if self.w.reap_orphans {
                super::reaper::sweep_until(|| cg.all_released(), Duration::from_millis(500));
            }
            return;
        }
        if let Some(uid) = self.w.escapee_uid {
            self.orphans
                .extend(procscan::kill_escapees(uid, &self.pipe_inodes, self.w.workdir));
        }
        if self.w.reap_orphans {
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
            let (pid, orphans) = (self.pid, &self.orphans);
            super::reaper::sweep_until(
                || gone(pid, true) && orphans.iter().all(|&o| gone(Pid::from_raw(o), false)),
                Duration::from_millis(500),
            );
        }
    }
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
