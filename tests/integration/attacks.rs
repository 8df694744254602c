//! Attacks on the sandbox: hostile submissions (`tests/integration/attacks/*.c`), graded
//! by the real binary on the real package, as a cheating contestant or a
//! penetration tester would submit them. Every attack must fail.
//!
//! Conventions (see each file's header comment):
//! * an attack that can tell it succeeded exits with code 42 (the report
//!   shows `RE`, "exit code 42"); one that failed prints `-1` and exits 0;
//! * success that is only visible from outside is checked here: a secret
//!   in the judge's output or report, files left on the host, a connection
//!   accepted, a process that survives, another submission losing points,
//!   the judge crashing, a host folder changed by the cleanup;
//! * sources hold placeholders (`@TOKEN@`, `@SECRET_PATH@`, `@PORT@`,
//!   `@TARGET_DIR@`, `@REPO_DIR@`, `@TESTDATA_DIR@`, `@JUDGE_PATH@`,
//!   `@CACHE_DIR@`) filled
//!   in before grading; each test uses a fresh random token, so file and
//!   process names never collide (process names are `<token><2 letters>`,
//!   found in `/proc` by their `comm`).
//!
//! Runs overlap: `--jobs 4` on four tests, and the tests of this file run
//! in parallel, except the `kill(-1)` one, which runs alone (it would kill
//! the runs of the others; its name sorts first so that it starts first).
//!
//! With `MAYAN_ATTACK_BUILDS` set to a folder (`.ci/run` sets it for its
//! `cargo test` and the cgroup v2 machine's contexts, which share the
//! host's compiler: tests/vm/run-scenarios), the two large batches
//! ([`Lab::sharing_builds`]) fill in the same values in every context, and
//! the programs their judge compiled in one context (the host's, first)
//! are put in the next one's cache before it grades: under an emulated CPU
//! their 49 compilations were half of the suite's time, in each of its
//! contexts. Only the runtime attacks and the
//! control share: a compile-time or outside attack gets a nonce per lab,
//! so its compilation, the thing it attacks, happens in every context.
//!
//! Needs gcc: without it the tests print `SKIP:` and pass, unless
//! `MAYAN_JUDGE_REQUIRE_TOOLS=1`. Meant to run as root, as a contest judge
//! does (the secret files are then root-only).

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Read;
use std::net::TcpListener;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant, SystemTime};

/// The judge the attacks are graded by: `$MAYAN_JUDGE_BIN` where set (the
/// cgroup v2 machine of `.ci/run` passes the portable release binary, the
/// one users install), else the one built with these tests.
fn judge_bin() -> PathBuf {
    std::env::var_os("MAYAN_JUDGE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_mayan-judge")))
}

/// Tests graded by most calls: four of them (three if test 10 moves away),
/// all started at once with `--jobs 4`.
const FOUR_TESTS: &str = "secret/1?";

/// A bound only to detect a hung judge, never a performance check: 120 s,
/// or `MAYAN_TEST_HANG_SECS` (the cgroup v2 machine of `.ci/run` emulates
/// its CPU, some ten times slower).
fn hang() -> Duration {
    let secs = std::env::var("MAYAN_TEST_HANG_SECS")
        .ok()
        .and_then(|s| s.parse().ok());
    Duration::from_secs(secs.unwrap_or(120))
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn testdata() -> PathBuf {
    repo().join("testdata/mayan")
}

/// The `kill(-1)` test takes this for writing (alone), the others for reading.
static ALONE: RwLock<()> = RwLock::new(());

fn shared() -> RwLockReadGuard<'static, ()> {
    ALONE.read().unwrap_or_else(PoisonError::into_inner)
}

fn alone() -> RwLockWriteGuard<'static, ()> {
    ALONE.write().unwrap_or_else(PoisonError::into_inner)
}

/// Whether gcc is here; without it, `SKIP:` (or a failure when tools are
/// required, see `util::tool`).
fn have_gcc() -> bool {
    crate::util::have("gcc")
}

// ---------------------------------------------------------------------------
// The lab: a token, a root-only secret, a root-owned target folder, and the
// attack sources with their placeholders filled in.

struct Lab {
    dir: tempfile::TempDir,
    token: String,
    /// Contents of the root-only secret file (appears nowhere else).
    secret: String,
    secret_dir: tempfile::TempDir,
    target: tempfile::TempDir,
    port: u16,
    /// The judge's executable (the built one, or a copy installed elsewhere).
    judge: PathBuf,
    /// The package graded (the repository's, or a copy installed elsewhere).
    problem: PathBuf,
    /// The tests the attacks search for (`@TESTDATA_DIR@`).
    testdata: PathBuf,
    /// `MAYAN_ATTACK_BUILDS`, for a lab that shares its compilations with
    /// the same test in other contexts ([`Lab::sharing_builds`]).
    builds: Option<PathBuf>,
}

/// A folder for a lab: `<tmp>/<prefix><random>`, or, for a lab named by
/// `named`, `<tmp>/<prefix><named>` (what an earlier context left there
/// removed first; a folder it cannot remove gets a random name instead).
fn lab_dir(prefix: &str, named: Option<u64>) -> tempfile::TempDir {
    if let Some(n) = named {
        let name = format!("{prefix}{n:016x}");
        let _ = std::fs::remove_dir_all(std::env::temp_dir().join(&name));
        if let Ok(dir) = tempfile::Builder::new().prefix(&name).rand_bytes(0).tempdir() {
            return dir;
        }
    }
    tempfile::Builder::new().prefix(prefix).tempdir().unwrap()
}

impl Lab {
    fn new() -> Lab {
        Lab::made(None)
    }

    /// A lab whose runtime attacks and control are the same source in every
    /// context that sets `MAYAN_ATTACK_BUILDS` (its token, folders and port
    /// named after `test`, a name of its own for each test), and whose judge starts with the programs the
    /// same test compiled in an earlier context (see the module's comment).
    /// Without the variable, a fresh lab as [`Lab::new`] makes.
    fn sharing_builds(test: &str) -> Lab {
        let Some(builds) = std::env::var_os("MAYAN_ATTACK_BUILDS").map(PathBuf::from) else {
            return Lab::new();
        };
        // The same in every process (sha256, as the judge's cache keys).
        use sha2::{Digest, Sha256};
        let digest = Sha256::digest(test.as_bytes());
        let named = u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"));
        Lab::made(Some((named, builds)))
    }

