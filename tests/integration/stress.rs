//! `mayan-judge stress`, run as a user runs it: every wrong reference program
//! is caught and shrunk to a small board, every accepted one survives 500
//! boards, shrinking is reproducible, and configuration errors exit with 2.

use crate::util::{have, judge, judge_within, manifest, phase};
use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `stress` with a private compile cache, quiet (add `--jobs`).
fn stress(cache: &Path, submission: &Path) -> Command {
    let mut c = judge_within(200);
    c.env("MAYAN_JUDGE_CACHE", cache)
        .args(["stress", "--quiet"])
        .arg(submission);
    c
}

fn programs(dir: &str) -> Vec<PathBuf> {
    let root = manifest().join("reference");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .flat_map(|pkg| {
            std::fs::read_dir(pkg.unwrap().path().join(dir))
                .into_iter()
                .flatten()
        })
        .map(|e| e.unwrap().path())
        .collect();
    out.sort();
    out
}

/// The tool a program needs, or `None` when it is installed.
fn missing_tool(p: &Path) -> Option<&'static str> {
    let tool = match p.extension().and_then(|e| e.to_str()) {
        Some("cpp") => "g++",
        Some("c") => "gcc",
        Some("py") => "python3",
        Some("rs") => "rustc",
        _ => return None,
    };
    (!have(tool)).then_some(tool)
}

/// The part of the report from the shrunk board to the submission's output.
fn shrunk_section(stdout: &str) -> &str {
    let start = stdout.find("shrunk board:").expect("a shrunk board");
    let end = stdout[start..].find("submission's output:").expect("the output") + start;
    &stdout[start..end]
}

