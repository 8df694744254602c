//! CSV, for a spreadsheet: a grading as one row per submission (in ranking
//! order) with its total and the points of each test, under the header
//! `contestant,total,<test>,...`; CI checks and validation findings one per
//! row. Written by [`crate::safe::csv_file`]: a UTF-8 byte order mark
//! first (Excel and WPS on a Chinese Windows then read UTF-8, not GBK),
//! quoting the `csv` crate's (RFC 4180).
//!
//! [`gradebook`] writes final grades as a learning management system's
//! grade import reads them (Moodle's "Import grades from CSV", Canvas's
//! gradebook import).
//!
//! Every cell that holds text (contestant, test, package and file names,
//! results, messages) goes through [`crate::safe::csv_cell`], which keeps a
//! spreadsheet from reading any part of it as a formula (OWASP's "CSV
//! Injection"); numbers are written as they are.

use super::ReportFormat;
use crate::judge::grading::GradeReport;
use crate::safe::{csv_cell, csv_file};
use crate::workflows::ci::CiReport;
use crate::workflows::validate::ValidationReport;

/// Comma-separated values.
pub struct Csv;

/// Rows to CSV text, as people open it ([`csv_file`]).
fn table(rows: impl IntoIterator<Item = Vec<String>>) -> String {
    csv_file(rows)
}

/// A contestant's full name from their login, where known.
pub type NameOf<'a> = &'a dyn Fn(&str) -> Option<String>;

impl Csv {
    /// The grading, as [`ReportFormat::grade`] writes it, with a last
    /// column `name`: each contestant's full name (`name_of` their login;
    /// empty where it gives none). At the end, so that every column before
    /// it is where [`ReportFormat::grade`] puts it (a program reading
    /// `contestant,total,<test>,...` by position reads this file too).
    /// The online judge's `/admin/report.csv`.
    pub fn grade_with_names(&self, report: &GradeReport, name_of: NameOf) -> String {
        grading(report, Some(name_of))
    }
}

/// A grading's rows, with the `name` column where `name_of` is given.
fn grading(report: &GradeReport, name_of: Option<NameOf>) -> String {
    let report = &*super::with_every_test(report);
    let mut header = vec!["contestant".to_string(), "total".to_string()];
    header.extend(report.tests.iter().map(|t| csv_cell(t)));
    header.extend(name_of.map(|_| "name".to_string()));
    let rows = super::ranked(report).into_iter().map(|(_, _, s)| {
        let mut row = vec![csv_cell(s.name()), s.score.to_string()];
        row.extend(
            report
                .tests
                .iter()
                .map(|t| super::result_of(s, t).map_or(0, |r| r.points).to_string()),
        );
        row.extend(name_of.map(|f| csv_cell(&f(s.name()).unwrap_or_default())));
        row
    });
    table(std::iter::once(header).chain(rows))
}

impl ReportFormat for Csv {
    fn grade(&self, report: &GradeReport) -> String {
        grading(report, None)
    }

    fn ci(&self, report: &CiReport) -> String {
        let header = ["package", "check", "expected", "result", "status"]
            .map(String::from)
            .to_vec();
        let rows = report.checks.iter().map(|c| {
            let status = if c.failure.is_some() { "mismatch" } else { "ok" };
            vec![
                csv_cell(&c.package),
                csv_cell(&c.name),
                csv_cell(&c.expected.to_string()),
                csv_cell(&c.result),
                status.to_string(),
            ]
        });
        table(std::iter::once(header).chain(rows))
    }

    fn validation(&self, report: &ValidationReport) -> String {
        let header = ["file", "line", "problem"].map(String::from).to_vec();
        let rows = report.problems.iter().map(|p| {
            vec![
                csv_cell(&p.file.display().to_string()),
                p.line.map(|l| l.to_string()).unwrap_or_default(),
                csv_cell(&p.message),
            ]
        });
        table(std::iter::once(header).chain(rows))
    }
}

/// The learning management systems whose grade import [`gradebook`] writes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gradebook {
    /// Moodle's "Import grades from CSV": a column the teacher maps to a
    /// user field (`username`), and one to map to the grade item.
    Moodle,
    /// Canvas's gradebook import: `Student`, `ID`, `SIS User ID`, `SIS
    /// Login ID`, `Section`, then the assignment's column, and a `Points
    /// Possible` row first (Canvas creates the assignment from a column it
    /// does not know, with those points).
    Canvas,
}

impl Gradebook {
    /// Every value, in the order links list them.
    pub const ALL: [Gradebook; 2] = [Gradebook::Moodle, Gradebook::Canvas];

    /// Its name in file names and URLs.
    pub fn as_str(self) -> &'static str {
        match self {
            Gradebook::Moodle => "moodle",
            Gradebook::Canvas => "canvas",
        }
    }
}

impl std::str::FromStr for Gradebook {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Gradebook::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| format!("unknown gradebook `{s}` (moodle or canvas)"))
    }
}

