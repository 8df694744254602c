//! The ranking of a contest, for a terminal: one row per contestant (rank,
//! name, total, then one short verdict per test: `AC`, `AC*` for accepted
//! over 80% of the time limit, `WA`, `TLE`, ...), best total first; then
//! what the columns are, the tests no one could be judged on (listed once),
//! and why some contestants have nothing graded (no program, two programs,
//! a compilation error). The reasons of each test are in the HTML and JSON
//! reports. CI and validation reports have no ranking: they are the text
//! format's. In a language: [`Ranking::grade_in`].

use super::{ReportFormat, Text};
use crate::i18n::{Arg, Locale};
use crate::judge::grading::{GradeReport, SubmissionReport};
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;
use std::fmt::Write;

/// The contest's ranking table.
pub struct Ranking;

/// Why a submission has no verdicts, in one line; `None` when it was graded.
/// A message with arguments given as text.
fn say(l: Locale, id: &str, args: &[(&str, String)]) -> String {
    let args: Vec<(&str, Arg)> = args.iter().map(|(k, v)| (*k, Arg::from(v.as_str()))).collect();
    l.text(id, &args)
}

fn not_graded(s: &SubmissionReport, l: Locale) -> Option<String> {
    if let Some(why) = super::words::no_program(l, s) {
        return Some(why);
    }
    if let Some(e) = super::words::judge_error(l, s) {
        return Some(say(l, "ranking-judge-error", &[("error", e)]));
    }
    let ce = s.compile_error.as_ref()?;
    let first = ce
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| ce.lines().next());
    let first = first.unwrap_or_default().trim().to_string();
    Some(say(l, "ranking-ce", &[("first", first)]))
}

fn header(out: &mut String, report: &GradeReport, l: Locale) {
    let io = match &report.file_io {
        Some(io) => say(
            l,
            "ranking-file-io",
            &[("input", io.input.clone()), ("output", io.output.clone())],
        ),
        None => l.t("ranking-stdio"),
    };
    let numbers = [
        ("problem", super::words::problem(l, report)),
        ("contestants", report.submissions.len().to_string()),
        ("tests", report.tests.len().to_string()),
        ("limit", report.time_limit_ms.to_string()),
        ("io", io),
    ];
    let _ = writeln!(out, "{}", say(l, "ranking-header", &numbers));
    if let Some(contest) = super::words::contest_folder(l, report) {
        let _ = writeln!(out, "{}", say(l, "ranking-contest", &[("contest", contest)]));
    }
    out.push('\n');
}

/// `text` padded with spaces to `width` terminal columns.
fn pad(text: &str, width: usize) -> String {
    let fill = width.saturating_sub(unicode_width::UnicodeWidthStr::width(text));
    format!("{text}{}", " ".repeat(fill))
}

fn table(out: &mut String, report: &GradeReport, l: Locale) {
    let (rank, contestant, total) = (
        l.t("ranking-rank"),
        l.t("ranking-contestant"),
        l.t("ranking-total"),
    );
    let width = |t: &str| unicode_width::UnicodeWidthStr::width(t);
    let name_w = report
        .submissions
        .iter()
        .map(|s| width(s.name()))
        .max()
        .unwrap_or(0)
        .max(width(&contestant));
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
    let _ = write!(
        out,
        "{}  {}  {} ",
        pad(&rank, 4),
        pad(&contestant, name_w),
        pad(&total, 5)
    );
    for i in 1..=report.tests.len() {
        let _ = write!(out, " {i:<cell_w$}");
    }
    end_line(out);
    for (rank, _, s) in super::ranked(report) {
        let _ = write!(out, "{rank:>4}  {}  {:>5} ", pad(s.name(), name_w), s.score);
        if s.no_program.is_some() {
            let _ = write!(out, " {}", super::words::no_program_short(l, s));
        } else if s.judge_error.is_some() {
            let _ = write!(out, " {}", l.t("ranking-fail"));
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

fn legend(out: &mut String, report: &GradeReport, l: Locale) {
    out.push('\n');
    let tests: Vec<String> = report
        .tests
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{} = {t}", i + 1))
        .collect();
    let _ = writeln!(out, "{}", say(l, "ranking-tests", &[("tests", tests.join(", "))]));
    let near = report
        .submissions
        .iter()
        .any(|s| s.tests.iter().any(|t| t.near_limit(report.time_limit_ms)));
    if near {
        let _ = writeln!(out, "{}", super::near_limit_legend_in(report, l));
    }
    if !report.broken_tests.is_empty() {
        let _ = writeln!(out, "{}", l.t("ranking-broken-tests"));
        for b in &report.broken_tests {
            let _ = writeln!(out, "  {}", super::words::broken_test(l, b));
        }
    }
    let notes: Vec<String> = report
        .submissions
        .iter()
        .filter_map(|s| {
            let why = not_graded(s, l)?;
            Some(format!(
                "  {}",
                say(
                    l,
                    "contestant-note",
                    &[("name", s.name().to_string()), ("why", why)]
                )
            ))
        })
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "{}", l.t("ranking-not-graded"));
        for n in notes {
            let _ = writeln!(out, "{n}");
        }
    }
}

impl Ranking {
    /// The ranking in a language (`grade --contest --locale zh-CN`, or a
    /// terminal whose LANG is Chinese).
    pub fn grade_in(&self, report: &GradeReport, l: Locale) -> String {
        let report = &*super::with_every_test(report);
        let mut out = String::new();
        header(&mut out, report, l);
        table(&mut out, report, l);
        legend(&mut out, report, l);
        crate::safe::terminal_safe(&out)
    }
}

impl ReportFormat for Ranking {
    fn grade(&self, report: &GradeReport) -> String {
        self.grade_in(report, Locale::english())
    }

    fn ci(&self, report: &CiReport) -> String {
        Text.ci(report)
    }

    fn validation(&self, report: &ValidationReport) -> String {
        Text.validation(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::grading::{SubmissionReport, TestResult};
    use crate::puzzle::verdict::Verdict;

    #[test]
    fn chinese_names_keep_the_rankings_columns_aligned_on_a_terminal() {
        let mut report = GradeReport::new("mayan", String::new());
        report.tests = vec!["secret/1".into()];
        for (name, score) in [("李四", 10), ("alice", 0), ("欧阳娜娜", 10)] {
            let mut s = SubmissionReport::new(name.into(), "cpp", 10);
            s.contestant = Some(name.into());
            s.score = score;
            let mut t = TestResult::new("secret/1".into(), b"");
            t.verdict = if score > 0 {
                Verdict::Accepted
            } else {
                Verdict::WrongAnswer
            };
            s.tests = vec![t];
            report.submissions.push(s);
        }
        for l in Locale::all() {
            let out = Ranking.grade_in(&report, l);
            let rows: Vec<&str> = out
                .lines()
                .filter(|r| r.contains("AC") || r.contains("WA"))
                .collect();
            assert_eq!(rows.len(), 3, "{out}");
            // The column of the verdicts starts at one terminal column.
            let at = |row: &str| {
                let cut = row.find(['A', 'W']).unwrap();
                unicode_width::UnicodeWidthStr::width(&row[..cut])
            };
            assert!(rows.iter().all(|r| at(r) == at(rows[0])), "{l}:\n{out}");
        }
    }
}
