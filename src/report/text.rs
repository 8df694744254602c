//! Text: a table per submission (test, verdict, time, memory, reason, and a
//! short diff under each WA; `AC*` for accepted over 80% of the time
//! limit), the score, and a summary table when several submissions were
//! graded. Tests whose data is broken are listed once, above the tables.
//! The grading report is in a language ([`Text::grade_in`]: `--locale`, or
//! the environment's); CI and validation reports are English.

use super::ReportFormat;
use crate::i18n::{Arg, Locale};
use crate::judge::grading::{GradeReport, SubmissionReport};
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use std::fmt::Write;

/// Plain text tables.
pub struct Text;

/// `text` padded with spaces to `width` terminal columns (a Chinese
/// character takes two), on the right (`left`) or the left.
fn pad(text: &str, width: usize, left: bool) -> String {
    let fill = " ".repeat(width.saturating_sub(unicode_width::UnicodeWidthStr::width(text)));
    if left {
        format!("{text}{fill}")
    } else {
        format!("{fill}{text}")
    }
}

/// A message with arguments given as text.
fn say(l: Locale, id: &str, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, Arg)> = args.iter().map(|(k, v)| (*k, Arg::from(v.as_str()))).collect();
    l.text(id, &args)
}

fn submission(out: &mut String, report: &GradeReport, s: &SubmissionReport, l: Locale) {
    let _ = writeln!(
        out,
        "== {} ({})",
        s.name(),
        if s.language.is_empty() { "-" } else { &s.language }
    );
    if let Some(why) = super::words::no_program(l, s) {
        let _ = writeln!(out, "{why}");
    } else if let Some(err) = super::words::judge_error(l, s) {
        let _ = writeln!(out, "{}", say(l, "text-judge-error", &[("error", err)]));
    } else if let Some(ce) = &s.compile_error {
        let _ = writeln!(out, "{}", l.t("text-compilation-failed"));
        for line in ce.lines() {
            let _ = writeln!(out, "    {line}");
        }
    } else {
        let test = l.t("text-test");
        let labels: Vec<String> = s
            .tests
            .iter()
            .map(|t| super::test_label(report, &t.test))
            .collect();
        let width = labels.iter().map(String::len).max().unwrap_or(4).max(4);
        let width = width.max(unicode_width::UnicodeWidthStr::width(test.as_str()));
        let _ = writeln!(
            out,
            "{}  {}  {}  {}  {}",
            pad(&test, width, true),
            pad(&l.t("text-verdict"), 7, true),
            pad(&l.t("text-time"), 8, false),
            pad(&l.t("text-memory"), 10, false),
            l.t("text-reason")
        );
        for (t, label) in s.tests.iter().zip(&labels) {
            let reason = match report.broken(&t.test) {
                Some(_) => l.t("run-broken-test"),
                None => super::words::test_reason(l, t),
            };
            let _ = writeln!(
                out,
                "{:<width$}  {:<7}  {:>5} ms  {:>10}  {}",
                label,
                super::short_verdict(report, s, &t.test),
                t.time_ms,
                super::words::memory(t.memory_kib),
                reason
            );
            if let Some(diff) = &t.diff {
                for line in diff.lines() {
                    let _ = writeln!(out, "{:<width$}    {line}", "");
                }
            }
        }
        if s.tests.iter().any(|t| t.near_limit(report.time_limit_ms)) {
            let _ = writeln!(out, "{}", super::near_limit_legend_in(report, l));
        }
    }
    let score = [("score", s.score.to_string()), ("max", s.max_score.to_string())];
    let _ = writeln!(out, "{}", say(l, "text-score", &score));
}

/// Everything a program wrote (outputs in diffs, compiler messages) is
/// passed through [`crate::safe::terminal_safe`]: no escape sequence reaches
/// the terminal.
impl Text {
    /// A grading session's report in a language.
    pub fn grade_in(&self, report: &GradeReport, l: Locale) -> String {
        let mut out = String::new();
        if let Some(io) = &report.file_io {
            let io = [("input", io.input.clone()), ("output", io.output.clone())];
            let _ = writeln!(out, "{}\n", say(l, "text-file-io", &io));
        }
        if !report.broken_tests.is_empty() {
            let _ = writeln!(out, "{}", l.t("text-broken-tests"));
            for b in &report.broken_tests {
                let _ = writeln!(out, "  {}", super::words::broken_test(l, b));
            }
            out.push('\n');
        }
        for (i, s) in report.submissions.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            submission(&mut out, report, s, l);
        }
        if report.submissions.len() > 1 {
            let width = report
                .submissions
                .iter()
                .map(|s| unicode_width::UnicodeWidthStr::width(s.name()))
                .max()
                .unwrap_or(10)
                .max(10);
            let n = [("n", report.submissions.len().to_string())];
            let _ = writeln!(out, "\n{}", say(l, "text-summary", &n));
            let _ = writeln!(
                out,
                "{}  {}  {}",
                pad(&l.t("text-submission"), width, true),
                pad(&l.t("text-score-column"), 9, false),
                l.t("text-verdicts")
            );
            for s in &report.submissions {
                let score = format!("{}/{}", s.score, s.max_score);
                let counts = super::words::verdict_counts(l, s);
                let _ = writeln!(out, "{}  {:>9}  {counts}", pad(s.name(), width, true), score);
            }
        }
        crate::safe::terminal_safe(&out)
    }
}

impl ReportFormat for Text {
    fn grade(&self, report: &GradeReport) -> String {
        self.grade_in(report, Locale::english())
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
