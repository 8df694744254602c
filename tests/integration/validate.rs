//! `mayan-judge validate`: every broken input is rejected for its own reason,
//! and a package's problems are each named with their file.

use crate::util::{judge, manifest};
use predicates::prelude::*;
use std::path::{Path, PathBuf};

/// Each file of testdata/invalid and the reason it must be rejected for.
const INVALID: &[(&str, &str)] = &[
    ("empty.in", "input ends before n"),
    (
        "not-an-integer.in",
        ": line 2, column 3, token `x`: not an integer",
    ),
    (
        "n-zero.in",
        ": line 1, column 1, token `0`: n must be between 1 and 12, got 0",
    ),
    (
        "n-over-package-limit.in",
        ": line 1, column 1: n = 6 is over the package's limit max_n = 5",
    ),
    (
        "colour-over-ten.in",
        ": line 2, column 3, token `11`: colour must be 1..10",
    ),
    (
        "colour-negative.in",
        ": line 2, column 3, token `-3`: colour must be 1..10",
    ),
    (
        "column-of-eight.in",
        ": line 2, column 15, token `2`: column 0 holds 8 blocks, at most 7",
    ),
    (
        "ends-inside-a-column.in",
        ": line 4, column 1: input ends inside column 2",
    ),
    (
        "token-after-fifth-column.in",
        ": line 7, column 1, token `7`: unexpected token after the fifth column",
    ),
    (
        "initial-run-in-a-row.in",
        "initial board has a run of three at row 0, x 1..3",
    ),
    (
        "initial-run-in-a-column.in",
        "initial board has a run of three in column 2, y 0..2",
    ),
];

#[test]
fn every_invalid_input_is_rejected_for_its_own_reason() {
    let dir = manifest().join("testdata/invalid");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".in"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = INVALID.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(
        files, listed,
        "every file in testdata/invalid needs an expected reason here"
    );
    for (file, reason) in INVALID {
        let out = judge()
            .args(["validate", "--quiet"])
            .arg(dir.join(file))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{file}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let first = stdout.lines().next().unwrap_or_default();
        assert!(
            first.contains(file) && first.contains(reason),
            "{file}: expected `{reason}`, got `{first}`"
        );
        assert!(
            stdout.contains("1 problem\n"),
            "{file}: exactly one problem\n{stdout}"
        );
    }
}

#[test]
fn the_bundled_package_is_valid() {
    judge()
        .current_dir(manifest())
        .args(["validate", "--quiet", "problems/mayan"])
        .assert()
        .code(0)
        .stdout(
            predicate::str::contains("0 problems")
                .and(predicate::str::contains("reading-sensitive tests:           0")),
        );
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// A temporary copy of the bundled package (problems/mayan + testdata/mayan).
fn package_copy() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        &manifest().join("problems/mayan"),
        &tmp.path().join("problems/mayan"),
    );
    copy_dir(
        &manifest().join("testdata/mayan"),
        &tmp.path().join("testdata/mayan"),
    );
    let pkg = tmp.path().join("problems/mayan");
    let tests = tmp.path().join("testdata/mayan");
    (tmp, pkg, tests)
}

/// Adds a reading-sensitive test: the RULES.md example, with its literal answer.
fn add_sensitive_test(tests: &Path) {
    std::fs::write(
        tests.join("secret/sensitive.in"),
        "4\n2 3 0\n1 0\n1 2 2 0\n3 1 3 0\n0\n",
    )
    .unwrap();
    std::fs::write(tests.join("secret/sensitive.ans"), "0 1 1\n1 0 1\n1 1 1\n3 0 1\n").unwrap();
}

#[test]
fn a_corrupted_answer_is_named() {
    let (_tmp, pkg, tests) = package_copy();
    let ans = tests.join("secret/5.ans");
    let text = std::fs::read_to_string(&ans).unwrap();
    // Swap the first move's direction: still well-formed, now wrong.
    let corrupted = text.replacen(" 1\n", " -1\n", 1);
    assert_ne!(text, corrupted);
    std::fs::write(&ans, corrupted).unwrap();
    judge()
        .args(["validate", "--quiet"])
        .arg(&pkg)
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "secret/5.ans: line 1, column 1: stored answer is wrong",
        ))
        .stdout(predicate::str::contains("1 problem\n"));
}

#[test]
fn package_problems_are_all_reported_with_their_files() {
    let (_tmp, pkg, tests) = package_copy();
    std::fs::remove_file(tests.join("secret/2.ans")).unwrap();
    std::fs::write(tests.join("secret/orphan.ans"), "-1\n").unwrap();
    std::fs::copy(tests.join("secret/3.in"), tests.join("secret/copy-of-3.in")).unwrap();
    std::fs::copy(tests.join("secret/3.ans"), tests.join("secret/copy-of-3.ans")).unwrap();
    add_sensitive_test(&tests);
    let refs = pkg.join("../../reference/mayan/maybe");
    std::fs::create_dir_all(&refs).unwrap();
    judge()
        .args(["validate", "--quiet"])
        .arg(&pkg)
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("secret/2.in: input without an answer")
                .and(predicate::str::contains(
                    "secret/orphan.ans: answer without an input",
                ))
                .and(predicate::str::contains("copy-of-3.in: duplicate of"))
                .and(predicate::str::contains("sensitive.in: reading-sensitive test"))
                .and(predicate::str::contains(
                    "maybe: unknown expected verdict folder `maybe`",
                ))
                .and(predicate::str::contains("5 problems")),
        );
}

#[test]
fn a_package_may_allow_sensitive_tests_by_saying_why() {
    let (_tmp, pkg, tests) = package_copy();
    add_sensitive_test(&tests);
    let toml = std::fs::read_to_string(pkg.join("problem.toml")).unwrap();
    std::fs::write(
        pkg.join("problem.toml"),
        format!("{toml}\n[tests]\nreading_sensitive = \"the literal rules on purpose\"\n"),
    )
    .unwrap();
    judge()
        .args(["validate", "--quiet"])
        .arg(&pkg)
        .assert()
        .code(0)
        .stdout(predicate::str::contains("reading-sensitive tests:           1"));
}

#[test]
fn a_broken_problem_toml_names_file_line_and_key() {
    let (_tmp, pkg, _tests) = package_copy();
    std::fs::write(
        pkg.join("problem.toml"),
        "name = \"mayan\"\ntitle = \"x\"\ntimelimit = 3\n",
    )
    .unwrap();
    judge()
        .args(["validate", "--quiet"])
        .arg(&pkg)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("problem.toml")
                .and(predicate::str::contains("line 3"))
                .and(predicate::str::contains("timelimit")),
        );
}
