//! Running one untrusted program under limits, and measuring it.
//!
//! This module owns everything between "here is an executable, its input
//! and its limits" and "here is what it printed, how it ended and what it
//! used": the fresh working directory, the minimal environment, the child
//! process setup (process group, cgroups, rlimits, namespaces, privilege
//! drop), the watchdog, output capture, killing every leftover process,
//! and the classification into a [`Status`]. It knows nothing about
//! problems, tests or verdicts.
//!
//! # Protections
//!
//! [`Sandbox::detect`] probes the machine once; [`Sandbox::protections`]
//! names every active layer, e.g. `"private root (pivot_root: ...) +
//! mount/pid/net/ipc/uts namespaces + uid per run (60000+box) + seccomp
//! deny list + landlock (ABI 7) + cgroup v1 (memory, pids, cpuacct) +
//! rlimits (...)"`, and [`Protections::missing`] what an untrusted contest
//! needs and the machine lacks.
//!
//! * **Isolation** (root with mount and pid namespaces): each run, compilers
//!   included, gets a private read-only root with its work folder at
//!   `/box`, its own namespaces and init, and a uid of its own
//!   (`isolation.rs`, `boxes.rs`); nothing of it outlives the run or the
//!   judge. Without it (`--trusted` machines), the older fence: a drop to
//!   `nobody` as root, fresh network/IPC namespaces, a `/proc` hunt for
//!   escapees.
//! * **System calls and files**: a seccomp deny list (`seccomp.rs`) and,
//!   behind the private root, Landlock rules (`landlock.rs`).
//! * **CPU time**: a watchdog polls the run's CPU usage (cgroup, else
//!   `/proc/<pid>/stat`) every 10 ms and kills at the limit; `RLIMIT_CPU`
//!   (limit rounded up + 1 s) is the backstop. The figure reported is the
//!   run's rusage from `wait4` (or the cgroup's total if larger), never
//!   `RUSAGE_CHILDREN` of the judge.
//! * **Wall time**: the same loop kills the whole process group, and the
//!   whole cgroup if there is one, at the deadline.
//! * **Memory**: with a memory cgroup its limit (no swap), else
//!   `RLIMIT_AS`. See [`Status::MemoryLimit`] for how an excess is
//!   recognised.
//! * **Output**: stdout over `output_bytes` (or stderr over the same
//!   amount) stops the run with [`Status::OutputLimit`]; files are bounded
//!   by `RLIMIT_FSIZE`, open files by `RLIMIT_NOFILE`. Under file I/O
//!   ([`RunSpec::input_file`], [`RunSpec::output_file`]) the input is a
//!   read-only file of the judge's in the work folder and the output file
//!   is read back as a regular file only, never through a link, at most
//!   `output_bytes`.
//! * **Processes**: a pids cgroup, else `RLIMIT_NPROC` (per run uid).
//! * No core dumps, `PATH=/usr/bin:/bin` and nothing else inherited,
//!   `no_new_privs`, default signal dispositions.
//!
//! docs/SANDBOX.md says what each layer protects against,
//! side by side with isolate, and what each costs.
//!
//! # Layout
//!
//! * `mod.rs`: the public API and the orchestration of one run;
//! * `child.rs`: the only code running between `fork` and `exec`;
//! * `monitor.rs`: the watchdog / output-capture loop and `wait4`;
//! * `cgroup.rs`: cgroup v1/v2 detection and per-run cgroups;
//! * `verdict.rs`: observations to [`Status`];
//! * `reaper.rs`: reaping leftover processes (the judge as subreaper);
//! * `procscan.rs`: `/proc` helpers for the no-cgroup fallback;
//! * `workdir.rs`: work folders, copying in and out, link-safe removal;
//! * `isolation.rs`: the private root, namespaces and the run's init;
//! * `fdpass.rs`: descriptors passed over UNIX sockets (`SCM_RIGHTS`);
//! * `boxes.rs`: the pool of run uids;
//! * `seccomp.rs`, `landlock.rs`: the system-call and file-system filters.

pub mod boxes;
mod cgroup;
mod child;
mod delegation;
mod fdpass;
pub mod host;
mod isolation;
mod landlock;
pub mod launcher;
mod monitor;
pub mod mountinfo;
mod owner;
mod procscan;
mod reaper;
mod seccomp;
mod verdict;
mod workdir;

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Seek, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::resource::{Resource, getrlimit};
use nix::sys::signal::Signal;
use nix::unistd::{Gid, Group, Uid, User, geteuid};
use serde::{Deserialize, Serialize, Serializer};

pub use cgroup::CgroupVersion;

/// The kernel's Landlock ABI version (`None`: no Landlock).
pub fn landlock_abi() -> Option<i64> {
    landlock::abi()
}

/// How much of stderr is kept in [`RunResult::stderr`].
pub const STDERR_KEEP_BYTES: usize = 64 * 1024;

/// Limits for one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// CPU time (user + system, all processes of the run), in milliseconds.
    pub cpu_ms: u64,
    /// Wall-clock time from start to exit, in milliseconds.
    pub wall_ms: u64,
    /// Memory, in KiB (cgroup limit, or address space without a cgroup).
    pub memory_kib: u64,
    /// Maximum bytes on stdout (and, separately, on stderr).
    pub output_bytes: u64,
    /// Maximum size of any file the program writes.
    pub file_size_bytes: u64,
    /// Maximum number of processes/threads alive at once.
    pub processes: u64,
}

impl Limits {
    /// Default limits with the given CPU time and wall = 2 × cpu + 1 s.
    pub fn with_cpu_ms(cpu_ms: u64) -> Limits {
        Limits {
            cpu_ms,
            wall_ms: cpu_ms.saturating_mul(2).saturating_add(1000),
            ..Limits::default()
        }
    }
}

impl Default for Limits {
    /// 3 s CPU, 7 s wall, 256 MiB, 64 MiB output, 16 MiB files, 64 processes.
    fn default() -> Limits {
        Limits {
            cpu_ms: 3000,
            wall_ms: 7000,
            memory_kib: 256 * 1024,
            output_bytes: 64 << 20,
            file_size_bytes: 16 << 20,
            processes: 64,
        }
    }
}

/// What to run, with what, under which limits.
#[derive(Clone, Default, Serialize, Deserialize)]
pub struct RunSpec {
    /// The executable (or interpreter, or compiler). An absolute path, or
    /// a path relative to the work folder (for a file passed in `files`).
    /// Isolated, an absolute program outside the system folders has its
    /// tree bound into the root; otherwise, when the sandbox drops
    /// privileges, it must be executable by that user (see
    /// [`Sandbox::find_program`]).
    pub program: PathBuf,
    /// Arguments (not including the program name).
    pub args: Vec<OsString>,
    /// Bytes fed on stdin (from an unlinked temp file: no deadlock if the
    /// program never reads it).
    #[serde(skip)] // Sent to the launcher as raw bytes.
    pub stdin: Vec<u8>,
    /// Limits of this run.
    pub limits: Limits,
    /// Files copied into the fresh work directory: `(source, plain name)`.
    /// They keep their mode bits and belong to the program's user.
    pub files: Vec<(PathBuf, String)>,
    /// Extra environment on top of the minimal one (`PATH=/usr/bin:/bin`).
    pub env: Vec<(String, String)>,
    /// Host folders the program needs read-only, at their own paths, in a
    /// private root (e.g. a compiler's own tree); the system folders and
    /// the tree of an absolute `program` are always there.
    pub read_only_dirs: Vec<PathBuf>,
    /// Host folders bound read-only over a folder of the system folders in
    /// a private root: `(host folder, folder it covers)` (a copy of a
    /// header's folder with its precompiled header added); one whose
    /// folders are not both there is left out.
    pub read_only_over: Vec<(PathBuf, PathBuf)>,
    /// Files to copy out of the work folder after the run: `(plain name,
    /// destination)`. Only regular files (a link is not followed), at most
    /// `limits.file_size_bytes`; a missing one is skipped.
    pub collect: Vec<(String, PathBuf)>,
    /// NOIP file I/O: the bytes of `stdin` are given to the program as this
    /// file of its work folder instead (owned by the judge, mode 0444: the
    /// program may read it, not change it), and its stdin is empty.
    pub input_file: Option<String>,
    /// A file the program writes in its work folder, read back into
    /// [`RunResult::output_file`] after the run: a regular file only (a
    /// link is not followed), at most `limits.output_bytes` (a larger one
    /// makes a run that exited [`Status::OutputLimit`]).
    pub output_file: Option<String>,
    /// What the run's `/proc` shows, in a private root.
    pub proc_view: ProcView,
}

/// What `/proc` shows a run in a private root. A compilation's messages
/// reach the contestant whatever the feedback, so it gets only its own
/// processes: none of the machine-wide files (`stat`, `vmstat`,
/// `meminfo`, `sys/`...) that a run on a hidden test can move and a later
/// compilation could embed (`#include`, `.incbin`, `include_bytes!`).
/// docs/SANDBOX.md, *What a compilation and a run read in `/proc`*.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ProcView {
    /// A new procfs of the run's pid namespace (`hidepid=invisible`): its
    /// processes and the machine-wide files (a contestant's program, whose
    /// output reaches nobody but the checker).
    #[default]
    Whole,
    /// Only the run's own processes (`subset=pid`: `/proc/self/exe`, which
    /// `ld.so` and `rustc` follow, and the like), none of them readable
    /// where the kernel has Landlock (links are still followed); with no
    /// `/proc` at all on a kernel without `subset=pid` (before 5.8).
    ProcessesOnly,
}

