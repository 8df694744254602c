//! The judging pool: one set of `--jobs` slots that everything a command
//! judges draws from (compilations, and every run of every submission on
//! every test), so a slow test of one contestant never idles a slot while
//! another contestant's tests wait.
//!
//! A piece of work holds a slot while it runs ([`Pool::run`]); work that is
//! waiting gets a freed slot in the order of its [`Item`] (the earliest
//! submission first, its compilation before its tests, tests in order), so
//! the schedule stays close to one submission after another and the first
//! reports are ready first. [`Pool::each`] walks a list (submissions, CI
//! units) with as many submissions in flight as there are slots: each of
//! them may use every slot, and since a submission whose last test is
//! running holds a slot, a free slot always has work while work is left.
//! Results are put back in the list's order by the callers, so reports do
//! not depend on the schedule.
//!
//! A released slot is handed to the first waiting item, and only its
//! thread is woken: a server at `--jobs 16` has a hundred tests waiting,
//! and waking them all on every release (a condition variable's
//! `notify_all`) kept freed slots idle while the herd took the lock in
//! turn (docs/SPEED.md: 10% more submissions a second at 16 slots).
//!
//! Work of the lowest priority ([`Pool::run_idle`]: `serve`'s search for a
//! failing submission's counterexample) gets a slot only while no judging
//! waits for one: a free slot, or a released one with nothing but idle
//! work waiting. It holds the slot for one run, and yields it at once
//! when judging comes to wait: the run is preempted ([`on_preempt`]: the
//! launcher's run is killed within the monitor's 10 ms check), its slot
//! goes to the judging, and the idle work is told to do it again later.
//!
//! While a submission is being judged, from its compilation to its last
//! test ([`Pool::lease`]), idle work gets no slot: a slot given back
//! between its compilation and its tests (or between two tests) went to
//! whatever waited (the search), which held it while the submission's
//! tests waited. The lease holds no slot of its own: every thread of the
//! submission takes slots as before, so two submissions in flight never
//! wait for each other's slots.
//!
//! [`Jobs`] is what `--jobs` takes: a number, or `auto` (one per core the
//! judge may use: [`usable_cores`], from the affinity mask and the cgroup's
//! `cpu.max`).
//!
//! A pool with a slot for every core in the judge's affinity mask puts
//! each slot on a core of its own ([`Placement`]): the thread holding
//! slot `s` is pinned to its core while it holds it, and a run it starts
//! inherits the thread's mask (forked in-process, or through the launcher,
//! which carries the mask in the request), so the run's init, its
//! compilation or program and the thread that waits for it stay on one
//! core instead of being woken on whichever core the scheduler picks
//! (docs/SPEED.md: on two cores the server kept them 82-85% busy unpinned,
//! 88-90% pinned). Threads spawned while a slot is held (a run's pumps)
//! share its core. A pool with fewer slots than cores, or a cgroup quota
//! below the mask, is not pinned: the scheduler spreads it.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::thread::Thread;

/// What a slot is held for, in the order waiting work is served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Item {
    /// The submission (its index in the command's list, or its id).
    pub group: u64,
    /// What of it.
    pub work: Work,
}

/// A piece of a submission's judging.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Work {
    /// Its compilation (or other work before its tests).
    Compile,
    /// Its run on the test of this index.
    Test(usize),
}

/// How urgent waiting work is: judging first, idle work after all of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// Compilations and runs of submissions being judged ([`Pool::run`]).
    Judging,
    /// Work done only while no judging waits ([`Pool::run_idle`]).
    Idle,
}

/// One change of a slot, as [`Pool::traced`] records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    /// The slot, `0..size`.
    pub slot: usize,
    /// The work.
    pub item: Item,
    /// Its priority.
    pub priority: Priority,
    /// `true` when it started, `false` when it ended.
    pub start: bool,
}

/// `--jobs`: a number of slots, or one per usable core.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jobs {
    /// One slot per core the judge may use ([`usable_cores`]).
    Auto,
    /// This many (at least 1).
    Count(usize),
}

impl Jobs {
    /// The number of slots.
    pub fn count(self) -> usize {
        match self {
            Jobs::Auto => available_cores(),
            Jobs::Count(n) => n.max(1),
        }
    }
}

