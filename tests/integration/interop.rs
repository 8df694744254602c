//! The exports for other judges, each checked with the judge's own code where
//! it installs here and against the format's documentation otherwise:
//! the C++ testlib checker (Polygon, Hydro, LOJ, UOJ), compiled against the
//! real testlib.h, gives `check`'s verdicts on a few hundred outputs; the
//! DMOJ export is judged by the real DMOJ judge (`dmoj` 4.1.0 from PyPI),
//! an accepted program AC on every test and a wrong one WA, with the
//! checker's reasons as DMOJ's feedback, in about `grade`'s time; the CMS
//! comparator and the LemonLime special judge score every test of their
//! export; and each format's files say what the package says (limits, file
//! I/O, scoring groups).

use crate::export::{
    boards, check_verdict, extra_outputs, huge_outputs, outputs, process_bounds, python, solve,
};
use crate::util::{CASE4, CASE4_ANSWER, CASE4_WRONG, bundled_tests, judge, manifest, tool};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Exports `package` in `format` to `out`.
fn export(format: &str, package: &Path, out: &Path) {
    judge()
        .args(["export", "--format", format])
        .arg(package)
        .arg(out)
        .assert()
        .success();
}

// ---- the C++ testlib checker ----------------------------------------------------------

/// Compiles the exported checker (`accept_any` or not) against testlib.h.
fn compile_checker(dir: &Path, testlib_h: &Path, accept_any: bool) -> PathBuf {
    let source = dir.join(format!("check-{accept_any}.cpp"));
    let text = mayan_judge::workflows::export::checkers::testlib_checker(accept_any);
    std::fs::write(&source, text).unwrap();
    let exe = dir.join(format!("check-{accept_any}"));
    let status = Command::new("g++")
        .args(["-O0", "-std=c++11", "-I"])
        .arg(testlib_h.parent().unwrap())
        .arg("-o")
        .arg(&exe)
        .arg(&source)
        .status()
        .expect("run g++");
    assert!(status.success(), "the testlib checker does not compile");
    exe
}

/// `(exit code, testlib's result words)` from a testlib checker's stderr.
fn testlib_verdict(program: &mut Command) -> (i32, String) {
    let out = program.stdin(Stdio::null()).output().expect("run the checker");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let word = ["ok", "wrong answer", "wrong output format", "FAIL"]
        .into_iter()
        .find(|w| stderr.starts_with(&format!("{w} ")))
        .unwrap_or("?");
    (out.status.code().unwrap_or(-1), word.to_string())
}