impl fmt::Debug for RunSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RunSpec")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("stdin", &format_args!("<{} bytes>", self.stdin.len()))
            .field("limits", &self.limits)
            .field("files", &self.files)
            .field("env", &self.env)
            .field("read_only_dirs", &self.read_only_dirs)
            .field("read_only_over", &self.read_only_over)
            .field("collect", &self.collect)
            .field("input_file", &self.input_file)
            .field("output_file", &self.output_file)
            .field("proc_view", &self.proc_view)
            .finish()
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Exited on its own with this code.
    Exited(i32),
    /// Killed by this signal (not one the sandbox sent for a limit).
    Signaled(i32),
    /// Used more CPU time than allowed (`wall: false`), or ran out of wall
    /// time while under the CPU limit (`wall: true`, e.g. sleeping).
    TimeLimit {
        /// Whether it was the wall-clock limit.
        wall: bool,
    },
    /// Exceeded the memory limit. Recognised when (first match wins):
    /// the cgroup reports an OOM kill; or the run failed (signal or
    /// non-zero exit) and either the cgroup limit was hit (`failcnt`,
    /// `memory.events max`), or peak RSS reached 80% of the limit (90%
    /// with a memory cgroup), or — without a memory cgroup, where
    /// allocations fail under `RLIMIT_AS` instead — stderr shows an
    /// allocation failure (`MemoryError`, `std::bad_alloc`, `out of
    /// memory`, `Cannot allocate memory`, `memory allocation of`).
    MemoryLimit,
    /// Wrote more than allowed to stdout/stderr, or a file past
    /// `file_size_bytes` (`SIGXFSZ`).
    OutputLimit,
}

impl Status {
    /// Name of the signal for [`Status::Signaled`], e.g. `"SIGSEGV"`.
    pub fn signal_name(&self) -> Option<&'static str> {
        match self {
            Status::Signaled(sig) => Signal::try_from(*sig).ok().map(Signal::as_str),
            _ => None,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Exited(c) => write!(f, "exited with code {c}"),
            Status::Signaled(s) => match self.signal_name() {
                Some(n) => write!(f, "killed by {n}"),
                None => write!(f, "killed by signal {s}"),
            },
            Status::TimeLimit { wall: false } => f.write_str("CPU time limit exceeded"),
            Status::TimeLimit { wall: true } => f.write_str("wall time limit exceeded"),
            Status::MemoryLimit => f.write_str("memory limit exceeded"),
            Status::OutputLimit => f.write_str("output limit exceeded"),
        }
    }
}

fn lossy<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&String::from_utf8_lossy(bytes))
}

fn lossy_option<S: Serializer>(bytes: &Option<Vec<u8>>, s: S) -> Result<S::Ok, S::Error> {
    match bytes {
        Some(b) => lossy(b, s),
        None => s.serialize_none(),
    }
}

/// What happened in one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RunResult {
    /// How it ended.
    pub status: Status,
    /// CPU time used (user + system), in ms.
    pub cpu_ms: u64,
    /// Wall time from start to exit, in ms.
    pub wall_ms: u64,
    /// Peak memory in KiB: the largest of the memory cgroup's peak usage
    /// (all processes of the run, plus page cache of files it wrote), the
    /// main process's `VmHWM` sampled every 10 ms, and rusage's `maxrss`
    /// when it is clearly above the judge's own RSS (a forked child
    /// inherits that figure, so below it `maxrss` says nothing).
    pub peak_memory_kib: u64,
    /// Stdout, at most `output_bytes` of it (serialized lossily as UTF-8).
    #[serde(serialize_with = "lossy")]
    pub stdout: Vec<u8>,
    /// The first [`STDERR_KEEP_BYTES`] of stderr (serialized lossily).
    #[serde(serialize_with = "lossy")]
    pub stderr: Vec<u8>,
    /// The spec's [`RunSpec::output_file`] as the program left it; `None`
    /// when none was asked for, or no regular file of that name (at most
    /// `output_bytes`) was there.
    #[serde(serialize_with = "lossy_option")]
    pub output_file: Option<Vec<u8>>,
}

/// The user a root judge runs programs as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DropUser {
    /// User name (`nobody`).
    pub user: String,
    /// Group name (`nogroup` or `nobody`).
    pub group: String,
    /// Numeric uid.
    pub uid: u32,
    /// Numeric gid.
    pub gid: u32,
}

/// How the judge holds its privileges (the first words of the
/// protections line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RunMode {
    /// The judge is root.
    Root,
    /// An ordinary user in a user namespace of its own ([`host`]).
    Rootless,
    /// An ordinary user without one.
    User,
}

/// Which protections a [`Sandbox`] applies; `Display` gives the one-line
/// description returned by [`Sandbox::protections`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Protections {
    /// Root, rootless or a plain user.
    pub mode: RunMode,
    /// What the machine could not give, each with the command that gives it
    /// (from [`host`]: no delegated cgroup, no user namespace).
    pub gaps: Vec<String>,
    /// The kernel reports each run's peak memory (`memory.peak` on v2).
    pub memory_peak: bool,
    /// A private root (`pivot_root`) in fresh mount, pid, network, IPC and
    /// UTS namespaces, the run's init killed with the judge.
    pub isolation: bool,
    /// Each concurrent run as its own uid (`60000 + box`).
    pub uid_per_run: bool,
    /// The system-call deny list (seccomp).
    pub seccomp: bool,
    /// Landlock's file-system rules behind the private root (its ABI
    /// version; `None`: not used, or the kernel has no Landlock).
    pub landlock: Option<i64>,
    /// cgroup interface in use, if any.
    pub cgroup: Option<CgroupVersion>,
    /// Memory limited and measured by a cgroup (else `RLIMIT_AS`).
    pub cgroup_memory: bool,
    /// Process count limited by a cgroup (else `RLIMIT_NPROC`).
    pub cgroup_pids: bool,
    /// CPU time of the whole run read from a cgroup.
    pub cgroup_cpu: bool,
    /// Programs run as this user when the judge is root.
    pub drop_to: Option<DropUser>,
    /// Programs get fresh (empty) network and IPC namespaces.
    pub namespaces: bool,
    /// The judge reaps leftover processes of runs (child subreaper).
    pub subreaper: bool,
    /// Whether the process-count limit actually binds (false: root without
    /// a pids cgroup).
    pub process_limit_enforced: bool,
}

impl Protections {
    /// What an untrusted contest needs and this machine does not give, one
    /// phrase each (empty: nothing missing).
    pub fn missing(&self) -> Vec<String> {
        let mut m = Vec::new();
        if !self.isolation {
            m.push("a private file system and pid namespace per run (needs root, or unprivileged user namespaces)".to_string());
        }
        // Rootless with one uid, runs are kept apart by their namespaces
        // (see `host`), not by uids.
        if !self.uid_per_run && self.mode != RunMode::Rootless {
            m.push("a uid per run (needs root, or a range in /etc/subuid)".to_string());
        }
        if !self.seccomp {
            m.push("a system-call filter (seccomp)".to_string());
        }
        if !self.cgroup_memory || !self.cgroup_pids {
            m.push("memory and process limits of the whole run (needs writable cgroup memory and pids controllers)".to_string());
        }
        if !m.is_empty() {
            m.extend(self.gaps.iter().cloned());
        }
        m
    }

    /// The mode's label: `root v1`, `root v2`, `rootless v2`, `rootless`...
    fn mode_label(&self) -> String {
        let who = match self.mode {
            RunMode::Root => "root",
            RunMode::Rootless => "rootless",
            RunMode::User => "user",
        };
        match self.cgroup {
            Some(CgroupVersion::V1) => format!("{who} v1"),
            Some(CgroupVersion::V2) => format!("{who} v2"),
            None => who.to_string(),
        }
    }
}

impl fmt::Display for Protections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.mode_label())?;
        let mut parts = Vec::new();
        if self.mode == RunMode::Rootless {
            parts.push("user namespace".to_string());
        }
        if self.isolation {
            parts.push("private root (pivot_root: read-only system, /box, tmpfs /tmp) + mount/pid/net/ipc/uts namespaces".to_string());
        }
        if self.uid_per_run {
            parts.push(format!("uid per run ({}+box)", boxes::FIRST_UID));
        } else if self.isolation && self.mode == RunMode::Rootless {
            parts.push("one uid, capabilities dropped (no /etc/subuid range)".to_string());
        }
        if self.seccomp {
            parts.push("seccomp deny list".to_string());
        }
        if let Some(abi) = self.landlock {
            parts.push(format!("landlock (ABI {abi})"));
        }
        if let Some(v) = self.cgroup {
            let mut c = Vec::new();
            if self.cgroup_memory {
                c.push("memory");
            }
            if self.cgroup_pids {
                c.push("pids");
            }
            if self.cgroup_cpu {
                c.push(if v == CgroupVersion::V1 {
                    "cpuacct"
                } else {
                    "cpu.stat"
                });
            }
            if self.memory_peak && v == CgroupVersion::V2 {
                c.push("memory.peak");
            }
            let v = if v == CgroupVersion::V1 { "v1" } else { "v2" };
            parts.push(format!("cgroup {v} ({})", c.join(", ")));
        }
        if let (Some(d), false) = (&self.drop_to, self.uid_per_run) {
            parts.push(format!(
                "uid drop to {}:{} ({}:{})",
                d.user, d.group, d.uid, d.gid
            ));
        }
        if self.namespaces && !self.isolation {
            parts.push("network/IPC namespaces".to_string());
        }
        let mut r = vec!["cpu"];
        if !self.cgroup_memory {
            r.push("as");
        }
        r.extend(["fsize", "core", "nofile"]);
        if !self.cgroup_pids {
            r.push("nproc");
        }
        r.push("stack");
        let rl = format!("rlimits ({})", r.join(", "));
        if parts.is_empty() {
            write!(f, "rlimits only {}", &rl["rlimits ".len()..])?;
        } else {
            parts.push(rl);
            f.write_str(&parts.join(" + "))?;
        }
        if !self.process_limit_enforced {
            f.write_str(" [process count NOT limited: root without a pids cgroup]")?;
        }
        Ok(())
    }
}

