//! `check` called exactly as each judging engine calls a checker: testlib
//! (Polygon, Hydro, LOJ, UOJ: result words on stderr, result file, `-appes`), Kattis/DOMjudge output validators, and
//! LemonLime special judges. A missing or unreadable file is always a judge
//! error, never an accepted verdict, but for testlib's missing output file
//! (`Output file not found`, a wrong output format, as testlib says it).

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

/// The right output checked by `call` with the answer file missing: the
/// exit code must be `code`; the files, for what `call` wrote.
fn without_answer(call: fn(&Files, &str) -> assert_cmd::assert::Assert, code: i32) -> Files {
    let f = Files::new();
    std::fs::remove_file(f.path("ans")).unwrap();
    call(&f, RIGHT).code(code);
    f
}

/// `check FLAGS FILES...`, each of `files` named in `f`'s folder.
fn check(f: &Files, flags: &[&str], files: &[&str]) -> assert_cmd::Command {
    let mut check = judge();
    check
        .arg("check")
        .args(flags)
        .args(files.iter().map(|name| f.path(name)));
    check
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
        check(&f, &[], &["in", "out", "ans"])
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
    check(&f, &[], &["in", "out", "ans", "result"])
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
        check(&f, &[], &["in", "out", "ans", "result"])
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
    check(&f, &[], &["in", "out", "ans", "result"])
        .arg("-APPES")
        .assert()
        .code(2);
    let xml = f.read("result");
    assert!(xml.contains("`&lt;?&gt;`") && xml.is_ascii(), "{xml}");
    // A judge error reaches the result file too.
    check(&f, &[], &["missing", "out", "ans", "result"])
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
fn testlib_says_output_file_not_found_as_testlib_does_a_wrong_output_format() {
    let f = Files::new();
    check(&f, &[], &["in", "mayan.out", "ans", "result"])
        .arg("-appes")
        .assert()
        .code(2)
        .stderr(
            predicate::str::starts_with("wrong output format Output file not found: \"")
                .and(predicate::str::contains("mayan.out")),
        );
    assert!(
        f.read("result")
            .contains("<result outcome = \"presentation-error\">Output file not found")
    );
}

#[test]
fn testlib_missing_or_unreadable_files_are_fail() {
    let f = Files::new();
    f.put("out", RIGHT);
    check(&f, &[], &["in", "out", "missing.ans"])
        .assert()
        .code(3)
        .stderr(predicate::str::starts_with("FAIL ").and(predicate::str::contains("missing.ans")));
    // A folder where a file should be.
    check(&f, &[], &["in", ".", "ans"]).assert().code(3);
    // -appes without a result file, a sixth file.
    check(&f, &[], &["in", "out", "ans"])
        .arg("-appes")
        .assert()
        .code(3)
        .stderr(predicate::str::contains("-appes needs a RESULT_FILE"));
    check(&f, &[], &["in", "out", "ans", "r", "x"]).assert().code(3);
}

// ---- Kattis / DOMjudge ------------------------------------------------------

/// `check` as Kattis calls an output validator, feedback in `feedback/`.
fn kattis(f: &Files, output: &str) -> assert_cmd::assert::Assert {
    std::fs::create_dir_all(f.path("feedback")).unwrap();
    kattis_feedback_in(f, "feedback", output)
}

/// `check` as Kattis calls an output validator, feedback in the folder
/// `feedback` of `f` (which need not exist).
fn kattis_feedback_in(f: &Files, feedback: &str, output: &str) -> assert_cmd::assert::Assert {
    check(f, &["--protocol", "kattis"], &["in", "ans", feedback])
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
    let f = without_answer(kattis, 1);
    assert!(f.read("feedback/judgemessage.txt").contains("judge error"));
    // A stored answer that disagrees with the solver.
    let f = Files::new();
    f.put("ans", "-1\n");
    kattis(&f, RIGHT).code(1);
    // No feedback folder at all.
    let f = Files::new();
    kattis_feedback_in(&f, "nowhere", RIGHT).code(1);
}

// ---- LemonLime --------------------------------------------------------------

/// `check` as LemonLime calls a special judge, for a full score of `full`.
fn lemon_out_of(f: &Files, full: &str, output: &str) -> assert_cmd::assert::Assert {
    f.put("out", output);
    check(f, &["--protocol", "lemon"], &["in", "out", "ans"])
        .arg(full)
        .args([f.path("score"), f.path("message")])
        .assert()
}

/// `check` as LemonLime calls a special judge, for a full score of 10.
fn lemon(f: &Files, output: &str) -> assert_cmd::assert::Assert {
    lemon_out_of(f, "10", output)
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
    let f = without_answer(lemon, 3);
    assert_eq!(f.read("score"), "0\n");
    assert!(f.read("message").contains("judge error"));
    let f = Files::new();
    lemon_out_of(&f, "ten", RIGHT).code(3);
    assert_eq!(f.read("score"), "0\n");
}
