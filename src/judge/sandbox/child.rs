//! The child side: what happens between `fork` and `exec`.
//!
//! This is the only place in the sandbox that runs in a freshly forked copy
//! of a (possibly multi-threaded) judge, where only async-signal-safe calls
//! are allowed. Everything the child needs is computed in the parent and
//! moved into [`ChildSetup`]; [`setup_child`] only issues system calls (no
//! allocation, no locks, no formatting) and [`install`] is the single
//! `unsafe` hook into [`std::process::Command::pre_exec`].
//!
//! # Dying with the judge
//!
//! A run must not outlive the judge, however it dies (SIGKILL included):
//! no watchdog would stop it. So the child asks for `SIGKILL` when its
//! parent dies (`PR_SET_PDEATHSIG`): the run's init right after the fork,
//! the program again after its credential change (which clears it). As
//! the init is PID 1 of the run's pid namespace, its death makes the
//! kernel kill every process of the run, compilers' helpers included.
//!
//! Two things about that signal:
//! * it is sent when the *thread* that forked the child ends, not the
//!   process. That is harmless here because the forking thread always
//!   outlives the run: it is the caller's thread, which waits for the run
//!   to end (a runner's, a `grade` worker, a server's long-lived worker),
//!   or, isolated where the caller's thread may not be moved back to its
//!   own pid namespace after the run (rootless), a thread of the run's own
//!   that ends only once the init is reaped (see `on_new_pid_namespace`).
//!   A caller must never start a run from a thread that may end while the
//!   run lives;
//! * asked for after the parent died, it never comes. So the child then
//!   checks that it still has the parent that forked it ([`Parent`]), and
//!   gives up at once (`ESRCH`) when it has been re-parented.

use std::ffi::{CString, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

use nix::libc;
use nix::sys::resource::{Resource, setrlimit};
use nix::sys::signal::{SigHandler, Signal, signal};
use nix::unistd::{Gid, Uid, setgid, setgroups, setsid, setuid};

/// A run in its own namespaces: how to build its root, and where its
/// `init` reports the program's wait status.
#[derive(Debug)]
pub(crate) struct Isolated {
    /// The private root to build and enter.
    pub(crate) plan: super::isolation::RootPlan,
    /// The init's end of the status socket (close-on-exec, so the program
    /// never holds it).
    pub(crate) status_fd: i32,
    /// A new network namespace for the run; `false`: the one of the
    /// process forking it, made for this run alone by a launcher's runner
    /// (`launcher::take_fresh_network`).
    pub(crate) new_network: bool,
    /// A new cgroup namespace, entered once the init is in the run's
    /// cgroup: the run sees its own group as `/` (`/proc/self/cgroup`),
    /// never the name the judge gave it (`false`: a kernel without cgroup
    /// namespaces, before Linux 4.6).
    pub(crate) new_cgroup: bool,
    /// What the program's process executes (the init starts it itself:
    /// [`spawn_program`]).
    pub(crate) exec: Exec,
}

/// A program's `execvp` arguments and environment, prepared before the fork: C strings
/// and the null-terminated pointer arrays into them (the strings' buffers
/// do not move with the struct).
#[derive(Debug)]
pub(crate) struct Exec {
    _strings: Vec<CString>,
    /// `argv[0]` is the program: what `execvp` runs.
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
}

// SAFETY: the pointers point into `_strings`, owned by the same struct and
// never changed after `Exec::new`; they are only read.
unsafe impl Send for Exec {}
// SAFETY: as above: shared references only read.
unsafe impl Sync for Exec {}

impl Exec {
    /// `program` with `args` (its `argv[0]` is `program` itself, as
    /// `std::process::Command` gives it) and exactly the environment
    /// `env`, in order. `None` when a string holds a NUL byte.
    pub(crate) fn new(program: &Path, args: &[OsString], env: &[(OsString, OsString)]) -> Option<Exec> {
        let c = |b: &[u8]| CString::new(b).ok();
        let mut strings = vec![c(program.as_os_str().as_bytes())?];
        for a in args {
            strings.push(c(a.as_bytes())?);
        }
        let argc = strings.len();
        for (k, v) in env {
            strings.push(c(&[k.as_bytes(), b"=", v.as_bytes()].concat())?);
        }
        let pointers = |range: &[CString]| {
            let mut p: Vec<*const libc::c_char> = range.iter().map(|s| s.as_ptr()).collect();
            p.push(std::ptr::null());
            p
        };
        Some(Exec {
            argv: pointers(&strings[..argc]),
            envp: pointers(&strings[argc..]),
            _strings: strings,
        })
    }
}

/// The judge as the child checks it is still its parent, after asking for
/// the parent-death signal (see the module comment).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Parent {
    /// The judge's pid: what `getppid()` gives a child forked into the
    /// judge's own pid namespace.
    pid: i32,
    /// The judge's pid as the mounted `/proc` names it (`None`: unreadable).
    /// A run's init, in a pid namespace of its own, gets 0 from
    /// `getppid()`, parent alive or not, so it reads its parent from
    /// `/proc/self/stat` (still the judge's `/proc` at that point).
    in_proc: Option<i32>,
}

