//! The HTML report in a real browser: grade a wrong submission, render the
//! report with headless Chromium (Debian's `chromium` package), take a
//! screenshot, and check the page loaded and ran its script without errors.
//! [`dump_dom`] and [`page_count`] serve the contest's page too
//! (`contest.rs`).

use crate::util::{judge_within, tool};
use std::path::Path;

/// Flags for a headless run on a machine with no network and no display.
fn headless(chromium: &Path, profile: &Path) -> std::process::Command {
    let mut c = std::process::Command::new(chromium);
    c.args(crate::util::CHROMIUM_HEADLESS)
        .args(["--enable-logging=stderr", "--v=0", "--window-size=1300,1600"])
        .arg(format!("--user-data-dir={}", profile.display()));
    c
}

/// The page as Chromium built it, after checking that it loaded and its
/// script ran without errors.
pub fn dump_dom(chromium: &Path, html: &Path, profile: &Path) -> String {
    let url = format!("file://{}", html.display());
    let dom = headless(chromium, profile)
        .args(["--dump-dom", &url])
        .output()
        .expect("chromium runs");
    let log = String::from_utf8_lossy(&dom.stderr);
    assert!(dom.status.success(), "chromium failed: {log}");
    assert!(!log.contains("Uncaught"), "script error in the page: {log}");
    String::from_utf8_lossy(&dom.stdout).into_owned()
}

/// A count the page's own script wrote on `<body>` (`data-<name>`).
pub fn page_count(dom: &str, name: &str) -> usize {
    dom.split(&format!("data-{name}=\""))
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the page's script did not write data-{name}:\n{dom}"))
}

#[test]
fn the_html_report_renders_in_headless_chromium() {
    let Some(chromium) = tool("chromium") else { return };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // One test: row 0 reads 1 . 1 1 ., n = 2 (literal answer 2 0 1, 0 0 1).
    std::fs::create_dir_all(root.join("problems/p")).unwrap();
    std::fs::write(
        root.join("problems/p/problem.toml"),
        "name = \"p\"\ntitle = \"P\"\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join("testdata/p/secret")).unwrap();
    std::fs::write(root.join("testdata/p/secret/1.in"), "2\n1 0\n0\n1 0\n1 0\n0\n").unwrap();
    std::fs::write(root.join("testdata/p/secret/1.ans"), "2 0 1\n0 0 1\n").unwrap();
    // A valid solution that is not the smallest (the no-noop reading's).
    let wrong = root.join("wrong.py");
    std::fs::write(&wrong, "print('2 0 -1')\nprint('3 0 -1')\n").unwrap();
    let html = root.join("report.html");
    judge_within(120)
        .env("MAYAN_JUDGE_CACHE", root.join("cache"))
        .args(["grade", "--quiet", "--problem"])
        .arg(root.join("problems/p"))
        .arg("--html")
        .arg(&html)
        .arg(&wrong)
        .assert()
        .code(1);
    let url = format!("file://{}", html.display());

    let dom_text = dump_dom(&chromium, &html, &root.join("profile"));
    // The page's own script ran to the end: it counts the boards it drew
    // and the in-page links whose target is missing.
    let rendered = page_count(&dom_text, "rendered");
    assert!(rendered >= 5, "only {rendered} boards drawn");
    assert_eq!(page_count(&dom_text, "broken-links"), 0);
    assert!(dom_text.contains("the smallest solution has `2 0 1`"));

    let shot = root.join("report.png");
    let out = headless(&chromium, &root.join("profile2"))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(&url)
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let png = std::fs::read(&shot).expect("a screenshot");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(
        png.len() > 10_000,
        "suspiciously small screenshot: {} bytes",
        png.len()
    );
}
