//! The judge's own process on its machine, prepared once, first thing in
//! `main`, by a command that runs untrusted programs ([`prepare`]), while
//! the judge is still a single thread: its cgroup placement and, for an
//! ordinary user, its user namespace. Every run then starts from there.
//!
//! * **Root** keeps its credentials. On cgroup v2 the runs' cgroups go
//!   where [`super::delegation`] says (asking systemd for a delegated
//!   scope starts the judge again in it, same pid); cgroup v1 is as before
//!   (`cgroup.rs`).
//! * **An ordinary user** (rootless, as bubblewrap and rootless podman
//!   run): after the same cgroup placement (systemd's user manager
//!   delegates a subtree to every user), the judge enters a user namespace
//!   of its own, with a mount namespace, where it is uid 0 and may build
//!   each run's private root exactly as root does. Its uid map is
//!   `0 → the user` and, where `/etc/subuid` and `/etc/subgid` give the
//!   user a range and `newuidmap`/`newgidmap` are installed, `1.. → that
//!   range`, so each concurrent run gets a uid of its own ([`Mode`]).
//!   Without a range every run is the user's own uid inside its
//!   namespaces, its capabilities dropped; what separates runs is then
//!   their pid, mount, network and IPC namespaces, Landlock and seccomp.
//!
//! Whatever could not be had is kept as a phrase with its fix, for
//! [`super::Protections::missing`] and `doctor`.

use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::delegation::{self, Plan, Unavailable};

/// Set by the judge when it asks systemd for a scope, to the scope's name,
/// so that the judge started again in it knows the scope is its own.
const SCOPE_ENV: &str = "MAYAN_JUDGE_SCOPE";

/// A range of subordinate ids (`/etc/subuid`, `/etc/subgid`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubIds {
    /// First id outside.
    pub start: u32,
    /// How many.
    pub count: u32,
}

/// How the judge holds its privileges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The judge is root.
    Root,
    /// An ordinary user, in a user namespace of its own.
    Rootless {
        /// The user's uid outside.
        uid: u32,
        /// The subordinate uids mapped in (`None`: one uid for every run).
        subuids: Option<SubIds>,
    },
    /// An ordinary user whose user namespace could not be had (why, fix).
    User {
        /// Why not.
        why: String,
        /// The command that enables it.
        fix: String,
    },
}

/// Where runs' cgroups go on cgroup v2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum V2Place {
    /// Under this folder (delegated to the judge, controllers enabled).
    Parent(PathBuf),
    /// Nowhere: why and the fix.
    None(Unavailable),
}

/// The prepared host.
#[derive(Debug, Clone)]
pub struct Host {
    /// Root, rootless, or a user without a namespace.
    pub mode: Mode,
    /// Cgroup v2 placement, when the machine has cgroup v2.
    pub(crate) v2: Option<V2Place>,
}

static HOST: OnceLock<Host> = OnceLock::new();

/// Prepares the judge's process (see the module comment). Call first thing
/// in `main`, before any thread exists; a no-op the second time. May
/// replace the process (same pid) to start it again in a systemd scope.
pub fn prepare() {
    HOST.get_or_init(|| {
        let v2 = v2_mount().map(|(top, own, real_root)| place_v2(&top, &own, real_root, true));
        let mode = if nix::unistd::geteuid().is_root() {
            Mode::Root
        } else {
            enter_user_namespace()
        };
        Host { mode, v2 }
    });
}

/// The prepared host; without [`prepare`] (library use, unit tests), what
/// can be had without changing the process: root or a plain user, and a
/// cgroup v2 placement at the top of the tree only.
pub fn current() -> &'static Host {
    HOST.get_or_init(|| Host {
        mode: if nix::unistd::geteuid().is_root() {
            Mode::Root
        } else {
            Mode::User {
                why: "the judge's process was not prepared for rootless runs".into(),
                fix: "run the mayan-judge command itself".into(),
            }
        },
        v2: v2_mount().map(|(top, own, real_root)| place_v2(&top, &own, real_root, false)),
    })
}