#[test]
fn the_cpp_testlib_checker_agrees_with_check_on_hundreds_of_outputs() {
    let (Some(_), Some(testlib_h)) = (tool("g++"), tool("testlib.h")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    // Both builds at once: testlib.h is slow to compile.
    let (smallest, any) = std::thread::scope(|s| {
        let a = s.spawn(|| compile_checker(work, &testlib_h, false));
        let b = s.spawn(|| compile_checker(work, &testlib_h, true));
        (a.join().unwrap(), b.join().unwrap())
    });
    let bin = assert_cmd::cargo::cargo_bin("mayan-judge");
    let (inp, out, ans) = (work.join("in"), work.join("out"), work.join("ans"));
    let boards = boards();
    let extra = extra_outputs();
    // Every (board, output) case, judged by both checkers under both readings.
    let mut cases: Vec<(usize, String, Vec<u8>)> = Vec::new();
    for (i, board) in boards.iter().enumerate() {
        let answer = solve(board);
        let mut outs = outputs(&answer);
        outs.extend(extra.iter().filter(|(b, _)| *b == i).map(|(_, o)| o.to_vec()));
        cases.extend(outs.into_iter().map(|o| (i, answer.clone(), o)));
    }
    // Two workers, each in a folder of its own: the cases are some 1,400
    // process starts, which mostly wait for the kernel.
    let verdicts = crate::util::in_two_workers(work, &cases, |dir, chunk| {
        let (inp, out, ans) = (dir.join("in"), dir.join("out"), dir.join("ans"));
        let mut verdicts = Vec::new();
        for (i, answer, output) in chunk {
            std::fs::write(&inp, &boards[*i]).unwrap();
            std::fs::write(&ans, answer).unwrap();
            std::fs::write(&out, output).unwrap();
            for (any, cpp) in [(false, &smallest), (true, &any)] {
                let mut rust = Command::new(&bin);
                rust.arg("check");
                if any {
                    rust.arg("--any");
                }
                let rust = testlib_verdict(rust.args([&inp, &out, &ans]));
                let cpp = testlib_verdict(Command::new(cpp).args([&inp, &out, &ans]));
                verdicts.push((any, rust, cpp));
            }
        }
        verdicts
    });
    assert_eq!(verdicts.len(), 2 * cases.len());
    let mut accepted = 0;
    for ((i, _, output), (any, rust, cpp)) in cases.iter().flat_map(|c| [c, c]).zip(&verdicts) {
        accepted += (rust.0 == 0) as usize;
        assert_eq!(
            rust,
            cpp,
            "board {i}, any = {any}, output {:?}: check says {rust:?}, the testlib checker {cpp:?}",
            String::from_utf8_lossy(output)
        );
    }
    assert!(
        verdicts.len() >= 300 && accepted >= 16,
        "{} cases, {accepted} accepted",
        verdicts.len()
    );
    // Judge errors (beside the last board's answer), and testlib's result file.
    std::fs::write(&ans, &cases.last().unwrap().1).unwrap();
    std::fs::write(&inp, "1\n1 1 1 0\n0\n0\n0\n0\n").unwrap();
    std::fs::write(&out, "-1\n").unwrap();
    assert_eq!(
        testlib_verdict(Command::new(&smallest).args([&inp, &out, &ans])),
        (3, "FAIL".into())
    );
    std::fs::write(&inp, CASE4).unwrap();
    std::fs::write(&ans, CASE4_ANSWER).unwrap();
    std::fs::write(&out, CASE4_WRONG).unwrap();
    for program in [&bin, &smallest] {
        let result = work.join("result.xml");
        let status = Command::new(program)
            .args(if program == &bin { vec!["check"] } else { vec![] })
            .args([&inp, &out, &ans, &result])
            .arg("-appes")
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1));
        assert_eq!(
            std::fs::read_to_string(&result).unwrap(),
            "<?xml version=\"1.0\" encoding=\"windows-1251\"?><result outcome = \"wrong-answer\">\
             after 3 moves the board still holds 21 blocks</result>\n",
            "{}",
            program.display()
        );
    }
    // A wrong move is named by its line in the output, by both.
    std::fs::write(&out, "\u{feff}2 0 1\n\n1 9 1\n3 4 -1\n").unwrap();
    for program in [&bin, &smallest] {
        let output = Command::new(program)
            .args(if program == &bin { vec!["check"] } else { vec![] })
            .args([&inp, &out, &ans])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("wrong answer line 3") && stderr.contains("move 2 `1 9 1` is illegal"),
            "{}: {stderr}",
            program.display()
        );
    }
    eprintln!(
        "{} outputs judged alike by check and the C++ testlib checker ({accepted} accepted)",
        verdicts.len()
    );
}

/// The C++ testlib checker judges 24 MiB outputs as `check` does, never
/// holding them: it peaks within 8 MiB of its peak on the right answer
/// (reading them whole and splitting the line: 320 MiB and 100 MiB more).
#[test]
fn the_cpp_testlib_checker_judges_a_huge_line_or_number_without_holding_it() {
    let (Some(_), Some(testlib_h), Some(python)) = (tool("g++"), tool("testlib.h"), python()) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let work = dir.path();
    let checker = compile_checker(work, &testlib_h, false);
    let (inp, ans, right) = (work.join("in"), work.join("ans"), work.join("right"));
    std::fs::write(&inp, CASE4).unwrap();
    std::fs::write(&ans, CASE4_ANSWER).unwrap();
    std::fs::write(&right, CASE4_ANSWER).unwrap();
    let null = Path::new("/dev/null");
    let on_right = process_bounds(&python, null, &[&checker, &inp, &right, &ans]);
    assert_eq!(on_right["code"], 0, "{on_right}");
    for (what, out) in huge_outputs(work) {
        let (word, code) = check_verdict(&inp, &out, &ans);
        let v = process_bounds(&python, null, &[&checker, &inp, &out, &ans]);
        let growth = v["max_rss_kib"].as_i64().unwrap() - on_right["max_rss_kib"].as_i64().unwrap();
        assert_eq!(v["code"], code, "{what}: check says {word}: {v}");
        assert!(v["seconds"].as_f64().unwrap() < 20.0, "{what}: {v}");
        assert!(
            growth < 8192,
            "{what}: {growth} KiB more than on the right answer: {v}"
        );
    }
}

