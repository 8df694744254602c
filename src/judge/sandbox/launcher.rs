//! The launcher: the small process every run is started from.
//!
//! `fork` copies the page tables of the process that calls it, so starting
//! a run from the judge costs more the more the judge holds: a server that
//! has grown to hundreds of MiB (its web runtime, its database, argon2's
//! buffers, the solver's tables) and runs many threads paid for it on every
//! run and every compilation. So, as Chromium's and Android's zygotes do,
//! the judge forks one launcher in `main`, right after
//! [`super::host::prepare`] and before anything else grows it ([`start`]):
//! a copy of the judge while it is still one small thread, in its
//! cgroup and (rootless) its user namespace.
//!
//! Each run is a request over a `SOCK_SEQPACKET` socket pair: the judge
//! makes a fresh socket pair for the run and passes one end over the
//! control socket (`SCM_RIGHTS`), where an idle *runner* takes it. Runners
//! are copies of the small launcher, forked by it (so the fork is cheap
//! whatever the judge holds) and kept: the launcher forks one more
//! whenever none is idle, so there are as many as runs at once (and
//! runs being cleaned up), plus one, up to two for each slot of the
//! judge's pools and one ([`runner_cap`]): what a long-running server
//! keeps (runners, each with its spare cgroup, network namespace and
//! prepared roots, one per set of a language's folders) is bounded by its
//! slots and languages, not by how often cleanups lagged.
//! A runner reads the request on its end (the sandbox as the judge
//! detected it, and the [`RunSpec`]), carries the run out exactly as the
//! sandbox does in-process (`Sandbox::run_here`: box lease, work folder,
//! cgroup, the run's init forked into new namespaces, supervision,
//! cleanup), writes the result back and waits for the next (the
//! cleanup after the answer: `Sandbox::run_leaving_cleanup`). One runner
//! carries out one run at a time; after each it makes the next run's
//! network namespace, so that no run's namespace is made on the way to
//! its answer and none serves two runs ([`fresh_network`]).
//! The launcher never parses anything; it holds no state but the seccomp
//! filters, built once, and the count of idle runners.
//!
//! No run outlives the judge: the launcher dies with the judge's main
//! thread (parent-death signal; also when its socket closes), each runner
//! with the launcher, and each run's init with its runner's thread
//! (`child.rs`), which takes the whole run with it. Runners are reaped by
//! the kernel (the launcher ignores `SIGCHLD`). Between runs a runner
//! holds one empty cgroup ready for its next run: the last run's own,
//! emptied and its counters reset, or a new one (`CgroupSupport::prepare_spare`). At the judge's exit
//! the launcher ends first ([`stop`], an `atexit` handler registered after
//! the cgroup leaf's undo, so it runs before it): the judge closes the
//! control socket, each runner finishes its cleanup, removes its spare
//! cgroup and ends, and the launcher ends once none is left; what has not
//! ended within half a second is killed. A run's work folder and cgroups
//! are still named by the judge's pid ([`super::owner::owner_pid`]), so the next judge's
//! start removes what a killed one left, as before.
//!
//! A program that uses the library without [`start`] (the library's own
//! tests) runs each run in-process, as before; the binary starts the
//! launcher for every command that runs programs, and fails without it.

use std::io::{self, Read};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use nix::unistd::{Gid, Uid};
use rustix::net::{AddressFamily, RecvFlags, SendFlags, SocketFlags, SocketType};
use serde::{Deserialize, Serialize};

use super::cgroup::CgroupSupport;
use super::{
    Cleanup, Limits, Protections, RunResult, RunSpec, Sandbox, SandboxError, Status, fdpass, seccomp,
};
use crate::judge::pool::{most_slots, set_thread_cores, thread_cores};

/// The judge's end of the launcher.
#[derive(Debug)]
struct Launcher {
    /// The control socket: one message (one byte and a descriptor) per run.
    control: OwnedFd,
    /// The launcher's pid.
    pid: i32,
}

static LAUNCHER: OnceLock<Launcher> = OnceLock::new();

/// How many runs the judge asks for at once (its pools' slots), in a page
/// that the judge, the launcher and its runners share (mapped before the
/// launcher's fork): the judge writes it with each request, the launcher
/// reads it to bound its runners ([`runner_cap`]).
static ASKERS: OnceLock<&'static AtomicUsize> = OnceLock::new();

/// Maps [`ASKERS`]'s shared page (before the launcher's fork, so that
/// both sides see the same one).
fn share_askers() -> io::Result<()> {
    if ASKERS.get().is_some() {
        return Ok(());
    }
    // SAFETY: a fresh anonymous mapping of one page, never unmapped: an
    // `AtomicUsize` at its start is valid (zeroed) and lives for ever.
    use nix::libc;
    let page = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            4096,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_SHARED | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if page == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above; the page is aligned.
    let askers = unsafe { &*page.cast::<AtomicUsize>() };
    let _ = ASKERS.set(askers);
    Ok(())
}

