//! Control-group support: detection (v1, v2 or none) and one cgroup per run.
//!
//! Every run gets a cgroup of its own (one directory per v1 hierarchy, or
//! a single directory on v2), named `mayan-judge-<judge pid>-<counter>`
//! so that concurrent runs never share one. The child joins it itself,
//! between `fork` and `exec` (see `child.rs`; on v1 through `tasks`, see
//! [`join_file`]), so it cannot fork before being accounted. After the
//! run every task in it is killed. A launcher's runner then keeps it for
//! its next run, emptied, its memory given back and its peak reset, the
//! next run's figures read as differences ([`RunCgroup::recycled`]),
//! unless page cache is charged to it (reclaiming that would evict files
//! every run reads: a compiler's); where that cannot be done, and
//! everywhere else, the directories are removed and the next run gets
//! new ones.
//!
//! Where the per-run cgroups are created:
//! * v1: under the judge's own cgroup in each hierarchy (read from
//!   `/proc/self/cgroup`), so limits that apply to the judge still apply
//!   to the programs it runs;
//! * v2: under the delegated folder [`super::host`] found or asked for
//!   (`delegation.rs`: the judge's own systemd scope, a cgroup it is alone
//!   in, or as root `<cgroup2 root>/mayan-judge`), never in the cgroup the
//!   judge was started in.
//!
//! If none of that works (read-only `/sys/fs/cgroup`, no root, controllers
//! not delegated) detection returns `None` and the sandbox falls back to
//! rlimits.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};

use super::mountinfo::{self, Mount};
use nix::unistd::Pid;
use serde::{Deserialize, Serialize};

/// Which cgroup interface is in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CgroupVersion {
    /// Legacy per-controller hierarchies (`/sys/fs/cgroup/memory`, ...).
    V1,
    /// Unified hierarchy (`/sys/fs/cgroup/cgroup.controllers`).
    V2,
}

/// One place where per-run cgroups are created, and what they control.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Hierarchy {
    parent: PathBuf,
    memory: bool,
    pids: bool,
    cpu: bool,
}

/// Detected cgroup support; cheap to clone.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CgroupSupport {
    pub(crate) version: CgroupVersion,
    hierarchies: Vec<Hierarchy>,
}

/// Counter making per-run cgroup names unique inside this judge process.
static RUN_COUNTER: AtomicU64 = AtomicU64::new(0);

impl CgroupSupport {
    /// Whether the memory controller is available.
    pub(crate) fn memory(&self) -> bool {
        self.hierarchies.iter().any(|h| h.memory)
    }
    /// Whether the pids controller is available.
    pub(crate) fn pids(&self) -> bool {
        self.hierarchies.iter().any(|h| h.pids)
    }
    /// Whether CPU usage of the whole group can be read.
    pub(crate) fn cpu(&self) -> bool {
        self.hierarchies.iter().any(|h| h.cpu)
    }

    /// Detects usable cgroups; `None` when there are none we may write to.
    pub(crate) fn detect() -> Option<CgroupSupport> {
        match &super::host::current().v2 {
            Some(super::host::V2Place::Parent(dir)) => support_v2(dir),
            Some(super::host::V2Place::None(_)) => None,
            None => {
                let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
                let own = fs::read_to_string("/proc/self/cgroup").ok()?;
                detect_v1(&mountinfo::parse(&mountinfo), &own)
            }
        }
    }

    /// Whether the kernel reports each run's peak memory (`memory.peak`,
    /// cgroup v2 on Linux 5.19+; v1's `max_usage_in_bytes`).
    pub(crate) fn peak(&self) -> bool {
        self.version == CgroupVersion::V1
            || self
                .hierarchies
                .iter()
                .any(|h| h.memory && h.parent.join("memory.peak").exists())
    }

    /// The cgroup for one run, with the limits applied: the one a runner
    /// made ready after its last run ([`CgroupSupport::prepare_spare`]),
    /// else a fresh one. Never one another run uses, nor one that still
    /// holds anything of an earlier run but its counters' totals.
    pub(crate) fn create_run(
        &self,
        memory_bytes: u64,
        processes: u64,
    ) -> Result<RunCgroup, (PathBuf, &'static str, io::Error)> {
        let limits = RunLimits {
            memory_bytes,
            processes,
        };
        if let Some(mut spare) = self.take_spare() {
            spare.apply(limits)?;
            return Ok(spare);
        }
        let mut run = self.make_dirs()?;
        run.apply(limits)?;
        Ok(run)
    }

    /// Makes a cgroup with these limits ready for this thread's next run,
    /// off the way to any answer: a runner calls it once its run is
    /// answered and cleaned up, with that run's group, `used`. That group
    /// is kept, its counters reset ([`RunCgroup::recycled`]), where it can
    /// be; else it is removed and a new one made. A cgroup's `mkdir` and
    /// `rmdir` each hold the kernel's one `cgroup_mutex` while the group's
    /// controllers and files are made or torn down: with 16 runners, runs
    /// queued for it and a quarter of the cores idled (docs/SPEED.md). The
    /// spare is removed when the runner ends ([`drop_spare`]), or, if the
    /// runner is killed, by the next judge's start
    /// ([`CgroupSupport::remove_stale`]).
    pub(crate) fn prepare_spare(&self, memory_bytes: u64, processes: u64, used: Option<RunCgroup>) {
        if SPARE.with_borrow(Option::is_some) {
            return;
        }
        let kept = used.and_then(RunCgroup::recycled);
        let Some(mut run) = kept.or_else(|| self.make_dirs().ok()) else {
            return;
        };
        let limits = RunLimits {
            memory_bytes,
            processes,
        };
        if run.apply(limits).is_ok() {
            SPARE.set(Some(run));
        }
    }