impl std::str::FromStr for Jobs {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "auto" {
            return Ok(Jobs::Auto);
        }
        match s.parse::<usize>() {
            Ok(n) if n >= 1 => Ok(Jobs::Count(n)),
            _ => Err(format!("`{s}`: a number of at least 1, or `auto` (one per core)")),
        }
    }
}

impl std::fmt::Display for Jobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Jobs::Auto => f.write_str("auto"),
            Jobs::Count(n) => write!(f, "{n}"),
        }
    }
}

/// The cores a process may use: its affinity mask's count, lowered to the
/// cgroup's CPU quota (`cpu.max` `quota period`, rounded up: 150000 100000
/// is 2 cores), at least 1. A pure function, so that the rules are tested.
pub fn usable_cores(affinity: usize, quota: Option<(u64, u64)>) -> usize {
    let by_quota = match quota {
        Some((q, p)) if p > 0 && q > 0 => usize::try_from(q.div_ceil(p)).unwrap_or(usize::MAX),
        _ => usize::MAX,
    };
    affinity.min(by_quota).max(1)
}

/// The cores this process may use now: [`usable_cores`] of its affinity
/// mask (`sched_getaffinity`) and the tightest `cpu.max` of its cgroup and
/// the cgroups above it (cgroup v2).
pub fn available_cores() -> usize {
    usable_cores(affinity(), cgroup_quota())
}

/// The cores the judge may use, and why, in words (for `doctor`), e.g.
/// `2 (CPU affinity: 2 cores; cgroup cpu.max: no quota)`.
pub fn describe_cores() -> String {
    let quota = match cgroup_quota() {
        Some((q, p)) => format!("{q} {p} ({:.2} cores)", q as f64 / p as f64),
        None => "no quota".into(),
    };
    let slots = available_cores();
    let placed = if Placement::here(slots).is_some() {
        "each slot on a core of its own (MAYAN_JUDGE_PIN=0: not)"
    } else {
        "slots not pinned to cores"
    };
    format!(
        "{slots} (CPU affinity: {} cores; cgroup cpu.max: {quota}): what --jobs auto and serve use; {placed}",
        affinity()
    )
}

/// The number of cores in this thread's affinity mask.
fn affinity() -> usize {
    match thread_cores().len() {
        0 => std::thread::available_parallelism().map_or(1, usize::from),
        n => n,
    }
}

/// The tightest `cpu.max` quota of this process's cgroup v2 and its
/// ancestors, as `(quota, period)` (`None`: no quota, or not cgroup v2).
fn cgroup_quota() -> Option<(u64, u64)> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let mut dir = std::path::Path::new("/sys/fs/cgroup").join(path.trim_start_matches('/'));
    let mut tightest: Option<(u64, u64)> = None;
    loop {
        if let Some(q) = std::fs::read_to_string(dir.join("cpu.max"))
            .ok()
            .and_then(|t| parse_cpu_max(&t))
        {
            // Compare q1/p1 < q2/p2 without division.
            if tightest
                .is_none_or(|(tq, tp)| u128::from(q.0) * u128::from(tp) < u128::from(tq) * u128::from(q.1))
            {
                tightest = Some(q);
            }
        }
        if dir == std::path::Path::new("/sys/fs/cgroup") || !dir.pop() {
            return tightest;
        }
    }
}

/// `cpu.max`'s `quota period` (`None` for `max`, no quota).
pub fn parse_cpu_max(text: &str) -> Option<(u64, u64)> {
    let mut words = text.split_whitespace();
    let quota = words.next()?.parse().ok()?;
    let period = words.next().map_or(Some(100_000), |p| p.parse().ok())?;
    Some((quota, period))
}

/// Whether pools pin their slots to cores: `MAYAN_JUDGE_PIN=0` turns it
/// off (a machine shared with other work, where a pinned slot cannot move
/// off a busy core; or to compare), anything else leaves the rule above.
pub const PIN_VARIABLE: &str = "MAYAN_JUDGE_PIN";

/// Each slot's core, for a pool with a slot for every core it may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The judge's affinity mask, which a thread gets back as it gives up
    /// its slot.
    all: Vec<usize>,
    /// Slot 0's place in `all` (the judge's pid, so that two judges on one
    /// machine do not both start on its first core).
    turn: usize,
}

