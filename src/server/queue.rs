//! The judging queue: worker threads take submissions from the database
//! (fairly: `Db::claim_next`), judge each on the one judging path
//! (`submission::prepare`, then `Grader::grade_prepared`, in the sandbox
//! `grade` uses) and store the results in one transaction. Compilations and
//! runs of every submission in flight draw from one pool of `--jobs` slots
//! (`judge::pool`), the earliest claimed first (the pool's order is the
//! claims' order, so the queue's fairness holds in the slots too), so one
//! submission alone uses every slot, and a slow test never idles one while
//! others wait. There are [`IN_FLIGHT_PER_SLOT`] times as many workers as
//! slots: while a worker stores a result (an fsync), claims the next
//! submission (another) and writes its source out, the submissions other
//! workers hold keep every slot busy; the extra ones wait in the pool, and
//! take a slot only when no earlier claimed work wants it
//! ([`judge_claims`]). A submission a killed server was judging (or had
//! claimed) is queued again at the next start, so it is judged exactly
//! once in the final results. Workers run at a lower CPU priority than the
//! web server, so judging never starves the pages.
//!
//! One more thread searches for failing submissions' counterexamples
//! ([`Workers::search`]: `judge::stress::find_counterexample`, the search
//! `stress` makes), each run holding a slot of the same pool at its lowest
//! priority (`Pool::run_idle`): only while no judging waits, one run at a
//! time, killed as soon as a submission waits for a slot and run again
//! later, its time counted ([`idle_until_done`]), within contest.toml's `[counterexamples]` bounds; one search at a
//! time in all, each contestant's latest failing submission first
//! (`Db::next_search`); the result stored, so a restart does not redo it.
//! Under feedback that hides counterexamples from contestants, no search
//! starts before the contest's end (`ContestConfig::searches_from`): that
//! a submission is searched, and for how long, would tell its hidden
//! verdict through the time its owner's next submission takes.

use super::contest::Counterexamples;
use super::db::{Claimed, Db, Judged, ToSearch};
use super::events::{Event, Live};
use super::scoreboard::Scoreboard;
use crate::judge::grading::Counterexample;
use crate::judge::grading::{Grader, SubmissionReport};
use crate::judge::pool::{Item, Pool, Work};
use crate::judge::sandbox::Sandbox;
use crate::judge::stress::{DEFAULT_BOARDS, Effort, SEARCHED_VERDICTS, Tester, find_counterexample};
use crate::judge::submission::{SourceLimit, prepare};
use crate::package::languages::LanguageTable;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Wakes idle workers when a submission arrives.
#[derive(Default)]
pub struct Wake {
    pending: Mutex<bool>,
    cond: Condvar,
}

impl Wake {
    /// Something was queued.
    pub fn notify(&self) {
        *self.pending.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.cond.notify_all();
    }

    /// Waits for [`Wake::notify`], at most `timeout` (the queue is polled
    /// anyway, so a lost wake-up only costs that long).
    fn wait(&self, timeout: Duration) {
        let guard = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        let (mut pending, _) = self
            .cond
            .wait_timeout_while(guard, timeout, |p| !*p)
            .unwrap_or_else(|p| p.into_inner());
        *pending = false;
    }
}

/// What the workers judge with.
pub struct Workers<'a> {
    /// The tests, loaded and solved once.
    pub grader: &'a Grader<'a>,
    /// The sandbox compilers run in.
    pub sandbox: &'a Sandbox,
    /// The package's languages.
    pub languages: &'a LanguageTable,
    /// The package's source limit.
    pub limit: SourceLimit,
    /// Compiled programs' cache.
    pub cache_dir: PathBuf,
    /// Where submissions' sources are written to be compiled.
    pub work_dir: &'a Path,
    /// The database.
    pub db: &'a Db,
    /// Live status and events.
    pub live: &'a Live,
    /// Idle workers' wake-up.
    pub wake: &'a Wake,
    /// The kept ranking, told of each verdict stored.
    pub scoreboard: &'a Scoreboard,
    /// The counterexample search's bounds (`search` off: none).
    pub counterexamples: Counterexamples,
    /// The search's wake-up: a failing submission was stored.
    pub failed: &'a Wake,
    /// When searches may start (unix seconds): the contest's end where its
    /// feedback hides counterexamples (`ContestConfig::searches_from`).
    pub searches_from: i64,
}