impl Parent {
    /// The judge process itself, read in the parent before the fork.
    pub(crate) fn judge() -> Parent {
        Parent {
            pid: std::process::id() as i32,
            in_proc: std::fs::read_link("/proc/self")
                .ok()
                .and_then(|p| p.to_str()?.parse().ok()),
        }
    }

    /// In the run's init: whether `/proc` still names the judge as its
    /// parent (true when either cannot be read: only a re-parenting seen
    /// stops the run).
    fn forked_init(&self) -> bool {
        match (self.in_proc, parent_in_proc()) {
            (Some(judge), Some(now)) => judge == now,
            _ => true,
        }
    }
}

/// Everything the child does before `exec`, prepared by the parent.
#[derive(Debug)]
pub(crate) struct ChildSetup {
    /// The process forking the child.
    pub(crate) parent: Parent,
    /// Fresh mount, pid (entered by the spawning thread), network, IPC,
    /// UTS and cgroup namespaces with a private root; `None`: the host's
    /// file system.
    pub(crate) isolated: Option<Isolated>,
    /// System-call filters to install last.
    pub(crate) seccomp: Option<super::seccomp::Filters>,
    /// The run cgroup's join files (already open: `cgroup::join_file`) the child writes `0` into.
    pub(crate) cgroup_join: Vec<File>,
    /// Resource limits as `(resource, soft, hard)`.
    pub(crate) rlimits: Vec<(Resource, u64, u64)>,
    /// Enter fresh network and IPC namespaces (needs root).
    pub(crate) new_namespaces: bool,
    /// Switch to this user and group, with no supplementary groups.
    pub(crate) drop_to: Option<(Uid, Gid)>,
    /// Drop supplementary groups with the switch (refused in a user
    /// namespace the judge mapped itself).
    pub(crate) setgroups: bool,
    /// Drop every capability for good (securebits, bounding set, sets):
    /// a rootless program that keeps the judge's uid 0 of its namespace.
    pub(crate) drop_caps: bool,
    /// Set `no_new_privs`, so set-uid binaries cannot regain privileges.
    pub(crate) no_new_privs: bool,
}

