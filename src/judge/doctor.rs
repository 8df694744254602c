//! What `mayan-judge doctor` checks: whether this machine gives the sandbox
//! the protections it needs, and what would make timings noisy, in the
//! manner of isolate's `isolate-check-environment`.
//!
//! Each check is a [`Check`]: a [`Level`], what was found and, unless it
//! passed, the one command (or boot option) that fixes it. Only a missing
//! protection is a [`Level::Fail`]; timing noise (SMT, the CPU frequency
//! governor, turbo, transparent huge pages, a piped core pattern) is at
//! worst a [`Level::Warn`]. A file the machine does not expose (no
//! `cpufreq` in a virtual machine) is never an error: the check says so and
//! passes. Address space randomisation is not checked, unlike isolate: it
//! should stay on.
//!
//! Every file is read through a [`Machine`], whose root is `/` on the live
//! machine and a folder of recorded files in tests; what only a system call
//! can tell (the Landlock ABI, whether the judge is root) is a field of the
//! [`Machine`], probed once by [`Machine::live`]. The sandbox's own checks
//! (built from `Sandbox::detect`) are made by [`sandbox_check`] and appended
//! by the command.

use crate::judge::sandbox::{CgroupVersion, Protections, RunMode};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// How a check came out, from best to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    /// Nothing to do.
    Pass,
    /// Works, but timings are noisier or a protection is weaker than it could be.
    Warn,
    /// A protection the sandbox needs is missing.
    Fail,
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Level::Pass => "PASS",
            Level::Warn => "WARN",
            Level::Fail => "FAIL",
        })
    }
}

/// One line of `doctor`'s report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What is checked, e.g. `swap`.
    pub name: String,
    /// The outcome.
    pub level: Level,
    /// What was found, e.g. `on (2.0 GiB), not accounted`.
    pub found: String,
    /// The one command (or boot option) that fixes a WARN or FAIL.
    pub fix: Option<String>,
}

impl Check {
    /// A check that passed.
    pub fn pass(name: &str, found: impl Into<String>) -> Check {
        Check {
            name: name.to_string(),
            level: Level::Pass,
            found: found.into(),
            fix: None,
        }
    }

    /// A warning, with its fix.
    pub fn warn(name: &str, found: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            level: Level::Warn,
            fix: Some(fix.into()),
            ..Check::pass(name, found)
        }
    }

    /// A failure, with its fix.
    pub fn fail(name: &str, found: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            level: Level::Fail,
            ..Check::warn(name, found, fix)
        }
    }
}

/// The worst level among `checks` ([`Level::Pass`] for none).
pub fn worst(checks: &[Check]) -> Level {
    checks.iter().map(|c| c.level).max().unwrap_or(Level::Pass)
}

/// The machine the checks look at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// Where the machine's `/` is: `/` live, a folder of recorded files in tests.
    pub root: PathBuf,
    /// Whether the judge runs as root (then user namespaces are not needed).
    pub is_root: bool,
    /// The kernel's Landlock ABI version; `None`: no Landlock.
    pub landlock_abi: Option<i64>,
    /// The judge's cgroup folder, as the machine names it (e.g.
    /// `/sys/fs/cgroup/memory/judge`), where swap accounting is looked for;
    /// `None`: the cgroup hierarchies' own folders.
    pub cgroup_dir: Option<PathBuf>,
}

impl Machine {
    /// The live machine: root `/`, the judge's effective uid, the kernel's
    /// Landlock ABI.
    pub fn live() -> Machine {
        Machine {
            root: PathBuf::from("/"),
            // Rootless, the judge is uid 0 of its own namespace: ask the host.
            is_root: crate::judge::sandbox::host::current().mode == crate::judge::sandbox::host::Mode::Root,
            landlock_abi: crate::judge::sandbox::landlock_abi(),
            cgroup_dir: None,
        }
    }

    /// Recorded files under `root`, read as a judge that is root or not;
    /// no Landlock, no cgroup folder of its own.
    pub fn at(root: impl Into<PathBuf>, is_root: bool) -> Machine {
        Machine {
            root: root.into(),
            is_root,
            landlock_abi: None,
            cgroup_dir: None,
        }
    }

    /// Where the machine's `path` is on this one.
    fn path(&self, path: impl AsRef<Path>) -> PathBuf {
        let path = path.as_ref();
        self.root.join(path.strip_prefix("/").unwrap_or(path))
    }

    /// The text of the machine's `path`; `None` when absent or unreadable.
    fn read(&self, path: impl AsRef<Path>) -> Option<String> {
        std::fs::read_to_string(self.path(path)).ok()
    }

    /// The first line of the machine's `path`, trimmed.
    fn value(&self, path: impl AsRef<Path>) -> Option<String> {
        self.read(path)
            .map(|s| s.lines().next().unwrap_or("").trim().to_string())
    }

    /// Whether the machine's `path` exists.
    fn exists(&self, path: impl AsRef<Path>) -> bool {
        self.path(path).exists()
    }

    /// The names in the machine's folder `path` (empty when absent), sorted.
    fn names_in(&self, path: impl AsRef<Path>) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.path(path))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort_by(|a, b| natord::compare(a, b));
        names
    }
}

/// Every check of the machine, in the order `doctor` prints them.
pub fn machine_checks(m: &Machine) -> Vec<Check> {
    let cgroups = CgroupLayout::read(m);
    vec![
        user_namespaces(m),
        cgroup_version(m, &cgroups),
        swap(m, &cgroups),
        seccomp(m),
        landlock(m),
        smt(m),
        cpu_governor(m),
        turbo(m),
        transparent_huge_pages(m),
        core_pattern(m),
    ]
}