/// What [`Sandbox::detect_with`] may use; everything is on by default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SandboxOptions {
    /// Use cgroups if they are writable.
    pub cgroups: bool,
    /// As root, run programs as `nobody`.
    pub drop_privileges: bool,
    /// As root, give programs empty network and IPC namespaces.
    pub namespaces: bool,
    /// As root, give each run a private root, its own namespaces and uid.
    pub isolation: bool,
    /// Filter the system calls of runs (seccomp).
    pub seccomp: bool,
    /// With a private root, fence the file system with Landlock too.
    pub landlock: bool,
    /// Make the judge a child subreaper, so that it can reap leftover
    /// processes of runs (a process-wide setting; useful where PID 1 does
    /// not reap orphans, e.g. a container without an init).
    pub reap_orphans: bool,
    /// Where per-run work directories go (default: the system temp dir).
    pub work_root: Option<PathBuf>,
    /// Host paths no run may see even where they lie inside a folder bound
    /// into its root (packages, tests); the judge's own executable is
    /// always hidden too.
    pub hidden: Vec<PathBuf>,
}

impl Default for SandboxOptions {
    fn default() -> SandboxOptions {
        SandboxOptions {
            cgroups: true,
            drop_privileges: true,
            namespaces: true,
            isolation: true,
            seccomp: true,
            landlock: true,
            reap_orphans: true,
            work_root: None,
            hidden: Vec::new(),
        }
    }
}

/// The name of a step of the sandbox in an error (`mkdir`, `poll/wait4`...).
/// (An alias, so that serde does not borrow it from what it reads.)
pub type Step = &'static str;

/// Judge-side failures (never the program's fault).
#[derive(Debug, thiserror::Error, Serialize, Deserialize)]
pub enum SandboxError {
    /// The per-run work directory could not be created.
    #[error("cannot create a work directory for {program}: {source}")]
    WorkDir {
        /// Program being run.
        program: PathBuf,
        /// Underlying error.
        #[serde(with = "launcher::wire_io")]
        source: io::Error,
    },
    /// A name in [`RunSpec::files`] is not a plain file name.
    #[error("invalid work-dir file name {name:?} (must be a plain file name)")]
    InvalidFileName {
        /// The offending name.
        name: String,
    },
    /// Copying one of [`RunSpec::files`] failed.
    #[error("cannot copy {src} into the work directory as {name:?}: {source}")]
    CopyFile {
        /// Source path.
        src: PathBuf,
        /// Name in the work directory.
        name: String,
        /// Underlying error.
        #[serde(with = "launcher::wire_io")]
        source: io::Error,
    },
    /// The program cannot be executed by the user it would run as.
    #[error("{program} cannot be run by uid {uid} (the sandbox drops root to it): {reason}")]
    ProgramNotAccessible {
        /// Program being run.
        program: PathBuf,
        /// Uid the program would run as.
        uid: u32,
        /// Why not.
        reason: String,
    },
    /// Preparing stdin failed.
    #[error("cannot prepare stdin for {program}: {source}")]
    Stdin {
        /// Program being run.
        program: PathBuf,
        /// Underlying error.
        #[serde(with = "launcher::wire_io")]
        source: io::Error,
    },
    /// Creating or configuring the run's cgroup failed.
    #[error("cgroup setup failed for {program}: {action} {path}: {source}")]
    Cgroup {
        /// Program being run.
        program: PathBuf,
        /// What was attempted (`mkdir`, `open`, `write`).
        #[serde(with = "launcher::wire_str")]
        action: Step,
        /// File or directory involved.
        path: PathBuf,
        /// Underlying error.
        #[serde(with = "launcher::wire_io")]
        source: io::Error,
    },
    /// fork, the child setup (setsid, cgroup join, namespaces, rlimits,
    /// uid drop) or exec failed.
    #[error("cannot start {program} (fork, child setup or exec failed): {source}")]
    Spawn {
        /// Program being run.
        program: PathBuf,
        /// Underlying error (errno from the child).
        #[serde(with = "launcher::wire_io")]
        source: io::Error,
    },
    /// Copying a file out of the work folder failed.
    #[error("cannot copy {name:?} out of the work folder: {source}")]
    Collect {
        /// The file's name in the work folder.
        name: String,
        /// Underlying error.
        #[serde(with = "launcher::wire_io")]
        source: io::Error,
    },
    /// The launcher (the small process runs are started from, see
    /// `launcher.rs`) could not be asked, or its answer was cut short.
    #[error("cannot start {program} through the launcher: {source}")]
    Launcher {
        /// Program being run.
        program: PathBuf,
        /// Underlying error.
        #[serde(with = "launcher::wire_io")]
        source: io::Error,
    },
    /// A system call failed while supervising the child.
    #[error("{syscall} failed while supervising {program}: {source}")]
    Supervise {
        /// Program being run.
        program: PathBuf,
        /// Which call (`poll`, `wait4`).
        #[serde(with = "launcher::wire_str")]
        syscall: Step,
        /// Underlying error.
        #[serde(with = "launcher::wire_io")]
        source: io::Error,
    },
}

/// Runs programs under limits; create once with [`Sandbox::detect`] and
/// share (`&Sandbox` is `Sync`) between threads running tests in parallel.
#[derive(Debug)]
pub struct Sandbox {
    protections: Protections,
    cgroups: Option<cgroup::CgroupSupport>,
    drop_to: Option<(Uid, Gid)>,
    /// Where per-run work directories are created (None: system temp dir).
    work_root: Option<PathBuf>,
    /// Where box leases are locked (isolated runs).
    lock_dir: Option<PathBuf>,
    /// Canonical paths hidden from every run ([`SandboxOptions::hidden`]).
    hidden: Vec<PathBuf>,
    filters: Option<seccomp::Filters>,
    clk_tck: u64,
}

impl Sandbox {
    /// Probes cgroups, privileges and namespaces, with all protections on.
    pub fn detect() -> Sandbox {
        Sandbox::detect_with(SandboxOptions::default())
    }

    /// Like [`Sandbox::detect`], with some protections turned off (for
    /// tests, or a CLI `--no-cgroups` style switch).
    pub fn detect_with(opts: SandboxOptions) -> Sandbox {
        let host = host::current();
        // Rootless, the judge is uid 0 of its own user namespace.
        let root = geteuid().is_root();
        let mode = match host.mode {
            host::Mode::Root => RunMode::Root,
            host::Mode::Rootless { .. } => RunMode::Rootless,
            host::Mode::User { .. } => RunMode::User,
        };
        let cgroups = if opts.cgroups {
            cgroup::CgroupSupport::detect()
        } else {
            None
        };
        let drop_user = (opts.drop_privileges && mode == RunMode::Root).then(lookup_drop_user);
        let namespaces = opts.namespaces && root && probe_namespaces();
        let lock_dir = boxes::lock_dir();
        let isolation = opts.isolation && isolation::probe() && boxes::prepare_lock_dir(&lock_dir).is_ok();
        let filters = if opts.seccomp {
            seccomp::Filters::build()
        } else {
            None
        };
        if root {
            // What judges killed mid-run left: work folders and their mounts.
            workdir::remove_stale(&opts.work_root.clone().unwrap_or_else(std::env::temp_dir));
            if let Some(c) = &cgroups {
                c.remove_stale();
            }
        }
        // rustix takes `Option<Pid>` and only passes "non-zero" on: any pid does.
        let subreaper = opts.reap_orphans
            && rustix::process::set_child_subreaper(rustix::process::Pid::from_raw(1)).is_ok();
        let cgroup_pids = cgroups.as_ref().is_some_and(|c| c.pids());
        let protections = Protections {
            mode,
            gaps: host_gaps(host),
            memory_peak: cgroups.as_ref().is_some_and(|c| c.memory() && c.peak()),
            isolation,
            uid_per_run: isolation && boxes::uid_per_run(),
            seccomp: filters.is_some(),
            landlock: if isolation && opts.landlock {
                landlock::abi()
            } else {
                None
            },
            cgroup: cgroups.as_ref().map(|c| c.version),
            cgroup_memory: cgroups.as_ref().is_some_and(|c| c.memory()),
            cgroup_pids,
            cgroup_cpu: cgroups.as_ref().is_some_and(|c| c.cpu()),
            drop_to: drop_user.clone(),
            namespaces,
            subreaper,
            process_limit_enforced: cgroup_pids || drop_user.is_some() || mode != RunMode::Root,
        };
        let clk_tck = nix::unistd::sysconf(nix::unistd::SysconfVar::CLK_TCK)
            .ok()
            .flatten()
            .map_or(100, |v| v.max(1) as u64);
        Sandbox {
            protections,
            cgroups,
            drop_to: drop_user.map(|d| (Uid::from_raw(d.uid), Gid::from_raw(d.gid))),
            hidden: hidden_paths(&opts.hidden),
            work_root: opts.work_root,
            lock_dir: isolation.then_some(lock_dir),
            filters,
            clk_tck,
        }
    }