/// The most runners the launcher keeps for `askers` runs asked at once:
/// one running and one cleaning up after the run before for each, and one
/// idle. A request past that waits for a runner's cleanup (and `serve`,
/// in a ten-minute class, once kept 27 runners, each with its cgroup, for
/// 8 slots' worth of runs).
fn runner_cap(askers: usize) -> usize {
    2 * askers.max(1) + 1
}

/// Forks the launcher. Call once, while the judge is a single thread
/// (first thing in `main`, after [`super::host::prepare`]); later calls
/// do nothing.
pub fn start() -> io::Result<()> {
    if LAUNCHER.get().is_some() {
        return Ok(());
    }
    share_askers()?;
    let (judge_end, launcher_end) = rustix::net::socketpair(
        AddressFamily::UNIX,
        SocketType::SEQPACKET,
        SocketFlags::CLOEXEC,
        None,
    )?;
    let judge = std::process::id() as i32;
    // SAFETY: the caller is single-threaded (see above), so the child may
    // run any code; it never returns from `serve`.
    match unsafe { nix::unistd::fork() }? {
        nix::unistd::ForkResult::Child => {
            drop(judge_end);
            serve(launcher_end, judge)
        }
        nix::unistd::ForkResult::Parent { child } => {
            drop(launcher_end);
            let _ = LAUNCHER.set(Launcher {
                control: judge_end,
                pid: child.as_raw(),
            });
            extern "C" fn at_exit() {
                stop();
            }
            // SAFETY: registers a plain function; it runs at exit().
            unsafe { nix::libc::atexit(at_exit) };
            Ok(())
        }
    }
}

/// The launcher's pid, once started.
pub fn pid() -> Option<i32> {
    LAUNCHER.get().map(|l| l.pid)
}

/// How long the judge's exit waits for its runners to finish their
/// cleanups before it kills them (an idle runner needs a millisecond; one
/// still carrying out a run is killed, and the next judge's start removes
/// what it leaves).
const STOP_GRACE: std::time::Duration = std::time::Duration::from_millis(500);

/// Ends the launcher and reaps it, then removes its folder for runs (empty
/// here: its tmpfs was the launcher's). Called at exit. Closing the
/// control socket lets every runner finish its cleanup (its run's cgroup,
/// its spare one) and end, and the launcher after them; what has not ended
/// within [`STOP_GRACE`] is killed (the runners die with the launcher).
pub fn stop() {
    if let Some(l) = LAUNCHER.get() {
        let pid = nix::unistd::Pid::from_raw(l.pid);
        let _ = rustix::net::shutdown(&l.control, rustix::net::Shutdown::Both);
        if !ended_within(pid, STOP_GRACE) {
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
            let _ = nix::sys::wait::waitpid(pid, None);
        }
        let _ = std::fs::remove_dir(super::owner::launcher_root_path(std::process::id()));
    }
}

/// Whether the child `pid` ended (and was reaped) within `grace`.
fn ended_within(pid: nix::unistd::Pid, grace: std::time::Duration) -> bool {
    use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
    let start = std::time::Instant::now();
    loop {
        match waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::StillAlive) | Err(nix::errno::Errno::EINTR) => {}
            Ok(_) => return true,
            Err(_) => return false,
        }
        if start.elapsed() >= grace {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// In a launcher and its runners: the folder on a tmpfs of the launcher's
/// own where runs' folders go (see [`private_work_root`]).
static WORK_ROOT: OnceLock<PathBuf> = OnceLock::new();

/// Where a runner makes its runs' folders when the judge named no place:
/// the launcher's tmpfs, when it has one.
pub(crate) fn work_root() -> Option<&'static std::path::Path> {
    WORK_ROOT.get().map(PathBuf::as_path)
}

