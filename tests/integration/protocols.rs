//! `check` called exactly as each judging engine calls a checker: testlib
//! (Polygon, Hydro, LOJ, UOJ: result words on stderr, result file, `-appes`), Kattis/DOMjudge output validators, and
//! LemonLime special judges. A missing or unreadable file is always a judge
//! error, never an accepted verdict.

use crate::util::{CASE4, CASE4_ANSWER as RIGHT, CASE4_WRONG as WRONG, judge, write_in};
use predicates::prelude::*;
use std::path::PathBuf;

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        let f = Files {
            dir: tempfile::tempdir().unwrap(),
        };
        f.put("in", CASE4);
        f.put("ans", RIGHT);
        f
    }
    fn put(&self, name: &str, text: &str) -> PathBuf {
        write_in(self.dir.path(), name, text)
    }
    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.path(name)).unwrap()
    }
}

// ---- testlib ----------------------------------------------------------------

#[test]
fn testlib_prints_its_result_words_and_exit_codes_on_stderr() {
    let f = Files::new();
    for (out, code, text) in [
        (RIGHT, 0, "ok correct\n"),
        (
            WRONG,
            1,
            "wrong answer after 3 moves the board still holds 21 blocks\n",
        ),
        (
            "x\n",
            2,
            "wrong output format line 1, column 1: token `x` is not an integer\n",
        ),
    ] {
        f.put("out", out);
        judge()
            .arg("check")
            .args([f.path("in"), f.path("out"), f.path("ans")])
            .assert()
            .code(code)
            .stdout("")
            .stderr(text);
    }
}

#[test]
fn testlib_writes_the_result_file_plain_or_as_appes_xml() {
    let f = Files::new();
    f.put("out", WRONG);
    judge()
        .arg("check")
        .args([f.path("in"), f.path("out"), f.path("ans"), f.path("result")])
        .assert()
        .code(1)
        .stderr(predicate::str::starts_with("wrong answer "));
    // testlib writes the message alone; the verdict is the exit code.
    assert_eq!(f.read("result"), "after 3 moves the board still holds 21 blocks");
    for (out, code, outcome) in [
        (RIGHT, 0, "accepted"),
        (WRONG, 1, "wrong-answer"),
        ("x", 2, "presentation-error"),
    ] {
        f.put("out", out);
        judge()
            .arg("check")
            .args([f.path("in"), f.path("out"), f.path("ans"), f.path("result")])
            .arg("-appes")
            .assert()
            .code(code);
        let xml = f.read("result");
        assert!(
            xml.starts_with(&format!(
                "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \"{outcome}\">"
            )) && xml.ends_with("</result>\n"),
            "{xml}"
        );
    }
    // XML-escaped, and ASCII whatever the output held.
    f.put("out", "<é>\n");
    judge()
        .arg("check")
        .args([
            f.path("in"),
            f.path("out"),
            f.path("ans"),
            f.path("result"),
            PathBuf::from("-APPES"),
        ])
        .assert()
        .code(2);
    let xml = f.read("result");
    assert!(xml.contains("`&lt;?&gt;`") && xml.is_ascii(), "{xml}");
    // A judge error reaches the result file too.
    judge()
        .arg("check")
        .args([f.path("in"), f.path("missing"), f.path("ans"), f.path("result")])
        .arg("-appes")
        .assert()
        .code(3)
        .stderr(predicate::str::starts_with("FAIL judge error: reading "));
    assert!(
        f.read("result")
            .contains("<result outcome = \"fail\">judge error")
    );
}

#[test]
fn testlib_missing_or_unreadable_files_are_fail() {
    let f = Files::new();
    f.put("out", RIGHT);
    judge()
        .arg("check")
        .args([f.path("in"), f.path("out"), f.path("missing.ans")])
        .assert()
        .code(3)
        .stderr(predicate::str::starts_with("FAIL ").and(predicate::str::contains("missing.ans")));
    // A folder where a file should be.
    judge()
        .arg("check")
        .args([f.path("in"), f.dir.path().to_path_buf(), f.path("ans")])
        .assert()
        .code(3);
    // -appes without a result file, a sixth file.
    judge()
        .arg("check")
        .args([f.path("in"), f.path("out"), f.path("ans")])
        .arg("-appes")
        .assert()
        .code(3)
        .stderr(predicate::str::contains("-appes needs a RESULT_FILE"));
    judge()
        .arg("check")
        .args([
            f.path("in"),
            f.path("out"),
            f.path("ans"),
            f.path("r"),
            f.path("x"),
        ])
        .assert()
        .code(3);
}

