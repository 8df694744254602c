//! Where a judge on cgroup v2 may create its runs' cgroups, by the
//! kernel's rules and systemd's: finding (or asking for) a delegated
//! subtree, and never changing the cgroup the judge was started in.
//!
//! The kernel's "no internal processes" rule lets controllers be enabled
//! (`cgroup.subtree_control`) only in a cgroup that holds no process, and
//! the cgroup a judge is started in (a service, a login session, a
//! container) always holds some: at least the judge. Writing `+pids` there
//! anyway is accepted and turns the cgroup *threaded*, which breaks every
//! later child cgroup ("domain invalid"). So the judge never writes to its
//! starting cgroup. It uses, in this order ([`plan`]):
//!
//! 0. **A cgroup delegated to it that it is alone in** (`serve` as the
//!    `ExecStart` of a `Delegate=yes` service): a leaf there, undone at
//!    exit, as in 2. Moved into a scope, the unit's main process would leave
//!    its service empty, and systemd would stop the service.
//! 1. **Its own scope.** Under systemd, the judge asks for a transient
//!    scope with `Delegate=yes` (`systemd-run --scope`, which registers the
//!    judge's process and execs it again, same pid, same standard streams;
//!    `--user` for an ordinary user, whose manager delegates a subtree).
//!    In the scope, the judge moves itself into a leaf (`supervisor`) and
//!    enables the controllers in the scope, which then holds no process.
//! 2. **A cgroup it is alone in** (a container whose only process is the
//!    judge, a delegated unit without systemd to ask): the same leaf, made
//!    in that cgroup; the controllers it enabled are disabled and the leaf
//!    removed when the judge exits.
//! 3. **A delegated unit it shares** with the processes that started it
//!    (a system service with `User=` and `Delegate=yes` whose `ExecStart`
//!    is a wrapper, `timeout 500 mayan-judge ...` or a shell, with no user
//!    manager to ask for a scope): systemd made that cgroup the judge's
//!    user's (the owner of its `cgroup.procs` and `cgroup.subtree_control`;
//!    for root, the cgroup carries the `trusted.delegate` mark), and its
//!    rules let the owner move the unit's own processes into a leaf and
//!    enable controllers in the cgroup, as a container's entrypoint does.
//!    The judge moves every process of the cgroup into `supervisor`; at exit
//!    it disables what it enabled and moves every process still in the
//!    leaf back. Never in a cgroup not delegated to the judge's user.
//! 4. **As root, a folder of its own at the top** of the cgroup tree
//!    (`<root>/mayan-judge`), where no process lives and the top cgroup
//!    already passes the controllers down (a host without systemd).
//!
//! Otherwise there is no place, and the reason comes with the one command
//! that gives one ([`Unavailable`]).
//!
//! [`Facts`] are read from a cgroup tree under any root folder, so the
//! choice is tested on recorded trees (`tests` below).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The controllers a run's cgroup needs.
pub(crate) const WANTED: [&str; 2] = ["memory", "pids"];

/// The name of the judge's own leaf in a delegated subtree.
pub(crate) const SUPERVISOR: &str = "supervisor";

/// What is known about the judge's cgroup and the tree around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Facts {
    /// The judge's cgroup (a folder under the cgroup2 mount).
    pub(crate) own: PathBuf,
    /// The top of the tree the judge sees (the cgroup2 mount point).
    pub(crate) top: PathBuf,
    /// Whether the judge's cgroup is the top (a container's namespace root).
    pub(crate) own_is_top: bool,
    /// Whether the top is the machine's real root cgroup (exempt from the
    /// no-internal-process rule), not a container's namespace root.
    pub(crate) top_is_real_root: bool,
    /// The processes in the judge's cgroup.
    pub(crate) own_procs: Vec<u32>,
    /// The judge's pid.
    pub(crate) pid: u32,
    /// `cgroup.type` of the judge's cgroup (`domain`, `domain threaded`...).
    pub(crate) own_type: String,
    /// Whether the judge may create folders and write files in its cgroup.
    pub(crate) own_writable: bool,
    /// `cgroup.controllers` of the judge's cgroup.
    pub(crate) own_controllers: Vec<String>,
    /// `cgroup.subtree_control` of the top.
    pub(crate) top_subtree: Vec<String>,
    /// `cgroup.controllers` of the top.
    pub(crate) top_controllers: Vec<String>,
    /// The judge runs as root.
    pub(crate) root: bool,
    /// systemd manages the machine and the judge can ask it for a scope
    /// (`None`: it cannot, with the reason).
    pub(crate) systemd: Result<(), String>,
    /// The judge is already in the scope it asked for (its name).
    pub(crate) in_own_scope: bool,
    /// The judge's cgroup is delegated to the judge's user (see
    /// [`delegated_to_me`]).
    pub(crate) own_delegated: bool,
}