/// Runs in the child after `fork`, before `exec` (std has already set up
/// stdin/stdout/stderr, the working directory and the signal mask).
///
/// Order matters: joining cgroups and creating namespaces need root, so
/// they come before the privilege drop; the parent-death signal is cleared
/// by a credential change, so it comes after it.
///
/// Isolated, the forked process is the init of a new pid namespace: it
/// builds the private root, starts the program ([`spawn_program`], which
/// runs [`before_exec`] and `exec`s it) and stays behind as its reaper
/// ([`super::isolation::init_loop`]): std's own `exec` is never reached.
/// Not isolated, [`before_exec`] runs here and std `exec`s.
///
/// Only async-signal-safe system calls are made: `setsid`, `write`,
/// `setns`, `unshare`, `mount`, `move_mount`, `pivot_root`, `clone`, `sigaction`, `setrlimit`,
/// `close_range`, `setgroups`, `setgid`, `setuid`, `prctl`, `seccomp`,
/// `getppid`, `open`/`read`/`close` of `/proc` files, `sendmsg`, `mmap`. Errors are
/// returned as `errno` values, which std forwards to the parent, where
/// `spawn` fails with them.
fn setup_child(s: &ChildSetup) -> io::Result<()> {
    // Own session and process group (pgid = pid): the judge can killpg() the
    // whole tree, and there is no controlling terminal to talk to.
    setsid()?;
    for mut f in &s.cgroup_join {
        // "0" means "the writing process" for both cgroup v1 and v2.
        f.write_all(b"0")?;
    }
    // Default dispositions for everything: handlers of the judge (a
    // SIGCHLD self-pipe, say) must not run in the run's init, and ignored
    // signals survive exec (SIGXCPU/SIGXFSZ must be able to kill the program).
    for sig in Signal::iterator() {
        if sig != Signal::SIGKILL && sig != Signal::SIGSTOP {
            // SAFETY: SIG_DFL installs no handler; failure is harmless.
            let _ = unsafe { signal(sig, SigHandler::SigDfl) };
        }
    }
    if let Some(iso) = &s.isolated {
        // This process is the init of the run's pid namespace. It dies with
        // the judge's thread, and the kernel then kills the whole run.
        die_with_parent(|| s.parent.forked_init())?;
        let mut flags = rustix::thread::UnshareFlags::NEWNS
            | rustix::thread::UnshareFlags::NEWIPC
            | rustix::thread::UnshareFlags::NEWUTS;
        if iso.new_network {
            flags |= rustix::thread::UnshareFlags::NEWNET;
        }
        // After the cgroup joins above: the run's group is its root.
        if iso.new_cgroup {
            flags |= rustix::thread::UnshareFlags::NEWCGROUP;
        }
        // A prepared root's namespace first, so that NEWNS copies it
        // rather than the runner's.
        iso.plan.join_prepared()?;
        // SAFETY: single-threaded child; no CLONE_FILES/CLONE_FS sharing.
        unsafe { rustix::thread::unshare_unsafe(flags)? };
        iso.plan.enter()?;
        // The Landlock ruleset the init makes for the program.
        let fence = iso.plan.fence.as_ref().map(|f| f.create()).transpose()?;
        // Handed to the runner with the program's status (close-on-exec:
        // the program never has it).
        let mount_ns = super::isolation::open_own_mount_namespace();
        let program = spawn_program(s, fence, &iso.exec)?;
        super::isolation::init_loop(program, iso.status_fd, mount_ns);
    } else if s.new_namespaces {
        // SAFETY: no CLONE_FILES/CLONE_FS, so no fd or fs state is shared
        // with other threads (there are none in the child anyway).
        unsafe {
            rustix::thread::unshare_unsafe(
                rustix::thread::UnshareFlags::NEWNET | rustix::thread::UnshareFlags::NEWIPC,
            )?;
        }
    }
    before_exec(s, None)
}

unsafe extern "C" {
    /// The C library's environment, which `execvp` searches for PATH.
    static mut environ: *const *const libc::c_char;
}

/// Bytes of the stack the program's process runs on until its `exec`.
const PROGRAM_STACK: usize = 256 * 1024;

/// What the init shares with the program's process until its `exec`.
struct Handover {
    setup: *const ChildSetup,
    fence: Option<i32>,
    exec: *const Exec,
    /// Set by the program's process when it could not `exec` (the init
    /// reads it once the process has exec'd or exited).
    errno: i32,
}

/// Starts the program from the run's init: a process that shares the
/// init's memory until it `exec`s (`CLONE_VM | CLONE_VFORK`, on a stack of
/// its own), so the init's page tables are neither copied for it nor torn
/// down at its `exec`: a `fork` did both, a tenth of a run's overhead
/// (docs/SPEED.md). It carries out [`before_exec`] and `execvp`; the init
/// waits meanwhile. Its pid, or the error that stopped it before `exec`
/// (the init then fails the spawn with it, as std's `exec` did).
fn spawn_program(s: &ChildSetup, fence: Option<i32>, exec: &Exec) -> io::Result<libc::pid_t> {
    extern "C" fn program(arg: *mut libc::c_void) -> libc::c_int {
        // SAFETY: `arg` is the init's `Handover`, alive and not touched by
        // the init until this process has exec'd or exited (CLONE_VFORK).
        let h = unsafe { &mut *arg.cast::<Handover>() };
        // SAFETY: both point into the init's `ChildSetup`, alive as above.
        let (setup, exec) = unsafe { (&*h.setup, &*h.exec) };
        let errno = match before_exec(setup, h.fence) {
            Ok(()) => {
                // As std's `exec`: the environment in place, then `execvp`,
                // which searches the program in that environment's PATH.
                // The init's `environ` changes with it; the init reads it no
                // more.
                // SAFETY: NUL-terminated strings and null-terminated arrays
                // prepared before the fork; returns only on failure.
                unsafe {
                    environ = exec.envp.as_ptr();
                    libc::execvp(exec.argv[0], exec.argv.as_ptr());
                }
                io::Error::last_os_error().raw_os_error().unwrap_or(libc::ENOEXEC)
            }
            Err(e) => e.raw_os_error().unwrap_or(libc::EINVAL),
        };
        // SAFETY: a plain store into the shared `Handover`, read by the init
        // after this process is gone.
        unsafe { std::ptr::write_volatile(&mut h.errno, errno) };
        // SAFETY: ends this process without running anything of the init's.
        unsafe { libc::_exit(127) }
    }
    // SAFETY: a fresh anonymous mapping, unmapped below.
    let stack = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            PROGRAM_STACK,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
            -1,
            0,
        )
    };
    if stack == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    let mut handover = Handover {
        setup: s,
        fence,
        exec,
        errno: 0,
    };
    // SAFETY: the child runs `program` on its own stack (its top passed:
    // stacks grow down) and never returns into the init's frames; with
    // CLONE_VFORK the init is suspended until the child has exec'd or
    // exited, so nothing it shares is used by both at once.
    let pid = unsafe {
        libc::clone(
            program,
            stack.cast::<u8>().add(PROGRAM_STACK).cast(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&raw mut handover).cast(),
        )
    };
    let spawned = io::Error::last_os_error();
    // SAFETY: the child no longer runs on it (it exec'd or exited).
    unsafe { libc::munmap(stack, PROGRAM_STACK) };
    // SAFETY: written by the child before it exited, if at all.
    let errno = unsafe { std::ptr::read_volatile(&handover.errno) };
    match (pid, errno) {
        (p, _) if p < 0 => Err(spawned),
        (_, 0) => Ok(pid),
        (_, e) => Err(io::Error::from_raw_os_error(e)),
    }
}