// ---- DMOJ ----------------------------------------------------------------------------

/// A DMOJ run's stdout, then its stderr.
fn both_streams(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The first program of `reference/mayan/<folder>/` with extension `ext`.
fn reference(folder: &str, ext: &str) -> PathBuf {
    let dir = manifest().join("reference/mayan").join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files.remove(0)
}

/// Judges the DMOJ export (with the compiled checker when `testlib` names a
/// testlib.h, else the Python one) with the real judge: an accepted C++
/// program AC on every test, a wrong one WA somewhere and AC or WA on each.
fn dmoj_judges_the_export(dmoj_python: &Path, testlib: Option<&Path>) {
    let root = tempfile::tempdir().unwrap();
    let problems = root.path().join("problems");
    let problem = problems.join("mayan");
    let mut cmd = judge();
    cmd.args(["export", "--format", "dmoj"])
        .arg(manifest().join("problems/mayan"))
        .arg(&problem);
    if let Some(h) = testlib {
        cmd.arg("--testlib").arg(h);
    }
    cmd.assert().success();
    let init = std::fs::read_to_string(problem.join("init.yml")).unwrap();
    let checker = match testlib {
        Some(_) => {
            "checker:\n  name: bridged\n  args:\n    files: [checker.cpp, testlib.h]\n    lang: CPP17\n"
        }
        None => "\nchecker: checker.py\ntest_cases:\n",
    };
    assert!(init.contains(checker), "{init}");
    assert_eq!(init.matches("{in: ").count(), bundled_tests());
    if testlib.is_none() {
        feedback_problems(&problems, &init);
    }
    // DMOJ's own test harness: tests/<case>/test.yml beside init.yml, one
    // submission each, judged as the judge judges any submission.
    for (case, program, expect) in [
        ("ac", reference("accepted", "cpp"), "AC"),
        ("wa", reference("wrong_answer", "cpp"), "[AC, WA]"),
    ] {
        let dir = problem.join("tests").join(case);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(&program, dir.join("main.cpp")).unwrap();
        std::fs::write(
            dir.join("test.yml"),
            format!("language: CPP17\ntime: 3\nmemory: 131072\nsource: main.cpp\nexpect: {expect}\n"),
        )
        .unwrap();
    }
    // The interpreter itself, not a version manager's shim (a script the
    // judge's sandbox may not run): the system's where there is one.
    let system = PathBuf::from("/usr/bin/python3");
    let Some(python3) = Some(system).filter(|p| p.is_file()).or_else(python) else {
        return;
    };
    let config = root.path().join("judge.yml");
    std::fs::write(
        &config,
        format!(
            "runtime:\n  g++17: {}\n  python3: {}\n",
            tool("g++").unwrap().display(),
            python3.display()
        ),
    )
    .unwrap();
    let out = Command::new(dmoj_python)
        .args([
            "-m",
            "dmoj.testsuite",
            "--no-ansi",
            "--skip-self-test",
            "-e",
            "CPP17,PY3",
            "-c",
        ])
        .arg(&config)
        .arg(&problems)
        .current_dir(root.path())
        .output()
        .expect("run dmoj.testsuite");
    let text = both_streams(&out);
    assert!(
        out.status.success() && text.contains("All cases passed."),
        "{text}"
    );
    // The accepted program: every one of the bundled tests AC (the harness
    // checked it, and each case's feedback in the other problems); the wrong
    // one: WA somewhere, and nothing but AC or WA.
    // Each case's part of the log: from its header to the next one, in
    // whatever order the harness ran them.
    let part = |case: &str| {
        let start = text
            .find(&format!("Running test case {case}"))
            .unwrap_or_else(|| panic!("case {case} did not run: {text}"));
        let end = text[start + 1..]
            .find("Running test case ")
            .map_or(text.len(), |e| start + 1 + e);
        &text[start..end]
    };
    let (ac_part, wa_part) = (part("ac"), part("wa"));
    let verdicts = |part: &str, code: &str| part.matches(&format!(" {code} [")).count();
    assert_eq!(verdicts(ac_part, "AC"), bundled_tests(), "{text}");
    assert!(verdicts(wa_part, "WA") >= 1, "{text}");
    assert_eq!(
        verdicts(wa_part, "AC") + verdicts(wa_part, "WA"),
        bundled_tests(),
        "{text}"
    );
}

/// Outputs of Python programs that DMOJ's checker module judges on the
/// official sample (n = 3, smallest solution `2 1 1`, `3 1 1`, `3 0 1`):
/// (case, output, the feedback DMOJ must show). Every one but the first is
/// WA in DMOJ, the feedback saying `check`'s verdict (WA or PE) and why.
const SAMPLE_OUTPUTS: &[(&str, &str, &str)] = &[
    ("right", "2 1 1\n3 1 1\n3 0 1\n", ""),
    ("empty", "", "PE: empty output: expected n moves or -1"),
    ("short", "2 1 1\n", "PE: 1 moves given, n = 3 required"),
    // Output that stops in the middle of a line (longer than the 50
    // characters DMOJ's site keeps: whole in the extended feedback too).
    (
        "cut",
        "2 1 1\n3 1 1\n3 0",
        "PE: line 3: expected 3 integers `x y g`, found 2 tokens",
    ),
    (
        "none",
        "-1\n",
        "WA: answer is -1 but a solution exists (it starts with `2 1 1`)",
    ),
];

/// Two more DMOJ problems beside the export, with `init`'s checker and the
/// official sample as their one test: `mayanfeedback`, judging each of
/// [`SAMPLE_OUTPUTS`] (printed by a PY3 program) with the feedback `check`
/// gives, and `mayanbroken`, whose answer file is not an answer: an
/// internal error, as `checker.py` under testlib fails with `FAIL`.
fn feedback_problems(problems: &Path, init: &str) {
    let header = &init[..init.find("test_cases:\n").expect("test_cases in init.yml")];
    let one_test = format!("{header}test_cases:\n- {{in: sample-1.in, out: sample-1.ans, points: 10}}\n");
    let source = problems.join("mayan");
    for name in ["mayanfeedback", "mayanbroken"] {
        let dir = problems.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for file in ["checker.py", "sample-1.in", "sample-1.ans"] {
            std::fs::copy(source.join(file), dir.join(file)).unwrap();
        }
        std::fs::write(dir.join("init.yml"), &one_test).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    for (case, output, feedback) in SAMPLE_OUTPUTS {
        // The verdict `check` gives, which the feedback must start with.
        let out = dir.path().join("out");
        std::fs::write(&out, output).unwrap();
        let sample = |ext: &str| source.join(format!("sample-1.{ext}"));
        let code = judge()
            .args(["check"])
            .arg(sample("in"))
            .arg(&out)
            .arg(sample("ans"))
            .output()
            .unwrap();
        let word = ["AC", "WA", "PE"][code.status.code().unwrap() as usize];
        assert!(
            feedback.starts_with(&format!("{word}: ")) || (word == "AC" && feedback.is_empty()),
            "{case}: check says {word}"
        );
        let extended = if feedback.chars().count() > 50 {
            feedback
        } else {
            ""
        };
        let expect = if feedback.is_empty() { "AC" } else { "WA" };
        write_case(
            &problems.join("mayanfeedback/tests").join(case),
            &format!(
                "language: PY3\ntime: 3\nmemory: 131072\nsource: main.py\nexpect: {expect}\n\
                 feedback: {feedback:?}\nextended_feedback: {extended:?}\n"
            ),
            &format!("import sys\nsys.stdout.write({output:?})\n"),
        );
    }
    // The package's output limit, 64 KiB: the right moves padded with blanks
    // to it are AC, one byte more is OLE.
    for (case, size, expect) in [("at-limit", 65536, "AC"), ("over-limit", 65537, "OLE")] {
        write_case(
            &problems.join("mayanfeedback/tests").join(case),
            &format!("language: PY3\ntime: 3\nmemory: 131072\nsource: main.py\nexpect: {expect}\n"),
            &format!(
                "import sys\nsys.stdout.write({:?}.ljust({size}))\n",
                SAMPLE_OUTPUTS[0].1
            ),
        );
    }
    std::fs::write(problems.join("mayanbroken/sample-1.ans"), "x y z\n").unwrap();
    write_case(
        &problems.join("mayanbroken/tests/broken"),
        "language: PY3\ntime: 3\nmemory: 131072\nsource: main.py\nexpect: IE\n\
         feedback: \"judge error: stored answer: line 1: token `x` is not an integer\"\n",
        "print(-1)\n",
    );
}

/// A case of DMOJ's test harness: `test.yml` and the program `main.py`.
fn write_case(dir: &Path, test_yml: &str, program: &str) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("test.yml"), test_yml).unwrap();
    std::fs::write(dir.join("main.py"), program).unwrap();
}

