//! `mayan-judge export --format kattis`: the package it writes passes
//! problemtools' `verifyproblem` (which `.ci/run` installs into
//! `target/problemtools-venv`), its Python output validator gives the
//! verdicts of `mayan-judge check --protocol kattis` on the same files (and
//! so does the DMOJ export's checker module, its `check()` called as DMOJ's
//! judge calls it), and
//! the command refuses what it cannot export.

use crate::util::{
    CASE4, CASE4_ANSWER, bundled_tests, judge, manifest, on_path, target_dir, tool, tools_required,
};
use mayan_judge::workflows::export::checkers::{PythonProtocol, python_checker};
use predicates::prelude::*;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

/// Exports `problems/mayan` into `<root>/mayan`.
fn export_mayan(root: &Path) -> PathBuf {
    let out = root.join("mayan");
    judge()
        .args(["export", "--format", "kattis"])
        .arg(manifest().join("problems/mayan"))
        .arg(&out)
        .args(["--source", "NOIP 2011"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "1 sample and {} secret tests",
            bundled_tests() - 1
        )));
    out
}

/// The real Python 3 interpreter (not a version manager's shim, which can
/// cost 200 ms a start), or `None` after [`tool`] says why.
pub fn python() -> Option<PathBuf> {
    tool("python3").map(|py| real_python(&py))
}

/// What `python3` runs in the end (a shim's target), or `py` itself.
fn real_python(py: &Path) -> PathBuf {
    let found = std::process::Command::new(py)
        .args(["-c", "import os, sys; print(os.path.realpath(sys.executable))"])
        .output();
    match found {
        Ok(o) if o.status.success() => PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()),
        _ => py.to_path_buf(),
    }
}

/// Runs a program with `stdin` as its standard input; the exit code.
fn run_with_stdin(cmd: &mut std::process::Command, stdin: &[u8]) -> i32 {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    // A program may stop reading early; a broken pipe is not an error here.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait().expect("wait").code().unwrap_or(-1)
}

// ---- verifyproblem ----------------------------------------------------------

/// `(errors, warnings)` from verifyproblem's closing line
/// (`mayan tested: 0 errors, 2 warnings`).
fn tested_counts(output: &str, problem: &str) -> Option<(u32, u32)> {
    let line = output
        .lines()
        .rfind(|l| l.starts_with(&format!("{problem} tested: ")))?;
    let counts: Vec<u32> = line
        .split_once(": ")?
        .1
        .split(", ")
        .map(|part| part.split_whitespace().next()?.parse().ok())
        .collect::<Option<_>>()?;
    match counts.as_slice() {
        [errors, warnings] => Some((*errors, *warnings)),
        _ => None,
    }
}

#[test]
fn tested_line_is_parsed() {
    let out = "Loading problem mayan\nWARNING x\nmayan tested: 0 errors, 1 warning\n";
    assert_eq!(tested_counts(out, "mayan"), Some((0, 1)));
    assert_eq!(
        tested_counts("mayan tested: 3 errors, 0 warnings", "mayan"),
        Some((3, 0))
    );
    assert_eq!(tested_counts("nothing", "mayan"), None);
}

/// PyPy's nursery (young generation) for the verifyproblem run with PyPy:
/// the size PyPy documents as its default. Left alone, PyPy takes half the
/// "cache size" /proc/cpuinfo reports, which on a server CPU that reports
/// its last-level cache (an Intel Xeon: 105 MiB or more) is 52 MiB or more;
/// problemtools applies the memory limit as address space (`RLIMIT_AS`),
/// so with a nursery of 64 MiB PyPy cannot even start under 128 MiB ("cannot
/// allocate nursery"), whatever the program. Kattis counts memory, not
/// address space, and sizes its own PyPy: the package's limit is the same in
/// both runs, only the host's tuning of the interpreter is pinned
/// (docs/EXPORT.md, "How each judge runs Python").
const PYPY_NURSERY: &str = "4MB";

/// The time limit verifyproblem judges with, in seconds. Kattis derives its
/// own from the accepted programs (twice the slowest, rounded up to a
/// second: 1 s here, 2 s on a loaded machine) and stops a run at twice the
/// limit (`time_safety_margin`). The package's 3 s (in `.timelimit`, checked
/// by `ci` under the same rules) would let the time-limit-exceeded program
/// pass five tests of 3-5 s at that margin before its verdict: 25 CPU-s of
/// PyPy. At 1.5 s the slowest accepted program (plain_dfs.c, 0.44 s) is over
/// three times inside it, and brute.py still needs 4.9 s on secret/7, well
/// past the 3 s margin: the same verdicts for a fifth of the time.
const VERIFY_TIME_LIMIT: &str = "1.5";

