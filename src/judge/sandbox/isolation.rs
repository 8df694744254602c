//! The private file system and process tree of a run.
//!
//! Each run gets fresh mount, pid, network, IPC and UTS namespaces. The
//! spawning thread enters a new pid namespace for its children, so the
//! forked child is the namespace's first process (its `init`). That child
//! builds a minimal root on a small tmpfs and `pivot_root`s into it:
//!
//! | path | what |
//! | --- | --- |
//! | `/usr`, `/bin`, `/lib*`, `/sbin` | the host's, read-only (symlinks where the host has merged `/usr`) |
//! | language trees (e.g. a Rust toolchain) | read-only, at the same path |
//! | a C++ header's folder with its precompiled header | read-only, over that folder (`RunSpec::read_only_over`) |
//! | `/box` | the run's work folder (a tmpfs the judge mounted), the only writable place the judge sees |
//! | `/tmp`, `/dev/shm` | fresh size-capped tmpfs, gone with the run |
//! | `/dev` | `null`, `zero`, `full`, `random`, `urandom` and the `fd`/`std*` links |
//! | `/proc` | a new procfs of the run's pid namespace, other users' processes hidden; a compilation's shows its own processes only ([`ProcView`]) |
//!
//! Nothing else of the host is visible: not the tests, the packages, the
//! cache, other runs, `/root`, `/home`, `/etc` or the judge's files. Where
//! the judge's executable or a package lies inside a bound folder (the
//! judge installed in `/usr/local/bin`, packages under `/usr/share`), an
//! empty file or folder is bound over it ([`RootPlan::new`]'s `hidden`). The
//! `init` then starts the program (so the program is an ordinary process,
//! with ordinary signal semantics; `child::spawn_program`: a process that
//! shares the init's memory until its `exec`), reaps everything, and hands the
//! program's wait status to the judge on a socket, with the run's mount
//! namespace attached, so that its unmount comes after the answer
//! ([`init_loop`]). When `init` exits, or is killed because the judge died
//! (parent-death signal), the kernel kills every process left in the
//! namespace.
//!
//! [`RootPlan`] is made in the parent, where allocation is allowed; the
//! child only replays it as system calls ([`RootPlan::enter`]).
//!
//! # Prepared roots
//!
//! Built afresh, a root costs a copy of the runner's mounts, some 40 mount
//! calls, `pivot_root` and the unmount of the old root (which waits for an
//! RCU grace period). A launcher's runner, which lives for many runs and
//! carries out one at a time, builds each distinct root's read-only part
//! once instead, in a mount namespace of its own that it keeps open
//! ([`RootPlan::reuse_prepared`]). A run's init enters that namespace
//! (`setns`), copies it (`unshare`), attaches a detached copy of its work
//! folder's mount at `/box` (`open_tree`, `move_mount`: the folder's host
//! path is out of reach there) and mounts its own `/tmp`, `/dev/shm` and
//! `/proc`. Nothing of a run reaches the next: every writable mount is the
//! run's own and goes with its namespace; what the copies share (`/`,
//! `/dev`, the binds) is read-only. Rootless, a new `/proc` may be mounted
//! only where the host's is still in view, so roots are built afresh there.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use nix::libc;

use super::ProcView;

/// Host folders bound read-only into every root, when they exist.
/// (`/etc/alternatives` holds the links behind `cc`, `c++` and the like;
/// nothing else of `/etc` is shown.)
const SYSTEM_DIRS: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/alternatives",
];
/// Device nodes bound into `/dev`.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];
/// Where the work folder appears inside the root.
pub(crate) const BOX_DIR: &str = "/box";

/// Where a run's own file systems are mounted over its root: a host folder
/// below one of them, bound at its own path, would be hidden by them.
const RUN_MOUNTS: &[&str] = &[BOX_DIR, "/tmp", "/dev", "/proc"];

/// Whether a host folder given to a run as a read-only folder (bound at
/// its own path) is seen by the run: an absolute path, not below one of
/// the run's own mounts.
pub(crate) fn seen_at_own_path(dir: &Path) -> bool {
    dir.is_absolute() && !RUN_MOUNTS.iter().any(|m| dir.starts_with(m))
}

/// One step of building the root. Paths are relative to the new root (the
/// builder's working folder then); the sources of binds are host paths, or
/// relative ones inside the new root.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Mkdir(CString),
    Touch(CString),
    Symlink {
        target: CString,
        link: CString,
    },
    Bind {
        src: CString,
        dst: CString,
        read_only: bool,
        devices: bool,
    },
    /// Makes a mount read-only (its own flag, not its file system's).
    ReadOnly(CString),
    Tmpfs {
        dst: CString,
        options: CString,
    },
    Proc {
        dst: CString,
        /// Only the processes (`subset=pid`): no machine-wide file.
        processes_only: bool,
    },
}