/// Gives the launcher (and so its runners) a mount namespace of its own,
/// where a tmpfs is mounted on its folder for runs
/// ([`super::owner::launcher_root`]): a run's folders, its stdin file
/// and the mount point of its root are then made and removed in memory,
/// not in the host's temp dir (on ext4, three `mkdir`, an `unlink` and
/// three `rmdir` a run cost a tenth of it). Host mounts still reach the
/// launcher (`MS_SLAVE`); its own reach nobody, and go with it, however
/// it ends. Where the launcher may not mount (no isolation), runs' folders
/// stay in the temp dir.
fn private_work_root(judge: u32) {
    use nix::mount::{MsFlags, mount};
    let Ok(dir) = super::owner::launcher_root(judge) else {
        return;
    };
    // SAFETY: the launcher is single-threaded here.
    if unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWNS) }.is_err() {
        let _ = std::fs::remove_dir(&dir);
        return;
    }
    let private = mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_SLAVE,
        None::<&str>,
    )
    .and_then(|()| {
        mount(
            Some("mayan-judge-runs"),
            &dir,
            Some("tmpfs"),
            MsFlags::MS_NOSUID | MsFlags::MS_NODEV,
            Some("mode=0711"),
        )
    });
    if private.is_ok() {
        let _ = WORK_ROOT.set(dir);
    }
}

/// Runs `spec` through the launcher, if it was started.
pub(super) fn run(sandbox: &Sandbox, spec: &RunSpec) -> Option<Result<RunResult, SandboxError>> {
    let launcher = LAUNCHER.get()?;
    if let Some(askers) = ASKERS.get() {
        askers.fetch_max(most_slots(), Ordering::Relaxed);
    }
    let err = |source| SandboxError::Launcher {
        program: spec.program.clone(),
        source,
    };
    Some(launcher.ask(sandbox, spec).map_err(err).and_then(|r| r))
}

impl Launcher {
    /// Sends one request and reads its answer.
    fn ask(&self, sandbox: &Sandbox, spec: &RunSpec) -> io::Result<Result<RunResult, SandboxError>> {
        let (mine, theirs) = rustix::net::socketpair(
            AddressFamily::UNIX,
            SocketType::STREAM,
            SocketFlags::CLOEXEC,
            None,
        )?;
        send_fd(&self.control, theirs.as_fd())?;
        drop(theirs);
        // Idle work preempted by judging (`judge::pool`): the socket hung
        // up, the runner kills the run (`take_asker`), and the answer read
        // here is cut short.
        let hang_up = mine.try_clone()?;
        let _hook = crate::judge::pool::on_preempt(move || {
            let _ = rustix::net::shutdown(&hang_up, rustix::net::Shutdown::Both);
        });
        let header = serde_json::to_vec(&Request {
            sandbox: SandboxWire::of(sandbox),
            spec: spec.clone(),
            cores: thread_cores(),
        })
        .map_err(io::Error::other)?;
        send_framed(&mine, &header, &[&spec.stdin])?;
        rustix::net::shutdown(&mine, rustix::net::Shutdown::Write)?;
        let mut reply = Vec::new();
        UnixStream::from(mine).read_to_end(&mut reply)?;
        decode_reply(&reply)
    }
}

/// Passes `fd` over the control socket.
fn send_fd(control: &OwnedFd, fd: BorrowedFd<'_>) -> io::Result<()> {
    fdpass::send(control.as_fd(), b"r", Some(fd)).map(drop)
}

/// Receives one descriptor from the control socket (`None`: the judge
/// closed it).
fn receive_fd(control: &OwnedFd) -> io::Result<Option<OwnedFd>> {
    loop {
        match fdpass::receive(control.as_fd(), &mut [0u8; 1], RecvFlags::empty())? {
            (0, _) => return Ok(None),
            (_, Some(fd)) => return Ok(Some(fd)),
            (_, None) => continue,
        }
    }
}