/// DMOJ stops a program's output at the package's limit (`output_kib`,
/// 64 KiB for problems/mayan) as `grade` does, not at its default 24 MiB,
/// which its judge process would hold and hand to the checker module whole:
/// `init.yml` says `output_limit_length`, and DMOJ's loader reads it for
/// every test (the real judge's OLE: `the_dmoj_judge_accepts_...`).
#[test]
fn the_dmoj_export_limits_the_output_to_the_packages_limit() {
    let root = tempfile::tempdir().unwrap();
    let dmoj = root.path().join("mayan");
    export("dmoj", &manifest().join("problems/mayan"), &dmoj);
    let init = dmoj.join("init.yml");
    let text = std::fs::read_to_string(&init).unwrap();
    assert!(text.contains("\noutput_limit_length: 65536\n"), "{text}");
    let Some(dmoj_python) = tool("dmoj") else { return };
    let out = Command::new(dmoj_python)
        .arg("-c")
        .arg(
            "import sys\nfrom dmoj.problem import ProblemConfig\n\
             config = ProblemConfig({'init.yml': open(sys.argv[1], 'rb').read()})\n\
             print(sorted({case.output_limit_length for case in config.test_cases}))\n",
        )
        .arg(&init)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[65536]\n",
        "{}",
        both_streams(&out)
    );
}

