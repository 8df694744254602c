//! What a newcomer tripped over (issue 11, item 6), one test per point: answers
//! named `.out`, a byte order mark and CRLF in files, positions as line and
//! column, progress on a pipe, a package path spelled any way, scoring groups
//! that cannot score, a `max_n` the judge cannot take, and the rules kept in
//! the repository (`docs/RULES.md`) in step with `../shared/RULES.md`.
//!
//! Every test works on a tiny package in a temporary folder, so all of them
//! take well under a second.

use crate::util::{judge, manifest, missing, write};
use predicates::prelude::*;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Row 0 reads `1 1 . 1 .`: one move, `3 0 -1`, clears it (official case 3).
const ONE_MOVE: &str = "1\n1 0\n1 0\n0\n1 0\n0\n";
const ONE_MOVE_ANSWER: &str = "3 0 -1\n";
/// Official case 1: no solution.
const NO_SOLUTION: &str = "2\n1 0\n1 0\n0\n1 0\n1 0\n";

/// A package `ROOT/problems/p` (with `extra` appended to its problem.toml)
/// and its tests in `ROOT/testdata/p`, given as `(file, text)`; the root.
fn package(extra: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    write(
        &root.path().join("problems/p/problem.toml"),
        &format!("name = \"p\"\ntitle = \"P\"\n{extra}"),
    );
    for (file, text) in files {
        write(&root.path().join("testdata/p").join(file), text);
    }
    root
}

/// A [`package`] with two tests: `STEM1.in` solved in one move (its answer
/// in `STEM1.ans`) and `STEM2.in` without a solution (its answer `-1` in
/// `STEM2.EXT`, `EXT` being `.ans` or `.out`).
fn solvable_and_not(extra: &str, [solvable, unsolvable]: [&str; 2], ext: &str) -> tempfile::TempDir {
    let names = [
        format!("{solvable}.in"),
        format!("{solvable}.ans"),
        format!("{unsolvable}.in"),
        format!("{unsolvable}.{ext}"),
    ];
    let texts = [ONE_MOVE, ONE_MOVE_ANSWER, NO_SOLUTION, "-1\n"];
    let files: Vec<(&str, &str)> = names.iter().map(String::as_str).zip(texts).collect();
    package(extra, &files)
}

fn pkg(root: &tempfile::TempDir) -> PathBuf {
    root.path().join("problems/p")
}

/// `validate --quiet PATH` run in `cwd`: exit code and stdout.
fn validate_in(cwd: &Path, path: &str) -> (i32, String) {
    let out = judge()
        .current_dir(cwd)
        .args(["validate", "--quiet", path])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

// ---- (a) answers named .out ---------------------------------------------------

#[test]
fn a_stored_answer_may_be_named_out_and_both_names_are_an_error() {
    let root = solvable_and_not("", ["1", "2"], "out");
    let (code, stdout) = validate_in(root.path(), "problems/p");
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("validate: 2 tests, 0 problems"), "{stdout}");
    // A wrong `.out` is checked like a wrong `.ans`.
    write(&root.path().join("testdata/p/2.out"), "3 0 -1\n");
    let (code, stdout) = validate_in(root.path(), "problems/p");
    assert_eq!(code, 1);
    assert!(
        stdout.contains("2.out: line 1, column 1: stored answer is wrong"),
        "{stdout}"
    );
    // Both names: an error naming both, in a package and among loose files.
    write(&root.path().join("testdata/p/2.ans"), "-1\n");
    for target in ["problems/p", "testdata/p"] {
        let (code, stdout) = validate_in(root.path(), target);
        assert_eq!(code, 1, "{target}");
        assert!(
            stdout.contains("2.in: two answers for one input:")
                && stdout.contains("2.ans and")
                && stdout.contains("2.out (keep one)"),
            "{target}: {stdout}"
        );
    }
    // An input with neither says both names it would take.
    std::fs::remove_file(root.path().join("testdata/p/1.ans")).unwrap();
    let (_, stdout) = validate_in(root.path(), "problems/p");
    assert!(
        stdout.contains("1.in: input without an answer (expected") && stdout.contains("1.out)"),
        "{stdout}"
    );
}

