//! The ranking of a contest, for a terminal: one row per contestant (rank,
//! name, total, then one short verdict per test: `AC`, `AC*` for accepted
//! over 80% of the time limit, `WA`, `TLE`, ...), best total first; then
//! what the columns are, the tests no one could be judged on (listed once),
//! and why some contestants have nothing graded (no program, two programs,
//! a compilation error). The reasons of each test are in the HTML and JSON
//! reports. CI and validation reports have no ranking: they are the text
//! format's.

use super::{ReportFormat, Text};
use crate::judge::grading::{GradeReport, SubmissionReport};
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use std::fmt::Write;

/// The contest's ranking table.
pub struct Ranking;

/// Why a submission has no verdicts, in one line; `None` when it was graded.
fn not_graded(s: &SubmissionReport) -> Option<String> {
    if let Some(why) = &s.no_program {
        return Some(why.clone());
    }
    if let Some(e) = &s.judge_error {
        return Some(format!("judge error: {e}"));
    }
    let ce = s.compile_error.as_ref()?;
    let first = ce
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| ce.lines().next());
    Some(format!("CE: {}", first.unwrap_or_default().trim()))
}

fn header(out: &mut String, report: &GradeReport) {
    let io = match &report.file_io {
        Some(io) => format!("file I/O ({} and {})", io.input, io.output),
        None => "stdin and stdout".to_string(),
    };
    let _ = writeln!(
        out,
        "{}: {} contestants, {} tests, time limit {} ms, {io}",
        report.problem,
        report.submissions.len(),
        report.tests.len(),
        report.time_limit_ms
    );
    if let Some(contest) = &report.contest {
        let _ = writeln!(out, "contest: {contest}");
    }
    out.push('\n');
}

fn table(out: &mut String, report: &GradeReport) {
    let name_w = report
        .submissions
        .iter()
        .map(|s| s.name().chars().count())
        .max()
        .unwrap_or(0)
        .max("contestant".len());
    // As narrow as the cells allow: 40 tests fit in 160 columns.
    let cell_w = report
        .submissions
        .iter()
        .flat_map(|s| {
            report
                .tests
                .iter()
                .map(move |t| super::short_verdict(report, s, t).len())
        })
        .chain([report.tests.len().to_string().len()])
        .max()
        .unwrap_or(2);
    let _ = write!(out, "rank  {:<name_w$}  total ", "contestant");
    for i in 1..=report.tests.len() {
        let _ = write!(out, " {i:<cell_w$}");
    }
    end_line(out);
    for (rank, _, s) in super::ranked(report) {
        let _ = write!(out, "{rank:>4}  {:<name_w$}  {:>5} ", s.name(), s.score);
        if s.no_program.is_some() {
            out.push_str(" no program");
        } else if s.judge_error.is_some() {
            out.push_str(" FAIL (judge error)");
        } else {
            for t in &report.tests {
                let _ = write!(out, " {:<cell_w$}", super::short_verdict(report, s, t));
            }
        }
        end_line(out);
    }
}

/// Ends a table row, without the padding of its last cell.
fn end_line(out: &mut String) {
    let trimmed = out.trim_end_matches(' ').len();
    out.truncate(trimmed);
    out.push('\n');
}

fn legend(out: &mut String, report: &GradeReport) {
    out.push('\n');
    let tests: Vec<String> = report
        .tests
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{} = {t}", i + 1))
        .collect();
    let _ = writeln!(out, "tests: {}", tests.join(", "));
    let near = report
        .submissions
        .iter()
        .any(|s| s.tests.iter().any(|t| t.near_limit(report.time_limit_ms)));
    if near {
        let _ = writeln!(out, "{}", super::near_limit_legend(report));
    }
    if !report.broken_tests.is_empty() {
        let _ = writeln!(
            out,
            "broken tests (FAIL for every contestant: the test data is wrong, not the programs):"
        );
        for b in &report.broken_tests {
            let _ = writeln!(out, "  {}: {}", b.test, b.reason);
        }
    }
    let notes: Vec<String> = report
        .submissions
        .iter()
        .filter_map(|s| Some(format!("  {}: {}", s.name(), not_graded(s)?)))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "not graded:");
        for n in notes {
            let _ = writeln!(out, "{n}");
        }
    }
}

impl ReportFormat for Ranking {
    fn grade(&self, report: &GradeReport) -> String {
        let report = &*super::with_every_test(report);
        let mut out = String::new();
        header(&mut out, report);
        table(&mut out, report);
        legend(&mut out, report);
        crate::safe::terminal_safe(&out)
    }

    fn ci(&self, report: &CiReport) -> String {
        Text.ci(report)
    }

    fn validation(&self, report: &ValidationReport) -> String {
        Text.validation(report)
    }
}