#[test]
fn the_dmoj_judge_accepts_a_reference_program_and_rejects_a_wrong_one() {
    let (Some(dmoj_python), Some(_)) = (tool("dmoj"), tool("g++")) else {
        return;
    };
    // The checker module (no testlib.h given), and its feedback.
    dmoj_judges_the_export(&dmoj_python, None);
}

/// DMOJ with the checker module judges the accepted program in about the
/// time `grade --jobs 1` takes (docs/EXPORT.md: at most twice, measured by
/// `tests/dmoj-speed`, which this runs): the ratio of the two measured side
/// by side, best of two rounds, is printed, and only a checker process per
/// test (the bridged checker.py: 8 to 17 times grade's time) fails it.
#[test]
fn the_dmoj_judge_with_the_checker_module_takes_about_grades_time() {
    let (Some(dmoj_python), Some(_)) = (tool("dmoj"), tool("g++")) else {
        return;
    };
    let out = Command::new(dmoj_python)
        .arg(manifest().join("tests/dmoj-speed"))
        .args(["--rounds", "2", "--ways", "module"])
        .env("MAYAN_JUDGE_BIN", assert_cmd::cargo::cargo_bin("mayan-judge"))
        .output()
        .expect("run tests/dmoj-speed");
    let text = both_streams(&out);
    assert!(out.status.success(), "{text}");
    let ratio: f64 = text
        .lines()
        .find_map(|l| l.strip_prefix("ratio module / grade: "))
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("no ratio in:\n{text}"));
    eprintln!("{text}");
    eprintln!("DMOJ with the checker module: {ratio:.2}x grade --jobs 1's time (target: at most 2x)");
    // Twice the target: the machine running the tests is shared, and a
    // ratio of two busy programs moves with the load.
    assert!(ratio <= 4.0, "DMOJ took {ratio:.2}x grade's time:\n{text}");
}