/// The shrunk board's block count, from `shrunk board: n = N, B blocks, ...`.
fn shrunk_blocks(stdout: &str) -> u32 {
    let line = shrunk_section(stdout).lines().next().unwrap();
    let blocks = line.split(", ").nth(1).unwrap();
    blocks.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn every_wrong_program_is_caught_and_shrunk_to_at_most_12_blocks() {
    let _phase = phase("stress");
    let cache = tempfile::tempdir().unwrap();
    let wrong = programs("wrong_answer");
    assert!(wrong.len() >= 6, "{wrong:?}");
    for p in wrong {
        if missing_tool(&p).is_some() {
            continue;
        }
        let start = Instant::now();
        let out = stress(cache.path(), &p)
            .args(["--seed", "1", "--time", "30", "--jobs", "2"])
            .output()
            .unwrap();
        let elapsed = start.elapsed();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{}:\n{stdout}", p.display());
        assert!(elapsed < Duration::from_secs(40), "{}: {elapsed:?}", p.display());
        assert!(stdout.contains("FAILED on board #"), "{stdout}");
        let blocks = shrunk_blocks(&stdout);
        eprintln!("{}: shrunk to {blocks} blocks in {elapsed:?}", p.display());
        assert!(blocks <= 12, "{}: {blocks} blocks\n{stdout}", p.display());
        assert!(stdout.contains("reference answer (.ans):"));
        assert!(stdout.contains("replay of the reference answer") || stdout.contains("-1 (no solution)"));
    }
}

#[test]
fn every_accepted_program_survives_500_random_boards() {
    let _phase = phase("stress");
    let cache = tempfile::tempdir().unwrap();
    let mut todo: Vec<(PathBuf, Vec<u8>, &str)> = Vec::new();
    for p in programs("accepted") {
        if missing_tool(&p).is_some() {
            continue;
        }
        // at_most.cpp and no_noop.cpp in mayan/accepted are accepted there
        // because its tests are reading-insensitive; they implement one
        // shortcut each, so they are judged under that reading.
        let reading = match p.file_name().and_then(|n| n.to_str()) {
            Some("at_most.cpp") => "at-most",
            Some("no_noop.cpp") => "no-noop",
            _ => "literal",
        };
        let source = std::fs::read(&p).unwrap();
        if todo.iter().any(|(_, s, r)| *s == source && *r == reading) {
            eprintln!("{}: same program as one already run, skipped", p.display());
            continue;
        }
        todo.push((p, source, reading));
    }
    // Two programs at a time (each with two jobs): the runs mostly wait for
    // the sandbox's set-up, and this test is the last of `cargo test`.
    std::thread::scope(|s| {
        let lanes: Vec<_> = (0..2)
            .map(|lane| {
                let (todo, cache) = (&todo, cache.path());
                s.spawn(move || {
                    for (p, _, reading) in todo.iter().skip(lane).step_by(2) {
                        survives_500_boards(cache, p, reading);
                    }
                })
            })
            .collect();
        for lane in lanes {
            if let Err(panic) = lane.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

/// `stress` passes `p` on 500 random boards of up to 12 blocks under `reading`.
fn survives_500_boards(cache: &Path, p: &Path, reading: &str) {
    let start = Instant::now();
    let out = stress(cache, p)
        .args([
            "--seed",
            "2",
            "--count",
            "500",
            "--max-blocks",
            "12",
            "--jobs",
            "2",
        ])
        .args(["--reading", reading])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{} ({reading}):\n{stdout}{}",
        p.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("tried 500 boards"), "{stdout}");
    eprintln!("{} ({reading}): 500 boards in {:?}", p.display(), start.elapsed());
}

#[test]
fn shrinking_is_reproducible_for_a_seed_whatever_the_jobs() {
    let _phase = phase("stress");
    if !have("g++") {
        return;
    }
    let cache = tempfile::tempdir().unwrap();
    let p = manifest().join("reference/mayan/wrong_answer/cross_two_steps.cpp");
    let run = |jobs: &str| {
        let out = stress(cache.path(), &p)
            .args(["--seed", "5", "--count", "5000", "--jobs", jobs])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
        stdout
    };
    let (a, b, c) = (run("2"), run("2"), run("1"));
    assert_eq!(shrunk_section(&a), shrunk_section(&b));
    assert_eq!(shrunk_section(&a), shrunk_section(&c));
    let failed = |s: &str| s.lines().find(|l| l.starts_with("FAILED")).unwrap().to_string();
    assert_eq!(failed(&a), failed(&c));
}

#[test]
fn the_failing_board_is_saved_as_a_test_and_drawn_in_html() {
    let _phase = phase("stress");
    if !have("g++") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let p = manifest().join("reference/mayan/wrong_answer/left_first.cpp");
    let html = tmp.path().join("r.html");
    let out = stress(&tmp.path().join("cache"), &p)
        .args(["--seed", "1", "--jobs", "2", "--save"])
        .arg(tmp.path().join("saved"))
        .arg("--html")
        .arg(&html)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let saved: Vec<PathBuf> = std::fs::read_dir(tmp.path().join("saved"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 2, "{saved:?}");
    let input = saved.iter().find(|p| p.extension().unwrap() == "in").unwrap();
    // The saved test is valid and its answer is the solver's.
    judge()
        .args(["validate", "--allow-sensitive"])
        .arg(tmp.path().join("saved"))
        .assert()
        .success();
    let solved = judge().arg("solve").arg(input).output().unwrap();
    let ans = std::fs::read(input.with_extension("ans")).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&solved.stdout).trim(),
        String::from_utf8_lossy(&ans).trim()
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<svg") && page.contains("WA"), "{page}");
}

#[test]
fn a_submission_that_does_not_compile_is_a_configuration_error() {
    let _phase = phase("stress");
    if !have("g++") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("broken.cpp");
    std::fs::write(&src, "int main() { return nope; }\n").unwrap();
    stress(&tmp.path().join("cache"), &src)
        .args(["--count", "10", "--jobs", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("does not compile").and(predicate::str::contains("nope")));
}

#[test]
fn a_missing_file_or_bad_budget_is_a_configuration_error() {
    let tmp = tempfile::tempdir().unwrap();
    stress(tmp.path(), &tmp.path().join("none.cpp")).assert().code(2);
    let src = tmp.path().join("a.cpp");
    std::fs::write(&src, "int main() {}\n").unwrap();
    stress(tmp.path(), &src)
        .args(["--count", "5", "--time", "3"])
        .assert()
        .code(2);
}

#[test]
fn stress_judges_a_noip_program_by_its_output_file_under_file_io() {
    let _phase = phase("stress");
    if !have("gcc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let code = std::fs::read_to_string(manifest().join("reference/mayan/accepted/solution.c")).unwrap();
    let noip = code.replacen(
        "int main(void) {",
        "int main(void) {\n    freopen(\"mayan.in\", \"r\", stdin);\n    freopen(\"mayan.out\", \"w\", stdout);",
        1,
    );
    let file = dir.path().join("mayan.c");
    std::fs::write(&file, noip).unwrap();
    stress(dir.path(), &file)
        .args(["--count", "60", "--jobs", "2", "--file-io", "mayan"])
        .assert()
        .code(0);
    // With stdin and stdout it prints nothing, and the reason says why.
    stress(dir.path(), &file)
        .args(["--count", "5", "--jobs", "1", "--shrink-runs", "20"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("--file-io mayan"));
}