/// Runs verifyproblem on the package `out` (its parts `parts`, its
/// submissions matching `filter`) with [`VERIFY_TIME_LIMIT`]; the output,
/// after checking that it found no error.
fn verifyproblem(verify: &Path, out: &Path, parts: &[&str], filter: Option<&str>, pypy: bool) -> String {
    let mut cmd = std::process::Command::new(verify);
    if let Some(py) = on_path("python3").map(|py| real_python(&py))
        && let Some(dir) = py.parent()
    {
        // Validators start `python3`: the interpreter itself, not a shim.
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![dir.to_path_buf()];
        dirs.extend(std::env::split_paths(&path));
        cmd.env("PATH", std::env::join_paths(dirs).unwrap());
    }
    // problemtools reads a languages.yaml beside the problem folder: Python 3
    // as problemtools (and Kattis) runs it, with PyPy, or with CPython.
    let languages = out.parent().unwrap().join("languages.yaml");
    if pypy {
        let _ = std::fs::remove_file(&languages);
        cmd.env("PYPY_GC_NURSERY", PYPY_NURSERY);
    } else {
        std::fs::write(
            &languages,
            "python3:\n    name: 'Python 3 (CPython)'\n    compile: 'python3 -m py_compile {files}'\n    run: 'python3 \"{mainfile}\"'\n",
        )
        .unwrap();
    }
    if let Some(filter) = filter {
        cmd.args(["-s", filter]);
    }
    let output = cmd
        .arg("-p")
        .args(parts)
        .args(["-t", VERIFY_TIME_LIMIT])
        .arg(out)
        .output()
        .expect("run verifyproblem");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let python = if pypy { "PyPy" } else { "CPython" };
    eprintln!("---- verifyproblem, Python 3 with {python}:\n{text}");
    let Some((errors, warnings)) = tested_counts(&text, "mayan") else {
        panic!("no `mayan tested:` line in verifyproblem's output");
    };
    eprintln!("verifyproblem with {python}: {errors} errors, {warnings} warnings");
    for w in text.lines().filter(|l| l.starts_with("WARNING")) {
        eprintln!("  {w}");
    }
    assert_eq!(errors, 0, "verifyproblem ({python}) found errors:\n{text}");
    assert!(
        output.status.success(),
        "verifyproblem ({python}) exited with {}",
        output.status
    );
    text
}

/// Whether TeX's `kpsewhich` finds each of `files`.
fn kpsewhich_finds(files: &[&str]) -> bool {
    files.iter().all(|f| {
        std::process::Command::new("kpsewhich")
            .arg(f)
            .output()
            .is_ok_and(|o| o.status.success() && !o.stdout.trim_ascii().is_empty())
    })
}

#[test]
fn verifyproblem_accepts_the_kattis_export_with_pypy_and_with_cpython() {
    let start = Instant::now();
    let root = tempfile::tempdir().unwrap();
    // verifyproblem takes the problem id from the folder name.
    let out = export_mayan(root.path());
    let exported = start.elapsed();
    // The package's memory limit, not a larger one for PyPy's sake.
    let yaml = std::fs::read_to_string(out.join("problem.yaml")).unwrap();
    assert!(yaml.contains("\n  memory: 128\n"), "{yaml}");
    let Some(verify) = tool("verifyproblem") else {
        return;
    };
    // The statement is compiled with lualatex (and plasTeX finds files with
    // TeX's kpsewhich): without TeX that part cannot run at all.
    let mut parts = vec!["config", "validators", "graders", "data", "submissions"];
    if on_path("lualatex").is_some() && kpsewhich_finds(&["luaotfload-main.lua", "ulem.sty"]) {
        parts.insert(1, "statement");
    } else {
        // (XeLaTeX for the Polygon export's Chinese statement brings
        // lualatex along, but not the packages problemtools' template uses.)
        eprintln!(
            "note: lualatex with luaotfload and ulem (apt-get install texlive-luatex texlive-latex-extra) not installed: verifyproblem's statement part is not run"
        );
    }
    // Everything, with Python 3 as Kattis runs it (PyPy); beside it, the
    // Python submissions with CPython (what DOMjudge, CMS and `grade` run).
    // The two passes mostly wait for the programs they start, so they run
    // at once, each on an export of its own (verifyproblem reads the
    // languages.yaml beside the problem folder): the longest test of
    // `cargo test` lasts as long as the longer pass, not both.
    let with_pypy = tool("pypy3").is_some();
    let cpython = with_pypy.then(|| {
        let root = tempfile::tempdir().unwrap();
        let out = export_mayan(root.path());
        let verify = verify.clone();
        std::thread::spawn(move || {
            verifyproblem(&verify, &out, &["submissions"], Some(r"\.py$"), false);
            drop(root);
        })
    });
    let text = verifyproblem(&verify, &out, &parts, None, with_pypy);
    if with_pypy {
        assert!(
            text.contains("accepted/solution.py"),
            "the Python reference program ran:\n{text}"
        );
    }
    if let Some(Err(panic)) = cpython.map(std::thread::JoinHandle::join) {
        std::panic::resume_unwind(panic);
    }
    eprintln!("verifyproblem: {exported:?} export, {:?} in all", start.elapsed());
}

// ---- the Python validators ------------------------------------------------------

