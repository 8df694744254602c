//! Reports of grading, validation and package CI, one file per format behind
//! one trait (the layout of hyperfine's exporters): `text` for a terminal,
//! `ranking` for a contest on a terminal, `json` for machines, `junit` for
//! CI systems, `markdown` to paste in an issue or a class forum, `csv` for a
//! spreadsheet, `html` to look at a verdict; and `xlsx`, a grading's marks
//! as an Excel workbook (bytes, not text: outside the trait). Files are
//! written atomically, so a crash or Ctrl-C never leaves half a report.

pub mod analysis;
pub mod chart;
mod csv;
mod html;
mod json;
mod junit;
mod markdown;
mod ranking;
mod text;
pub mod words;
mod xlsx;

#[cfg(test)]
mod chinese;

pub use csv::{Csv, FinalGrade, Gradebook, gradebook};
pub use html::{
    Html, analysis_section, board_defs, counterexample_section, counterexample_untitled, replay_sections,
    replay_sections_in, svg_board, zone_name,
};
pub use json::Json;
pub use junit::Junit;
pub use markdown::Markdown;
pub use ranking::Ranking;
pub use text::Text;
pub use xlsx::{DisplayNameOf, marks_workbook};

use crate::judge::grading::{GradeReport, SubmissionReport, TestResult};
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use std::io::Write;
use std::path::Path;

/// A report format: each renders every kind of report.
pub trait ReportFormat {
    /// A grading session.
    fn grade(&self, report: &GradeReport) -> String;
    /// A package CI run.
    fn ci(&self, report: &CiReport) -> String;
    /// A validation of test data.
    fn validation(&self, report: &ValidationReport) -> String;
}

/// The report with every test its submissions hold in
/// [`GradeReport::tests`] (a report put together by hand may list fewer),
/// so that a grid has a column for each.
pub(crate) fn with_every_test(report: &GradeReport) -> std::borrow::Cow<'_, GradeReport> {
    let missing = |name: &str| !report.tests.iter().any(|t| t == name);
    if report
        .submissions
        .iter()
        .all(|s| s.tests.iter().all(|t| !missing(&t.test)))
    {
        return std::borrow::Cow::Borrowed(report);
    }
    let mut full = report.clone();
    for s in &report.submissions {
        for t in &s.tests {
            if !full.tests.contains(&t.test) {
                full.tests.push(t.test.clone());
            }
        }
    }
    std::borrow::Cow::Owned(full)
}

/// The submissions by rank, as `(rank, index in the report, submission)`:
/// most points first, then by name (natural order); equal scores share a
/// rank (1, 2, 2, 4).
pub(crate) fn ranked(report: &GradeReport) -> Vec<(usize, usize, &SubmissionReport)> {
    let mut order: Vec<(usize, &SubmissionReport)> = report.submissions.iter().enumerate().collect();
    order.sort_by(|(_, a), (_, b)| {
        b.score
            .cmp(&a.score)
            .then_with(|| natord::compare(a.name(), b.name()))
    });
    let mut out: Vec<(usize, usize, &SubmissionReport)> = Vec::with_capacity(order.len());
    for (pos, (i, s)) in order.into_iter().enumerate() {
        let rank = match out.last() {
            Some(&(r, _, prev)) if prev.score == s.score => r,
            _ => pos + 1,
        };
        out.push((rank, i, s));
    }
    out
}

/// A submission's result on one test, `None` when it was not run.
pub(crate) fn result_of<'a>(s: &'a SubmissionReport, test: &str) -> Option<&'a TestResult> {
    s.tests.iter().find(|t| t.test == test)
}

/// A test as the teacher reads it in a report: its number and its file
/// name (`#3 secret/2`); the name alone where the report does not list it.
/// Machine output (JSON, CSV, JUnit) keeps the name alone.
pub fn test_label(report: &GradeReport, test: &str) -> String {
    match report.test_number(test) {
        Some(n) => numbered(n, test),
        None => test.to_string(),
    }
}

/// Test number `n` (from 1) named `test`: `#n test`, or `#n` alone for a
/// test already named by its number (a contestant's replay names the tests
/// `#1..#N`, never by their files).
pub(crate) fn numbered(n: usize, test: &str) -> String {
    let number = format!("#{n}");
    if test == number {
        number
    } else {
        format!("{number} {test}")
    }
}