    /// Human-readable description of the active protections.
    pub fn protections(&self) -> String {
        self.protections.to_string()
    }

    /// The active protections, structured.
    pub fn protection_details(&self) -> &Protections {
        &self.protections
    }

    /// Whether a run given `dir` in [`RunSpec::read_only_dirs`] sees it
    /// there, read-only: the runs have private roots, and `dir` is not
    /// below a folder each run mounts afresh (`/tmp`, say).
    pub fn binds_read_only(&self, dir: &Path) -> bool {
        self.protections.isolation && isolation::seen_at_own_path(dir)
    }

    /// Finds `name` (e.g. `"python3"`) as a program the sandboxed user can
    /// execute: searched in the judge's `PATH`, then `/usr/local/bin`,
    /// `/usr/bin`, `/bin`, skipping version-manager shims (a `shims`
    /// directory, as pyenv/rbenv/asdf use: they need the judge's
    /// environment) and anything the dropped user cannot reach (e.g. under
    /// `/root`). Returns the path found (symlinks not resolved).
    pub fn find_program(&self, name: &str) -> Option<PathBuf> {
        let path_var = std::env::var_os("PATH").unwrap_or_default();
        let dirs = std::env::split_paths(&path_var).chain(
            ["/usr/local/bin", "/usr/bin", "/bin"]
                .into_iter()
                .map(PathBuf::from),
        );
        let candidates: Vec<PathBuf> = if name.contains('/') {
            vec![PathBuf::from(name)]
        } else {
            dirs.filter(|d| d.is_absolute() && d.file_name().is_none_or(|n| n != "shims"))
                .map(|d| d.join(name))
                .collect()
        };
        candidates.into_iter().find(|c| {
            // Check the target, but return the name found: multi-call
            // binaries (rustup proxies, busybox) look at argv[0].
            let Ok(real) = std::fs::canonicalize(c) else {
                return false;
            };
            let ok = match self.drop_to {
                Some((uid, gid)) => workdir::check_executable_by(&real, uid, gid).is_ok(),
                None => nix::unistd::access(&real, nix::unistd::AccessFlags::X_OK).is_ok(),
            };
            ok && real.is_file()
        })
    }

    /// Runs an untrusted program: fresh work dir (removed afterwards),
    /// minimal environment, all limits, privileges dropped when root.
    /// `Err` only for judge-side failures; whatever the program does is
    /// reported in the [`RunResult`].
    ///
    /// The run is started from the launcher (`launcher.rs`) once the
    /// binary has started it, whatever the judge holds by then; in-process
    /// otherwise (the library's own tests).
    pub fn run(&self, spec: &RunSpec) -> Result<RunResult, SandboxError> {
        launcher::run(self, spec).unwrap_or_else(|| self.run_here(spec))
    }

    /// [`Sandbox::run`] forked from the judge itself, the launcher or not:
    /// the path every run took before the launcher, kept for `bench --only
    /// launch` to compare with (the same protections; its start costs more
    /// the more the judge holds).
    pub fn run_forked_from_judge(&self, spec: &RunSpec) -> Result<RunResult, SandboxError> {
        self.run_here(spec)
    }

    /// [`Sandbox::run`] in this process: in a launcher's runner, or where
    /// no launcher was started.
    fn run_here(&self, spec: &RunSpec) -> Result<RunResult, SandboxError> {
        self.run_leaving_cleanup(spec).0
    }

    /// [`Sandbox::run_here`], with the removal of the run's work folder
    /// (its unmount and its files) and the end of its box lease left to
    /// the caller: done when the [`Cleanup`] is dropped. A runner answers
    /// the judge first, so that a run's result is never held up by the
    /// unmount, which waits for an RCU grace period. Every process of the
    /// run is dead and its cgroup removed by then.
    fn run_leaving_cleanup(&self, spec: &RunSpec) -> (Result<RunResult, SandboxError>, Cleanup) {
        let mut cleanup = Cleanup::default();
        let result = self.run_into(spec, &mut cleanup);
        (result, cleanup)
    }

    /// The steps of [`Sandbox::run_leaving_cleanup`]; what is to be
    /// cleaned goes into `cleanup` as it is made.
    fn run_into(&self, spec: &RunSpec, cleanup: &mut Cleanup) -> Result<RunResult, SandboxError> {
        let wd_err = |source| SandboxError::WorkDir {
            program: spec.program.clone(),
            source,
        };
        cleanup.lease = match (&self.lock_dir, self.protections.isolation) {
            (Some(dir), true) => Some(boxes::lease(dir).map_err(wd_err)?),
            _ => None,
        };
        let owner = match &cleanup.lease {
            Some(l) => Some((Uid::from_raw(l.uid()), Gid::from_raw(l.uid()))),
            None => self.drop_to,
        };

        let tmpfs = cleanup.lease.is_some().then(|| work_tmpfs_bytes(spec));
        let work_root = match &self.work_root {
            Some(r) => Some(r.as_path()),
            None => launcher::work_root(),
        };
        let ws = cleanup
            .workspace
            .insert(workdir::Workspace::create(work_root, owner, tmpfs).map_err(wd_err)?);
        let r = self.run_in_retrying(spec, ws, owner, &mut cleanup.run)?;
        for (name, dest) in &spec.collect {
            ws.collect(name, dest, spec.limits.file_size_bytes)
                .map_err(|source| SandboxError::Collect {
                    name: name.clone(),
                    source,
                })?;
        }
        read_output_file(spec, ws, r)
    }

    /// [`Sandbox::run_in`], again (up to 20 times, backing off) when the
    /// run could not start for want of kernel memory or processes
    /// (`ENOMEM`, `EAGAIN`): a machine busy creating and tearing down many
    /// namespaces at once refuses one now and then, and without a uid per
    /// run a neighbour's fork bomb can hold the shared user at its process
    /// limit for a moment. Each attempt has its own cgroup, stdin and
    /// status socket, and the program never ran before it failed, so a retry
    /// cannot change a verdict. The one retry of a start, at this depth.
    fn run_in_retrying(
        &self,
        spec: &RunSpec,
        ws: &workdir::Workspace,
        owner: Option<(Uid, Gid)>,
        left: &mut RunLeftovers,
    ) -> Result<RunResult, SandboxError> {
        let mut attempt = 0u64;
        loop {
            match self.run_in(spec, ws, owner, left) {
                Err(SandboxError::Spawn { source, .. })
                    if attempt < 20
                        && matches!(source.raw_os_error(), Some(nix::libc::ENOMEM | nix::libc::EAGAIN)) =>
                {
                    attempt += 1;
                    std::thread::sleep(Duration::from_millis(10 * attempt));
                }
                r => return r,
            }
        }
    }

    /// The steps of one run in a prepared workspace; what is released
    /// only after the answer goes into `left`.
    fn run_in(
        &self,
        spec: &RunSpec,
        ws: &workdir::Workspace,
        owner: Option<(Uid, Gid)>,
        left: &mut RunLeftovers,
    ) -> Result<RunResult, SandboxError> {
        copy_files(spec, &ws.box_dir, owner)?;
        let program = self.program_path(spec, &ws.box_dir, owner)?;
        if let Some(name) = &spec.input_file {
            give_input_file(name, &spec.stdin, &ws.box_dir)?;
        }
        let stdin = stdin_file(spec, ws.base(), &program)?;
        let cg = self.run_cgroup(&spec.limits, &program)?;
        let status_pipe = self.status_channel(&program)?;
        // Held open until the run has ended: the work folder's copy its
        // init attaches in a prepared root.
        let (isolated, box_tree) = match &status_pipe {
            None => (None, None),
            Some((_, w)) => {
                let (isolated, box_tree) = self.isolated_child(spec, ws, &program, w.as_raw_fd())?;
                (Some(isolated), box_tree)
            }
        };
        let cmd = self.command(spec, &program, stdin, &ws.box_dir, cg.as_ref(), owner, isolated)?;
        let launch = |mut cmd: Command| {
            self.launch_and_watch(&mut cmd, &program, spec, cg.as_ref(), &ws.box_dir, owner)
        };
        let watched = match status_pipe {
            Some(pipe) => launch_with_init(launch, cmd, pipe, &program, left)?,
            None => launch(cmd)?,
        };
        Ok(self.finish_run(spec, watched, cg, box_tree, left))
    }

    /// The init's status channel, where the run is isolated: the program's
    /// wait status, with the run's mount namespace attached
    /// (`isolation::init_loop`). Its (read, write) ends.
    fn status_channel(&self, program: &Path) -> Result<Option<(OwnedFd, OwnedFd)>, SandboxError> {
        if !self.protections.isolation {
            return Ok(None);
        }
        let (r, w) = rustix::net::socketpair(
            rustix::net::AddressFamily::UNIX,
            rustix::net::SocketType::SEQPACKET,
            rustix::net::SocketFlags::CLOEXEC,
            None,
        )
        .map_err(|e| SandboxError::Spawn {
            program: program.to_path_buf(),
            source: e.into(),
        })?;
        Ok(Some((r, w)))
    }

