//! Reports of grading, validation and package CI, one file per format behind
//! one trait (the layout of hyperfine's exporters): `text` for a terminal,
//! `json` for machines, `junit` for CI systems, `markdown` to paste in an
//! issue or a class forum, `html` to look at a verdict. Files are written atomically, so a crash or Ctrl-C never
//! leaves half a report.

mod html;
mod json;
mod junit;
mod markdown;
mod text;

pub use html::Html;
pub use json::Json;
pub use junit::Junit;
pub use markdown::Markdown;
pub use text::Text;

use crate::judge::grading::GradeReport;
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
    use crate::puzzle::checker::{Options, check};
    use crate::puzzle::verdict::Verdict;
    use crate::workflows::ci::Check;
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
            diff,
            transcript: Default::default(),
        }
    }

    fn crashed(name: &str, verdict: Verdict, reason: &str) -> TestResult {
        TestResult {
            test: name.into(),
            input: EARLY.into(),
            verdict,
            time_ms: 3001,
            wall_ms: 3010,
            memory_kib: 2048,
            reason: reason.into(),
            judgement: None,
            diff: None,
            points: 0,
            transcript: Default::default(),
        }
    }

    fn grade_report() -> GradeReport {
        let tests = vec![
            test("sample/1", CASE4, "2 0 1\n1 1 1\n3 4 -1\n", 3),
            test("secret/1", EARLY, "2 0 -1\n3 0 -1\n", 4),
            test("secret/2", CASE4, "2 0 1\n1 one 1\n", 2),
            crashed("secret/3", Verdict::TimeLimit, "CPU time over 3000 ms"),
            crashed("secret/4", Verdict::RuntimeError, "killed by SIGSEGV"),
        ];
        GradeReport {
            schema_version: crate::judge::grading::SCHEMA_VERSION,
            problem: "mayan".into(),
            protections: "rlimits (cpu, fsize, core, stack)".into(),
            submissions: vec![
                SubmissionReport {
                    submission: "class/alice.cpp".into(),
                    language: "cpp".into(),
                    compiled_from_cache: false,
                    compile_error: None,
                    judge_error: None,
                    score: 10,
                    max_score: 50,
                    tests,
                },
                SubmissionReport {
                    submission: "class/bob.c".into(),
                    language: "c".into(),
                    compiled_from_cache: false,
                    compile_error: Some("bob.c:1:1: error: expected ';' before '}' token".into()),
                    judge_error: None,
                    tests: Vec::new(),
                    score: 0,
                    max_score: 50,
                },
            ],
        }
    }

    fn ci_report() -> CiReport {
        let check = |name: &str, expected: &str, result: &str, failure: Option<&str>| Check {
            package: "mayan".into(),
            name: name.into(),
            expected: expected.into(),
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

    fn formats() -> [(&'static str, &'static dyn ReportFormat); 5] {
        [
            ("text", &Text),
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