/// The short verdict of a test in a grid: `AC`, `AC*` (accepted over 80%
/// of the time limit), `WA`, ..., `CE` for a program that did not compile,
/// `-` when nothing ran.
pub(crate) fn short_verdict(report: &GradeReport, s: &SubmissionReport, test: &str) -> String {
    if s.compile_error.is_some() {
        return "CE".into();
    }
    match result_of(s, test) {
        Some(t) if t.near_limit(report.time_limit_ms) => "AC*".into(),
        Some(t) => t.verdict.code().into(),
        None => "-".into(),
    }
}

/// What the `*` of `AC*` means, in a language.
pub(crate) fn near_limit_legend_in(report: &GradeReport, l: crate::i18n::Locale) -> String {
    l.text(
        "report-near-limit",
        &[("limit", crate::i18n::Arg::from(report.time_limit_ms.to_string()))],
    )
}

/// Writes `content` to `path` atomically: to a temporary file in the same
/// folder, then renamed over the target.
pub fn write_atomic(path: &Path, content: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    // A report is for reading: not the temporary file's private 0600.
    use std::os::unix::fs::PermissionsExt;
    tmp.as_file()
        .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    tmp.write_all(content)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_replaces_the_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        write_atomic(&p, b"old, and longer").unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}

/// Snapshot tests of every format, over fixed reports whose judgements come
/// from the real checker (so a change in a reason shows up here too).
#[cfg(test)]
mod snapshots {
    use super::*;
    use crate::judge::grading::{SubmissionReport, TestResult};
    use crate::judge::reason::{NoProgram, RunReason};
    use crate::puzzle::checker::{Options, check};
    use crate::puzzle::verdict::Verdict;
    use crate::workflows::ci::{Check, Expectation};
    use crate::workflows::validate::{Coverage, Finding};

    const CASE4: &str = "3\n1 2 2 3 2 0\n1 4 1 3 4 0\n5 1 4 1 3 3 0\n1 5 3 5 3 5 0\n4 4 3 4 4 0\n";
    const EARLY: &str = "2\n1 0\n0\n1 0\n1 0\n0\n";

    fn test(name: &str, input: &str, output: &str, time_ms: u64) -> TestResult {
        let j = check(input.as_bytes(), output.as_bytes(), None, Options::default());
        let diff = (j.verdict == Verdict::WrongAnswer).then(|| {
            let reference = crate::puzzle::solver::format_moves(j.reference.solution());
            crate::judge::grading::short_diff(output.as_bytes(), &reference)
        });
        TestResult {
            test: name.into(),
            input: input.into(),
            verdict: j.verdict,
            time_ms,
            wall_ms: time_ms + 1,
            memory_kib: 1536,
            reason: j.message.clone(),
            points: if j.verdict == Verdict::Accepted { 10 } else { 0 },
            judgement: Some(j),
            run_reason: None,
            notes: Default::default(),
            diff,
            runs: 1,
            spent_ms: 0,
            transcript: Default::default(),
        }
    }

    fn crashed(name: &str, verdict: Verdict, why: RunReason) -> TestResult {
        let mut t = TestResult {
            test: name.into(),
            input: EARLY.into(),
            verdict,
            time_ms: 3001,
            wall_ms: 3010,
            memory_kib: 2048,
            ..TestResult::new(name.into(), b"")
        };
        t.set_run_reason(why);
        t
    }

    /// A test whose stored answer disagrees with the solver (FAIL).
    fn broken(name: &str) -> TestResult {
        let j = check(EARLY.as_bytes(), b"-1\n", None, Options::default());
        let mut j = crate::puzzle::checker::Judgement {
            verdict: Verdict::Fail,
            ..j
        };
        j.reason = crate::puzzle::checker::Reason::AnswerDisagrees {
            stored: "2 0 1".into(),
            solver: "-1".into(),
        };
        j.message = j.reason.to_string();
        TestResult {
            input: EARLY.into(),
            time_ms: 3001,
            wall_ms: 3010,
            memory_kib: 2048,
            reason: j.message.clone(),
            judgement: Some(j),
            ..TestResult::new(name.into(), b"")
        }
    }

