//! The teacher's marks as an Excel workbook (`.xlsx`), which Excel, WPS and
//! LibreOffice open natively in any locale (no code page to guess, unlike a
//! CSV): one row per contestant in ranking order, the headers in the
//! report's language (`排名`, `选手`, `显示名`, `总分`), one column per test
//! numbered `#1..#N` with its file name, points and totals as numbers (a
//! spreadsheet sums and sorts them), and why a contestant has nothing
//! graded in the last column. Written by `rust_xlsxwriter`.
//!
//! Every text (names, test names, reasons) is written as a string cell: a
//! name such as `=HYPERLINK(...)` stays text, never a formula (no `<f>`
//! element), so the CSV's quoting against formula injection is not needed
//! here.

use crate::i18n::Locale;
use crate::judge::grading::{GradeReport, SubmissionReport};
use rust_xlsxwriter::{Format, Workbook, Worksheet, XlsxError};

/// A contestant's display name from their login, where known.
pub type DisplayNameOf<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Excel's longest text in a cell, in characters.
const CELL_MAX: usize = 32_767;

/// The workbook's bytes: the grading's marks in `locale`, with a display
/// name column where `display_name_of` is given (the online judge's
/// accounts; `grade --contest` knows folder names only).
pub fn marks_workbook(
    report: &GradeReport,
    locale: Locale,
    display_name_of: Option<DisplayNameOf>,
) -> Result<Vec<u8>, XlsxError> {
    let report = &*super::with_every_test(report);
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.set_name(locale.t("marks-sheet"))?;
    let columns = header(sheet, report, locale, display_name_of.is_some())?;
    for (row, (rank, _, s)) in (1u32..).zip(super::ranked(report)) {
        let mut cells = Cells::new(sheet, row);
        cells.number(rank as f64)?;
        cells.text(s.name())?;
        if let Some(display) = display_name_of {
            cells.text(&display(s.name()).unwrap_or_default())?;
        }
        cells.number(f64::from(s.score))?;
        for test in &report.tests {
            cells.number(super::result_of(s, test).map_or(0.0, |r| f64::from(r.points)))?;
        }
        cells.text(&not_graded(locale, s))?;
    }
    let rows = u32::try_from(report.submissions.len()).unwrap_or(u32::MAX - 1);
    sheet.set_freeze_panes(1, 0)?;
    sheet.autofilter(0, 0, rows, columns - 1)?;
    book.save_to_buffer()
}

/// Writes the header row; returns the number of columns.
fn header(sheet: &mut Worksheet, report: &GradeReport, l: Locale, display: bool) -> Result<u16, XlsxError> {
    let bold = Format::new().set_bold();
    let mut titles = vec![l.t("marks-rank"), l.t("marks-contestant")];
    titles.extend(display.then(|| l.t("marks-display-name")));
    titles.push(l.t("marks-total"));
    titles.extend(report.tests.iter().map(|t| super::test_label(report, t)));
    titles.push(l.t("marks-not-graded"));
    for (col, title) in (0u16..).zip(&titles) {
        sheet.write_string_with_format(0, col, clipped(title), &bold)?;
    }
    sheet.set_column_width(1, 16)?;
    if display {
        sheet.set_column_width(2, 16)?;
    }
    Ok(u16::try_from(titles.len()).unwrap_or(u16::MAX))
}

/// Why a contestant has no marks (no program, a judge error, `CE`); empty
/// when they were graded.
fn not_graded(l: Locale, s: &SubmissionReport) -> String {
    super::words::no_program(l, s)
        .or_else(|| super::words::judge_error(l, s))
        .or_else(|| s.compile_error.as_ref().map(|_| "CE".to_string()))
        .unwrap_or_default()
}

/// `text` within Excel's limit for a cell.
fn clipped(text: &str) -> String {
    text.chars().take(CELL_MAX).collect()
}

/// The cells of one row, written left to right.
struct Cells<'a> {
    sheet: &'a mut Worksheet,
    row: u32,
    col: u16,
}

impl<'a> Cells<'a> {
    fn new(sheet: &'a mut Worksheet, row: u32) -> Self {
        Cells { sheet, row, col: 0 }
    }

    /// A string cell (never a formula, whatever it starts with).
    fn text(&mut self, text: &str) -> Result<(), XlsxError> {
        self.sheet.write_string(self.row, self.col, clipped(text))?;
        self.col += 1;
        Ok(())
    }

    fn number(&mut self, n: f64) -> Result<(), XlsxError> {
        self.sheet.write_number(self.row, self.col, n)?;
        self.col += 1;
        Ok(())
    }
}
