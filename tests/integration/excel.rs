//! Marks as a Chinese teacher opens them (issue 57): every CSV a person
//! opens (`grade --csv`, `similar --csv`, serve's `/admin/report.csv` and
//! its Moodle and Canvas gradebooks) opened as Excel and WPS open it on a
//! Chinese Windows (UTF-8 where the file starts with UTF-8's byte order
//! mark, else the ANSI code page, GBK) shows `李四` as `李四`, not as
//! `鏉庡洓`; `/admin/report.csv` gives each login's full name; and a
//! `students.csv` that Excel saved in GBK is read, its names intact. The
//! marks workbook (`grade --xlsx`, `/admin/report.xlsx`), read as Excel
//! reads it (its sheet's XML and shared strings), holds the Chinese names
//! and headers, points as numbers, and a name starting with `=` as text.

use crate::serve_util::{Client, Server};
use crate::util::{grade_contest_to_csv, judge, write_in};

const LI_SI: &str = "李四";

const PROG: &str = include_str!("../../reference/mayan/accepted/backtrack.cpp");

/// The text of a CSV file as Excel (and WPS) on a Chinese Windows reads
/// it: UTF-8 after a UTF-8 byte order mark, else GBK.
fn as_excel_opens(bytes: &[u8]) -> String {
    match bytes.strip_prefix(b"\xef\xbb\xbf") {
        Some(utf8) => String::from_utf8(utf8.to_vec()).expect("UTF-8 after a UTF-8 byte order mark"),
        None => encoding_rs::GBK.decode_without_bom_handling(bytes).0.into_owned(),
    }
}