/// Options of the root's own tmpfs (it holds mount points and links only).
const ROOT_OPTIONS: &CStr = c"size=1m,nr_inodes=1024,mode=0755";

/// How to build one run's root, prepared in the parent.
///
/// The steps come in two parts: `base`, what every run with the same
/// read-only folders sees alike (system folders, language trees, hidden
/// paths, `/dev`, the mount points, all read-only), and the run's own
/// mounts (`/box`, `/tmp`, `/dev/shm`, `/proc`). Built afresh, a run's
/// init replays both in a copy of the runner's mount namespace and
/// `pivot_root`s into it. A launcher's runner instead keeps the base as a
/// mount namespace of its own, made once ([`RootPlan::reuse_prepared`]):
/// the run's init enters it, copies it (`unshare`) and mounts only its own
/// four, with no `pivot_root` and no old root to unmount (each unmount
/// waits for an RCU grace period).
#[derive(Debug)]
pub(crate) struct RootPlan {
    /// Where the root is built on the host (an empty folder).
    root: CString,
    base: Vec<Step>,
    /// The work folder, bound at `/box` when the root is built afresh.
    box_bind: Step,
    /// `/tmp`, `/dev/shm`, `/proc`.
    own: Vec<Step>,
    workdir_inside: CString,
    /// Landlock rules for the program, when the kernel has Landlock.
    pub(crate) fence: Option<super::landlock::Fence>,
    /// The prepared root this run enters, if any.
    prepared: Option<Prepared>,
}

/// A prepared root as the run's init uses it: descriptors the runner
/// holds open until the run has ended.
#[derive(Debug, Clone, Copy)]
struct Prepared {
    /// The mount namespace of the prepared root (`nsfs`).
    namespace: libc::c_int,
    /// A detached copy of the work folder's mount (`open_tree`), moved to
    /// `/box` by the init.
    box_tree: libc::c_int,
}

fn c(path: &Path) -> CString {
    CString::new(path.as_os_str().as_bytes()).expect("paths from the judge have no NUL")
}

fn c_str(s: &str) -> CString {
    CString::new(s).expect("no NUL")
}

/// `path` inside the new root, as a path relative to it.
fn inside(path: &Path) -> PathBuf {
    path.strip_prefix("/").unwrap_or(path).to_path_buf()
}

/// Sizes of the run's scratch file systems.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScratchSizes {
    /// `/tmp`, bytes.
    pub(crate) tmp_bytes: u64,
    /// `/dev/shm`, bytes.
    pub(crate) shm_bytes: u64,
}

/// What a root shows of the machine beyond its folders: whether Landlock
/// fences it, and which `/proc` it gets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Views {
    /// A Landlock fence over the root's folders.
    pub(crate) landlock: bool,
    /// The run's `/proc` ([`ProcView`]).
    pub(crate) proc_view: ProcView,
}

impl RootPlan {
    /// Plans a root at `root` (an empty folder) holding the system folders,
    /// `extra_ro` (read-only, at their own paths), the folders of `over`
    /// over the system folders' (see [`cover`]) and `workdir` at `/box`.
    pub(crate) fn new(
        root: &Path,
        workdir: &Path,
        extra_ro: &[PathBuf],
        over: &[(PathBuf, PathBuf)],
        hidden: &[PathBuf],
        scratch: ScratchSizes,
        Views { landlock, proc_view }: Views,
    ) -> RootPlan {
        let processes_only = proc_view == ProcView::ProcessesOnly;
        let (base, read_only) = host_base(extra_ro, over, hidden);
        let tmpfs = |dir: &str, bytes: u64| Step::Tmpfs {
            dst: c(&inside(Path::new(dir))),
            options: c_str(&format!("size={bytes},nr_inodes=4096,mode=1777")),
        };
        RootPlan {
            root: c(root),
            base,
            box_bind: Step::Bind {
                src: c(workdir),
                dst: c(&inside(Path::new(BOX_DIR))),
                read_only: false,
                devices: false,
            },
            own: vec![
                tmpfs("/tmp", scratch.tmp_bytes),
                tmpfs("/dev/shm", scratch.shm_bytes),
                Step::Proc {
                    dst: c(&inside(Path::new("/proc"))),
                    processes_only,
                },
            ],
            workdir_inside: c_str(BOX_DIR),
            fence: if landlock {
                let dirs: Vec<&str> = read_only.iter().map(String::as_str).collect();
                super::landlock::Fence::new(&dirs, !processes_only)
            } else {
                None
            },
            prepared: None,
        }
    }