/// The sandbox's checks: the mode, the cgroup delegation, `memory.peak`,
/// the uid per run, then `sandbox` (every protection, as
/// `Sandbox::detect` found them).
pub fn sandbox_checks(p: &Protections) -> Vec<Check> {
    vec![
        mode_check(p),
        delegation_check(p),
        peak_check(p),
        uid_check(p),
        sandbox_check(p),
    ]
}

/// How the judge holds its privileges (root, or rootless in a user namespace).
fn mode_check(p: &Protections) -> Check {
    match p.mode {
        RunMode::Root => Check::pass("mode", "root"),
        RunMode::Rootless => Check::pass(
            "mode",
            "rootless: an ordinary user in a user namespace of its own",
        ),
        RunMode::User => Check::fail(
            "mode",
            format!("an ordinary user without a user namespace: {}", p.gaps.join("; ")),
            "see the user namespaces check above",
        ),
    }
}

/// Whether runs' cgroups limit memory and processes: on v2, in a subtree
/// delegated to the judge.
fn delegation_check(p: &Protections) -> Check {
    const NAME: &str = "cgroup delegation";
    match (p.cgroup, p.cgroup_memory && p.cgroup_pids) {
        (Some(CgroupVersion::V2), true) => {
            Check::pass(NAME, "memory and pids limits in a delegated cgroup v2 subtree")
        }
        (Some(CgroupVersion::V1), true) => Check::pass(NAME, "memory and pids limits (cgroup v1, as root)"),
        _ => {
            let gap = p
                .gaps
                .iter()
                .find(|g| g.contains("cgroup"))
                .cloned()
                .unwrap_or_default();
            let (found, fix) = gap
                .split_once(" (fix: ")
                .unwrap_or((gap.as_str(), "run the judge as root)"));
            Check::fail(
                NAME,
                format!("no memory and pids limits: {found}"),
                fix.trim_end_matches(')'),
            )
        }
    }
}

/// Whether the kernel measures each run's peak memory.
fn peak_check(p: &Protections) -> Check {
    const NAME: &str = "memory.peak";
    match p.cgroup {
        Some(CgroupVersion::V2) if p.memory_peak => {
            Check::pass(NAME, "each run's peak memory from its cgroup")
        }
        Some(CgroupVersion::V2) => Check::warn(
            NAME,
            "not in this kernel: peak memory is sampled every 10 ms",
            "use Linux 5.19 or later",
        ),
        Some(CgroupVersion::V1) => Check::pass(NAME, "memory.max_usage_in_bytes (cgroup v1)"),
        None => Check::warn(
            NAME,
            "no memory cgroup: peak memory is sampled",
            "see cgroup delegation",
        ),
    }
}

/// Whether concurrent runs have uids of their own.
fn uid_check(p: &Protections) -> Check {
    const NAME: &str = "uid per run";
    match (p.uid_per_run, p.mode) {
        (true, _) => Check::pass(NAME, "60000 + box, leased per run"),
        (false, RunMode::Rootless) => Check::warn(
            NAME,
            "one uid for every run (no range of 61000 ids in /etc/subuid and /etc/subgid, no newuidmap, or the judge runs with no_new_privs, as under systemd's NoNewPrivileges=): runs are kept apart by their pid, mount, network and IPC namespaces, Landlock and seccomp",
            "sudo apt-get install uidmap && sudo usermod --add-subuids 100000-165535 --add-subgids 100000-165535 $USER",
        ),
        (false, _) => Check::fail(NAME, "no uid per run", "run the judge as root"),
    }
}

/// The check `sandbox`: every protection an untrusted contest needs, as
/// `Sandbox::detect` found them.
pub fn sandbox_check(p: &Protections) -> Check {
    let missing = p.missing();
    if missing.is_empty() {
        Check::pass("sandbox", p.to_string())
    } else {
        Check::fail(
            "sandbox",
            format!("missing: {}", missing.join("; ")),
            "see the checks above, and docs/SANDBOX.md",
        )
    }
}

// ---- user namespaces ----------------------------------------------------------

const MAX_USERNS: &str = "/proc/sys/user/max_user_namespaces";
const USERNS_CLONE: &str = "/proc/sys/kernel/unprivileged_userns_clone";
const APPARMOR_USERNS: &str = "/proc/sys/kernel/apparmor_restrict_unprivileged_userns";

/// Whether a judge that is not root may make user namespaces; as root
/// (which does not need them) a refusal is only a warning.
fn user_namespaces(m: &Machine) -> Check {
    const NAME: &str = "user namespaces";
    match userns_refusal(m) {
        None => Check::pass(
            NAME,
            format!(
                "allowed (user.max_user_namespaces = {})",
                m.value(MAX_USERNS).unwrap_or_default()
            ),
        ),
        Some((found, fix)) if m.is_root => {
            Check::warn(NAME, format!("{found} (root does not need them)"), fix)
        }
        Some((found, fix)) => Check::fail(NAME, found, fix),
    }
}