    /// A lab; `fixed`: its values named by a number, and the shared builds.
    fn made(fixed: Option<(u64, PathBuf)>) -> Lab {
        let named = fixed.as_ref().map(|(n, _)| *n);
        let token = format!("mj{:08x}", named.map_or_else(|| fastrand::u32(..), |n| n as u32));
        let secret = format!("mjsecret{:016x}", fastrand::u64(..));
        let dir = lab_dir("mj-attacks-", named);
        // Traversable but not listable, as a deployment's cache folder's
        // parent would be: only the cache folder's own mode protects it.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o711)).unwrap();
        // A root-only secret: 0600 file in a 0700 folder.
        let secret_dir = lab_dir("mj-secret-", named);
        std::fs::set_permissions(secret_dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
        let secret_file = secret_dir.path().join("secret.h");
        std::fs::write(&secret_file, format!("{secret}\n")).unwrap();
        std::fs::set_permissions(&secret_file, std::fs::Permissions::from_mode(0o600)).unwrap();
        // A host folder the cleanup must never touch: 0755 with a file inside.
        let target = lab_dir("mj-target-", named);
        std::fs::set_permissions(target.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(target.path().join("file"), "keep me\n").unwrap();
        std::fs::set_permissions(target.path().join("file"), std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::create_dir(dir.path().join("subs")).unwrap();
        Lab {
            dir,
            token,
            secret,
            secret_dir,
            target,
            port: 9,
            judge: judge_bin(),
            problem: repo().join("problems/mayan"),
            testdata: testdata(),
            builds: fixed.map(|(_, b)| b),
        }
    }

    /// The listener's port for `@PORT@`: fixed for a lab that shares its
    /// builds (the same source in every context), else any free one.
    fn listener(&self) -> Listener {
        let fixed = self
            .builds
            .as_ref()
            .map(|_| 20_000 + (u16::from_str_radix(&self.token[2..6], 16).unwrap_or(0) % 20_000));
        Listener::start(fixed)
    }

    fn secret_path(&self) -> PathBuf {
        self.secret_dir.path().join("secret.h")
    }

    fn cache(&self) -> PathBuf {
        self.dir.path().join("cache")
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// An attack of a batch as a submission ([`Lab::attack`]); in a lab
    /// that shares its builds, one that is not a runtime attack gets a
    /// nonce, so that it is compiled in every context.
    fn submission(&self, a: &Attack) -> PathBuf {
        let path = self.attack(a.file);
        if let Some(builds) = self.builds.as_ref().filter(|_| a.kind != Kind::Runtime) {
            let mut text = std::fs::read_to_string(&path).unwrap();
            let _ = write!(
                text,
                "\n/* compiled in this context: {:016x} */\n",
                fastrand::u64(..)
            );
            let shared = builds.join(todays_cache_key(text.as_bytes()));
            assert!(
                !shared.exists(),
                "{}: a program compiled in another context ({}) would stand in for its compilation here",
                a.file,
                shared.display()
            );
            std::fs::write(&path, text).unwrap();
        }
        path
    }

    /// Puts the programs the same test compiled in other contexts in this
    /// lab's cache (made 0700 here, as the judge makes it), if it shares
    /// its builds.
    fn fetch_builds(&self) {
        let Some(builds) = &self.builds else { return };
        let cache = self.cache();
        if std::fs::create_dir(&cache).is_ok() {
            std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        for e in std::fs::read_dir(builds).into_iter().flatten().flatten() {
            let to = cache.join(e.file_name());
            if !to.exists() && std::fs::copy(e.path(), &to).is_ok() {
                let _ = std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o700));
            }
        }
    }

    /// Leaves what this lab's judge compiled for the next context (each
    /// file named by the judge's key: language, command and source).
    fn share_builds(&self) {
        let Some(builds) = &self.builds else { return };
        for e in std::fs::read_dir(self.cache()).into_iter().flatten().flatten() {
            let to = builds.join(e.file_name());
            let part = builds.join(format!(
                ".{}.{:016x}",
                e.file_name().to_string_lossy(),
                fastrand::u64(..)
            ));
            if e.path().is_file() && !to.exists() && std::fs::copy(e.path(), &part).is_ok() {
                let _ = std::fs::set_permissions(&part, std::fs::Permissions::from_mode(0o755));
                let _ = std::fs::rename(&part, &to);
            }
        }
    }

    /// `tests/integration/attacks/<file>` with its placeholders filled in, as a submission.
    fn attack(&self, file: &str) -> PathBuf {
        let src = std::fs::read_to_string(repo().join("tests/integration/attacks").join(file))
            .unwrap_or_else(|e| panic!("reading tests/integration/attacks/{file}: {e}"));
        let filled = src
            .replace("@TOKEN@", &self.token)
            .replace("@SECRET_PATH@", &self.secret_path().to_string_lossy())
            .replace("@PORT@", &self.port.to_string())
            .replace("@TARGET_DIR@", &self.target.path().to_string_lossy())
            .replace("@REPO_DIR@", &repo().to_string_lossy())
            .replace("@TESTDATA_DIR@", &self.testdata.to_string_lossy())
            .replace("@JUDGE_PATH@", &self.judge.to_string_lossy())
            .replace("@CACHE_DIR@", &self.cache().to_string_lossy());
        for (i, _) in filled.match_indices('@') {
            let rest = &filled[i + 1..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                .collect();
            assert!(
                name.is_empty() || !rest[name.len()..].starts_with('@'),
                "tests/integration/attacks/{file}: unknown placeholder @{name}@"
            );
        }
        let out = self
            .dir
            .path()
            .join("subs")
            .join(Path::new(file).file_name().unwrap());
        std::fs::write(&out, filled).unwrap();
        out
    }

    /// An innocent accepted submission (the reference C solution).
    fn innocent(&self, name: &str) -> PathBuf {
        let out = self.dir.path().join("subs").join(name);
        std::fs::copy(repo().join("reference/mayan/accepted/solution.c"), &out).unwrap();
        out
    }

    /// The judge's command: `grade SUBS --problem problems/mayan --tests
    /// TESTS --jobs JOBS --json <dir>/<json> --quiet`, with this lab's
    /// cache and a secret in the judge's environment.
    fn grade_cmd(&self, subs: &[PathBuf], tests: &str, jobs: u32, json: &str) -> Command {
        let mut c = Command::new(&self.judge);
        c.current_dir(repo())
            .env("MAYAN_JUDGE_CACHE", self.cache())
            .env("MJ_SECRET_ENV", format!("{}-env", self.token))
            .arg("grade")
            .args(subs)
            .arg("--problem")
            .arg(&self.problem)
            .arg("--tests")
            .arg(tests)
            .arg("--jobs")
            .arg(jobs.to_string())
            .arg("--json")
            .arg(self.path(json))
            .arg("--quiet")
            .timeout(hang());
        c
    }

    fn grade(&self, subs: &[PathBuf], tests: &str, jobs: u32, json: &str) -> Graded {
        self.fetch_builds();
        let mut cmd = self.grade_cmd(subs, tests, jobs, json);
        let graded = Graded::run(&mut cmd, &self.path(json));
        self.share_builds();
        graded
    }
}

/// What one `grade` call produced.
struct Graded {
    status: std::process::ExitStatus,
    stdout: String,
    stderr: String,
    json_text: String,
    report: Option<Value>,
    elapsed: Duration,
}

impl Graded {
    fn run(cmd: &mut Command, json: &Path) -> Graded {
        let start = Instant::now();
        let out = cmd.output().expect("run mayan-judge");
        let elapsed = start.elapsed();
        let json_text = std::fs::read_to_string(json).unwrap_or_default();
        let report = serde_json::from_str(&json_text).ok();
        Graded {
            status: out.status,
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            json_text,
            report,
            elapsed,
        }
    }

    /// Everything the judge let out: stdout, stderr and the JSON report.
    fn everything(&self) -> String {
        format!("{}\n{}\n{}", self.stdout, self.stderr, self.json_text)
    }

    fn describe_status(&self) -> String {
        match (self.status.code(), self.status.signal()) {
            (Some(c), _) => format!("exit code {c}"),
            (None, Some(s)) => format!(
                "killed by signal {s}{}",
                if s == 6 { " (SIGABRT, shell: 134)" } else { "" }
            ),
            _ => "unknown status".to_string(),
        }
    }

    /// The judge finished by itself, in time, with a report.
    fn check_finished(&self, what: &str, failures: &mut Vec<String>) {
        if self.elapsed >= hang() {
            failures.push(format!(
                "{what}: the judge did not finish within {:?} (killed)",
                hang()
            ));
        } else if !matches!(self.status.code(), Some(0..=2)) {
            failures.push(format!(
                "{what}: the judge crashed ({}); stderr: {}",
                self.describe_status(),
                tail(&self.stderr)
            ));
        } else if self.report.is_none() {
            failures.push(format!(
                "{what}: the judge wrote no JSON report ({}); stderr: {}",
                self.describe_status(),
                tail(&self.stderr)
            ));
        }
        let failed = self.judge_failures();
        if !failed.is_empty() {
            failures.push(format!(
                "{what}: the judge could not run some tests (FAIL), so they prove nothing: {}",
                failed.join("; ")
            ));
        }
    }

    /// `submission test: reason` of every test with the verdict FAIL (the
    /// judge's own failure, e.g. a program it could not start).
    fn judge_failures(&self) -> Vec<String> {
        let Some(subs) = self.report.as_ref().and_then(|r| r["submissions"].as_array()) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for s in subs {
            let name = s["submission"].as_str().unwrap_or("?");
            let name = Path::new(name)
                .file_name()
                .map_or(name.into(), |n| n.to_string_lossy());
            for (test, verdict, reason) in results(s) {
                if verdict == "FAIL" && out.len() < 3 {
                    out.push(format!("{name} {test}: {reason}"));
                }
            }
        }
        out
    }

    /// The report's entry for a submission file name.
    fn submission(&self, file: &str) -> Option<&Value> {
        self.report.as_ref()?["submissions"].as_array()?.iter().find(|s| {
            s["submission"]
                .as_str()
                .is_some_and(|p| Path::new(p).file_name().is_some_and(|n| n == file))
        })
    }
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

/// One test of a submission's entry in a JSON report.
#[derive(Debug)]
struct TestFigures {
    test: String,
    verdict: String,
    reason: String,
    time_ms: u64,
    memory_kib: u64,
}

/// Every test of a submission's entry (none without one).
fn figures(entry: Option<&Value>) -> Vec<TestFigures> {
    let tests = entry.and_then(|e| e["tests"].as_array());
    tests
        .into_iter()
        .flatten()
        .map(|t| {
            let s = |k: &str| t[k].as_str().unwrap_or("").to_string();
            TestFigures {
                test: s("test"),
                verdict: s("verdict"),
                reason: s("reason"),
                time_ms: t["time_ms"].as_u64().unwrap_or(u64::MAX),
                memory_kib: t["memory_kib"].as_u64().unwrap_or(u64::MAX),
            }
        })
        .collect()
}

/// Per-test `(test, verdict, reason)` of a submission's entry.
fn results(entry: &Value) -> Vec<(String, String, String)> {
    figures(Some(entry))
        .into_iter()
        .map(|f| (f.test, f.verdict, f.reason))
        .collect()
}

/// The tests of a submission's entry whose reason `matches`.
fn tests_where(entry: &Value, matches: impl Fn(&str) -> bool) -> Vec<String> {
    results(entry)
        .into_iter()
        .filter(|(_, _, reason)| matches(reason))
        .map(|(test, _, _)| test)
        .collect()
}

/// How a self-reporting attack is checked.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Runs; exit code 42 means it succeeded. A compile error is a failure
    /// of the suite (the attack proved nothing).
    Runtime,
    /// A compile-time attack: not compiling means it failed.
    CompileTime,
    /// Success is only seen from outside (checked by the test).
    Outside,
}

/// A hostile submission, how it is checked, and what its success means.
struct Attack {
    file: &'static str,
    kind: Kind,
    achieved: &'static str,
}

const fn rt(file: &'static str, achieved: &'static str) -> Attack {
    Attack {
        file,
        kind: Kind::Runtime,
        achieved,
    }
}

/// Checks every attack of a batch in the report: exit code 42 on any test,
/// a judge error, a compile error of a runtime attack, a missing entry.
fn check_batch(g: &Graded, attacks: &[Attack], failures: &mut Vec<String>) {
    for a in attacks {
        let Some(entry) = g.submission(a.file) else {
            failures.push(format!("{}: no entry in the report", a.file));
            continue;
        };
        if let Some(e) = entry["judge_error"].as_str() {
            failures.push(format!("{}: judge error: {e}", a.file));
            continue;
        }
        if let Some(ce) = entry["compile_error"].as_str() {
            if a.kind != Kind::CompileTime {
                failures.push(format!(
                    "{}: did not compile, so the attack proved nothing (the sandbox's compiler is broken?): {}",
                    a.file,
                    tail(ce)
                ));
            }
            continue;
        }
        let won = tests_where(entry, |reason| reason.contains("code 42"));
        if !won.is_empty() {
            failures.push(format!(
                "{}: ATTACK SUCCEEDED (exit code 42 on {}): {}",
                a.file,
                won.join(", "),
                a.achieved
            ));
        }
    }
}

fn finish(test: &str, failures: &[String]) {
    eprintln!("{test}: done, {} problem(s)", failures.len());
    if !failures.is_empty() {
        let mut msg = format!("{test}: {} problem(s):\n", failures.len());
        for f in failures {
            let _ = writeln!(msg, "  - {f}");
        }
        panic!("{msg}");
    }
}

// ---------------------------------------------------------------------------
// /proc helpers: processes by name, killing leftovers.

/// Live (non-zombie) processes whose `comm` starts with `prefix`.
fn processes_named(prefix: &str) -> Vec<(i32, String)> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir("/proc") else {
        return out;
    };
    for e in rd.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = &stat[open + 1..close];
        let state = stat[close + 1..].trim_start().chars().next().unwrap_or('?');
        if comm.starts_with(prefix) && state != 'Z' && state != 'X' {
            out.push((pid, comm.to_string()));
        }
    }
    out
}

/// Waits up to `wait` for processes named `prefix*` to disappear; returns those left.
fn survivors(prefix: &str, wait: Duration) -> Vec<(i32, String)> {
    let deadline = Instant::now() + wait;
    loop {
        let left = processes_named(prefix);
        if left.is_empty() || Instant::now() >= deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Kills every process named `prefix*` (only those: each name holds a fresh token).
fn kill_named(prefix: &str) {
    for _ in 0..50 {
        let left = processes_named(prefix);
        if left.is_empty() {
            return;
        }
        for (pid, _) in left {
            let _ =
                nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Kills processes named `prefix*` when dropped (so a failing test leaves no junk).
struct KillNamed(String);

impl Drop for KillNamed {
    fn drop(&mut self) {
        kill_named(&self.0);
    }
}

/// The shared scratch folders of the host where attacks leave things.
const SCRATCH: [&str; 4] = ["/tmp", "/var/tmp", "/dev/shm", "/run/lock"];

/// Entries of the host's scratch folders whose name holds `token`.
fn left_in_scratch(token: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in SCRATCH {
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                if e.file_name().to_string_lossy().contains(token) {
                    out.push(e.path());
                }
            }
        }
    }
    out
}

fn remove_any(path: &Path) {
    if path.symlink_metadata().is_ok_and(|m| m.is_dir()) {
        // GNU rm copes with any depth and any permissions.
        let _ = std::process::Command::new("rm").arg("-rf").arg(path).status();
    } else {
        let _ = std::fs::remove_file(path);
    }
}

/// Removes whatever the attacks of `token` left in the scratch folders.
struct CleanScratch(String);

impl Drop for CleanScratch {
    fn drop(&mut self) {
        for p in left_in_scratch(&self.0) {
            remove_any(&p);
        }
    }
}

/// Mode, owner and contents of a folder (one level), to see it untouched.
fn snapshot(dir: &Path) -> String {
    let mut s = String::new();
    match std::fs::symlink_metadata(dir) {
        Ok(m) => {
            let _ = writeln!(s, ". mode {:o} owner {}:{}", m.mode(), m.uid(), m.gid());
        }
        Err(e) => {
            let _ = writeln!(s, ". missing: {e}");
        }
    }
    let mut entries: BTreeMap<String, String> = BTreeMap::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let desc = match e.path().symlink_metadata() {
                Ok(m) => format!(
                    "mode {:o} owner {}:{} contents {:?}",
                    m.mode(),
                    m.uid(),
                    m.gid(),
                    std::fs::read_to_string(e.path()).unwrap_or_default()
                ),
                Err(e) => format!("unreadable: {e}"),
            };
            entries.insert(e.file_name().to_string_lossy().into_owned(), desc);
        }
    }
    for (name, desc) in entries {
        let _ = writeln!(s, "{name}: {desc}");
    }
    s
}

fn read_trimmed(path: &str) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// Mode and owner of the host's shared folders, to see that grading left
/// them alone (a cleanup that chmods the parent of what it removes turns
/// /tmp into a 0700 folder, and every other user of the machine is locked out).
struct HostModes(Vec<(PathBuf, Option<(u32, u32)>)>);

impl HostModes {
    fn take() -> HostModes {
        let mut dirs: Vec<PathBuf> = SCRATCH.iter().map(PathBuf::from).collect();
        let tmp = std::env::temp_dir();
        if !dirs.contains(&tmp) {
            dirs.push(tmp);
        }
        dirs.push(PathBuf::from("/"));
        HostModes(
            dirs.into_iter()
                .map(|d| {
                    let m = std::fs::symlink_metadata(&d)
                        .ok()
                        .map(|m| (m.mode() & 0o7777, m.uid()));
                    (d, m)
                })
                .collect(),
        )
    }

    /// Reports (and undoes) any change of mode or owner since `take`. A
    /// scratch folder that was not 1777 before (broken by someone else, or
    /// by a concurrent test, which reports it) is left alone.
    fn check(&self, during: &str, failures: &mut Vec<String>) {
        for (dir, before) in &self.0 {
            let scratch = SCRATCH.iter().any(|s| Path::new(s) == dir);
            if scratch && before.is_none_or(|(mode, _)| mode != 0o1777) {
                continue;
            }
            let now = std::fs::symlink_metadata(dir)
                .ok()
                .map(|m| (m.mode() & 0o7777, m.uid()));
            if &now != before {
                failures.push(format!(
                    "HOST FOLDER CHANGED: while {during}, the judge (or a program) changed {} from (mode {:o}, owner {}) to (mode {:o}, owner {}); restored",
                    dir.display(),
                    before.map_or(0, |b| b.0),
                    before.map_or(0, |b| b.1),
                    now.map_or(0, |b| b.0),
                    now.map_or(0, |b| b.1),
                ));
                if let Some((mode, uid)) = before {
                    let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(*mode));
                    let _ = nix::unistd::chown(dir, Some(nix::unistd::Uid::from_raw(*uid)), None);
                }
            }
        }
    }
}

/// A listener on the host's loopback that counts the connections it accepts.
struct Listener {
    port: u16,
    accepted: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Listener {
    /// Accepts (blocking: a poll every few ms cost the emulated machine of
    /// `.ci/run` seconds of CPU per context) until [`Listener::stop`].
    fn start(port: Option<u16>) -> Listener {
        let l = port
            .and_then(|p| TcpListener::bind(("127.0.0.1", p)).ok())
            .unwrap_or_else(|| TcpListener::bind("127.0.0.1:0").expect("listen on 127.0.0.1"));
        let port = l.local_addr().unwrap().port();
        let accepted = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (a, s) = (accepted.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            for conn in l.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                if conn.is_ok() {
                    a.fetch_add(1, Ordering::SeqCst);
                }
            }
        });
        Listener {
            port,
            accepted,
            stop,
            thread: Some(thread),
        }
    }

    /// The connections accepted from the runs; the last one, made here to
    /// wake the listener, is not counted.
    fn stop(mut self) -> usize {
        self.stop.store(true, Ordering::SeqCst);
        let woken = std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok();
        if let Some(t) = self.thread.take().filter(|_| woken) {
            let _ = t.join();
        }
        self.accepted.load(Ordering::SeqCst)
    }
}

/// Raises this process's open-file limit (inherited by the judge) to what a
/// systemd service or a container commonly gets, so that a judge that does
/// not bound it itself is caught by `many_fds.c`.
fn raise_nofile() {
    use nix::sys::resource::{Resource, getrlimit, setrlimit};
    let max = read_trimmed("/proc/sys/fs/nr_open")
        .parse::<u64>()
        .unwrap_or(1 << 20)
        .min(1 << 20);
    if let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE)
        && (soft < max || hard < max)
    {
        let _ = setrlimit(Resource::RLIMIT_NOFILE, max, max);
    }
}

