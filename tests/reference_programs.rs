//! Every program under `reference/mayan/<expected verdict>/` gets its
//! folder's verdict when graded on the bundled problem, through the binary.

use assert_cmd::Command;
use mayan_judge::package::expected::{Expected, FOLDERS};
use mayan_judge::verdict::Verdict;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tool_for(file: &Path) -> Option<&'static str> {
    match file.extension()?.to_str()? {
        "c" => Some("gcc"),
        "cpp" => Some("g++"),
        "rs" => Some("rustc"),
        "py" => Some("python3"),
        _ => None,
    }
}

fn have(tool: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

fn verdict_of(code: &str) -> Verdict {
    serde_json::from_value(serde_json::Value::String(code.to_string())).expect("known verdict")
}

fn check_folder(folder: &str) {
    let expected: Expected = folder.parse().unwrap();
    let dir = root().join("reference/mayan").join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| tool_for(p).is_some())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no reference programs", dir.display());
    let cache = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for file in files {
        let tool = tool_for(&file).unwrap();
        if !have(tool) {
            eprintln!("SKIP: {} needs `{tool}`, which is not installed", file.display());
            continue;
        }
        let report = cache.path().join("report.json");
        Command::cargo_bin("mayan-judge")
            .unwrap()
            .timeout(Duration::from_secs(600))
            .current_dir(root())
            .env("MAYAN_JUDGE_CACHE", cache.path())
            .args(["grade", "--quiet", "--jobs", "2", "--json"])
            .arg(&report)
            .arg(&file)
            .assert()
            .code(if expected == Expected::Accepted { 0 } else { 1 });
        let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        let sub = &v["submissions"][0];
        let verdicts: Vec<Verdict> = sub["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| verdict_of(t["verdict"].as_str().unwrap()))
            .collect();
        if let Err(why) = expected.check(&verdicts) {
            panic!(
                "{}: {why}\n{}",
                file.display(),
                serde_json::to_string_pretty(sub).unwrap()
            );
        }
        checked += 1;
    }
    eprintln!("{folder}: {checked} programs got their expected verdict");
}

#[test]
fn accepted_programs_pass_every_test() {
    check_folder(FOLDERS[0]);
}

#[test]
fn wrong_answer_programs_get_wa() {
    check_folder(FOLDERS[1]);
}

#[test]
fn time_limit_exceeded_programs_get_tle() {
    check_folder(FOLDERS[2]);
}

#[test]
fn run_time_error_programs_get_re() {
    check_folder(FOLDERS[3]);
}