// ---------------------------------------------------------------------------
// cgroup v2 placement

/// The cgroup2 mount (only when no v1 memory hierarchy is mounted: a
/// hybrid host keeps its v1 path), the judge's cgroup under it, and
/// whether that mount shows the machine's real root cgroup.
fn v2_mount() -> Option<(PathBuf, PathBuf, bool)> {
    let mounts = super::mountinfo::parse(&fs::read_to_string("/proc/self/mountinfo").ok()?);
    let own = fs::read_to_string("/proc/self/cgroup").ok()?;
    let v1_memory = mounts
        .iter()
        .any(|m| m.fstype == "cgroup" && m.super_opts.iter().any(|o| o == "memory"));
    if v1_memory {
        return None;
    }
    // The last one mounted is the one seen (a container mounts its own
    // over the host's).
    let m = mounts.iter().rev().find(|m| m.fstype == "cgroup2")?;
    let own_dir = m.dir_of(own.lines().find_map(|l| l.strip_prefix("0::"))?)?;
    // In a cgroup namespace the judge's own path reads "/" at its root;
    // the machine's real root has no `cgroup.type` of its own.
    let real_root = m.root == "/" && !m.mount_point.join("cgroup.type").exists();
    Some((m.mount_point.clone(), own_dir, real_root))
}

/// Chooses and carries out the placement; `may_change_process`: asking
/// systemd (which starts the judge again) and moving the judge into a leaf
/// are allowed.
fn place_v2(top: &Path, own: &Path, real_root: bool, may_change_process: bool) -> V2Place {
    let scope = std::env::var_os(SCOPE_ENV);
    let in_own_scope = scope.as_deref().is_some_and(|s| own.file_name() == Some(s));
    let systemd = if scope.is_some() && !in_own_scope {
        // Asked once already: never again (no loop of restarts).
        Err(format!(
            "systemd's scope did not hold the judge ({})",
            own.display()
        ))
    } else if may_change_process {
        systemd_available()
    } else {
        Err("not asked (the judge's process was not prepared)".into())
    };
    let facts = delegation::read_facts(top, own, real_root, systemd, in_own_scope);
    match delegation::plan(&facts) {
        Plan::AskSystemd => V2Place::None(restart_in_scope()),
        Plan::Leaf { dir, restore } if may_change_process => match delegation::make_leaf(&dir) {
            Ok(undo) => {
                if restore {
                    undo_at_exit(undo);
                }
                V2Place::Parent(dir)
            }
            Err(e) => V2Place::None(Unavailable {
                why: format!("cannot make the judge's leaf in {}: {e}", dir.display()),
                fix: "start the judge in a fresh delegated unit: systemd-run --scope -p Delegate=yes mayan-judge ..."
                    .into(),
            }),
        },
        Plan::Gather { dir } if may_change_process => match delegation::gather_leaf(&dir) {
            Ok(undo) => {
                undo_at_exit(undo);
                V2Place::Parent(dir)
            }
            Err(e) => V2Place::None(Unavailable {
                why: format!("cannot gather the unit's processes into a leaf of {}: {e}", dir.display()),
                fix: "start the judge itself as the unit's ExecStart (no wrapper), or under systemd-run --scope -p Delegate=yes"
                    .into(),
            }),
        },
        Plan::Leaf { dir, .. } | Plan::Gather { dir } => V2Place::None(Unavailable {
            why: format!("{} is usable only by a prepared judge process", dir.display()),
            fix: "run the mayan-judge command itself".into(),
        }),
        Plan::Top { dir } => top_folder(top, &dir),
        Plan::Unavailable(u) => V2Place::None(u),
    }
}