    /// What the child of an isolated run needs (its root to build, the
    /// init's end `status_fd` of the status channel, its namespaces, the
    /// program's exec), and the work folder's box tree its init attaches
    /// in a prepared root.
    fn isolated_child(
        &self,
        spec: &RunSpec,
        ws: &workdir::Workspace,
        program: &Path,
        status_fd: i32,
    ) -> Result<(child::Isolated, Option<OwnedFd>), SandboxError> {
        let exec = program_exec(spec, program)?;
        let mut plan = isolation::RootPlan::new(
            &ws.root_dir,
            &ws.box_dir,
            &read_only_dirs(spec, program),
            &spec.read_only_over,
            &self.hidden,
            scratch_sizes(&spec.limits),
            isolation::Views {
                landlock: self.protections.landlock.is_some(),
                proc_view: spec.proc_view,
            },
        );
        // `None` (built afresh) outside a runner or a user namespace
        // other than the machine's first: rootless, say.
        let box_tree = plan.reuse_prepared(&ws.box_dir);
        let isolated = child::Isolated {
            plan,
            status_fd,
            new_network: !launcher::take_fresh_network(),
            new_cgroup: isolation::cgroup_namespaces(),
            exec,
        };
        Ok((isolated, box_tree))
    }

    /// Releases what the run held once its program has ended, in order
    /// (its box tree and cgroup into `left`, after every process of the
    /// cgroup is killed and its memory read), and measures the run.
    fn finish_run(
        &self,
        spec: &RunSpec,
        (mut obs, judge_rss_kib): (monitor::Observed, u64),
        cg: Option<cgroup::RunCgroup>,
        box_tree: Option<OwnedFd>,
        left: &mut RunLeftovers,
    ) -> RunResult {
        // Released after the answer (`Cleanup`): unmounting the detached
        // box waits for an RCU grace period.
        left.box_tree = box_tree;
        let mem = cg.as_ref().map(|c| c.memory_stats()).unwrap_or_default();
        // Nothing of the run outlives its answer; its empty cgroup is
        // removed after it (`Cleanup`).
        if let Some(c) = &cg {
            c.kill_all_and_wait(Duration::from_secs(2));
        }
        left.cgroup = cg;
        obs.stderr.truncate(STDERR_KEEP_BYTES);
        self.measure(obs, mem, judge_rss_kib, &spec.limits)
    }

    /// Where the program is, as the run sees it, checked to be executable
    /// by the run's user where that can be known from outside.
    fn program_path(
        &self,
        spec: &RunSpec,
        box_dir: &Path,
        owner: Option<(Uid, Gid)>,
    ) -> Result<PathBuf, SandboxError> {
        let relative = spec.program.is_relative();
        let host_path = if relative {
            box_dir.join(&spec.program)
        } else {
            spec.program.clone()
        };
        if let (Some((uid, gid)), false) = (owner, self.protections.isolation) {
            workdir::check_executable_by(&host_path, uid, gid).map_err(|reason| {
                SandboxError::ProgramNotAccessible {
                    program: host_path.clone(),
                    uid: uid.as_raw(),
                    reason,
                }
            })?;
        }
        Ok(match (relative, self.protections.isolation) {
            (true, true) => Path::new(isolation::BOX_DIR).join(&spec.program),
            _ => host_path,
        })
    }

    /// Makes the next run's cgroup ready, with the limits of `limits`, in
    /// this process (a runner, between runs), from the last run's, `used`,
    /// where it can be: see `CgroupSupport::prepare_spare`.
    pub(crate) fn prepare_next_run(&self, limits: &Limits, used: Option<cgroup::RunCgroup>) {
        if let Some(c) = &self.cgroups {
            c.prepare_spare(limits.memory_kib.saturating_mul(1024), limits.processes, used);
        }
    }

    /// The run's cgroup, with its limits applied.
    fn run_cgroup(&self, limits: &Limits, program: &Path) -> Result<Option<cgroup::RunCgroup>, SandboxError> {
        let Some(c) = &self.cgroups else { return Ok(None) };
        c.create_run(limits.memory_kib.saturating_mul(1024), limits.processes)
            .map(Some)
            .map_err(cgroup_error(program))
    }

    /// The uid `RLIMIT_NPROC` binds for a run as `uid`: none for the
    /// machine's real root (it ignores the limit); uid 0 of a rootless
    /// judge's namespace is the user, and bound.
    fn nproc_uid(&self, uid: Uid) -> Option<Uid> {
        (!uid.is_root() || self.protections.mode == RunMode::Rootless).then_some(uid)
    }

    /// The command, with the child's setup installed.
    #[allow(clippy::too_many_arguments)]
    fn command(
        &self,
        spec: &RunSpec,
        program: &Path,
        stdin: std::fs::File,
        box_dir: &Path,
        cg: Option<&cgroup::RunCgroup>,
        owner: Option<(Uid, Gid)>,
        isolated: Option<child::Isolated>,
    ) -> Result<Command, SandboxError> {
        let cgroup_join = match cg {
            Some(c) => c.join_files().map_err(cgroup_error(program))?,
            None => Vec::new(),
        };
        let cg_memory = self.cgroups.as_ref().is_some_and(|c| c.memory());
        let cg_pids = self.cgroups.as_ref().is_some_and(|c| c.pids());
        let child_uid = owner.map_or_else(nix::unistd::getuid, |(u, _)| u);
        let mut cmd = Command::new(program);
        cmd.args(&spec.args)
            .env_clear()
            .envs(run_env(spec))
            .stdin(Stdio::from(stdin))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if isolated.is_none() {
            // Isolated, the child enters /box itself, inside its new root.
            cmd.current_dir(box_dir);
        }
        child::install(
            &mut cmd,
            child::ChildSetup {
                parent: child::Parent::judge(),
                new_namespaces: isolated.is_none() && self.protections.namespaces,
                isolated,
                seccomp: self.filters.clone(),
                cgroup_join,
                rlimits: rlimits_for(&spec.limits, cg_memory, cg_pids, self.nproc_uid(child_uid)),
                drop_to: owner,
                // In a user namespace mapped by the judge itself, the
                // kernel refuses setgroups.
                setgroups: self.protections.mode != RunMode::Rootless || boxes::uid_per_run(),
                // Rootless with one uid, the program runs as the judge's
                // uid 0: every capability is dropped before exec.
                drop_caps: self.protections.mode == RunMode::Rootless && child_uid.is_root(),
                no_new_privs: true,
            },
        );
        Ok(cmd)
    }

    /// Starts the command and supervises it to the end; returns what was
    /// observed and the judge's RSS at the fork (see [`Sandbox::measure`]).
    fn launch_and_watch(
        &self,
        cmd: &mut Command,
        program: &Path,
        spec: &RunSpec,
        cg: Option<&cgroup::RunCgroup>,
        box_dir: &Path,
        owner: Option<(Uid, Gid)>,
    ) -> Result<(monitor::Observed, u64), SandboxError> {
        let limits = &spec.limits;
        // The forked child starts with (a copy of) the judge's RSS, and
        // rusage's maxrss remembers it across exec: note it to tell.
        let rss_before = procscan::own_rss_kib();
        let start = Instant::now();
        let mut child = reaper::spawn_registered(cmd).map_err(|source| SandboxError::Spawn {
            program: program.to_path_buf(),
            source,
        })?;
        // Until supervision has reaped it, an early return kills the child.
        let guard = KillOnDrop(child.id() as i32);
        // Other judge threads may have grown meanwhile: take the larger.
        let judge_rss_kib = rss_before.max(procscan::own_rss_kib()).unwrap_or(u64::MAX / 4);
        let supervise_err = |syscall, source| SandboxError::Supervise {
            program: program.to_path_buf(),
            syscall,
            source,
        };
        let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
            let e = io::Error::other("stdout/stderr pipes missing");
            return Err(supervise_err("spawn", e));
        };
        let child_uid = owner.map_or_else(nix::unistd::getuid, |(u, _)| u);
        let watch = monitor::Watch {
            pid: child.id() as i32,
            stdout,
            stderr,
            cgroup: cg,
            cpu_limit_ms: limits.cpu_ms,
            wall_limit: Duration::from_millis(limits.wall_ms),
            stdout_cap: limits.output_bytes,
            stderr_keep: STDERR_KEEP_BYTES,
            output_limit: limits.output_bytes,
            clk_tck: self.clk_tck,
            // In a pid namespace nothing escapes: the kernel kills the rest.
            escapee_uid: (self.cgroups.is_none() && !self.protections.isolation)
                .then_some(child_uid.as_raw()),
            workdir: box_dir,
            reap_orphans: self.protections.subreaper,
            sample_hwm: !self.protections.isolation,
            asker: launcher::take_asker(),
        };
        let obs = monitor::supervise(watch, start).map_err(|e| supervise_err("poll/wait4", e))?;
        std::mem::forget(guard); // reaped by supervise
        drop(child);
        Ok((obs, judge_rss_kib))
    }

    /// Turns what was observed into the run's figures and status.
    fn measure(
        &self,
        obs: monitor::Observed,
        mem: cgroup::MemoryStats,
        judge_rss_kib: u64,
        limits: &Limits,
    ) -> RunResult {
        let tv_ms =
            |tv: nix::libc::timeval| (tv.tv_sec.max(0) as u64) * 1000 + (tv.tv_usec.max(0) as u64) / 1000;
        let rusage_cpu = tv_ms(obs.rusage.ru_utime) + tv_ms(obs.rusage.ru_stime);
        let cpu_ms = rusage_cpu.max(obs.cpu_seen_ms);
        // Peak memory: the cgroup's peak, the sampled VmHWM, and rusage's
        // maxrss only when clearly above what fork inherited from the judge.
        let rss_kib = obs.rusage.ru_maxrss.max(0) as u64;
        let inherited = judge_rss_kib
            .saturating_add(judge_rss_kib / 8)
            .saturating_add(1024);
        let trusted_rss = if rss_kib > inherited { rss_kib } else { 0 };
        let peak_memory_kib = (mem.peak_bytes.unwrap_or(0) / 1024)
            .max(obs.hwm_seen_kib)
            .max(trusted_rss);
        let status = verdict::classify(
            &verdict::Evidence {
                ended: obs.status,
                output_exceeded: obs.output_exceeded,
                killed_for_cpu: obs.killed_for_cpu,
                killed_for_wall: obs.killed_for_wall,
                cpu_ms,
                peak_memory_kib,
                memory: mem,
                cgroup_memory: self.cgroups.as_ref().is_some_and(|c| c.memory()),
                stderr: &obs.stderr,
            },
            limits,
        );
        RunResult {
            status,
            cpu_ms,
            wall_ms: obs.wall.as_millis() as u64,
            peak_memory_kib,
            stdout: obs.stdout,
            stderr: obs.stderr,
            output_file: None,
        }
    }
}