    /// In a launcher's runner: makes this run enter the runner's prepared
    /// root for this plan's base (made now if it has none yet), with a
    /// detached copy of the work folder `workdir`'s mount for its `/box`.
    /// Returns that copy, to be held open until the run has ended; `None`
    /// (the root is then built afresh) outside a runner, where the kernel
    /// refuses, or once a runner holds [`MAX_PREPARED`] roots.
    pub(crate) fn reuse_prepared(&mut self, workdir: &Path) -> Option<OwnedFd> {
        if !PREPARED_ROOTS.load(Ordering::Relaxed) {
            return None;
        }
        let mut roots = PREPARED.lock().unwrap_or_else(|e| e.into_inner());
        let namespace = match roots.iter().find(|(base, _)| *base == self.base) {
            Some((_, ns)) => ns.as_raw_fd(),
            None if roots.len() < MAX_PREPARED => {
                let ns = self.prepare().ok()?;
                let raw = ns.as_raw_fd();
                roots.push((self.base.clone(), ns));
                raw
            }
            None => return None,
        };
        let box_tree = open_tree(workdir).ok()?;
        self.prepared = Some(Prepared {
            namespace,
            box_tree: box_tree.as_raw_fd(),
        });
        Some(box_tree)
    }

    /// Builds the base of the root in a new mount namespace, on a thread
    /// of its own (which leaves nothing behind in the caller's), and
    /// returns that namespace: its root is the base, read-only.
    fn prepare(&self) -> io::Result<OwnedFd> {
        std::thread::scope(|s| {
            s.spawn(|| {
                // SAFETY: affects only this thread (its mount namespace and
                // file-system root), which ends right after.
                unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWNS) }?;
                let ns = std::fs::File::open("/proc/thread-self/ns/mnt")?;
                self.build(false)?;
                Ok(OwnedFd::from(ns))
            })
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("preparing a root panicked")))
        })
    }

    /// In the child (root, in fresh pid namespaces, and in a fresh mount
    /// namespace unless this run enters a prepared root): enters the
    /// prepared root's namespace, which the caller then copies with
    /// `unshare`. System calls only.
    pub(crate) fn join_prepared(&self) -> io::Result<()> {
        match self.prepared {
            // SAFETY: a descriptor the runner holds open for the run.
            Some(p) => check(unsafe { libc::setns(p.namespace, libc::CLONE_NEWNS) }),
            None => Ok(()),
        }
    }

    /// In the child, in its own mount namespace: builds the root (or, in
    /// a copy of a prepared one, mounts the run's own file systems),
    /// enters it and goes to `/box`. System calls only.
    pub(crate) fn enter(&self) -> io::Result<()> {
        match self.prepared {
            Some(p) => {
                chdir(c"/")?;
                attach_box(p.box_tree)?;
                for step in &self.own {
                    apply(step)?;
                }
            }
            None => self.build(true)?,
        }
        chdir(&self.workdir_inside)
    }

    /// Builds the root in this process's mount namespace and `pivot_root`s
    /// into it; with `run`, the run's own mounts too (else only the base).
    fn build(&self, run: bool) -> io::Result<()> {
        mount(None, c"/", None, libc::MS_REC | libc::MS_PRIVATE, None)?;
        mount(
            Some(c"mayan-judge"),
            &self.root,
            Some(c"tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(ROOT_OPTIONS),
        )?;
        chdir(&self.root)?;
        for step in &self.base {
            apply(step)?;
        }
        if run {
            apply(&self.box_bind)?;
            for step in &self.own {
                apply(step)?;
            }
        }
        // pivot_root(".", "."): the old root ends up on top of the new one,
        // and is detached at once.
        check(unsafe { libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) } as i32)?;
        check(unsafe { libc::umount2(c".".as_ptr(), libc::MNT_DETACH) })?;
        chdir(c"/")?;
        mount(
            None,
            c"/",
            None,
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            None,
        )
    }
}

/// Whether this process keeps prepared roots (a launcher's runner: it
/// carries out one run at a time, and lives for many).
static PREPARED_ROOTS: AtomicBool = AtomicBool::new(false);

/// The prepared roots of this process, by their base.
static PREPARED: Mutex<Vec<(Vec<Step>, OwnedFd)>> = Mutex::new(Vec::new());

/// The most prepared roots a runner keeps (one per set of read-only
/// folders: a language's tree, say); past that, roots are built afresh.
const MAX_PREPARED: usize = 8;

