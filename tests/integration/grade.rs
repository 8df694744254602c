//! `mayan-judge grade`, run as a user runs it: verdicts for programs that
//! misbehave in every way we could think of, with the judge finishing in
//! bounded time and no process left behind; and the grader's features.

use crate::util::{CASE4, CASE4_ANSWER, have, judge_within, write_in};
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Far above what grading one test takes, even with a hostile program.
const GRADE_TIMEOUT: u64 = 120;

/// A one-test package with tight limits (1 s, 64 MiB, 64 KiB of output),
/// and a private compile cache.
pub(crate) struct Fixture {
    pub(crate) dir: tempfile::TempDir,
}

impl Fixture {
    pub(crate) fn new() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("problems/p");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(
            pkg.join("problem.toml"),
            "name = \"p\"\ntitle = \"P\"\n[limits]\ntime_ms = 1000\nmemory_mib = 64\noutput_kib = 64\n",
        )
        .unwrap();
        let tests = dir.path().join("testdata/p/secret");
        write_in(&tests, "1.in", CASE4);
        write_in(&tests, "1.ans", CASE4_ANSWER);
        Fixture { dir }
    }

    pub(crate) fn package(&self) -> PathBuf {
        self.dir.path().join("problems/p")
    }

    pub(crate) fn write(&self, name: &str, text: &str) -> PathBuf {
        write_in(self.dir.path(), name, text)
    }

    pub(crate) fn grade(&self, submission: &Path) -> Command {
        let mut c = judge_within(GRADE_TIMEOUT);
        c.env("MAYAN_JUDGE_CACHE", self.dir.path().join("cache"))
            .arg("grade")
            .arg("--problem")
            .arg(self.package())
            .arg(submission);
        c
    }

    /// Grades and returns the one test's verdict line and the elapsed time.
    pub(crate) fn verdict_of(&self, submission: &Path) -> (String, Duration) {
        let start = Instant::now();
        let out = self.grade(submission).arg("--quiet").output().unwrap();
        (result_line(&out), start.elapsed())
    }
}

/// Whether `line` of the terminal's report is test `name`'s (`#N name ...`:
/// tests are numbered there).
pub(crate) fn is_line_of(line: &str, name: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next().is_some_and(|n| n.starts_with('#')) && words.next() == Some(name)
}