/// What stops an unprivileged user from making a user namespace, and its fix.
fn userns_refusal(m: &Machine) -> Option<(String, String)> {
    let Some(max) = m.value(MAX_USERNS) else {
        return Some((
            "not in this kernel (no /proc/sys/user/max_user_namespaces)".into(),
            "use a kernel built with CONFIG_USER_NS=y".into(),
        ));
    };
    if max == "0" {
        return Some((
            "user.max_user_namespaces = 0".into(),
            "sudo sysctl -w user.max_user_namespaces=15000".into(),
        ));
    }
    if m.value(USERNS_CLONE).is_some_and(|v| v == "0") {
        return Some((
            "kernel.unprivileged_userns_clone = 0".into(),
            "sudo sysctl -w kernel.unprivileged_userns_clone=1".into(),
        ));
    }
    if m.value(APPARMOR_USERNS).is_some_and(|v| v != "0") {
        return Some((
            "restricted by AppArmor (kernel.apparmor_restrict_unprivileged_userns = 1)".into(),
            "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (or the profile docs/apparmor/mayan-judge)"
                .into(),
        ));
    }
    None
}

// ---- cgroups --------------------------------------------------------------------

/// v1 controllers (anything else in a v1 mount's options is a flag or a name).
const V1_CONTROLLERS: &[&str] = &[
    "blkio",
    "cpu",
    "cpuacct",
    "cpuset",
    "devices",
    "freezer",
    "hugetlb",
    "memory",
    "misc",
    "net_cls",
    "net_prio",
    "perf_event",
    "pids",
    "rdma",
];

/// How the machine mounts its cgroups, from `/proc/self/mountinfo`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum CgroupLayout {
    /// Neither cgroup v1 controllers nor cgroup2.
    None,
    /// v1 controllers only: each controller and where it is mounted.
    V1(Vec<(String, PathBuf)>),
    /// cgroup2 only (a v1 hierarchy without controllers, such as
    /// `name=systemd`, does not count).
    V2(PathBuf),
    /// v1 controllers, and cgroup2 mounted too (systemd's hybrid layout).
    Hybrid(Vec<(String, PathBuf)>, PathBuf),
}

impl CgroupLayout {
    /// The layout of the machine's mounts.
    fn read(m: &Machine) -> CgroupLayout {
        CgroupLayout::parse(&m.read("/proc/self/mountinfo").unwrap_or_default())
    }

    /// The layout of a `mountinfo` text.
    fn parse(mountinfo: &str) -> CgroupLayout {
        let mut v1 = Vec::new();
        let mut v2 = None;
        for crate::judge::sandbox::mountinfo::Mount {
            mount_point,
            fstype,
            super_opts,
            ..
        } in crate::judge::sandbox::mountinfo::parse(mountinfo)
        {
            match fstype.as_str() {
                "cgroup2" => v2 = v2.or(Some(mount_point)),
                "cgroup" => v1.extend(
                    super_opts
                        .iter()
                        .filter(|o| V1_CONTROLLERS.contains(&o.as_str()))
                        .map(|c| (c.to_string(), mount_point.clone())),
                ),
                _ => {}
            }
        }
        match (v1.is_empty(), v2) {
            (true, None) => CgroupLayout::None,
            (true, Some(v2)) => CgroupLayout::V2(v2),
            (false, None) => CgroupLayout::V1(v1),
            (false, Some(v2)) => CgroupLayout::Hybrid(v1, v2),
        }
    }

    /// Where the v1 `controller` is mounted.
    fn v1_mount(&self, controller: &str) -> Option<&Path> {
        let (CgroupLayout::V1(v1) | CgroupLayout::Hybrid(v1, _)) = self else {
            return None;
        };
        v1.iter().find(|(c, _)| c == controller).map(|(_, p)| p.as_path())
    }

    /// Where cgroup2 is mounted.
    fn v2_mount(&self) -> Option<&Path> {
        match self {
            CgroupLayout::V2(p) | CgroupLayout::Hybrid(_, p) => Some(p),
            _ => None,
        }
    }
}

/// v1 controllers, named once each, in mount order.
fn controller_list(v1: &[(String, PathBuf)]) -> String {
    v1.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>().join(", ")
}

/// The controllers of the cgroup2 hierarchy mounted at `mount`, or `no controllers`.
fn v2_controllers(m: &Machine, mount: &Path) -> String {
    m.value(mount.join("cgroup.controllers"))
        .filter(|c| !c.is_empty())
        .map_or_else(
            || "no controllers".to_string(),
            |c| c.split_whitespace().collect::<Vec<_>>().join(", "),
        )
}

/// Which cgroup interface the machine mounts.
fn cgroup_version(m: &Machine, layout: &CgroupLayout) -> Check {
    const NAME: &str = "cgroup version";
    const UNIFIED: &str = "boot with systemd.unified_cgroup_hierarchy=1 (cgroup v2 only)";
    match layout {
        CgroupLayout::V2(_) => Check::pass(NAME, "v2 (unified)"),
        CgroupLayout::V1(v1) if m.is_root => Check::pass(NAME, format!("v1 ({})", controller_list(v1))),
        CgroupLayout::V1(v1) => Check::warn(
            NAME,
            format!("v1 ({}): only root can make a run's cgroups", controller_list(v1)),
            UNIFIED,
        ),
        CgroupLayout::Hybrid(v1, v2) => Check::warn(
            NAME,
            format!(
                "hybrid: v1 ({}) and cgroup2 ({}) at {}",
                controller_list(v1),
                v2_controllers(m, v2),
                v2.display()
            ),
            UNIFIED,
        ),
        CgroupLayout::None => Check::fail(NAME, "none mounted", "sudo mount -t cgroup2 none /sys/fs/cgroup"),
    }
}

// ---- swap ---------------------------------------------------------------------------