/// Makes `<top>/mayan-judge` with the controllers passed down to it.
fn top_folder(top: &Path, dir: &Path) -> V2Place {
    let fail = |e: io::Error| {
        V2Place::None(Unavailable {
            why: format!("cannot prepare {}: {e}", dir.display()),
            fix: "start the judge in a delegated unit: sudo systemd-run -p Delegate=yes --scope mayan-judge ...".into(),
        })
    };
    if let Err(e) = delegation::enable(top) {
        return fail(e);
    }
    match fs::create_dir(dir) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return fail(e),
        _ => {}
    }
    match delegation::enable(dir) {
        Ok(_) => V2Place::Parent(dir.to_path_buf()),
        Err(e) => fail(e),
    }
}

/// Whether systemd manages this machine and will make a scope for the
/// judge (tried with `true` first: a refusal must not cost the judge its
/// process).
fn systemd_available() -> Result<(), String> {
    if !Path::new("/run/systemd/system").is_dir() {
        return Err("systemd is not running here".into());
    }
    let user = !nix::unistd::geteuid().is_root();
    if user {
        user_bus_env()?;
    }
    let out = systemd_run(user)
        .arg("true")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run systemd-run: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "systemd refused a delegated scope: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// For an ordinary user: the user manager's bus, found where a login
/// session or lingering puts it (a system service with `User=` has no
/// `XDG_RUNTIME_DIR`).
fn user_bus_env() -> Result<(), String> {
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some() {
        return Ok(());
    }
    let dir = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(format!("/run/user/{}", nix::unistd::getuid())));
    let bus = dir.join("bus");
    if !bus.exists() {
        return Err(format!(
            "no user manager ({} is missing; sudo loginctl enable-linger {} starts one)",
            bus.display(),
            nix::unistd::User::from_uid(nix::unistd::getuid())
                .ok()
                .flatten()
                .map_or_else(|| "$USER".to_string(), |u| u.name)
        ));
    }
    // SAFETY: called while the judge is a single thread (see `prepare`).
    unsafe { std::env::set_var("XDG_RUNTIME_DIR", &dir) };
    Ok(())
}

/// `systemd-run [--user] --scope -p Delegate=yes --quiet --collect --`.
fn systemd_run(user: bool) -> Command {
    let mut cmd = Command::new("systemd-run");
    if user {
        cmd.arg("--user");
    }
    cmd.args(["--scope", "-p", "Delegate=yes", "--quiet", "--collect"]);
    cmd
}

/// Starts the judge again in a delegated scope of its own (`exec`: same
/// pid, same streams); returns only on failure.
fn restart_in_scope() -> Unavailable {
    let unit = format!("mayan-judge-{}.scope", std::process::id());
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("/proc/self/exe"));
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let err = systemd_run(!nix::unistd::geteuid().is_root())
        .args(["--unit", &unit, "--"])
        .arg(exe)
        .args(args)
        .env(SCOPE_ENV, &unit)
        .exec();
    Unavailable {
        why: format!("cannot start again in a systemd scope: {err}"),
        fix: "start the judge in a delegated unit: systemd-run --scope -p Delegate=yes mayan-judge ..."
            .into(),
    }
}

/// Undoes a leaf made in the caller's cgroup when the judge exits.
fn undo_at_exit(undo: delegation::Undo) {
    static UNDO: OnceLock<delegation::Undo> = OnceLock::new();
    extern "C" fn run_undo() {
        if let Some(u) = UNDO.get() {
            u.undo();
        }
    }
    if UNDO.set(undo).is_ok() {
        // SAFETY: registers a plain function; it runs at exit().
        unsafe { nix::libc::atexit(run_undo) };
    }
}

// ---------------------------------------------------------------------------
// The user namespace of a rootless judge

/// Enters a user namespace (and a mount namespace) where the judge is uid
/// 0, mapping the user's subordinate ids where it has them.
fn enter_user_namespace() -> Mode {
    let (uid, gid) = (nix::unistd::getuid().as_raw(), nix::unistd::getgid().as_raw());
    let name = nix::unistd::User::from_uid(uid.into())
        .ok()
        .flatten()
        .map(|u| u.name);
    let ranges = subordinate_ranges(uid, gid, name.as_deref());
    let result = single_thread()
        .and_then(|()| unshare_and_map(uid, gid, ranges))
        .and_then(|mapped| private_mounts().map(|()| mapped));
    match result {
        Ok(subuids) => Mode::Rootless { uid, subuids },
        Err(why) => Mode::User {
            why,
            fix: userns_fix(),
        },
    }
}

