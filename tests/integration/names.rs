//! Names that reach a spreadsheet or a terminal (issue 46, part 3): a
//! contestant's folder or full name that is a formula (`=HYPERLINK(...)`),
//! a formula after a `;` (`Hugo;=1+1`: Excel where the list separator is
//! `;`) or an escape sequence (one that sets the terminal's title), through
//! `similar` (its CSV and its terminal output), `grade --csv` and serve's
//! downloads (the report, the Moodle and Canvas gradebooks). No part of a
//! cell is a formula, whatever the reader's separator; no escape sequence
//! reaches the terminal.

use crate::serve_util::Server;
use crate::util::{grade_contest_to_csv, judge, write_in};

const LINK: &str = "=HYPERLINK(\"x.example\",\"y\")";
const TITLE: &str = "\x1b]0;title\x07";
const SEMI: &str = "Hugo;=1+1";

const PROG: &str = include_str!("../../reference/mayan/accepted/backtrack.cpp");

/// The cells (and raw parts) of a CSV text that a spreadsheet reads as a
/// formula: every part of a cell after a `,`, `;`, tab or line break, and
/// every part of a line after a `;` (a reader whose separator is `;` splits
/// the line there, quotes or not), that starts with `=`, `+`, `-` or `@`
/// after spaces and quotes. Numbers are left alone.
fn formulas(text: &str) -> Vec<String> {
    let starts = |part: &str| {
        part.trim_start_matches([' ', '"'])
            .starts_with(['=', '+', '-', '@'])
    };
    let mut found = Vec::new();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    for record in reader.records() {
        for cell in record.unwrap().iter().filter(|c| c.parse::<f64>().is_err()) {
            if cell.split([',', ';', '\t', '\r', '\n']).any(starts) {
                found.push(cell.to_string());
            }
        }
    }
    for line in text.lines() {
        if line.split(';').any(starts) {
            found.push(line.to_string());
        }
    }
    found
}

/// A contest folder of contestants named `names`, each with `program` (or
/// an empty folder where it is `None`).
fn contest(names: &[&str], program: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in names {
        let folder = dir.path().join("source").join(name);
        std::fs::create_dir_all(&folder).unwrap();
        if let Some(text) = program {
            write_in(&folder, "mayan.cpp", text);
        }
    }
    dir
}

#[test]
fn similar_writes_names_as_text_to_its_csv_and_the_terminal() {
    let dir = contest(&[LINK, TITLE, SEMI, "plain"], Some(PROG));
    let csv = dir.path().join("r.csv");
    let out = judge()
        .arg("similar")
        .arg("--contest")
        .arg(dir.path())
        .arg("--csv")
        .arg(&csv)
        .arg("-q")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        !stdout.contains(['\x1b', '\x07']),
        "an escape sequence reached the terminal: {stdout:?}"
    );
    assert!(stdout.contains("\\u{1b}]0;title\\u{7}"), "{stdout}");
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(formulas(&text), Vec::<String>::new(), "{text}");
    assert!(
        text.contains("Hugo;'=1+1") && text.contains("'=HYPERLINK"),
        "{text}"
    );
}

#[test]
fn grade_writes_names_as_text_to_its_csv_and_the_terminal() {
    let dir = contest(&[LINK, TITLE, SEMI], None);
    let csv = dir.path().join("r.csv");
    let out = grade_contest_to_csv(dir.path(), &csv);
    let text = std::fs::read_to_string(&csv).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    assert_eq!(formulas(&text), Vec::<String>::new(), "{text}");
    assert!(text.contains("Hugo;'=1+1"), "{text}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains(['\x1b', '\x07']), "{stdout:?}");
}

#[test]
fn serve_downloads_write_names_as_text() {
    let dir = crate::serve_util::contest_dir(&[], "");
    std::fs::write(
        dir.path().join("students.csv"),
        "name,password,display\nalice,alice-pw,\"=HYPERLINK(\"\"x.example\"\",\"\"y\"\")\"\nhugo,hugo-pw,Hugo;=1+1\n",
    )
    .unwrap();
    let server = Server::start_in(dir.path(), &[]);
    let teacher = server.teacher();
    for path in [
        "/admin/grades-moodle.csv",
        "/admin/grades-canvas.csv",
        "/admin/report.csv",
    ] {
        let page = teacher.get(path);
        assert_eq!(page.status, 200, "{path}");
        assert_eq!(
            formulas(&page.body),
            Vec::<String>::new(),
            "{path}: {}",
            page.body
        );
    }
    let moodle = teacher.get("/admin/grades-moodle.csv").body;
    assert!(
        moodle.contains("Hugo;'=1+1") && moodle.contains("'=HYPERLINK"),
        "{moodle}"
    );
}
