//! `grade --contest`: a class graded end to end from the contest folder in
//! `tests/contest/` (the same contestants in LemonLime's and Arbiter's
//! layouts; see its README): the ranking on the terminal, the CSV read back,
//! the JSON, the HTML page in headless Chromium with every summary link
//! reaching its section, the same verdicts from two gradings at once, a
//! broken test reported once while the others are graded, and contestants
//! named like spreadsheet formulas written to the CSV as text.

use crate::html_chromium::{dump_dom, page_count};
use crate::util::{have, manifest, tool};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Output;

fn fixture() -> PathBuf {
    manifest().join("tests/contest")
}

/// `grade --contest DIR --problem P` with a private cache, `extra` options.
fn grade(contest: &Path, problem: &Path, cache: &Path, extra: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin!("mayan-judge"));
    c.env("MAYAN_JUDGE_CACHE", cache)
        .args(["grade", "--quiet", "--contest"])
        .arg(contest)
        .arg("--problem")
        .arg(problem)
        .args(extra);
    c
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The ranking row of a contestant: its words (rank, name, total, verdicts).
fn row<'a>(ranking: &'a str, name: &str) -> Vec<&'a str> {
    ranking
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|w| w.get(1) == Some(&name))
        .unwrap_or_else(|| panic!("no row for {name} in\n{ranking}"))
}

/// Contestant -> verdicts, from a JSON report.
fn verdicts(json: &serde_json::Value) -> BTreeMap<String, Vec<String>> {
    json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let v = s["tests"].as_array().unwrap().iter();
            let v = v.map(|t| t["verdict"].as_str().unwrap().to_string()).collect();
            (s["contestant"].as_str().unwrap().to_string(), v)
        })
        .collect()
}

/// The reason of a contestant's first test, from a JSON report.
fn first_reason(json: &serde_json::Value, name: &str) -> String {
    let s = json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["contestant"] == name)
        .unwrap();
    s["tests"][0]["reason"].as_str().unwrap().to_string()
}

#[test]
fn a_class_is_graded_into_a_ranking_a_csv_a_json_and_a_page_with_the_same_verdicts_twice() {
    if !have("gcc") || !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let (contest, problem) = (fixture().join("lemonlime"), fixture().join("problem"));
    // The compilations first, so that the two gradings below share them.
    let first = grade(&contest, &problem, &cache, &["--jobs", "2"])
        .output()
        .unwrap();
    // Two gradings at once, each with its reports: a loaded machine.
    let out = |k: usize, ext: &str| dir.path().join(format!("report{k}.{ext}"));
    let runs: Vec<std::process::Child> = (0..2)
        .map(|k| {
            let mut c = grade(&contest, &problem, &cache, &["--jobs", "2"]);
            for (flag, name) in [("--csv", "csv"), ("--json", "json"), ("--html", "html")] {
                c.arg(flag).arg(out(k, name));
            }
            c.stdout(std::process::Stdio::piped()).spawn().unwrap()
        })
        .collect();
    let outputs: Vec<Output> = runs.into_iter().map(|c| c.wait_with_output().unwrap()).collect();
    let json: Vec<serde_json::Value> = (0..2)
        .map(|k| serde_json::from_slice(&std::fs::read(out(k, "json")).unwrap()).unwrap())
        .collect();
    assert_eq!(
        verdicts(&json[0]),
        verdicts(&json[1]),
        "two gradings, two sets of verdicts"
    );

    // The ranking: file I/O from the package's [io]; bob's freopen program
    // scores what alice's stdin program scores under stdin (see
    // the_arbiter_layout_...); everyone is listed, with why.
    let ranking = text(&outputs[0]);
    assert_eq!(outputs[0].status.code(), Some(1), "{ranking}");
    assert_eq!(ranking, text(&first));
    assert!(
        ranking.contains("8 contestants, 3 tests") && ranking.contains("file I/O (mayan.in and mayan.out)")
    );
    assert!(ranking.contains("LemonLime layout"), "{ranking}");
    assert_eq!(row(&ranking, "bob")[..6], ["1", "bob", "30", "AC", "AC", "AC"]);
    assert_eq!(
        row(&ranking, "heidi")[..6],
        ["2", "heidi", "10", "WA", "WA", "AC"]
    );
    assert_eq!(row(&ranking, "alice")[2..], ["0", "NOF", "NOF", "NOF"]);
    assert_eq!(row(&ranking, "carol")[2..], ["0", "CE", "CE", "CE"]);
    assert_eq!(row(&ranking, "dave")[2..], ["0", "no", "program"]);
    for why in [
        "carol: CE: mayan.c:4",
        "dave: no program: no mayan.<ext> in dave/ or dave/mayan/",
        "frank: 2 programs: mayan.c, mayan.py; keep one",
    ] {
        assert!(ranking.contains(why), "`{why}` not in\n{ranking}");
    }

    // No output file is an outcome of its own (NOF), not PE, in the JSON too.
    assert_eq!(verdicts(&json[0])["alice"], ["NOF", "NOF", "NOF"]);
    // The JSON keeps the reasons: a missing output file, and where the
    // output went instead.
    let alice = first_reason(&json[0], "alice");
    assert!(
        alice.starts_with("no mayan.out was written") && !alice.contains("stdout"),
        "{alice}"
    );
    let erin = first_reason(&json[0], "erin");
    assert!(
        erin.contains("no mayan.out was written") && erin.ends_with("it wrote to stdout instead"),
        "{erin}"
    );

    // The CSV, read back: the header, and each row's points add up.
    let mut csv = csv::Reader::from_path(out(0, "csv")).unwrap();
    let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(
        header,
        ["contestant", "total", "secret/1", "secret/2", "secret/3"]
    );
    let rows: Vec<Vec<String>> = csv
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    let names: HashSet<&str> = rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names.len(), 8);
    assert_eq!(rows[0], ["bob", "30", "10", "10", "10"]);
    for r in &rows {
        let sum: u32 = r[2..].iter().map(|p| p.parse::<u32>().unwrap()).sum();
        assert_eq!(r[1].parse::<u32>().unwrap(), sum, "{r:?}");
    }

    // The page, in a browser: every link of the summary grid reaches its section.
    let Some(chromium) = tool("chromium") else { return };
    let dom = dump_dom(&chromium, &out(0, "html"), &dir.path().join("profile"));
    assert_eq!(page_count(&dom, "broken-links"), 0);
    let grid = dom
        .split("<table class=\"grid\">")
        .nth(1)
        .unwrap()
        .split("</table>")
        .next()
        .unwrap();
    let links: Vec<&str> = grid
        .split("href=\"#")
        .skip(1)
        .map(|r| r.split('"').next().unwrap())
        .collect();
    // A link per contestant, per test cell of those graded, per failed test's reference.
    assert!(links.len() >= 8 + 6 * 3, "{links:?}");
    for target in &links {
        assert!(
            dom.contains(&format!(" id=\"{target}\"")),
            "the summary links to #{target}, which is not there"
        );
    }
    // heidi's wrong moves replayed, and the reference of the tests failed.
    assert!(page_count(&dom, "rendered") >= 5, "too few boards drawn");
}