    /// The spare cgroup, if there is one and it was made here.
    fn take_spare(&self) -> Option<RunCgroup> {
        let spare = SPARE.take()?;
        let same_place = spare.version == self.version
            && spare.dirs.len() == self.hierarchies.len()
            && spare
                .dirs
                .iter()
                .zip(&self.hierarchies)
                .all(|(d, h)| d.path.parent() == Some(h.parent.as_path()));
        same_place.then_some(spare)
    }

    /// A new, empty cgroup directory in every hierarchy, no limit set yet.
    fn make_dirs(&self) -> Result<RunCgroup, (PathBuf, &'static str, io::Error)> {
        // The judge's pid, even in a launcher's runner; the number is this
        // process's own (runners' counters all start where the launcher's was).
        let judge = super::owner::owner_pid();
        let own = u64::from(std::process::id()) * 1000;
        let mut run = RunCgroup {
            version: self.version,
            dirs: Vec::new(),
            limits: None,
            base: Counters::default(),
            peak: None,
        };
        // One name for all hierarchies of this run; retried on a stale leftover.
        let name = loop {
            let n = own + RUN_COUNTER.fetch_add(1, Ordering::Relaxed);
            let name = format!("mayan-judge-{judge}-{n}");
            if self.hierarchies.iter().all(|h| !h.parent.join(&name).exists()) {
                break name;
            }
        };
        for h in &self.hierarchies {
            let dir = h.parent.join(&name);
            fs::create_dir(&dir).map_err(|e| (dir.clone(), "mkdir", e))?;
            run.dirs.push(RunDir {
                path: dir.clone(),
                memory: h.memory,
                pids: h.pids,
                cpu: h.cpu,
            });
        }
        Ok(run)
    }
}

/// Removes this thread's spare cgroup ([`CgroupSupport::prepare_spare`]),
/// if it has one: a runner does as it ends.
pub(crate) fn drop_spare() {
    drop(SPARE.take());
}

thread_local! {
    /// The unused cgroup a runner (one thread) made ready for its next
    /// run. Only a runner makes one; another thread's runs never see it.
    static SPARE: std::cell::RefCell<Option<RunCgroup>> = const { std::cell::RefCell::new(None) };
}

/// The limits written into a run's cgroup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RunLimits {
    memory_bytes: u64,
    processes: u64,
}

impl RunLimits {
    /// The memory limit as the kernel's file takes it: absurdly large
    /// limits mean "no limit" (the kernel rejects them).
    fn memory(self, version: CgroupVersion) -> String {
        match (self.memory_bytes >= 1 << 62, version) {
            (true, CgroupVersion::V1) => "-1".to_string(),
            (true, CgroupVersion::V2) => "max".to_string(),
            (false, _) => self.memory_bytes.to_string(),
        }
    }

    /// The process limit as `pids.max` takes it.
    fn processes(self) -> String {
        if self.processes >= 1 << 30 {
            "max".to_string()
        } else {
            self.processes.max(1).to_string()
        }
    }
}

impl RunCgroup {
    /// Writes the limits into every directory (none that already holds).
    fn apply(&mut self, limits: RunLimits) -> Result<(), (PathBuf, &'static str, io::Error)> {
        // What an earlier run left in a kept group is not the run's to pay.
        let limits = RunLimits {
            memory_bytes: limits.memory_bytes.saturating_add(self.base.held_bytes),
            ..limits
        };
        let before = self.limits.take();
        for d in &self.dirs {
            if d.memory && before.map(|b| b.memory_bytes) != Some(limits.memory_bytes) {
                let limit = limits.memory(self.version);
                match self.version {
                    CgroupVersion::V1 => {
                        // Only present with swap accounting; the memory
                        // limit may never exceed it, so a raised limit
                        // goes after it and a lowered one before.
                        let raised = before.is_some_and(|b| b.memory_bytes < limits.memory_bytes);
                        if raised {
                            write_optional(&d.path, "memory.memsw.limit_in_bytes", &limit)?;
                        }
                        write_file(&d.path, "memory.limit_in_bytes", &limit)?;
                        if !raised {
                            write_optional(&d.path, "memory.memsw.limit_in_bytes", &limit)?;
                        }
                    }
                    CgroupVersion::V2 => {
                        write_file(&d.path, "memory.max", &limit)?;
                        if before.is_none() {
                            write_optional(&d.path, "memory.swap.max", "0")?;
                            // Kill the whole group when one member is OOM-killed.
                            write_optional(&d.path, "memory.oom.group", "1")?;
                        }
                    }
                }
            }
            if d.pids && before.map(|b| b.processes) != Some(limits.processes) {
                write_file(&d.path, "pids.max", &limits.processes())?;
            }
        }
        self.limits = Some(limits);
        Ok(())
    }
}

