//! What the test modules share: the `mayan-judge` command, the tools a test
//! needs (and what happens when one is missing), common boards and file
//! helpers.
//!
//! A missing tool never lets a test pass silently: with
//! `MAYAN_JUDGE_REQUIRE_TOOLS=1` (which `.ci/run` sets) it fails the test,
//! naming the tool and how to install it; without the variable the test
//! prints `SKIP: <test>: <tool> is not installed (<how>)` and returns.
//! Installing is `.ci/run`'s job, never a test's.

use assert_cmd::Command;
use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// `mayan-judge` as a user runs it, stopped after 300 s.
pub fn judge() -> Command {
    judge_within(300)
}

/// `mayan-judge`, stopped after `secs` seconds.
pub fn judge_within(secs: u64) -> Command {
    let mut c = Command::cargo_bin("mayan-judge").expect("binary built");
    c.timeout(Duration::from_secs(secs));
    c
}

/// The crate's root (where `problems/`, `testdata/`, `reference/` are).
pub fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where this checkout keeps its build output (`target/`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            // target/debug/deps/integration-HASH
            std::env::current_exe()
                .ok()
                .and_then(|exe| exe.ancestors().nth(3).map(Path::to_path_buf))
        })
        .unwrap_or_else(|| manifest().join("target"))
}

// ---- boards -----------------------------------------------------------------

/// Official case 4 (n = 3).
pub const CASE4: &str = "3\n1 2 2 3 2 0\n1 4 1 3 4 0\n5 1 4 1 3 3 0\n1 5 3 5 3 5 0\n4 4 3 4 4 0\n";
/// Its smallest solution.
pub const CASE4_ANSWER: &str = "2 0 1\n1 1 1\n3 4 -1\n";
/// A valid output for CASE4 that leaves blocks (WA).
pub const CASE4_WRONG: &str = "2 0 1\n1 1 1\n4 0 -1\n";

/// How many tests the bundled problem has (`testdata/mayan/**/*.in`), so
/// tests that count them follow the package.
pub fn bundled_tests() -> usize {
    walkdir::WalkDir::new(manifest().join("testdata/mayan"))
        .into_iter()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "in"))
        .count()
}

// ---- files ------------------------------------------------------------------

/// Writes `text` to `path`, creating its folders.
pub fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Writes `text` to `dir/name`; the file's path.
pub fn write_in(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    write(&p, text);
    p
}

/// A file named `name` in a folder of PATH.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

// ---- tools ------------------------------------------------------------------

/// Whether a missing tool fails the test (`MAYAN_JUDGE_REQUIRE_TOOLS=1`).
pub fn tools_required() -> bool {
    std::env::var("MAYAN_JUDGE_REQUIRE_TOOLS").is_ok_and(|v| v == "1")
}

/// The tools tests use: the names to look for on PATH, and the command that
/// installs it.
const TOOLS: &[(&str, &[&str], &str)] = &[
    ("gcc", &["gcc"], "`apt-get install gcc`"),
    ("g++", &["g++"], "`apt-get install g++`"),
    (
        "rustc",
        &["rustc"],
        "rustup (https://rustup.rs) or `apt-get install rustc`",
    ),
    ("python3", &["python3"], "`apt-get install python3`"),
    (
        "pypy3",
        &["pypy3"],
        "`apt-get install pypy3` (Kattis runs Python 3 with PyPy); .ci/run does it",
    ),
    (
        "chromium",
        &["chromium", "chromium-browser", "google-chrome"],
        "`apt-get install chromium`; .ci/run does it",
    ),
    (
        "xelatex",
        &["xelatex"],
        "`apt-get install texlive-xetex texlive-lang-chinese` (the Chinese statement's printable document); .ci/run does it",
    ),
    (
        "chromedriver",
        &["chromedriver"],
        "`apt-get install chromium-driver`; .ci/run does it",
    ),
    (
        "verifyproblem",
        &["verifyproblem"],
        "`python3 -m venv target/problemtools-venv && target/problemtools-venv/bin/pip install problemtools` \
         and target/problemtools-venv/bin on PATH; .ci/run does both",
    ),
    (
        "testlib.h",
        &[],
        "`.ci/run`, which copies testlib 0.9.21 from the syzoj-tools 0.2.1 wheel (PyPI) \
         to target/testlib/testlib.h; or set MAYAN_TESTLIB_H to a testlib.h",
    ),
    (
        "dmoj",
        &[],
        "`.ci/run`, which installs dmoj 4.1.0 into target/dmoj-venv (apt: libseccomp-dev; \
         pip: cython, setuptools<70, wheel, then dmoj==4.1.0 --no-build-isolation)",
    ),
];

