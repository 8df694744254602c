//! A judge killed with SIGKILL, mid-run and mid-compile: nothing it started
//! goes on running, and the next judge's start removes what it left.
//!
//! The run's init (PID 1 of the run's pid namespace) asks for SIGKILL when
//! the judge dies (`PR_SET_PDEATHSIG`, `src/judge/sandbox/child.rs`), and
//! its death makes the kernel kill every process of the run, a compiler's
//! `cc1plus` as well as a program. Nothing else would: the judge's watchdog
//! died with it, a paused program uses no CPU time (`RLIMIT_CPU`), and a
//! compiler has a minute of it.
//!
//! Each test finds its run from the host by a fresh token: the program
//! names itself with it (`prctl(PR_SET_NAME)`), and the compiled source
//! carries it in its file name, which the command lines of the compiler
//! (`g++`, `cc1plus`) and the run's init (a copy of the judge) show.
//! The judge is this test's own child, killed by pid (no shell between).

use crate::util::{run_cgroups, wait_for};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const JUDGE: &str = env!("CARGO_BIN_EXE_mayan-judge");

/// How long a run may take to show up (a compilation included).
const START: Duration = Duration::from_secs(30);
/// How long the run may live on once the judge is dead.
const GONE: Duration = Duration::from_secs(5);

/// A program that names itself with the token and waits forever, using
/// no CPU time.
const PAUSE_C: &str = "#define _GNU_SOURCE\n#include <sys/prctl.h>\n#include <unistd.h>\n\
int main(void) { prctl(PR_SET_NAME, \"@TOKEN@\"); for (;;) pause(); }\n";

/// A source g++ takes minutes over (each constant's evaluation runs to
/// GCC's operation limit, seconds each), under its one-minute CPU limit.
const SLOW_CPP: &str = "// @TOKEN@\n\
constexpr unsigned long spin(unsigned long k) {\n\
    unsigned long s = k;\n\
    for (unsigned long i = 0; i < 200000; ++i)\n\
        for (unsigned long j = 0; j < 200000; ++j) s += i ^ j;\n\
    return s;\n\
}\n\
template <unsigned long K> constexpr unsigned long v = spin(K);\n\
template <unsigned long... K> constexpr unsigned long sum = (v<K> + ...);\n\
int main() { return (int)(sum<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16> & 1); }\n";

/// One test's folder (sources, cache, the judge's temp folder) and token.
struct Lab {
    dir: tempfile::TempDir,
    token: String,
}

impl Lab {
    fn new() -> Lab {
        Lab {
            dir: tempfile::Builder::new().prefix("mj-killed-").tempdir().unwrap(),
            token: format!("mjk{:08x}", fastrand::u32(..)),
        }
    }

    /// Where the judges of this test make their work folders (`TMPDIR`).
    fn tmp(&self) -> PathBuf {
        self.dir.path().join("tmp")
    }

    /// Writes `text` with the token filled in as `name`.
    fn source(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text.replace("@TOKEN@", &self.token)).unwrap();
        path
    }

    /// `mayan-judge grade` of `file` on one test.
    fn grade(&self, file: &Path, test: &str) -> Command {
        std::fs::create_dir_all(self.tmp()).unwrap();
        let mut cmd = Command::new(JUDGE);
        cmd.current_dir(crate::util::manifest())
            .env("MAYAN_JUDGE_CACHE", self.dir.path().join("cache"))
            .env("TMPDIR", self.tmp())
            .args(["grade", "--quiet", "--tests", test, "--problem"])
            .arg(crate::util::manifest().join("problems/mayan"))
            .arg(file)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        cmd
    }
}

/// Kills whatever carries the token when dropped, so that a failing test
/// leaves nothing running.
struct KillMarked(String);