/// The pool's group of the search's work (after every submission's).
const SEARCH_GROUP: u64 = u64::MAX;

/// The prefix of the folder submissions are compiled in, in the
/// temporary folder: `mayan-judge-serve-<pid>-<random>`.
const WORK_PREFIX: &str = "mayan-judge-serve-";

/// Makes this server's folder for submissions (mode 0700: sources stay
/// unreadable by other users), after removing the folders of servers
/// that died without cleaning theirs (their process is gone).
pub fn work_dir() -> std::io::Result<tempfile::TempDir> {
    remove_dead_work_dirs(&std::env::temp_dir());
    tempfile::Builder::new()
        .prefix(&format!("{WORK_PREFIX}{}-", std::process::id()))
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .tempdir()
}

/// Removes the work folders in `tmp` of this user's servers that are no
/// longer running.
fn remove_dead_work_dirs(tmp: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    let me = rustix::process::getuid().as_raw();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(WORK_PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        let ours = entry.metadata().is_ok_and(|m| m.is_dir() && m.uid() == me);
        let alive = Path::new(&format!("/proc/{pid}")).exists();
        if ours && !alive {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// CPU priority of judging (nice): the web server stays at 0.
const JUDGING_NICE: i32 = 10;

/// Submissions judged at once per slot of the pool: one more than the
/// slots would cover one worker's store and claim; two per slot cover
/// every worker of a slot's share storing at once.
pub const IN_FLIGHT_PER_SLOT: usize = 2;

/// What a worker's claim found.
pub enum Claim<T> {
    /// A submission to judge.
    Work(T),
    /// Nothing queued: wait for a wake-up, then claim again.
    Nothing,
    /// No more work will come: the worker ends.
    Stop,
}

/// Runs `workers` threads (at [`JUDGING_NICE`]), each claiming a
/// submission, judging it and claiming again, until `claim` says
/// [`Claim::Stop`] to each; [`Claim::Nothing`] calls `idle` first. Claims
/// are made one at a time and numbered in their order (0, 1, ...):
/// `judge(work, number)` takes its slots as that group, so the earliest
/// claimed gets a free slot first.
pub fn judge_claims<T>(
    workers: usize,
    claim: impl Fn() -> Claim<T> + Sync,
    judge: impl Fn(T, u64) + Sync,
    idle: impl Fn() + Sync,
) {
    let claims = Mutex::new(0u64);
    let next = || {
        let mut made = claims.lock().unwrap_or_else(|p| p.into_inner());
        let c = claim();
        let number = *made;
        if let Claim::Work(_) = c {
            *made += 1;
        }
        (c, number)
    };
    std::thread::scope(|s| {
        for _ in 0..workers.max(1) {
            s.spawn(|| {
                // Threads this one starts (its tests' runs) inherit it.
                let me = rustix::thread::gettid();
                let _ = rustix::process::setpriority_process(Some(me), JUDGING_NICE);
                loop {
                    match next() {
                        (Claim::Work(w), number) => judge(w, number),
                        (Claim::Nothing, _) => idle(),
                        (Claim::Stop, _) => return,
                    }
                }
            });
        }
    });
}

impl Workers<'_> {
    /// Runs [`IN_FLIGHT_PER_SLOT`] workers per slot, sharing a pool of
    /// `jobs` slots, until the process ends.
    pub fn run(&self, jobs: usize) {
        let pool = Pool::new(jobs);
        std::thread::scope(|s| {
            if self.counterexamples.search {
                s.spawn(|| self.search(&pool));
            }
            judge_claims(
                pool.size() * IN_FLIGHT_PER_SLOT,
                || self.claim(),
                |c, number| self.judge(c, &pool, number),
                || self.wake.wait(Duration::from_secs(1)),
            );
        });
    }

    /// The search itself, within `time` of the program's time (a run's
    /// CPU time, or its wall time where longer): what it found, its runs
    /// and the time they used.
    fn hunt(
        &self,
        t: &ToSearch,
        pool: &Pool,
        excluded: &rustc_hash::FxHashSet<crate::puzzle::sim::Puzzle>,
        time: Duration,
    ) -> (Option<Counterexample>, usize, u64) {
        let compile = Item {
            group: SEARCH_GROUP,
            work: Work::Compile,
        };
        let (prepared, _) = idle_until_done(pool, compile, || {
            self.prepare(t.id, &t.file_name, &t.source, &t.language)
        });
        let Ok(Ok(program)) = prepared else {
            return (None, 0, 0);
        };
        let tester = Tester {
            judge: self.grader.judge(),
            program: &program,
        };
        let step = |i: usize, p: &crate::puzzle::sim::Puzzle| {
            let item = Item {
                group: SEARCH_GROUP,
                work: Work::Test(i),
            };
            let (result, preempted) = idle_until_done(pool, item, || tester.test(i, p));
            // The runs judging stopped count too.
            result.map(|mut r| {
                r.runs += preempted.runs;
                r.spent_ms = r.spent_ms.saturating_add(preempted.ms);
                r
            })
        };
        let effort = Effort::bounded(self.counterexamples.runs, time);
        match find_counterexample(&DEFAULT_BOARDS, effort, excluded, 1, &step, &|_, _| (), &|_| ()) {
            Ok(hunt) => (Counterexample::of(&hunt), hunt.runs, hunt.cpu_ms),
            Err(e) => {
                eprintln!(
                    "mayan-judge serve: error: the counterexample of submission {}: {e}",
                    t.id
                );
                (None, 0, 0)
            }
        }
    }

    /// The counterexample searches, one after another, forever (at
    /// [`JUDGING_NICE`]).
    fn search(&self, pool: &Pool) {
        let me = rustix::thread::gettid();
        let _ = rustix::process::setpriority_process(Some(me), JUDGING_NICE);
        let excluded = self.grader.puzzles().into_iter().collect();
        loop {
            let wait = self.searches_from.saturating_sub(super::now());
            if wait > 0 {
                // Nothing searched while the feedback hides verdicts.
                std::thread::sleep(Duration::from_secs(wait.clamp(1, 5) as u64));
                continue;
            }
            match self.db.next_search() {
                Ok(Some(t)) => self.search_one(&t, pool, &excluded),
                Ok(None) => self.failed.wait(Duration::from_secs(5)),
                Err(e) => {
                    eprintln!("mayan-judge serve: error: finding the next counterexample search: {e}");
                    std::thread::sleep(Duration::from_secs(5));
                }
            }
        }
    }

    /// Searches one submission's counterexample (compiled again: from the
    /// cache), every step through the pool at its lowest priority, within
    /// what is left of its contestant's time, and stores what it found
    /// (nothing, at once, when none is left). Where the time used cannot be
    /// read, nothing is stored: it is searched again later.
    fn search_one(
        &self,
        t: &ToSearch,
        pool: &Pool,
        excluded: &rustc_hash::FxHashSet<crate::puzzle::sim::Puzzle>,
    ) {
        let used = match self.db.search_cpu_ms(t.user_id) {
            Ok(ms) => ms,
            Err(e) => {
                eprintln!(
                    "mayan-judge serve: error: reading the search time of submission {}'s contestant: {e}",
                    t.id
                );
                std::thread::sleep(Duration::from_secs(5));
                return;
            }
        };
        let left = self
            .counterexamples
            .contestant_cpu
            .saturating_sub(Duration::from_millis(u64::try_from(used).unwrap_or(u64::MAX)));
        let (found, runs, cpu_ms) = if left.is_zero() {
            (None, 0, 0)
        } else {
            self.hunt(t, pool, excluded, left.min(self.counterexamples.cpu))
        };
        let json = found.map(|c| serde_json::to_string(&c).unwrap_or_default());
        for attempt in 0.. {
            match self
                .db
                .store_counterexample(t, json.as_deref(), runs, cpu_ms, super::now())
            {
                Ok(()) => break,
                Err(e) => {
                    eprintln!(
                        "mayan-judge serve: error: storing the counterexample of submission {} (attempt {attempt}): {e}",
                        t.id
                    );
                    std::thread::sleep(Duration::from_secs(5));
                }
            }
        }
        self.live.send(Event::Counterexample {
            id: t.id,
            user_id: t.user_id,
        });
    }

    /// The next submission, fairly ([`Db::claim_next`]).
    fn claim(&self) -> Claim<Claimed> {
        match self.db.claim_next() {
            Ok(Some(claimed)) => Claim::Work(claimed),
            Ok(None) => Claim::Nothing,
            Err(e) => {
                eprintln!("mayan-judge serve: error: taking the next submission: {e}");
                std::thread::sleep(Duration::from_secs(2));
                Claim::Nothing
            }
        }
    }

    /// Judges one claimed submission (its slots taken as group `number`,
    /// its place in the claims' order) and stores its results.
    fn judge(&self, c: Claimed, pool: &Pool, number: u64) {
        let report = self.report(&c, pool, number);
        let judged = Judged::of(&report);
        self.store(&c, &judged);
        if SEARCHED_VERDICTS.contains(&judged.verdict.as_str()) {
            self.failed.notify();
        }
        self.live.clear(c.id);
        self.live.send(Event::Submission {
            id: c.id,
            user_id: c.user_id,
        });
        self.live.send(Event::Ranking);
    }

    /// Compiles and grades a submission into its report.
    fn report(&self, c: &Claimed, pool: &Pool, group: u64) -> SubmissionReport {
        let mut report = SubmissionReport::new(
            format!("#{} {}", c.id, c.file_name),
            &c.language,
            self.grader.max_score(),
        );
        let compile = Item {
            group,
            work: Work::Compile,
        };
        // Until it has a slot, it shows as judging (claimed, waiting). No
        // search takes a slot from its compilation to its last test.
        let lease = pool.lease();
        let prepared = pool.run(compile, || {
            self.live.set(c.id, c.user_id, "compiling".into());
            self.prepare(c.id, &c.file_name, &c.source, &c.language)
        });
        let n = self.grader.len();
        let done = AtomicUsize::new(0);
        self.live.set(c.id, c.user_id, format!("running test 1 of {n}"));
        self.grader
            .grade_prepared(prepared, &mut report, pool, group, &|_| {
                let k = done.fetch_add(1, Ordering::Relaxed) + 2;
                if k <= n {
                    self.live.set(c.id, c.user_id, format!("running test {k} of {n}"));
                }
            });
        drop(lease);
        report
    }

    /// Writes the source into a folder of its own and compiles it.
    fn prepare(
        &self,
        id: i64,
        file_name: &str,
        source: &[u8],
        language: &str,
    ) -> Result<crate::judge::submission::Prepared, crate::judge::submission::SubmissionError> {
        use crate::judge::submission::SubmissionError;
        let io = |cause| SubmissionError::Io {
            path: self.work_dir.to_path_buf(),
            cause,
        };
        let dir = tempfile::Builder::new()
            .prefix(&format!("s{id}-"))
            .tempdir_in(self.work_dir)
            .map_err(io)?;
        let path = dir.path().join(file_name);
        write_private(&path, source).map_err(io)?;
        let Some(language) = self.languages.get(language) else {
            return Err(io(std::io::Error::other(format!(
                "the package no longer has the language {language}"
            ))));
        };
        prepare(self.sandbox, &path, language, &self.cache_dir, self.limit)
    }

    /// Stores the results and the contestant's line of the ranking (in one
    /// step: `Scoreboard::storing`), trying again while the database
    /// refuses (a full disk): they are never dropped, and never stored
    /// twice.
    fn store(&self, c: &Claimed, judged: &Judged) {
        let (id, now) = (c.id, super::now());
        for attempt in 0.. {
            match self
                .scoreboard
                .storing(self.db, c.user_id, || self.db.finish(c, judged, now))
            {
                Ok(_) => return,
                Err(e) => {
                    eprintln!(
                        "mayan-judge serve: error: storing the results of submission {id} (attempt {attempt}): {e}"
                    );
                    std::thread::sleep(Duration::from_secs(5));
                }
            }
        }
    }
}

/// The tries of idle work that judging preempted: how many, and their
/// wall time in all, ms.
#[derive(Default)]
struct Preempted {
    runs: u32,
    ms: u64,
}

/// Does `f` as idle work ([`Pool::run_idle`]) until a try of it ends
/// without judging preempting it (a preempted try's run was killed: it
/// is done again once no judging waits); its value, and what the
/// preempted tries cost.
fn idle_until_done<T>(pool: &Pool, item: Item, f: impl Fn() -> T) -> (T, Preempted) {
    let mut lost = Preempted::default();
    loop {
        let start = std::time::Instant::now();
        match pool.run_idle(item, &f) {
            (value, false) => return (value, lost),
            (_, true) => {
                lost.runs += 1;
                lost.ms = lost
                    .ms
                    .saturating_add(u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX));
            }
        }
    }
}

/// Writes a file readable by its owner only.
fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)?
        .write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeSet, HashMap};

    const SLOTS: usize = 2;
    const SUBMISSIONS: u64 = 8;
    const TESTS: usize = 3;
    /// Breaks a deadlock (reported as such); never reached when the
    /// schedule keeps the slots busy.
    const STUCK: Duration = Duration::from_secs(60);

    /// The pieces of judging holding slots, and what the test lets go.
    #[derive(Default)]
    struct Stage {
        running: BTreeSet<Item>,
        released: BTreeSet<Item>,
        /// Pieces ended, per submission.
        ended: HashMap<u64, usize>,
        stored: u64,
        /// Submissions whose pieces have all ended, not yet stored.
        storing: usize,
        stuck: Vec<String>,
        give_up: bool,
    }

    impl Stage {
        /// Pieces holding a slot and not yet let go.
        fn holding(&self) -> usize {
            self.running.difference(&self.released).count()
        }

        /// Submissions with a piece not ended.
        fn remaining(&self) -> usize {
            let done = self.ended.values().filter(|&&n| n == 1 + TESTS).count();
            SUBMISSIONS as usize - done
        }

        /// Every slot busy, or too few submissions left to fill them.
        fn full(&self) -> bool {
            self.holding() == SLOTS || self.remaining() < SLOTS
        }
    }

    struct Scene {
        stage: Mutex<Stage>,
        changed: Condvar,
        pool: Pool,
    }

    impl Scene {
        fn lock(&self) -> std::sync::MutexGuard<'_, Stage> {
            self.stage.lock().unwrap()
        }

        /// Waits until `ready`; on [`STUCK`], notes `what` and lets
        /// everything go.
        fn wait_for(&self, what: &str, ready: impl Fn(&Stage) -> bool) -> std::sync::MutexGuard<'_, Stage> {
            let st = self.lock();
            let (mut st, t) = self
                .changed
                .wait_timeout_while(st, STUCK, |st| !st.give_up && !ready(st))
                .unwrap();
            if t.timed_out() {
                let note = format!(
                    "{what}: holding {:?}, {} submissions left, {} stored",
                    st.running.difference(&st.released).collect::<Vec<_>>(),
                    st.remaining(),
                    st.stored
                );
                st.stuck.push(note);
                st.give_up = true;
                self.changed.notify_all();
            }
            st
        }

        /// A piece of judging: holds its slot until the test lets it go.
        fn piece(&self, item: Item) {
            self.pool.run(item, || {
                self.lock().running.insert(item);
                self.changed.notify_all();
                let mut st = self.wait_for("a piece", |st| st.released.contains(&item));
                st.running.remove(&item);
                let ended = st.ended.entry(item.group).or_default();
                *ended += 1;
                if *ended == 1 + TESTS {
                    // Its store begins with its last piece's end.
                    st.storing += 1;
                }
                self.changed.notify_all();
            });
        }

        /// A submission: its compilation, then its tests on up to a
        /// thread per slot (as the grader runs them), then its results
        /// stored: a store (an fsync) that ends only once every slot is
        /// busy again, so that a schedule relying on it to fill a slot
        /// is stuck.
        fn judge(&self, group: u64) {
            self.piece(Item {
                group,
                work: Work::Compile,
            });
            let next = AtomicUsize::new(0);
            let tests = || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= TESTS {
                        break;
                    }
                    self.piece(Item {
                        group,
                        work: Work::Test(i),
                    });
                }
            };
            std::thread::scope(|s| {
                for _ in 1..SLOTS {
                    s.spawn(tests);
                }
                tests();
            });
            let mut st = self.wait_for(&format!("storing submission {group}"), Stage::full);
            st.storing -= 1;
            st.stored += 1;
            self.changed.notify_all();
        }
    }

    /// One burst of [`SUBMISSIONS`] through the workers, each piece of
    /// judging let go only once every slot is busy: what got stuck, how
    /// many were stored, and the order the compilations started in.
    fn burst() -> (Vec<String>, u64, Vec<u64>) {
        let scene = Scene {
            stage: Mutex::default(),
            changed: Condvar::new(),
            pool: Pool::traced(SLOTS),
        };
        // Empty at first: the workers wait until the submissions come.
        let arrived = std::sync::atomic::AtomicBool::new(false);
        let queue = Mutex::new(0..SUBMISSIONS);
        let claim = || {
            if !arrived.load(Ordering::Relaxed) {
                return Claim::Nothing;
            }
            match queue.lock().unwrap().next() {
                Some(s) => Claim::Work(s),
                None => Claim::Stop,
            }
        };
        std::thread::scope(|s| {
            s.spawn(|| {
                judge_claims(
                    SLOTS * IN_FLIGHT_PER_SLOT,
                    claim,
                    |submission, number| {
                        // Numbered in the claims' order.
                        assert_eq!(submission, number);
                        scene.judge(number);
                    },
                    || arrived.store(true, Ordering::Relaxed),
                );
            });
            // One piece at a time, the earliest first, each let go only
            // once every slot is busy (or too few submissions are left)
            // and the stores that could end have ended.
            loop {
                let mut st = scene.wait_for("a slot idle while submissions wait", |st| {
                    st.stored == SUBMISSIONS || (st.holding() > 0 && st.full() && st.storing == 0)
                });
                if st.stored == SUBMISSIONS || st.give_up {
                    break;
                }
                let first = *st.running.difference(&st.released).next().expect("held");
                st.released.insert(first);
                scene.changed.notify_all();
            }
        });
        let compiled = scene
            .pool
            .trace()
            .iter()
            .filter(|o| o.start && o.item.work == Work::Compile)
            .map(|o| o.item.group)
            .collect();
        let st = scene.lock();
        let mut stuck = st.stuck.clone();
        if !stuck.is_empty() {
            stuck.push(format!("{:?}", scene.pool.trace()));
        }
        (stuck, st.stored, compiled)
    }

    #[test]
    fn while_submissions_wait_every_slot_is_busy_even_while_results_are_stored() {
        crate::testing::retried(5, "compilations out of claim order", || {
            let (stuck, stored, compiled) = burst();
            assert!(stuck.is_empty(), "{stuck:?}");
            assert_eq!(stored, SUBMISSIONS);
            // The slots went to the claims in their order: compilations
            // started in it. The pool orders the work that waits; two
            // workers that reach a free slot at once may take it in either
            // order (a thread not scheduled between its claim and the
            // pool, on a loaded machine): then another burst. (The pool's
            // own tests hold its order without retries.)
            if compiled == (0..SUBMISSIONS).collect::<Vec<_>>() {
                Ok(())
            } else {
                Err(format!("{compiled:?}"))
            }
        });
    }
}