/// The test running now (libtest names its thread after it), or the caller.
#[track_caller]
fn current_test() -> String {
    match std::thread::current().name() {
        Some(name) if name != "main" => name.to_string(),
        _ => std::panic::Location::caller().to_string(),
    }
}

/// What a test does when something it needs is missing: fails with
/// `MAYAN_JUDGE_REQUIRE_TOOLS=1`, else prints why it skips. `what` says
/// what is missing ("gcc is not installed"), `how` how to get it ("install
/// it with ...").
#[track_caller]
pub fn missing(tool: &str, what: &str, how: &str) {
    if tools_required() {
        panic!("missing tool {tool}: {how} ({what}; MAYAN_JUDGE_REQUIRE_TOOLS=1 makes this a failure)");
    }
    eprintln!("SKIP: {}: {what} ({how})", current_test());
}

/// Skips for a reason that is not a missing tool (what the kernel offers:
/// cgroups, namespaces), which no install fixes: `SKIP: <test>: <why>`.
#[track_caller]
pub fn skip(why: &str) {
    eprintln!("SKIP: {}: {why}", current_test());
}

/// A tool from [`TOOLS`] on PATH, or `None` after [`missing`] (which fails
/// the test when tools are required). The tool's own problemtools venv in
/// `target/` counts for `verifyproblem`; `testlib.h` is the header's path
/// and `dmoj` the Python of DMOJ's venv, both under `target/`.
#[track_caller]
pub fn tool(name: &str) -> Option<PathBuf> {
    let &(_, candidates, how) = TOOLS
        .iter()
        .find(|(n, ..)| *n == name)
        .unwrap_or_else(|| panic!("unknown tool {name}: add it to TOOLS in tests/integration/util.rs"));
    let mut found = candidates.iter().find_map(|c| on_path(c));
    if found.is_none() && name == "verifyproblem" {
        found = Some(target_dir().join("problemtools-venv/bin/verifyproblem")).filter(|p| p.is_file());
    }
    // Tools installed under target/ by .ci/run, never on PATH.
    if name == "testlib.h" {
        found = std::env::var_os("MAYAN_TESTLIB_H")
            .map(PathBuf::from)
            .unwrap_or_else(|| target_dir().join("testlib/testlib.h"))
            .canonicalize()
            .ok();
    }
    if name == "dmoj" {
        // The venv's Python runs the judge (`python -m dmoj.testsuite`).
        found = Some(target_dir().join("dmoj-venv/bin/python"))
            .filter(|p| p.is_file() && target_dir().join("dmoj-venv/bin/dmoj").is_file());
    }
    if found.is_none() {
        missing(
            name,
            &format!("{name} is not installed"),
            &format!("install it with {how}"),
        );
    }
    found
}

/// The stdout of a command run with `--quiet`, after checking that it
/// succeeded and printed nothing on stderr (no progress).
#[track_caller]
pub fn quiet_success(out: &std::process::Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.trim().is_empty(), "--quiet printed progress: {stderr}");
    stdout
}

/// Like [`tool`], for tests that only need the tool to be there.
#[track_caller]
pub fn have(name: &str) -> bool {
    tool(name).is_some()
}