impl Drop for KillMarked {
    fn drop(&mut self) {
        for _ in 0..50 {
            let left = marked(&self.0, 0);
            if left.is_empty() {
                return;
            }
            for (pid, _) in left {
                let _ = nix::sys::signal::kill(
                    nix::unistd::Pid::from_raw(pid),
                    nix::sys::signal::Signal::SIGKILL,
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Live (not zombie) processes other than `except` whose name starts with
/// `token` or whose command line holds it, with their names.
fn marked(token: &str, except: i32) -> Vec<(i32, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = &stat[open + 1..close];
        let state = stat[close + 1..].trim_start().chars().next().unwrap_or('Z');
        let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
        let in_cmdline = String::from_utf8_lossy(&cmdline).contains(token);
        if pid != except && !matches!(state, 'Z' | 'X') && (comm.starts_with(token) || in_cmdline) {
            out.push((pid, comm.to_string()));
        }
    }
    out
}

/// Work folders of the judge `pid` in `dir`.
fn work_folders(dir: &Path, pid: u32) -> Vec<PathBuf> {
    let prefix = format!("mayan-judge-{pid}-");
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect()
}

/// Starts `grade` on `file`, waits until a process carrying the lab's token
/// and named `running*` runs (`what`), kills the judge with SIGKILL, and
/// checks that nothing carrying the token is left after [`GONE`] and that
/// the next judge's start leaves nothing of the run: no run cgroup, no
/// work folder.
fn kill_the_judge_while(lab: &Lab, file: &Path, running: &str, what: &str) {
    let _cleanup = KillMarked(lab.token.clone());
    let mut judge: Child = lab.grade(file, "sample/1").spawn().expect("start the judge");
    let pid = judge.id();
    let is_running = |seen: &[(i32, String)]| seen.iter().any(|(_, name)| name.starts_with(running));
    let started = wait_for(START, || {
        is_running(&marked(&lab.token, pid as i32)) || judge.try_wait().ok().flatten().is_some()
    });
    let seen = marked(&lab.token, pid as i32);
    // What the killed judge leaves, seen while the run lives (another
    // judge starting meanwhile may already remove it after the kill).
    let cgroups = run_cgroups(pid);
    let folders = work_folders(&lab.tmp(), pid);
    let _ = judge.kill(); // SIGKILL
    let _ = judge.wait();
    assert!(
        started && is_running(&seen),
        "{what}: no {running}* carrying {} ran within {START:?} (seen: {seen:?}); the check is void",
        lab.token
    );
    let mut left = Vec::new();
    wait_for(GONE, || {
        left = marked(&lab.token, pid as i32);
        left.is_empty()
    });
    assert!(
        left.is_empty(),
        "{what}: {GONE:?} after the judge was killed with SIGKILL, its run still lives: {left:?} (seen before: {seen:?})"
    );
    assert!(
        !folders.is_empty(),
        "{what}: no work folder seen; the check is void"
    );
    if Path::new("/sys/fs/cgroup/pids").is_dir() {
        assert!(
            !cgroups.is_empty(),
            "{what}: no run cgroup seen; the check is void"
        );
    }
    let accepted = crate::util::manifest().join("reference/mayan/accepted/solution.c");
    let next = lab.grade(&accepted, "sample/1").status().unwrap();
    assert_eq!(next.code(), Some(0), "{what}: the next judge failed");
    let cgroups = run_cgroups(pid);
    assert!(
        cgroups.is_empty(),
        "{what}: run cgroups of the killed judge, still there after the next start: {cgroups:?}"
    );
    let folders = work_folders(&lab.tmp(), pid);
    assert!(
        folders.is_empty(),
        "{what}: work folders of the killed judge, still there after the next start: {folders:?}"
    );
}

/// Whether the runs here are isolated (a pid namespace each): as root.
fn isolated_runs() -> bool {
    let root = nix::unistd::geteuid().is_root();
    if !root {
        crate::util::skip("the judge isolates runs (a pid namespace each) as root only here");
    }
    root
}

#[test]
fn a_judge_killed_mid_run_leaves_no_program_running_and_nothing_the_next_start_keeps() {
    if !isolated_runs() || !crate::util::have("gcc") {
        return;
    }
    let lab = Lab::new();
    let program = lab.source("pause.c", PAUSE_C);
    kill_the_judge_while(&lab, &program, &lab.token, "mid-run (a paused program)");
}

#[test]
fn a_judge_killed_mid_compile_leaves_no_compiler_running_and_nothing_the_next_start_keeps() {
    if !isolated_runs() || !crate::util::have("g++") {
        return;
    }
    let lab = Lab::new();
    let source = lab.source(&format!("{}.cpp", lab.token), SLOW_CPP);
    // The compiler proper, past the driver: cc1plus.
    kill_the_judge_while(&lab, &source, "cc1plus", "mid-compile (g++ on a slow constexpr)");
}