// ---------------------------------------------------------------------------
// Batch 1: runs must not see or reach each other, the judge or the host.

const ISOLATION: &[Attack] = &[
    rt(
        "find_answer.c",
        "searched the file system, found a file equal to its stdin (a test input) and printed the `.ans` beside it: AC without solving",
    ),
    rt(
        "state_between_tests.c",
        "found a marker another run left in /tmp, /var/tmp, /dev/shm or /run/lock: state shared between tests",
    ),
    rt(
        "prepared_root.c",
        "left a file in the root a runner prepares once (/, /dev, /.hidden), found an earlier run's files in /box, /tmp or /dev/shm, or an earlier run's mount under its own",
    ),
    rt(
        "proc_scan.c",
        "saw in /proc a process that is neither itself nor its child (the judge, another run, the host)",
    ),
    rt(
        "kill_probe.c",
        "kill(pid, 0) succeeded on another process: it may signal other runs",
    ),
    rt(
        "proc_fd_cwd.c",
        "opened /proc/PID/fd/0 or listed /proc/PID/cwd/ of another process (another run's input or work folder)",
    ),
    rt(
        "ptrace_attach.c",
        "ptrace(PTRACE_ATTACH) on another process succeeded: it may read and write another run's memory",
    ),
    rt(
        "unix_socket.c",
        "two concurrent runs talked through a UNIX socket (/tmp or abstract)",
    ),
    rt(
        "process_vm_readv.c",
        "process_vm_readv() on another process passed the permission check: it may read another run's memory",
    ),
    rt(
        "pidfd_getfd.c",
        "pidfd_getfd() copied a file descriptor of another process",
    ),
    rt(
        "sysv_ipc.c",
        "found a System V shared memory segment or message queue made by another run",
    ),
    rt(
        "proc_environ.c",
        "read /proc/1/environ, another process's environment, or the judge's command line",
    ),
    rt(
        "signal_judge.c",
        "kill(judge, 0) succeeded: it may stop or kill the judge",
    ),
    rt(
        "judge_binary.c",
        "read the judge's executable (which embeds every test and answer)",
    ),
    rt(
        "host_files.c",
        "read a host file (/etc/shadow, /etc/passwd, /etc/hostname, ...) or listed /root, /home, /work or /var/lib",
    ),
    rt(
        "testdata_listing.c",
        "listed the judge's test data or package folder, or read an answer file",
    ),
    rt(
        "write_outside.c",
        "created a file outside its work folder and scratch space (a host folder writable by it)",
    ),
    rt(
        "tcp_loopback.c",
        "connected to a TCP port listening on the host's loopback",
    ),
    rt(
        "env_secret.c",
        "found the judge's environment (a secret variable, HOME, cargo or cache paths) in its own",
    ),
    rt(
        "leaked_fds.c",
        "found an open file descriptor (>= 3) leaked by the judge",
    ),
    rt(
        "sysfs.c",
        "listed the host's /sys (network interfaces, cgroups, devices)",
    ),
    rt(
        "cgroup_name.c",
        "read its cgroup's name in /proc/self/cgroup: the judge's and the runner's host pids and the runner's count of groups made, which an earlier run moves",
    ),
    rt(
        "cache_access.c",
        "listed or could write the judge's compile cache folder (every graded program)",
    ),
    Attack {
        file: "symlink_cleanup.c",
        kind: Kind::Outside,
        achieved: "",
    },
];