/// No solution.
pub const NONE: &str = "2\n1 0\n1 0\n0\n1 0\n1 0\n";
/// Row 0 reads 1 . 1 1 .: `0 0 1` clears it at once, one move too early.
pub const EARLY: &str = "2\n1 0\n0\n1 0\n1 0\n0\n";
/// RULES.md's example: the literal answer swaps two equal colours.
pub const NOOP: &str = "4\n2 3 0\n1 0\n1 2 2 0\n3 1 3 0\n0\n";

/// Outputs to judge on a board whose smallest solution is `answer`.
pub fn outputs(answer: &str) -> Vec<Vec<u8>> {
    let mut v: Vec<String> = vec![
        answer.to_string(),
        format!(
            "\r\n  {}\r\n\n",
            answer.replace('\n', " \r\n").replace(' ', "\t ")
        ),
        "-1\n".into(),
        "-1".into(),
        String::new(),
        "\n \n".into(),
        "garbage\n".into(),
        "1 2\n".into(),
        "1 2 3 4\n".into(),
        "0 0 1 x\n".into(),
        "-1\n-1\n".into(),
        "-1\n0 0 1\n".into(),
        "0 0 1\n-1\n".into(),
        "- 1\n".into(),
        "-01\n".into(),
        "1\u{b}0 0 1\n".into(),
        "2147483648\n".into(),
        "1.0 0 1\n".into(),
        format!("\u{feff}{answer}"),
        "\u{feff}-1\n".into(),
        "\u{feff}\u{feff}-1\n".into(),
    ];
    let moves: Vec<&str> = answer.lines().collect();
    if moves != ["-1"] {
        let rest = moves[1..].join("\n");
        for first in [
            "0 6 1",
            "5 0 1",
            "0 9 1",
            "0 0 0",
            "0 0 -1",
            "4 0 1",
            "0 -1 1",
            "99999999999999999999 0 1",
            "+0 0 1",
            "00 0 +1",
        ] {
            v.push(format!("{first}\n{rest}\n"));
        }
        v.push(format!("{answer}0 0 1\n"));
        v.push(format!("{}\n", moves[0]));
        v.push(format!("{}\n", moves[..moves.len() - 1].join("\n")));
        v.push("0 0 1\n".repeat(moves.len()));
        v.push("0 0 1\n".repeat(moves.len() + 1));
    }
    let mut out: Vec<Vec<u8>> = v.into_iter().map(String::into_bytes).collect();
    out.push((0..=255u8).cycle().take(700).collect());
    out.push(b"2 0 1\n\xff\xfe 1 1\n".to_vec());
    out.push(b"\x00".to_vec());
    out
}

/// The validator the export ships.
fn exported_validator(root: &Path, kind: &str) -> PathBuf {
    let out = export_mayan(root);
    let v = out.join(kind).join("mayan/validate.py");
    assert!(v.is_file(), "{} missing", v.display());
    v
}

struct Verdicts {
    /// Exit code and the first word of judgemessage.txt (AC, WA, PE, FAIL...).
    rust: (i32, String),
    python: (i32, String),
}

