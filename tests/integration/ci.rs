//! `mayan-judge ci`: packages validated, reference programs graded against
//! the verdict their folder promises, broken packages reported without
//! stopping the others.

use crate::util::{CASE4, CASE4_ANSWER, have, judge_within, manifest, write};
use predicates::prelude::*;

/// `ci` grades every reference program: minutes on a loaded machine.
const CI_TIMEOUT: u64 = 900;

const GOOD_PY: &str = "print('2 0 1\\n1 1 1\\n3 4 -1')\n";
const WRONG_PY: &str = "print(-1)\n";

/// A repository with a good package `a` (one accepted and one wrong-answer
/// program, and a wrong-answer program filed under accepted), a package `b`
/// whose problem.toml is broken, and an empty package `c`.
fn fixture() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    write(
        &r.join("problems/a/problem.toml"),
        "name = \"a\"\ntitle = \"A\"\n",
    );
    write(&r.join("testdata/a/secret/1.in"), CASE4);
    write(&r.join("testdata/a/secret/1.ans"), CASE4_ANSWER);
    write(&r.join("reference/a/accepted/good.py"), GOOD_PY);
    write(&r.join("reference/a/accepted/not_really.py"), WRONG_PY);
    write(&r.join("reference/a/wrong_answer/minus_one.py"), WRONG_PY);
    write(
        &r.join("problems/b/problem.toml"),
        "name = \"b\"\ntitle = \"B\"\n[limits]\ntime = 1\n",
    );
    std::fs::create_dir_all(r.join("problems/c")).unwrap();
    root
}

#[test]
fn ci_reports_every_package_and_every_mismatch() {
    if !have("python3") {
        return;
    }
    let root = fixture();
    let junit = root.path().join("junit.xml");
    let json = root.path().join("ci.json");
    judge_within(CI_TIMEOUT)
        .args(["ci", "--quiet", "--junit"])
        .arg(&junit)
        .arg("--json")
        .arg(&json)
        .arg(root.path())
        .env("MAYAN_JUDGE_CACHE", root.path().join("cache"))
        .assert()
        .code(1)
        .stdout(
            predicate::str::is_match(r"a\s+accepted/good\.py\s+accepted\s+ok\s+1 AC")
                .unwrap()
                .and(
                    predicate::str::is_match(r"a\s+accepted/not_really\.py\s+accepted\s+MISMATCH\s+1 WA")
                        .unwrap(),
                )
                .and(predicate::str::is_match(r"a\s+wrong_answer/minus_one\.py\s+wrong_answer\s+ok").unwrap())
                .and(
                    predicate::str::contains("problems/b/problem.toml").and(predicate::str::contains("time")),
                )
                .and(predicate::str::contains(
                    "problems/c: empty package (no problem.toml)",
                ))
                .and(predicate::str::contains("6 checks, 3 mismatches")),
        );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(r#"<testsuites name="mayan-judge ci" tests="6" skipped="0" failures="3""#),
        "{xml}"
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["checks"].as_array().unwrap().len(), 6);
}

#[test]
fn shards_split_the_checks_between_them() {
    if !have("python3") {
        return;
    }
    let root = fixture();
    let mut seen = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = judge_within(CI_TIMEOUT)
            .args(["ci", "--quiet", "--shard", shard])
            .arg(root.path())
            .env("MAYAN_JUDGE_CACHE", root.path().join("cache"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(text.contains(&format!("ci (shard {shard}): 3 checks")), "{text}");
        seen.push(text);
    }
    assert!(seen[0].contains("validate") && seen[1].contains("accepted/good.py"));
    judge_within(CI_TIMEOUT)
        .args(["ci", "--shard", "3/2"])
        .arg(root.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("need 1 <= K <= N"));
}

/// The repository's own packages: every reference program gets the verdict
/// of its folder (what `.ci/run` also runs, with a JUnit report).
#[test]
fn ci_passes_on_the_repository() {
    for tool in ["g++", "gcc", "rustc", "python3"] {
        if !have(tool) {
            return;
        }
    }
    let root = manifest();
    let cache = tempfile::tempdir().unwrap();
    judge_within(CI_TIMEOUT)
        .args(["ci", "--quiet"])
        .arg(&root)
        .env("MAYAN_JUDGE_CACHE", cache.path())
        .assert()
        .code(0)
        .stdout(predicate::str::contains(" 0 mismatches").and(predicate::str::contains("MISMATCH").not()));
}

/// A program expected to fail is judged as Kattis judges it: on its first
/// failing test, and stopped there (no time burnt on the other tests).
#[test]
fn a_failing_reference_program_stops_at_its_first_failing_test() {
    if !have("python3") {
        return;
    }
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    write(
        &r.join("problems/a/problem.toml"),
        "name = \"a\"\ntitle = \"A\"\n[limits]\ntime_ms = 1000\n",
    );
    // Three boards of one block (no solution): each program fails all three.
    for t in 1..=3 {
        write(
            &r.join(format!("testdata/a/secret/{t}.in")),
            &format!("1\n{t} 0\n0\n0\n0\n0\n"),
        );
        write(&r.join(format!("testdata/a/secret/{t}.ans")), "-1\n");
    }
    write(
        &r.join("reference/a/wrong_answer/one_move.py"),
        "print('0 0 1')\n",
    );
    write(
        &r.join("reference/a/time_limit_exceeded/spin.py"),
        "while True:\n    pass\n",
    );
    let json = r.join("ci.json");
    judge_within(CI_TIMEOUT)
        .args(["ci", "--quiet", "--jobs", "1", "--json"])
        .arg(&json)
        .arg(r)
        .env("MAYAN_JUDGE_CACHE", r.join("cache"))
        .assert()
        .code(0)
        .stdout(
            predicate::str::is_match(
                r"wrong_answer/one_move\.py\s+wrong_answer\s+ok\s+1 WA \(stopped at 1\)",
            )
            .unwrap()
            .and(
                predicate::str::is_match(
                    r"time_limit_exceeded/spin\.py\s+time_limit_exceeded\s+ok\s+1 TLE \(stopped at 1\)",
                )
                .unwrap(),
            ),
        );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    for check in v["checks"].as_array().unwrap().iter().skip(1) {
        assert_eq!(check["grading"]["tests"].as_array().unwrap().len(), 1, "{check}");
    }
}
