//! The `solve` and `check` commands, run as a user runs them.

use crate::util::{CASE4, judge, official_data, write_in};
use predicates::prelude::*;

fn tokens(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn solve_reproduces_every_official_answer() {
    let Some(dir) = official_data() else { return };
    for i in 1..=10 {
        let input = dir.join(format!("mayan{i}.in"));
        let expected = std::fs::read_to_string(dir.join(format!("mayan{i}.ans"))).unwrap();
        let out = judge().arg("solve").arg(&input).output().unwrap();
        assert!(out.status.success(), "case {i}");
        assert_eq!(
            tokens(&String::from_utf8_lossy(&out.stdout)),
            tokens(&expected),
            "case {i}"
        );
    }
}

#[test]
fn check_accepts_every_official_answer() {
    let Some(dir) = official_data() else { return };
    for i in 1..=10 {
        let input = dir.join(format!("mayan{i}.in"));
        let ans = dir.join(format!("mayan{i}.ans"));
        judge()
            .arg("check")
            .args([&input, &ans, &ans])
            .assert()
            .code(0)
            .stderr(predicate::str::starts_with("ok "));
    }
}

#[test]
fn solve_reads_standard_input_and_reports_stats() {
    judge()
        .args(["solve", "--stats", "-"])
        .write_stdin(CASE4)
        .assert()
        .success()
        .stdout("2 0 1\n1 1 1\n3 4 -1\n")
        .stderr(predicate::str::contains("nodes"));
}

#[test]
fn solve_rejects_an_invalid_puzzle_with_line_and_rule() {
    judge()
        .args(["solve", "-"])
        .write_stdin("1\n1 1 1 0 0 0 0 0\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "initial board has a run of three in column 0, y 0..2",
        ));
}

#[test]
fn check_exit_codes_follow_testlib() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_in(dir.path(), "in", CASE4);
    let cases = [
        ("2 0 1\n1 1 1\n3 4 -1\n", 0, "ok "),
        ("-1\n", 1, "wrong answer answer is -1 but a solution exists"),
        (
            "2 0 1\n1 1 1\nx 4 -1\n",
            2,
            "wrong output format line 3, column 1: token `x` is not an integer",
        ),
    ];
    for (output, code, start) in cases {
        let out = write_in(dir.path(), "out", output);
        judge()
            .arg("check")
            .args([&input, &out])
            .assert()
            .code(code)
            .stderr(predicate::str::starts_with(start));
    }
    // A stored answer that disagrees with the solver: judge error.
    let out = write_in(dir.path(), "out", "-1\n");
    let ans = write_in(dir.path(), "ans", "-1\n");
    judge()
        .arg("check")
        .args([&input, &out, &ans])
        .assert()
        .code(3)
        .stderr(predicate::str::starts_with("FAIL"));
}

#[test]
fn check_with_a_missing_input_is_a_judge_error_and_a_missing_output_is_testlibs_output_file_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_in(dir.path(), "in", CASE4);
    let output = write_in(dir.path(), "out", "2 0 1\n");
    judge()
        .arg("check")
        .arg(dir.path().join("nope"))
        .arg(&output)
        .assert()
        .code(3)
        .stderr(predicate::str::contains("nope"));
    // The contestant's output missing is their fault, as testlib says it.
    judge()
        .arg("check")
        .arg(&input)
        .arg(dir.path().join("nope"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("Output file not found"));
}

#[test]
fn check_json_is_machine_readable() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_in(dir.path(), "in", CASE4);
    let out = write_in(dir.path(), "out", "2 0 1\n1 1 1\n4 0 -1\n");
    let res = judge()
        .arg("check")
        .arg("--json")
        .args([&input, &out])
        .output()
        .unwrap();
    assert_eq!(res.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&res.stdout).expect("json");
    assert_eq!(v["verdict"], "WA");
    assert_eq!(v["reason"]["kind"], "blocks_left");
    assert_eq!(v["reason"]["blocks"], 21);
    assert_eq!(v["moves"][2], "4 0 -1");
    assert_eq!(v["reference"][0], "2 0 1");
}

#[test]
fn check_trace_shows_each_move_and_cascade_step() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_in(dir.path(), "in", CASE4);
    let out = write_in(dir.path(), "out", "2 0 1\n1 1 1\n3 4 -1\n");
    judge()
        .arg("check")
        .arg("--trace")
        .args([&input, &out])
        .assert()
        .code(0)
        .stdout(
            predicate::str::contains("move 1: 2 0 1")
                .and(predicate::str::contains("cascade step 1: 3 blocks cleared"))
                .and(predicate::str::contains("[ 1]"))
                .and(predicate::str::contains("after move 3: 0 blocks left"))
                .and(predicate::str::contains("\x1b[").not()),
        );
}

#[test]
fn help_documents_the_exit_codes() {
    judge()
        .args(["check", "--help"])
        .assert()
        .success()
        .stdout(predicate::str::contains("0 AC, 1 WA, 2 PE, 3 FAIL"));
}

#[test]
fn show_replays_the_smallest_solution_in_colour() {
    judge()
        .args(["show", "--color", "always", "-"])
        .write_stdin(CASE4)
        .assert()
        .code(0)
        .stdout(
            predicate::str::contains("the smallest solution (literal)")
                .and(predicate::str::contains("move 3: 3 4 -1"))
                .and(predicate::str::contains("\x1b[41;97m"))
                .and(predicate::str::contains("the board is empty after 3 moves")),
        );
}

#[test]
fn show_explains_moves_that_are_not_a_solution() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_in(dir.path(), "in", CASE4);
    let moves = write_in(dir.path(), "moves", "2 0 1\n1 1 1\n4 0 -1\n");
    judge()
        .args(["show", "--color", "never"])
        .args([&input, &moves])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("move 3: 4 0 -1")
                .and(predicate::str::contains(format!(
                    "not a solution: {}: after 3 moves the board still holds 21 blocks",
                    moves.display()
                )))
                .and(predicate::str::contains("\x1b[").not()),
        );
    // An illegal move is named by its file, line and column.
    let moves = write_in(dir.path(), "illegal", "2 0 1\n\n  1 9 1\n3 4 -1\n");
    judge()
        .args(["show", "--color", "never"])
        .args([&input, &moves])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            "not a solution: {}:3:3: move 2 `1 9 1` is illegal: y = 9 is off the board",
            moves.display()
        )));
}

#[test]
fn check_flags_may_follow_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_in(dir.path(), "in", "2\n1 0\n0\n1 0\n1 0\n0\n");
    // A valid solution that is not the smallest: accepted only with --any.
    let out = write_in(dir.path(), "out", "2 0 -1\n3 0 -1\n");
    judge().arg("check").args([&input, &out]).assert().code(1);
    judge()
        .arg("check")
        .args([&input, &out])
        .arg("--any")
        .assert()
        .code(0);
}

#[test]
fn an_error_names_its_cause_once() {
    let out = judge()
        .args(["grade", "--problem", "/nonexistent-package", "x.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/nonexistent-package/problem.toml"), "{err}");
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}