// ---- Kattis / DOMjudge ------------------------------------------------------

fn kattis(f: &Files, output: &str) -> assert_cmd::assert::Assert {
    let feedback = f.path("feedback");
    std::fs::create_dir_all(&feedback).unwrap();
    judge()
        .args(["check", "--protocol", "kattis"])
        .args([f.path("in"), f.path("ans"), feedback])
        // DOMjudge passes the problem's validator flags after the three files.
        .arg("case_sensitive")
        .write_stdin(output)
        .assert()
}

#[test]
fn kattis_accepts_with_42_and_rejects_with_43() {
    let f = Files::new();
    kattis(&f, RIGHT).code(42);
    assert_eq!(f.read("feedback/judgemessage.txt"), "AC: correct\n");
    assert_eq!(f.read("feedback/teammessage.txt"), "accepted\n");
    kattis(&f, WRONG).code(43);
    assert!(
        f.read("feedback/judgemessage.txt")
            .contains("after 3 moves the board still holds 21 blocks")
    );
    kattis(&f, "garbage").code(43);
    assert!(f.read("feedback/judgemessage.txt").starts_with("PE: "));
    // The contestant is told which move, not the reference's answer.
    kattis(&f, "2 0 1\n1 6 1\n3 4 -1\n").code(43);
    let team = f.read("feedback/teammessage.txt");
    assert!(team.contains("move 2") && !team.contains("1 1 1"), "{team}");
}

#[test]
fn kattis_judge_errors_are_neither_42_nor_43() {
    let f = Files::new();
    std::fs::remove_file(f.path("ans")).unwrap();
    kattis(&f, RIGHT).code(1);
    assert!(f.read("feedback/judgemessage.txt").contains("judge error"));
    // A stored answer that disagrees with the solver.
    let f = Files::new();
    f.put("ans", "-1\n");
    kattis(&f, RIGHT).code(1);
    // No feedback folder at all.
    let f = Files::new();
    judge()
        .args(["check", "--protocol", "kattis"])
        .args([f.path("in"), f.path("ans"), f.path("nowhere")])
        .write_stdin(RIGHT)
        .assert()
        .code(1);
}

// ---- LemonLime --------------------------------------------------------------

fn lemon(f: &Files, output: &str) -> assert_cmd::assert::Assert {
    f.put("out", output);
    judge()
        .args(["check", "--protocol", "lemon"])
        .args([f.path("in"), f.path("out"), f.path("ans")])
        .arg("10")
        .args([f.path("score"), f.path("message")])
        .assert()
}

#[test]
fn lemon_writes_the_full_score_or_zero() {
    let f = Files::new();
    lemon(&f, RIGHT).code(0);
    assert_eq!(f.read("score"), "10\n");
    assert_eq!(f.read("message"), "AC: correct\n");
    lemon(&f, WRONG).code(0);
    assert_eq!(f.read("score"), "0\n");
    assert!(f.read("message").starts_with("WA: "));
}

#[test]
fn lemon_judge_errors_score_zero() {
    let f = Files::new();
    std::fs::remove_file(f.path("ans")).unwrap();
    lemon(&f, RIGHT).code(3);
    assert_eq!(f.read("score"), "0\n");
    assert!(f.read("message").contains("judge error"));
    let f = Files::new();
    f.put("out", RIGHT);
    judge()
        .args(["check", "--protocol", "lemon"])
        .args([f.path("in"), f.path("out"), f.path("ans")])
        .arg("ten")
        .args([f.path("score"), f.path("message")])
        .assert()
        .code(3);
    assert_eq!(f.read("score"), "0\n");
}
