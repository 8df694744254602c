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
//! | `/box` | the run's work folder (a tmpfs the judge mounted), the only writable place the judge sees |
//! | `/tmp`, `/dev/shm` | fresh size-capped tmpfs, gone with the run |
//! | `/dev` | `null`, `zero`, `full`, `random`, `urandom` and the `fd`/`std*` links |
//! | `/proc` | a new procfs of the run's pid namespace, other users' processes hidden |
//!
//! Nothing else of the host is visible: not the tests, the packages, the
//! cache, other runs, `/root`, `/home`, `/etc` or the judge's files. Where
//! the judge's executable or a package lies inside a bound folder (the
//! judge installed in `/usr/local/bin`, packages under `/usr/share`), an
//! empty file or folder is bound over it ([`RootPlan::new`]'s `hidden`). The
//! `init` then forks the program (so the program is an ordinary process,
//! with ordinary signal semantics), reaps everything, and hands the
//! program's wait status to the judge through a pipe. When `init` exits,
//! or is killed because the judge died (parent-death signal), the kernel
//! kills every process left in the namespace.
//!
//! [`RootPlan`] is made in the parent, where allocation is allowed; the
//! child only replays it as system calls ([`RootPlan::enter`]).

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use nix::libc;

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

/// One step of building the root; paths are absolute host paths under the
/// new root's mount point.
#[derive(Debug)]
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
    Tmpfs {
        dst: CString,
        options: CString,
    },
    Proc {
        dst: CString,
    },
}

/// How to build one run's root, prepared in the parent.
#[derive(Debug)]
pub(crate) struct RootPlan {
    root: CString,
    root_options: CString,
    steps: Vec<Step>,
    workdir_inside: CString,
    /// Landlock rules for the program, when the kernel has Landlock.
    pub(crate) fence: Option<super::landlock::Fence>,
}

fn c(path: &Path) -> CString {
    CString::new(path.as_os_str().as_bytes()).expect("paths from the judge have no NUL")
}

fn c_str(s: &str) -> CString {
    CString::new(s).expect("no NUL")
}

/// Sizes of the run's scratch file systems.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScratchSizes {
    /// `/tmp`, bytes.
    pub(crate) tmp_bytes: u64,
    /// `/dev/shm`, bytes.
    pub(crate) shm_bytes: u64,
}

impl RootPlan {
    /// Plans a root at `root` (an empty folder) holding the system folders,
    /// `extra_ro` (read-only, at their own paths) and `workdir` at `/box`.
    pub(crate) fn new(
        root: &Path,
        workdir: &Path,
        extra_ro: &[PathBuf],
        hidden: &[PathBuf],
        scratch: ScratchSizes,
        landlock: bool,
    ) -> RootPlan {
        let mut steps = Vec::new();
        // Folders bound read-only, as the run sees them (for Landlock).
        let mut read_only: Vec<String> = Vec::new();
        let under = |p: &Path| root.join(p.strip_prefix("/").unwrap_or(p));
        for dir in SYSTEM_DIRS.iter().map(Path::new) {
            match std::fs::symlink_metadata(dir) {
                Ok(m) if m.file_type().is_symlink() => {
                    if let Ok(target) = std::fs::read_link(dir) {
                        steps.push(Step::Symlink {
                            target: c(&target),
                            link: c(&under(dir)),
                        });
                    }
                }
                Ok(m) if m.is_dir() => {
                    mkdir_parents(&mut steps, root, dir);
                    bind_dir(&mut steps, dir, &under(dir), true);
                    read_only.push(dir.to_string_lossy().into_owned());
                }
                _ => {}
            }
        }
        for dir in extra_ro {
            if dir.is_absolute() && dir.is_dir() && !SYSTEM_DIRS.iter().any(|s| dir.starts_with(s)) {
                mkdir_parents(&mut steps, root, dir);
                bind_dir(&mut steps, dir, &under(dir), true);
                read_only.push(dir.to_string_lossy().into_owned());
            }
        }
        hide(&mut steps, root, hidden, &read_only);
        bind_dir(&mut steps, workdir, &under(Path::new(BOX_DIR)), false);
        for (dir, bytes) in [
            ("/tmp", scratch.tmp_bytes),
            ("/dev", 0),
            ("/dev/shm", scratch.shm_bytes),
        ] {
            steps.push(Step::Mkdir(c(&under(Path::new(dir)))));
            let options = if dir == "/dev" {
                "size=64k,nr_inodes=64,mode=0755".to_string()
            } else {
                format!("size={bytes},nr_inodes=4096,mode=1777")
            };
            steps.push(Step::Tmpfs {
                dst: c(&under(Path::new(dir))),
                options: c_str(&options),
            });
            if dir == "/dev" {
                for dev in DEVICES {
                    let host = Path::new("/dev").join(dev);
                    if host.exists() {
                        steps.push(Step::Touch(c(&under(&host))));
                        steps.push(Step::Bind {
                            src: c(&host),
                            dst: c(&under(&host)),
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
                        link: c(&under(&Path::new("/dev").join(link))),
                    });
                }
            }
        }
        steps.push(Step::Mkdir(c(&under(Path::new("/proc")))));
        steps.push(Step::Proc {
            dst: c(&under(Path::new("/proc"))),
        });
        RootPlan {
            root: c(root),
            root_options: c_str("size=1m,nr_inodes=1024,mode=0755"),
            steps,
            workdir_inside: c_str(BOX_DIR),
            fence: if landlock {
                let dirs: Vec<&str> = read_only.iter().map(String::as_str).collect();
                super::landlock::Fence::new(&dirs)
            } else {
                None
            },
        }
    }

    /// In the child (root, in fresh mount and pid namespaces): builds the
    /// root, enters it and makes it read-only. System calls only.
    pub(crate) fn enter(&self) -> io::Result<()> {
        mount(None, c"/", None, libc::MS_REC | libc::MS_PRIVATE, None)?;
        mount(
            Some(c"mayan-judge"),
            &self.root,
            Some(c"tmpfs"),
            libc::MS_NOSUID | libc::MS_NODEV,
            Some(&self.root_options),
        )?;
        for step in &self.steps {
            self.apply(step)?;
        }
        chdir(&self.root)?;
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
        )?;
        chdir(&self.workdir_inside)
    }

