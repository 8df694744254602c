//! The `gen` command, run as a user runs it: file names, answers that agree
//! with `solve`, reproducible output, and refusals with exit code 2.

use crate::util::judge;
use mayan_judge::puzzle::sim::Puzzle;
use predicates::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// Every file of a folder by name, with its text.
fn files(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let text = std::fs::read_to_string(e.path()).unwrap();
            (e.file_name().to_string_lossy().into_owned(), text)
        })
        .collect()
}

fn gen_into(dir: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    judge().arg("gen").arg("--out").arg(dir).args(extra).assert()
}

#[test]
fn solvable_tests_have_the_solvers_answer_and_are_reproducible() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    let args = ["--seed", "7", "--count", "4", "--n", "5", "--blocks", "20"];
    gen_into(&a, &args)
        .success()
        .stdout("")
        .stderr(predicate::str::contains("gen-7-1.in (n=5, "));
    let got = files(&a);
    let names: Vec<&str> = got.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "gen-7-1.ans",
            "gen-7-1.in",
            "gen-7-2.ans",
            "gen-7-2.in",
            "gen-7-3.ans",
            "gen-7-3.in",
            "gen-7-4.ans",
            "gen-7-4.in"
        ]
    );
    for k in 1..=4 {
        let input = a.join(format!("gen-7-{k}.in"));
        let puzzle = Puzzle::parse(got[&format!("gen-7-{k}.in")].as_bytes()).expect("valid puzzle");
        assert_eq!(puzzle.n, 5);
        assert!(puzzle.board.block_count() >= 20);
        let answer = &got[&format!("gen-7-{k}.ans")];
        assert_eq!(answer.lines().count(), 5, "solvable: {answer}");
        let solved = judge().arg("solve").arg(&input).output().unwrap();
        assert!(solved.status.success());
        assert_eq!(String::from_utf8(solved.stdout).unwrap(), *answer);
    }
    gen_into(&b, &args).success();
    assert_eq!(files(&b), got, "same seed, same files");
    gen_into(&b, &["--seed", "8", "--count", "1", "--quiet", "--prefix", "x"])
        .success()
        .stderr("");
    assert_ne!(files(&b)["x1.in"], got["gen-7-1.in"]);
}

#[test]
fn impossible_tests_answer_minus_one_with_three_blocks_of_every_colour() {
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--impossible", "--count", "3", "--blocks", "15..25", "--quiet"];
    gen_into(tmp.path(), &args).success();
    let got = files(tmp.path());
    assert_eq!(got.len(), 6);
    for (name, text) in &got {
        if name.ends_with(".ans") {
            assert_eq!(text, "-1\n", "{name}");
        } else {
            let p = Puzzle::parse(text.as_bytes()).expect("valid puzzle");
            assert!((15..=25).contains(&p.board.block_count()), "{name}");
            let counts = p.board.colour_counts();
            assert!(counts.iter().all(|&c| c == 0 || c >= 3), "{name}: {counts:?}");
        }
    }
}

#[test]
fn per_colour_tests_have_the_shape_asked_for_up_to_eight_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let (built, impossible) = (tmp.path().join("built"), tmp.path().join("impossible"));
    let shape = [
        "--colours",
        "5",
        "--per-colour",
        "6..7",
        "--count",
        "2",
        "--quiet",
    ];
    gen_into(&built, &[&shape[..], &["--n", "8"]].concat()).success();
    gen_into(&impossible, &[&shape[..], &["--n", "6", "--impossible"]].concat()).success();
    for (dir, solvable) in [(&built, true), (&impossible, false)] {
        assert_eq!(
            files(dir).len(),
            4,
            "two tests, each an .in and an .ans, in {}",
            dir.display()
        );
        for (name, text) in files(dir) {
            let Some(stem) = name.strip_suffix(".in") else {
                continue;
            };
            let p = Puzzle::parse(text.as_bytes()).expect("valid puzzle");
            assert_eq!(p.n, if solvable { 8 } else { 6 }, "{name}");
            let counts: Vec<u8> = p.board.colour_counts().into_iter().filter(|&k| k > 0).collect();
            assert_eq!(counts.len(), 5, "{name}: {counts:?}");
            assert!(counts.iter().all(|k| (6..=7).contains(k)), "{name}: {counts:?}");
            let answer = std::fs::read_to_string(dir.join(format!("{stem}.ans"))).unwrap();
            assert_eq!(answer == "-1\n", !solvable, "{name}: {answer}");
        }
    }
}

#[test]
fn bottom_row_tests_keep_every_block_on_row_zero() {
    let tmp = tempfile::tempdir().unwrap();
    gen_into(
        tmp.path(),
        &["--bottom", "--n", "1..3", "--count", "5", "--quiet"],
    )
    .success();
    for (name, text) in files(tmp.path()) {
        if name.ends_with(".in") {
            let p = Puzzle::parse(text.as_bytes()).expect("valid puzzle");
            assert!((0..5).all(|x| p.board.height(x) <= 1), "{name}");
            assert!((1..=3).contains(&p.n));
        }
    }
}

#[test]
fn a_request_no_board_can_meet_exits_2_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    gen_into(&out, &["--bottom", "--blocks", "20"])
        .code(2)
        .stderr(predicate::str::contains(
            "a board with every block on the bottom row holds at most 5 blocks, but at least 20 were asked for",
        ));
    assert!(!out.exists());
    gen_into(&out, &["--n", "9"])
        .code(2)
        .stderr(predicate::str::contains("n must be between 1 and 8"));
    gen_into(&out, &["--per-colour", "2"])
        .code(2)
        .stderr(predicate::str::contains("blocks per colour must be at least 3"));
    gen_into(&out, &["--prefix", "a/b"])
        .code(2)
        .stderr(predicate::str::contains("--prefix"));
}

#[test]
fn existing_files_are_kept_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let args = ["--count", "2", "--n", "2", "--quiet"];
    std::fs::write(tmp.path().join("gen-1-2.ans"), "mine\n").unwrap();
    gen_into(tmp.path(), &args).code(2).stderr(
        predicate::str::contains("gen-1-2.ans already exists").and(predicate::str::contains("--force")),
    );
    assert_eq!(files(tmp.path()).len(), 1, "nothing written");
    let mut forced = args.to_vec();
    forced.push("--force");
    gen_into(tmp.path(), &forced).success();
    assert_ne!(files(tmp.path())["gen-1-2.ans"], "mine\n");
}

#[test]
fn giving_up_says_how_many_attempts_were_made() {
    let tmp = tempfile::tempdir().unwrap();
    gen_into(
        tmp.path(),
        &["--colours", "1", "--blocks", "30", "--count", "1", "--quiet"],
    )
    .code(2)
    .stderr(predicate::str::contains(
        "test 1 of 1: gave up after 2000 attempts",
    ));
}