impl CgroupSupport {
    /// Removes the run cgroups of judges that are no longer running, as a
    /// judge starts (a judge killed mid-run leaves its run's cgroup behind;
    /// its processes died with the run's pid namespace). Only names of
    /// runs (`mayan-judge-<pid>-<n>`) whose judge `<pid>` no longer exists
    /// are touched: a judge running beside this one keeps its runs.
    pub(crate) fn remove_stale(&self) {
        for h in &self.hierarchies {
            let Ok(entries) = fs::read_dir(&h.parent) else {
                continue;
            };
            for e in entries.flatten() {
                let owner = e.file_name().to_str().and_then(run_owner);
                if owner.is_some_and(|pid| !super::procscan::exists(pid)) {
                    remove_dead_run(&e.path(), self.version);
                }
            }
        }
    }
}

/// The judge's pid in the name of a run's cgroup, `mayan-judge-<pid>-<n>`
/// (`None` for any other name, a scope's `mayan-judge-<pid>.scope` too).
fn run_owner(name: &str) -> Option<i32> {
    let (pid, n) = name.strip_prefix("mayan-judge-")?.split_once('-')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok()).flatten()
}

/// Removes the cgroup of a run whose judge is dead. The kernel kills such a
/// run's processes when its init dies, but they may still be exiting (a
/// loaded machine, a judge killed a moment ago): whatever is left in the
/// group is killed (membership proves it is a sandboxed process) and the
/// removal retried for up to a second.
fn remove_dead_run(dir: &Path, version: CgroupVersion) {
    for _ in 0..50 {
        if fs::remove_dir(dir).is_ok() || !dir.exists() {
            return;
        }
        kill_group(dir, version);
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pids in the cgroup at `dir`.
fn procs(dir: &Path) -> Vec<i32> {
    super::delegation::procs(dir)
        .into_iter()
        .map(|p| p as i32)
        .collect()
}

/// SIGKILLs every process in the cgroup at `dir`: at once through
/// `cgroup.kill` on v2 (Linux 5.14+), else one by one.
fn kill_group(dir: &Path, version: CgroupVersion) {
    if version == CgroupVersion::V2 && fs::write(dir.join("cgroup.kill"), "1").is_ok() {
        return;
    }
    for pid in procs(dir) {
        let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

/// One directory of a per-run cgroup.
#[derive(Debug)]
struct RunDir {
    path: PathBuf,
    memory: bool,
    pids: bool,
    cpu: bool,
}

/// The cgroup(s) of one run; removed on drop.
#[derive(Debug)]
pub(crate) struct RunCgroup {
    version: CgroupVersion,
    dirs: Vec<RunDir>,
    /// What [`RunCgroup::apply`] last wrote (`None`: nothing yet).
    limits: Option<RunLimits>,
    /// The group's counters when this run's use of it began (zero in a
    /// fresh group; an earlier run's in a recycled one,
    /// [`RunCgroup::recycled`]): a run's figures are the counters less these.
    base: Counters,
    /// v2, recycled: `memory.peak` opened and reset for this run (the
    /// kernel keeps a reset peak per open file, Linux 6.12+).
    peak: Option<File>,
}

/// A group's cumulative counters, which a recycled group's run reads as
/// differences.
#[derive(Debug, Default, Clone, Copy)]
struct Counters {
    cpu_ns: u64,
    limit_hits: u64,
    oom_kills: u64,
    /// Memory an earlier run left charged to the group (the kernel's own,
    /// under [`RECYCLE_MAX_LEFT_BYTES`]): added to the next run's limit and
    /// taken off its peak, so that neither its limit nor its figure carries
    /// what the run before it left.
    held_bytes: u64,
}

/// Memory a used group may still hold, once emptied and reclaimed, and be
/// kept for another run: what only the kernel's own bookkeeping keeps.
/// More (a System V segment of the run's IPC namespace, freed by the
/// kernel a moment later, say) would count against the next run's limit,
/// so such a group is removed and the next run gets a fresh one.
const RECYCLE_MAX_LEFT_BYTES: u64 = 512 * 1024;

/// The file a freshly forked child, still one thread, writes `0` into to
/// join a run's cgroup.
///
/// On v1, `tasks`: it moves the writing thread alone, which for a child
/// of one thread is the whole process, and the kernel skips the global
/// `cgroup_threadgroup_rwsem` for a thread moving itself; `cgroup.procs`
/// write-locks it, and its percpu write lock waits for an RCU grace
/// period (`rcu_sync_enter`) whenever it sat idle for one: 14 ms at the
/// 90th percentile and 136 ms at worst per run on a loaded 2-core
/// machine (docs/SPEED.md). On v2 a thread may not leave its domain
/// through `cgroup.threads`, so `cgroup.procs` it is.
pub(crate) fn join_file(version: CgroupVersion) -> &'static str {
    match version {
        CgroupVersion::V1 => "tasks",
        CgroupVersion::V2 => "cgroup.procs",
    }
}

/// Memory figures read from the cgroup after a run.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct MemoryStats {
    /// Peak usage in bytes, if the kernel exposes it.
    pub(crate) peak_bytes: Option<u64>,
    /// Times the limit was hit (v1 `failcnt`, v2 `memory.events: max`).
    pub(crate) limit_hits: u64,
    /// OOM kills inside the group.
    pub(crate) oom_kills: u64,
}

impl RunCgroup {
    /// Opens, in every directory of the run's cgroup, the file a newly
    /// forked child writes `0` into to join ([`join_file`]).
    pub(crate) fn join_files(&self) -> Result<Vec<File>, (PathBuf, &'static str, io::Error)> {
        self.dirs
            .iter()
            .map(|d| {
                let p = d.path.join(join_file(self.version));
                OpenOptions::new()
                    .write(true)
                    .open(&p)
                    .map_err(|e| (p, "open", e))
            })
            .collect()
    }

    /// CPU time used by every task of this run in the group, in ns.
    pub(crate) fn cpu_ns(&self) -> Option<u64> {
        self.cpu_ns_total().map(|ns| ns.saturating_sub(self.base.cpu_ns))
    }

    /// CPU time used by every task that ever was in the group, in ns.
    fn cpu_ns_total(&self) -> Option<u64> {
        let d = self.dirs.iter().find(|d| d.cpu)?;
        match self.version {
            CgroupVersion::V1 => read_u64(&d.path.join("cpuacct.usage")),
            CgroupVersion::V2 => {
                let s = fs::read_to_string(d.path.join("cpu.stat")).ok()?;
                keyed(&s, "usage_usec").map(|us| us.saturating_mul(1000))
            }
        }
    }

    /// This run's memory peak and limit events.
    pub(crate) fn memory_stats(&self) -> MemoryStats {
        let total = self.memory_stats_total();
        MemoryStats {
            peak_bytes: total.peak_bytes.map(|p| p.saturating_sub(self.base.held_bytes)),
            limit_hits: total.limit_hits.saturating_sub(self.base.limit_hits),
            oom_kills: total.oom_kills.saturating_sub(self.base.oom_kills),
        }
    }

    /// The memory peak since the group was made or its peak reset, and
    /// its limit events since it was made.
    fn memory_stats_total(&self) -> MemoryStats {
        let Some(d) = self.dirs.iter().find(|d| d.memory) else {
            return MemoryStats::default();
        };
        match self.version {
            CgroupVersion::V1 => {
                let oom = fs::read_to_string(d.path.join("memory.oom_control")).unwrap_or_default();
                MemoryStats {
                    peak_bytes: read_u64(&d.path.join("memory.max_usage_in_bytes")),
                    limit_hits: read_u64(&d.path.join("memory.failcnt")).unwrap_or(0),
                    oom_kills: keyed(&oom, "oom_kill").unwrap_or(0),
                }
            }
            CgroupVersion::V2 => {
                let ev = fs::read_to_string(d.path.join("memory.events")).unwrap_or_default();
                let peak = match &self.peak {
                    Some(f) => read_u64_at(f),
                    None => read_u64(&d.path.join("memory.peak")),
                };
                MemoryStats {
                    peak_bytes: peak,
                    limit_hits: keyed(&ev, "max").unwrap_or(0),
                    oom_kills: keyed(&ev, "oom_kill").unwrap_or(0),
                }
            }
        }
    }

    /// This group, used by a run that has ended, made ready for another:
    /// only once every process of it is gone, what it still holds given
    /// back to the kernel (memory charged to it: page cache its programs
    /// read) and found under [`RECYCLE_MAX_LEFT_BYTES`], and its peak reset
    /// (v1 `max_usage_in_bytes`; v2 a `memory.peak` of this run's own,
    /// Linux 6.12+). The cumulative counters are read as the next run's
    /// base. `None` (the group removed) where any of that fails: the next
    /// run gets a fresh group, as before.
    pub(crate) fn recycled(mut self) -> Option<RunCgroup> {
        if !self.all_released() || self.holds_page_cache() {
            return None;
        }
        let mut held = 0;
        if let Some(d) = self.dirs.iter().find(|d| d.memory) {
            // v2: the peak's file opened first, so that a kernel that
            // cannot reset it (before 6.12) reclaims nothing for a group
            // it then removes: the pages stay cached, charged to the parent.
            let peak = match self.version {
                CgroupVersion::V1 => None,
                CgroupVersion::V2 => Some(open_peak(&d.path)?),
            };
            held = give_back_memory(&d.path, self.version)?;
            self.peak = match peak {
                None => {
                    write_file(&d.path, "memory.max_usage_in_bytes", "0").ok()?;
                    None
                }
                Some(mut f) => {
                    // From now on, read from this file, the peak is since now.
                    f.write_all(b"reset\n").ok()?;
                    Some(f)
                }
            };
        }
        let total = self.memory_stats_total();
        self.base = Counters {
            cpu_ns: self.cpu_ns_total().unwrap_or(0),
            limit_hits: total.limit_hits,
            oom_kills: total.oom_kills,
            held_bytes: held,
        };
        Some(self)
    }

    /// Whether file pages (page cache, tmpfs) are charged to the group:
    /// v1 `memory.stat` `cache`, v2 `file`; unknown counts as charged. Such
    /// a group is removed, never reclaimed to be kept: its pages then stay
    /// cached. A page is charged to the group that first read it in, so a
    /// compiler's, an interpreter's or a program's files read by a run
    /// after anything evicted them (memory pressure, the host's own
    /// reclaim, a cold start) are charged to that run's group, and
    /// reclaiming it would evict them again: every later compilation read
    /// `cc1` from disk once more (2 GB read for 40 submissions, the server
    /// idle a third of the time: docs/SPEED.md).
    fn holds_page_cache(&self) -> bool {
        let Some(d) = self.dirs.iter().find(|d| d.memory) else {
            return false;
        };
        let key = match self.version {
            CgroupVersion::V1 => "cache",
            CgroupVersion::V2 => "file",
        };
        let stat = fs::read_to_string(d.path.join("memory.stat")).unwrap_or_default();
        keyed(&stat, key).is_none_or(|bytes| bytes > 0)
    }

    /// Pids currently in the group.
    fn tasks(&self) -> Vec<i32> {
        // Every run process joined every directory; the first one is enough.
        self.dirs.first().map_or_else(Vec::new, |d| procs(&d.path))
    }

    /// SIGKILLs every task in the group (once; see [`RunCgroup::kill_all_and_wait`]).
    pub(crate) fn kill_all(&self) {
        if let Some(d) = self.dirs.first() {
            kill_group(&d.path, self.version);
        }
    }

    /// Kills until the group is empty (a fork bomb may race the first
    /// pass), giving up after `timeout`. Returns whether it is empty.
    pub(crate) fn kill_all_and_wait(&self, timeout: Duration) -> bool {
        let start = Instant::now();
        loop {
            // An empty group is not killed: `cgroup.kill` takes the
            // kernel's `cgroup_mutex`, which every runner's run needs.
            if self.tasks().is_empty() {
                return true;
            }
            self.kill_all();
            if start.elapsed() >= timeout {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Whether every process of the group has been reaped: `pids.current`
    /// counts zombies until they are; without the pids controller, only
    /// "no live task" can be checked.
    pub(crate) fn all_released(&self) -> bool {
        match self.dirs.iter().find(|d| d.pids) {
            Some(d) => read_u64(&d.path.join("pids.current")) == Some(0),
            None => self.tasks().is_empty(),
        }
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        self.kill_all_and_wait(Duration::from_secs(2));
        for d in &self.dirs {
            // rmdir fails with EBUSY while dying tasks are still being torn down.
            let start = Instant::now();
            while fs::remove_dir(&d.path).is_err()
                && d.path.exists()
                && start.elapsed() < Duration::from_secs(2)
            {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Detection helpers

/// Creates and removes a probe directory under `parent`.
fn probe_dir(parent: &Path, expect_file: &str) -> bool {
    let n = RUN_COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = parent.join(format!("mayan-judge-probe-{}-{n}", std::process::id()));
    if fs::create_dir(&dir).is_err() {
        return false;
    }
    let ok = dir.join(expect_file).exists() && dir.join("cgroup.procs").exists();
    let _ = fs::remove_dir(&dir);
    ok
}

fn detect_v1(mounts: &[Mount], own: &str) -> Option<CgroupSupport> {
    let mut hierarchies = Vec::new();
    for m in mounts.iter().filter(|m| m.fstype == "cgroup") {
        let has = |c: &str| m.super_opts.iter().any(|o| o == c);
        let (memory, pids, cpu) = (has("memory"), has("pids"), has("cpuacct"));
        if !(memory || pids || cpu) {
            continue;
        }
        // Find our line: "id:ctrl1,ctrl2:/path" whose controllers are this mount's.
        let path = own.lines().find_map(|l| {
            let mut it = l.splitn(3, ':');
            let (_, ctrls, path) = (it.next()?, it.next()?, it.next()?);
            let ctrls: Vec<&str> = ctrls.split(',').collect();
            let want = if memory {
                "memory"
            } else if pids {
                "pids"
            } else {
                "cpuacct"
            };
            ctrls.contains(&want).then(|| path.to_string())
        })?;
        let Some(parent) = m.dir_of(&path) else {
            continue;
        };
        let probe_file = if memory {
            "memory.limit_in_bytes"
        } else if pids {
            "pids.max"
        } else {
            "cpuacct.usage"
        };
        if hierarchies.iter().any(|h: &Hierarchy| h.parent == parent) || !probe_dir(&parent, probe_file) {
            continue;
        }
        hierarchies.push(Hierarchy {
            parent,
            memory,
            pids,
            cpu,
        });
    }
    // CPU accounting alone is not worth a cgroup.
    if hierarchies.iter().any(|h| h.memory || h.pids) {
        Some(CgroupSupport {
            version: CgroupVersion::V1,
            hierarchies,
        })
    } else {
        None
    }
}

/// cgroup v2 support under `parent`, the folder [`super::host`] chose
/// (delegated to the judge, its controllers enabled for its children).
fn support_v2(parent: &Path) -> Option<CgroupSupport> {
    let enabled = super::delegation::words(parent, "cgroup.subtree_control");
    let has = |c: &str| enabled.iter().any(|e| e == c);
    let probe = if has("memory") { "memory.max" } else { "pids.max" };
    if !(has("memory") || has("pids")) || !probe_dir(parent, probe) {
        return None;
    }
    Some(CgroupSupport {
        version: CgroupVersion::V2,
        hierarchies: vec![Hierarchy {
            parent: parent.to_path_buf(),
            memory: has("memory"),
            pids: has("pids"),
            // cpu.stat (usage_usec) exists without the cpu controller.
            cpu: true,
        }],
    })
}

// ---------------------------------------------------------------------------
// Small file helpers

fn write_file(dir: &Path, file: &str, value: &str) -> Result<(), (PathBuf, &'static str, io::Error)> {
    let p = dir.join(file);
    let mut f = OpenOptions::new()
        .write(true)
        .open(&p)
        .map_err(|e| (p.clone(), "open", e))?;
    f.write_all(value.as_bytes()).map_err(|e| (p, "write", e))
}

fn write_optional(dir: &Path, file: &str, value: &str) -> Result<(), (PathBuf, &'static str, io::Error)> {
    if dir.join(file).exists() {
        write_file(dir, file, value)
    } else {
        Ok(())
    }
}

fn read_u64(p: &Path) -> Option<u64> {
    fs::read_to_string(p).ok()?.trim().parse().ok()
}

/// The number in an open cgroup file, read from its start.
fn read_u64_at(f: &File) -> Option<u64> {
    use std::os::unix::fs::FileExt;
    let mut buf = [0u8; 32];
    let n = f.read_at(&mut buf, 0).ok()?;
    std::str::from_utf8(&buf[..n]).ok()?.trim().parse().ok()
}

/// Reclaims what an empty memory cgroup at `dir` still holds, where that
/// is over [`RECYCLE_MAX_LEFT_BYTES`]; what it then holds, if no more.
///
/// Most groups hold only the kernel's own memory by now (slab objects
/// of the run's files and processes, 30-220 KiB), which reclaim cannot
/// take back: v1's `memory.force_empty` would try sixteen times over
/// every priority, 0.3-1 ms of the runner's time and some 65 wake-ups of
/// the kernel's workers (its memory-pressure events) per run, for nothing
/// (docs/SPEED.md).
fn give_back_memory(dir: &Path, version: CgroupVersion) -> Option<u64> {
    let usage = dir.join(match version {
        CgroupVersion::V1 => "memory.usage_in_bytes",
        CgroupVersion::V2 => "memory.current",
    });
    if let Some(held) = read_u64(&usage).filter(|&b| b > RECYCLE_MAX_LEFT_BYTES) {
        // Either fails where less could be reclaimed (v2 `EAGAIN`): the
        // check below decides.
        let _ = match version {
            // Reclaims every page of a group without tasks.
            CgroupVersion::V1 => write_file(dir, "memory.force_empty", "0"),
            CgroupVersion::V2 => write_file(dir, "memory.reclaim", &held.to_string()),
        };
    }
    read_u64(&usage).filter(|&b| b <= RECYCLE_MAX_LEFT_BYTES)
}

/// `memory.peak` of the cgroup at `dir`, opened to be reset: a write
/// resets the peak read from this file (Linux 6.12+; older kernels refuse
/// to open it for writing).
fn open_peak(dir: &Path) -> Option<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .open(dir.join("memory.peak"))
        .ok()
}

/// Value of `key` in a "key value" per line file.
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_run_cgroups_name_a_judge_to_check() {
        assert_eq!(run_owner("mayan-judge-1234-0"), Some(1234));
        assert_eq!(run_owner("mayan-judge-7-42"), Some(7));
        for other in [
            "mayan-judge",
            "mayan-judge-1234.scope",
            "mayan-judge-1234",
            "mayan-judge-1234-",
            "mayan-judge-1234-x",
            "mayan-judge--3",
            "mayan-judge-1234-5-6",
            "mayan-judge-99999999999-1",
            "user.slice",
        ] {
            assert_eq!(run_owner(other), None, "{other}");
        }
    }

    #[test]
    fn a_group_holding_only_a_little_of_the_kernels_memory_is_not_reclaimed() {
        for (version, usage, reclaim) in [
            (CgroupVersion::V1, "memory.usage_in_bytes", "memory.force_empty"),
            (CgroupVersion::V2, "memory.current", "memory.reclaim"),
        ] {
            let group = tempfile::tempdir().unwrap();
            let dir = group.path();
            fs::write(dir.join(reclaim), "").unwrap();
            // What a run's group holds once its processes are gone: slab
            // objects, which reclaim cannot take back.
            fs::write(dir.join(usage), "139264\n").unwrap();
            assert_eq!(give_back_memory(dir, version), Some(139264));
            assert_eq!(fs::read_to_string(dir.join(reclaim)).unwrap(), "", "{reclaim}");
            // Over 512 KiB: reclaimed, and still too much to keep.
            fs::write(dir.join(usage), "1048576\n").unwrap();
            assert_eq!(give_back_memory(dir, version), None);
            assert_ne!(fs::read_to_string(dir.join(reclaim)).unwrap(), "", "{reclaim}");
        }
    }

    #[test]
    fn mountinfo_and_paths() {
        let text = "30 23 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n\
                    31 23 0:27 /docker/abc /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n\
                    32 23 0:28 / /sys/fs/cgroup/un\\040ified rw - cgroup2 cgroup2 rw\n";
        let m = mountinfo::parse(text);
        assert_eq!(m.len(), 3);
        assert_eq!(m[2].mount_point, PathBuf::from("/sys/fs/cgroup/un ified"));
        assert_eq!(
            m[0].dir_of("/a/b"),
            Some(PathBuf::from("/sys/fs/cgroup/memory/a/b"))
        );
        assert_eq!(
            m[1].dir_of("/docker/abc/x"),
            Some(PathBuf::from("/sys/fs/cgroup/pids/x"))
        );
        assert_eq!(m[1].dir_of("/"), None);
        assert_eq!(m[0].dir_of("/"), Some(PathBuf::from("/sys/fs/cgroup/memory")));
    }

    #[test]
    fn a_child_joins_through_the_file_that_skips_the_global_lock_where_there_is_one() {
        assert_eq!(join_file(CgroupVersion::V1), "tasks");
        assert_eq!(join_file(CgroupVersion::V2), "cgroup.procs");
    }

    /// The value in a cgroup file, trimmed.
    fn value(dir: &Path, file: &str) -> String {
        fs::read_to_string(dir.join(file)).unwrap().trim().to_string()
    }

    #[test]
    fn a_spare_cgroup_is_taken_once_with_the_runs_limits_raised_or_lowered() {
        let Some(support) = CgroupSupport::detect() else {
            super::super::skip_for_want_of("a cgroup this judge may write to");
            return;
        };
        let mib = |n: u64| n << 20;
        support.prepare_spare(mib(64), 10, None);
        let spare_dirs = SPARE.with_borrow(|s| paths(s.as_ref().unwrap()));
        for (memory, processes) in [(mib(256), 20), (mib(32), 5)] {
            let run = support.create_run(memory, processes).unwrap();
            for d in &run.dirs {
                if d.memory {
                    let file = match support.version {
                        CgroupVersion::V1 => "memory.limit_in_bytes",
                        CgroupVersion::V2 => "memory.max",
                    };
                    assert_eq!(value(&d.path, file), memory.to_string());
                    if d.path.join("memory.memsw.limit_in_bytes").exists() {
                        assert_eq!(value(&d.path, "memory.memsw.limit_in_bytes"), memory.to_string());
                    }
                }
                if d.pids {
                    assert_eq!(value(&d.path, "pids.max"), processes.to_string());
                }
            }
            let dirs = paths(&run);
            // The first run takes the spare (a raised limit); the second
            // gets a fresh one (a lowered limit, where none is spare).
            assert_eq!(dirs == spare_dirs, memory == mib(256), "{dirs:?} {spare_dirs:?}");
            drop(run);
            assert!(dirs.iter().all(|d| !d.exists()), "a run's cgroup outlived it");
        }
        support.prepare_spare(mib(1), 1, None);
        drop_spare();
        assert!(SPARE.with_borrow(Option::is_none));
    }

    /// Runs `python3 -c code` in `run`'s cgroup, to its end.
    fn python_in(run: &RunCgroup, code: &str) {
        use std::os::unix::process::CommandExt;
        let joins = run.join_files().unwrap();
        let mut cmd = std::process::Command::new("python3");
        cmd.args(["-c", code]);
        // SAFETY: only writes to files opened before the fork.
        unsafe {
            cmd.pre_exec(move || {
                for mut f in &joins {
                    f.write_all(b"0")?;
                }
                Ok(())
            });
        }
        assert!(cmd.status().expect("python3").success());
        assert!(run.kill_all_and_wait(Duration::from_secs(2)));
    }

    /// The run's cgroup folders.
    fn paths(run: &RunCgroup) -> Vec<PathBuf> {
        run.dirs.iter().map(|d| d.path.clone()).collect()
    }

    #[test]
    fn a_used_cgroup_serves_the_next_run_with_its_figures_reset_unless_it_still_holds_memory() {
        let Some(support) = CgroupSupport::detect().filter(CgroupSupport::memory) else {
            super::super::skip_for_want_of("a memory cgroup this judge may write to");
            return;
        };
        let mib = |n: u64| n << 20;
        // A run that happened to read a page into the cache (one of its
        // interpreter's, evicted by the host meanwhile) leaves a group that
        // is rightly not kept (the test below): another try.
        let run = crate::testing::retried(5, "the run read files into the page cache", || {
            let run = support.create_run(mib(256), 64).unwrap();
            python_in(&run, "b = b'a' * (40 << 20); sum(range(3_000_000))");
            match run.holds_page_cache() {
                false => Ok(run),
                true => Err(format!("{:?}", paths(&run))),
            }
        });
        assert!(run.memory_stats().peak_bytes.unwrap() >= mib(40));
        assert!(run.cpu_ns().unwrap() > 0);
        let used = paths(&run);
        support.prepare_spare(mib(128), 32, Some(run));
        let kept = SPARE.with_borrow(|s| s.as_ref().map(paths)) == Some(used.clone());
        if !kept {
            // Only a kernel without a peak of one's own (v2 before 6.12)
            // leaves it to a new group.
            assert!(
                support.version == CgroupVersion::V2,
                "a used v1 group was not kept"
            );
            let fresh = support.create_run(mib(1), 1).unwrap();
            let d = fresh.dirs.iter().find(|d| d.memory).unwrap();
            assert!(
                open_peak(&d.path).is_none(),
                "this kernel resets a peak: the group should have been kept"
            );
            super::super::skip_for_want_of("a kernel that resets memory.peak per open file (6.12+)");
            return;
        }
        let run = support.create_run(mib(128), 32).unwrap();
        assert_eq!(paths(&run), used);
        // What the run before left is not this run's to pay: its limit is
        // raised by that much, and its peak does not count it.
        let d = run.dirs.iter().find(|d| d.memory).unwrap();
        let limit = match support.version {
            CgroupVersion::V1 => "memory.limit_in_bytes",
            CgroupVersion::V2 => "memory.max",
        };
        assert_eq!(
            value(&d.path, limit),
            (mib(128) + run.base.held_bytes).to_string()
        );
        let m = run.memory_stats();
        assert!(m.peak_bytes.unwrap() <= RECYCLE_MAX_LEFT_BYTES, "{m:?}");
        assert_eq!((m.limit_hits, m.oom_kills), (0, 0));
        assert!(run.cpu_ns().unwrap() < 1_000_000, "{:?}", run.cpu_ns());
        // Its next run's figures are its own.
        python_in(&run, "b = b'a' * (8 << 20)");
        let peak = run.memory_stats().peak_bytes.unwrap();
        assert!((mib(8)..mib(40)).contains(&peak), "{peak}");
        // A file of the run on a tmpfs outlives it, charged to its group:
        // the group is not kept.
        let file = format!("/dev/shm/mayan-judge-test-{}", std::process::id());
        python_in(&run, &format!("open('{file}', 'wb').write(b'a' * (4 << 20))"));
        support.prepare_spare(mib(128), 32, Some(run));
        let _ = fs::remove_file(&file);
        assert!(
            used.iter().all(|d| !d.exists()),
            "a group holding a run's file was kept"
        );
        drop_spare();
    }

    /// The share of `path`'s pages in the page cache (`mincore`).
    fn cached_share(path: &Path) -> f64 {
        use std::os::fd::AsRawFd;
        let file = File::open(path).unwrap();
        let len = file.metadata().unwrap().len() as usize;
        // SAFETY: sysconf only reads a constant of the system.
        let page = usize::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap();
        let pages = len.div_ceil(page);
        let mut vec = vec![0u8; pages];
        // SAFETY: a private read-only mapping of an open file, only passed
        // to mincore, whose vector holds one byte per page; unmapped here.
        unsafe {
            let fd = file.as_raw_fd();
            let addr = libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                fd,
                0,
            );
            assert_ne!(addr, libc::MAP_FAILED);
            assert_eq!(libc::mincore(addr, len, vec.as_mut_ptr()), 0);
            libc::munmap(addr, len);
        }
        vec.iter().filter(|&&b| b & 1 == 1).count() as f64 / pages as f64
    }

    #[test]
    fn recycling_a_group_never_evicts_the_files_its_run_read() {
        // A run that reads a file evicted from the page cache is charged
        // for its pages (a compiler's, after the host reclaimed them):
        // reclaiming its group to keep it would evict them again, and
        // every later compilation would read them from disk.
        let Some(support) = CgroupSupport::detect().filter(CgroupSupport::memory) else {
            super::super::skip_for_want_of("a memory cgroup this judge may write to");
            return;
        };
        // A disk's folder (the current one, the checkout under cargo): a
        // tmpfs file cannot be evicted.
        let dir = tempfile::Builder::new()
            .prefix(".mayan-judge-cache-test-")
            .tempdir_in(".")
            .unwrap();
        let path = dir.path().join("read-by-the-run");
        let mut file = File::create(&path).unwrap();
        file.write_all(&vec![7u8; 4 << 20]).unwrap();
        file.sync_all().unwrap();
        let dontneed = nix::fcntl::PosixFadviseAdvice::POSIX_FADV_DONTNEED;
        nix::fcntl::posix_fadvise(&file, 0, 0, dontneed).unwrap();
        assert!(cached_share(&path) < 0.5, "the file could not be evicted");
        let run = support.create_run(256 << 20, 64).unwrap();
        python_in(&run, &format!("open({:?}, 'rb').read()", path.to_str().unwrap()));
        let used = paths(&run);
        support.prepare_spare(128 << 20, 32, Some(run));
        let kept = SPARE.with_borrow(|s| s.as_ref().map(paths)) == Some(used);
        drop_spare();
        assert!(!kept, "a group charged with cached pages was kept");
        let share = cached_share(&path);
        assert!(
            share > 0.9,
            "recycling the group evicted {:.0}% of what its run read",
            100.0 * (1.0 - share)
        );
    }

    #[test]
    fn keyed_values() {
        let s = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
        assert_eq!(keyed(s, "oom_kill"), Some(3));
        assert_eq!(keyed(s, "nope"), None);
    }
}