/// The one command that lets ordinary users make user namespaces here.
fn userns_fix() -> String {
    let read = |p: &str| fs::read_to_string(p).map(|s| s.trim().to_string()).ok();
    if read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns").as_deref() == Some("1") {
        "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0".into()
    } else if read("/proc/sys/kernel/unprivileged_userns_clone").as_deref() == Some("0") {
        "sudo sysctl -w kernel.unprivileged_userns_clone=1".into()
    } else if read("/proc/sys/user/max_user_namespaces").as_deref() == Some("0") {
        "sudo sysctl -w user.max_user_namespaces=15000".into()
    } else {
        "run the judge as root, or enable unprivileged user namespaces".into()
    }
}

fn single_thread() -> Result<(), String> {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    match status
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .map(str::trim)
    {
        Some("1") | None => Ok(()),
        Some(n) => Err(format!(
            "the judge already runs {n} threads (a user namespace needs one)"
        )),
    }
}

/// The user's ranges in `/etc/subuid` and `/etc/subgid`, when both exist,
/// `newuidmap`/`newgidmap` are installed, and the judge may gain their
/// set-uid privilege (not under `no_new_privs`: systemd's
/// `NoNewPrivileges=` and the options that imply it for a `User=`).
fn subordinate_ranges(uid: u32, gid: u32, name: Option<&str>) -> Option<(SubIds, SubIds)> {
    if no_new_privs() {
        return None;
    }
    let group = nix::unistd::Group::from_gid(gid.into())
        .ok()
        .flatten()
        .map(|g| g.name);
    let u = parse_subids(&fs::read_to_string("/etc/subuid").ok()?, uid, name)?;
    let g = parse_subids(
        &fs::read_to_string("/etc/subgid").ok()?,
        gid,
        name.or(group.as_deref()),
    )?;
    let found = |p: &str| {
        ["/usr/bin", "/bin", "/usr/sbin"]
            .iter()
            .any(|d| Path::new(d).join(p).exists())
    };
    (found("newuidmap") && found("newgidmap")).then_some((u, g))
}

/// Whether the judge runs with `no_new_privs` (`NoNewPrivs: 1` in
/// `/proc/self/status`): then a set-uid `newuidmap` runs without its
/// privilege and the kernel refuses its map.
fn no_new_privs() -> bool {
    fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .filter_map(|l| l.strip_prefix("NoNewPrivs:"))
            .any(|v| v.trim() == "1")
    })
}

/// The first range of `/etc/subuid`-style `text` for `id` or `name`.
pub(crate) fn parse_subids(text: &str, id: u32, name: Option<&str>) -> Option<SubIds> {
    text.lines().find_map(|l| {
        let mut it = l.trim().split(':');
        let (who, start, count) = (it.next()?, it.next()?, it.next()?);
        let mine = who == id.to_string() || Some(who) == name;
        let r = SubIds {
            start: start.parse().ok()?,
            count: count.parse().ok()?,
        };
        (mine && r.count > 0).then_some(r)
    })
}

/// `unshare(CLONE_NEWUSER | CLONE_NEWNS)` and the uid/gid maps: written by
/// `newuidmap`/`newgidmap` from a helper forked before (they must run
/// outside the namespace), else by the judge itself (`0 → uid` only).
fn unshare_and_map(uid: u32, gid: u32, ranges: Option<(SubIds, SubIds)>) -> Result<Option<SubIds>, String> {
    let helper = ranges.map(|(u, g)| MapHelper::fork(uid, gid, u, g)).transpose()?;
    // SAFETY: the judge is one thread (checked); affects only itself.
    let unshared = unsafe {
        rustix::thread::unshare_unsafe(
            rustix::thread::UnshareFlags::NEWUSER | rustix::thread::UnshareFlags::NEWNS,
        )
    };
    if let Err(e) = unshared {
        drop(helper);
        return Err(format!("cannot make a user namespace: {e}"));
    }
    if let (Some(h), Some((u, _))) = (helper, ranges)
        && h.map_now()
    {
        return Ok(Some(u));
    }
    let write = |file: &str, text: String| fs::write(file, text).map_err(|e| format!("writing {file}: {e}"));
    write("/proc/self/setgroups", "deny".into())?;
    write("/proc/self/uid_map", format!("0 {uid} 1\n"))?;
    write("/proc/self/gid_map", format!("0 {gid} 1\n"))?;
    Ok(None)
}