/// Makes this process keep prepared roots ([`RootPlan::reuse_prepared`]),
/// where the kernel allows them: in the machine's first user namespace. A
/// launcher's runner calls it at its start.
///
/// In any other user namespace (a rootless judge's own, or a rootless
/// container's, where the judge is root of a namespace that an ordinary
/// user owns, as under rootless Podman) the kernel mounts a fresh `/proc`
/// only where the host's is still fully visible, and a copied namespace's
/// mounts are locked together, so a run entering a prepared root fails to start (seen as
/// EPERM for every run in the cgroup v2 VM's rootless Podman context):
/// there every root is built afresh, as before prepared roots.
pub(crate) fn keep_prepared_roots() {
    let initial = std::fs::read_to_string("/proc/self/uid_map").is_ok_and(|m| is_identity_map(&m));
    PREPARED_ROOTS.store(initial, Ordering::Relaxed);
}

/// Whether a `uid_map` maps every uid to itself: the machine's first user
/// namespace's.
fn is_identity_map(uid_map: &str) -> bool {
    uid_map.split_whitespace().eq(["0", "0", "4294967295"])
}

/// How many prepared roots this process holds.
#[cfg(test)]
fn prepared_roots() -> usize {
    PREPARED.lock().unwrap_or_else(|e| e.into_inner()).len()
}

/// The steps that build the base of a root, and the folders it binds
/// read-only as the run sees them.
type HostBase = (Vec<Step>, Vec<String>);

/// The base of a root for these extra read-only and hidden paths, as the
/// host has them (the steps, and the folders bound read-only), looked at
/// once per runner: a runner builds a root once per base and keeps it
/// ([`RootPlan::reuse_prepared`]), so the host it saw then is the one its
/// runs get anyway. Elsewhere looked at afresh for each run.
fn host_base(extra_ro: &[PathBuf], over: &[(PathBuf, PathBuf)], hidden: &[PathBuf]) -> HostBase {
    type Key = (Vec<PathBuf>, Vec<(PathBuf, PathBuf)>, Vec<PathBuf>);
    static SEEN: Mutex<Vec<(Key, HostBase)>> = Mutex::new(Vec::new());
    if !PREPARED_ROOTS.load(Ordering::Relaxed) {
        return look_at_host(extra_ro, over, hidden);
    }
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, base)) = seen
        .iter()
        .find(|(k, _)| k.0 == extra_ro && k.1 == over && k.2 == hidden)
    {
        return base.clone();
    }
    let base = look_at_host(extra_ro, over, hidden);
    if seen.len() < MAX_PREPARED {
        seen.push(((extra_ro.to_vec(), over.to_vec(), hidden.to_vec()), base.clone()));
    }
    base
}

/// The steps that build the base of a root (the system folders and
/// `extra_ro` bound read-only, `hidden` covered, the mount points, `/dev`)
/// and the folders bound read-only, as the run sees them (for Landlock).
fn look_at_host(extra_ro: &[PathBuf], over: &[(PathBuf, PathBuf)], hidden: &[PathBuf]) -> HostBase {
    let mut steps = Vec::new();
    // Folders bound read-only, as the run sees them (for Landlock).
    let mut read_only: Vec<String> = Vec::new();
    for dir in SYSTEM_DIRS.iter().map(Path::new) {
        match std::fs::symlink_metadata(dir) {
            Ok(m) if m.file_type().is_symlink() => {
                if let Ok(target) = std::fs::read_link(dir) {
                    steps.push(Step::Symlink {
                        target: c(&target),
                        link: c(&inside(dir)),
                    });
                }
            }
            Ok(m) if m.is_dir() => {
                mkdir_parents(&mut steps, dir);
                bind_dir(&mut steps, dir, &inside(dir), true);
                read_only.push(dir.to_string_lossy().into_owned());
            }
            _ => {}
        }
    }
    for dir in extra_ro {
        if dir.is_absolute() && dir.is_dir() && !SYSTEM_DIRS.iter().any(|s| dir.starts_with(s)) {
            mkdir_parents(&mut steps, dir);
            bind_dir(&mut steps, dir, &inside(dir), true);
            read_only.push(dir.to_string_lossy().into_owned());
        }
    }
    cover(&mut steps, over, &read_only);
    hide(&mut steps, hidden, &read_only);
    for dir in [BOX_DIR, "/tmp", "/proc"] {
        steps.push(Step::Mkdir(c(&inside(Path::new(dir)))));
    }
    dev(&mut steps);
    (steps, read_only)
}