/// What is left of a run once its result is known, removed when dropped:
/// its empty cgroup and its mounts ([`RunLeftovers`]), its work folder,
/// then its box lease. (Every process of the run is dead before the
/// result is. At the judge's exit its runners finish their cleanups
/// ([`launcher::stop`]); a runner killed during one leaves its cgroup to
/// the next judge's start, which removes a dead judge's; the mounts go
/// with the runner's descriptors; the work folder is on the launcher's own
/// tmpfs, gone with it, or, in a work root the judge was given, removed
/// by the next judge's start as a dead judge's.)
#[derive(Debug, Default)]
pub(crate) struct Cleanup {
    run: RunLeftovers,
    workspace: Option<workdir::Workspace>,
    lease: Option<boxes::BoxLease>,
}

/// The mounts a finished run still holds until its answer is sent. Closing
/// either descriptor unmounts what it holds, and an unmount waits for an
/// RCU grace period (milliseconds on a busy machine): done after the
/// answer, never on the way to it.
#[derive(Debug, Default)]
pub(crate) struct RunLeftovers {
    /// Its mount namespace, which its init handed over as it ended
    /// (`isolation::init_loop`).
    mount_ns: Option<std::os::fd::OwnedFd>,
    /// The detached copy of its work folder that its init attached (a
    /// prepared root's run).
    box_tree: Option<std::os::fd::OwnedFd>,
    /// Its cgroup, empty: removing it is the kernel freeing the group's
    /// accounting (three `rmdir`s on cgroup v1), no step of the answer.
    cgroup: Option<cgroup::RunCgroup>,
}

impl Cleanup {
    /// The rest of the cleanup, and the run's empty cgroup, taken out of
    /// it for the runner's next run (`Sandbox::prepare_next_run`).
    pub(crate) fn keeping_cgroup(mut self) -> (Cleanup, Option<cgroup::RunCgroup>) {
        let cgroup = self.run.cgroup.take();
        (self, cgroup)
    }
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        drop(self.run.cgroup.take());
        drop(self.run.mount_ns.take());
        drop(self.run.box_tree.take());
        if let Some(ws) = self.workspace.take() {
            ws.remove();
        }
        drop(self.lease.take());
    }
}

/// The judge-side error of a cgroup step for `program`.
fn cgroup_error(program: &Path) -> impl Fn((PathBuf, &'static str, io::Error)) -> SandboxError + '_ {
    move |(path, action, source)| SandboxError::Cgroup {
        program: program.to_path_buf(),
        action,
        path,
        source,
    }
}

/// Copies the spec's files into the work folder, owned by the run's user.
fn copy_files(spec: &RunSpec, box_dir: &Path, owner: Option<(Uid, Gid)>) -> Result<(), SandboxError> {
    for (src, name) in &spec.files {
        if !workdir::is_plain_name(name) {
            return Err(SandboxError::InvalidFileName { name: name.clone() });
        }
        workdir::copy_in(src, box_dir, name, owner).map_err(|source| SandboxError::CopyFile {
            src: src.clone(),
            name: name.clone(),
            source,
        })?;
    }
    Ok(())
}

/// Writes the input file of a file-I/O run into the work folder: the
/// judge's, mode 0444, so the program can read it and not change it.
fn give_input_file(name: &str, bytes: &[u8], box_dir: &Path) -> Result<(), SandboxError> {
    if !workdir::is_plain_name(name) {
        return Err(SandboxError::InvalidFileName {
            name: name.to_string(),
        });
    }
    workdir::write_read_only(box_dir, name, bytes).map_err(|source| SandboxError::CopyFile {
        src: PathBuf::from("<test input>"),
        name: name.to_string(),
        source,
    })
}

/// Reads the spec's output file back into the result (see
/// [`RunSpec::output_file`]); one over the output cap stops a run that
/// exited with [`Status::OutputLimit`].
fn read_output_file(
    spec: &RunSpec,
    ws: &workdir::Workspace,
    mut r: RunResult,
) -> Result<RunResult, SandboxError> {
    let Some(name) = &spec.output_file else {
        return Ok(r);
    };
    let read = ws
        .read_back(name, spec.limits.output_bytes)
        .map_err(|source| SandboxError::Collect {
            name: name.clone(),
            source,
        })?;
    match read {
        workdir::ReadBack::Bytes(b) => r.output_file = Some(b),
        workdir::ReadBack::TooLarge if matches!(r.status, Status::Exited(_)) => {
            r.status = Status::OutputLimit
        }
        workdir::ReadBack::TooLarge | workdir::ReadBack::Missing => {}
    }
    Ok(r)
}

/// Stdin: an unlinked temp file, so the program may read it or not (empty
/// when the input is given as a file).
fn stdin_file(spec: &RunSpec, dir: &Path, program: &Path) -> Result<std::fs::File, SandboxError> {
    (|| {
        let mut f = tempfile::tempfile_in(dir)?;
        if spec.input_file.is_none() {
            f.write_all(&spec.stdin)?;
        }
        f.rewind()?;
        io::Result::Ok(f)
    })()
    .map_err(|source| SandboxError::Stdin {
        program: program.to_path_buf(),
        source,
    })
}

/// The folders bound read-only into the run's root besides the system
/// ones: the spec's, and the tree of an absolute program outside them (two
/// levels above the real executable, e.g. a Rust toolchain's sysroot).
fn read_only_dirs(spec: &RunSpec, program: &Path) -> Vec<PathBuf> {
    let mut dirs = spec.read_only_dirs.clone();
    if program.is_absolute()
        && !program.starts_with(isolation::BOX_DIR)
        && let Ok(real) = std::fs::canonicalize(program)
        && let Some(tree) = real.parent().and_then(Path::parent)
        && !tree.starts_with("/usr")
        && tree != Path::new("/")
    {
        dirs.push(tree.to_path_buf());
    }
    dirs
}

/// Size of the work folder's tmpfs: room for the files given and what the
/// program may write (its memory cgroup is charged for it too).
fn work_tmpfs_bytes(spec: &RunSpec) -> u64 {
    let given: u64 = spec
        .files
        .iter()
        .filter_map(|(src, _)| std::fs::metadata(src).ok())
        .map(|m| m.len())
        .sum::<u64>()
        .saturating_add(spec.stdin.len() as u64);
    given
        .saturating_add(spec.limits.file_size_bytes.saturating_mul(2))
        .saturating_add(1 << 20)
}

/// A run's environment: `PATH=/usr/bin:/bin`, then the spec's variables
/// (a later one replacing an earlier of the same name), sorted by name as
/// `std::process::Command` passes it.
fn run_env(spec: &RunSpec) -> Vec<(OsString, OsString)> {
    let mut env = std::collections::BTreeMap::new();
    env.insert(OsString::from("PATH"), OsString::from("/usr/bin:/bin"));
    for (k, v) in &spec.env {
        env.insert(OsString::from(k), OsString::from(v));
    }
    env.into_iter().collect()
}

/// What an isolated run's init executes ([`child::Exec`]): the program,
/// its arguments and [`run_env`].
fn program_exec(spec: &RunSpec, program: &Path) -> Result<child::Exec, SandboxError> {
    child::Exec::new(program, &spec.args, &run_env(spec)).ok_or_else(|| SandboxError::Spawn {
        program: program.to_path_buf(),
        source: io::Error::new(
            io::ErrorKind::InvalidInput,
            "a NUL byte in the program, an argument or the environment",
        ),
    })
}

/// Sizes of `/tmp` and `/dev/shm` inside the run.
fn scratch_sizes(limits: &Limits) -> isolation::ScratchSizes {
    let bytes = limits.file_size_bytes.clamp(1 << 20, 1 << 30);
    isolation::ScratchSizes {
        tmp_bytes: bytes,
        shm_bytes: bytes / 4,
    }
}

/// Launches `cmd` with `launch` in a new pid namespace, its init
/// reporting on the status channel (its read and write ends): the write
/// end is closed once it is launched. The init reports the program's own wait status; without it
/// (the init was killed for a limit) the init's status stands. The run's
/// mount namespace, if sent, goes into `left`.
fn launch_with_init(
    launch: impl FnOnce(Command) -> Result<(monitor::Observed, u64), SandboxError> + Send,
    cmd: Command,
    (read_end, write_end): (OwnedFd, OwnedFd),
    program: &Path,
    left: &mut RunLeftovers,
) -> Result<(monitor::Observed, u64), SandboxError> {
    let mut r = on_new_pid_namespace(|| {
        let r = launch(cmd);
        drop(write_end);
        r
    })
    .map_err(|source| SandboxError::Spawn {
        program: program.to_path_buf(),
        source,
    })??;
    if let Some((raw, mount_ns)) = isolation::receive_status(&read_end) {
        r.0.status = monitor::decode_status(raw);
        left.mount_ns = mount_ns;
    }
    Ok(r)
}

/// Runs `f` with this thread's children starting in a new pid namespace.
/// `unshare(CLONE_NEWPID)` affects the caller's future children only, and
/// once: the thread's next `unshare` of it fails until `setns` has taken
/// its children back to its own namespace. Where that `setns` is allowed
/// (root, the machine's pid namespace), `f` runs on this thread, which is
/// taken back afterwards ([`PidNamespaceBack`]); elsewhere (rootless: the
/// judge's user namespace does not own the machine's pid namespace) on a
/// fresh thread, which ends with the run. Either thread outlives the run,
/// as it must: the run's init dies when the thread that forked it ends
/// (its parent-death signal, see `child.rs`), so a judge killed, or the
/// thread ended by a panic, takes the whole run with it.
fn on_new_pid_namespace<T: Send>(f: impl FnOnce() -> T + Send) -> io::Result<T> {
    if let Some(own) = own_pid_namespace() {
        unshare_pid_namespace()?;
        let _back = PidNamespaceBack(own);
        return Ok(f());
    }
    std::thread::scope(|s| {
        s.spawn(|| {
            unshare_pid_namespace()?;
            Ok(f())
        })
        .join()
        .unwrap_or_else(|_| Err(io::Error::other("the run's thread panicked")))
    })
}

/// This thread's future children start in a new pid namespace.
fn unshare_pid_namespace() -> io::Result<()> {
    // SAFETY: affects only this thread's future children.
    Ok(unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWPID) }?)
}