// ---- (b) BOM and CRLF -----------------------------------------------------------

#[test]
fn a_byte_order_mark_and_crlf_line_ends_are_whitespace_not_pe() {
    const BOM: &str = "\u{feff}";
    let dir = tempfile::tempdir().unwrap();
    let crlf = |s: &str| format!("{BOM}{}", s.replace('\n', "\r\n"));
    let input = dir.path().join("1.in");
    let output = dir.path().join("1.txt");
    let answer = dir.path().join("1.ans");
    write(&input, &crlf(ONE_MOVE));
    write(&output, &crlf(ONE_MOVE_ANSWER));
    write(&answer, &crlf(ONE_MOVE_ANSWER));
    judge()
        .arg("check")
        .args([&input, &output, &answer])
        .assert()
        .code(0)
        .stderr(predicate::str::starts_with("ok "));
    // The same files are valid test data.
    judge()
        .args(["validate", "--quiet"])
        .arg(dir.path())
        .assert()
        .code(0)
        .stdout(predicate::str::contains("validate: 1 tests, 0 problems"));
    // A mark anywhere else is not whitespace: it is part of a token.
    write(&output, &format!("3 0 {BOM}-1\n"));
    judge()
        .arg("check")
        .args([&input, &output])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("line 1, column 5: token"));
}

// ---- (c) line and column -------------------------------------------------------

#[test]
fn every_position_in_a_reason_is_a_line_and_a_column() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("case.in");
    write(&input, crate::util::CASE4);
    let output = dir.path().join("case.txt");
    let cases = [
        (
            "2 0 1\n\n 1 1 x\n",
            "wrong output format line 3, column 6: token `x` is not an integer",
        ),
        (
            "2 0 1\n1 1\n",
            "wrong output format line 2, column 4: expected 3 integers `x y g`, found 2 tokens",
        ),
        (
            "2 0 1 7\n",
            "wrong output format line 1, column 7: expected 3 integers `x y g`, found 4 tokens",
        ),
        (
            "-1\n\t-1\n",
            "wrong output format line 2, column 2: `-1` must be the only line",
        ),
        (
            "2 0 1\n1 1 1\n3 4 -1\n  0 0 1\n",
            "wrong output format line 4, column 3: more than n = 3 moves",
        ),
    ];
    for (text, reason) in cases {
        write(&output, text);
        judge()
            .arg("check")
            .args([&input, &output])
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with(reason));
    }
    // Inputs, stored answers and problem.toml findings say where too.
    let root = package(
        "[[scoring.group]]\nname = \"all\"\ntests = \"*\"\npoints = 100\n",
        &[
            ("1.in", "1\n1 0\n1 0\n0\n1  11 0\n0\n"),
            ("1.ans", "-1\n"),
            ("2.in", ONE_MOVE),
            ("2.ans", "\n3 0 x\n"),
        ],
    );
    let (code, stdout) = validate_in(root.path(), "problems/p");
    assert_eq!(code, 1);
    assert!(
        stdout.contains("1.in: line 5, column 4, token `11`: colour must be 1..10"),
        "{stdout}"
    );
    assert!(
        stdout.contains("2.ans: line 2, column 5: token `x` is not an integer"),
        "{stdout}"
    );
}

// ---- (d) progress on a pipe --------------------------------------------------------

#[test]
fn progress_written_to_a_pipe_has_no_empty_lines() {
    let root = solvable_and_not("", ["1", "2"], "ans");
    for target in ["problems/p", "testdata/p"] {
        // assert_cmd reads stderr through a pipe: progress prints lines.
        let out = judge()
            .current_dir(root.path())
            .args(["validate", target])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{target}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.lines().all(|l| !l.trim().is_empty()),
            "{target}: empty lines in {stderr:?}"
        );
    }
}