/// Writes `header`'s length (8 bytes, little-endian), `header`, then
/// `tail` (without `SIGPIPE`: a reader gone is an error, not a death).
fn send_framed(fd: &OwnedFd, header: &[u8], tail: &[&[u8]]) -> io::Result<()> {
    let len = (header.len() as u64).to_le_bytes();
    for part in [&len[..], header].into_iter().chain(tail.iter().copied()) {
        let mut rest = part;
        while !rest.is_empty() {
            match rustix::net::send(fd, rest, SendFlags::NOSIGNAL) {
                Ok(n) => rest = &rest[n..],
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    Ok(())
}

/// Splits a frame into its header and the bytes after it.
fn split_frame(bytes: &[u8]) -> io::Result<(&[u8], &[u8])> {
    let cut = || io::Error::new(io::ErrorKind::UnexpectedEof, "the runner's message was cut short");
    let len: [u8; 8] = bytes.get(..8).ok_or_else(cut)?.try_into().map_err(|_| cut())?;
    let len = usize::try_from(u64::from_le_bytes(len)).map_err(|_| cut())?;
    let header = bytes.get(8..8usize.saturating_add(len)).ok_or_else(cut)?;
    Ok((header, &bytes[8 + len..]))
}

/// What the judge asks of a runner (the spec's stdin follows the header).
#[derive(Serialize, Deserialize)]
struct Request {
    sandbox: SandboxWire,
    spec: RunSpec,
    /// The affinity mask of the thread that asks: the run gets it, as a
    /// run forked from that thread would (a judging slot pinned to a core,
    /// `crate::judge::pool::Placement`, keeps its runs on that core).
    cores: Vec<usize>,
}

/// A [`Sandbox`] as it travels to a runner (the seccomp filters are the
/// launcher's own, built once: they depend on the architecture only).
#[derive(Serialize, Deserialize)]
struct SandboxWire {
    protections: Protections,
    cgroups: Option<CgroupSupport>,
    drop_to: Option<(u32, u32)>,
    work_root: Option<PathBuf>,
    lock_dir: Option<PathBuf>,
    hidden: Vec<PathBuf>,
    seccomp: bool,
    clk_tck: u64,
}

impl SandboxWire {
    fn of(s: &Sandbox) -> SandboxWire {
        SandboxWire {
            protections: s.protections.clone(),
            cgroups: s.cgroups.clone(),
            drop_to: s.drop_to.map(|(u, g)| (u.as_raw(), g.as_raw())),
            work_root: s.work_root.clone(),
            lock_dir: s.lock_dir.clone(),
            hidden: s.hidden.clone(),
            seccomp: s.filters.is_some(),
            clk_tck: s.clk_tck,
        }
    }

    fn into_sandbox(self, filters: &Option<seccomp::Filters>) -> Sandbox {
        Sandbox {
            protections: self.protections,
            cgroups: self.cgroups,
            drop_to: self.drop_to.map(|(u, g)| (Uid::from_raw(u), Gid::from_raw(g))),
            work_root: self.work_root,
            lock_dir: self.lock_dir,
            hidden: self.hidden,
            filters: if self.seccomp { filters.clone() } else { None },
            clk_tck: self.clk_tck,
        }
    }
}

/// A runner's answer (the outputs' bytes follow the header).
#[derive(Serialize, Deserialize)]
enum Reply {
    Ran {
        status: Status,
        cpu_ms: u64,
        wall_ms: u64,
        peak_memory_kib: u64,
        stdout: usize,
        stderr: usize,
        output_file: Option<usize>,
    },
    Failed(SandboxError),
}

fn encode_reply(fd: &OwnedFd, result: &Result<RunResult, SandboxError>) -> io::Result<()> {
    let (reply, tail): (Reply, Vec<&[u8]>) = match result {
        Ok(r) => (
            Reply::Ran {
                status: r.status,
                cpu_ms: r.cpu_ms,
                wall_ms: r.wall_ms,
                peak_memory_kib: r.peak_memory_kib,
                stdout: r.stdout.len(),
                stderr: r.stderr.len(),
                output_file: r.output_file.as_ref().map(Vec::len),
            },
            [
                &r.stdout[..],
                &r.stderr[..],
                r.output_file.as_deref().unwrap_or_default(),
            ]
            .to_vec(),
        ),
        Err(e) => (Reply::Failed(clone_error(e)), Vec::new()),
    };
    let header = serde_json::to_vec(&reply).map_err(io::Error::other)?;
    send_framed(fd, &header, &tail)
}

/// The error as it will be sent (`io::Error` is not `Clone`).
fn clone_error(e: &SandboxError) -> SandboxError {
    serde_json::to_vec(e)
        .ok()
        .and_then(|v| serde_json::from_slice(&v).ok())
        .unwrap_or_else(|| SandboxError::Launcher {
            program: PathBuf::new(),
            source: io::Error::other(e.to_string()),
        })
}

fn decode_reply(bytes: &[u8]) -> io::Result<Result<RunResult, SandboxError>> {
    let (header, mut rest) = split_frame(bytes)?;
    let reply: Reply = serde_json::from_slice(header).map_err(io::Error::other)?;
    let mut take = |n: usize| -> io::Result<Vec<u8>> {
        if rest.len() < n {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the runner's outputs were cut short",
            ));
        }
        let (a, b) = rest.split_at(n);
        rest = b;
        Ok(a.to_vec())
    };
    Ok(match reply {
        Reply::Failed(e) => Err(e),
        Reply::Ran {
            status,
            cpu_ms,
            wall_ms,
            peak_memory_kib,
            stdout,
            stderr,
            output_file,
        } => Ok(RunResult {
            status,
            cpu_ms,
            wall_ms,
            peak_memory_kib,
            stdout: take(stdout)?,
            stderr: take(stderr)?,
            output_file: output_file.map(&mut take).transpose()?,
        }),
    })
}

// ---------------------------------------------------------------------------
// The launcher's side

/// The launcher's loop: it keeps one runner idle at all times. Runners
/// take requests from the control socket themselves and tell the launcher
/// on a pipe when they take one (`b`) and when they are free again (`i`);
/// when none is left free, the launcher forks another. Exits when the
/// judge closes the control socket or dies.
fn serve(control: OwnedFd, judge: i32) -> ! {
    if die_with_parent(judge).is_err() {
        exit(1);
    }
    super::owner::serve_judge(judge as u32);
    let _ = rustix::thread::set_name(c"mayan-launcher");
    quiet_stdio();
    // Runners are reaped here, and counted ([`RunnerPool::reap`]).
    // SAFETY: SIG_DFL installs no handler.
    let _ = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGCHLD,
            nix::sys::signal::SigHandler::SigDfl,
        )
    };
    let launcher = std::process::id() as i32;
    let filters = seccomp::Filters::build();
    private_work_root(judge as u32);
    let Ok((news, news_in)) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC) else {
        exit(1)
    };
    let mut pool = RunnerPool::default();
    loop {
        pool.reap();
        let askers = ASKERS.get().map_or(0, |a| a.load(Ordering::Relaxed));
        if pool.idle == 0 && pool.runners < runner_cap(askers) {
            // SAFETY: the launcher is single-threaded.
            match unsafe { nix::unistd::fork() } {
                Ok(nix::unistd::ForkResult::Child) => {
                    drop(news);
                    runner(&control, &news_in, &filters, launcher)
                }
                Ok(nix::unistd::ForkResult::Parent { .. }) => {
                    pool.idle += 1;
                    pool.runners += 1;
                }
                // Out of processes for a moment: a request waits in the
                // socket until a runner is free or the next try succeeds.
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(10)),
            }
        }
        match wait_for_news(&control, &news) {
            News::Byte(byte) => pool.heard(byte),
            News::Stalled => pool.idle = 0,
            News::Closed => {
                // The runners end too, each once its cleanup is done.
                while !matches!(nix::sys::wait::wait(), Err(nix::errno::Errno::ECHILD)) {}
                exit(0)
            }
        }
    }
}