/// Where the judge's runs get their cgroups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Plan {
    /// Move into `dir/supervisor`, enable the controllers in `dir`, and
    /// create runs in `dir`; `restore`: undo it when the judge exits (the
    /// folder was not made for the judge).
    Leaf {
        /// The delegated cgroup the judge is alone in.
        dir: PathBuf,
        /// Undo at exit.
        restore: bool,
    },
    /// Move every process of `dir` (the judge and the unit's wrapper
    /// processes) into `dir/supervisor`, enable the controllers in `dir`,
    /// and create runs in `dir`; at exit, move the processes back.
    Gather {
        /// The delegated cgroup the judge shares with its unit's processes.
        dir: PathBuf,
    },
    /// Ask systemd for a delegated scope and start again in it.
    AskSystemd,
    /// Create runs under this folder at the top of the tree (made if
    /// missing, controllers enabled in it); the judge stays where it is.
    Top {
        /// `<top>/mayan-judge`.
        dir: PathBuf,
    },
    /// No place: why, and the command that gives one.
    Unavailable(Unavailable),
}

/// Why the judge cannot limit runs with cgroup v2, and the fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unavailable {
    /// What is missing, in a phrase.
    pub(crate) why: String,
    /// The one command (or step) that gives it.
    pub(crate) fix: String,
}

fn has_all(list: &[String]) -> bool {
    WANTED.iter().all(|w| list.iter().any(|c| c == w))
}

/// Chooses where runs' cgroups go (see the module comment for the order).
pub(crate) fn plan(f: &Facts) -> Plan {
    let alone = !f.own_procs.is_empty() && f.own_procs.iter().all(|&p| p == f.pid);
    let own_usable = f.own_writable && f.own_type == "domain" && has_all(&f.own_controllers);
    if f.in_own_scope && own_usable && alone {
        return Plan::Leaf {
            dir: f.own.clone(),
            restore: false,
        };
    }
    // Alone in a cgroup delegated to it: the judge is the unit's main
    // process, which must stay in the unit (moved to a scope, it would leave
    // its service empty, and systemd would stop the service).
    if f.own_delegated && own_usable && alone {
        return Plan::Leaf {
            dir: f.own.clone(),
            restore: true,
        };
    }
    if !f.in_own_scope && f.systemd.is_ok() {
        return Plan::AskSystemd;
    }
    if own_usable && alone {
        return Plan::Leaf {
            dir: f.own.clone(),
            restore: true,
        };
    }
    if own_usable && f.own_delegated {
        return Plan::Gather { dir: f.own.clone() };
    }
    let top_passes = has_all(&f.top_subtree) || (f.top_is_real_root && has_all(&f.top_controllers));
    if f.root && !f.own_is_top && top_passes {
        return Plan::Top {
            dir: f.top.join("mayan-judge"),
        };
    }
    Plan::Unavailable(unavailable(f, alone))
}