// ---- (e) the package's path, however spelled --------------------------------------

#[test]
fn a_package_is_found_the_same_way_however_its_path_is_spelled() {
    let root = solvable_and_not("", ["1", "2"], "ans");
    // A reference folder with a wrong verdict name: found only if the
    // package's reference folder is.
    std::fs::create_dir_all(root.path().join("reference/p/maybe")).unwrap();
    let problems = root.path().join("problems");
    let abs = pkg(&root).display().to_string();
    let spellings: [(&Path, &str); 7] = [
        (root.path(), "problems/p"),
        (&problems, "p"),
        (&problems, "./p/"),
        (&problems, "p/..//p"),
        (&problems, &abs),
        (&pkg(&root), "."),
        (&pkg(&root), "../p/"),
    ];
    for (cwd, path) in spellings {
        let (code, stdout) = validate_in(cwd, path);
        assert_eq!(code, 1, "{path} in {}: {stdout}", cwd.display());
        assert!(
            stdout.contains("validate: 2 tests, 1 problem\n")
                && stdout.contains("maybe: unknown expected verdict folder `maybe`"),
            "{path} in {}: {stdout}",
            cwd.display()
        );
    }
}

// ---- (f) scoring groups that cannot score ----------------------------------------

#[test]
fn validate_rejects_a_group_that_matches_no_test_and_a_test_in_no_group() {
    let groups = "[[scoring.group]]\nname = \"bottom\"\ntests = \"secret/b*\"\npoints = 30\n\n\
                  [[scoring.group]]\nname = \"rest\"\ntests = \"secret/rest-*\"\npoints = 70\n";
    let root = solvable_and_not(groups, ["secret/b1", "secret/r1"], "ans");
    let (code, stdout) = validate_in(root.path(), "problems/p");
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(
            "problem.toml: line 10, column 1: scoring group `rest`: tests = `secret/rest-*` matches no test, \
             so its 70 points can never be won"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("r1.in: test `secret/r1` is in no scoring group, so it can never score"),
        "{stdout}"
    );
    assert!(stdout.contains("2 problems\n"), "{stdout}");
    // Fixed glob: valid.
    let toml = pkg(&root).join("problem.toml");
    let fixed = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("secret/rest-*", "secret/r*");
    std::fs::write(&toml, fixed).unwrap();
    assert_eq!(validate_in(root.path(), "problems/p").0, 0);
}

// ---- (g) max_n the solver cannot take ----------------------------------------------