impl Placement {
    /// The placement of `slots` slots over the cores `mask` (in order),
    /// turned by `turn`: `None` unless there are at least two cores and
    /// a slot for each of them. A pure function, so that the rule is tested.
    pub fn of(slots: usize, mask: &[usize], turn: usize) -> Option<Placement> {
        (mask.len() >= 2 && slots >= mask.len()).then(|| Placement {
            all: mask.to_vec(),
            turn: turn % mask.len(),
        })
    }

    /// The placement for a pool of `slots` in this process: its affinity
    /// mask, unless a cgroup quota leaves fewer cores than the mask names
    /// (the quota is shared by every core: pinning would only narrow it)
    /// or `MAYAN_JUDGE_PIN=0`.
    fn here(slots: usize) -> Option<Placement> {
        if std::env::var_os(PIN_VARIABLE).is_some_and(|v| v == "0") {
            return None;
        }
        let mask = thread_cores();
        if usable_cores(mask.len(), cgroup_quota()) < mask.len() {
            return None;
        }
        Placement::of(slots, &mask, std::process::id() as usize)
    }

    /// The core of `slot`.
    pub fn core(&self, slot: usize) -> usize {
        self.all[(slot + self.turn) % self.all.len()]
    }

    /// Pins this thread to `slot`'s core.
    fn enter(&self, slot: usize) {
        set_thread_cores(&[self.core(slot)]);
    }

    /// Gives this thread the whole mask back.
    fn leave(&self) {
        set_thread_cores(&self.all);
    }
}

/// The cores in this thread's affinity mask, in order.
pub fn thread_cores() -> Vec<usize> {
    let Ok(set) = rustix::thread::sched_getaffinity(None) else {
        return Vec::new();
    };
    (0..rustix::thread::CpuSet::MAX_CPU)
        .filter(|&c| set.is_set(c))
        .collect()
}

/// Sets this thread's affinity mask to `cores` (nothing when empty; a
/// refusal, e.g. a core a cpuset took away since, leaves the mask as it
/// was: placement is a matter of speed, never of correctness).
pub fn set_thread_cores(cores: &[usize]) {
    if cores.is_empty() {
        return;
    }
    let mut set = rustix::thread::CpuSet::new();
    for &c in cores {
        if c < rustix::thread::CpuSet::MAX_CPU {
            set.set(c);
        }
    }
    let _ = rustix::thread::sched_setaffinity(None, &set);
}

/// What the judging that preempts idle work does to its run: one hook at
/// a time, the run in progress ([`on_preempt`]).
type Hook = Box<dyn FnOnce() + Send>;

/// A piece of idle work's standing: preempted or not, and how to stop
/// its run.
#[derive(Default)]
struct Preemption {
    state: Mutex<(bool, Option<Hook>)>,
}

impl Preemption {
    /// Marks it preempted and stops its run, if one is in progress.
    fn preempt(&self) {
        let hook = {
            let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
            st.0 = true;
            st.1.take()
        };
        if let Some(stop) = hook {
            stop();
        }
    }

    fn preempted(&self) -> bool {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).0
    }
}

thread_local! {
    /// The idle work this thread is doing, if any.
    static IDLE: RefCell<Option<Arc<Preemption>>> = const { RefCell::new(None) };
}

/// While it lives, the run in progress on this thread (inside
/// [`Pool::run_idle`]) is stopped by `stop` if judging preempts it (at
/// once, if it already has); on any other thread, nothing. Dropped, the
/// hook is dropped too: it never runs after its run has ended.
pub fn on_preempt(stop: impl FnOnce() + Send + 'static) -> PreemptHook {
    let Some(idle) = IDLE.with(|i| i.borrow().clone()) else {
        return PreemptHook(None);
    };
    let now = {
        let mut st = idle.state.lock().unwrap_or_else(|p| p.into_inner());
        if st.0 {
            true
        } else {
            st.1 = Some(Box::new(stop));
            return PreemptHook(Some(idle.clone()));
        }
    };
    if now {
        stop();
    }
    PreemptHook(None)
}

/// The hook of [`on_preempt`], removed when dropped.
pub struct PreemptHook(Option<Arc<Preemption>>);

impl Drop for PreemptHook {
    fn drop(&mut self) {
        if let Some(idle) = &self.0 {
            let hook = idle.state.lock().unwrap_or_else(|p| p.into_inner()).1.take();
            drop(hook);
        }
    }
}