/// A detached copy of the mount at `dir` (`open_tree` with
/// `OPEN_TREE_CLONE`), which another mount namespace can attach.
fn open_tree(dir: &Path) -> io::Result<OwnedFd> {
    const OPEN_TREE_CLONE: libc::c_uint = 1;
    let path = c(dir);
    // SAFETY: a valid C string; the descriptor returned is owned here.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_open_tree,
            libc::AT_FDCWD,
            path.as_ptr(),
            OPEN_TREE_CLONE | libc::O_CLOEXEC as libc::c_uint,
        )
    };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd as libc::c_int) })
}

/// In the child, at the root: moves the work folder's detached copy to
/// `box`, private (nothing the runner mounts reaches the run), writable,
/// without set-uid programs or devices.
fn attach_box(tree: libc::c_int) -> io::Result<()> {
    const MOVE_MOUNT_F_EMPTY_PATH: libc::c_uint = 4;
    // SAFETY: valid C strings and a descriptor the runner holds open.
    check(unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            tree,
            c"".as_ptr(),
            libc::AT_FDCWD,
            c"box".as_ptr(),
            MOVE_MOUNT_F_EMPTY_PATH,
        )
    } as i32)?;
    mount(None, c"box", None, libc::MS_PRIVATE, None)?;
    mount(
        None,
        c"box",
        None,
        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_NOSUID | libc::MS_NODEV,
        None,
    )
}

/// `/dev`: a small tmpfs with the device nodes bound in, the `fd` and
/// `std*` links and the mount point of `/dev/shm`, then read-only.
fn dev(steps: &mut Vec<Step>) {
    let dev = c_str("dev");
    steps.push(Step::Mkdir(dev.clone()));
    steps.push(Step::Tmpfs {
        dst: dev.clone(),
        options: c_str("size=64k,nr_inodes=64,mode=0755"),
    });
    for name in DEVICES {
        let host = Path::new("/dev").join(name);
        if host.exists() {
            steps.push(Step::Touch(c(&inside(&host))));
            steps.push(Step::Bind {
                src: c(&host),
                dst: c(&inside(&host)),
                read_only: false,
                devices: true,
            });
        }
    }
    for (link, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        steps.push(Step::Symlink {
            target: c_str(target),
            link: c(&Path::new("dev").join(link)),
        });
    }
    steps.push(Step::Mkdir(c_str("dev/shm")));
    steps.push(Step::ReadOnly(dev));
}