/// Swap, and whether a run's memory limit covers it.
fn swap(m: &Machine, layout: &CgroupLayout) -> Check {
    const NAME: &str = "swap";
    let (devices, kib) = swap_in_use(m);
    if devices == 0 {
        return Check::pass(NAME, "off");
    }
    let on = format!(
        "on ({}, {devices} device{})",
        size(kib),
        if devices == 1 { "" } else { "s" }
    );
    if swap_accounted(m, layout) {
        return Check::pass(NAME, format!("{on}, accounted: runs get no swap"));
    }
    let fix = match layout.v2_mount() {
        Some(_) => "sudo swapoff -a",
        None => "sudo swapoff -a (or boot with swapaccount=1)",
    };
    Check::warn(
        NAME,
        format!("{on}, not accounted: a run may swap past its memory limit"),
        fix,
    )
}

/// Swap devices in use and their total size in KiB (`/proc/swaps`).
fn swap_in_use(m: &Machine) -> (usize, u64) {
    let text = m.read("/proc/swaps").unwrap_or_default();
    let sizes: Vec<u64> = text
        .lines()
        .skip(1) // the header
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .nth(2)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0)
        })
        .collect();
    (sizes.len(), sizes.iter().sum())
}

/// Whether a memory cgroup can forbid swap: `memory.swap.max` (v2) or
/// `memory.memsw.limit_in_bytes` (v1) in the judge's cgroup folder, else
/// at the top of the hierarchies (v2's root has no `memory.swap.max`, so
/// the cgroups just below it).
fn swap_accounted(m: &Machine, layout: &CgroupLayout) -> bool {
    const V1: &str = "memory.memsw.limit_in_bytes";
    const V2: &str = "memory.swap.max";
    if let Some(dir) = &m.cgroup_dir {
        return m.exists(dir.join(V1)) || m.exists(dir.join(V2));
    }
    let v1 = layout.v1_mount("memory").is_some_and(|p| m.exists(p.join(V1)));
    let v2 = layout.v2_mount().is_some_and(|top| {
        m.exists(top.join(V2))
            || m.names_in(top)
                .iter()
                .any(|child| m.exists(top.join(child).join(V2)))
    });
    v1 || v2
}

/// KiB as people read them: `512 MiB`, `2.0 GiB`.
fn size(kib: u64) -> String {
    if kib >= 1 << 20 {
        format!("{:.1} GiB", kib as f64 / (1u64 << 20) as f64)
    } else {
        format!("{} MiB", kib >> 10)
    }
}

// ---- seccomp, Landlock ------------------------------------------------------------

/// Whether the kernel filters system calls (a `Seccomp:` line in `/proc/self/status`).
fn seccomp(m: &Machine) -> Check {
    const NAME: &str = "seccomp";
    let status = m.read("/proc/self/status").unwrap_or_default();
    let mode = status
        .lines()
        .find_map(|l| l.strip_prefix("Seccomp:"))
        .map(str::trim);
    match mode {
        Some("2") => Check::pass(NAME, "supported (the judge itself runs under a filter)"),
        Some(_) => Check::pass(NAME, "supported"),
        None => Check::fail(
            NAME,
            "not in this kernel (no Seccomp: line in /proc/self/status)",
            "use a kernel built with CONFIG_SECCOMP_FILTER=y",
        ),
    }
}

/// Landlock, the file-system fence behind the private root.
fn landlock(m: &Machine) -> Check {
    const NAME: &str = "landlock";
    if let Some(abi) = m.landlock_abi {
        return Check::pass(NAME, format!("ABI {abi}"));
    }
    match m.value("/sys/kernel/security/lsm").filter(|l| !l.is_empty()) {
        Some(lsms) => Check::warn(
            NAME,
            format!("not enabled (security modules: {lsms})"),
            format!("boot with lsm=landlock,{lsms}"),
        ),
        None => Check::warn(
            NAME,
            "not enabled",
            "boot with lsm=landlock,... (a kernel 5.13+ with CONFIG_SECURITY_LANDLOCK=y)",
        ),
    }
}

// ---- timing noise ---------------------------------------------------------------

const CPU: &str = "/sys/devices/system/cpu";
const NOT_EXPOSED: &str = "not exposed (virtual machine?)";

/// Simultaneous multithreading: two runs on sibling threads share a core.
fn smt(m: &Machine) -> Check {
    const NAME: &str = "smt";
    match m.value(format!("{CPU}/smt/active")).as_deref() {
        Some("1") => Check::warn(
            NAME,
            "on: runs on sibling threads share a core",
            format!("echo off | sudo tee {CPU}/smt/control"),
        ),
        Some(_) => match m.value(format!("{CPU}/smt/control")).as_deref() {
            Some("notsupported") | Some("notimplemented") => Check::pass(NAME, "not supported by the CPU"),
            _ => Check::pass(NAME, "off"),
        },
        None => Check::pass(NAME, NOT_EXPOSED),
    }
}

