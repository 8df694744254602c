//! `mayan-judge bench --only serve`, scaled down: the load benchmark runs
//! end to end and its report says every submission was stored and judged,
//! with no 5xx. Never a time: the figures are the benchmark's to report.

use crate::util::{have, judge_within};

#[test]
fn the_load_benchmark_stores_and_judges_every_submission_without_a_5xx() {
    if !have("gcc") {
        return;
    }
    // A class signing in at once, more than the cores that check
    // passwords: their checks wait their turn.
    let class = "12".to_string();
    let out = judge_within(900)
        .args([
            "bench",
            "--only",
            "serve",
            "--contestants",
            &class,
            "--submissions",
            "10",
        ])
        .args([
            "--clients",
            &class,
            "--jobs",
            "2",
            "--tests",
            "3",
            "--idle-secs",
            "1",
            "--quiet",
        ])
        .output()
        .unwrap();
    let stdout = crate::util::quiet_success(&out);
    for line in [
        "met     every submission acknowledged, stored and judged: 10/10/10 of 10",
        "met     no 5xx: 0",
        "verdicts: AC 1, CE 1, WA 8.",
    ] {
        assert!(stdout.contains(line), "no `{line}` in:\n{stdout}");
    }
    for kind in ["pages", "API calls", "submissions"] {
        let row = stdout.lines().find(|l| l.trim_start().starts_with(kind));
        assert!(row.is_some(), "no latency row for {kind}:\n{stdout}");
    }
}