/// One student's final grade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalGrade {
    /// The login (matched against Moodle's username, Canvas's SIS Login ID;
    /// Canvas's ID and SIS User ID are left empty: the judge does not know
    /// them).
    pub login: String,
    /// The full name.
    pub name: String,
    /// The points.
    pub points: i64,
}

/// Final grades for `lms`'s import: one row per student, the grade in a
/// column named `assignment` (out of `points_possible`).
pub fn gradebook(lms: Gradebook, assignment: &str, points_possible: i64, grades: &[FinalGrade]) -> String {
    let assignment = csv_cell(assignment);
    match lms {
        Gradebook::Moodle => {
            let header = vec!["username".into(), "fullname".into(), assignment];
            let rows = grades
                .iter()
                .map(|g| vec![csv_cell(&g.login), csv_cell(&g.name), g.points.to_string()]);
            table(std::iter::once(header).chain(rows))
        }
        Gradebook::Canvas => {
            let header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
                .map(String::from)
                .into_iter()
                .chain([assignment])
                .collect();
            let blank = || String::new();
            let possible = vec![
                "Points Possible".into(),
                blank(),
                blank(),
                blank(),
                blank(),
                points_possible.to_string(),
            ];
            let rows = grades.iter().map(|g| {
                vec![
                    csv_cell(&g.name),
                    blank(),
                    blank(),
                    csv_cell(&g.login),
                    blank(),
                    g.points.to_string(),
                ]
            });
            table([header, possible].into_iter().chain(rows))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::grading::SubmissionReport;
    use crate::workflows::validate::Finding;

    const LINK: &str = "=HYPERLINK(\"http://x\",\"y\")";

    /// The cells of a CSV text, as a spreadsheet's importer reads them.
    fn cells(text: &str) -> Vec<Vec<String>> {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(String::from).collect())
            .collect()
    }

    #[test]
    fn a_grading_quotes_names_and_test_names_but_not_points() {
        let mut report = GradeReport::new("mayan", String::new());
        report.tests = vec!["secret/1".into(), "-2".into()];
        let mut s = SubmissionReport::new("class/x/mayan.c".into(), "c", 20);
        s.contestant = Some(LINK.into());
        s.no_program = Some("no program".into());
        report.submissions = vec![s];
        let text = Csv.grade(&report);
        assert!(
            text.contains("\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""),
            "{text}"
        );
        assert_eq!(
            cells(&text),
            [
                vec!["contestant", "total", "secret/1", "'-2"],
                vec![&format!("'{LINK}"), "0", "0", "0"]
            ]
        );
    }

    #[test]
    fn a_formula_after_a_semicolon_is_neutralised_in_both_gradebooks() {
        let grades = [FinalGrade {
            login: "hugo".into(),
            name: "Hugo;=1+1".into(),
            points: 7,
        }];
        for lms in [Gradebook::Moodle, Gradebook::Canvas] {
            let text = gradebook(lms, "Mayan puzzle", 310, &grades);
            assert!(text.contains("Hugo;'=1+1") && !text.contains(";=1+1"), "{text}");
        }
    }

    fn class() -> Vec<FinalGrade> {
        vec![
            FinalGrade {
                login: "alice".into(),
                name: "Alice Liddell".into(),
                points: 310,
            },
            FinalGrade {
                login: "bob".into(),
                name: LINK.into(),
                points: 0,
            },
        ]
    }

    #[test]
    fn moodle_gets_a_username_column_and_the_grade() {
        let text = gradebook(Gradebook::Moodle, "Mayan puzzle", 310, &class());
        assert_eq!(
            cells(&text),
            [
                vec!["username", "fullname", "Mayan puzzle"],
                vec!["alice", "Alice Liddell", "310"],
                vec!["bob", &format!("'{LINK}"), "0"],
            ]
        );
    }

    #[test]
    fn canvas_gets_its_five_columns_points_possible_and_the_grade() {
        let text = gradebook(Gradebook::Canvas, "Mayan puzzle", 310, &class());
        assert_eq!(
            cells(&text),
            [
                vec![
                    "Student",
                    "ID",
                    "SIS User ID",
                    "SIS Login ID",
                    "Section",
                    "Mayan puzzle"
                ],
                vec!["Points Possible", "", "", "", "", "310"],
                vec!["Alice Liddell", "", "", "alice", "", "310"],
                vec![&format!("'{LINK}"), "", "", "bob", "", "0"],
            ]
        );
    }

    #[test]
    fn validation_quotes_files_and_messages_but_not_line_numbers() {
        let report = ValidationReport {
            schema_version: crate::workflows::validate::SCHEMA_VERSION,
            target: "files".into(),
            problems: vec![Finding {
                file: "@evil.in".into(),
                line: Some(3),
                message: "-1 is not a colour".into(),
            }],
            coverage: Default::default(),
        };
        assert_eq!(
            cells(&Csv.validation(&report))[1],
            ["'@evil.in", "3", "'-1 is not a colour"]
        );
    }
}