/// This thread's future children start in the pid namespace `ns` again.
fn back_to_pid_namespace(ns: std::os::fd::BorrowedFd<'_>) -> io::Result<()> {
    let pid = Some(rustix::thread::LinkNameSpaceType::ProcessID);
    Ok(rustix::thread::move_into_link_name_space(ns, pid)?)
}

/// This process's pid namespace, when a thread may take its children back
/// to it after an `unshare(CLONE_NEWPID)`: tried once, on a thread of its
/// own (a failed try leaves nothing behind).
fn own_pid_namespace() -> Option<std::os::fd::BorrowedFd<'static>> {
    use std::os::fd::AsFd;
    static OWN: std::sync::OnceLock<Option<std::os::fd::OwnedFd>> = std::sync::OnceLock::new();
    let own = OWN.get_or_init(|| {
        let fd = std::os::fd::OwnedFd::from(std::fs::File::open("/proc/self/ns/pid").ok()?);
        let back_and_forth = std::thread::scope(|s| {
            s.spawn(|| unshare_pid_namespace().and_then(|()| back_to_pid_namespace(fd.as_fd())))
                .join()
        });
        matches!(back_and_forth, Ok(Ok(()))).then_some(fd)
    });
    own.as_ref().map(|fd| fd.as_fd())
}

/// Takes the thread's future children back to the process's own pid
/// namespace when dropped (after the run, or as a panic unwinds).
struct PidNamespaceBack(std::os::fd::BorrowedFd<'static>);

impl Drop for PidNamespaceBack {
    fn drop(&mut self) {
        // Cannot fail where the try in `own_pid_namespace` succeeded; if
        // it did, the thread's next run fails to start (EINVAL), loudly.
        let _ = back_to_pid_namespace(self.0);
    }
}

/// Kills the process group of a spawned child and reaps it, unless
/// forgotten (supervision reaps it on the normal path).
struct KillOnDrop(i32);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let pid = nix::unistd::Pid::from_raw(self.0);
        let _ = nix::sys::signal::killpg(pid, Signal::SIGKILL);
        let _ = nix::sys::wait::waitpid(pid, None);
        reaper::unregister(self.0);
    }
}

/// Resource limits for the child, as `(resource, soft, hard)`.
fn rlimits_for(
    limits: &Limits,
    cg_memory: bool,
    cg_pids: bool,
    child_uid: Option<Uid>,
) -> Vec<(Resource, u64, u64)> {
    let memory_bytes = limits.memory_kib.saturating_mul(1024);
    // Backstop only: the watchdog kills at the exact limit.
    let cpu_s = limits.cpu_ms.div_ceil(1000).saturating_add(1);
    let fsize = limits.file_size_bytes;
    let mut rl = vec![
        (Resource::RLIMIT_CPU, cpu_s, cpu_s.saturating_add(1)),
        (Resource::RLIMIT_CORE, 0, 0),
        (Resource::RLIMIT_FSIZE, fsize, fsize),
        // Open files: plenty for a solution or a compiler, not a weapon.
        (Resource::RLIMIT_NOFILE, 1024, 1024),
    ];
    if !cg_memory {
        rl.push((Resource::RLIMIT_AS, memory_bytes, memory_bytes));
    }
    // Deep recursion is fine as long as the memory limit allows it.
    rl.push((Resource::RLIMIT_STACK, memory_bytes, memory_bytes));
    // Per-user limit (root ignores it): count what that user already runs.
    if let (false, Some(uid)) = (cg_pids, child_uid) {
        let n = procscan::count_tasks(uid.as_raw()).saturating_add(limits.processes);
        rl.push((Resource::RLIMIT_NPROC, n, n));
    }
    // Never above the judge's own hard limits: raising them needs
    // CAP_SYS_RESOURCE, which even root may lack (containers).
    for (res, soft, hard) in &mut rl {
        if let Ok((_, cur_hard)) = getrlimit(*res) {
            *hard = (*hard).min(cur_hard);
            *soft = (*soft).min(*hard);
        }
    }
    rl
}

/// The canonical forms of `paths` and of the judge's own executable.
fn hidden_paths(paths: &[PathBuf]) -> Vec<PathBuf> {
    let exe = std::env::current_exe().ok();
    paths
        .iter()
        .chain(exe.as_ref())
        .filter_map(|p| std::fs::canonicalize(p).ok())
        .collect()
}

/// What the host could not give, with the command that gives it.
fn host_gaps(host: &host::Host) -> Vec<String> {
    let mut gaps = Vec::new();
    if let host::Mode::User { why, fix } = &host.mode {
        gaps.push(format!("no user namespace: {why} (fix: {fix})"));
    }
    match &host.v2 {
        Some(host::V2Place::None(u)) => gaps.push(format!("{} (fix: {})", u.why, u.fix)),
        None if host.mode != host::Mode::Root => gaps.push(
            "cgroup v1 delegates nothing to an ordinary user (fix: boot with systemd.unified_cgroup_hierarchy=1, or run the judge as root)"
                .into(),
        ),
        _ => {}
    }
    gaps
}

/// `nobody` and `nogroup` (or `nobody`, or the user's primary group).
fn lookup_drop_user() -> DropUser {
    let user = User::from_name("nobody").ok().flatten();
    let uid = user.as_ref().map_or(65534, |u| u.uid.as_raw());
    let (group, gid) = ["nogroup", "nobody"]
        .iter()
        .find_map(|g| Group::from_name(g).ok().flatten())
        .map(|g| (g.name, g.gid.as_raw()))
        .or_else(|| user.as_ref().map(|u| (u.gid.to_string(), u.gid.as_raw())))
        .unwrap_or_else(|| ("65534".to_string(), 65534));
    DropUser {
        user: user.map_or_else(|| "65534".to_string(), |u| u.name),
        group,
        uid,
        gid,
    }
}

/// Whether fresh network and IPC namespaces can be created (tried in a
/// throw-away thread, since unshare affects only the calling thread).
fn probe_namespaces() -> bool {
    std::thread::spawn(|| {
        // SAFETY: no CLONE_FILES/CLONE_FS; the thread exits right after.
        unsafe {
            rustix::thread::unshare_unsafe(
                rustix::thread::UnshareFlags::NEWNET | rustix::thread::UnshareFlags::NEWIPC,
            )
        }
        .is_ok()
    })
    .join()
    .unwrap_or(false)
}