#[test]
fn runs_cannot_see_or_reach_each_other_the_judge_or_the_host() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let mut lab = Lab::sharing_builds("isolation");
    let modes = HostModes::take();
    let _clean = CleanScratch(lab.token.clone());
    let listener = lab.listener();
    lab.port = listener.port;
    let target_before = snapshot(lab.target.path());
    let mut subs = vec![lab.innocent("control_solution.c")];
    subs.extend(ISOLATION.iter().map(|a| lab.submission(a)));

    let g = lab.grade(&subs, FOUR_TESTS, 4, "isolation.json");
    let accepted = listener.stop();

    let mut failures = Vec::new();
    g.check_finished("grading the isolation attacks", &mut failures);
    check_batch(&g, ISOLATION, &mut failures);
    check_control(&g, "control_solution.c", &mut failures);
    if accepted > 0 {
        failures.push(format!(
            "tcp_loopback.c: ATTACK SUCCEEDED: the host's listener on 127.0.0.1:{} accepted {accepted} connection(s) from the sandbox",
            lab.port
        ));
    }
    let target_after = snapshot(lab.target.path());
    if target_after != target_before {
        failures.push(format!(
            "symlink_cleanup.c: ATTACK SUCCEEDED: the judge's cleanup changed the host folder {} that the work folder linked to\nbefore:\n{target_before}after:\n{target_after}",
            lab.target.path().display()
        ));
    }
    for p in left_in_scratch(&lab.token) {
        failures.push(format!(
            "files left on the host after grading (state_between_tests.c, unix_socket.c): {}",
            p.display()
        ));
    }
    modes.check("grading the isolation attacks", &mut failures);
    finish("isolation attacks", &failures);
}

/// A judge installed as a deployment installs it: the binary in
/// `/usr/local/bin` and the package (problem and tests) under
/// `/usr/local/share`, both inside folders every run's root binds. The runs
/// must see neither: not the binary (`judge_binary.c`), not the tests and
/// answers (`find_answer.c` searches the bound folders for its own input,
/// `testdata_listing.c` lists them).
#[test]
fn a_judge_and_package_installed_under_usr_local_are_out_of_every_runs_reach() {
    if !have_gcc() || !nix::unistd::geteuid().is_root() {
        crate::util::skip("needs root, to install the judge under /usr/local");
        return;
    }
    let _guard = shared();
    let mut lab = Lab::new();
    let installed = Installed::new(&lab.token);
    lab.judge = installed.judge.clone();
    lab.problem = installed.share.join("problems/mayan");
    lab.testdata = installed.share.join("testdata/mayan");
    let attacks = [
        rt(
            "judge_binary.c",
            "read the judge's executable installed in /usr/local/bin",
        ),
        rt(
            "find_answer.c",
            "found its input, and the answer beside it, in the package installed under /usr/local/share",
        ),
        rt(
            "testdata_listing.c",
            "listed the package installed under /usr/local/share, or read an answer there",
        ),
    ];
    let mut subs = vec![lab.innocent("control_solution.c")];
    subs.extend(attacks.iter().map(|a| lab.attack(a.file)));
    let g = lab.grade(&subs, FOUR_TESTS, 4, "installed.json");
    let mut failures = Vec::new();
    g.check_finished("grading with the judge installed in /usr/local", &mut failures);
    check_batch(&g, &attacks, &mut failures);
    check_control(&g, "control_solution.c", &mut failures);
    finish("judge installed under /usr/local", &failures);
}

/// A copy of the judge in `/usr/local/bin` and of the package in
/// `/usr/local/share`, removed on drop.
struct Installed {
    judge: PathBuf,
    share: PathBuf,
}

impl Installed {
    fn new(token: &str) -> Installed {
        let judge = PathBuf::from(format!("/usr/local/bin/mayan-judge-{token}"));
        let share = PathBuf::from(format!("/usr/local/share/mayan-judge-{token}"));
        std::fs::create_dir_all("/usr/local/bin").unwrap();
        std::fs::copy(judge_bin(), &judge).unwrap();
        for (from, to) in [
            ("problems/mayan", "problems/mayan"),
            ("testdata/mayan", "testdata/mayan"),
        ] {
            copy_tree(&repo().join(from), &share.join(to));
        }
        std::fs::set_permissions(&share, std::fs::Permissions::from_mode(0o755)).unwrap();
        Installed { judge, share }
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.judge);
        let _ = std::fs::remove_dir_all(&self.share);
    }
}

/// Copies a folder of plain files and folders, world-readable.
fn copy_tree(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let dest = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o755)).unwrap();
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
            std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
}

/// The control submission graded first in a batch must compile and be
/// accepted on some test: else the batch proves nothing (the sandbox is
/// simply broken). Not on every test: a loaded machine may push it to TLE.
fn check_control(g: &Graded, file: &str, failures: &mut Vec<String>) {
    let Some(entry) = g.submission(file) else {
        failures.push(format!(
            "{file} (control, reference/mayan/accepted/solution.c): no entry in the report"
        ));
        return;
    };
    let all = results(entry);
    if !all.iter().any(|(_, v, _)| v == "AC") {
        let verdicts: Vec<String> = all.iter().map(|(t, v, r)| format!("{t} {v} ({r})")).collect();
        failures.push(format!(
            "{file} (control, reference/mayan/accepted/solution.c) is accepted on no test, so the batch proves nothing: {} {}",
            verdicts.join("; "),
            entry["compile_error"].as_str().or(entry["judge_error"].as_str()).unwrap_or("")
        ));
    }
}

// ---------------------------------------------------------------------------
// Batch 2: privileges, namespaces, kernel attack surface, compile-time reads.

const PRIVILEGE: &[Attack] = &[
    rt(
        "unshare_user.c",
        "unshare(CLONE_NEWUSER) succeeded: it became root of a new user namespace",
    ),
    rt(
        "unshare_ns.c",
        "unshare() or clone() with CLONE_NEWNS / CLONE_NEWPID / CLONE_NEWNET / CLONE_NEWUTS / CLONE_NEWIPC (alone or with CLONE_NEWUSER) succeeded",
    ),
    rt(
        "setns.c",
        "setns() into a namespace of pid 1 or of the judge succeeded",
    ),
    rt("mknod.c", "created a device node (mknod)"),
    rt(
        "mount.c",
        "mount() of a tmpfs or proc succeeded (directly or in a new user + mount namespace)",
    ),
    rt(
        "chroot_escape.c",
        "chroot() succeeded and the classic chroot escape reached the host's repository",
    ),
    rt(
        "setuid_exec.c",
        "a set-uid binary (su, passwd, mount, ...) ran with effective uid 0",
    ),
    rt("rlimit_raise.c", "raised a hard resource limit"),
    rt("keyctl.c", "add_key() or keyctl() succeeded (kernel keyring)"),
    rt("bpf.c", "bpf() created a map or loaded a program"),
    rt("perf_event.c", "perf_event_open() returned a descriptor"),
    rt("io_uring.c", "io_uring_setup() returned a descriptor"),
    rt(
        "userfaultfd.c",
        "userfaultfd() (or /dev/userfaultfd) returned a descriptor",
    ),
    rt(
        "personality.c",
        "personality(ADDR_NO_RANDOMIZE or READ_IMPLIES_EXEC) took effect",
    ),
    rt(
        "dev_files.c",
        "opened a device (/dev/mem, a disk, /dev/kvm, /dev/fuse, /dev/tty, ...) or read the kernel log",
    ),
    rt(
        "hostname.c",
        "sethostname() or setdomainname() succeeded without a new namespace",
    ),
    rt(
        "many_fds.c",
        "held 16,384 eventfds open at once: the open-file limit is not bounded by the sandbox",
    ),
    rt(
        "cgroup_escape.c",
        "wrote to a cgroup file: moved itself out of the run's cgroup or raised its limits",
    ),
    rt("set_time.c", "set or adjusted the system clock"),
    rt(
        "realtime_priority.c",
        "got a real-time scheduling policy or a negative nice value",
    ),
    Attack {
        file: "incbin_testdata.c",
        kind: Kind::CompileTime,
        achieved: "embedded the judge's test inputs and answers at compile time (.incbin) and answered from them",
    },
    Attack {
        file: "include_secret.c",
        kind: Kind::CompileTime,
        achieved: "",
    },
    Attack {
        file: "incbin_secret.c",
        kind: Kind::CompileTime,
        achieved: "the root-only file was embedded at compile time and printed",
    },
    Attack {
        file: "fork_bomb.c",
        kind: Kind::Outside,
        achieved: "",
    },
];