    pub(super) fn grade_report() -> GradeReport {
        let tests = vec![
            test("sample/1", CASE4, "2 0 1\n1 1 1\n3 4 -1\n", 3),
            test("secret/1", EARLY, "2 0 -1\n3 0 -1\n", 4),
            test("secret/2", CASE4, "2 0 1\n1 one 1\n", 2),
            crashed(
                "secret/3",
                Verdict::TimeLimit,
                RunReason::CpuOver {
                    limit_ms: 3000,
                    time_ms: None,
                },
            ),
            crashed(
                "secret/4",
                Verdict::RuntimeError,
                RunReason::Killed {
                    signal: "SIGSEGV".into(),
                },
            ),
            test("secret/5", EARLY, "2 0 1\n0 0 1\n", 2800),
            broken("secret/6"),
        ];
        let mut alice = SubmissionReport::new("class/alice/mayan.cpp".into(), "cpp", 60);
        alice.contestant = Some("alice".into());
        alice.score = 20;
        alice.tests = tests;
        let mut bob = SubmissionReport::new("class/bob/mayan.c".into(), "c", 60);
        bob.contestant = Some("bob".into());
        bob.compile_error = Some("bob.c:1:1: error: expected ';' before '}' token".into());
        let mut carol = SubmissionReport::new("class/carol".into(), "", 60);
        carol.contestant = Some("carol".into());
        carol.set_no_program(NoProgram::Several {
            files: vec!["mayan.c".into(), "mayan.py".into()],
        });
        let mut report = GradeReport::new("mayan", "rlimits (cpu, fsize, core, stack)".into());
        report.time_limit_ms = 3000;
        report.contest = Some("class (one folder per contestant)".into());
        report.contest_folder = Some(crate::judge::grading::ContestFolder {
            dir: "class".into(),
            layout: "plain".into(),
        });
        report.tests = [
            "sample/1", "secret/1", "secret/2", "secret/3", "secret/4", "secret/5", "secret/6",
        ]
        .map(String::from)
        .to_vec();
        report.broken_tests = vec![crate::judge::grading::BrokenTest {
            test: "secret/6".into(),
            reason: broken("secret/6").reason,
            judgement: broken("secret/6").judgement,
        }];
        report.submissions = vec![alice, bob, carol];
        report
    }

    fn ci_report() -> CiReport {
        let check = |name: &str, expected: &str, result: &str, failure: Option<&str>| Check {
            package: "mayan".into(),
            name: name.into(),
            expected: match expected {
                "valid package" => Expectation::ValidPackage,
                folder => Expectation::Verdict(folder.parse().expect("a folder name")),
            },
            result: result.into(),
            failure: failure.map(str::to_string),
            wall_ms: 1200,
            limit_ms: None,
            grading: None,
            validation: None,
        };
        CiReport {
            schema_version: crate::workflows::ci::SCHEMA_VERSION,
            shard: "1/1".into(),
            protections: "rlimits (cpu, fsize, core, stack)".into(),
            checks: vec![
                check("validate", "valid package", "40 tests, 0 problems", None),
                check("accepted/backtrack.cpp", "accepted", "40 AC", None),
                check(
                    "accepted/greedy.py",
                    "accepted",
                    "38 AC, 2 WA",
                    Some("expected every test AC, got WA"),
                ),
            ],
        }
    }

    fn validation_report() -> ValidationReport {
        let mut coverage = Coverage {
            tests: 3,
            no_solution: 1,
            blocks: Some((3, 27)),
            colours: Some((1, 5)),
            bottom_row_only: 1,
            full_column: 1,
            longest_cascade: 2,
            left_moves: 1,
            ..Coverage::default()
        };
        coverage.per_n.insert(1, 1);
        coverage.per_n.insert(5, 2);
        ValidationReport {
            schema_version: crate::workflows::validate::SCHEMA_VERSION,
            target: "problems/mayan".into(),
            problems: vec![
                Finding {
                    file: "testdata/mayan/secret/4.in".into(),
                    line: Some(3),
                    message: "line 3, column 5, token `11`: colour must be 1..10 (or 0 to close the column), got 11"
                        .into(),
                },
                Finding {
                    file: "testdata/mayan/secret/5.ans".into(),
                    line: Some(1),
                    message: "line 1, column 1: stored answer is wrong: the solver's answer is `2 0 1, 1 1 1, 3 4 -1`"
                        .into(),
                },
            ],
            coverage,
        }
    }

    fn formats() -> [(&'static str, &'static dyn ReportFormat); 7] {
        [
            ("text", &Text),
            ("ranking", &Ranking),
            ("csv", &Csv),
            ("json", &Json),
            ("junit", &Junit),
            ("markdown", &Markdown),
            ("html", &Html),
        ]
    }

    #[test]
    fn grade_reports() {
        let r = grade_report();
        for (name, e) in formats() {
            insta::assert_snapshot!(format!("grade_{name}"), e.grade(&r));
        }
    }