/// The program's own steps before `exec`, in the process that execs:
/// limits, descriptors, credentials, Landlock (`fence`), seccomp, and the
/// parent-death signal.
fn before_exec(s: &ChildSetup, fence: Option<i32>) -> io::Result<()> {
    for &(resource, soft, hard) in &s.rlimits {
        setrlimit(resource, soft, hard)?;
    }
    // Descriptors inherited by the judge from its own parent without
    // O_CLOEXEC must not reach the program. std's exec-error pipe is
    // already close-on-exec, so marking (not closing) keeps it working.
    // SAFETY: plain system call with integer arguments; ENOSYS on old
    // kernels is ignored (nix and rustix do not wrap close_range).
    unsafe {
        nix::libc::syscall(
            nix::libc::SYS_close_range,
            3u32,
            u32::MAX,
            nix::libc::CLOSE_RANGE_CLOEXEC,
        );
    }
    if let Some((uid, gid)) = s.drop_to {
        if s.setgroups {
            setgroups(&[])?;
        }
        setgid(gid)?;
        setuid(uid)?;
    }
    if s.drop_caps {
        own_user_namespace()?;
        drop_capabilities()?;
    }
    if s.no_new_privs {
        rustix::thread::set_no_new_privs(true)?;
    }
    if let Some(fd) = fence {
        super::landlock::restrict(fd)?;
    }
    if let Some(filters) = &s.seccomp {
        super::seccomp::install(filters)?;
    }
    // If its parent dies, so does the program (after setuid: it clears
    // this). Isolated, the parent is the run's init (pid 1).
    let parent = if s.isolated.is_some() { 1 } else { s.parent.pid };
    die_with_parent(|| nix::unistd::getppid().as_raw() == parent)?;
    Ok(())
}

/// Asks for `SIGKILL` when the parent dies, then checks with `forked_by`
/// that the parent is still the one that forked this process: if it died
/// before the request, the signal never comes, and the child gives up
/// (`ESRCH`).
fn die_with_parent(forked_by: impl Fn() -> bool) -> io::Result<()> {
    rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL))?;
    if forked_by() {
        Ok(())
    } else {
        Err(io::Error::from_raw_os_error(nix::libc::ESRCH))
    }
}