#[test]
fn privileged_calls_kernel_surface_and_compile_time_reads_fail() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    raise_nofile();
    let lab = Lab::sharing_builds("privilege");
    let modes = HostModes::take();
    let _clean = CleanScratch(lab.token.clone());
    let _kill = KillNamed(lab.token.clone());
    let hostname = read_trimmed("/proc/sys/kernel/hostname");
    let domainname = read_trimmed("/proc/sys/kernel/domainname");
    let mut subs = vec![lab.innocent("control_solution.c")];
    subs.extend(PRIVILEGE.iter().map(|a| lab.submission(a)));

    let g = lab.grade(&subs, FOUR_TESTS, 4, "privilege.json");

    let mut failures = Vec::new();
    g.check_finished("grading the privilege attacks (and a fork bomb)", &mut failures);
    check_batch(&g, PRIVILEGE, &mut failures);
    check_control(&g, "control_solution.c", &mut failures);
    // The checker shortens long tokens: 16 characters (32 random bits) prove the leak.
    let leak = &lab.secret[..16];
    if g.everything().contains(leak) {
        let wheres: Vec<&str> = [
            ("stdout", &g.stdout),
            ("stderr", &g.stderr),
            ("the JSON report", &g.json_text),
        ]
        .iter()
        .filter(|(_, text)| text.contains(leak))
        .map(|(name, _)| *name)
        .collect();
        let by: Vec<&str> = ["include_secret.c", "incbin_secret.c"]
            .into_iter()
            .filter(|f| g.submission(f).is_some_and(|e| e.to_string().contains(leak)))
            .collect();
        failures.push(format!(
            "{}: ATTACK SUCCEEDED: the contents of the root-only file {} (0600 in a 0700 folder) appear in the judge's {} (#include quoted by the compiler's error / .incbin printed by the program)",
            if by.is_empty() { "include_secret.c or incbin_secret.c".to_string() } else { by.join(" and ") },
            lab.secret_path().display(),
            wheres.join(", ")
        ));
    }
    let left = survivors(&format!("{}fb", lab.token), Duration::from_secs(10));
    if !left.is_empty() {
        failures.push(format!(
            "fork_bomb.c: ATTACK SUCCEEDED: {} fork bomb process(es) still alive 10 s after grading (pids {:?})",
            left.len(),
            left.iter().map(|p| p.0).collect::<Vec<_>>()
        ));
    }
    if read_trimmed("/proc/sys/kernel/hostname") != hostname {
        failures.push(format!(
            "hostname.c: ATTACK SUCCEEDED: the host's name changed from {hostname:?} to {:?}",
            read_trimmed("/proc/sys/kernel/hostname")
        ));
        let _ = std::fs::write("/proc/sys/kernel/hostname", &hostname);
    }
    if read_trimmed("/proc/sys/kernel/domainname") != domainname {
        failures.push("hostname.c: ATTACK SUCCEEDED: the host's domain name changed".to_string());
        let _ = std::fs::write("/proc/sys/kernel/domainname", &domainname);
    }
    for p in left_in_scratch(&lab.token) {
        failures.push(format!("files left on the host after grading: {}", p.display()));
    }
    modes.check("grading the privilege attacks", &mut failures);
    finish("privilege attacks", &failures);
}

// ---------------------------------------------------------------------------
// A run's cgroup kept for the runner's next run.

/// `spent_group.c` leaves its cgroup with at least 0.6 s of CPU, a limit
/// hit and a high peak counted (an OOM kill too where it reaches the
/// memory limit before the time limit: an emulated CPU may not); graded
/// first on one slot, its runners' kept groups then serve the innocent
/// submission's compilation and runs, which must owe it nothing: accepted
/// on every test, in under 500 ms of CPU (what it left is 600 ms or more)
/// and under half the smallest peak it left (the reference takes
/// milliseconds and about a MiB here; the limits are 3 s and 128 MiB).
/// Groups are kept on cgroup v1, and on v2 from Linux 6.12; on an older v2
/// kernel each run gets a new one, and the test must pass all the same.
#[test]
fn a_cgroup_kept_for_the_next_run_carries_no_time_or_memory_of_the_run_before() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let subs = [lab.attack("spent_group.c"), lab.innocent("after_spent_group.c")];
    let g = lab.grade(&subs, FOUR_TESTS, 1, "spent.json");
    let mut failures = Vec::new();
    g.check_finished(
        "grading spent_group.c, then an innocent submission",
        &mut failures,
    );
    let spent = figures(g.submission("spent_group.c"));
    if spent.is_empty() || spent.iter().any(|f| f.verdict != "MLE" && f.verdict != "TLE") {
        failures.push(format!(
            "spent_group.c was not stopped by a limit on every test, so its groups counted little to leave: {spent:?}"
        ));
    }
    let peak_left = spent.iter().map(|f| f.memory_kib).min().unwrap_or(0);
    let entry = g.submission("after_spent_group.c");
    let innocent = figures(entry);
    let owed: Vec<String> = innocent
        .iter()
        .filter(|f| f.verdict != "AC" || f.time_ms >= 500 || f.memory_kib >= peak_left / 2)
        .map(|f| format!("{} {} {} ms {} KiB", f.test, f.verdict, f.time_ms, f.memory_kib))
        .collect();
    if innocent.is_empty() || !owed.is_empty() {
        let error = entry.and_then(|e| e["compile_error"].as_str().or(e["judge_error"].as_str()));
        failures.push(format!(
            "spent_group.c: ATTACK SUCCEEDED: the innocent submission compiled and run after it in the same runners' cgroups was charged for its time, memory or OOM kill (it left {peak_left} KiB at least): {} {}",
            if innocent.is_empty() { "no test was run".to_string() } else { owed.join("; ") },
            error.map_or_else(String::new, tail)
        ));
    }
    finish("a kept cgroup", &failures);
}

// ---------------------------------------------------------------------------
// A runner's network namespace.

/// `net_counters.c` raises `Ip: OutNoRoutes` of its network namespace by
/// 20,000 in each run, after checking that no earlier run left it at 1,000
/// or more; graded twice (the second copy stands for another contestant)
/// on one slot, its 8 runs share the launcher's few runners, so some
/// runner carries out two of them, and then a compilation: of
/// `net_counters_at_compile.rs`, whose `include_str!` reads the counters
/// when it is compiled (where rustc is here). Every run and compilation
/// must see a namespace no earlier one used: no run exits 42, and every
/// run ends answering -1 (WA): one that exits 3 (it could not raise the
/// counter) or crashes proved nothing.
#[test]
fn a_runs_network_counters_never_reach_a_later_run_or_compilation() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let mut attacks = vec![
        rt(
            "net_counters.c",
            "read OutNoRoutes an earlier run raised: a value carried from run to run",
        ),
        rt(
            "net_counters_again.c",
            "read OutNoRoutes another submission's run raised: a value carried from one contestant to another",
        ),
    ];
    let mut subs = vec![
        lab.attack("net_counters.c"),
        lab.path("subs/net_counters_again.c"),
    ];
    std::fs::copy(&subs[0], &subs[1]).unwrap();
    // Where the judge's user can run rustc (a test user of the cgroup v2
    // machine has none: rustup's toolchain is root's): the run-to-run part
    // above holds everywhere.
    if rustc_runs() {
        // A compilation sees no /proc/net at all now (its /proc holds its
        // own processes only): not compiling is the attack failing.
        attacks.push(Attack {
            file: "net_counters_at_compile.rs",
            kind: Kind::CompileTime,
            achieved: "compiled in OutNoRoutes as earlier runs left it: a value carried from a run to a later compilation",
        });
        subs.push(lab.attack("net_counters_at_compile.rs"));
    }
    let g = lab.grade(&subs, FOUR_TESTS, 1, "net.json");
    let mut failures = Vec::new();
    g.check_finished(
        "grading net_counters.c twice, then net_counters_at_compile.rs",
        &mut failures,
    );
    check_batch(&g, &attacks, &mut failures);
    // Each run either found a value (42, above) or raised the counter and
    // answered -1 (WA); anything else (exit 3: it could not raise it; a
    // crash) proved nothing.
    for a in &attacks {
        let ran: Vec<String> = figures(g.submission(a.file))
            .into_iter()
            .filter(|f| f.verdict != "WA" && f.reason != "exit code 42")
            .map(|f| format!("{} {} {}", f.test, f.verdict, f.reason))
            .collect();
        if !ran.is_empty() {
            failures.push(format!(
                "{}: did not run to its end, so the attack proved nothing: {}",
                a.file,
                ran.join("; ")
            ));
        }
    }
    finish("a runner's network namespace", &failures);
}

// ---------------------------------------------------------------------------
// What a compilation reads of the machine.