    /// The teacher's report of a class in Chinese (`grade --html --locale
    /// zh-CN`), and the text report on a Chinese terminal.
    #[test]
    fn grade_reports_in_chinese() {
        let r = grade_report();
        let zh = crate::i18n::Locale::parse("zh-CN").unwrap();
        insta::assert_snapshot!("grade_html_zh_cn", Html.grade_in(&r, zh));
        insta::assert_snapshot!("grade_text_zh_cn", Text.grade_in(&r, zh));
        insta::assert_snapshot!("grade_ranking_zh_cn", Ranking.grade_in(&r, zh));
    }

    #[test]
    fn ci_reports() {
        let r = ci_report();
        for (name, e) in formats() {
            insta::assert_snapshot!(format!("ci_{name}"), e.ci(&r));
        }
    }

    #[test]
    fn validation_reports() {
        let r = validation_report();
        for (name, e) in formats() {
            insta::assert_snapshot!(format!("validation_{name}"), e.validation(&r));
        }
    }

    /// [`grade_report`] with what it lacks for a round trip: file I/O, a
    /// judge error, and a WA on a puzzle without a solution (reference
    /// `-1`); it already has AC, WA (moves, a first wrong move, a reference
    /// with moves), PE, TLE, RE, CE, no program and a broken test (FAIL,
    /// reference not computed).
    pub(super) fn stored_report() -> GradeReport {
        const STUCK: &str = "1\n1 0\n0\n0\n0\n0\n";
        let mut r = grade_report();
        r.file_io = Some(crate::package::FileIo::from_stem("mayan"));
        r.tests.push("secret/7".into());
        r.submissions[0].tests.push(test("secret/7", STUCK, "0 0 1\n", 5));
        let mut dave = SubmissionReport::new("class/dave/mayan.rs".into(), "rust", 60);
        dave.contestant = Some("dave".into());
        dave.judge_error = Some("compiler `rustc` for rust is not installed (not found in PATH)".into());
        dave.judge_problem = Some(crate::judge::reason::JudgeProblem::MissingTool {
            what: "compiler".into(),
            name: "rustc".into(),
            language: "rust".into(),
        });
        r.submissions.push(dave);
        r
    }

    #[test]
    fn a_grade_report_read_back_from_its_json_renders_byte_for_byte_as_before() {
        let original = stored_report();
        let wa = |r: &GradeReport| r.submissions[0].tests[1].judgement.clone().unwrap();
        let j = wa(&original);
        assert!(j.verdict == Verdict::WrongAnswer && j.first_wrong_move == Some(1));
        assert!(!j.moves.is_empty() && j.reference.solution().is_some_and(|m| !m.is_empty()));
        let stuck = original.submissions[0].tests[7].judgement.as_ref().unwrap();
        assert_eq!(stuck.reference, crate::puzzle::checker::Reference::NoSolution);

        let json = serde_json::to_string(&original).unwrap();
        let back: GradeReport = serde_json::from_str(&json).unwrap();
        assert_eq!(back, original);
        for (name, format) in formats() {
            assert_eq!(format.grade(&back), format.grade(&original), "{name} report");
        }
        // The HTML report draws its replays from those moves: without them
        // it is not the same page, so the comparison above covers them.
        let mut bare = original.clone();
        let t = &mut bare.submissions[0].tests[1];
        t.judgement = Some(crate::puzzle::checker::Judgement {
            moves: Vec::new(),
            reference: crate::puzzle::checker::Reference::NotComputed,
            ..wa(&original)
        });
        assert_ne!(Html.grade(&bare), Html.grade(&original));
    }

    #[test]
    fn a_reference_or_moves_that_are_not_moves_are_refused() {
        let json = serde_json::to_string(&stored_report()).unwrap();
        for (from, to) in [
            ("\"moves\":[\"2 0 -1\"", "\"moves\":[\"2 0 7\""),
            ("\"reference\":\"-1\"", "\"reference\":\"-2\""),
            ("\"reference\":[\"", "\"reference\":[\"9 "),
        ] {
            assert!(json.contains(from), "{from}");
            let bad = json.replacen(from, to, 1);
            assert!(
                serde_json::from_str::<GradeReport>(&bad).is_err(),
                "{to} read as a move"
            );
        }
    }

    #[test]
    fn the_json_grade_report_names_the_first_wrong_move() {
        let v: serde_json::Value = serde_json::from_str(&Json.grade(&grade_report())).unwrap();
        let t = &v["submissions"][0]["tests"][1];
        assert_eq!(v["schema_version"], 1);
        assert_eq!(t["verdict"], "WA");
        assert_eq!(t["judgement"]["first_wrong_move"], 1);
        assert_eq!(t["judgement"]["first_wrong_move_text"], "2 0 -1");
    }
}