/// The parent's pid in `/proc/self/stat` (`None`: unreadable). Reads into
/// a buffer on the stack: nothing allocated.
fn parent_in_proc() -> Option<i32> {
    use nix::libc;
    let mut buf = [0u8; 512];
    // SAFETY: a valid C string; the descriptor is closed before returning.
    let fd = unsafe { libc::open(c"/proc/self/stat".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return None;
    }
    // SAFETY: a live descriptor and a buffer of that length.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    // SAFETY: closing the descriptor opened above.
    unsafe { libc::close(fd) };
    ppid_of_stat(buf.get(..usize::try_from(n).ok()?)?)
}

/// Field 4 (ppid) of a `/proc/<pid>/stat` line: `pid (comm) state ppid ...`,
/// where `comm` may hold blanks and parentheses.
fn ppid_of_stat(stat: &[u8]) -> Option<i32> {
    let close = stat.iter().rposition(|&b| b == b')')?;
    let mut fields = stat
        .get(close + 1..)?
        .split(|&b| b == b' ')
        .filter(|f| !f.is_empty());
    let ppid = fields.nth(1)?;
    if ppid.is_empty() || !ppid.iter().all(u8::is_ascii_digit) || ppid.len() > 9 {
        return None;
    }
    Some(ppid.iter().fold(0, |n, &d| n * 10 + i32::from(d - b'0')))
}

/// A rootless program with one uid gets a user namespace of its own where
/// it is uid and gid 60000 (the judge's uid 0 outside it: the user): it is
/// uid 0 nowhere, owns no namespace it lives in, and `exec` leaves it no
/// capability.
fn own_user_namespace() -> io::Result<()> {
    // SAFETY: single-threaded child; affects only this process.
    unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWUSER) }?;
    write_proc(c"/proc/self/setgroups", b"deny")?;
    write_proc(c"/proc/self/uid_map", b"60000 0 1\n")?;
    write_proc(c"/proc/self/gid_map", b"60000 0 1\n")
}

/// Writes `data` to a file of `/proc` in one `write`.
fn write_proc(path: &std::ffi::CStr, data: &[u8]) -> io::Result<()> {
    use nix::libc;
    // SAFETY: a valid C string; the descriptor is closed before returning.
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a live descriptor and a valid buffer.
    let n = unsafe { libc::write(fd, data.as_ptr().cast(), data.len()) };
    let err = io::Error::last_os_error();
    // SAFETY: closing the descriptor opened above.
    unsafe { libc::close(fd) };
    if n == data.len() as isize {
        Ok(())
    } else {
        Err(err)
    }
}

/// Drops every capability for good: uid 0 regains none at `exec`
/// (`SECBIT_NOROOT`, locked), none stays in the bounding set, and the
/// effective, permitted and inheritable sets are emptied.
fn drop_capabilities() -> io::Result<()> {
    use nix::libc;
    // NOROOT, NO_SETUID_FIXUP, NO_CAP_AMBIENT_RAISE and KEEP_CAPS (off),
    // each with its lock bit: 0x01|0x02|0x04|0x08|0x20|0x40|0x80.
    const BITS: libc::c_ulong = 0xef;
    // SAFETY: prctl with integer arguments.
    if unsafe { libc::prctl(libc::PR_SET_SECUREBITS, BITS, 0, 0, 0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    for cap in 0..64 {
        // SAFETY: as above; EINVAL past the kernel's last capability ends the loop.
        if unsafe { libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) } != 0 {
            break;
        }
    }
    let none = rustix::thread::CapabilitySet::empty();
    rustix::thread::set_capabilities(
        None,
        rustix::thread::CapabilitySets {
            effective: none,
            permitted: none,
            inheritable: none,
        },
    )?;
    Ok(())
}

/// Arranges for `cmd` to run [`setup_child`] between fork and exec.
pub(crate) fn install(cmd: &mut Command, setup: ChildSetup) {
    // SAFETY: `setup_child` only makes async-signal-safe system calls on
    // data prepared before the fork; it allocates nothing and takes no
    // locks, so it cannot deadlock on state held by other judge threads.
    unsafe {
        cmd.pre_exec(move || setup_child(&setup));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_is_read_from_a_stat_line_whatever_the_name() {
        assert_eq!(ppid_of_stat(b"42 (cc1plus) R 17 42 42 0 -1"), Some(17));
        assert_eq!(ppid_of_stat(b"42 (a) b (c) S 1 42 42"), Some(1));
        assert_eq!(ppid_of_stat(b"42 (x) S 0 0"), Some(0));
        assert_eq!(ppid_of_stat(b"42 (x) S"), None);
        assert_eq!(ppid_of_stat(b"42 (x) S -3"), None);
        assert_eq!(ppid_of_stat(b"no parenthesis"), None);
    }

    #[test]
    fn this_process_reads_its_parent_in_proc() {
        let parent = std::fs::read_link("/proc/self")
            .ok()
            .and_then(|p| p.to_str()?.parse::<i32>().ok());
        let ppid = nix::unistd::getppid().as_raw();
        // Where /proc is this process's own, it names the same parent.
        if parent == Some(std::process::id() as i32) {
            assert_eq!(parent_in_proc(), Some(ppid));
        }
    }
}
