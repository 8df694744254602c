//! `mayan-judge bench`'s parts that judge programs, run end to end on a
//! small scale: they finish and report. Never a time: the figures are the
//! benchmark's to report.

use crate::util::{have, judge_within, write_in};

#[test]
fn the_grader_benchmark_survives_a_baseline_that_never_reads_its_input() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The judge's temporary folder, to see what it leaves there.
    let tmp = tempfile::tempdir().unwrap();
    // The answer to the benchmark's board, printed without reading it: the
    // bare run's input pipe may be closed before the judge writes into it.
    let baseline = write_in(
        dir.path(),
        "deaf.cpp",
        "#include <cstdio>\nint main() { std::fputs(\"2 1 1\\n3 1 1\\n3 0 1\\n\", stdout); }\n",
    );
    let out = judge_within(600)
        .args(["bench", "--only", "grader", "--runs", "40", "--baseline"])
        .arg(&baseline)
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}\n{stdout}\n{stderr}", out.status);
    assert!(stdout.contains("overhead per test"), "{stdout}");
    // The compiled baseline is removed as the benchmark ends.
    let left: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("mayan-bench-"))
        .collect();
    assert!(left.is_empty(), "left in the temporary folder: {left:?}");
}

#[test]
fn the_scaling_benchmark_grades_a_class_and_serves_a_burst_at_each_jobs() {
    if !have("gcc") {
        return;
    }
    let out = judge_within(900)
        .args(["bench", "--only", "scaling", "--class", "3", "--burst", "3"])
        .args([
            "--jobs",
            "2",
            "--tests",
            "2",
            "--runs",
            "3",
            "--hold-mib",
            "16",
            "--quiet",
        ])
        .output()
        .unwrap();
    let stdout = crate::util::quiet_success(&out);
    for jobs in ["1", "2"] {
        assert!(
            stdout.lines().any(|l| l.split_whitespace().next() == Some(jobs)),
            "no row for --jobs {jobs}:\n{stdout}"
        );
    }
    assert!(
        stdout.contains("class at --jobs 2, ratio to --jobs 1"),
        "{stdout}"
    );
    assert!(
        stdout.contains("the same runs bare:"),
        "no bare ceiling beside the class's speed-up:\n{stdout}"
    );
    assert!(
        stdout.contains("the server and its runs use the cores"),
        "{stdout}"
    );
    // The server's target is on the time the cores ran (the hypervisor's
    // steal alone set aside), with what the hypervisor and the load
    // generator took, and the share of the whole time, beside.
    let target = stdout
        .lines()
        .find(|l| l.contains("the server and its runs use the cores"))
        .unwrap_or_default();
    assert!(
        target.contains("cores ran (the hypervisor stole")
            && target.contains("the load generator used")
            && target.contains("of the whole time) while at least")
            || target.contains("not measured"),
        "the server's target is not on the time the cores ran:\n{stdout}"
    );
    assert!(
        stdout.contains("class with an endless loop at --jobs 2, ratio to its lower bound"),
        "{stdout}"
    );
    assert!(
        stdout.contains("a run's start with the judge holding 16 MiB, through the launcher"),
        "{stdout}"
    );
}

#[test]
fn the_analysis_benchmark_fills_a_class_and_times_the_teachers_page_computed_and_cached() {
    if !have("gcc") || !have("g++") {
        return;
    }
    let out = judge_within(600)
        .args([
            "bench",
            "--only",
            "analysis",
            "--contestants",
            "4",
            "--submissions",
            "24",
        ])
        .arg("--quiet")
        .output()
        .unwrap();
    let stdout = crate::util::quiet_success(&out);
    assert!(
        stdout.contains("4 contestants, 24 judged submissions"),
        "{stdout}"
    );
    assert!(stdout.contains("computed from the stored reports:"), "{stdout}");
    assert!(stdout.contains("cached, 20 requests: p50"), "{stdout}");
}

#[test]
fn the_search_benchmark_times_an_accepted_program_idle_and_while_failing_programs_are_searched() {
    if !have("gcc") {
        return;
    }
    let out = judge_within(600)
        .args(["bench", "--only", "search", "--submissions", "1", "--quiet"])
        .output()
        .unwrap();
    let stdout = crate::util::quiet_success(&out);
    assert!(
        stdout.contains("judged 4 times idle, 4 times while 1 failing programs' searches run"),
        "{stdout}"
    );
    assert!(stdout.contains("idle: median"), "{stdout}");
    assert!(stdout.contains("during / idle"), "{stdout}");
}