/// The launcher's count of its runners, and of the idle ones.
#[derive(Debug, Default)]
struct RunnerPool {
    idle: usize,
    /// Runners forked and not yet reaped.
    runners: usize,
}

impl RunnerPool {
    /// Reaps the runners that ended (killed, say), without waiting.
    fn reap(&mut self) {
        use nix::sys::wait::{WaitPidFlag, WaitStatus, waitpid};
        while let Ok(status) = waitpid(None, Some(WaitPidFlag::WNOHANG)) {
            if status == WaitStatus::StillAlive {
                break;
            }
            self.runners = self.runners.saturating_sub(1);
        }
    }

    /// A runner took a request (`b`) or is free again (`i`).
    fn heard(&mut self, byte: u8) {
        match byte {
            b'b' => self.idle = self.idle.saturating_sub(1),
            b'i' => self.idle += 1,
            _ => {}
        }
    }
}

/// What the launcher hears while it waits.
#[derive(Debug, PartialEq, Eq)]
enum News {
    /// A byte a runner wrote.
    Byte(u8),
    /// A request has waited a second with no runner taking it: the count
    /// of idle runners is wrong (one was killed while idle).
    Stalled,
    /// The judge closed the control socket, or the pipe failed.
    Closed,
}

/// Waits for the next thing a runner says on `news`, checking every second
/// that no request waits on the control socket untaken.
fn wait_for_news(control: &OwnedFd, news: &OwnedFd) -> News {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let second = Timespec {
        tv_sec: 1,
        tv_nsec: 0,
    };
    loop {
        // The control socket is the runners' to read: only its hang-up
        // (always reported) is watched here.
        let mut fds = [
            PollFd::new(control, PollFlags::empty()),
            PollFd::new(news, PollFlags::IN),
        ];
        match poll(&mut fds, Some(&second)) {
            Err(rustix::io::Errno::INTR) => continue,
            Ok(0) => {
                let mut waiting = [PollFd::new(control, PollFlags::IN)];
                if poll(
                    &mut waiting,
                    Some(&Timespec {
                        tv_sec: 0,
                        tv_nsec: 0,
                    }),
                ) == Ok(1)
                {
                    return News::Stalled;
                }
                continue;
            }
            Err(_) => return News::Closed,
            Ok(_) => {}
        }
        if fds[0].revents().intersects(PollFlags::HUP | PollFlags::ERR) {
            return News::Closed;
        }
        if fds[1].revents().intersects(PollFlags::IN | PollFlags::HUP) {
            let mut byte = [0u8; 1];
            return match rustix::io::read(news, &mut byte) {
                Ok(1) => News::Byte(byte[0]),
                Err(rustix::io::Errno::INTR) => continue,
                _ => News::Closed,
            };
        }
    }
}