#[test]
fn the_arbiter_layout_under_stdio_with_a_broken_test_reports_it_once_and_grades_the_rest() {
    if !have("gcc") || !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // The package, with the stored answer of secret/1 wrong.
    let problem = dir.path().join("problem");
    std::fs::create_dir_all(problem.join("tests/secret")).unwrap();
    std::fs::copy(
        fixture().join("problem/problem.toml"),
        problem.join("problem.toml"),
    )
    .unwrap();
    for f in ["1.in", "2.in", "2.ans", "3.in", "3.ans"] {
        std::fs::copy(
            fixture().join("problem/tests/secret").join(f),
            problem.join("tests/secret").join(f),
        )
        .unwrap();
    }
    std::fs::write(problem.join("tests/secret/1.ans"), "2 0 1\n1 1 1\n4 0 -1\n").unwrap();
    let out = grade(
        &fixture().join("arbiter"),
        &problem,
        &dir.path().join("cache"),
        &["--stdio"],
    )
    .arg("--json")
    .arg(dir.path().join("r.json"))
    .output()
    .unwrap();
    let ranking = text(&out);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a broken test is the judge's error\n{ranking}"
    );
    assert!(
        ranking.contains("Arbiter layout") && ranking.contains("stdin and stdout"),
        "{ranking}"
    );
    // Reported once, not once per contestant.
    assert_eq!(ranking.matches("stored answer").count(), 1, "{ranking}");
    assert!(ranking.contains("  secret/1: "), "{ranking}");
    // The other tests are graded: alice's stdin program passes them, grace's
    // `-1` passes the impossible one, erin's file reader cannot open mayan.in.
    assert_eq!(
        row(&ranking, "alice")[..6],
        ["1", "alice", "20", "FAIL", "AC", "AC"]
    );
    assert_eq!(row(&ranking, "grace")[2..], ["10", "FAIL", "WA", "AC"]);
    assert_eq!(row(&ranking, "erin")[3..], ["FAIL", "RE", "RE"]);
    assert_eq!(row(&ranking, "heidi")[3..], ["FAIL", "RE", "RE"]);
    // bob reads mayan.in: graded with stdin, the reason says what to do.
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("r.json")).unwrap()).unwrap();
    let bob = json["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["contestant"] == "bob")
        .unwrap();
    let reason = bob["tests"][1]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("empty output") && reason.contains("--file-io mayan"),
        "{reason}"
    );
}