/// The reason and the fix when no plan works.
fn unavailable(f: &Facts, alone: bool) -> Unavailable {
    let systemd = f
        .systemd
        .as_ref()
        .err()
        .map_or(String::new(), |e| format!("; {e}"));
    if !f.own_writable {
        let fix = if f.root {
            "start the judge in a delegated unit: sudo systemd-run -p Delegate=yes --scope mayan-judge ..."
        } else {
            "start the judge in a delegated unit of your own: systemd-run --user --scope -p Delegate=yes mayan-judge ... (if that fails: sudo loginctl enable-linger $USER)"
        };
        return Unavailable {
            why: format!(
                "no delegated cgroup v2 subtree (the judge's cgroup {} is not writable{systemd})",
                f.own.display()
            ),
            fix: fix.into(),
        };
    }
    if !has_all(&f.own_controllers) {
        return Unavailable {
            why: format!(
                "the memory and pids controllers are not delegated to {} (it has: {}){systemd}",
                f.own.display(),
                f.own_controllers.join(" ")
            ),
            fix: "delegate them: sudo systemctl edit user@.service, add [Service] Delegate=memory pids cpu, then log in again".into(),
        };
    }
    if !alone {
        return Unavailable {
            why: format!(
                "the judge's cgroup {} holds other processes and is not delegated to the judge's user, \
                 so the kernel lets no controller be enabled below it{systemd}",
                f.own.display()
            ),
            fix: "run the judge as the container's command (alone in its cgroup), or under systemd \
                  (a unit with Delegate=yes: docs/SERVICE.md)"
                .into(),
        };
    }
    Unavailable {
        why: format!(
            "the judge's cgroup {} is not a plain domain cgroup (cgroup.type: {}){systemd}",
            f.own.display(),
            f.own_type
        ),
        fix: "start the judge in a fresh delegated unit: systemd-run --scope -p Delegate=yes mayan-judge ..."
            .into(),
    }
}

// ---------------------------------------------------------------------------
// Reading the facts