#[test]
fn the_dmoj_judge_runs_the_compiled_testlib_checker() {
    let (Some(dmoj_python), Some(_), Some(testlib_h)) = (tool("dmoj"), tool("g++"), tool("testlib.h")) else {
        return;
    };
    // `--testlib`: checker.cpp and testlib.h, `lang: CPP17`.
    dmoj_judges_the_export(&dmoj_python, Some(&testlib_h));
}

#[test]
fn the_dmoj_export_refuses_a_testlib_that_is_not_one() {
    let root = tempfile::tempdir().unwrap();
    let fake = root.path().join("testlib.h");
    std::fs::write(&fake, "// an empty header\n").unwrap();
    for (format, why) in [("dmoj", "not testlib.h"), ("hydro", "--format dmoj only")] {
        judge()
            .args(["export", "--format", format])
            .arg(manifest().join("problems/mayan"))
            .arg(root.path().join("out"))
            .arg("--testlib")
            .arg(&fake)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(why));
        assert!(!root.path().join("out").exists(), "nothing written");
    }
}

// ---- CMS -------------------------------------------------------------------------------

#[test]
fn the_cms_comparator_scores_every_test_of_its_task() {
    let Some(python) = python() else { return };
    let root = tempfile::tempdir().unwrap();
    let task = root.path().join("mayan");
    export("cms", &manifest().join("problems/mayan"), &task);
    let yaml = std::fs::read_to_string(task.join("task.yaml")).unwrap();
    let n_input = format!("n_input: {}\n", bundled_tests());
    for line in [
        "name: \"mayan\"",
        "time_limit: 3\n",
        "memory_limit: 128\n",
        &n_input,
        "infile: \"\"",
        "outfile: \"\"",
        "public_testcases: \"0\"",
    ] {
        assert!(yaml.contains(line), "{line} in\n{yaml}");
    }
    // Out of 100 as NOIP scored it: each test a subtask of its own points
    // (total_value would give the sample a share).
    assert!(!yaml.contains("total_value"), "{yaml}");
    let generator = std::fs::read_to_string(task.join("gen/GEN")).unwrap();
    let points: Vec<u32> = generator
        .lines()
        .filter_map(|l| l.strip_prefix("# ST: "))
        .map(|p| p.parse().unwrap())
        .collect();
    assert_eq!((points.len(), points[0]), (bundled_tests(), 0), "{generator}");
    assert_eq!(points.iter().sum::<u32>(), 100, "{generator}");
    let checker = task.join("check/checker");
    let run = |input: &Path, answer: &Path, output: &Path| {
        let out = Command::new(&python)
            .arg(&checker)
            .args([input, answer, output])
            .output()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for i in 0..bundled_tests() {
        let input = task.join(format!("input/input{i}.txt"));
        let answer = task.join(format!("output/output{i}.txt"));
        assert_eq!(
            run(&input, &answer, &answer),
            (0, "1.0\n".into(), "translate:success\n".into()),
            "test {i}"
        );
    }
    let wrong = root.path().join("wrong");
    std::fs::write(&wrong, "0 0 1\n").unwrap();
    let (input, answer) = (task.join("input/input0.txt"), task.join("output/output0.txt"));
    assert_eq!(
        run(&input, &answer, &wrong),
        (0, "0.0\n".into(), "translate:wrong\n".into())
    );
    // A broken answer file is the judge's fault: CMS sees the checker fail.
    let (code, stdout, stderr) = run(&input, &wrong, &answer);
    assert_eq!((code, stdout.as_str()), (1, ""), "{stderr}");
}

// ---- LemonLime ---------------------------------------------------------------------------

#[test]
fn the_lemonlime_contest_holds_the_task_and_its_special_judge_scores() {
    let root = tempfile::tempdir().unwrap();
    let contest = root.path().join("noip");
    export("lemon", &manifest().join("problems/mayan"), &contest);
    let cdf: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(contest.join("noip.cdf")).unwrap()).unwrap();
    assert_eq!(cdf["version"], "1.0");
    let task = &cdf["tasks"][0];
    assert_eq!(task["specialJudge"], "mayan/spj");
    assert_eq!(task["comparisonMode"], 4, "SpecialJudgeMode");
    assert_eq!(task["standardInputCheck"], true);
    let cases = task["testCases"].as_array().unwrap();
    assert_eq!(cases.len(), bundled_tests());
    assert!(contest.join("source").is_dir());
    // Out of 100 as NOIP scored it: the sample's case scores nothing.
    let full: Vec<u64> = cases.iter().map(|c| c["fullScore"].as_u64().unwrap()).collect();
    assert_eq!((full[0], full.iter().sum::<u64>()), (0, 100), "{full:?}");
    for case in cases {
        assert_eq!(case["timeLimit"].as_u64(), Some(3000));
        assert_eq!(case["memoryLimit"], 128);
        let input = contest.join("data").join(case["inputFiles"][0].as_str().unwrap());
        let answer = contest
            .join("data")
            .join(case["outputFiles"][0].as_str().unwrap());
        assert!(input.is_file() && answer.is_file(), "{}", input.display());
    }
    // LemonLime starts data/<specialJudge> with six arguments.
    let case = &cases[5];
    let data = contest.join("data");
    let spj = |output: &Path| {
        let (score, message) = (root.path().join("score"), root.path().join("message"));
        let status = Command::new(data.join("mayan/spj"))
            .arg(data.join(case["inputFiles"][0].as_str().unwrap()))
            .arg(output)
            .arg(data.join(case["outputFiles"][0].as_str().unwrap()))
            .arg("10")
            .args([&score, &message])
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::read_to_string(score).unwrap()
    };
    assert_eq!(spj(&data.join(case["outputFiles"][0].as_str().unwrap())), "10\n");
    let wrong = root.path().join("wrong");
    std::fs::write(&wrong, "-1\n").unwrap();
    let board = std::fs::read_to_string(data.join(case["inputFiles"][0].as_str().unwrap())).unwrap();
    let expected = if solve(&board).trim() == "-1" {
        "10\n"
    } else {
        "0\n"
    };
    assert_eq!(spj(&wrong), expected);
}