/// The CPUs' frequency governors: anything but `performance` changes the
/// clock under a run.
fn cpu_governor(m: &Machine) -> Check {
    const NAME: &str = "cpu frequency governor";
    let governors: Vec<String> = m
        .names_in(CPU)
        .iter()
        .filter(|n| {
            n.strip_prefix("cpu")
                .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter_map(|cpu| m.value(format!("{CPU}/{cpu}/cpufreq/scaling_governor")))
        .collect();
    let total = governors.len();
    if total == 0 {
        return Check::pass(NAME, NOT_EXPOSED);
    }
    let other: Vec<&String> = governors.iter().filter(|g| *g != "performance").collect();
    if other.is_empty() {
        return Check::pass(NAME, format!("performance on all {total} CPUs"));
    }
    Check::warn(
        NAME,
        format!("{} on {} of {total} CPUs", distinct(&other), other.len()),
        format!("echo performance | sudo tee {CPU}/cpu*/cpufreq/scaling_governor"),
    )
}

/// The distinct names in `names`, in first-seen order, joined with `/`.
fn distinct(names: &[&String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for n in names {
        if !seen.contains(&n.as_str()) {
            seen.push(n);
        }
    }
    seen.join("/")
}

/// Turbo boost: the clock then depends on temperature and the other cores' load.
fn turbo(m: &Machine) -> Check {
    const NAME: &str = "turbo boost";
    let no_turbo = format!("{CPU}/intel_pstate/no_turbo");
    let boost = format!("{CPU}/cpufreq/boost");
    match (m.value(&no_turbo).as_deref(), m.value(&boost).as_deref()) {
        (Some("0"), _) => Check::warn(NAME, "on (intel_pstate)", format!("echo 1 | sudo tee {no_turbo}")),
        (Some(_), _) => Check::pass(NAME, "off (intel_pstate)"),
        (None, Some("1")) => Check::warn(NAME, "on (cpufreq boost)", format!("echo 0 | sudo tee {boost}")),
        (None, Some(_)) => Check::pass(NAME, "off (cpufreq boost)"),
        (None, None) => Check::pass(NAME, NOT_EXPOSED),
    }
}

/// Transparent huge pages for every program (`[always]`): whether a run
/// gets 2 MiB pages depends on what else the machine did.
fn transparent_huge_pages(m: &Machine) -> Check {
    const NAME: &str = "transparent huge pages";
    const ENABLED: &str = "/sys/kernel/mm/transparent_hugepage/enabled";
    let Some(text) = m.read(ENABLED) else {
        return Check::pass(NAME, NOT_EXPOSED);
    };
    match selected(&text) {
        Some("always") => Check::warn(
            NAME,
            "always: a run's speed depends on what memory is free",
            format!("echo never | sudo tee {ENABLED}"),
        ),
        Some("madvise") => Check::pass(NAME, "madvise (only for programs that ask)"),
        Some(other) => Check::pass(NAME, other.to_string()),
        None => Check::pass(NAME, format!("unreadable setting: {}", text.trim())),
    }
}

/// The bracketed choice of a sysfs setting: `madvise` in `always [madvise] never`.
fn selected(text: &str) -> Option<&str> {
    let start = text.find('[')? + 1;
    let len = text[start..].find(']')?;
    Some(&text[start..start + len])
}

/// A core pattern that pipes to a program (apport, systemd-coredump) runs
/// it for every crashing submission, whatever the run's core limit.
fn core_pattern(m: &Machine) -> Check {
    const NAME: &str = "core pattern";
    const PATTERN: &str = "/proc/sys/kernel/core_pattern";
    match m.value(PATTERN) {
        Some(p) if p.starts_with('|') => Check::warn(
            NAME,
            format!("{p}: runs for every crashing program"),
            format!("echo core | sudo tee {PATTERN}"),
        ),
        Some(p) => Check::pass(NAME, p),
        None => Check::pass(NAME, NOT_EXPOSED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tempfile::TempDir;

    /// A machine made of `files` (path on the machine, content), as root or not.
    fn machine(is_root: bool, files: &[(&str, &str)]) -> (TempDir, Machine) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path.trim_start_matches('/'));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let m = Machine::at(dir.path(), is_root);
        (dir, m)
    }

    /// The check named `name` of `m`.
    fn check(m: &Machine, name: &str) -> Check {
        machine_checks(m)
            .into_iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no check named {name}"))
    }

    fn as_user(files: &[(&str, &str)], name: &str) -> Check {
        let (_dir, m) = machine(false, files);
        check(&m, name)
    }

    fn as_root(files: &[(&str, &str)], name: &str) -> Check {
        let (_dir, m) = machine(true, files);
        check(&m, name)
    }

    // -- mountinfo samples --

    const V2_ONLY: &str = "\
25 30 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
29 25 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
";
    const V1_ONLY: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
";
    const HYBRID: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    /// cgroup2 with a legacy `name=systemd` v1 hierarchy, which has no controllers.
    const V2_WITH_NAMED_V1: &str = "\
29 25 0:26 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw
40 29 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
";
    const NO_CGROUPS: &str = "\
25 30 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
26 30 0:5 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
";

    const MOUNTINFO: &str = "/proc/self/mountinfo";
    const SWAPS_OFF: &str = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n";
    const SWAPS_ON: &str = "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n\
/swap.img                               file\t\t2097148\t\t1024\t\t-2\n";

    // -- the report's shape --

    #[test]
    fn levels_serialise_in_capitals_and_a_pass_has_no_fix() {
        let json = serde_json::to_string(&[
            Check::pass("a", "fine"),
            Check::warn("b", "meh", "do this"),
            Check::fail("c", "bad", "do that"),
        ])
        .unwrap();
        assert_eq!(
            json,
            r#"[{"name":"a","level":"PASS","found":"fine","fix":null},{"name":"b","level":"WARN","found":"meh","fix":"do this"},{"name":"c","level":"FAIL","found":"bad","fix":"do that"}]"#
        );
    }

    #[test]
    fn the_worst_level_decides_and_no_checks_pass() {
        assert_eq!(worst(&[]), Level::Pass);
        let mixed = [
            Check::pass("a", ""),
            Check::warn("b", "", ""),
            Check::pass("c", ""),
        ];
        assert_eq!(worst(&mixed), Level::Warn);
        assert_eq!(
            worst(&[Check::warn("b", "", ""), Check::fail("c", "", "")]),
            Level::Fail
        );
    }

    #[test]
    fn an_empty_machine_is_no_error_and_fails_only_missing_protections() {
        let (_dir, m) = machine(false, &[]);
        let checks = machine_checks(&m);
        let failed: Vec<&str> = checks
            .iter()
            .filter(|c| c.level == Level::Fail)
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(failed, ["user namespaces", "cgroup version", "seccomp"]);
        for c in &checks {
            assert_eq!(c.fix.is_some(), c.level != Level::Pass, "{c:?}");
        }
    }

    // -- user namespaces --

    #[test]
    fn user_namespaces_allowed_pass() {
        let c = as_user(
            &[
                (MAX_USERNS, "63448\n"),
                (USERNS_CLONE, "1\n"),
                (APPARMOR_USERNS, "0\n"),
            ],
            "user namespaces",
        );
        assert_eq!(c.level, Level::Pass);
        assert_eq!(c.found, "allowed (user.max_user_namespaces = 63448)");
    }

    #[test]
    fn user_namespaces_restricted_by_apparmor_fail_for_a_user_with_the_sysctl_as_fix() {
        let c = as_user(
            &[(MAX_USERNS, "63448\n"), (APPARMOR_USERNS, "1\n")],
            "user namespaces",
        );
        assert_eq!(c.level, Level::Fail);
        assert!(c.found.contains("AppArmor"), "{}", c.found);
        assert!(
            c.fix
                .unwrap()
                .starts_with("sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"),
        );
    }

    #[test]
    fn user_namespaces_turned_off_by_debian_sysctl_fail_for_a_user() {
        let c = as_user(
            &[(MAX_USERNS, "63448\n"), (USERNS_CLONE, "0\n")],
            "user namespaces",
        );
        assert_eq!(c.level, Level::Fail);
        assert_eq!(
            c.fix.as_deref(),
            Some("sudo sysctl -w kernel.unprivileged_userns_clone=1")
        );
    }

    #[test]
    fn user_namespaces_limited_to_zero_fail_for_a_user() {
        let c = as_user(&[(MAX_USERNS, "0\n")], "user namespaces");
        assert_eq!(c.level, Level::Fail);
        assert_eq!(
            c.fix.as_deref(),
            Some("sudo sysctl -w user.max_user_namespaces=15000")
        );
    }

    #[test]
    fn user_namespaces_restricted_only_warn_for_root() {
        let c = as_root(
            &[(MAX_USERNS, "63448\n"), (APPARMOR_USERNS, "1\n")],
            "user namespaces",
        );
        assert_eq!(c.level, Level::Warn);
        assert!(c.found.ends_with("(root does not need them)"), "{}", c.found);
    }

    // -- cgroups --

    #[test]
    fn cgroup2_alone_is_v2() {
        let c = as_user(&[(MOUNTINFO, V2_ONLY)], "cgroup version");
        assert_eq!((c.level, c.found.as_str()), (Level::Pass, "v2 (unified)"));
        let c = as_user(&[(MOUNTINFO, V2_WITH_NAMED_V1)], "cgroup version");
        assert_eq!((c.level, c.found.as_str()), (Level::Pass, "v2 (unified)"));
    }

    #[test]
    fn cgroup_v1_passes_for_root_and_warns_for_a_user() {
        let c = as_root(&[(MOUNTINFO, V1_ONLY)], "cgroup version");
        assert_eq!(
            (c.level, c.found.as_str()),
            (Level::Pass, "v1 (cpu, cpuacct, memory, pids)")
        );
        let c = as_user(&[(MOUNTINFO, V1_ONLY)], "cgroup version");
        assert_eq!(c.level, Level::Warn);
    }

    #[test]
    fn cgroup_hybrid_warns_and_names_the_cgroup2_mount_and_its_controllers() {
        let c = as_root(&[(MOUNTINFO, HYBRID)], "cgroup version");
        assert_eq!(c.level, Level::Warn);
        assert_eq!(
            c.found,
            "hybrid: v1 (memory, pids) and cgroup2 (no controllers) at /sys/fs/cgroup/unified"
        );
        assert!(c.fix.unwrap().contains("systemd.unified_cgroup_hierarchy=1"));
        let split = [
            (MOUNTINFO, HYBRID),
            ("/sys/fs/cgroup/unified/cgroup.controllers", "hugetlb cpu\n"),
        ];
        let c = as_root(&split, "cgroup version");
        assert_eq!(
            c.found,
            "hybrid: v1 (memory, pids) and cgroup2 (hugetlb, cpu) at /sys/fs/cgroup/unified"
        );
    }

    #[test]
    fn no_cgroups_fail_with_the_mount_command() {
        let c = as_root(&[(MOUNTINFO, NO_CGROUPS)], "cgroup version");
        assert_eq!(c.level, Level::Fail);
        assert_eq!(
            c.fix.as_deref(),
            Some("sudo mount -t cgroup2 none /sys/fs/cgroup")
        );
    }

    #[test]
    fn mount_points_with_escaped_spaces_are_decoded() {
        let info = "29 25 0:26 / /sys/fs/my\\040cgroup rw - cgroup2 cgroup2 rw\n";
        assert_eq!(
            CgroupLayout::parse(info),
            CgroupLayout::V2(PathBuf::from("/sys/fs/my cgroup"))
        );
    }

    // -- swap --

    #[test]
    fn no_swap_passes() {
        let c = as_root(&[("/proc/swaps", SWAPS_OFF), (MOUNTINFO, V1_ONLY)], "swap");
        assert_eq!((c.level, c.found.as_str()), (Level::Pass, "off"));
    }

    #[test]
    fn swap_without_accounting_warns_with_swapoff() {
        let c = as_root(&[("/proc/swaps", SWAPS_ON), (MOUNTINFO, V1_ONLY)], "swap");
        assert_eq!(c.level, Level::Warn);
        assert!(
            c.found.starts_with("on (2.0 GiB, 1 device), not accounted"),
            "{}",
            c.found
        );
        assert_eq!(
            c.fix.as_deref(),
            Some("sudo swapoff -a (or boot with swapaccount=1)")
        );
    }

    #[test]
    fn swap_accounted_on_v1_passes() {
        let files = [
            ("/proc/swaps", SWAPS_ON),
            (MOUNTINFO, V1_ONLY),
            (
                "/sys/fs/cgroup/memory/memory.memsw.limit_in_bytes",
                "9223372036854771712\n",
            ),
        ];
        let c = as_root(&files, "swap");
        assert_eq!(c.level, Level::Pass);
        assert!(c.found.ends_with("accounted: runs get no swap"), "{}", c.found);
    }

    #[test]
    fn swap_accounted_on_v2_is_seen_below_the_root_cgroup() {
        let files = [
            ("/proc/swaps", SWAPS_ON),
            (MOUNTINFO, V2_ONLY),
            ("/sys/fs/cgroup/system.slice/memory.swap.max", "max\n"),
        ];
        assert_eq!(as_root(&files, "swap").level, Level::Pass);
        let unaccounted = as_root(&files[..2], "swap");
        assert_eq!(unaccounted.level, Level::Warn);
        assert_eq!(unaccounted.fix.as_deref(), Some("sudo swapoff -a"));
    }

    #[test]
    fn swap_accounting_is_looked_for_in_the_judges_own_cgroup_when_given() {
        let files = [
            ("/proc/swaps", SWAPS_ON),
            (MOUNTINFO, V2_ONLY),
            ("/sys/fs/cgroup/system.slice/memory.swap.max", "max\n"),
        ];
        let (_dir, mut m) = machine(false, &files);
        m.cgroup_dir = Some(PathBuf::from("/sys/fs/cgroup/user.slice/judge"));
        assert_eq!(check(&m, "swap").level, Level::Warn);
        m.cgroup_dir = Some(PathBuf::from("/sys/fs/cgroup/system.slice"));
        assert_eq!(check(&m, "swap").level, Level::Pass);
    }

    // -- seccomp, Landlock --

    #[test]
    fn seccomp_is_read_from_the_status_file() {
        let status = "Name:\tmayan-judge\nSeccomp:\t0\nSeccomp_filters:\t0\n";
        assert_eq!(
            as_user(&[("/proc/self/status", status)], "seccomp").level,
            Level::Pass
        );
        let c = as_user(&[("/proc/self/status", "Name:\tmayan-judge\n")], "seccomp");
        assert_eq!(c.level, Level::Fail);
    }

    #[test]
    fn landlock_passes_with_an_abi_and_otherwise_warns_with_the_boot_option() {
        let (_dir, mut m) = machine(
            false,
            &[("/sys/kernel/security/lsm", "lockdown,capability,yama,apparmor")],
        );
        let c = check(&m, "landlock");
        assert_eq!(c.level, Level::Warn);
        assert_eq!(
            c.fix.as_deref(),
            Some("boot with lsm=landlock,lockdown,capability,yama,apparmor")
        );
        m.landlock_abi = Some(6);
        let c = check(&m, "landlock");
        assert_eq!((c.level, c.found.as_str()), (Level::Pass, "ABI 6"));
    }

    // -- timing noise --

    #[test]
    fn smt_on_warns_off_and_missing_pass() {
        let active = "/sys/devices/system/cpu/smt/active";
        let on = as_user(&[(active, "1\n")], "smt");
        assert_eq!(on.level, Level::Warn);
        assert_eq!(
            on.fix.as_deref(),
            Some("echo off | sudo tee /sys/devices/system/cpu/smt/control")
        );
        assert_eq!(as_user(&[(active, "0\n")], "smt").found, "off");
        let unsupported = [
            (active, "0\n"),
            ("/sys/devices/system/cpu/smt/control", "notsupported\n"),
        ];
        assert_eq!(as_user(&unsupported, "smt").found, "not supported by the CPU");
        let missing = as_user(&[], "smt");
        assert_eq!(
            (missing.level, missing.found.as_str()),
            (Level::Pass, NOT_EXPOSED)
        );
    }

    #[test]
    fn governor_performance_passes_powersave_warns_missing_passes() {
        let gov = |cpu: u32| format!("/sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_governor");
        let (g0, g1) = (gov(0), gov(1));
        let all = as_user(
            &[(&g0, "performance\n"), (&g1, "performance\n")],
            "cpu frequency governor",
        );
        assert_eq!(
            (all.level, all.found.as_str()),
            (Level::Pass, "performance on all 2 CPUs")
        );
        let one = as_user(
            &[(&g0, "performance\n"), (&g1, "powersave\n")],
            "cpu frequency governor",
        );
        assert_eq!(
            (one.level, one.found.as_str()),
            (Level::Warn, "powersave on 1 of 2 CPUs")
        );
        assert_eq!(
            one.fix.as_deref(),
            Some("echo performance | sudo tee /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor")
        );
        let vm = [
            ("/sys/devices/system/cpu/cpu0/online", "1\n"),
            ("/sys/devices/system/cpu/cpufreq/x", ""),
        ];
        let missing = as_user(&vm, "cpu frequency governor");
        assert_eq!(
            (missing.level, missing.found.as_str()),
            (Level::Pass, NOT_EXPOSED)
        );
    }

    #[test]
    fn turbo_on_warns_with_the_knob_of_its_driver() {
        let intel = "/sys/devices/system/cpu/intel_pstate/no_turbo";
        let boost = "/sys/devices/system/cpu/cpufreq/boost";
        let c = as_user(&[(intel, "0\n")], "turbo boost");
        assert_eq!(c.level, Level::Warn);
        assert_eq!(
            c.fix.as_deref(),
            Some("echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo")
        );
        assert_eq!(as_user(&[(intel, "1\n")], "turbo boost").level, Level::Pass);
        let c = as_user(&[(boost, "1\n")], "turbo boost");
        assert_eq!(
            c.fix.as_deref(),
            Some("echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost")
        );
        assert_eq!(as_user(&[(boost, "0\n")], "turbo boost").level, Level::Pass);
        assert_eq!(as_user(&[], "turbo boost").found, NOT_EXPOSED);
    }

    #[test]
    fn huge_pages_always_warn_madvise_and_never_pass() {
        let enabled = "/sys/kernel/mm/transparent_hugepage/enabled";
        let always = as_user(&[(enabled, "[always] madvise never\n")], "transparent huge pages");
        assert_eq!(always.level, Level::Warn);
        assert_eq!(
            always.fix.as_deref(),
            Some("echo never | sudo tee /sys/kernel/mm/transparent_hugepage/enabled")
        );
        let madvise = as_user(&[(enabled, "always [madvise] never\n")], "transparent huge pages");
        assert_eq!(madvise.level, Level::Pass);
        let never = as_user(&[(enabled, "always madvise [never]\n")], "transparent huge pages");
        assert_eq!((never.level, never.found.as_str()), (Level::Pass, "never"));
        assert_eq!(as_user(&[], "transparent huge pages").found, NOT_EXPOSED);
    }

    #[test]
    fn a_core_pattern_piping_to_a_program_warns() {
        let pattern = "/proc/sys/kernel/core_pattern";
        let piped = as_user(
            &[(pattern, "|/usr/share/apport/apport -p%p -s%s -c%c\n")],
            "core pattern",
        );
        assert_eq!(piped.level, Level::Warn);
        assert_eq!(
            piped.fix.as_deref(),
            Some("echo core | sudo tee /proc/sys/kernel/core_pattern")
        );
        assert_eq!(as_user(&[(pattern, "core\n")], "core pattern").level, Level::Pass);
    }

    #[test]
    fn address_space_randomisation_is_not_flagged() {
        let (_dir, m) = machine(true, &[("/proc/sys/kernel/randomize_va_space", "2\n")]);
        assert!(machine_checks(&m).iter().all(|c| !c.name.contains("random")));
    }

    // -- the sandbox --

    fn protections(isolation: bool) -> Protections {
        Protections {
            mode: crate::judge::sandbox::RunMode::Root,
            gaps: Vec::new(),
            memory_peak: false,
            isolation,
            uid_per_run: isolation,
            seccomp: true,
            landlock: Some(7),
            cgroup: Some(crate::judge::sandbox::CgroupVersion::V1),
            cgroup_memory: true,
            cgroup_pids: true,
            cgroup_cpu: true,
            drop_to: None,
            namespaces: isolation,
            subreaper: true,
            process_limit_enforced: true,
        }
    }

    #[test]
    fn a_sandbox_with_every_protection_passes_and_lists_them() {
        let p = protections(true);
        let c = sandbox_check(&p);
        assert_eq!(c, Check::pass("sandbox", p.to_string()));
    }

    #[test]
    fn a_sandbox_missing_protections_fails_and_names_them() {
        let c = sandbox_check(&protections(false));
        assert_eq!(c.level, Level::Fail);
        assert!(
            c.found.starts_with("missing: a private file system"),
            "{}",
            c.found
        );
        assert!(c.found.contains("; a uid per run"), "{}", c.found);
        assert_eq!(
            c.fix.as_deref(),
            Some("see the checks above, and docs/SANDBOX.md")
        );
    }

    #[test]
    fn a_rootless_sandbox_on_v2_with_one_uid_passes_and_warns_of_the_shared_uid() {
        let mut p = protections(true);
        p.mode = crate::judge::sandbox::RunMode::Rootless;
        p.uid_per_run = false;
        p.cgroup = Some(crate::judge::sandbox::CgroupVersion::V2);
        p.memory_peak = true;
        let checks = sandbox_checks(&p);
        let level = |name: &str| checks.iter().find(|c| c.name == name).unwrap().level;
        assert_eq!(level("mode"), Level::Pass);
        assert_eq!(level("cgroup delegation"), Level::Pass);
        assert_eq!(level("memory.peak"), Level::Pass);
        assert_eq!(level("uid per run"), Level::Warn);
        assert_eq!(level("sandbox"), Level::Pass);
    }

    #[test]
    fn no_delegated_subtree_fails_with_the_hosts_fix() {
        let mut p = protections(true);
        p.cgroup = None;
        p.cgroup_memory = false;
        p.cgroup_pids = false;
        p.gaps = vec!["no delegated cgroup v2 subtree (the judge's cgroup is not writable) (fix: systemd-run --user --scope -p Delegate=yes mayan-judge ...)".into()];
        let c = delegation_check(&p);
        assert_eq!(c.level, Level::Fail);
        assert!(c.found.contains("no delegated cgroup v2 subtree"), "{}", c.found);
        assert_eq!(
            c.fix.as_deref(),
            Some("systemd-run --user --scope -p Delegate=yes mayan-judge ...")
        );
    }
}