fn first_word(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .split([':', ' ', '\n'])
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Judges `output` with `mayan-judge check --protocol kattis` and with the
/// Python validator, on the same files.
fn both(
    dir: &Path,
    python: &Path,
    validator: &Path,
    input: &str,
    answer: &str,
    output: &[u8],
    any: bool,
) -> Verdicts {
    let (inp, ans) = (dir.join("in"), dir.join("ans"));
    std::fs::write(&inp, input).unwrap();
    std::fs::write(&ans, answer).unwrap();
    let (fb_rust, fb_py) = (dir.join("fb-rust"), dir.join("fb-py"));
    for fb in [&fb_rust, &fb_py] {
        let _ = std::fs::remove_dir_all(fb);
        std::fs::create_dir(fb).unwrap();
    }
    let bin = assert_cmd::cargo::cargo_bin("mayan-judge");
    let mut rust = std::process::Command::new(bin);
    rust.args(["check", "--protocol", "kattis"]);
    if any {
        // Before the files: after them, `check` takes it for one of the
        // extra arguments the Kattis protocol ignores.
        rust.arg("--any");
    }
    rust.args([&inp, &ans, &fb_rust]);
    let rust_code = run_with_stdin(&mut rust, output);
    let mut py = std::process::Command::new(python);
    py.arg("-S").arg(validator).args([&inp, &ans, &fb_py]);
    if any {
        py.arg("any");
    }
    let py_code = run_with_stdin(&mut py, output);
    Verdicts {
        rust: (rust_code, first_word(&fb_rust.join("judgemessage.txt"))),
        python: (py_code, first_word(&fb_py.join("judgemessage.txt"))),
    }
}

/// The smallest solution, from `mayan-judge solve`.
pub fn solve(input: &str) -> String {
    let out = judge().args(["solve", "-"]).write_stdin(input).output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The boards both agreement tests judge outputs on: official case 4, three
/// small boards (no solution, emptied early, a same-colour swap), four of
/// the packages' tests, and case 4 again as a Windows editor saves it.
pub fn boards() -> Vec<String> {
    let mut boards: Vec<String> = [CASE4, NONE, EARLY, NOOP].iter().map(|s| s.to_string()).collect();
    for test in [
        "mayan-hard/secret/cascade-5",
        "mayan-hard/secret/ten-colours",
        "mayan/secret/bottom-1",
        "mayan-hard/secret/none-1",
    ] {
        let path = manifest().join(format!("testdata/{test}.in"));
        boards.push(std::fs::read_to_string(&path).unwrap());
    }
    // Case 4 again, with a byte order mark and CRLF line ends.
    boards.push(format!("\u{feff}{}", CASE4.replace('\n', "\r\n")));
    boards
}

/// Outputs for one board each (by index into [`boards`]).
pub fn extra_outputs() -> Vec<(usize, &'static [u8])> {
    vec![
        (2, b"2 0 -1\n3 0 -1\n"),             // EARLY: valid, not the smallest
        (2, b"0 0 1\n0 0 1\n"),               // EARLY: a move on an empty board
        (2, b"0 0 1\n"),                      // EARLY: emptied by move 1 of 2
        (3, b"0 1 1\n1 1 1\n2 1 1\n2 0 1\n"), // NOOP: the no-noop answer, valid
        (0, b"2 0 1\n1 1 1\n4 0 -1\n"),       // CASE4: blocks left
        (1, b"0 0 1\n1 0 -1\n"),              // NONE: an illegal move
    ]
}

/// The Python that judges with the DMOJ checker module: DMOJ's own where
/// `.ci/run` installed it (and required with `MAYAN_JUDGE_REQUIRE_TOOLS=1`),
/// else `python`, where the driver stands in for DMOJ's few names.
fn dmoj_or(python: &Path) -> PathBuf {
    let installed = target_dir().join("dmoj-venv/bin/dmoj").is_file();
    (installed || tools_required())
        .then(|| tool("dmoj"))
        .flatten()
        .unwrap_or_else(|| python.to_path_buf())
}

/// The verdicts (AC, WA, PE, FAIL) of the DMOJ export's checker module on
/// `cases` (input, answer, output, any), its `check()` called in one Python
/// process by `dmoj_check.py`, which also checks each result's contract.
fn dmoj_module_verdicts(root: &Path, python: &Path, cases: &[(&str, &str, &[u8], bool)]) -> Vec<String> {
    let dmoj = root.join("dmoj");
    judge()
        .args(["export", "--format", "dmoj"])
        .arg(manifest().join("problems/mayan"))
        .arg(&dmoj)
        .assert()
        .success();
    let any = root.join("any-checker.py");
    std::fs::write(&any, python_checker(PythonProtocol::Testlib, true)).unwrap();
    let dir = root.join("dmoj-cases");
    std::fs::create_dir(&dir).unwrap();
    for (n, (input, answer, output, any)) in cases.iter().enumerate() {
        let file = |ext: &str| dir.join(format!("{n}.{ext}"));
        std::fs::write(file("in"), input).unwrap();
        std::fs::write(file("ans"), answer).unwrap();
        std::fs::write(file("out"), output).unwrap();
        std::fs::write(file("flag"), if *any { "any" } else { "smallest" }).unwrap();
    }
    let out = std::process::Command::new(dmoj_or(python))
        .arg(manifest().join("tests/integration/dmoj_check.py"))
        .arg(dmoj.join("checker.py"))
        .arg(&any)
        .arg(&dir)
        .arg(cases.len().to_string())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "dmoj_check.py: {stderr}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `check --protocol kattis`'s verdict as the DMOJ module's driver words it.
fn kattis_word((code, word): &(i32, String)) -> &str {
    match code {
        42 => "AC",
        1 => "FAIL",
        _ => word,
    }
}

/// The exported Kattis output validator in `root`, and an empty folder
/// `work` beside it: (validator, work).
fn output_validator_and_work(root: &Path) -> (PathBuf, PathBuf) {
    let validator = exported_validator(root, "output_validators");
    let work = root.join("work");
    std::fs::create_dir(&work).unwrap();
    (validator, work)
}

/// Fails unless another checker, `who`, said `theirs` on `case` (board,
/// answer, output, any) where `check --protocol kattis` said `rust`, `ours`
/// in the other's words.
fn assert_agree<T: PartialEq<U> + std::fmt::Debug, U: std::fmt::Debug>(
    (i, _, output, any): &(usize, String, Vec<u8>, bool),
    rust: &(i32, String),
    ours: T,
    who: &str,
    theirs: U,
) {
    assert_eq!(
        ours,
        theirs,
        "board {i}, any = {any}, output {:?}: check --protocol kattis says {rust:?}, {who} says {theirs:?}",
        String::from_utf8_lossy(output)
    );
}

#[test]
fn the_python_output_validator_and_dmoj_checker_module_agree_with_check() {
    let Some(python) = python() else { return };
    let root = tempfile::tempdir().unwrap();
    let (validator, work) = output_validator_and_work(root.path());
    let boards = boards();
    let extra = extra_outputs();
    // Every (board, output, reading) case, judged by both checkers.
    let mut cases: Vec<(usize, String, Vec<u8>, bool)> = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        let answer = solve(board);
        let mut outs = outputs(&answer);
        outs.extend(extra.iter().filter(|(b, _)| *b == i).map(|(_, o)| o.to_vec()));
        for output in outs {
            for any in [false, true] {
                cases.push((i, answer.clone(), output.clone(), any));
            }
        }
    }
    // Two workers, each in a folder of its own: the cases are some 700
    // starts of Python and of the judge, which mostly wait for them.
    let verdicts = crate::util::in_two_workers(&work, &cases, |dir, chunk| {
        chunk
            .iter()
            .map(|(i, answer, output, any)| both(dir, &python, &validator, &boards[*i], answer, output, *any))
            .collect()
    });
    let mut checked = 0;
    for (case, v) in cases.iter().zip(&verdicts) {
        assert_agree(case, &v.rust, &v.rust, "validate.py", &v.python);
        checked += (v.rust.0 == 42) as usize;
    }
    assert_eq!(verdicts.len(), cases.len());
    assert!(
        checked >= 2 * boards.len(),
        "some accepted cases: {checked} of {}",
        cases.len()
    );
    // Judge errors: an invalid puzzle, an answer file that is not an answer.
    let run_of_three = "1\n1 1 1 0\n0\n0\n0\n0\n";
    let v = both(&work, &python, &validator, run_of_three, "-1\n", b"-1\n", false);
    assert_eq!((v.rust.0, v.python.0), (1, 1), "invalid puzzle");
    let v = both(&work, &python, &validator, CASE4, "x y z\n", b"-1\n", false);
    assert_eq!((v.rust.0, v.python.0), (1, 1), "malformed answer file");
    // The DMOJ checker module, on the same cases and the two judge errors.
    let mut module_cases: Vec<(&str, &str, &[u8], bool)> = cases
        .iter()
        .map(|(i, answer, output, any)| (boards[*i].as_str(), answer.as_str(), output.as_slice(), *any))
        .collect();
    module_cases.push((run_of_three, "-1\n", b"-1\n", false));
    module_cases.push((CASE4, "x y z\n", b"-1\n", false));
    let module = dmoj_module_verdicts(root.path(), &python, &module_cases);
    assert_eq!(module.len(), module_cases.len());
    for (n, (case, v)) in cases.iter().zip(&verdicts).enumerate() {
        assert_agree(
            case,
            &v.rust,
            kattis_word(&v.rust),
            "the DMOJ module",
            module[n].as_str(),
        );
    }
    assert_eq!(module[cases.len()..], ["FAIL", "FAIL"], "the judge errors");
    let cases = cases.len();
    eprintln!("{cases} outputs judged alike by check, validate.py and the DMOJ module ({checked} accepted)");
}

// ---- outputs of 24 MiB ------------------------------------------------------------

/// Outputs of 24 MiB (DMOJ's default output limit) in `dir`, for official
/// case 4: one line of 8 Mi tokens `12`, and one number of 24 Mi digits;
/// (what each is, its file).
pub fn huge_outputs(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    const SIZE: usize = 24 << 20;
    [
        ("one line of tokens", b"12 ".repeat(SIZE / 3)),
        ("one number", vec![b'9'; SIZE]),
    ]
    .into_iter()
    .map(|(what, bytes)| {
        let path = dir.join(what.replace(' ', "-"));
        std::fs::write(&path, bytes).unwrap();
        (what, path)
    })
    .collect()
}

/// `check`'s verdict word (AC, WA, PE) and testlib exit code on the files.
pub fn check_verdict(input: &Path, output: &Path, answer: &Path) -> (&'static str, i32) {
    let out = judge()
        .arg("check")
        .args([input, output, answer])
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    (["AC", "WA", "PE"][code as usize], code)
}

/// What `checker_bounds.py` measures of one way of calling a checker:
/// `module CHECKER INPUT ANSWER OUTPUT` or `process STDIN CMD...`.
pub fn bounds<S: AsRef<OsStr>>(python: &Path, args: &[S]) -> serde_json::Value {
    let out = std::process::Command::new(python)
        .arg(manifest().join("tests/integration/checker_bounds.py"))
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "checker_bounds.py: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `cmd` run with `stdin`, by `checker_bounds.py`: its exit code (`code`),
/// `seconds` and peak resident memory (`max_rss_kib`).
pub fn process_bounds<S: AsRef<OsStr>>(python: &Path, stdin: &Path, cmd: &[S]) -> serde_json::Value {
    let mut args: Vec<&OsStr> = vec!["process".as_ref(), stdin.as_os_str()];
    args.extend(cmd.iter().map(AsRef::as_ref));
    bounds(python, &args)
}

/// The exported Python checker, as DMOJ's checker module, as Kattis's output
/// validator (the output on stdin) and under testlib (the output a file; so
/// also under CMS), judges 24 MiB outputs as `check` does, in a fraction of
/// a second (bound: 5 s; reading them whole took 2 to 7 s), never holding
/// them: the module grows DMOJ's process by under 4 MiB (whole: 358 MiB on
/// the line of tokens), a process peaks within 8 MiB of its peak on the
/// right answer (whole: 480 MiB and 20 MiB more).
#[test]
fn the_python_checker_judges_a_huge_line_or_number_without_holding_it() {
    let Some(python) = python() else { return };
    let root = tempfile::tempdir().unwrap();
    let dmoj = root.path().join("dmoj");
    judge()
        .args(["export", "--format", "dmoj"])
        .arg(manifest().join("problems/mayan"))
        .arg(&dmoj)
        .assert()
        .success();
    let checker = dmoj.join("checker.py");
    let (validator, work) = output_validator_and_work(root.path());
    let (inp, ans, right) = (work.join("in"), work.join("ans"), work.join("right"));
    std::fs::write(&inp, CASE4).unwrap();
    std::fs::write(&ans, CASE4_ANSWER).unwrap();
    std::fs::write(&right, CASE4_ANSWER).unwrap();
    // (stdin, command) of each way to judge `out` in a process of its own.
    let os = |p: &Path| p.as_os_str().to_os_string();
    let kattis = |out: &Path| -> (PathBuf, Vec<OsString>) {
        let cmd = [
            os(&python),
            "-S".into(),
            os(&validator),
            os(&inp),
            os(&ans),
            os(&work),
        ];
        (out.to_path_buf(), cmd.to_vec())
    };
    let testlib = |out: &Path| -> (PathBuf, Vec<OsString>) {
        let cmd = [
            os(&python),
            "-S".into(),
            os(&checker),
            os(&inp),
            os(out),
            os(&ans),
        ];
        (PathBuf::from("/dev/null"), cmd.to_vec())
    };
    let on_right = |way: &dyn Fn(&Path) -> (PathBuf, Vec<OsString>)| {
        let (stdin, cmd) = way(&right);
        process_bounds(&python, &stdin, &cmd)
    };
    let (right_kattis, right_testlib) = (on_right(&kattis), on_right(&testlib));
    assert_eq!(
        (&right_kattis["code"], &right_testlib["code"]),
        (&42.into(), &0.into())
    );
    for (what, out) in huge_outputs(&work) {
        let (word, code) = check_verdict(&inp, &out, &ans);
        let module = bounds(
            &dmoj_or(&python),
            &[
                "module".as_ref(),
                checker.as_os_str(),
                inp.as_os_str(),
                ans.as_os_str(),
                out.as_os_str(),
            ],
        );
        assert_eq!(
            module["verdict"], word,
            "{what}: check says {word}, the module {module}"
        );
        assert!(module["seconds"].as_f64().unwrap() < 5.0, "{what}: {module}");
        assert!(module["growth_kib"].as_i64().unwrap() < 4096, "{what}: {module}");
        for (way, (stdin, cmd), right, expect) in [
            ("validate.py", kattis(&out), &right_kattis, 43),
            ("testlib", testlib(&out), &right_testlib, code),
        ] {
            let v = process_bounds(&python, &stdin, &cmd);
            let growth = v["max_rss_kib"].as_i64().unwrap() - right["max_rss_kib"].as_i64().unwrap();
            assert_eq!(v["code"], expect, "{what}, {way}: check says {word}: {v}");
            assert!(v["seconds"].as_f64().unwrap() < 5.0, "{what}, {way}: {v}");
            assert!(
                growth < 8192,
                "{what}, {way}: {growth} KiB more than on the right answer: {v}"
            );
        }
    }
}

#[test]
fn the_python_output_validator_refuses_unknown_flags_and_writes_feedback() {
    let Some(python) = python() else { return };
    let root = tempfile::tempdir().unwrap();
    let (validator, dir) = output_validator_and_work(root.path());
    std::fs::write(dir.join("in"), CASE4).unwrap();
    std::fs::write(dir.join("ans"), CASE4_ANSWER).unwrap();
    let run = |flags: &[&str], output: &[u8]| {
        let fb = dir.join("fb");
        let _ = std::fs::remove_dir_all(&fb);
        std::fs::create_dir(&fb).unwrap();
        let mut cmd = std::process::Command::new(&python);
        cmd.arg(&validator)
            .arg(dir.join("in"))
            .arg(dir.join("ans"))
            .arg(&fb)
            .args(flags);
        let code = run_with_stdin(&mut cmd, output);
        let read = |name: &str| std::fs::read_to_string(fb.join(name)).unwrap_or_default();
        (code, read("judgemessage.txt"), read("teammessage.txt"))
    };
    assert_eq!(
        run(&[], b"2 0 1\n1 1 1\n3 4 -1\n"),
        (42, "AC: correct\n".into(), "accepted\n".into())
    );
    let (code, judge_msg, team_msg) = run(&[], b"2 0 1\n1 9 1\n3 4 -1\n");
    assert_eq!(code, 43);
    assert!(
        judge_msg.starts_with("WA: line 2: move 2 `1 9 1` is illegal"),
        "{judge_msg}"
    );
    assert_eq!(team_msg, "WA: move 2 is wrong\n");
    let (code, judge_msg, _) = run(&["strict"], b"-1\n");
    assert_eq!(code, 1, "{judge_msg}");
    assert!(
        judge_msg.contains("unknown validator flag `strict`"),
        "{judge_msg}"
    );
}

#[test]
fn the_python_input_validator_accepts_the_tests_and_nothing_else() {
    let Some(python) = python() else { return };
    let root = tempfile::tempdir().unwrap();
    let validator = exported_validator(root.path(), "input_validators");
    let data = root.path().join("mayan/data");
    let check = |input: &[u8]| {
        let mut cmd = std::process::Command::new(&python);
        cmd.arg("-S").arg(&validator);
        run_with_stdin(&mut cmd, input)
    };
    let mut seen = 0;
    for group in ["sample", "secret"] {
        for entry in std::fs::read_dir(data.join(group)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "in") {
                assert_eq!(check(&std::fs::read(&path).unwrap()), 42, "{}", path.display());
                seen += 1;
            }
        }
    }
    assert_eq!(seen, bundled_tests());
    for bad in [
        "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0 \n", // trailing blank
        "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0",    // no final newline
        "3\n1 0\n2  1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n", // two blanks
        "3\n01 0\n0\n0\n0\n0\n",                       // leading zero
        "6\n1 0\n0\n0\n0\n0\n",                        // n over max_n = 5
        "0\n1 0\n0\n0\n0\n0\n",                        // n = 0
        "1\n1 1 1 0\n0\n0\n0\n0\n",                    // a vertical run of three
        "1\n1 0\n1 0\n1 0\n0\n0\n",                    // a horizontal run of three
        "1\n1 2 1 2 1 2 1 2 0\n0\n0\n0\n0\n",          // eight blocks in a column
        "1\n11 0\n0\n0\n0\n0\n",                       // colour 11
        "1\n1 0 0\n0\n0\n0\n0\n",                      // a 0 inside a column
        "1\n1 0\n0\n0\n0\n",                           // four columns
        "1\n1 0\n0\n0\n0\n0\n0\n",                     // six columns
        "1\r\n1 0\r\n0\r\n0\r\n0\r\n0\r\n",            // CRLF
        "",
    ] {
        assert_eq!(check(bad.as_bytes()), 43, "{bad:?}");
    }
}

// ---- what the command writes and refuses -------------------------------------------

#[test]
fn the_export_holds_the_packages_tests_and_programs() {
    let root = tempfile::tempdir().unwrap();
    let out = export_mayan(root.path());
    let yaml = std::fs::read_to_string(out.join("problem.yaml")).unwrap();
    for line in [
        "validation: custom",
        "memory: 128",
        "output: 1",
        "source: \"NOIP 2011\"",
    ] {
        assert!(yaml.contains(line), "{line} in\n{yaml}");
    }
    assert!(
        !yaml.contains("validator_flags"),
        "accept = smallest needs no flag"
    );
    assert_eq!(std::fs::read_to_string(out.join(".timelimit")).unwrap(), "3\n");
    let tex = std::fs::read_to_string(out.join("problem_statement/problem.en.tex")).unwrap();
    assert!(tex.starts_with("\\problemname{Mayan puzzle (NOIP 2011 senior, day 1 problem 3)}"));
    assert!(tex.contains("\\section*{Input}") && tex.contains("\\section*{Output}"));
    for (test, kattis) in [("sample/1", "sample/1"), ("secret/cascade-1", "secret/cascade-1")] {
        for ext in ["in", "ans"] {
            assert_eq!(
                std::fs::read(manifest().join(format!("testdata/mayan/{test}.{ext}"))).unwrap(),
                std::fs::read(out.join(format!("data/{kattis}.{ext}"))).unwrap(),
                "{test}.{ext}"
            );
        }
    }
    for program in [
        "accepted/solution.py",
        "accepted/backtrack.cpp",
        "accepted/solution.rs",
        "accepted/solution.c",
        "wrong_answer/left_first.cpp",
        "time_limit_exceeded/brute.py",
        "run_time_error/six_rows.py",
    ] {
        assert_eq!(
            std::fs::read(manifest().join("reference/mayan").join(program)).unwrap(),
            std::fs::read(out.join("submissions").join(program)).unwrap(),
            "{program}"
        );
    }
    for kind in ["input_validators", "output_validators"] {
        let build = out.join(kind).join("mayan/build");
        let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&build).unwrap().permissions());
        assert_eq!(mode & 0o111, 0o111, "{} is executable", build.display());
    }
}

