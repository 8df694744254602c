//! CSV, for a spreadsheet: a grading as one row per submission (in ranking
//! order) with its total and the points of each test, under the header
//! `contestant,total,<test>,...`; CI checks and validation findings one per
//! row. Quoting is the `csv` crate's (RFC 4180).

use super::ReportFormat;
use crate::judge::grading::GradeReport;
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;

/// Comma-separated values.
pub struct Csv;

/// Rows to CSV text.
fn table(rows: impl IntoIterator<Item = Vec<String>>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.write_record(&row).expect("writing to memory");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("UTF-8 in, UTF-8 out")
}

impl ReportFormat for Csv {
    fn grade(&self, report: &GradeReport) -> String {
        let report = &*super::with_every_test(report);
        let mut header = vec!["contestant".to_string(), "total".to_string()];
        header.extend(report.tests.iter().cloned());
        let rows = super::ranked(report).into_iter().map(|(_, _, s)| {
            let mut row = vec![s.name().to_string(), s.score.to_string()];
            row.extend(
                report
                    .tests
                    .iter()
                    .map(|t| super::result_of(s, t).map_or(0, |r| r.points).to_string()),
            );
            row
        });
        table(std::iter::once(header).chain(rows))
    }

    fn ci(&self, report: &CiReport) -> String {
        let header = ["package", "check", "expected", "result", "status"]
            .map(String::from)
            .to_vec();
        let rows = report.checks.iter().map(|c| {
            let status = if c.failure.is_some() { "mismatch" } else { "ok" };
            vec![
                c.package.clone(),
                c.name.clone(),
                c.expected.to_string(),
                c.result.clone(),
                status.to_string(),
            ]
        });
        table(std::iter::once(header).chain(rows))
    }

    fn validation(&self, report: &ValidationReport) -> String {
        let header = ["file", "line", "problem"].map(String::from).to_vec();
        let rows = report.problems.iter().map(|p| {
            vec![
                p.file.display().to_string(),
                p.line.map(|l| l.to_string()).unwrap_or_default(),
                p.message.clone(),
            ]
        });
        table(std::iter::once(header).chain(rows))
    }
}