fn apply(step: &Step) -> io::Result<()> {
    match step {
        Step::Mkdir(p) => {
            // SAFETY: a valid C string; EEXIST is fine.
            let r = unsafe { libc::mkdir(p.as_ptr(), 0o755) };
            if r != 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EEXIST) {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        }
        Step::Touch(p) => {
            // SAFETY: a valid C string; the descriptor is closed at once.
            let fd = unsafe {
                libc::open(
                    p.as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                    0o644,
                )
            };
            check(fd)?;
            unsafe { libc::close(fd) };
            Ok(())
        }
        Step::Symlink { target, link } => check(unsafe { libc::symlink(target.as_ptr(), link.as_ptr()) }),
        Step::Bind {
            src,
            dst,
            read_only,
            devices,
        } => {
            // A rootless judge may not bind a folder alone when a mount
            // below it is locked to its namespace (EINVAL): then the
            // folder comes with its submounts (Landlock still allows
            // no writes there).
            mount(Some(src), dst, None, libc::MS_BIND, None).or_else(|e| match e.raw_os_error() {
                Some(libc::EINVAL) => mount(Some(src), dst, None, libc::MS_BIND | libc::MS_REC, None),
                _ => Err(e),
            })?;
            let mut flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_NOSUID;
            if *read_only {
                flags |= libc::MS_RDONLY;
            }
            if !*devices {
                flags |= libc::MS_NODEV;
            }
            mount(None, dst, None, flags, None)
        }
        Step::ReadOnly(dst) => mount(
            None,
            dst,
            None,
            libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            None,
        ),
        Step::Tmpfs { dst, options } => mount(
            Some(c"tmpfs"),
            dst,
            Some(c"tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(options),
        ),
        Step::Proc { dst, processes_only } => mount_proc(dst, *processes_only),
    }
}

/// Mounts a new procfs of the run's pid namespace at `dst`, with only its
/// processes' folders when `processes_only`. A kernel without `subset=pid`
/// (before 5.8) refuses the option (`EINVAL`): then no procfs at all,
/// never one showing the machine-wide files.
fn mount_proc(dst: &CStr, processes_only: bool) -> io::Result<()> {
    let options = if processes_only {
        c"hidepid=invisible,subset=pid"
    } else {
        c"hidepid=invisible"
    };
    let flags = libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC;
    match mount(Some(c"proc"), dst, Some(c"proc"), flags, Some(options)) {
        Err(e) if processes_only && e.raw_os_error() == Some(libc::EINVAL) => Ok(()),
        done => done,
    }
}

/// Binds each host folder of `over` read-only over the folder it covers,
/// when both are there and that one lies inside a `bound` folder (a
/// precompiled header beside its header: `RunSpec::read_only_over`).
fn cover(steps: &mut Vec<Step>, over: &[(PathBuf, PathBuf)], bound: &[String]) {
    for (src, dst) in over {
        let inside_bound = dst.is_absolute() && bound.iter().any(|b| dst.starts_with(b));
        if inside_bound && src.is_absolute() && src.is_dir() && dst.is_dir() {
            steps.push(Step::Bind {
                src: c(src),
                dst: c(&inside(dst)),
                read_only: true,
                devices: false,
            });
        }
    }
}

/// Binds an empty folder (or file) of the root over each `hidden` path
/// that lies inside a bound folder, read-only, so that the run sees
/// nothing there.
fn hide(steps: &mut Vec<Step>, hidden: &[PathBuf], bound: &[String]) {
    let empty_dir = PathBuf::from(".hidden");
    let empty_file = PathBuf::from(".hidden-file");
    let mut made = false;
    for path in hidden {
        if !bound.iter().any(|b| path.starts_with(b)) {
            continue;
        }
        let Ok(meta) = std::fs::metadata(path) else {
            continue;
        };
        if !made {
            steps.push(Step::Mkdir(c(&empty_dir)));
            steps.push(Step::Touch(c(&empty_file)));
            made = true;
        }
        let src = if meta.is_dir() { &empty_dir } else { &empty_file };
        let dst = inside(path);
        steps.push(Step::Bind {
            src: c(src),
            dst: c(&dst),
            read_only: true,
            devices: false,
        });
    }
}

/// The folders above `dir` inside the root, parents first, so that a bind
/// has a mount point.
fn mkdir_parents(steps: &mut Vec<Step>, dir: &Path) {
    let mut acc = PathBuf::new();
    for comp in dir.parent().into_iter().flat_map(Path::components).skip(1) {
        acc.push(comp);
        steps.push(Step::Mkdir(c(&acc)));
    }
}

fn bind_dir(steps: &mut Vec<Step>, src: &Path, dst: &Path, read_only: bool) {
    steps.push(Step::Mkdir(c(dst)));
    steps.push(Step::Bind {
        src: c(src),
        dst: c(dst),
        read_only,
        devices: false,
    });
}

fn check(r: i32) -> io::Result<()> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn chdir(p: &std::ffi::CStr) -> io::Result<()> {
    // SAFETY: a valid C string.
    check(unsafe { libc::chdir(p.as_ptr()) })
}

fn mount(
    src: Option<&std::ffi::CStr>,
    dst: &std::ffi::CStr,
    fstype: Option<&std::ffi::CStr>,
    flags: libc::c_ulong,
    data: Option<&std::ffi::CStr>,
) -> io::Result<()> {
    let p = |s: Option<&std::ffi::CStr>| s.map_or(std::ptr::null(), |s| s.as_ptr());
    // SAFETY: valid C strings or null, as mount(2) allows.
    check(unsafe { libc::mount(p(src), dst.as_ptr(), p(fstype), flags, p(data).cast()) })
}

/// The `init` of a run's pid namespace, after it started the program
/// (`program` is its pid): closes every descriptor but `status_fd` and
/// `mount_ns` (so the run's pipes close when the program's tree is gone,
/// and `spawn` is not held by the exec-error pipe), reaps every process of
/// the namespace, and when the program has ended sends its raw wait status
/// on `status_fd` (with `mount_ns`, the run's mount namespace, when it is
/// open: see [`open_own_mount_namespace`]) and exits, which kills whatever
/// is left. Never returns.
pub(crate) fn init_loop(program: libc::pid_t, status_fd: libc::c_int, mount_ns: libc::c_int) -> ! {
    close_all_but(&[status_fd, mount_ns]);
    loop {
        let mut status = 0;
        // SAFETY: plain system call on a local integer.
        let r = unsafe { libc::waitpid(-1, &mut status, libc::__WALL) };
        if r == program {
            send_status(status_fd, status, mount_ns);
            // SAFETY: ends this process, which holds nothing to flush.
            unsafe { libc::_exit(0) };
        }
        // SAFETY: reads this thread's errno.
        if r < 0 && unsafe { *libc::__errno_location() } != libc::EINTR {
            // SAFETY: as above.
            unsafe { libc::_exit(125) };
        }
    }
}

/// Closes every descriptor of this process but `keep`'s two (a negative
/// one keeps nothing). System calls only: no allocation after `fork`.
fn close_all_but(keep: &[libc::c_int; 2]) {
    let (a, b) = (keep[0].min(keep[1]), keep[0].max(keep[1]));
    let mut next = 0u32;
    for fd in [a, b] {
        if fd < 0 {
            continue;
        }
        let fd = fd as u32;
        if fd > next {
            // SAFETY: plain system call with integer arguments.
            unsafe { libc::syscall(libc::SYS_close_range, next, fd - 1, 0u32) };
        }
        next = next.max(fd + 1);
    }
    // SAFETY: as above.
    unsafe { libc::syscall(libc::SYS_close_range, next, u32::MAX, 0u32) };
}

/// This process's mount namespace as a close-on-exec descriptor, or -1.
/// The run's init hands it to the runner with the program's status
/// ([`init_loop`]): the namespace then outlives the init, and its
/// unmount, which waits for an RCU grace period, is done by the runner
/// after it has answered (the `Cleanup` of `mod.rs`), not on the way to
/// the answer. System calls only.
pub(crate) fn open_own_mount_namespace() -> libc::c_int {
    // SAFETY: a constant path; the descriptor is this process's own.
    unsafe { libc::open(c"/proc/self/ns/mnt".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) }
}

/// Sends the program's raw wait `status` on `status_fd` (a `SOCK_SEQPACKET`
/// socket), with `mount_ns` attached when it is open; the status alone if
/// that cannot be sent. System calls only.
fn send_status(status_fd: libc::c_int, status: libc::c_int, mount_ns: libc::c_int) {
    let bytes = status.to_ne_bytes();
    // SAFETY: descriptors this process holds open until it exits.
    let (socket, ns) = unsafe {
        (
            BorrowedFd::borrow_raw(status_fd),
            (mount_ns >= 0).then(|| BorrowedFd::borrow_raw(mount_ns)),
        )
    };
    if ns.is_some() && super::fdpass::send(socket, &bytes, ns).is_ok() {
        return;
    }
    let _ = super::fdpass::send(socket, &bytes, None);
}

/// The runner's end of [`init_loop`]'s message: the program's raw wait
/// status and, when the init sent it, the run's mount namespace (`None`:
/// the init ended without a status, killed for a limit, say).
pub(crate) fn receive_status(fd: &OwnedFd) -> Option<(i32, Option<OwnedFd>)> {
    let mut raw = [0u8; 4];
    let (got, mount_ns) =
        super::fdpass::receive(fd.as_fd(), &mut raw, rustix::net::RecvFlags::DONTWAIT).ok()?;
    (got == raw.len()).then(|| (i32::from_ne_bytes(raw), mount_ns))
}

/// Whether this judge may make cgroup namespaces (Linux 4.6+, and no
/// security module refusing them), which every isolated run then enters
/// once it is in its cgroup (`child::Isolated::new_cgroup`). Tried once,
/// in a throw-away thread.
pub(crate) fn cgroup_namespaces() -> bool {
    static MAY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *MAY.get_or_init(|| {
        std::thread::spawn(|| {
            // SAFETY: affects only this thread, which exits right after.
            unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWCGROUP) }.is_ok()
        })
        .join()
        .unwrap_or(false)
    })
}