/// Keeps the judge's stdin and stdout (a terminal, or a pipe someone reads
/// to its end) out of the launcher; stderr stays, for a panic's message.
fn quiet_stdio() {
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        for fd in [0, 1] {
            // SAFETY: dup2 onto the standard descriptors, which nothing
            // in the launcher holds as a Rust object.
            unsafe { nix::libc::dup2(null.as_raw_fd(), fd) };
        }
    }
}

/// A runner: takes requests from the control socket one at a time, each
/// run carried out whole and answered on its own socket, for as long as
/// the judge lives. Kept between runs, a runner is forked once, not per
/// run (a fork and the page faults of a fresh copy cost more than a
/// bare run), and holds the network namespace made for its next run
/// ([`fresh_network`]) and the prepared roots its runs copy
/// (`isolation::keep_prepared_roots`).
fn runner(control: &OwnedFd, news: &OwnedFd, filters: &Option<seccomp::Filters>, launcher: i32) -> ! {
    if die_with_parent(launcher).is_err() {
        exit(1);
    }
    // SAFETY: SIG_DFL installs no handler; the runner waits for its children.
    let _ = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGCHLD,
            nix::sys::signal::SigHandler::SigDfl,
        )
    };
    fresh_network();
    super::isolation::keep_prepared_roots();
    // The mask a runner goes back to after each run on the asker's.
    let own_cores = thread_cores();
    // A run's input and outputs (up to the output limit) are mapped on their
    // own and given back when freed: a runner kept for the next run does
    // not keep the largest it saw, for its next fork to copy.
    // SAFETY: sets a malloc parameter; the runner is single-threaded here.
    unsafe { nix::libc::mallopt(nix::libc::M_MMAP_THRESHOLD, 1 << 20) };
    loop {
        let fd = match receive_fd(control) {
            Ok(Some(fd)) => fd,
            Ok(None) | Err(_) => {
                super::cgroup::drop_spare();
                exit(0)
            }
        };
        let _ = rustix::io::write(news, b"b");
        let (answered, cleanup, next) = serve_one(fd, filters);
        // The cleanup may go to any core: the slot's core is its next
        // run's.
        set_thread_cores(&own_cores);
        // The judge reads the end of the answer, and goes on, while this
        // runner removes the run's work folder (its unmount waits for an
        // RCU grace period): meanwhile the
        // judge's next request goes to an idle runner, and the launcher
        // forks another when none is left, so a slot never waits for a
        // cleanup (and there may be a runner per slot more).
        drop(answered);
        // The run's cgroup outlives the rest of its cleanup: once its
        // folders and mounts are gone, it may serve the next run.
        let (cleanup, used) = cleanup.keeping_cgroup();
        drop(cleanup);
        if let Some((sandbox, limits)) = next {
            sandbox.prepare_next_run(&limits, used);
        }
        // The next run's network namespace, made now that nothing of the
        // last run is alive (where the last run took this one).
        if !FRESH_NETWORK.get() {
            fresh_network();
        }
        let _ = rustix::io::write(news, b"i");
    }
}

thread_local! {
    /// Whether this thread's network namespace is fresh: made by
    /// [`fresh_network`] (a runner's thread, after its last run ended) and
    /// used by no run since. A namespace is a thread's own (`unshare`), so
    /// this is too: a judge's other threads never take it.
    static FRESH_NETWORK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Moves the runner into a new network namespace (nothing in it but a
/// loopback that is down), for its next run alone: at its start, and again
/// after each run's answer and cleanup, off the way to any answer (making
/// one costs about a tenth of a run, more while the kernel's work queue
/// tears down earlier ones, as it does the last one once its last process
/// is gone: docs/SPEED.md). No run ever sees a namespace
/// another run used: the kernel's per-namespace statistics
/// (`/proc/net/snmp`, `/proc/net/netstat`), which any program raises by
/// failing to send on the loopback and never reset, would carry what one
/// run wrote to the next. Runs take it with [`take_fresh_network`]; where
/// the kernel refuses a new one, each run makes its own, as in-process.
fn fresh_network() {
    // SAFETY: changes only this thread's network namespace (the runner's
    // one thread that forks runs).
    let made = unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWNET) }.is_ok();
    FRESH_NETWORK.set(made);
}

/// Whether the run about to start may stay in the network namespace of
/// the process forking it: only in a runner, and only once per namespace
/// (made for this run alone by [`fresh_network`], used by no run before).
/// `false`: the run makes a namespace of its own.
pub(crate) fn take_fresh_network() -> bool {
    FRESH_NETWORK.replace(false)
}

