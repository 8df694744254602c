//! JUnit XML, which CI systems display natively: a test suite per graded
//! submission (a test case per test), or per package in `ci` (a test case
//! per check). Written with quick-junit.

use super::ReportFormat;
use crate::judge::grading::GradeReport;
use crate::puzzle::verdict::Verdict;
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::collections::BTreeMap;
use std::time::Duration;

/// JUnit XML.
pub struct Junit;

fn failure(message: &str, description: &str) -> TestCaseStatus {
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    status.set_message(message).set_description(description);
    status
}

impl ReportFormat for Junit {
    fn grade(&self, report: &GradeReport) -> String {
        let mut out = Report::new(format!("mayan-judge grade {}", report.problem));
        for s in &report.submissions {
            let mut suite = TestSuite::new(s.name());
            let why = s
                .no_program
                .as_ref()
                .or(s.judge_error.as_ref())
                .or(s.compile_error.as_ref());
            if let Some(err) = why {
                let mut case = TestCase::new("compile", failure("not graded", err));
                case.set_classname(s.name());
                suite.add_test_case(case);
            }
            for t in &s.tests {
                let status = if t.verdict == Verdict::Accepted {
                    TestCaseStatus::success()
                } else {
                    let detail = match &t.diff {
                        Some(d) => format!("{}\n{d}", t.reason),
                        None => t.reason.clone(),
                    };
                    failure(&format!("{}: {}", t.verdict, t.reason), &detail)
                };
                let mut case = TestCase::new(t.test.as_str(), status);
                case.set_classname(s.name())
                    .set_time(Duration::from_millis(t.time_ms));
                suite.add_test_case(case);
            }
            out.add_test_suite(suite);
        }
        out.to_string().expect("JUnit serializes")
    }

    fn ci(&self, report: &CiReport) -> String {
        let mut out = Report::new("mayan-judge ci");
        let mut suites: BTreeMap<&str, TestSuite> = BTreeMap::new();
        for c in &report.checks {
            let status = match &c.failure {
                None => TestCaseStatus::success(),
                Some(why) => failure(&format!("expected {}, got {}", c.expected, c.result), why),
            };
            let mut case = TestCase::new(c.name.as_str(), status);
            case.set_classname(c.package.as_str())
                .set_time(Duration::from_millis(c.wall_ms));
            suites
                .entry(c.package.as_str())
                .or_insert_with(|| TestSuite::new(c.package.as_str()))
                .add_test_case(case);
        }
        out.add_test_suites(suites.into_values());
        out.to_string().expect("JUnit serializes")
    }

    fn validation(&self, report: &ValidationReport) -> String {
        let mut out = Report::new("mayan-judge validate");
        let mut suite = TestSuite::new(report.target.as_str());
        for p in &report.problems {
            let name = p.file.display().to_string();
            let mut case = TestCase::new(name.as_str(), failure(&p.message, &p.to_string()));
            case.set_classname(report.target.as_str());
            suite.add_test_case(case);
        }
        let ok = TestCase::new(
            format!("{} tests checked", report.coverage.tests),
            if report.problems.is_empty() {
                TestCaseStatus::success()
            } else {
                failure(&format!("{} problems", report.problems.len()), "")
            },
        );
        suite.add_test_case(ok);
        out.add_test_suite(suite);
        out.to_string().expect("JUnit serializes")
    }
}