/// The machine-wide files of `/proc` a run can move (processes forked,
/// pages faulted, locked, swapped, sockets held, files opened, mounts) or
/// that move with the machine's load, for a later compilation to embed:
/// the counters of issue 56 and their neighbours. A file this kernel does
/// not have fails to compile, like one the sandbox hides.
const MACHINE_WIDE: &[&str] = &[
    "/proc/stat",
    "/proc/vmstat",
    "/proc/meminfo",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/diskstats",
    "/proc/schedstat",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/pagetypeinfo",
    "/proc/cpuinfo",
    "/proc/locks",
    "/proc/swaps",
    "/proc/key-users",
    "/proc/pressure/cpu",
    "/proc/pressure/memory",
    "/proc/pressure/io",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/dentry-state",
    "/proc/sys/kernel/random/entropy_avail",
    "/proc/sys/kernel/pty/nr",
    "/proc/net/sockstat",
    "/proc/self/net/sockstat",
    "/proc/self/net/protocols",
    "/proc/self/net/softnet_stat",
    "/proc/self/mountinfo",
    "/proc/1/net/sockstat",
];

/// `proc_at_compile.c` (`.incbin`) once for each of [`MACHINE_WIDE`],
/// and `proc_at_compile.rs` (`include_bytes!`) for the counters of the
/// issue, where rustc runs: no compilation may embed any of them (each
/// either fails to compile or embeds nothing). A control embeds a system
/// header the same way and must succeed (exit 42), or the technique proved
/// nothing.
#[test]
fn a_compilation_embeds_no_machine_wide_file_of_proc() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let variant = |template: &Path, file: &str, ext: &str| {
        let name = format!("proc{}.{ext}", file.replace(['/', '-', '.'], "_"));
        let text = std::fs::read_to_string(template).unwrap();
        let path = lab.path(&format!("subs/{name}"));
        std::fs::write(&path, text.replace("MJ_PROC_FILE", file)).unwrap();
        (name, path)
    };
    let c = lab.attack("proc_at_compile.c");
    let control = variant(&c, "/usr/include/stdio.h", "c");
    let mut probes: Vec<(String, PathBuf)> = MACHINE_WIDE.iter().map(|f| variant(&c, f, "c")).collect();
    if rustc_runs() {
        let rs = lab.attack("proc_at_compile.rs");
        for f in ["/proc/stat", "/proc/vmstat", "/proc/self/net/sockstat"] {
            probes.push(variant(&rs, f, "rs"));
        }
    }
    let mut subs = vec![control.1.clone()];
    subs.extend(probes.iter().map(|(_, p)| p.clone()));
    let g = lab.grade(&subs, "secret/11", 2, "proc.json");
    let mut failures = Vec::new();
    g.check_finished(
        "grading a compile-time read of each machine-wide /proc file",
        &mut failures,
    );
    let embedded = |name: &str| {
        g.submission(name)
            .is_some_and(|e| !tests_where(e, |reason| reason.contains("code 42")).is_empty())
    };
    if !embedded(&control.0) {
        let entry = g.submission(&control.0);
        failures.push(format!(
            "{}: the control did not embed a system header, so the attack proved nothing: {}",
            control.0,
            entry
                .and_then(|e| e["compile_error"].as_str())
                .map_or_else(String::new, tail)
        ));
    }
    let leaked: Vec<&str> = probes
        .iter()
        .filter(|(name, _)| embedded(name))
        .map(|(name, _)| name.as_str())
        .collect();
    if !leaked.is_empty() {
        failures.push(format!(
            "ATTACK SUCCEEDED: {} compilation(s) embedded a machine-wide /proc file that a run on a hidden test can move, and whose value compiler messages show: {}",
            leaked.len(),
            leaked.join(", ")
        ));
    }
    finish("a compilation's /proc", &failures);
}

/// Whether `rustc` runs for this user (not a tool the suite requires).
fn rustc_runs() -> bool {
    let runs = std::process::Command::new("rustc")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        eprintln!("note: rustc does not run for this user: the compile-time part is left out");
    }
    runs
}

// ---------------------------------------------------------------------------
// Filling /tmp and /dev/shm.

#[test]
fn filling_tmp_and_shm_stops_at_a_bound_and_leaves_nothing() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let modes = HostModes::take();
    let _clean = CleanScratch(lab.token.clone());
    let attack = [rt(
        "fill_tmp.c",
        "wrote 512 MiB into /tmp or /dev/shm without an error: the host's disk or memory, not a bounded tmpfs",
    )];
    let g = lab.grade(&[lab.attack("fill_tmp.c")], "secret/11", 1, "fill.json");
    let mut failures = Vec::new();
    g.check_finished("grading fill_tmp.c", &mut failures);
    check_batch(&g, &attack, &mut failures);
    let left = left_in_scratch(&lab.token);
    if !left.is_empty() {
        let bytes: u64 = left
            .iter()
            .filter_map(|p| p.metadata().ok())
            .map(|m| m.len())
            .sum();
        failures.push(format!(
            "fill_tmp.c: ATTACK SUCCEEDED: {} file(s), {} MiB, left on the host after the run ({}{})",
            left.len(),
            bytes >> 20,
            left[0].display(),
            if left.len() > 1 { ", ..." } else { "" }
        ));
    }
    modes.check("grading fill_tmp.c", &mut failures);
    finish("filling /tmp and /dev/shm", &failures);
}

// ---------------------------------------------------------------------------
// kill(-1) beside an innocent submission graded by another judge process.

#[test]
fn a_kill_minus_one_does_not_hurt_a_submission_graded_beside_it() {
    let _guard = alone();
    if !have_gcc() {
        return;
    }
    let lab = Lab::new();
    let modes = HostModes::take();
    let _kill = KillNamed(lab.token.clone());
    let attacker = lab.attack("kill_all.c");
    let innocent = lab.innocent("innocent_solution.c");
    // Compile the innocent program first, so its runs start at once later.
    let warm = lab.grade(std::slice::from_ref(&innocent), "sample/*", 1, "warm.json");
    let mut failures = Vec::new();
    warm.check_finished("compiling the innocent submission", &mut failures);
    finish("kill(-1) attack (setup)", &failures);

    // The attacker: one run after another, each killing everything it may for 2.5 s.
    let mut attack_cmd = std::process::Command::new(&lab.judge);
    attack_cmd
        .current_dir(repo())
        .env("MAYAN_JUDGE_CACHE", lab.cache())
        .args(["grade", "--problem"])
        .arg(repo().join("problems/mayan"))
        .arg(&attacker)
        .args(["--tests", "secret/*", "--jobs", "1", "--quiet"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut judge = attack_cmd.spawn().expect("start the attacker's judge");
    let started = Instant::now();
    let attacking = loop {
        if !processes_named(&format!("{}ka", lab.token)).is_empty() {
            break true;
        }
        if started.elapsed() > Duration::from_secs(60) || judge.try_wait().ok().flatten().is_some() {
            break false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let g = attacking.then(|| lab.grade(std::slice::from_ref(&innocent), "*", 4, "innocent.json"));
    let attacker_still_running = judge.try_wait().ok().flatten().is_none();
    let _ = judge.kill();
    let _ = judge.wait();

    assert!(
        attacking,
        "kill_all.c never started running (no process named {}ka)",
        lab.token
    );
    let g = g.unwrap();
    g.check_finished("grading the innocent submission beside kill_all.c", &mut failures);
    if let Some(entry) = g.submission("innocent_solution.c") {
        let score = entry["score"].as_u64().unwrap_or(0);
        let max = entry["max_score"].as_u64().unwrap_or(0);
        let all = results(entry);
        let killed: Vec<String> = all
            .iter()
            .filter(|(_, v, _)| v == "RE")
            .map(|(t, v, r)| format!("{t} {v} ({r})"))
            .collect();
        let other: Vec<String> = all
            .iter()
            .filter(|(_, v, _)| v != "AC" && v != "RE")
            .map(|(t, v, r)| format!("{t} {v} ({r})"))
            .collect();
        if !killed.is_empty() || max == 0 {
            failures.push(format!(
                "kill_all.c: ATTACK SUCCEEDED: kill(-1, SIGKILL) in one judge's run cost an innocent accepted submission graded beside it {} of {max} points; killed: {}",
                max - score,
                killed.join("; ")
            ));
        }
        if !other.is_empty() {
            failures.push(format!(
                "kill_all.c: the innocent submission graded beside it was not accepted, though not killed (load? interference?): {}",
                other.join("; ")
            ));
        }
    } else {
        failures.push("innocent_solution.c: no entry in the report".to_string());
    }
    if !attacker_still_running {
        failures.push(
            "kill_all.c: the attacker's judge ended before the innocent one, so the attack window did not cover it (the check is void)"
                .to_string(),
        );
    }
    modes.check("grading kill_all.c and an innocent submission", &mut failures);
    finish("kill(-1) attack", &failures);
}

// ---------------------------------------------------------------------------
// A 20,000-deep folder chain left in the work folder.

#[test]
fn deep_folder_chains_do_not_crash_the_judge() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let modes = HostModes::take();
    let g = lab.grade(&[lab.attack("deep_dirs.c")], "secret/11", 1, "deep.json");
    let mut failures = Vec::new();
    if !matches!(g.status.code(), Some(0..=2)) || g.report.is_none() || !g.stdout.contains("secret/11") {
        failures.push(format!(
            "deep_dirs.c: ATTACK SUCCEEDED: a deep folder chain (up to 20,000 levels, 4 s of mkdir) left in the work folder crashed the judge ({}; verdicts printed: {}; JSON report written: {}); stderr: {}",
            g.describe_status(),
            g.stdout.contains("secret/11"),
            g.report.is_some(),
            tail(&g.stderr)
        ));
    }
    if g.report.is_some() {
        let failed = g.judge_failures();
        if !failed.is_empty() {
            failures.push(format!(
                "deep_dirs.c: the judge could not run it (FAIL), so the check proves nothing: {}",
                failed.join("; ")
            ));
        }
    }
    // The chain must be gone too (wherever the work folders live, usually /tmp).
    let mut left = Vec::new();
    for base in [
        std::env::temp_dir(),
        PathBuf::from("/tmp"),
        PathBuf::from("/var/tmp"),
    ] {
        for e in std::fs::read_dir(&base).into_iter().flatten().flatten() {
            for run in std::fs::read_dir(e.path()).into_iter().flatten().flatten() {
                let chain = run.path().join(format!("mj-deep-{}", lab.token));
                if chain.symlink_metadata().is_ok() {
                    left.push(e.path());
                }
            }
        }
    }
    left.sort();
    left.dedup();
    for base in &left {
        failures.push(format!(
            "deep_dirs.c: ATTACK SUCCEEDED: the folder chain was left on the host in {}",
            base.display()
        ));
        // Deleting thousands of levels takes seconds on a slow disk: in the background.
        let _ = std::process::Command::new("rm").arg("-rf").arg(base).spawn();
    }
    modes.check("grading deep_dirs.c", &mut failures);
    finish("deep folder chain", &failures);
}

// ---------------------------------------------------------------------------
// The judge killed with SIGKILL while a detached grandchild runs.

#[test]
fn nothing_survives_a_judge_killed_mid_run() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let modes = HostModes::take();
    let name = format!("{}dd", lab.token);
    let _kill = KillNamed(name.clone());
    let mut cmd = std::process::Command::new(&lab.judge);
    cmd.current_dir(repo())
        .env("MAYAN_JUDGE_CACHE", lab.cache())
        .args(["grade", "--problem"])
        .arg(repo().join("problems/mayan"))
        .arg(lab.attack("detached_daemon.c"))
        .args(["--tests", "secret/11", "--quiet"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let mut judge = cmd.spawn().expect("start the judge");
    // Wait for the main process and the detached grandchild (compilation included).
    let started = Instant::now();
    while processes_named(&name).len() < 2
        && started.elapsed() < Duration::from_secs(60)
        && judge.try_wait().ok().flatten().is_none()
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let seen = processes_named(&name);
    std::thread::sleep(Duration::from_millis(200));
    let _ = judge.kill(); // SIGKILL
    let _ = judge.wait();
    assert!(
        !seen.is_empty(),
        "detached_daemon.c never started (no process named {name}); the check is void"
    );
    let left = survivors(&name, Duration::from_secs(10));
    let mut failures = Vec::new();
    if !left.is_empty() {
        failures.push(format!(
            "detached_daemon.c: ATTACK SUCCEEDED: 10 s after the judge was killed with SIGKILL, {} process(es) of the run (setsid + double fork) still live: pids {:?}",
            left.len(),
            left.iter().map(|p| p.0).collect::<Vec<_>>()
        ));
    }
    modes.check("grading detached_daemon.c", &mut failures);
    finish("judge killed mid-run", &failures);
}

/// Folders `mayan-judge-<pid>-*` below `dir`, and mount points below it.
fn run_leftovers(dir: &Path, pid: u32) -> (Vec<PathBuf>, Vec<String>) {
    let prefix = format!("mayan-judge-{pid}-");
    let folders = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
                })
                .collect()
        })
        .unwrap_or_default();
    let under = dir.to_string_lossy().into_owned();
    let mounts = std::fs::read_to_string("/proc/self/mountinfo")
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split(' ').nth(4).map(str::to_string))
        .filter(|m| m.starts_with(&under))
        .collect();
    (folders, mounts)
}