thread_local! {
    /// The socket of the run this runner is carrying out: the judge hangs
    /// it up when it no longer wants the run (preempted idle work).
    static ASKER: std::cell::RefCell<Option<OwnedFd>> = const { std::cell::RefCell::new(None) };
}

/// The socket of the run in progress, in a runner (`None` elsewhere): a
/// run is killed when the judge hangs it up.
pub(crate) fn take_asker() -> Option<OwnedFd> {
    ASKER.with(|a| a.borrow_mut().take())
}

/// One run, answered on `fd`, which is returned (the judge reads the
/// answer's end once it is closed) with what is left to clean up, and the
/// sandbox and limits of the run, for the next one's cgroup.
fn serve_one(
    fd: OwnedFd,
    filters: &Option<seccomp::Filters>,
) -> (OwnedFd, Cleanup, Option<(Sandbox, Limits)>) {
    let mut stream = UnixStream::from(fd);
    let mut request = Vec::new();
    let (result, cleanup, next) = match stream
        .read_to_end(&mut request)
        .and_then(|_| read_request(&request))
    {
        Ok((sandbox, spec, cores)) => {
            // The run's init is forked from this thread: it and the
            // program get the asker's mask.
            set_thread_cores(&cores);
            let sandbox = sandbox.into_sandbox(filters);
            if sandbox.protections.subreaper {
                let _ = rustix::process::set_child_subreaper(rustix::process::Pid::from_raw(1));
            }
            let asker = stream.as_fd().try_clone_to_owned().ok();
            ASKER.with(|a| *a.borrow_mut() = asker);
            let (result, cleanup) = sandbox.run_leaving_cleanup(&spec);
            ASKER.with(|a| a.borrow_mut().take());
            (result, cleanup, Some((sandbox, spec.limits)))
        }
        Err(source) => (
            Err(SandboxError::Launcher {
                program: PathBuf::new(),
                source,
            }),
            Cleanup::default(),
            None,
        ),
    };
    let fd = OwnedFd::from(stream);
    let _ = encode_reply(&fd, &result);
    (fd, cleanup, next)
}

fn read_request(bytes: &[u8]) -> io::Result<(SandboxWire, RunSpec, Vec<usize>)> {
    let (header, stdin) = split_frame(bytes)?;
    let request: Request = serde_json::from_slice(header).map_err(io::Error::other)?;
    let mut spec = request.spec;
    spec.stdin = stdin.to_vec();
    Ok((request.sandbox, spec, request.cores))
}

/// Asks for `SIGKILL` when the parent dies, then checks that the parent
/// is still `parent` (if it died before the request, the signal never
/// comes).
fn die_with_parent(parent: i32) -> io::Result<()> {
    rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
    if nix::unistd::getppid().as_raw() == parent {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(nix::libc::ESRCH))
    }
}

/// Leaves at once: no destructors, no `atexit` handlers of the judge.
fn exit(code: i32) -> ! {
    // SAFETY: ends the process; nothing runs after it.
    unsafe { nix::libc::_exit(code) }
}

/// `io::Error` as it travels: its OS error number, else its message.
pub(super) mod wire_io {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::io;

    #[derive(Serialize, Deserialize)]
    struct Wire {
        errno: Option<i32>,
        message: String,
    }

    pub(crate) fn serialize<S: Serializer>(e: &io::Error, s: S) -> Result<S::Ok, S::Error> {
        Wire {
            errno: e.raw_os_error(),
            message: e.to_string(),
        }
        .serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<io::Error, D::Error> {
        let w = Wire::deserialize(d)?;
        Ok(match w.errno {
            Some(n) => io::Error::from_raw_os_error(n),
            None => io::Error::other(w.message),
        })
    }
}

/// The sandbox's step names (`&'static str`) as they travel.
pub(super) mod wire_str {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Every step name an error may carry (`cgroup.rs`, `mod.rs`).
    const KNOWN: &[&str] = &["mkdir", "open", "write", "spawn", "poll/wait4"];

