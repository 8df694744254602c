//! The judging queue: `--jobs` worker threads take submissions from the
//! database (fairly: `Db::claim_next`), judge each on the one judging path
//! (`submission::prepare`, then `Grader::grade_prepared`, in the sandbox
//! `grade` uses) and store the results in one transaction. Compilations and
//! runs of every submission in flight draw from one pool of `--jobs` slots
//! (`judge::pool`, the older submission first), so one submission alone
//! uses every slot, and a slow test never idles one while others wait. A submission a
//! killed server was judging is queued again at the next start, so it is
//! judged exactly once in the final results. Workers run at a lower CPU
//! priority than the web server, so judging never starves the pages.

use super::db::{Claimed, Db, Judged};
use super::events::{Event, Live};
use crate::judge::grading::{Grader, SubmissionReport};
use crate::judge::pool::{Item, Pool, Work};
use crate::judge::sandbox::Sandbox;
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
}

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

impl Workers<'_> {
    /// Runs `jobs` workers, sharing a pool of `jobs` slots, until the
    /// process ends.
    pub fn run(&self, jobs: usize) {
        let pool = Pool::new(jobs);
        std::thread::scope(|s| {
            for _ in 0..pool.size() {
                s.spawn(|| {
                    // Threads this one starts (its tests' runs) inherit it.
                    let me = rustix::thread::gettid();
                    let _ = rustix::process::setpriority_process(Some(me), JUDGING_NICE);
                    self.work(&pool);
                });
            }
        });
    }

    fn work(&self, pool: &Pool) -> ! {
        loop {
            match self.db.claim_next() {
                Ok(Some(claimed)) => self.judge(claimed, pool),
                Ok(None) => self.wake.wait(Duration::from_secs(1)),
                Err(e) => {
                    eprintln!("mayan-judge serve: error: taking the next submission: {e}");
                    std::thread::sleep(Duration::from_secs(2));
                }
            }
        }
    }

    /// Judges one claimed submission and stores its results.
    fn judge(&self, c: Claimed, pool: &Pool) {
        self.live.set(c.id, c.user_id, "compiling".into());
        let report = self.report(&c, pool);
        let judged = Judged {
            verdict: report.overall_verdict().to_string(),
            score: report.score,
            max_score: report.max_score,
            time_ms: report.tests.iter().map(|t| t.time_ms).max().unwrap_or(0),
            memory_kib: report.tests.iter().map(|t| t.memory_kib).max().unwrap_or(0),
            report: serde_json::to_string(&report).unwrap_or_default(),
        };
        self.store(&c, &judged);
        self.live.clear(c.id);
        self.live.send(Event::Submission {
            id: c.id,
            user_id: c.user_id,
        });
        self.live.send(Event::Ranking);
    }

    /// Compiles and grades a submission into its report.
    fn report(&self, c: &Claimed, pool: &Pool) -> SubmissionReport {
        let mut report = SubmissionReport::new(
            format!("#{} {}", c.id, c.file_name),
            &c.language,
            self.grader.max_score(),
        );
        let group = c.id.max(0) as u64;
        let compile = Item {
            group,
            work: Work::Compile,
        };
        let prepared = pool.run(compile, || self.prepare(c));
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
        report
    }

    /// Writes the source into a folder of its own and compiles it.
    fn prepare(
        &self,
        c: &Claimed,
    ) -> Result<crate::judge::submission::Prepared, crate::judge::submission::SubmissionError> {
        use crate::judge::submission::SubmissionError;
        let io = |cause| SubmissionError::Io {
            path: self.work_dir.to_path_buf(),
            cause,
        };
        let dir = tempfile::Builder::new()
            .prefix(&format!("s{}-", c.id))
            .tempdir_in(self.work_dir)
            .map_err(io)?;
        let path = dir.path().join(&c.file_name);
        write_private(&path, &c.source).map_err(io)?;
        let Some(language) = self.languages.get(&c.language) else {
            return Err(io(std::io::Error::other(format!(
                "the package no longer has the language {}",
                c.language
            ))));
        };
        prepare(self.sandbox, &path, language, &self.cache_dir, self.limit)
    }

    /// Stores the results, trying again while the database refuses (a full
    /// disk): they are never dropped, and never stored twice.
    fn store(&self, c: &Claimed, judged: &Judged) {
        let (id, now) = (c.id, super::now());
        for attempt in 0.. {
            match self.db.finish(c, judged, now) {
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