#[test]
fn a_non_empty_folder_is_refused_without_force() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("mayan");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "mine").unwrap();
    let export = || {
        let mut c = judge();
        c.args(["export", "--format", "kattis"])
            .arg(manifest().join("problems/mayan"))
            .arg(&out);
        c
    };
    export()
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not empty").and(predicate::str::contains("--force")));
    assert!(out.join("keep.txt").is_file());
    export().arg("--force").assert().success();
    assert!(!out.join("keep.txt").exists() && out.join("problem.yaml").is_file());
    let mut entries: Vec<String> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    entries.sort();
    assert_eq!(entries, ["mayan"], "no temporary folder left beside it");
}

/// `export --format FORMAT [OPTIONS] PKG OUT` (`format_and_options`) is
/// refused (exit 2), its message meeting `why`.
fn refused(format_and_options: &[&str], pkg: &Path, out: &Path, why: impl Predicate<str>) {
    judge()
        .args(["export", "--format"])
        .args(format_and_options)
        .arg(pkg)
        .arg(out)
        .assert()
        .code(2)
        .stderr(why);
}

#[test]
fn what_the_format_cannot_carry_is_refused() {
    // No statement.
    let root = tempfile::tempdir().unwrap();
    refused(
        &["kattis"],
        &manifest().join("problems/mayan-literal"),
        &root.path().join("literal"),
        predicate::str::contains("statement.md not found"),
    );
    // A reading other than the literal rules.
    let pkg = root.path().join("repo/problems/p");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("problem.toml"),
        "name = \"p\"\ntitle = \"P\"\n[checker]\nreading = \"no-noop\"\n",
    )
    .unwrap();
    std::fs::write(pkg.join("statement.md"), "# P\n").unwrap();
    let tests = root.path().join("repo/testdata/p/secret");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(tests.join("1.in"), CASE4).unwrap();
    std::fs::write(tests.join("1.ans"), CASE4_ANSWER).unwrap();
    refused(
        &["kattis"],
        &pkg,
        &root.path().join("p"),
        predicate::str::contains("literal rules only"),
    );
    // No accepted reference program: nothing shows the problem can be solved.
    std::fs::write(pkg.join("problem.toml"), "name = \"p\"\ntitle = \"P\"\n").unwrap();
    for format in ["kattis", "polygon", "hydro", "dmoj", "cms", "lemon"] {
        refused(
            &[format],
            &pkg,
            &root.path().join("p"),
            predicate::str::contains("no accepted reference program"),
        );
    }
    let accepted = root.path().join("repo/reference/p/accepted");
    std::fs::create_dir_all(&accepted).unwrap();
    std::fs::write(accepted.join("sol.py"), "print('2 0 1\\n1 1 1\\n3 4 -1')\n").unwrap();
    // An answer that is not the solver's.
    std::fs::write(tests.join("1.ans"), "-1\n").unwrap();
    refused(
        &["kattis"],
        &pkg,
        &root.path().join("p"),
        predicate::str::contains("1.ans").and(predicate::str::contains("disagrees")),
    );
    // A license without an owner.
    std::fs::write(tests.join("1.ans"), CASE4_ANSWER).unwrap();
    refused(
        &["kattis", "--license", "cc-by-sa"],
        &pkg,
        &root.path().join("p"),
        predicate::str::contains("rights owner"),
    );
    assert!(!root.path().join("p").exists() && !root.path().join("literal").exists());
    // ...and with everything in order, the package is written.
    judge()
        .args([
            "export",
            "--format",
            "kattis",
            "--license",
            "cc-by-sa",
            "--rights-owner",
            "Me",
        ])
        .arg(&pkg)
        .arg(root.path().join("p"))
        .assert()
        .success();
    let yaml = std::fs::read_to_string(root.path().join("p/problem.yaml")).unwrap();
    assert!(
        yaml.contains("license: \"cc by-sa\"") && yaml.contains("rights_owner: \"Me\""),
        "{yaml}"
    );
}