/// The run folders in the folder for runs of judge `pid`'s launcher (in
/// `dir`), as its children see it: through `/proc/<child>/root`, in their
/// own mount namespace.
fn runs_seen_by_launcher(dir: &Path, pid: u32) -> Vec<PathBuf> {
    let children = std::fs::read_dir(format!("/proc/{pid}/task"))
        .map(|rd| {
            rd.flatten()
                .filter_map(|t| std::fs::read_to_string(t.path().join("children")).ok())
                .flat_map(|c| c.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let inside = dir
        .strip_prefix("/")
        .unwrap_or(dir)
        .join(format!("mayan-judge-{pid}-runs"));
    children
        .iter()
        .filter_map(|c| std::fs::read_dir(Path::new("/proc").join(c).join("root").join(&inside)).ok())
        .flat_map(|rd| rd.flatten().map(|e| e.path()).collect::<Vec<_>>())
        .collect()
}

/// Run cgroups `mayan-judge-<pid>-*` in any hierarchy (two levels deep).
fn run_cgroups(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("mayan-judge-{pid}-");
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new("/sys/fs/cgroup")
        .max_depth(4)
        .into_iter()
        .flatten()
    {
        if entry.file_type().is_dir() && entry.file_name().to_string_lossy().starts_with(&prefix) {
            found.push(entry.into_path());
        }
    }
    found
}

#[test]
fn a_killed_judges_folders_mounts_and_cgroups_are_removed_by_the_next_judge() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let tmp = tempfile::tempdir().unwrap();
    let judge_in = |args: &[&str], file: &Path| {
        let mut cmd = std::process::Command::new(&lab.judge);
        cmd.current_dir(repo())
            .env("MAYAN_JUDGE_CACHE", lab.cache())
            .env("TMPDIR", tmp.path())
            .args(["grade", "--problem"])
            .arg(repo().join("problems/mayan"))
            .arg(file)
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        cmd
    };
    // A program that sleeps: the judge is killed while its run is live.
    let sleeper = lab.path("sleeper.c");
    std::fs::write(
        &sleeper,
        "#include <unistd.h>\nint main(void){ sleep(60); return 0; }\n",
    )
    .unwrap();
    let mut judge = judge_in(&["--tests", "secret/11", "--quiet"], &sleeper)
        .spawn()
        .unwrap();
    let pid = judge.id();
    // The launcher mounts in a mount namespace of its own, which dies with
    // it: on the host only its folder for runs remains, the run's folders
    // (seen through the launcher's root) while it lives.
    let live = || !runs_seen_by_launcher(tmp.path(), pid).is_empty();
    let started = Instant::now();
    while !live() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(live(), "no run of the judge was seen live; the check is void");
    std::thread::sleep(Duration::from_millis(300));
    // Seen while the run lives: another test's judge starting after the
    // kill may remove the dead judge's cgroups before this one does.
    let cgroups_before = run_cgroups(pid);
    let _ = judge.kill();
    let _ = judge.wait();
    let (folders, _) = run_leftovers(tmp.path(), pid);
    assert!(
        !folders.is_empty(),
        "the killed judge left no folder to clean up; the check is void"
    );
    // The next judge, on the same temporary folder, cleans up as it starts.
    let status = judge_in(
        &["--tests", "sample/1", "--quiet"],
        &repo().join("reference/mayan/accepted/solution.c"),
    )
    .status()
    .unwrap();
    assert_eq!(status.code(), Some(0), "the next judge failed");
    let (folders, mounts) = run_leftovers(tmp.path(), pid);
    assert!(
        folders.is_empty(),
        "left by a killed judge, still there: {folders:?}"
    );
    assert!(
        mounts.is_empty(),
        "mounts of a killed judge, still there: {mounts:?}"
    );
    let cgroups = run_cgroups(pid);
    assert!(
        cgroups.is_empty(),
        "run cgroups of a killed judge, still there: {cgroups:?}"
    );
    // Where the machine gives cgroups, the killed run had one to remove.
    if std::path::Path::new("/sys/fs/cgroup/pids").is_dir() {
        assert!(
            !cgroups_before.is_empty(),
            "the killed judge left no cgroup; the check is void"
        );
    }
}

// ---------------------------------------------------------------------------
// The compile cache.

/// A copy of the reference C solution that carries `tag` in its binary.
fn tagged_innocent(lab: &Lab, name: &str, tag: &str) -> PathBuf {
    let mut src = std::fs::read_to_string(repo().join("reference/mayan/accepted/solution.c")).unwrap();
    let _ = write!(
        src,
        "\n__attribute__((used)) static const char mj_cache_tag[] = \"{tag}\";\n"
    );
    let out = lab.dir.path().join("subs").join(name);
    std::fs::write(&out, src).unwrap();
    out
}

/// Today's cache key of a C source (language, compiler, command, source),
/// in case the judge under test cannot be asked (see `find_cached_name`).
fn todays_cache_key(code: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(b"c");
    h.update([0]);
    h.update(gcc_identity().as_bytes());
    for part in ["gcc", "-O2", "-std=c11", "-o", "{exe}", "{src}", "-lm"] {
        h.update([0]);
        h.update(part.as_bytes());
    }
    h.update([0]);
    h.update(code);
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The judge's identity of the `gcc` found in `PATH` (the file it leads
/// to, its size and modification time: `compiler_identity` in
/// `src/judge/submission.rs`).
fn gcc_identity() -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let Some(gcc) = std::env::split_paths(&path)
        .map(|d| d.join("gcc"))
        .find(|p| p.is_file())
    else {
        return String::new();
    };
    let (Ok(real), Ok(meta)) = (std::fs::canonicalize(&gcc), std::fs::metadata(&gcc)) else {
        return String::new();
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    format!("{} {} {modified}", real.display(), meta.len())
}

/// Regular files under `root` (at most `depth` levels, not following links)
/// changed since `since` whose contents hold `tag`.
fn files_holding(root: &Path, tag: &str, since: SystemTime, depth: usize) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(root) else {
        return out;
    };
    for e in rd.flatten() {
        let Ok(m) = e.path().symlink_metadata() else {
            continue;
        };
        if m.is_dir() && depth > 0 {
            out.extend(files_holding(&e.path(), tag, since, depth - 1));
        } else if m.is_file()
            && m.len() < (64 << 20)
            && m.modified().is_ok_and(|t| t >= since)
            && let Ok(mut f) = std::fs::File::open(e.path())
        {
            let mut bytes = Vec::new();
            if f.read_to_end(&mut bytes).is_ok()
                && bytes.windows(tag.len()).any(|w| w == tag.as_bytes())
                && bytes.starts_with(b"\x7fELF")
            {
                out.push(e.path());
            }
        }
    }
    out
}

/// Where a cached program holding `tag` could be: the usual places.
fn cached_programs(tag: &str, since: SystemTime, extra: &[&Path]) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = extra.iter().map(|p| p.to_path_buf()).collect();
    roots.extend(
        [
            "/tmp",
            "/var/tmp",
            "/dev/shm",
            "/var/cache",
            "/root/.cache",
            "/run",
        ]
        .iter()
        .map(PathBuf::from),
    );
    let mut out: Vec<PathBuf> = roots
        .iter()
        .flat_map(|r| files_holding(r, tag, since, 3))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A problem with the folder holding a cached program: not 0700-like
/// (group or others may read or write it) or not owned by the judge.
fn unsafe_folder(file: &Path) -> Option<String> {
    let dir = file.parent()?;
    let m = dir.metadata().ok()?;
    let euid = nix::unistd::geteuid().as_raw();
    (m.mode() & 0o077 != 0 || m.uid() != euid).then(|| {
        format!(
            "{} went to {}, a folder of mode {:o} owned by uid {} (not a private 0700 folder of the judge, uid {euid})",
            file.file_name().unwrap_or_default().to_string_lossy(),
            dir.display(),
            m.mode() & 0o7777,
            m.uid()
        )
    })
}

/// A judge refusing a cache folder must say so clearly, and not grade.
fn refused_clearly(g: &Graded, folder: &Path) -> bool {
    g.status.code() == Some(2)
        && (g.stderr.contains("cache") || g.stderr.contains(&*folder.to_string_lossy()))
}

#[test]
fn the_cache_without_home_or_cache_variable_is_private() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let modes = HostModes::take();
    let tmp = lab.path("tmp"); // the judge's TMPDIR, mode 1777 like /tmp
    std::fs::create_dir(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let tag = format!("{}-nohome", lab.token);
    let sub = tagged_innocent(&lab, "nohome.c", &tag);
    let since = SystemTime::now() - Duration::from_secs(2);
    let mut cmd = lab.grade_cmd(std::slice::from_ref(&sub), "sample/*", 1, "nohome.json");
    cmd.env_remove("HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("MAYAN_JUDGE_CACHE")
        .env("TMPDIR", &tmp);
    let g = Graded::run(&mut cmd, &lab.path("nohome.json"));
    let mut failures = Vec::new();
    if !refused_clearly(&g, &tmp) {
        g.check_finished("grading with HOME and MAYAN_JUDGE_CACHE unset", &mut failures);
        for file in cached_programs(&tag, since, &[&tmp]) {
            if let Some(problem) = unsafe_folder(&file) {
                failures.push(format!(
                    "cache without HOME: UNSAFE CACHE: with HOME and MAYAN_JUDGE_CACHE unset the compiled program {problem}"
                ));
            }
            let _ = std::fs::remove_file(&file);
        }
    }
    modes.check("grading without HOME", &mut failures);
    finish("cache without HOME", &failures);
}

#[test]
fn world_writable_cache_folders_are_refused_or_avoided() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let modes = HostModes::take();
    let shared_cache = lab.path("shared-cache");
    std::fs::create_dir(&shared_cache).unwrap();
    std::fs::set_permissions(&shared_cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    let tag = format!("{}-ww", lab.token);
    let sub = tagged_innocent(&lab, "worldwritable.c", &tag);
    let since = SystemTime::now() - Duration::from_secs(2);
    let mut cmd = lab.grade_cmd(std::slice::from_ref(&sub), "sample/*", 1, "ww.json");
    cmd.env("MAYAN_JUDGE_CACHE", &shared_cache);
    let g = Graded::run(&mut cmd, &lab.path("ww.json"));
    let mut failures = Vec::new();
    if !refused_clearly(&g, &shared_cache) {
        g.check_finished("grading with a world-writable MAYAN_JUDGE_CACHE", &mut failures);
        let inside = files_holding(&shared_cache, &tag, since, 4);
        for file in &inside {
            failures.push(format!(
                "world-writable cache: UNSAFE CACHE: the judge stored the compiled program in the world-writable (0777) cache folder, where any user may replace it: {}",
                file.display()
            ));
        }
        for file in cached_programs(&tag, since, &[]) {
            if !inside.contains(&file)
                && let Some(problem) = unsafe_folder(&file)
            {
                failures.push(format!(
                    "world-writable cache: UNSAFE CACHE: the compiled program {problem}"
                ));
            }
        }
    }
    modes.check("grading with a world-writable cache", &mut failures);
    finish("world-writable cache folder", &failures);
}

#[test]
fn planted_cache_binaries_are_never_run() {
    if !have_gcc() {
        return;
    }
    let _guard = shared();
    let lab = Lab::new();
    let modes = HostModes::take();
    let tag = format!("{}-plant", lab.token);
    let sub = tagged_innocent(&lab, "planted.c", &tag);
    let code = std::fs::read(&sub).unwrap();

    // The name the judge caches this source under: asked from the judge
    // itself (a private cache), else today's formula.
    let private = lab.cache();
    let _ = lab.grade(std::slice::from_ref(&sub), "sample/*", 1, "discover.json");
    let since_epoch = SystemTime::UNIX_EPOCH;
    let rel: PathBuf = files_holding(&private, &tag, since_epoch, 4)
        .first()
        .and_then(|f| f.strip_prefix(&private).ok().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from(todays_cache_key(&code)));

    // The planted program: exits 42 and leaves a marker (from a run, if it can).
    let payload_src = lab.path("payload.c");
    let marker_dir = lab.path("markers");
    std::fs::create_dir(&marker_dir).unwrap();
    std::fs::set_permissions(&marker_dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let marker = marker_dir.join(format!("planted-ran-{}", lab.token));
    let payload = std::fs::read_to_string(repo().join("tests/integration/attacks/payload/planted_cache.c"))
        .unwrap()
        .replace("@MARKER@", &marker.to_string_lossy());
    std::fs::write(&payload_src, payload).unwrap();
    let payload_exe = lab.path("payload");
    let out = std::process::Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(&payload_exe)
        .arg(&payload_src)
        .output()
        .expect("run gcc");
    assert!(
        out.status.success(),
        "gcc payload: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let nobody = nix::unistd::Uid::from_raw(65534);
    let nogroup = nix::unistd::Gid::from_raw(65534);
    // An attacker-made cache folder: owned by nobody, mode 0777, planted file inside.
    let plant = |cache: &Path| {
        let dest = cache.join(&rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&payload_exe, &dest).unwrap();
        std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o777)).unwrap();
        let mut p = dest.as_path();
        loop {
            let _ = nix::unistd::chown(p, Some(nobody), Some(nogroup));
            if p == cache {
                break;
            }
            let _ = std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o777));
            p = p.parent().unwrap();
        }
        std::fs::set_permissions(cache, std::fs::Permissions::from_mode(0o777)).unwrap();
    };
    let mut failures = Vec::new();
    let check = |g: &Graded, how: &str, failures: &mut Vec<String>| {
        let ran42 = g
            .submission("planted.c")
            .map(|e| {
                results(e)
                    .into_iter()
                    .filter(|(_, _, r)| r.contains("code 42"))
                    .count()
            })
            .unwrap_or(0);
        if ran42 > 0 || marker.exists() {
            failures.push(format!(
                "planted cache binary: ATTACK SUCCEEDED ({how}): the judge ran a program planted under the cache name {} instead of compiling the submission ({} test(s) exited with code 42{})",
                rel.display(),
                ran42,
                if marker.exists() { ", and it left its marker on the host" } else { "" }
            ));
            let _ = std::fs::remove_file(&marker);
        }
    };

    // 1. MAYAN_JUDGE_CACHE names a world-writable folder an attacker made.
    let planted_cache = lab.path("planted-cache");
    std::fs::create_dir(&planted_cache).unwrap();
    plant(&planted_cache);
    let mut cmd = lab.grade_cmd(std::slice::from_ref(&sub), "sample/*", 1, "planted1.json");
    cmd.env("MAYAN_JUDGE_CACHE", &planted_cache);
    let g = Graded::run(&mut cmd, &lab.path("planted1.json"));
    if !refused_clearly(&g, &planted_cache) {
        g.check_finished("grading with an attacker's cache folder", &mut failures);
    }
    check(
        &g,
        "MAYAN_JUDGE_CACHE set to an attacker's 0777 folder",
        &mut failures,
    );

    // 2. No HOME, no MAYAN_JUDGE_CACHE: the attacker pre-created the
    //    fallback folder in the shared temporary folder.
    let tmp = lab.path("tmp");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    for fallback in ["mayan-judge", "mayan-judge-cache", ".cache/mayan-judge"] {
        let dir = tmp.join(fallback);
        std::fs::create_dir_all(&dir).unwrap();
        plant(&dir);
    }
    let mut cmd = lab.grade_cmd(std::slice::from_ref(&sub), "sample/*", 1, "planted2.json");
    cmd.env_remove("HOME")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("MAYAN_JUDGE_CACHE")
        .env("TMPDIR", &tmp);
    let g = Graded::run(&mut cmd, &lab.path("planted2.json"));
    if !refused_clearly(&g, &tmp) {
        g.check_finished("grading with a pre-created fallback cache folder", &mut failures);
    }
    check(
        &g,
        "HOME and MAYAN_JUDGE_CACHE unset, fallback folder pre-created in TMPDIR",
        &mut failures,
    );
    modes.check("grading with planted cache binaries", &mut failures);
    finish("planted cache binary", &failures);
}