/// The cells of a CSV text.
fn cells(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// A contest folder with a contestant folder per name, each with `program`
/// (none where it is `None`).
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

/// A download's bytes, as they come (no decoding of the client's).
fn download(client: &Client, path: &str) -> Vec<u8> {
    let mut response = client.agent.get(format!("{}{path}", client.url)).call().unwrap();
    assert_eq!(response.status().as_u16(), 200, "{path}");
    response.body_mut().read_to_vec().unwrap()
}

#[test]
fn grade_csv_opened_as_excel_opens_it_shows_chinese_names_intact() {
    let dir = contest(&[LI_SI, "zhangsan"], None);
    let csv = dir.path().join("marks.csv");
    let out = grade_contest_to_csv(dir.path(), &csv);
    let bytes = std::fs::read(&csv).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    let rows = cells(&as_excel_opens(&bytes));
    assert_eq!(rows[0][..2], ["contestant", "total"], "{rows:?}");
    assert!(rows.iter().any(|r| r[0] == LI_SI), "{rows:?}");
}

#[test]
fn similar_csv_opened_as_excel_opens_it_shows_chinese_names_intact() {
    let dir = contest(&[LI_SI, "zhangsan"], Some(PROG));
    let csv = dir.path().join("pairs.csv");
    let out = judge()
        .args(["similar", "-q", "--contest"])
        .arg(dir.path())
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let rows = cells(&as_excel_opens(&std::fs::read(&csv).unwrap()));
    assert_eq!(rows[0][..2], ["a", "b"], "{rows:?}");
    assert!(rows[1][..2].contains(&LI_SI.to_string()), "{rows:?}");
}

#[test]
fn a_gbk_roster_is_read_and_every_download_opened_as_excel_opens_it_shows_the_chinese_names() {
    let dir = crate::serve_util::contest_dir(&[], "");
    let roster = format!("name,password,display\nlisi,lisi-pw,{LI_SI}\nzhangsan,zhangsan-pw,张三\n");
    let (gbk, _, unmappable) = encoding_rs::GBK.encode(&roster);
    assert!(
        !unmappable && std::str::from_utf8(&gbk).is_err(),
        "a GBK file, as Excel saves it"
    );
    std::fs::write(dir.path().join("students.csv"), &gbk).unwrap();
    let server = Server::start_in(dir.path(), &[]);
    let teacher = server.teacher();
    let report = cells(&as_excel_opens(&download(&teacher, "/admin/report.csv")));
    let header = &report[0];
    assert_eq!(
        header[..2],
        ["contestant", "total"],
        "the columns machines read stay first"
    );
    assert_eq!(header.last().map(String::as_str), Some("name"), "{header:?}");
    let name_of = |login: &str| {
        report
            .iter()
            .find(|r| r[0] == login)
            .and_then(|r| r.last().cloned())
    };
    assert_eq!(name_of("lisi").as_deref(), Some(LI_SI), "{report:?}");
    assert_eq!(name_of("zhangsan").as_deref(), Some("张三"), "{report:?}");
    let moodle = cells(&as_excel_opens(&download(&teacher, "/admin/grades-moodle.csv")));
    assert!(moodle.iter().any(|r| r[..2] == ["lisi", LI_SI]), "{moodle:?}");
    let canvas = cells(&as_excel_opens(&download(&teacher, "/admin/grades-canvas.csv")));
    assert!(
        canvas.iter().any(|r| r[0] == LI_SI && r[3] == "lisi"),
        "{canvas:?}"
    );
}

#[test]
fn a_roster_in_neither_utf8_nor_gbk_stops_serve_naming_file_and_line_in_the_teachers_language() {
    let dir = crate::serve_util::contest_dir(&[], "");
    let mut bytes = b"name,display\nlisi,".to_vec();
    bytes.extend_from_slice(b"\xff\xff\n");
    std::fs::write(dir.path().join("students.csv"), &bytes).unwrap();
    let out = judge()
        .env("LANG", "zh_CN.UTF-8")
        .env_remove("LC_ALL")
        .args(["serve", "--dry-run", "--contest"])
        .arg(dir.path().join("contest.toml"))
        .arg("--db")
        .arg(dir.path().join("contest.db"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("students.csv 第 2 行：既不是 UTF-8，也不是 GBK/GB18030"),
        "{stderr}"
    );
    assert!(stderr.contains("另存为“CSV UTF-8”"), "{stderr}");
}

#[test]
fn report_csv_gives_each_logins_full_name_in_a_last_column() {
    let dir = crate::serve_util::contest_dir(&[], "");
    let roster = format!("name,password,display\nlisi,lisi-pw,{LI_SI}\nbob,bob-pw,\n");
    std::fs::write(dir.path().join("students.csv"), roster).unwrap();
    let server = Server::start_in(dir.path(), &[]);
    let report = cells(&as_excel_opens(&download(&server.teacher(), "/admin/report.csv")));
    let columns = report[0].len();
    assert_eq!(report[0][columns - 1], "name", "{report:?}");
    let name_of = |login: &str| {
        report
            .iter()
            .find(|r| r[0] == login)
            .map(|r| r[columns - 1].clone())
    };
    assert_eq!(name_of("lisi").as_deref(), Some(LI_SI), "{report:?}");
    assert_eq!(
        name_of("bob").as_deref(),
        Some("bob"),
        "no display name: the login"
    );
}

#[test]
fn the_contestants_page_names_an_unreadable_roster_and_its_line_in_the_contests_language() {
    let dir = crate::serve_util::contest_dir(&["lisi"], "language = \"zh-CN\"\n");
    let server = Server::start_in(dir.path(), &[]);
    let mut bytes = b"name,password\nlisi,lisi-pw\nwangwu,".to_vec();
    bytes.extend_from_slice(b"\xff\n");
    std::fs::write(dir.path().join("students.csv"), &bytes).unwrap();
    let page = server.teacher().get("/admin/contestants");
    assert!(
        page.body.contains("students.csv 第 3 行：既不是 UTF-8"),
        "{}",
        page.body
    );
}

/// A cell of a workbook's first sheet, as Excel reads it.
#[derive(Debug, PartialEq)]
enum Cell {
    Text(String),
    Number(f64),
    /// A formula: Excel would compute it.
    Formula(String),
}

/// The XML text of `file` in the workbook `bytes`.
fn part(bytes: &[u8], file: &str) -> String {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("an xlsx is a zip archive");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut zip.by_name(file).unwrap(), &mut text).unwrap();
    text
}

/// XML's five escapes undone.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The text between `open`'s end (`>`) and `close`, in `xml` from `at`.
fn inner<'a>(xml: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = xml.find(open)?;
    let body = &xml[start..];
    let body = &body[body.find('>')? + 1..];
    Some(&body[..body.find(close)?])
}