/// The one test's verdict line in what `grade --quiet` printed.
#[track_caller]
pub(crate) fn result_line(out: &std::process::Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    stdout
        .lines()
        .find(|l| is_line_of(l, "secret/1"))
        .unwrap_or_else(|| {
            panic!(
                "no result line in {stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
        .to_string()
}

/// Processes whose name (comm) is `token`: what a hostile program left.
fn survivors(token: &str) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        if let Ok(comm) = std::fs::read_to_string(entry.path().join("comm"))
            && comm.trim() == token
        {
            out.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    out
}

/// A C program that first renames itself to a unique token (children
/// inherit it), then runs `body`.
fn hostile(name: &str, body: &str) -> (String, String) {
    let token: String = format!("mj{}{}", &name[..name.len().min(8)], std::process::id() % 10000);
    let src = format!(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\n#include <signal.h>\n#include <sys/prctl.h>\nint main(void) {{ prctl(PR_SET_NAME, \"{token}\"); {body} }}\n"
    );
    (token, src)
}

fn assert_hostile(name: &str, body: &str, verdict: &str, reason: &str) {
    if !have("gcc") {
        return;
    }
    let f = Fixture::new();
    let (token, src) = hostile(name, body);
    let file = f.write(&format!("{name}.c"), &src);
    let (line, elapsed) = f.verdict_of(&file);
    assert!(
        line.contains(&format!(" {verdict} ")),
        "{name}: expected {verdict}, got `{line}`"
    );
    assert!(line.contains(reason), "{name}: expected `{reason}` in `{line}`");
    assert!(elapsed < Duration::from_secs(30), "{name}: took {elapsed:?}");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(
        survivors(&token),
        Vec::<String>::new(),
        "{name}: processes left behind"
    );
}

#[test]
fn an_infinite_loop_is_tle() {
    // "over": on a loaded machine the spin may get under a third of a core,
    // and its wall limit (twice the limit and a second) stops it first.
    assert_hostile("spin", "for (;;) {} return 0;", "TLE", " over ");
}

#[test]
fn an_endless_loop_is_stopped_under_1_1x_its_limit_and_not_run_again() {
    if !have("gcc") {
        return;
    }
    let f = Fixture::new();
    let file = f.write("spin.c", "int main(void) { for (;;) {} }\n");
    let json = f.dir.path().join("spin.json");
    // --retry-tle 1 (the default, said here): a TLE close to the limit would
    // be run again; an endless loop is not close.
    f.grade(&file)
        .args(["--quiet", "--retry-tle", "1", "--json"])
        .arg(&json)
        .assert()
        .code(1);
    let report: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let limit = report["time_limit_ms"].as_u64().unwrap();
    let test = &report["submissions"][0]["tests"][0];
    assert_eq!(test["verdict"], "TLE", "{test}");
    // The run's own figures against the report's limits (never this test's
    // clock): CPU time under 1.1x the limit, wall time under 1.1x the wall
    // limit (twice the limit and a second).
    let (cpu, wall) = (
        test["time_ms"].as_u64().unwrap(),
        test["wall_ms"].as_u64().unwrap(),
    );
    assert!(
        cpu * 10 <= limit * 11,
        "CPU {cpu} ms over 1.1x of {limit} ms: {test}"
    );
    assert!(wall * 10 <= (2 * limit + 1000) * 11, "wall {wall} ms: {test}");
    let reason = test["reason"].as_str().unwrap();
    if reason.starts_with("CPU time over") {
        // Stopped at the cap: far over, not run again. A run before it may
        // only be one that a loaded machine starved (stopped by the wall
        // clock under the limit): the reason lists each earlier run's CPU
        // time, and a run stopped at the cap would show one over the limit.
        assert!(cpu >= limit, "stopped before the limit: {test}");
        if test["runs"] != 1 {
            let earlier = reason
                .split("TLE close to the limit before (")
                .nth(1)
                .unwrap_or_else(|| panic!("run again, no earlier times: {test}"));
            for ms in earlier.trim_end_matches(")]").split(", ") {
                let ms: u64 = ms.trim_end_matches(" ms").parse().unwrap();
                assert!(ms < limit, "a run stopped at the cap was run again: {test}");
            }
            eprintln!("note: a starved first run, stopped by the wall clock: {test}");
        }
    } else {
        // A machine so loaded that the loop got under a third of a core ran
        // out of wall time first: that is what a retry is for.
        eprintln!("note: a starved run, stopped by the wall clock: {test}");
    }
}

#[test]
fn sleeping_forever_is_tle_on_wall_time() {
    assert_hostile("sleeper", "for (;;) pause(); return 0;", "TLE", "wall time");
}

#[test]
fn a_fork_bomb_does_not_take_the_machine_down() {
    // Whatever the verdict, the judge ends in time and every fork is gone.
    if !have("gcc") {
        return;
    }
    let f = Fixture::new();
    let (token, src) = hostile("forkbomb", "for (;;) fork(); return 0;");
    let file = f.write("forkbomb.c", &src);
    let (line, elapsed) = f.verdict_of(&file);
    assert!(!line.contains(" AC "), "{line}");
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(survivors(&token), Vec::<String>::new());
}

#[test]
fn touching_4_gib_is_mle() {
    assert_hostile(
        "hog",
        // volatile: otherwise gcc drops an allocation that is never read.
        "size_t n = (size_t)4 << 30; volatile char *p = malloc(n); if (!p) abort(); for (size_t i = 0; i < n; i += 4096) p[i] = 1; return 0;",
        "MLE",
        "memory over 64 MiB",
    );
}

#[test]
fn printing_without_end_is_ole() {
    assert_hostile(
        "chatty",
        "for (;;) puts(\"0 0 1\"); return 0;",
        "OLE",
        "output over 64 KiB",
    );
}

#[test]
fn a_child_that_outlives_its_parent_is_killed() {
    assert_hostile(
        "orphan",
        "if (fork() == 0) { for (;;) pause(); } puts(\"-1\"); return 0;",
        "WA",
        "answer is -1 but a solution exists",
    );
}

#[test]
fn a_segfault_is_re_with_the_signal() {
    assert_hostile("segv", "volatile int *p = 0; *p = 1; return 0;", "RE", "SIGSEGV");
}

#[test]
fn abort_is_re_with_the_signal() {
    assert_hostile("abort", "abort();", "RE", "SIGABRT");
}

#[test]
fn division_by_zero_is_re_with_the_signal() {
    // Both volatile: gcc turns 1 / z into comparisons, with no division at all.
    assert_hostile(
        "divzero",
        "volatile int a = 7, z = 0; return a / z;",
        "RE",
        "SIGFPE",
    );
}

#[test]
fn a_nonzero_exit_code_is_re() {
    assert_hostile("exit3", "puts(\"-1\"); return 3;", "RE", "exit code 3");
}

#[test]
fn closing_stdout_at_once_is_pe() {
    assert_hostile("closer", "close(1); return 0;", "PE", "empty output");
}

#[test]
fn binary_garbage_is_pe() {
    assert_hostile(
        "garbage",
        "for (int i = 0; i < 3000; i++) putchar((i * 37) & 255); return 0;",
        "PE",
        "",
    );
}

#[test]
fn reading_stdin_past_its_end_is_fine() {
    assert_hostile(
        "reader",
        "int c; while ((c = getchar()) != EOF) {} while (getchar() != EOF) {} puts(\"2 0 1\\n1 1 1\\n3 4 -1\"); return 0;",
        "AC",
        "correct",
    );
}

#[test]
fn writing_a_file_in_the_work_folder_is_allowed() {
    assert_hostile(
        "writer",
        "FILE *f = fopen(\"scratch.txt\", \"w\"); if (!f) return 9; fputs(\"x\", f); fclose(f); puts(\"2 0 1\\n1 1 1\\n3 4 -1\"); return 0;",
        "AC",
        "correct",
    );
}

// ---- The grader's features -------------------------------------------------

#[test]
fn a_compile_error_is_ce_with_the_compilers_message() {
    if !have("gcc") {
        return;
    }
    let f = Fixture::new();
    let file = f.write("broken.c", "int main(void) { return undefined_thing; }\n");
    f.grade(&file).assert().code(1).stdout(
        predicate::str::contains("CE: compilation failed").and(predicate::str::contains("undefined_thing")),
    );
}

#[test]
fn a_missing_compiler_is_a_configuration_error_naming_it() {
    let f = Fixture::new();
    std::fs::write(
        f.package().join("languages.toml"),
        "[[language]]\nname = \"c\"\nextensions = [\"c\"]\ncompile = [\"no-such-cc\", \"{src}\"]\nrun = [\"{exe}\"]\n",
    )
    .unwrap();
    let file = f.write("a.c", "int main(void) { return 0; }\n");
    f.grade(&file).assert().code(2).stdout(predicate::str::contains(
        "compiler `no-such-cc` for c is not installed",
    ));
}

#[test]
fn grading_twice_compiles_once_and_writes_a_json_report() {
    if !have("gcc") {
        return;
    }
    let f = Fixture::new();
    let file = f.write(
        "ok.c",
        "#include <stdio.h>\nint main(void) { puts(\"2 0 1\\n1 1 1\\n3 4 -1\"); return 0; }\n",
    );
    let json = f.dir.path().join("report.json");
    for expect_cached in [false, true] {
        f.grade(&file).arg("--json").arg(&json).assert().code(0);
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        assert_eq!(v["schema_version"], 1);
        let s = &v["submissions"][0];
        assert_eq!(s["compiled_from_cache"], expect_cached);
        assert_eq!(s["score"], 10);
        assert_eq!(s["tests"][0]["verdict"], "AC");
        assert!(s["tests"][0]["memory_kib"].as_u64().unwrap() > 0);
    }
}

#[test]
fn a_wrong_answer_shows_a_diff_against_the_reference() {
    if !have("gcc") {
        return;
    }
    let f = Fixture::new();
    let file = f.write(
        "wa.c",
        "#include <stdio.h>\nint main(void) { puts(\"2 0 1\\n1 1 1\\n4 0 -1\"); return 0; }\n",
    );
    f.grade(&file).arg("--quiet").assert().code(1).stdout(
        predicate::str::contains("after 3 moves the board still holds 21 blocks")
            .and(predicate::str::contains("-3 4 -1"))
            .and(predicate::str::contains("+4 0 -1")),
    );
}

#[test]
fn a_folder_of_submissions_gets_a_summary_table() {
    if !have("gcc") {
        return;
    }
    let f = Fixture::new();
    let class = f.dir.path().join("class");
    std::fs::create_dir(&class).unwrap();
    std::fs::write(
        class.join("alice.c"),
        "#include <stdio.h>\nint main(void){puts(\"2 0 1\\n1 1 1\\n3 4 -1\");return 0;}\n",
    )
    .unwrap();
    std::fs::write(
        class.join("bob.c"),
        "#include <stdio.h>\nint main(void){puts(\"-1\");return 0;}\n",
    )
    .unwrap();
    std::fs::write(class.join("notes.txt"), "not a submission").unwrap();
    f.grade(&class).assert().code(1).stdout(
        predicate::str::contains("summary (2 submissions)")
            .and(predicate::str::is_match(r"alice\.c\s+10/10\s+1 AC").unwrap())
            .and(predicate::str::is_match(r"bob\.c\s+0/10\s+1 WA").unwrap()),
    );
}

#[test]
fn without_a_package_nearby_the_bundled_one_is_used() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("minus_one.py");
    std::fs::write(&file, "print(-1)\n").unwrap();
    judge_within(GRADE_TIMEOUT)
        .current_dir(dir.path())
        .args(["grade", "--quiet", "--tests", "sample/*"])
        .arg(&file)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("sample/1").and(predicate::str::contains("secret/").not()));
}

#[test]
fn an_unknown_test_pattern_is_a_configuration_error() {
    let f = Fixture::new();
    let file = f.write("x.py", "print(-1)\n");
    f.grade(&file)
        .args(["--tests", "nothing*"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("matches no test"));
}

// ---- NOIP file I/O ----------------------------------------------------------

#[test]
fn a_noip_program_scores_under_file_io_what_its_stdin_twin_scores() {
    if !have("gcc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let stdin_twin = crate::util::manifest().join("reference/mayan/accepted/solution.c");
    let code = std::fs::read_to_string(&stdin_twin).unwrap();
    let noip = code.replacen(
        "int main(void) {",
        "int main(void) {\n    freopen(\"mayan.in\", \"r\", stdin);\n    freopen(\"mayan.out\", \"w\", stdout);",
        1,
    );
    assert_ne!(noip, code);
    let noip_file = write_in(dir.path(), "mayan.c", &noip);
    let score = |file: &Path, extra: &[&str]| {
        let json = dir.path().join("r.json");
        let out = judge_within(GRADE_TIMEOUT)
            .env("MAYAN_JUDGE_CACHE", dir.path().join("cache"))
            .args([
                "grade",
                "--quiet",
                "--jobs",
                "2",
                "--tests",
                "secret/[0-9]*",
                "--problem",
            ])
            .arg(crate::util::manifest().join("problems/mayan"))
            .args(extra)
            .arg("--json")
            .arg(&json)
            .arg(file)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
        (out.status.code(), v["submissions"][0].clone())
    };
    let (code_stdin, stdin_run) = score(&stdin_twin, &[]);
    let (code_noip, noip_run) = score(&noip_file, &["--file-io", "mayan"]);
    assert_eq!(code_stdin, Some(0));
    assert_eq!(code_noip, Some(0));
    assert_eq!(noip_run["score"], stdin_run["score"]);
    assert_eq!(noip_run["score"], noip_run["max_score"]);
    // Graded with stdin and stdout, it prints nothing: the reason says why.
    let (code, plain) = score(&noip_file, &["--stdio"]);
    assert_eq!(code, Some(1));
    let reason = plain["tests"][0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("opens mayan.in") && reason.contains("--file-io mayan"),
        "{reason}"
    );
}

#[test]
fn under_file_io_the_input_is_read_only_and_only_the_output_file_is_judged() {
    if !have("gcc") {
        return;
    }
    let f = Fixture::new();
    // It tries to change its input (each attempt that works is a wrong
    // line in its answer), prints garbage on stdout, and writes the answer
    // to mayan.out.
    let file = f.write(
        "noip.c",
        "#include <stdio.h>\n#include <sys/stat.h>\nint main(void) {\n\
         FILE *in = fopen(\"mayan.in\", \"r\"); int n = 0; if (!in || fscanf(in, \"%d\", &n) != 1) return 7;\n\
         FILE *w = fopen(\"mayan.in\", \"a\"); int changed = chmod(\"mayan.in\", 0666) == 0;\n\
         puts(\"garbage on stdout\");\n\
         FILE *out = fopen(\"mayan.out\", \"w\");\n\
         if (w || changed) fputs(\"0 0 0\\n\", out);\n\
         fputs(\"2 0 1\\n1 1 1\\n3 4 -1\\n\", out); fclose(out); return 0; }\n",
    );
    let out = f
        .grade(&file)
        .args(["--quiet", "--file-io", "mayan"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("file I/O: programs read mayan.in and write mayan.out"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| is_line_of(l, "secret/1") && l.contains(" AC ")),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}");
}

#[test]
fn a_200_mib_source_is_refused_before_it_is_read_or_compiled_and_the_others_are_graded() {
    let f = Fixture::new();
    // C compiled by a compiler that does not exist: had the judge tried to
    // compile, it would be a judge error (missing compiler, exit 2).
    write_in(
        &f.package(),
        "languages.toml",
        "[[language]]\nname = \"c\"\nextensions = [\"c\"]\ncompile = [\"no-such-cc\", \"-o\", \"{exe}\", \"{src}\"]\nrun = [\"{exe}\"]\n",
    );
    let big = f.dir.path().join("sol.c");
    // Sparse: 200 MiB that cost no disk.
    std::fs::File::create(&big).unwrap().set_len(200 << 20).unwrap();
    // Beside it, a ready executable (no extension) that prints the answer.
    let ok = f.write(
        "answer",
        &format!("#!/bin/sh\nprintf '{}'\n", CASE4_ANSWER.replace('\n', "\\n")),
    );
    std::fs::set_permissions(&ok, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let start = Instant::now();
    let out = f.grade(&big).arg(&ok).arg("--quiet").output().unwrap();
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "a CE, not a judge error:\n{stdout}");
    assert!(
        stdout.contains(
            "sol.c: the source is 209715200 bytes, over the limit of 262144 bytes (256 KiB, problem.toml [limits] source_kib)"
        ),
        "{stdout}"
    );
    assert!(
        !stdout.contains("no-such-cc"),
        "the compiler was looked for:\n{stdout}"
    );
    let graded = stdout
        .lines()
        .find(|l| is_line_of(l, "secret/1"))
        .unwrap_or_default();
    assert!(
        graded.contains(" AC "),
        "the other submission is graded:\n{stdout}"
    );
    assert!(elapsed < Duration::from_secs(30), "took {elapsed:?}");
}