// ---- what every format carries: limits, file I/O, scoring groups ---------------------------

/// A package with NOIP file I/O and two scoring groups (60 + 40 points).
fn grouped_package(root: &Path) -> PathBuf {
    let pkg = root.join("repo/problems/noip");
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::write(
        pkg.join("problem.toml"),
        "name = \"noip\"\ntitle = \"Mayan & co\"\n[limits]\ntime_ms = 1500\nmemory_mib = 256\n\
         [io]\ninput = \"mayan.in\"\noutput = \"mayan.out\"\n\
         [[scoring.group]]\nname = \"bottom\"\ntests = \"secret/bottom-*\"\npoints = 60\n\
         [[scoring.group]]\nname = \"rest\"\ntests = \"secret/none-*\"\npoints = 40\n",
    )
    .unwrap();
    std::fs::write(pkg.join("statement.md"), "# Mayan\n\nText.\n").unwrap();
    for test in ["sample/1", "secret/bottom-1", "secret/bottom-2", "secret/none-2"] {
        for ext in ["in", "ans"] {
            let to = root.join(format!("repo/testdata/noip/{test}.{ext}"));
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(manifest().join(format!("testdata/mayan/{test}.{ext}")), to).unwrap();
        }
    }
    let accepted = root.join("repo/reference/noip/accepted");
    std::fs::create_dir_all(&accepted).unwrap();
    std::fs::copy(reference("accepted", "cpp"), accepted.join("main.cpp")).unwrap();
    pkg
}