#[test]
fn a_contestant_named_like_a_formula_is_text_in_the_csv() {
    if !have("python3") {
        return;
    }
    // A folder name cannot hold `/`, so the link is not `http://...`; the
    // formula is live all the same.
    let hostile = r#"=HYPERLINK("x","y")"#;
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join(hostile)).unwrap();
    std::fs::create_dir_all(class.join("+1")).unwrap();
    // grace's program: `-1` whatever the input, right on secret/3 only.
    std::fs::copy(
        fixture().join("lemonlime/source/grace/mayan.py"),
        class.join(hostile).join("mayan.py"),
    )
    .unwrap();
    let csv_file = dir.path().join("class.csv");
    let out = grade(
        &class,
        &fixture().join("problem"),
        &dir.path().join("cache"),
        &["--stdio", "--csv"],
    )
    .arg(&csv_file)
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let raw = std::fs::read_to_string(&csv_file).unwrap();
    // A quote in front, and the cell quoted as RFC 4180 says.
    assert!(raw.contains(r#""'=HYPERLINK(""x"",""y"")",10,0,0,10"#), "{raw}");
    let rows: Vec<Vec<String>> = csv::Reader::from_path(&csv_file)
        .unwrap()
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    assert_eq!(
        rows,
        [
            vec![
                format!("'{hostile}"),
                "10".into(),
                "0".into(),
                "0".into(),
                "10".into()
            ],
            ["'+1", "0", "0", "0", "0"].map(String::from).to_vec(),
        ]
    );
}

/// The teacher's report of a class in Chinese: `--html --locale zh-CN`
/// writes the page in Chinese (`lang`, the verdicts' names, the checker's
/// reasons), and the ranking's CSV stays as it is.
#[test]
fn a_class_report_in_chinese_with_locale_zh_cn() {
    if !have("gcc") || !have("python3") {
        return;
    }
    let out_dir = tempfile::tempdir().unwrap();
    let html = out_dir.path().join("report.html");
    let csv = out_dir.path().join("report.csv");
    let out = grade(
        &fixture().join("lemonlime"),
        &fixture().join("problem"),
        &out_dir.path().join("cache"),
        &[
            "--locale",
            "zh-CN",
            "--html",
            html.to_str().unwrap(),
            "--csv",
            csv.to_str().unwrap(),
        ],
    )
    .output()
    .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<html lang=\"zh-CN\">"), "the page's lang");
    assert!(
        page.contains("评测报告") && page.contains("答案错误"),
        "Chinese words"
    );
    assert!(page.contains("\"PingFang SC\""), "CJK fonts first");
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(
        csv.starts_with("\u{feff}contestant,total,"),
        "the CSV's header stays, after the byte order mark: {csv}"
    );
}

/// `--counterexamples`: each failing student's smallest board in their
/// section of the HTML report (and in the JSON), never a test of the
/// package, and the class's analysis at the end of the page.
#[test]
fn grade_counterexamples_draw_each_failing_students_smallest_board_and_the_class_analysis() {
    if tool("python3").is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let (html, json) = (out.path().join("class.html"), out.path().join("class.json"));
    let problem = fixture().join("problem");
    let status = grade(
        &fixture().join("lemonlime"),
        &problem,
        out.path(),
        &["--counterexamples"],
    )
    .arg("--html")
    .arg(&html)
    .arg("--json")
    .arg(&json)
    .output()
    .unwrap();
    assert!(status.status.code().is_some(), "{status:?}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let of = |name: &str| {
        report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["contestant"] == name)
            .unwrap()
            .clone()
    };
    // bob passes every test: nothing searched; heidi's wrong answers are.
    assert!(of("bob")["counterexample"].is_null());
    let heidi = of("heidi");
    let board = heidi["counterexample"]["result"]["input"]
        .as_str()
        .expect("heidi's counterexample");
    let board = mayan_judge::puzzle::sim::Puzzle::parse(board.as_bytes()).unwrap();
    for e in std::fs::read_dir(problem.join("tests")).unwrap().flatten() {
        for f in std::fs::read_dir(e.path()).into_iter().flatten().flatten() {
            if f.path().extension().is_some_and(|x| x == "in") {
                let test =
                    mayan_judge::puzzle::sim::Puzzle::parse(&std::fs::read(f.path()).unwrap()).unwrap();
                assert_ne!(board, test, "a package test given away: {}", f.path().display());
            }
        }
    }
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(
        page.contains("class=\"test counterexample\""),
        "the board drawn in the report"
    );
    assert!(
        page.contains("id=\"analysis\"") && page.contains("<svg class=\"chart\""),
        "the class's analysis"
    );
}