/// In a unit test, where this machine lacks `what` the test needs: a skip
/// that says why, or in CI (`MAYAN_JUDGE_REQUIRE_TOOLS`) a failure.
#[cfg(test)]
pub(crate) fn skip_for_want_of(what: &str) {
    let required = std::env::var_os("MAYAN_JUDGE_REQUIRE_TOOLS").is_some();
    assert!(!required, "this machine lacks {what}, which CI requires");
    eprintln!("skipped: this machine lacks {what}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_default() {
        let l = Limits::default();
        assert_eq!(l.wall_ms, 2 * l.cpu_ms + 1000);
        assert_eq!(l.memory_kib, 256 * 1024);
        assert_eq!(Limits::with_cpu_ms(1000).wall_ms, 3000);
    }

    #[test]
    fn signal_names() {
        assert_eq!(Status::Signaled(11).signal_name(), Some("SIGSEGV"));
        assert_eq!(Status::Signaled(6).signal_name(), Some("SIGABRT"));
        assert_eq!(Status::Exited(0).signal_name(), None);
        assert_eq!(Status::Signaled(11).to_string(), "killed by SIGSEGV");
    }

    #[test]
    fn a_run_is_answered_before_its_cleanup_which_then_unmounts_and_removes_its_folders() {
        let sb = Sandbox::detect();
        let spec = RunSpec {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), "echo x > left; echo ok".into()],
            ..RunSpec::default()
        };
        let (r, cleanup) = sb.run_leaving_cleanup(&spec);
        let r = r.expect("no judge-side error");
        assert_eq!((r.status, r.stdout), (Status::Exited(0), b"ok\n".to_vec()));
        // The result is known (a runner sends it) while the run's folder,
        // with what the program left there, is still to be removed...
        let box_dir = cleanup.workspace.as_ref().expect("a work folder").box_dir.clone();
        assert!(box_dir.join("left").exists());
        assert_eq!(
            cleanup.lease.is_some(),
            sb.protections.isolation && sb.lock_dir.is_some()
        );
        // Isolated, its mount namespace too: the init handed it over as it
        // ended, and only the cleanup lets it go (the unmount waits for an
        // RCU grace period, which the answer does not).
        if sb.protections.isolation {
            let ns = cleanup.run.mount_ns.as_ref().expect("the run's mount namespace");
            let theirs = std::fs::read_link(format!("/proc/self/fd/{}", ns.as_raw_fd())).unwrap();
            let ours = std::fs::read_link("/proc/self/ns/mnt").unwrap();
            assert!(theirs.to_string_lossy().starts_with("mnt:["), "{theirs:?}");
            assert_ne!(theirs, ours, "the run's mount namespace is the judge's");
        }
        drop(cleanup);
        // ...and the cleanup removes it.
        assert!(!box_dir.exists(), "{} is left", box_dir.display());
    }

    /// The sandbox as detected, with `isolation` or without, and no cgroups.
    fn without_cgroups(isolation: bool) -> Sandbox {
        Sandbox::detect_with(SandboxOptions {
            isolation,
            cgroups: false,
            ..SandboxOptions::default()
        })
    }

    /// `/bin/sh -c script`.
    fn shell(script: &str) -> RunSpec {
        RunSpec {
            program: "/bin/sh".into(),
            args: vec!["-c".into(), script.into()],
            ..RunSpec::default()
        }
    }

    #[test]
    fn runs_start_past_the_check_of_their_parent_isolated_or_not() {
        // After asking for the parent-death signal, each child checks that
        // the judge is still its parent (`child.rs`): a live judge passes.
        for isolation in [false, true] {
            let sb = without_cgroups(isolation);
            let r = sb.run(&shell("echo ok")).expect("no judge-side error");
            assert_eq!(
                (r.status, r.stdout),
                (Status::Exited(0), b"ok\n".to_vec()),
                "isolation: {isolation}"
            );
        }
    }

    #[test]
    fn a_program_gets_its_own_argv_and_exactly_the_runs_environment_and_a_failed_exec_fails_the_start() {
        for isolation in [false, true] {
            let sb = without_cgroups(isolation);
            let spec = RunSpec {
                env: vec![
                    ("Z".into(), "last".into()),
                    ("A".into(), "1".into()),
                    ("A".into(), "2".into()),
                ],
                ..shell(r#"tr '\0' ' ' < /proc/$$/cmdline; echo "|$PATH|$A|$Z|$HOME|""#)
            };
            let r = sb.run(&spec).expect("no judge-side error");
            assert_eq!(
                String::from_utf8_lossy(&r.stdout),
                "/bin/sh -c tr '\\0' ' ' < /proc/$$/cmdline; echo \"|$PATH|$A|$Z|$HOME|\" |/usr/bin:/bin|2|last||\n",
                "isolation: {isolation}"
            );
            let missing = RunSpec {
                program: "/bin/no-such-program".into(),
                ..RunSpec::default()
            };
            // Isolated, the program's own process finds it missing at its
            // `exec` and the init fails the start with that error; outside,
            // the judge looks first.
            match (sb.protections.isolation, sb.run(&missing)) {
                (true, Err(SandboxError::Spawn { source, .. })) => {
                    assert_eq!(source.raw_os_error(), Some(nix::libc::ENOENT))
                }
                (false, Err(SandboxError::ProgramNotAccessible { .. })) => {}
                other => panic!("isolation {isolation}: {other:?}"),
            }
        }
    }

    #[test]
    fn runs_one_after_another_on_one_thread_each_get_a_new_pid_namespace_and_the_thread_gets_its_own_back() {
        let sb = without_cgroups(true);
        if !sb.protections.isolation {
            skip_for_want_of("isolated runs (namespaces)");
            return;
        }
        let own = std::fs::read_link("/proc/self/ns/pid").unwrap();
        let mut seen = Vec::new();
        for _ in 0..3 {
            // The program's shell is pid 2 of its run (the init is 1), in a
            // namespace no earlier run had.
            let r = sb
                .run(&shell("echo $$; readlink /proc/self/ns/pid"))
                .expect("no judge-side error");
            let out = String::from_utf8_lossy(&r.stdout).into_owned();
            let (pid, ns) = out.trim().split_once('\n').expect("two lines");
            assert_eq!(pid, "2", "{out}");
            assert!(!seen.contains(&ns.to_string()) && Path::new(ns) != own, "{out}");
            seen.push(ns.to_string());
            // This thread's next child is in the judge's namespace again.
            let child = Command::new("sleep").arg("5").spawn().expect("fork after a run");
            let ns = std::fs::read_link(format!("/proc/{}/ns/pid", child.id()));
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), Signal::SIGKILL);
            let _ = { child }.wait();
            assert_eq!(ns.unwrap(), own);
        }
    }

    #[test]
    fn an_isolated_run_sees_its_own_cgroup_as_the_root_and_no_name_the_judge_gave_it() {
        let sb = Sandbox::detect();
        if !sb.protections.isolation || sb.cgroups.is_none() || !isolation::cgroup_namespaces() {
            skip_for_want_of("isolated runs in cgroups, and cgroup namespaces");
            return;
        }
        // The run's own line and its init's: every hierarchy, the ones
        // the run's group is in (memory, pids, cpu) and the judge's others.
        let r = sb
            .run(&shell("cat /proc/self/cgroup /proc/1/cgroup"))
            .expect("no judge-side error");
        let out = String::from_utf8_lossy(&r.stdout).into_owned();
        assert!(!out.is_empty(), "{r:?}");
        for line in out.lines() {
            let path = line.splitn(3, ':').nth(2);
            assert_eq!(path, Some("/"), "a run reads its group's name: {out}");
        }
    }

    #[test]
    fn protections_text() {
        let mut p = Protections {
            mode: RunMode::Root,
            gaps: vec!["no delegated cgroup v2 subtree (fix: systemd-run ...)".into()],
            memory_peak: false,
            isolation: false,
            uid_per_run: false,
            seccomp: false,
            landlock: None,
            cgroup: None,
            cgroup_memory: false,
            cgroup_pids: false,
            cgroup_cpu: false,
            drop_to: None,
            namespaces: false,
            subreaper: false,
            process_limit_enforced: true,
        };
        assert_eq!(
            p.to_string(),
            "root: rlimits only (cpu, as, fsize, core, nofile, nproc, stack)"
        );
        // `grade` refuses such a machine without --trusted, naming each gap
        // and what the host said about it.
        let missing = p.missing().join("; ");
        for gap in [
            "private file system",
            "uid per run",
            "seccomp",
            "cgroup",
            "fix: systemd-run",
        ] {
            assert!(missing.contains(gap), "{missing}");
        }
        p.cgroup = Some(CgroupVersion::V1);
        p.cgroup_memory = true;
        p.cgroup_pids = true;
        p.drop_to = Some(DropUser {
            user: "nobody".into(),
            group: "nogroup".into(),
            uid: 65534,
            gid: 65534,
        });
        assert_eq!(
            p.to_string(),
            "root v1: cgroup v1 (memory, pids) + uid drop to nobody:nogroup (65534:65534) + rlimits (cpu, fsize, core, nofile, stack)"
        );
        p.isolation = true;
        p.uid_per_run = true;
        p.seccomp = true;
        assert!(p.missing().is_empty(), "{:?}", p.missing());
        assert!(
            p.to_string().starts_with("root v1: private root (pivot_root"),
            "{p}"
        );
        // Rootless on v2 with one uid: runs are kept apart by namespaces,
        // which the line says, and nothing is missing.
        p.mode = RunMode::Rootless;
        p.uid_per_run = false;
        p.cgroup = Some(CgroupVersion::V2);
        p.cgroup_cpu = true;
        p.memory_peak = true;
        let line = p.to_string();
        assert!(
            line.starts_with("rootless v2: user namespace + private root"),
            "{line}"
        );
        assert!(line.contains("one uid, capabilities dropped"), "{line}");
        assert!(
            line.contains("cgroup v2 (memory, pids, cpu.stat, memory.peak)"),
            "{line}"
        );
        assert!(p.missing().is_empty(), "{:?}", p.missing());
    }
}