    pub(crate) fn serialize<S: Serializer>(v: &&'static str, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
        let v = String::deserialize(d)?;
        Ok(KNOWN.iter().find(|k| **k == v).copied().unwrap_or("a step"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// A connected pair of UNIX stream sockets.
    fn pair() -> (OwnedFd, OwnedFd) {
        rustix::net::socketpair(
            AddressFamily::UNIX,
            SocketType::STREAM,
            SocketFlags::CLOEXEC,
            None,
        )
        .unwrap()
    }

    #[test]
    fn the_launcher_keeps_two_runners_a_slot_and_one_idle() {
        // No pool yet (a lone run, `doctor`): as for one slot.
        assert_eq!(runner_cap(0), 3);
        assert_eq!(runner_cap(1), 3);
        assert_eq!(runner_cap(2), 5);
        assert_eq!(runner_cap(16), 33);
    }

    #[test]
    fn the_launcher_counts_idle_runners_and_hears_a_stalled_request() {
        let mut pool = RunnerPool { idle: 1, runners: 1 };
        pool.heard(b'b');
        assert_eq!(pool.idle, 0, "the one runner took a request: fork another");
        pool.heard(b'i');
        pool.heard(b'?');
        assert_eq!(pool.idle, 1);

        let (judge, control) = rustix::net::socketpair(
            AddressFamily::UNIX,
            SocketType::SEQPACKET,
            SocketFlags::CLOEXEC,
            None,
        )
        .unwrap();
        let (news, news_in) = nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).unwrap();
        rustix::io::write(&news_in, b"b").unwrap();
        assert_eq!(wait_for_news(&control, &news), News::Byte(b'b'));
        // A request nobody takes for a second: the count was wrong.
        let (_mine, theirs) = pair();
        send_fd(&judge, theirs.as_fd()).unwrap();
        assert_eq!(wait_for_news(&control, &news), News::Stalled);
        drop(judge);
        assert_eq!(wait_for_news(&control, &news), News::Closed);
    }

    /// The network namespace a run is in, as it reads it.
    fn run_network(sb: &Sandbox) -> String {
        let spec = RunSpec {
            program: "/bin/readlink".into(),
            args: vec!["/proc/self/ns/net".into()],
            ..RunSpec::default()
        };
        let r = sb.run_here(&spec).expect("no judge-side error");
        String::from_utf8_lossy(&r.stdout).trim().to_string()
    }

    #[test]
    fn a_runner_gives_each_run_a_network_namespace_no_earlier_run_used() {
        let sb = Sandbox::detect_with(super::super::SandboxOptions {
            isolation: true,
            cgroups: false,
            ..super::super::SandboxOptions::default()
        });
        if !sb.protections.isolation {
            super::super::skip_for_want_of("isolated runs (namespaces)");
            return;
        }
        // On a thread of its own, as a runner's one thread that forks runs.
        std::thread::spawn(move || {
            let own = || std::fs::read_link("/proc/thread-self/ns/net").unwrap();
            let host = own();
            fresh_network();
            let made = own();
            assert_ne!(made, host, "a runner's namespace is made for it");
            // The run takes the namespace made for it...
            let first = run_network(&sb);
            assert_eq!(Path::new(&first), made);
            // ...and a run after it, where none was made meanwhile, makes
            // its own: no run is in one an earlier run used.
            let second = run_network(&sb);
            assert!(
                Path::new(&second) != made && Path::new(&second) != host,
                "{second}"
            );
            // What the runner does after each run: the next run's.
            fresh_network();
            let renewed = own();
            assert!(renewed != made && renewed != host);
            assert_eq!(Path::new(&run_network(&sb)), renewed);
        })
        .join()
        .expect("the runner's thread");
        // Another thread (a judge's, in-process) never takes a runner's.
        assert!(!take_fresh_network());
    }

    #[test]
    fn a_result_and_an_error_travel_whole() {
        let (a, b) = pair();
        let result = RunResult {
            status: Status::TimeLimit { wall: true },
            cpu_ms: 3,
            wall_ms: 4,
            peak_memory_kib: 5,
            stdout: b"out\xff".to_vec(),
            stderr: b"err".to_vec(),
            output_file: Some(Vec::new()),
        };
        encode_reply(&a, &Ok(result.clone())).unwrap();
        drop(a);
        let mut bytes = Vec::new();
        UnixStream::from(b).read_to_end(&mut bytes).unwrap();
        assert_eq!(decode_reply(&bytes).unwrap().unwrap(), result);

        let (a, b) = pair();
        let error = SandboxError::Cgroup {
            program: "/bin/x".into(),
            action: "mkdir",
            path: "/sys/fs/cgroup/x".into(),
            source: io::Error::from_raw_os_error(nix::libc::ENOSPC),
        };
        encode_reply(&a, &Err(error)).unwrap();
        drop(a);
        let mut bytes = Vec::new();
        UnixStream::from(b).read_to_end(&mut bytes).unwrap();
        let back = decode_reply(&bytes).unwrap().unwrap_err();
        assert!(
            matches!(&back, SandboxError::Cgroup { action: "mkdir", source, .. } if source.raw_os_error() == Some(nix::libc::ENOSPC)),
            "{back:?}"
        );
        // A cut answer is an error, never a made-up result.
        assert!(decode_reply(&bytes[..bytes.len() - 1]).is_err());
    }
}