/// Whether this machine lets the judge build such a root: root privileges,
/// and mount and pid namespaces (tried in a throw-away thread).
pub(crate) fn probe() -> bool {
    if !nix::unistd::geteuid().is_root() {
        return false;
    }
    std::thread::spawn(|| {
        // SAFETY: affects only this thread, which exits right after.
        unsafe {
            rustix::thread::unshare_unsafe(
                rustix::thread::UnshareFlags::NEWNS
                    | rustix::thread::UnshareFlags::NEWPID
                    | rustix::thread::UnshareFlags::NEWNET
                    | rustix::thread::UnshareFlags::NEWIPC
                    | rustix::thread::UnshareFlags::NEWUTS,
            )
        }
        .is_ok()
    })
    .join()
    .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_inits_status_travels_with_its_mount_namespace_or_alone() {
        let (ours, init) = rustix::net::socketpair(
            rustix::net::AddressFamily::UNIX,
            rustix::net::SocketType::SEQPACKET,
            rustix::net::SocketFlags::CLOEXEC,
            None,
        )
        .unwrap();
        let ns = open_own_mount_namespace();
        assert!(ns >= 0, "{}", io::Error::last_os_error());
        send_status(init.as_raw_fd(), 0x0100, ns);
        let (status, got) = receive_status(&ours).expect("a status");
        assert_eq!(status, 0x0100);
        let got = got.expect("the mount namespace");
        assert_eq!(
            std::fs::read_link(format!("/proc/self/fd/{}", got.as_raw_fd())).unwrap(),
            std::fs::read_link("/proc/self/ns/mnt").unwrap()
        );
        // SAFETY: closes the descriptor opened above, used nowhere else.
        unsafe { libc::close(ns) };
        send_status(init.as_raw_fd(), 9, -1);
        assert!(matches!(receive_status(&ours), Some((9, None))));
        // Nothing sent (the init was killed): no status, at once.
        assert!(receive_status(&ours).is_none());
        drop(init);
        assert!(receive_status(&ours).is_none());
    }

    fn plan(run: &str, extra_ro: &[PathBuf], tmp_bytes: u64) -> RootPlan {
        let base = Path::new("/nonexistent-mayan").join(run);
        RootPlan::new(
            &base.join("root"),
            &base.join("box"),
            extra_ro,
            &[],
            &[],
            ScratchSizes {
                tmp_bytes,
                shm_bytes: tmp_bytes / 4,
            },
            Views {
                landlock: false,
                proc_view: ProcView::Whole,
            },
        )
    }

    #[test]
    fn runs_with_the_same_read_only_folders_share_a_base_and_keep_their_own_mounts() {
        let (a, b) = (plan("a", &[], 1 << 20), plan("b", &[], 8 << 20));
        // The key of a prepared root: where the run's folders are and how
        // large its scratch is do not enter it.
        assert_eq!(a.base, b.base);
        assert_ne!(a.box_bind, b.box_bind);
        assert_ne!(a.own, b.own);
        // A language's tree is another base.
        let tree = std::env::temp_dir();
        if !SYSTEM_DIRS.iter().any(|s| tree.starts_with(s)) {
            assert_ne!(plan("c", &[tree], 1 << 20).base, a.base);
        }
        // The base holds nothing of a run: no work folder, no /tmp,
        // /dev/shm or /proc mounted; its paths are relative to the root,
        // and /dev ends read-only.
        for step in &a.base {
            match step {
                Step::Bind { src, .. } => {
                    assert!(!src.to_bytes().starts_with(b"/nonexistent-mayan"), "{step:?}")
                }
                Step::Tmpfs { dst, .. } => assert_eq!(dst.as_c_str(), c"dev"),
                Step::Proc { .. } => panic!("/proc in the base"),
                Step::Mkdir(p) | Step::Touch(p) | Step::ReadOnly(p) | Step::Symlink { link: p, .. } => {
                    assert!(!p.to_bytes().starts_with(b"/"), "{step:?}")
                }
            }
        }
        assert_eq!(a.base.last(), Some(&Step::ReadOnly(c_str("dev"))));
        assert!(a.own.iter().any(|s| matches!(s, Step::Proc { .. })));
    }

    #[test]
    fn a_folder_below_a_runs_own_mounts_is_not_seen_at_its_own_path() {
        assert!(seen_at_own_path(Path::new("/root/.cache/mayan-judge/pch-1")));
        assert!(seen_at_own_path(Path::new("/tmpfiles")));
        for hidden in ["/tmp/cache", "/box", "/dev/shm/x", "/proc/1", "relative"] {
            assert!(!seen_at_own_path(Path::new(hidden)), "{hidden}");
        }
    }

    #[test]
    fn only_the_first_user_namespace_keeps_prepared_roots() {
        assert!(is_identity_map("         0          0 4294967295\n"));
        // Rootless Podman's map: the user, then its subordinate range.
        assert!(!is_identity_map("0 1000 1\n1 100000 65536\n"));
        // A rootless judge's own namespace.
        assert!(!is_identity_map("0 1000 1\n"));
        assert!(!is_identity_map(""));
    }

    #[test]
    fn outside_a_runner_every_root_is_built_afresh() {
        let mut a = plan("a", &[], 1 << 20);
        // No test of this binary is a runner: nothing turns them on.
        assert!(!PREPARED_ROOTS.load(Ordering::Relaxed));
        assert!(a.reuse_prepared(Path::new("/")).is_none());
        assert!(a.prepared.is_none());
        assert_eq!(prepared_roots(), 0);
    }
}