/// A submission being judged, from its compilation to its last test
/// ([`Pool::lease`]): while one is held, idle work gets no slot.
pub struct Lease<'p> {
    pool: &'p Pool,
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        let mut st = self.pool.state.lock().unwrap_or_else(|p| p.into_inner());
        st.leases -= 1;
        if st.leases == 0 {
            // Idle work waited for the free slots: it may have them now.
            let woken = self.pool.hand_free_slots(&mut st);
            drop(st);
            woken.into_iter().for_each(|t| t.unpark());
        }
    }
}

/// A thread waiting for a slot, and its preemption if it is idle work.
type Waiter = (Thread, Option<Arc<Preemption>>);

#[derive(Default)]
struct State {
    /// Free slots. Never free while work waits: a released slot goes
    /// straight to the first waiting item.
    free: Vec<usize>,
    /// Waiting work, first in line first (judging before idle work), with
    /// the thread to wake (and idle work's preemption).
    waiting: BTreeMap<(Priority, Item, u64), Waiter>,
    /// Slots handed to waiting work, by ticket, not yet taken.
    granted: HashMap<u64, usize>,
    tickets: u64,
    /// Slots held by idle work, and how to preempt it.
    idle: HashMap<usize, Arc<Preemption>>,
    /// Submissions being judged ([`Pool::lease`]): idle work waits while
    /// there is one.
    leases: usize,
    /// Times a waiting thread woke and found no slot handed to it.
    #[cfg(test)]
    idle_wakes: u64,
}

/// The most slots of any pool this process has made.
static MOST_SLOTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The most slots of any pool this process has made (0: none yet): how
/// many runs its judging asks for at once, which bounds the runners the
/// launcher keeps (`sandbox::launcher`).
pub fn most_slots() -> usize {
    MOST_SLOTS.load(std::sync::atomic::Ordering::Relaxed)
}

/// A set of slots that judging work draws from.
pub struct Pool {
    size: usize,
    state: Mutex<State>,
    trace: Option<Mutex<Vec<Occupancy>>>,
    placement: Option<Placement>,
}

impl Pool {
    /// A pool of `size` slots (at least 1), each on a core of its own
    /// when there is a slot for every core ([`Placement`]).
    pub fn new(size: usize) -> Pool {
        let size = size.max(1);
        MOST_SLOTS.fetch_max(size, std::sync::atomic::Ordering::Relaxed);
        Pool {
            size,
            state: Mutex::new(State {
                free: (0..size).rev().collect(),
                ..State::default()
            }),
            trace: None,
            placement: Placement::here(size),
        }
    }

    /// A pool that records when each slot starts and ends each item
    /// ([`Pool::trace`]): for tests of the schedule.
    pub fn traced(size: usize) -> Pool {
        Pool {
            trace: Some(Mutex::new(Vec::new())),
            ..Pool::new(size)
        }
    }

    /// The number of slots.
    pub fn size(&self) -> usize {
        self.size
    }

    /// What the slots did, in order (empty unless [`Pool::traced`]).
    pub fn trace(&self) -> Vec<Occupancy> {
        self.trace
            .as_ref()
            .map(|t| t.lock().unwrap_or_else(|p| p.into_inner()).clone())
            .unwrap_or_default()
    }

    /// Runs `f` holding a slot, waiting for one first: among waiting work,
    /// the smallest [`Item`] gets the next free slot.
    /// While `f` runs, the thread is on the slot's core, if the pool is
    /// placed.
    pub fn run<T>(&self, item: Item, f: impl FnOnce() -> T) -> T {
        self.run_as(Priority::Judging, item, None, f)
    }

