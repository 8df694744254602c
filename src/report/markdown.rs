//! Markdown: tables to paste in an issue or a class forum.

use super::ReportFormat;
use crate::judge::grading::GradeReport;
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use std::fmt::Write;

/// GitHub-flavoured Markdown.
pub struct Markdown;

/// A table cell: one line, pipes escaped.
fn cell(s: &str) -> String {
    s.replace('\n', " ").replace('|', "\\|")
}

impl ReportFormat for Markdown {
    fn grade(&self, report: &GradeReport) -> String {
        let mut out = format!("## Grading: {}\n\n", report.problem);
        if report.submissions.len() > 1 {
            out.push_str("| submission | language | score | verdicts |\n|---|---|---:|---|\n");
            for s in &report.submissions {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {}/{} | {} |",
                    cell(s.name()),
                    s.language,
                    s.score,
                    s.max_score,
                    s.verdict_counts()
                );
            }
            out.push('\n');
        }
        for s in &report.submissions {
            let _ = writeln!(
                out,
                "### `{}` ({}): {} / {}\n",
                cell(s.name()),
                s.language,
                s.score,
                s.max_score
            );
            if let Some(why) = &s.no_program {
                let _ = writeln!(out, "**Not graded:** {}\n", cell(why));
                continue;
            }
            if let Some(err) = &s.judge_error {
                let _ = writeln!(out, "**Judge error:** {}\n", cell(err));
                continue;
            }
            if let Some(ce) = &s.compile_error {
                let _ = writeln!(out, "**Compilation error:**\n\n```\n{ce}\n```\n");
                continue;
            }
            out.push_str("| test | verdict | time | memory | reason |\n|---|---|---:|---:|---|\n");
            for t in &s.tests {
                let _ = writeln!(
                    out,
                    "| {} | **{}** | {} ms | {:.1} MiB | {} |",
                    cell(&super::test_label(report, &t.test)),
                    t.verdict,
                    t.time_ms,
                    t.memory_kib as f64 / 1024.0,
                    cell(&t.reason)
                );
            }
            out.push('\n');
            for t in s.tests.iter().filter(|t| t.diff.is_some()) {
                let diff = t.diff.as_deref().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "<details><summary>{}: output against the reference answer</summary>\n\n```diff\n{diff}\n```\n</details>\n",
                    t.test
                );
            }
        }
        out
    }

    fn ci(&self, report: &CiReport) -> String {
        let mut out = format!(
            "## Package CI (shard {}): {} checks, {} mismatches\n\n| package | check | expected | status | result |\n|---|---|---|---|---|\n",
            report.shard,
            report.checks.len(),
            report.failures()
        );
        for c in &report.checks {
            let status = if c.failure.is_some() {
                "❌ mismatch"
            } else {
                "✅ ok"
            };
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {status} | {} |",
                cell(&c.package),
                cell(&c.name),
                c.expected,
                cell(&c.result)
            );
        }
        for c in report.checks.iter().filter(|c| c.failure.is_some()) {
            let why = c.failure.as_deref().unwrap_or_default();
            let _ = writeln!(out, "\n**{} `{}`:**\n\n```\n{why}\n```", c.package, c.name);
        }
        out
    }

    fn validation(&self, report: &ValidationReport) -> String {
        let mut out = format!(
            "## Validation of `{}`: {} tests, {} problems\n\n",
            cell(&report.target),
            report.coverage.tests,
            report.problems.len()
        );
        if !report.problems.is_empty() {
            out.push_str("| file | line | problem |\n|---|---:|---|\n");
            for p in &report.problems {
                let line = p.line.map(|l| l.to_string()).unwrap_or_default();
                let _ = writeln!(
                    out,
                    "| `{}` | {line} | {} |",
                    cell(&p.file.display().to_string()),
                    cell(&p.message)
                );
            }
            out.push('\n');
        }
        let _ = writeln!(out, "```\n{}\n```", report.coverage);
        out
    }
}