    fn apply(&self, step: &Step) -> io::Result<()> {
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
            Step::Tmpfs { dst, options } => mount(
                Some(c"tmpfs"),
                dst,
                Some(c"tmpfs"),
                libc::MS_NOSUID | libc::MS_NODEV,
                Some(options),
            ),
            Step::Proc { dst } => mount(
                Some(c"proc"),
                dst,
                Some(c"proc"),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                Some(c"hidepid=invisible"),
            ),
        }
    }
}

/// Binds an empty folder (or file) of the root over each `hidden` path
/// that lies inside a bound folder, read-only, so that the run sees
/// nothing there.
fn hide(steps: &mut Vec<Step>, root: &Path, hidden: &[PathBuf], bound: &[String]) {
    let empty_dir = root.join(".hidden");
    let empty_file = root.join(".hidden-file");
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
        let dst = root.join(path.strip_prefix("/").unwrap_or(path));
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
fn mkdir_parents(steps: &mut Vec<Step>, root: &Path, dir: &Path) {
    let mut acc = root.to_path_buf();
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

/// The `init` of a run's pid namespace, after it forked the program
/// (`program` is its pid): closes every descriptor but `status_fd` (so the
/// run's pipes close when the program's tree is gone, and `spawn` is not
/// held by the exec-error pipe), reaps every process of the namespace, and
/// when the program has ended writes its raw wait status to `status_fd`
/// and exits, which kills whatever is left. Never returns.
pub(crate) fn init_loop(program: libc::pid_t, status_fd: libc::c_int) -> ! {
    // SAFETY: plain system calls on integers and a local buffer.
    unsafe {
        if status_fd > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, (status_fd - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (status_fd + 1) as u32, u32::MAX, 0u32);
        loop {
            let mut status = 0;
            let r = libc::waitpid(-1, &mut status, libc::__WALL);
            if r == program {
                let bytes = status.to_ne_bytes();
                libc::write(status_fd, bytes.as_ptr().cast(), bytes.len());
                libc::_exit(0);
            }
            if r < 0 && *libc::__errno_location() != libc::EINTR {
                libc::_exit(125);
            }
        }
    }
}

/// Forks with a raw `clone` (no `atfork` handlers, which may take locks
/// held by other judge threads at the time of the first fork). Returns 0
/// in the child, the child's pid in the parent.
pub(crate) fn raw_fork() -> io::Result<libc::pid_t> {
    // SAFETY: clone with only SIGCHLD behaves like fork; the child runs on
    // a copy of the stack and touches no libc state that needs atfork.
    let r = unsafe {
        libc::syscall(
            libc::SYS_clone,
            libc::SIGCHLD as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        )
    };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r as libc::pid_t)
    }
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