/// The rows of the workbook's first sheet (`xl/worksheets/sheet1.xml`,
/// its strings in `xl/sharedStrings.xml`), and the sheet's name.
fn workbook_rows(bytes: &[u8]) -> (String, Vec<Vec<Cell>>) {
    let shared: Vec<String> = part(bytes, "xl/sharedStrings.xml")
        .split("<si>")
        .skip(1)
        .map(|si| unescape(inner(si, "<t", "</t>").unwrap_or_default()))
        .collect();
    let sheet = part(bytes, "xl/worksheets/sheet1.xml");
    let rows = sheet
        .split("<row ")
        .skip(1)
        .map(|row| {
            row.split("<c ")
                .skip(1)
                .map(|c| {
                    let value = inner(c, "<v", "</v>").unwrap_or_default();
                    if let Some(f) = inner(c, "<f", "</f>") {
                        Cell::Formula(unescape(f))
                    } else if c.starts_with("r=") && c.split('>').next().unwrap().contains("t=\"s\"") {
                        Cell::Text(shared[value.parse::<usize>().unwrap()].clone())
                    } else {
                        Cell::Number(value.parse().unwrap_or_else(|_| panic!("a number: {c}")))
                    }
                })
                .collect()
        })
        .collect();
    let name = part(bytes, "xl/workbook.xml");
    let name = name.split("<sheet name=\"").nth(1).unwrap();
    (unescape(&name[..name.find('"').unwrap()]), rows)
}

fn text(s: &str) -> Cell {
    Cell::Text(s.into())
}

#[test]
fn grade_xlsx_in_chinese_has_chinese_headers_names_and_points_as_numbers() {
    let dir = contest(&[LI_SI, "=1+1"], None);
    let xlsx = dir.path().join("成绩.xlsx");
    let out = judge()
        .env("MAYAN_JUDGE_CACHE", dir.path().join("cache"))
        .args(["grade", "--quiet", "--trusted", "--locale", "zh-CN", "--contest"])
        .arg(dir.path())
        .arg("--problem")
        .arg(crate::util::manifest().join("problems/mayan"))
        .arg("--xlsx")
        .arg(&xlsx)
        .output()
        .unwrap();
    let bytes = std::fs::read(&xlsx).unwrap_or_else(|e| panic!("{e}: {out:?}"));
    let (sheet, rows) = workbook_rows(&bytes);
    assert_eq!(sheet, "成绩");
    assert_eq!(
        rows[0][..3],
        [text("排名"), text("选手"), text("总分")],
        "{rows:?}"
    );
    assert!(
        matches!(&rows[0][3], Cell::Text(t) if t.starts_with("#1")),
        "{rows:?}"
    );
    assert_eq!(rows[0].last(), Some(&text("未评测")), "{rows:?}");
    let li_si = rows.iter().find(|r| r[1] == text(LI_SI)).expect("李四's row");
    assert_eq!(li_si[..1], [Cell::Number(1.0)], "a rank is a number");
    assert_eq!(li_si[2], Cell::Number(0.0), "a total is a number");
    assert!(
        matches!(li_si.last(), Some(Cell::Text(why)) if why.contains("没有")),
        "{li_si:?}"
    );
    assert!(
        rows.iter().any(|r| r[1] == text("=1+1")),
        "a name stays text: {rows:?}"
    );
    assert!(
        !rows.iter().flatten().any(|c| matches!(c, Cell::Formula(_))),
        "{rows:?}"
    );
}

#[test]
fn admin_report_xlsx_gives_display_names_beside_logins_and_keeps_a_formula_name_text() {
    const LINK: &str = "=HYPERLINK(\"http://evil.example\",\"点我\")";
    let dir = crate::serve_util::contest_dir(&[], "language = \"zh-CN\"\n");
    let roster = format!(
        "name,password,display\nlisi,lisi-pw,{LI_SI}\nhugo,hugo-pw,\"{}\"\n",
        LINK.replace('"', "\"\"")
    );
    std::fs::write(dir.path().join("students.csv"), roster).unwrap();
    let server = Server::start_in(dir.path(), &[]);
    let (sheet, rows) = workbook_rows(&download(&server.teacher(), "/admin/report.xlsx"));
    assert_eq!(sheet, "成绩");
    assert_eq!(
        rows[0][..4],
        [text("排名"), text("选手"), text("显示名"), text("总分")],
        "{rows:?}"
    );
    assert!(
        rows.iter().any(|r| r[1..3] == [text("lisi"), text(LI_SI)]),
        "{rows:?}"
    );
    assert!(
        rows.iter().any(|r| r[1..3] == [text("hugo"), text(LINK)]),
        "{rows:?}"
    );
    assert!(
        !rows.iter().flatten().any(|c| matches!(c, Cell::Formula(_))),
        "{rows:?}"
    );
}