/// A child forked before `unshare` that runs `newuidmap` and `newgidmap`
/// on the judge when told to, and dies with the judge (its parent-death
/// signal; without it, the closed pipe ends its wait anyway).
struct MapHelper {
    pid: nix::unistd::Pid,
    go: std::os::fd::OwnedFd,
}

impl MapHelper {
    fn fork(uid: u32, gid: u32, u: SubIds, g: SubIds) -> Result<MapHelper, String> {
        let (r, w) = nix::unistd::pipe().map_err(|e| format!("pipe: {e}"))?;
        let judge = std::process::id();
        // SAFETY: the judge is one thread, so the child may do anything.
        match unsafe { nix::unistd::fork() }.map_err(|e| format!("fork: {e}"))? {
            nix::unistd::ForkResult::Child => {
                drop(w);
                // Killed with the judge; gone at once if it died already.
                let _ = rustix::process::set_parent_process_death_signal(Some(rustix::process::Signal::KILL));
                let orphan = nix::unistd::getppid().as_raw() as u32 != judge;
                let mut b = [0u8; 1];
                let told = !orphan && nix::unistd::read(&r, &mut b).is_ok_and(|n| n == 1);
                let ok = told
                    && run_map("newuidmap", judge, uid, u).is_ok()
                    && run_map("newgidmap", judge, gid, g).is_ok();
                // SAFETY: leaves the child at once, running no destructor of the judge's.
                unsafe { nix::libc::_exit(if ok { 0 } else { 1 }) }
            }
            nix::unistd::ForkResult::Parent { child } => {
                drop(r);
                Ok(MapHelper { pid: child, go: w })
            }
        }
    }

    /// Tells the helper to map, waits; whether both maps were written.
    fn map_now(self) -> bool {
        let told = nix::unistd::write(&self.go, b"g").is_ok();
        drop(self.go);
        let done = nix::sys::wait::waitpid(self.pid, None);
        told && matches!(done, Ok(nix::sys::wait::WaitStatus::Exited(_, 0)))
    }
}

fn run_map(tool: &str, pid: u32, id: u32, r: SubIds) -> io::Result<()> {
    let status = Command::new(tool)
        .args([pid, 0, id, 1, 1, r.start, r.count].map(|n| n.to_string()))
        .stdin(Stdio::null())
        .status()?;
    if status.success() {
        Ok(())
    } else {
        Err(io::Error::other(format!("{tool} failed: {status}")))
    }
}

/// Mounts made by the judge from now on stay in its mount namespace.
fn private_mounts() -> Result<(), String> {
    nix::mount::mount(
        None::<&str>,
        "/",
        None::<&str>,
        nix::mount::MsFlags::MS_REC | nix::mount::MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .map_err(|e| format!("cannot make the judge's mounts private: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subordinate_ranges_are_found_by_name_or_uid() {
        let text = "alice:100000:65536\n2001:300000:1000\nbob:200000:0\n";
        assert_eq!(
            parse_subids(text, 1000, Some("alice")),
            Some(SubIds {
                start: 100000,
                count: 65536
            })
        );
        assert_eq!(
            parse_subids(text, 2001, Some("carol")).map(|r| r.start),
            Some(300000)
        );
        // An empty range is no range.
        assert_eq!(parse_subids(text, 3000, Some("bob")), None);
        assert_eq!(parse_subids(text, 3000, None), None);
    }
}