/// The Polygon export's Chinese statement is a document to print
/// (`statements/chinese/statement.tex`, ctexart): XeLaTeX typesets it into a
/// PDF with a CJK font, every Chinese character drawn (no "Missing
/// character" in its log).
#[test]
fn the_chinese_statement_prints_as_a_pdf_with_every_character_drawn() {
    let Some(xelatex) = tool("xelatex") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("polygon");
    judge()
        .args(["export", "--format", "polygon"])
        .arg(manifest().join("problems/mayan"))
        .arg(&out)
        .assert()
        .success();
    let chinese = out.join("statements/chinese");
    let status = std::process::Command::new(xelatex)
        .args(["-interaction=nonstopmode", "-halt-on-error", "statement.tex"])
        .current_dir(&chinese)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    let log = std::fs::read_to_string(chinese.join("statement.log")).unwrap_or_default();
    assert!(status.success(), "xelatex failed: {log}");
    let pdf = std::fs::read(chinese.join("statement.pdf")).unwrap();
    assert!(
        pdf.starts_with(b"%PDF") && pdf.len() > 10_000,
        "{} bytes",
        pdf.len()
    );
    let missing: Vec<&str> = log.lines().filter(|l| l.contains("Missing character")).collect();
    assert!(missing.is_empty(), "characters the font lacks: {missing:?}");
}