/// Words of a cgroup file (`cgroup.controllers`, `cgroup.subtree_control`).
pub(crate) fn words(dir: &Path, file: &str) -> Vec<String> {
    fs::read_to_string(dir.join(file))
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The numbers of `cgroup.procs`.
pub(crate) fn procs(dir: &Path) -> Vec<u32> {
    fs::read_to_string(dir.join("cgroup.procs"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// Reads the facts of the tree at `top` for a judge in `own` (which must
/// be `top` or below it). `systemd` and `in_own_scope` come from the
/// caller (they are about the machine and the environment, not the tree).
pub(crate) fn read_facts(
    top: &Path,
    own: &Path,
    top_is_real_root: bool,
    systemd: Result<(), String>,
    in_own_scope: bool,
) -> Facts {
    Facts {
        own: own.to_path_buf(),
        top: top.to_path_buf(),
        own_is_top: own == top,
        top_is_real_root,
        own_procs: procs(own),
        pid: std::process::id(),
        own_type: fs::read_to_string(own.join("cgroup.type"))
            .map(|t| t.trim().to_string())
            .unwrap_or_else(|_| "domain".into()),
        own_writable: writable(own),
        own_controllers: words(own, "cgroup.controllers"),
        top_subtree: words(top, "cgroup.subtree_control"),
        top_controllers: words(top, "cgroup.controllers"),
        root: nix::unistd::geteuid().is_root(),
        systemd,
        in_own_scope,
        own_delegated: delegated_to_me(own),
    }
}

/// Whether systemd delegated `dir` to the judge's user: the cgroup, its
/// `cgroup.procs` and `cgroup.subtree_control` belong to the judge's
/// effective uid (systemd hands them over only with `Delegate=yes`); for
/// root, who owns every cgroup, the cgroup must also carry systemd's
/// `trusted.delegate` mark.
pub(crate) fn delegated_to_me(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let me = nix::unistd::geteuid().as_raw();
    let owned = ["", "cgroup.procs", "cgroup.subtree_control"]
        .iter()
        .all(|f| fs::metadata(dir.join(f)).is_ok_and(|m| m.uid() == me));
    owned && (me != 0 || delegate_mark(dir))
}

/// systemd's `trusted.delegate` extended attribute on `dir` is `1`.
fn delegate_mark(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    let mut value = [0u8; 8];
    // SAFETY: both strings are NUL-terminated; the buffer's length is given.
    let n = unsafe {
        nix::libc::getxattr(
            path.as_ptr(),
            c"trusted.delegate".as_ptr(),
            value.as_mut_ptr().cast(),
            value.len(),
        )
    };
    n > 0 && value[..n as usize].starts_with(b"1")
}

/// Whether the judge may make folders in `dir` and write its `cgroup.procs`
/// and `cgroup.subtree_control` (checked with `access`, as the kernel will).
fn writable(dir: &Path) -> bool {
    use nix::unistd::{AccessFlags, access};
    access(dir, AccessFlags::W_OK | AccessFlags::X_OK).is_ok()
        && access(&dir.join("cgroup.procs"), AccessFlags::W_OK).is_ok()
        && access(&dir.join("cgroup.subtree_control"), AccessFlags::W_OK).is_ok()
}

// ---------------------------------------------------------------------------
// Carrying out a leaf plan

/// What a leaf plan changed, to undo at exit.
#[derive(Debug, Clone)]
pub(crate) struct Undo {
    dir: PathBuf,
    enabled: Vec<String>,
}

/// Moves the judge into `dir/supervisor` and enables the controllers in
/// `dir`; returns what to undo (only the controllers it enabled itself).
pub(crate) fn make_leaf(dir: &Path) -> io::Result<Undo> {
    let leaf = dir.join(SUPERVISOR);
    match fs::create_dir(&leaf) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    fs::write(leaf.join("cgroup.procs"), "0")?;
    Ok(Undo {
        dir: dir.to_path_buf(),
        enabled: enable(dir)?,
    })
}

/// Moves every process of `dir` into `dir/supervisor` (the judge among
/// them) and enables the controllers in `dir`, again while processes the
/// wrapper started meanwhile keep `dir` busy; returns what to undo, which
/// moves the processes still in the leaf back.
pub(crate) fn gather_leaf(dir: &Path) -> io::Result<Undo> {
    let leaf = dir.join(SUPERVISOR);
    match fs::create_dir(&leaf) {
        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    let mut last = io::Error::other("busy");
    for _ in 0..20 {
        for pid in procs(dir) {
            match fs::write(leaf.join("cgroup.procs"), pid.to_string()) {
                // Exited since the list was read.
                Err(e) if e.raw_os_error() == Some(nix::libc::ESRCH) => {}
                r => r?,
            }
        }
        match enable(dir) {
            Ok(enabled) => {
                return Ok(Undo {
                    dir: dir.to_path_buf(),
                    enabled,
                });
            }
            Err(e) if e.raw_os_error() == Some(nix::libc::EBUSY) => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// Enables the [`WANTED`] controllers for `dir`'s children; returns the
/// ones this call enabled (the others already were).
pub(crate) fn enable(dir: &Path) -> io::Result<Vec<String>> {
    let before = words(dir, "cgroup.subtree_control");
    let mut enabled = Vec::new();
    for c in WANTED {
        if !before.iter().any(|b| b == c) {
            fs::write(dir.join("cgroup.subtree_control"), format!("+{c}"))?;
            enabled.push(c.to_string());
        }
    }
    Ok(enabled)
}

impl Undo {
    /// Removes any run cgroup still being torn down (a fork bomb's may
    /// take seconds on a slow machine), disables what was enabled (only
    /// then may a process join the cgroup again: the no-internal-process
    /// rule), moves every process of the leaf back (the judge, and the
    /// unit's processes a gathered leaf took in) and removes the leaf: the
    /// cgroup is as it was found.
    pub(crate) fn undo(&self) {
        let runs: Vec<PathBuf> = fs::read_dir(&self.dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("mayan-judge-"))
            .map(|e| e.path())
            .collect();
        for run in runs {
            remove_when_idle(&run, || {
                let _ = fs::write(run.join("cgroup.kill"), "1");
            });
        }
        for c in self.enabled.iter().rev() {
            let _ = fs::write(self.dir.join("cgroup.subtree_control"), format!("-{c}"));
        }
        for pid in procs(&self.dir.join(SUPERVISOR)) {
            let _ = fs::write(self.dir.join("cgroup.procs"), pid.to_string());
        }
        let _ = fs::write(self.dir.join("cgroup.procs"), "0");
        // The launcher's last runners may still be leaving the leaf.
        remove_when_idle(&self.dir.join(SUPERVISOR), || {});
    }
}

/// Removes the cgroup `dir`, retrying for up to 10 s while the kernel says
/// it is busy (EBUSY: processes still leaving it or being torn down), with
/// `meanwhile` between tries. Any other failure is final: it would not go
/// away by waiting (on a plain folder, the unit tests' recorded trees, a
/// folder with files in it is ENOTEMPTY).
fn remove_when_idle(dir: &Path, mut meanwhile: impl FnMut()) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while let Err(e) = fs::remove_dir(dir) {
        if e.raw_os_error() != Some(nix::libc::EBUSY) || std::time::Instant::now() >= deadline {
            return;
        }
        meanwhile();
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    /// A judge started by a system service on a systemd host, as recorded
    /// in a Debian 12 guest booted with `cgroup_no_v1=all`.
    fn system_service() -> Facts {
        Facts {
            own: "/sys/fs/cgroup/system.slice/mayan-test.service".into(),
            top: "/sys/fs/cgroup".into(),
            own_is_top: false,
            top_is_real_root: true,
            own_procs: vec![812, 815],
            pid: 815,
            own_type: "domain".into(),
            own_writable: true,
            own_controllers: strings("cpuset cpu io memory pids"),
            top_subtree: strings("cpuset cpu io memory pids"),
            top_controllers: strings("cpuset cpu io memory hugetlb pids rdma misc"),
            root: true,
            systemd: Ok(()),
            in_own_scope: false,
            own_delegated: false,
        }
    }

    #[test]
    fn under_systemd_the_judge_asks_for_a_scope_of_its_own() {
        assert_eq!(plan(&system_service()), Plan::AskSystemd);
        // Even when it is alone in a unit not delegated to it (no
        // trusted.delegate mark): that cgroup is the caller's.
        let mut f = system_service();
        f.own_procs = vec![815];
        assert_eq!(plan(&f), Plan::AskSystemd);
    }

    #[test]
    fn in_its_scope_the_judge_makes_a_leaf_and_keeps_nothing_to_undo() {
        let mut f = system_service();
        f.own = "/sys/fs/cgroup/system.slice/mayan-judge-815.scope".into();
        f.own_procs = vec![815];
        f.in_own_scope = true;
        assert_eq!(
            plan(&f),
            Plan::Leaf {
                dir: f.own.clone(),
                restore: false
            }
        );
    }

    #[test]
    fn root_without_systemd_uses_a_folder_at_the_top_never_its_own_cgroup() {
        let mut f = system_service();
        f.systemd = Err("systemd is not running".into());
        assert_eq!(
            plan(&f),
            Plan::Top {
                dir: "/sys/fs/cgroup/mayan-judge".into()
            }
        );
    }

    #[test]
    fn a_container_judge_alone_in_its_cgroup_makes_a_leaf_and_restores_it() {
        // docker run --cgroupns=private --privileged image mayan-judge grade ...
        let f = Facts {
            own: "/sys/fs/cgroup".into(),
            top: "/sys/fs/cgroup".into(),
            own_is_top: true,
            top_is_real_root: false,
            own_procs: vec![1],
            pid: 1,
            own_type: "domain".into(),
            own_writable: true,
            own_controllers: strings("cpuset cpu io memory hugetlb pids rdma"),
            top_subtree: vec![],
            top_controllers: strings("cpuset cpu io memory hugetlb pids rdma"),
            root: true,
            systemd: Err("systemd is not running".into()),
            in_own_scope: false,
            own_delegated: false,
        };
        assert_eq!(
            plan(&f),
            Plan::Leaf {
                dir: "/sys/fs/cgroup".into(),
                restore: true
            }
        );
        // With a shell beside it, the kernel would refuse: say so, and how.
        let mut crowded = f;
        crowded.own_procs = vec![1, 7];
        let Plan::Unavailable(u) = plan(&crowded) else {
            panic!("expected no plan")
        };
        assert!(u.why.contains("holds other processes"), "{}", u.why);
        assert!(u.fix.contains("container's command"), "{}", u.fix);
    }

    #[test]
    fn an_ordinary_user_outside_a_delegated_tree_is_told_how_to_get_one() {
        let f = Facts {
            own: "/sys/fs/cgroup/user.slice/user-2000.slice/session-3.scope".into(),
            top: "/sys/fs/cgroup".into(),
            own_is_top: false,
            top_is_real_root: true,
            own_procs: vec![900, 950],
            pid: 950,
            own_type: "domain".into(),
            own_writable: false,
            own_controllers: strings("memory pids"),
            top_subtree: strings("cpu memory pids"),
            top_controllers: strings("cpu memory pids"),
            root: false,
            systemd: Err("no user manager (/run/user/2000/bus is missing)".into()),
            in_own_scope: false,
            own_delegated: false,
        };
        let Plan::Unavailable(u) = plan(&f) else {
            panic!("expected no plan")
        };
        assert!(u.why.contains("no delegated cgroup v2 subtree"), "{}", u.why);
        assert!(u.why.contains("/run/user/2000/bus"), "{}", u.why);
        assert!(
            u.fix.contains("systemd-run --user --scope -p Delegate=yes"),
            "{}",
            u.fix
        );
        assert!(u.fix.contains("enable-linger"), "{}", u.fix);
    }

    #[test]
    fn a_threaded_or_undelegated_cgroup_is_never_used() {
        let mut f = system_service();
        f.systemd = Err("no systemd".into());
        f.root = false;
        f.own_procs = vec![815];
        f.own_type = "domain threaded".into();
        assert!(matches!(plan(&f), Plan::Unavailable(_)));
        f.own_type = "domain".into();
        f.own_controllers = strings("cpu");
        let Plan::Unavailable(u) = plan(&f) else {
            panic!("expected no plan")
        };
        assert!(u.why.contains("not delegated"), "{}", u.why);
    }

    /// `User=judge`, `Delegate=yes`, `ExecStart=timeout 500 mayan-judge
    /// serve ...` in a system unit on a Debian 12 host booted with
    /// `cgroup_no_v1=all`: `timeout` (700) beside the judge (702), the
    /// cgroup and its files chowned to uid 1000 by systemd, no user manager.
    fn delegated_user_service() -> Facts {
        Facts {
            own: "/sys/fs/cgroup/system.slice/mayan-judge.service".into(),
            top: "/sys/fs/cgroup".into(),
            own_is_top: false,
            top_is_real_root: true,
            own_procs: vec![700, 702],
            pid: 702,
            own_type: "domain".into(),
            own_writable: true,
            own_controllers: strings("cpu io memory pids"),
            top_subtree: strings("cpu io memory pids"),
            top_controllers: strings("cpuset cpu io memory hugetlb pids rdma misc"),
            root: false,
            systemd: Err("no user manager (/run/user/1000/bus is missing)".into()),
            in_own_scope: false,
            own_delegated: true,
        }
    }

    #[test]
    fn a_user_service_with_a_wrapper_gathers_its_unit_into_a_leaf() {
        let f = delegated_user_service();
        assert_eq!(
            plan(&f),
            Plan::Gather {
                dir: "/sys/fs/cgroup/system.slice/mayan-judge.service".into()
            }
        );
        // Alone (no wrapper): a leaf of its own, restored at exit, even
        // where systemd could give a scope (the judge is the unit's main
        // process: in a scope, it would leave its service empty).
        let mut alone = f.clone();
        alone.own_procs = vec![702];
        assert!(matches!(plan(&alone), Plan::Leaf { restore: true, .. }));
        alone.systemd = Ok(());
        alone.root = true;
        assert!(matches!(plan(&alone), Plan::Leaf { restore: true, .. }));
        // With a user manager to ask, a scope of its own comes first.
        let mut lingering = f;
        lingering.systemd = Ok(());
        assert_eq!(plan(&lingering), Plan::AskSystemd);
    }

    #[test]
    fn a_cgroup_not_delegated_to_the_judges_user_is_never_gathered() {
        // The same unit without Delegate=yes: systemd keeps the cgroup root's.
        let mut f = delegated_user_service();
        f.own_delegated = false;
        f.own_writable = false;
        assert!(matches!(plan(&f), Plan::Unavailable(_)));
        // Writable but not delegated (root in a container, a shell beside
        // it): the processes are not the judge's to move.
        let mut shared = delegated_user_service();
        shared.own_delegated = false;
        let Plan::Unavailable(u) = plan(&shared) else {
            panic!("expected no plan")
        };
        assert!(u.why.contains("not delegated to the judge's user"), "{}", u.why);
        assert!(u.fix.contains("Delegate=yes"), "{}", u.fix);
        // Delegated but threaded, or without the controllers: never.
        let mut threaded = delegated_user_service();
        threaded.own_type = "domain threaded".into();
        assert!(matches!(plan(&threaded), Plan::Unavailable(_)));
        let mut bare = delegated_user_service();
        bare.own_controllers = strings("cpu");
        assert!(matches!(plan(&bare), Plan::Unavailable(_)));
    }

    #[test]
    fn delegation_is_read_from_ownership_and_for_root_from_systemds_mark() {
        let dir = tempfile::tempdir().unwrap();
        for file in ["cgroup.procs", "cgroup.subtree_control"] {
            fs::write(dir.path().join(file), "").unwrap();
        }
        // Files of the judge's own user: delegated, except for root, who
        // owns every cgroup and needs the trusted.delegate mark as well.
        let root = nix::unistd::geteuid().is_root();
        assert_eq!(delegated_to_me(dir.path()), !root);
        assert!(!delegated_to_me(&dir.path().join("missing")));
    }

    /// A recorded tree on disk: a service cgroup with a wrapper and the judge.
    #[test]
    fn a_gathered_leaf_takes_every_process_and_gives_them_back() {
        let top = tempfile::tempdir().unwrap();
        let own = top.path().join("system.slice/mayan-judge.service");
        fs::create_dir_all(&own).unwrap();
        fs::write(own.join("cgroup.procs"), "700\n702\n").unwrap();
        fs::write(own.join("cgroup.subtree_control"), "\n").unwrap();
        // On a plain folder each write replaces the file: the last pid moved.
        // The leaf's processes go back (the judge last), the controllers are
        // disabled.
        assert_leaf_made_and_undone(&own, gather_leaf(&own).unwrap(), "702");
    }

    /// `undo` was made in `own` with `moved` written last into the leaf's
    /// `cgroup.procs` and memory and pids enabled (plain files record the
    /// last write); undone, the judge is back in `own` and the last
    /// controller enabled is disabled.
    fn assert_leaf_made_and_undone(own: &Path, undo: Undo, moved: &str) {
        assert_eq!(
            fs::read_to_string(own.join("supervisor/cgroup.procs")).unwrap(),
            moved
        );
        assert_eq!(undo.enabled, vec!["memory", "pids"]);
        undo.undo();
        assert_eq!(fs::read_to_string(own.join("cgroup.procs")).unwrap(), "0");
        assert_eq!(
            fs::read_to_string(own.join("cgroup.subtree_control")).unwrap(),
            "-memory"
        );
    }

    /// A recorded tree on disk: a scope the judge is alone in.
    #[test]
    fn facts_are_read_from_a_tree_and_a_leaf_is_made_and_undone() {
        let top = tempfile::tempdir().unwrap();
        let own = top.path().join("system.slice/mayan-judge-1.scope");
        fs::create_dir_all(&own).unwrap();
        let pid = std::process::id();
        for (file, text) in [
            ("cgroup.procs", format!("{pid}\n")),
            ("cgroup.type", "domain\n".into()),
            ("cgroup.controllers", "cpu memory pids\n".into()),
            ("cgroup.subtree_control", "\n".into()),
        ] {
            fs::write(own.join(file), text).unwrap();
        }
        fs::write(top.path().join("cgroup.subtree_control"), "cpu memory pids\n").unwrap();
        let f = read_facts(top.path(), &own, true, Ok(()), true);
        assert_eq!(f.own_procs, vec![pid]);
        assert_eq!(f.own_delegated, !nix::unistd::geteuid().is_root());
        assert_eq!(
            plan(&f),
            Plan::Leaf {
                dir: own.clone(),
                restore: false
            }
        );
        // On a plain folder the files are ordinary: the steps are recorded.
        assert_leaf_made_and_undone(&own, make_leaf(&own).unwrap(), "0");
    }
}
