//! Text: a table per submission (test, verdict, time, memory, reason, and a
//! short diff under each WA; `AC*` for accepted over 80% of the time
//! limit), the score, and a summary table when several submissions were
//! graded. Tests whose data is broken are listed once, above the tables.

use super::ReportFormat;
use crate::judge::grading::{GradeReport, SubmissionReport};
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use std::fmt::Write;

/// Plain text tables.
pub struct Text;

fn memory(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn submission(out: &mut String, report: &GradeReport, s: &SubmissionReport) {
    let _ = writeln!(
        out,
        "== {} ({})",
        s.name(),
        if s.language.is_empty() { "-" } else { &s.language }
    );
    if let Some(why) = &s.no_program {
        let _ = writeln!(out, "{why}");
    } else if let Some(err) = &s.judge_error {
        let _ = writeln!(out, "FAIL: judge error: {err}");
    } else if let Some(ce) = &s.compile_error {
        let _ = writeln!(out, "CE: compilation failed:");
        for line in ce.lines() {
            let _ = writeln!(out, "    {line}");
        }
    } else {
        let width = s.tests.iter().map(|t| t.test.len()).max().unwrap_or(4).max(4);
        let _ = writeln!(
            out,
            "{:<width$}  verdict  {:>8}  {:>10}  reason",
            "test", "time", "memory"
        );
        for t in &s.tests {
            let reason = match report.broken(&t.test) {
                Some(_) => "the test's data is broken (see above)",
                None => t.reason.as_str(),
            };
            let _ = writeln!(
                out,
                "{:<width$}  {:<7}  {:>5} ms  {:>10}  {}",
                t.test,
                super::short_verdict(report, s, &t.test),
                t.time_ms,
                memory(t.memory_kib),
                reason
            );
            if let Some(diff) = &t.diff {
                for line in diff.lines() {
                    let _ = writeln!(out, "{:<width$}    {line}", "");
                }
            }
        }
        if s.tests.iter().any(|t| t.near_limit(report.time_limit_ms)) {
            let _ = writeln!(out, "{}", super::near_limit_legend(report));
        }
    }
    let _ = writeln!(out, "score: {} / {}", s.score, s.max_score);
}

/// Everything a program wrote (outputs in diffs, compiler messages) is
/// passed through [`crate::safe::terminal_safe`]: no escape sequence reaches
/// the terminal.
impl ReportFormat for Text {
    fn grade(&self, report: &GradeReport) -> String {
        let mut out = String::new();
        if let Some(io) = &report.file_io {
            let _ = writeln!(
                out,
                "file I/O: programs read {} and write {} in their folder\n",
                io.input, io.output
            );
        }
        if !report.broken_tests.is_empty() {
            let _ = writeln!(
                out,
                "broken tests (FAIL for every submission: the test data is wrong):"
            );
            for b in &report.broken_tests {
                let _ = writeln!(out, "  {}: {}", b.test, b.reason);
            }
            out.push('\n');
        }
        for (i, s) in report.submissions.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            submission(&mut out, report, s);
        }
        if report.submissions.len() > 1 {
            let width = report
                .submissions
                .iter()
                .map(|s| s.name().len())
                .max()
                .unwrap_or(10)
                .max(10);
            let _ = writeln!(out, "\nsummary ({} submissions)", report.submissions.len());
            let _ = writeln!(out, "{:<width$}  {:>9}  verdicts", "submission", "score");
            for s in &report.submissions {
                let score = format!("{}/{}", s.score, s.max_score);
                let _ = writeln!(out, "{:<width$}  {:>9}  {}", s.name(), score, s.verdict_counts());
            }
        }
        crate::safe::terminal_safe(&out)
    }

    fn ci(&self, report: &CiReport) -> String {
        let mut out = String::new();
        let w_pkg = report
            .checks
            .iter()
            .map(|c| c.package.len())
            .max()
            .unwrap_or(7)
            .max(7);
        let w_name = report
            .checks
            .iter()
            .map(|c| c.name.len())
            .max()
            .unwrap_or(5)
            .max(5);
        let w_exp = report
            .checks
            .iter()
            .map(|c| c.expected.to_string().len())
            .max()
            .unwrap_or(8)
            .max(8);
        let _ = writeln!(
            out,
            "{:<w_pkg$}  {:<w_name$}  {:<w_exp$}  status    result",
            "package", "check", "expected"
        );
        for c in &report.checks {
            let status = if c.failure.is_some() { "MISMATCH" } else { "ok" };
            let _ = writeln!(
                out,
                "{:<w_pkg$}  {:<w_name$}  {:<w_exp$}  {status:<8}  {}",
                c.package, c.name, c.expected, c.result
            );
            if let Some(why) = &c.failure {
                for line in why.lines() {
                    let _ = writeln!(out, "{:<w_pkg$}    {line}", "");
                }
            }
        }
        let limits = report.time_limits();
        if !limits.is_empty() {
            let _ = writeln!(
                out,
                "time limits (problemtools' rules: at least 2x the slowest accepted time; TLE programs still TLE under 2x the limit):"
            );
            for support in &limits {
                let mark = if support.holds() { "ok" } else { "BROKEN" };
                let _ = writeln!(out, "  {mark:<6}  {}", support.line());
            }
        }
        let _ = writeln!(
            out,
            "ci (shard {}): {} checks, {} mismatches",
            report.shard,
            report.checks.len(),
            report.failures()
        );
        crate::safe::terminal_safe(&out)
    }

    fn validation(&self, report: &ValidationReport) -> String {
        let mut out = String::new();
        for p in &report.problems {
            let _ = writeln!(out, "{p}");
        }
        let _ = writeln!(out, "{}", report.coverage);
        let n = report.problems.len();
        let _ = writeln!(
            out,
            "validate: {} tests, {n} problem{}",
            report.coverage.tests,
            if n == 1 { "" } else { "s" }
        );
        crate::safe::terminal_safe(&out)
    }
}