#[test]
fn every_format_carries_the_limits_file_io_and_scoring_groups() {
    let root = tempfile::tempdir().unwrap();
    let pkg = grouped_package(root.path());
    let read = |path: &str| std::fs::read_to_string(root.path().join(path)).unwrap();
    let has = |path: &str, lines: &[&str]| {
        let text = read(path);
        for line in lines {
            assert!(text.contains(line), "{line:?} in {path}:\n{text}");
        }
    };
    for format in ["polygon", "hydro", "dmoj", "cms", "lemon"] {
        export(format, &pkg, &root.path().join(format));
    }
    has(
        "polygon/problem.xml",
        &[
            "<name language=\"english\" value=\"Mayan &amp; co\"/>",
            "<judging input-file=\"mayan.in\" output-file=\"mayan.out\">",
            "<time-limit>1500</time-limit>",
            "<memory-limit>268435456</memory-limit>",
            "<test-count>4</test-count>",
            "<test method=\"manual\" group=\"ungrouped\" sample=\"true\"/>",
            "<test method=\"manual\" group=\"bottom\"/>",
            "<group feedback-policy=\"icpc\" name=\"bottom\" points=\"60\" points-policy=\"complete-group\"/>",
            "<checker name=\"check.cpp\" type=\"testlib\">",
            "<solution tag=\"main\">\n        <source path=\"solutions/main.cpp\" type=\"cpp.g++17\"/>",
        ],
    );
    assert_eq!(
        read("polygon/tests/02"),
        read("hydro/testdata/secret-bottom-1.in")
    );
    assert!(root.path().join("polygon/files/check.cpp").is_file());
    has(
        "hydro/testdata/config.yaml",
        &[
            "time: 1500ms\nmemory: 256m\nfilename: \"mayan\"\nchecker_type: testlib\nchecker: checker.cpp\n",
            "  - id: 1\n    score: 60\n    type: min\n    cases:\n      - input: \"secret-bottom-1.in\"\n        \
             output: \"secret-bottom-1.ans\"\n      - input: \"secret-bottom-2.in\"",
            "  - id: 3\n    score: 0\n",
        ],
    );
    has("hydro/problem.yaml", &["title: \"Mayan & co\""]);
    has(
        "dmoj/init.yml",
        &[
            "- batched:\n  - {in: \"secret-bottom-1.in\", out: \"secret-bottom-1.ans\"}\n  - {in: \"secret-bottom-2.in\", \
             out: \"secret-bottom-2.ans\"}\n  points: 60\n",
            "\nchecker: checker.py\n",
        ],
    );
    has(
        "cms/task.yaml",
        &[
            "infile: \"mayan.in\"",
            "outfile: \"mayan.out\"",
            "n_input: 4",
            "time_limit: 1.5",
            "memory_limit: 256",
        ],
    );
    // GroupMin subtasks in order: the tests follow them.
    assert_eq!(
        read("cms/gen/GEN"),
        "# ST: 60\nsecret/bottom-1\nsecret/bottom-2\n# ST: 40\nsecret/none-2\n# ST: 0\nsample/1\n"
    );
    assert_eq!(read("cms/input/input3.txt"), read("hydro/testdata/sample-1.in"));
    assert!(!read("cms/task.yaml").contains("total_value"));
    let cdf: serde_json::Value = serde_json::from_str(&read("lemon/lemon.cdf")).unwrap();
    let task = &cdf["tasks"][0];
    assert_eq!(
        (&task["inputFileName"], &task["outputFileName"]),
        (&"mayan.in".into(), &"mayan.out".into())
    );
    assert_eq!(task["standardInputCheck"], false);
    let cases = task["testCases"].as_array().unwrap();
    assert_eq!(cases[0]["fullScore"], 60);
    assert_eq!(
        cases[0]["inputFiles"],
        serde_json::json!(["noip/secret-bottom-1.in", "noip/secret-bottom-2.in"])
    );
    // The CMS loader's subtasks must add up to 100; Hydro's file I/O is a stem.
    let toml = pkg.join("problem.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("points = 40", "points = 30")).unwrap();
    judge()
        .args(["export", "--format", "cms"])
        .arg(&pkg)
        .arg(root.path().join("cms2"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("add up to 90 points"));
    std::fs::write(&toml, text.replace("mayan.out", "answer.txt")).unwrap();
    judge()
        .args(["export", "--format", "hydro"])
        .arg(&pkg)
        .arg(root.path().join("hydro2"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("`STEM.in` and `STEM.out`"));
    // Kattis-only options are refused elsewhere.
    judge()
        .args(["export", "--format", "hydro", "--source", "NOIP"])
        .arg(&pkg)
        .arg(root.path().join("hydro3"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("kattis only"));
}