    /// Marks a submission as being judged until the lease is dropped
    /// (from its compilation to its last test): meanwhile idle work takes
    /// no slot, not even one given back between two of its pieces. The
    /// submission's pieces take slots with [`Pool::run`] as any judging
    /// does (a lease holds none: two submissions in flight, each with
    /// tests on several threads, never wait for each other's slots).
    pub fn lease(&self) -> Lease<'_> {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.leases += 1;
        Lease { pool: self }
    }

    /// Runs `f` holding a slot at the lowest priority: it gets a slot only
    /// while no [`Pool::run`] work waits for one (among idle work, the
    /// smallest [`Item`] first). Keep `f` short (one run): as soon as
    /// judging waits, the run in progress is stopped ([`on_preempt`]) and
    /// the slot goes to the judging once `f` returns. With `f`'s value,
    /// whether that happened: then its value is void, and the work is to
    /// be done again.
    pub fn run_idle<T>(&self, item: Item, f: impl FnOnce() -> T) -> (T, bool) {
        let me = Arc::new(Preemption::default());
        let theirs = me.clone();
        let r = self.run_as(Priority::Idle, item, Some(me.clone()), move || {
            IDLE.with(|i| *i.borrow_mut() = Some(theirs));
            struct Clear;
            impl Drop for Clear {
                fn drop(&mut self) {
                    IDLE.with(|i| *i.borrow_mut() = None);
                }
            }
            let _clear = Clear;
            f()
        });
        (r, me.preempted())
    }

    fn run_as<T>(
        &self,
        priority: Priority,
        item: Item,
        preemption: Option<Arc<Preemption>>,
        f: impl FnOnce() -> T,
    ) -> T {
        let slot = self.acquire(priority, item, preemption);
        if let Some(p) = &self.placement {
            p.enter(slot);
        }
        struct Release<'a>(&'a Pool, usize, Priority, Item);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                if let Some(p) = &self.0.placement {
                    p.leave();
                }
                self.0.release(self.1, Some((self.2, self.3)));
            }
        }
        let _release = Release(self, slot, priority, item);
        f()
    }

    /// Calls `f(i)` for every `i` in `0..n`, with up to [`Pool::size`] of
    /// them in flight (threads that hold no slot themselves: `f` takes
    /// slots with [`Pool::run`]); the results in the order of `i`.
    pub fn each<T: Send>(&self, n: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
        std::thread::scope(|s| {
            for _ in 0..self.size.min(n) {
                s.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= n {
                            break;
                        }
                        let r = f(i);
                        results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(r);
                    }
                });
            }
        });
        results
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .into_iter()
            .map(|r| r.expect("every item done"))
            .collect()
    }

    /// A free slot, else a place in line until [`Pool::release`] hands
    /// this thread one. Only the thread whose turn it is wakes (a slot's
    /// release does not wake every waiting test to check whose turn it is:
    /// with hundreds waiting, that herd held freed slots idle).
    fn acquire(&self, priority: Priority, item: Item, preemption: Option<Arc<Preemption>>) -> usize {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        // A free slot means nothing waits (a released slot goes to waiting
        // work first), so idle work may take it too, unless a submission
        // is being judged ([`Pool::lease`]).
        let may_take = priority == Priority::Judging || st.leases == 0;
        if let Some(slot) = st.free.pop_if(|_| may_take) {
            self.record(slot, priority, item, true);
            if let Some(p) = preemption {
                st.idle.insert(slot, p);
            }
            return slot;
        }
        if priority == Priority::Judging {
            // Judging waits: idle work yields its slots at once.
            for idle in st.idle.values() {
                idle.preempt();
            }
        }
        let ticket = st.tickets;
        st.tickets += 1;
        st.waiting
            .insert((priority, item, ticket), (std::thread::current(), preemption));
        loop {
            if let Some(slot) = st.granted.remove(&ticket) {
                return slot;
            }
            drop(st);
            // A wake-up meant for nothing else (park may return early) only
            // costs another look.
            std::thread::park();
            st = self.state.lock().unwrap_or_else(|p| p.into_inner());
            #[cfg(test)]
            if !st.granted.contains_key(&ticket) {
                st.idle_wakes += 1;
            }
        }
    }

    /// Ends `item`'s hold on `slot` (recorded as `ended`, if given) and
    /// gives the slot to the first waiting item, or back to the free ones.
    fn release(&self, slot: usize, ended: Option<(Priority, Item)>) {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((priority, item)) = ended {
            self.record(slot, priority, item, false);
        }
        st.idle.remove(&slot);
        st.free.push(slot);
        let woken = self.hand_free_slots(&mut st);
        drop(st);
        woken.into_iter().for_each(|t| t.unpark());
    }

    /// Hands free slots to waiting work, first in line first (idle work
    /// only while no submission is being judged): the threads to wake.
    fn hand_free_slots(&self, st: &mut State) -> Vec<Thread> {
        let mut woken = Vec::new();
        while let Some(((priority, _, _), _)) = st.waiting.first_key_value() {
            if *priority == Priority::Idle && st.leases > 0 || st.free.is_empty() {
                break;
            }
            let slot = st.free.pop().expect("not empty");
            let ((priority, next, ticket), (thread, preemption)) = st.waiting.pop_first().expect("first");
            self.record(slot, priority, next, true);
            if let Some(p) = preemption {
                st.idle.insert(slot, p);
            }
            st.granted.insert(ticket, slot);
            woken.push(thread);
        }
        woken
    }

    /// Adds to the trace of a traced pool; called with the state's lock
    /// held, where the slot changes hands, so that the trace is the pool's
    /// own order (a thread preempted between taking a slot and noting it
    /// would otherwise note its start after runs that began later).
    fn record(&self, slot: usize, priority: Priority, item: Item, start: bool) {
        if let Some(trace) = &self.trace {
            trace.lock().unwrap_or_else(|p| p.into_inner()).push(Occupancy {
                slot,
                item,
                priority,
                start,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_usable_cores_are_the_affinity_lowered_to_the_quota() {
        assert_eq!(usable_cores(16, None), 16);
        assert_eq!(usable_cores(16, Some((400_000, 100_000))), 4);
        // A fraction of a core rounds up: 1.5 cores is 2 slots.
        assert_eq!(usable_cores(16, Some((150_000, 100_000))), 2);
        assert_eq!(usable_cores(2, Some((800_000, 100_000))), 2);
        assert_eq!(usable_cores(4, Some((10_000, 100_000))), 1);
        assert_eq!(usable_cores(0, None), 1);
        assert_eq!(usable_cores(8, Some((0, 100_000))), 8);
        assert_eq!(parse_cpu_max("max 100000\n"), None);
        assert_eq!(parse_cpu_max("150000 100000\n"), Some((150_000, 100_000)));
    }

    #[test]
    fn slots_are_pinned_only_with_one_for_every_core() {
        assert_eq!(
            Placement::of(4, &[0, 1, 2, 3, 4], 0),
            None,
            "fewer slots than cores"
        );
        assert_eq!(Placement::of(8, &[3], 0), None, "one core: nothing to place");
        let p = Placement::of(2, &[2, 5], 0).unwrap();
        assert_eq!((p.core(0), p.core(1)), (2, 5));
        // Turned by the judge's pid, and slots past the cores wrap around.
        let p = Placement::of(5, &[2, 5], 3).unwrap();
        assert_eq!((0..5).map(|s| p.core(s)).collect::<Vec<_>>(), [5, 2, 5, 2, 5]);
    }

    #[test]
    fn a_placed_slot_holds_its_thread_on_its_core_and_gives_the_mask_back() {
        let mask = thread_cores();
        let Some(placement) = Placement::of(mask.len(), &mask, 1) else {
            return; // one core: nothing to place (the rule's test covers it)
        };
        let pool = Pool {
            placement: Some(placement.clone()),
            ..Pool::new(mask.len())
        };
        let inside = pool.run(
            Item {
                group: 0,
                work: Work::Compile,
            },
            thread_cores,
        );
        assert_eq!(inside, [placement.core(0)], "on slot 0's core while it runs");
        assert_eq!(thread_cores(), mask, "the whole mask once the slot is given up");
    }

    #[test]
    fn jobs_is_a_number_or_auto() {
        assert_eq!("auto".parse::<Jobs>(), Ok(Jobs::Auto));
        assert_eq!("3".parse::<Jobs>(), Ok(Jobs::Count(3)));
        assert!("0".parse::<Jobs>().is_err());
        assert!("many".parse::<Jobs>().is_err());
        assert!(Jobs::Auto.count() >= 1);
    }

    #[test]
    fn waiting_work_gets_slots_in_item_order() {
        let pool = Pool::traced(1);
        let item = |group, i| Item {
            group,
            work: Work::Test(i),
        };
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|s| {
            // Holds the only slot until the others wait.
            let first = &pool;
            s.spawn(move || first.run(item(9, 0), || rx.recv().unwrap()));
            while pool.trace().is_empty() {
                std::thread::yield_now();
            }
            for (g, i) in [(2, 1), (1, 5), (2, 0)] {
                let pool = &pool;
                s.spawn(move || pool.run(item(g, i), || ()));
            }
            while pool.state.lock().unwrap().waiting.len() < 3 {
                std::thread::yield_now();
            }
            tx.send(()).unwrap();
        });
        let started: Vec<Item> = pool.trace().iter().filter(|o| o.start).map(|o| o.item).collect();
        assert_eq!(started, [item(9, 0), item(1, 5), item(2, 0), item(2, 1)]);
    }

    #[test]
    fn idle_work_waits_while_any_judging_waits_and_takes_only_free_slots() {
        // A search (idle work, one run at a time) holds both slots of a
        // pool when a burst of 40 submissions' runs arrives: every one of
        // them starts before the search's next run.
        let pool = Pool::traced(2);
        // Its items come first in item order: only the priority puts the
        // burst before them.
        let search = |i| Item {
            group: 0,
            work: Work::Test(i),
        };
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let rx = Mutex::new(rx);
        std::thread::scope(|s| {
            for k in 0..2 {
                let (pool, rx) = (&pool, &rx);
                s.spawn(move || pool.run_idle(search(k), || rx.lock().unwrap().recv().unwrap()));
            }
            while pool.trace().len() < 2 {
                std::thread::yield_now();
            }
            // The search's next steps queue, then the burst behind them.
            for k in 2..6 {
                let pool = &pool;
                s.spawn(move || pool.run_idle(search(k), || ()));
            }
            while pool.state.lock().unwrap().waiting.len() < 4 {
                std::thread::yield_now();
            }
            for g in 0..40 {
                let pool = &pool;
                s.spawn(move || {
                    pool.run(
                        Item {
                            group: 1 + g,
                            work: Work::Compile,
                        },
                        || (),
                    )
                });
            }
            while pool.state.lock().unwrap().waiting.len() < 44 {
                std::thread::yield_now();
            }
            tx.send(()).unwrap();
            tx.send(()).unwrap();
        });
        let started: Vec<Priority> = pool
            .trace()
            .iter()
            .filter(|o| o.start)
            .map(|o| o.priority)
            .collect();
        assert_eq!(started.len(), 2 + 4 + 40);
        let first_idle_after_burst = 2 + started[2..].iter().position(|p| *p == Priority::Idle).unwrap();
        assert_eq!(first_idle_after_burst, 42, "the 40 judged first: {started:?}");
        // Idle work never took a slot while judging waited: checked on the
        // whole trace, not on times.
        assert!(started[42..].iter().all(|p| *p == Priority::Idle));
    }

    #[test]
    fn judging_that_waits_preempts_idle_work_at_once_and_the_idle_work_is_told_to_redo_it() {
        let pool = Pool::traced(1);
        let item = |group, work| Item { group, work };
        let (stopped_tx, stopped_rx) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|s| {
            let idle = s.spawn(|| {
                pool.run_idle(item(u64::MAX, Work::Test(0)), || {
                    // A run that would go on for a minute, unless stopped.
                    let (tx, rx) = std::sync::mpsc::channel::<()>();
                    let _hook = on_preempt(move || tx.send(()).unwrap());
                    let stopped = rx.recv_timeout(std::time::Duration::from_secs(60)).is_ok();
                    stopped_tx.send(()).unwrap();
                    stopped
                })
            });
            while pool.trace().is_empty() {
                std::thread::yield_now();
            }
            pool.run(item(1, Work::Compile), || ());
            let (stopped, preempted) = idle.join().unwrap();
            assert!(stopped && preempted, "the idle run was stopped, and told so");
        });
        assert!(stopped_rx.try_recv().is_ok());
        // Idle work that no judging disturbed is not preempted.
        assert_eq!(pool.run_idle(item(u64::MAX, Work::Test(1)), || 7), (7, false));
    }

    #[test]
    fn a_leased_slot_goes_to_no_idle_work_between_a_submissions_compilation_and_its_tests() {
        let pool = Pool::traced(1);
        let item = |group, work| Item { group, work };
        std::thread::scope(|s| {
            let lease = pool.lease();
            pool.run(item(1, Work::Compile), || ());
            // The search queues for the slot between compilation and tests.
            let search = s.spawn(|| pool.run_idle(item(u64::MAX, Work::Test(0)), || ()));
            while pool.state.lock().unwrap().waiting.is_empty() {
                std::thread::yield_now();
            }
            for t in 0..3 {
                pool.run(item(1, Work::Test(t)), || ());
            }
            drop(lease);
            search.join().unwrap();
        });
        let started: Vec<Item> = pool.trace().iter().filter(|o| o.start).map(|o| o.item).collect();
        let tests_then_search: Vec<Item> = [
            item(1, Work::Compile),
            item(1, Work::Test(0)),
            item(1, Work::Test(1)),
            item(1, Work::Test(2)),
            item(u64::MAX, Work::Test(0)),
        ]
        .into();
        assert_eq!(started, tests_then_search);
        assert_eq!(pool.state.lock().unwrap().free.len(), 1, "given back at the end");
    }

    #[test]
    fn submissions_in_flight_with_tests_on_every_slot_never_wait_for_each_others_leases() {
        // As serve judges: as many submissions as slots, each leased from
        // its compilation to its last test, each test on up to a thread a
        // slot. A lease that held a slot of its own left the other
        // threads' tests waiting for ever.
        // Leaked: a deadlocked thread must not hold the test up.
        let pool: &'static Pool = Box::leak(Box::new(Pool::new(2)));
        let (done, finished) = std::sync::mpsc::channel();
        for group in 0..2u64 {
            let done = done.clone();
            std::thread::spawn(move || {
                let _lease = pool.lease();
                pool.run(
                    Item {
                        group,
                        work: Work::Compile,
                    },
                    || (),
                );
                pool.each(6, |t| {
                    let work = Work::Test(t);
                    pool.run(Item { group, work }, || {
                        std::thread::sleep(Duration::from_millis(5))
                    })
                });
                done.send(group).unwrap();
            });
        }
        for _ in 0..2 {
            finished
                .recv_timeout(Duration::from_secs(30))
                .expect("both submissions judged");
        }
    }

    /// Holds every slot of `pool` while `waiters` items queue behind
    /// them, then lets everything run (a traced pool records it all).
    fn queue_behind_held_slots(pool: &Pool, waiters: usize) {
        let item = |group, i| Item {
            group,
            work: Work::Test(i),
        };
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let rx = Mutex::new(rx);
        std::thread::scope(|s| {
            for k in 0..pool.size() {
                let rx = &rx;
                s.spawn(move || pool.run(item(0, k), || rx.lock().unwrap().recv().unwrap()));
            }
            while pool.trace().len() < pool.size() {
                std::thread::yield_now();
            }
            for w in 0..waiters {
                s.spawn(move || pool.run(item(1 + (w as u64 * 7919) % 97, w), || ()));
            }
            while pool.state.lock().unwrap().waiting.len() < waiters {
                std::thread::yield_now();
            }
            for _ in 0..pool.size() {
                tx.send(()).unwrap();
            }
        });
    }

    #[test]
    fn a_released_slot_wakes_only_the_next_in_line() {
        let pool = Pool::traced(1);
        queue_behind_held_slots(&pool, 60);
        let started: Vec<Item> = pool.trace().iter().filter(|o| o.start).map(|o| o.item).collect();
        let mut in_order = started[1..].to_vec();
        in_order.sort();
        assert_eq!(started[1..], in_order[..], "first in line first");
        // Waking every waiter on each release would make about 60 * 59 / 2.
        let idle = pool.state.lock().unwrap().idle_wakes;
        assert!(idle <= 10, "{idle} waiters woke for a slot that was not theirs");
    }

    #[test]
    fn with_many_slots_every_waiter_gets_one_and_no_more_run_than_slots() {
        let pool = Pool::traced(4);
        queue_behind_held_slots(&pool, 200);
        let (mut now, mut most, mut starts) = (0i32, 0i32, 0);
        for o in pool.trace() {
            now += if o.start { 1 } else { -1 };
            most = most.max(now);
            starts += usize::from(o.start);
        }
        assert_eq!((starts, now), (204, 0), "every item ran and ended");
        assert!(most <= 4, "{most} at once in 4 slots");
        let st = pool.state.lock().unwrap();
        assert_eq!(st.free.len(), 4, "every slot free again");
        assert!(st.waiting.is_empty() && st.granted.is_empty());
    }
}