/// The official NOIP 2011 data beside the project (`../shared/noip2011-mayan`,
/// or `MAYAN_OFFICIAL_DIR`); missing, it is treated like a missing tool.
#[track_caller]
pub fn official_data() -> Option<PathBuf> {
    let dir = std::env::var_os("MAYAN_OFFICIAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest().join("../shared/noip2011-mayan"));
    if dir.join("mayan1.in").exists() {
        return Some(dir);
    }
    missing(
        "official data",
        &format!("the official NOIP 2011 data is not at {}", dir.display()),
        "put the shared folder (with noip2011-mayan/) beside this checkout, \
         or set MAYAN_OFFICIAL_DIR to a folder holding mayan1.in ... mayan10.ans",
    );
    None
}

// ---- phases -----------------------------------------------------------------

static PHASE: Mutex<(Option<&'static str>, usize)> = Mutex::new((None, 0));
static PHASE_CHANGED: Condvar = Condvar::new();

/// Held while a test of one phase runs.
pub struct PhaseGuard;

/// Waits until no test of another phase runs, then holds `name`. Tests of
/// one phase run side by side; the `sandbox` tests (fork bombs, memory
/// eaters: load) and the `stress` tests (thousands of sandboxed runs, each
/// judged under a time limit) never overlap, as when they were two
/// binaries. Runs cannot reach each other (a uid and a pid namespace per
/// run, see the attack suite): this only keeps the machine's load down.
pub fn phase(name: &'static str) -> PhaseGuard {
    let mut state = PHASE.lock().unwrap_or_else(|e| e.into_inner());
    while state.0.is_some_and(|held| held != name) {
        state = PHASE_CHANGED.wait(state).unwrap_or_else(|e| e.into_inner());
    }
    *state = (Some(name), state.1 + 1);
    PhaseGuard
}

impl Drop for PhaseGuard {
    fn drop(&mut self) {
        let mut state = PHASE.lock().unwrap_or_else(|e| e.into_inner());
        state.1 -= 1;
        if state.1 == 0 {
            state.0 = None;
            PHASE_CHANGED.notify_all();
        }
    }
}

// ---- processes ------------------------------------------------------------

/// Waits up to `wait` for `ready`, checking every 20 ms; whether it came.
pub fn wait_for(wait: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let deadline = std::time::Instant::now() + wait;
    loop {
        if ready() {
            return true;
        }
        if std::time::Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Run cgroups of the judge `pid` (`mayan-judge-<pid>-<n>`), in any hierarchy.
pub fn run_cgroups(pid: u32) -> Vec<PathBuf> {
    let prefix = format!("mayan-judge-{pid}-");
    walkdir::WalkDir::new("/sys/fs/cgroup")
        .max_depth(5)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_dir() && e.file_name().to_string_lossy().starts_with(&prefix))
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// Chromium's flags for a headless run on a machine with no network and
/// no display (without the background-networking ones its connections are
/// refused); a fresh `--user-data-dir` goes with them.
pub const CHROMIUM_HEADLESS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

/// Judges `cases` in two workers, each in a folder of its own under `work`
/// (`0` and `1`), for tests whose cases mostly wait for process starts:
/// `judge` gets its folder and its half of the cases, in order, and the
/// answers come back in the cases' order.
pub fn in_two_workers<C: Sync, R: Send>(
    work: &Path,
    cases: &[C],
    judge: impl Fn(&Path, &[C]) -> Vec<R> + Sync,
) -> Vec<R> {
    std::thread::scope(|s| {
        let workers: Vec<_> = cases
            .chunks(cases.len().div_ceil(2).max(1))
            .enumerate()
            .map(|(w, chunk)| {
                let dir = work.join(w.to_string());
                std::fs::create_dir(&dir).unwrap();
                let judge = &judge;
                s.spawn(move || judge(&dir, chunk))
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    })
}

/// `mayan-judge grade --contest DIR --csv CSV` on the bundled problem
/// (trusted, quiet, its compile cache in `DIR/cache`): the marks of a
/// contest folder as a teacher writes them.
pub fn grade_contest_to_csv(dir: &Path, csv: &Path) -> std::process::Output {
    judge()
        .env("MAYAN_JUDGE_CACHE", dir.join("cache"))
        .args(["grade", "--quiet", "--trusted", "--contest"])
        .arg(dir)
        .arg("--problem")
        .arg(manifest().join("problems/mayan"))
        .arg("--csv")
        .arg(csv)
        .output()
        .unwrap()
}