#[test]
fn a_max_n_above_what_the_judge_supports_is_refused_with_the_maximum() {
    let max = mayan_judge::puzzle::sim::MAX_MOVES;
    assert_eq!(max, 12, "the README and problems/README.md say 12");
    let root = package(
        &format!("[input]\nmax_n = {}\n", max + 1),
        &[("1.in", ONE_MOVE), ("1.ans", ONE_MOVE_ANSWER)],
    );
    judge()
        .current_dir(root.path())
        .args(["validate", "--quiet", "problems/p"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("max_n = 13").and(predicate::str::contains("from 1 to 12")));
    judge()
        .current_dir(root.path())
        .args(["validate", "--quiet", "--max-n", "13", "testdata/p"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--max-n 13").and(predicate::str::contains("from 1 to 12")));
    // The maximum itself is accepted, and the solver answers a board with n = 12.
    write(
        &pkg(&root).join("problem.toml"),
        "name = \"p\"\ntitle = \"P\"\n[input]\nmax_n = 12\n",
    );
    assert_eq!(validate_in(root.path(), "problems/p").0, 0);
    let out = judge()
        .args(["solve", "-"])
        .write_stdin(ONE_MOVE.replacen('1', "12", 1))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 12);
}

// ---- (h) docs/RULES.md ------------------------------------------------------------------

/// The `## ` sections of a Markdown page: heading and body.
fn sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            out.push((heading.trim().to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

/// The backtick spans of a text, blanks and line breaks made single spaces.
fn code_spans(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// The integers written in a text (`-1` counts as itself).
fn numbers(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut current = String::new();
    let mut prev = ' ';
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            if current.is_empty() && prev == '-' {
                current.push('-');
            }
            current.push(c);
        } else if !current.is_empty() {
            out.insert(std::mem::take(&mut current));
        }
        prev = c;
    }
    out
}

fn docs_rules() -> String {
    std::fs::read_to_string(manifest().join("docs/RULES.md")).expect("docs/RULES.md")
}

#[test]
fn the_rules_live_in_the_repository_and_their_example_is_the_solvers() {
    use mayan_judge::puzzle::sim::Puzzle;
    use mayan_judge::puzzle::solver::{Reading, solve};
    // The README links them; no page links the copy outside the repository.
    let readme = std::fs::read_to_string(manifest().join("README.md")).unwrap();
    assert!(
        readme.contains("](docs/RULES.md)"),
        "README.md must link docs/RULES.md"
    );
    for page in [
        "README.md",
        "problems/README.md",
        "docs/ARCHITECTURE.md",
        "docs/RULES.md",
    ] {
        let text = std::fs::read_to_string(manifest().join(page)).unwrap();
        assert!(
            !text.contains("](../shared/RULES.md)"),
            "{page} links ../shared/RULES.md"
        );
    }
    // The worked example is what the solver says, under both readings.
    let rules = docs_rules();
    let spans = code_spans(&rules);
    let example = spans
        .iter()
        .find(|s| s.contains(" / "))
        .expect("the example board");
    let puzzle = Puzzle::parse(example.replace('/', "\n").as_bytes()).unwrap();
    for reading in [Reading::LITERAL, Reading::NO_NOOP] {
        let answer = solve(&puzzle, reading).to_text().trim().replace('\n', ", ");
        assert!(
            spans.contains(&answer),
            "docs/RULES.md lacks the {reading} answer `{answer}`"
        );
    }
}

#[test]
fn docs_rules_md_says_what_the_shared_rules_say_section_by_section() {
    let shared_path = manifest().join("../shared/RULES.md");
    let Ok(shared) = std::fs::read_to_string(&shared_path) else {
        missing(
            "shared rules",
            &format!("the shared rules are not at {}", shared_path.display()),
            "put the shared folder (with RULES.md) beside this checkout",
        );
        return;
    };
    let ours = docs_rules();
    // Written against this very text: a change there needs a reading here.
    use sha2::Digest;
    let hash: String = sha2::Sha256::digest(shared.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(
        ours.contains(&format!("sha256 {hash}")),
        "../shared/RULES.md changed (sha256 {hash}): bring docs/RULES.md in line with it, \
         then write the new hash in its header comment"
    );
    // The same sections, in the same order; each holds every number and
    // every quoted token of its counterpart.
    let (theirs, ours) = (sections(&shared), sections(&ours));
    let headings = |s: &[(String, String)]| s.iter().map(|(h, _)| h.clone()).collect::<Vec<_>>();
    assert_eq!(headings(&ours), headings(&theirs), "docs/RULES.md's sections");
    for ((heading, their_body), (_, our_body)) in theirs.iter().zip(&ours) {
        let missing_numbers: Vec<_> = numbers(their_body)
            .difference(&numbers(our_body))
            .cloned()
            .collect();
        assert!(
            missing_numbers.is_empty(),
            "{heading}: docs/RULES.md lacks {missing_numbers:?}"
        );
        let missing_spans: Vec<_> = code_spans(their_body)
            .difference(&code_spans(our_body))
            .cloned()
            .collect();
        assert!(
            missing_spans.is_empty(),
            "{heading}: docs/RULES.md lacks {missing_spans:?}"
        );
    }
}
